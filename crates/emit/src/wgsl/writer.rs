//! The WGSL writer: its state, what the module uses (functions, stages,
//! resource uses, transposed matrices), the order of the output and
//! functions with the entry point's attributes. Names are in `names.rs`,
//! types and struct declarations in `types.rs`, module-scope declarations
//! in `io.rs`, statements in `stmt.rs`, expressions in `expr.rs`,
//! built-in functions in `intrinsics.rs`.

use super::names::RULES;
use super::types::holds_matrix;
use legalis_ir::{FastHashMap, FastHashSet};
use std::collections::BTreeSet;
use std::fmt::Write as _;

use legalis_ir as ir;
use legalis_ir::{AddressSpace, Expression, Handle, ShaderStage, Statement, TypeInner};

use super::types::{Result, unsupported};
use super::{Error, Options};
use crate::binding::{self, Bindings};
use crate::namer::Namer;
use crate::resource_uses::Use;

pub(super) struct Writer<'a> {
    pub module: &'a ir::Module,
    /// The entry points written, in order.
    pub(super) entries: Vec<&'a ir::EntryPoint>,
    /// The stages of the entry points that reach each function: the
    /// stage-dependent decisions of a function are made with them.
    pub(super) stages: FastHashMap<Handle<ir::Function>, Vec<ShaderStage>>,
    /// What each entry point (in `entries` order) reaches.
    pub(super) entry_reach: Vec<ir::Reach>,
    /// Names taken at module scope.
    pub(super) names: Namer,
    pub struct_names: FastHashMap<Handle<ir::Type>, String>,
    pub member_names: FastHashMap<Handle<ir::Type>, Vec<String>>,
    pub global_names: FastHashMap<Handle<ir::GlobalVariable>, String>,
    pub function_names: FastHashMap<Handle<ir::Function>, String>,
    /// The `_Globals` uniform variable's name and its members' names.
    pub plain_uniforms: Option<(String, FastHashMap<Handle<ir::GlobalVariable>, String>)>,
    pub(super) bindings: Bindings,
    pub reachable: Vec<Handle<ir::Function>>,
    pub used_globals: BTreeSet<Handle<ir::GlobalVariable>>,
    pub uses: FastHashMap<Handle<ir::GlobalVariable>, Use>,
    /// `static` locals hoisted to `var<private>`: their module names.
    pub static_locals: FastHashMap<(Handle<ir::Function>, Handle<ir::LocalVariable>), String>,
    /// Globals whose initializer is not a constant expression: assigned at
    /// the start of the entry point, in declaration order.
    pub(super) entry_inits: Vec<Handle<ir::GlobalVariable>>,
    /// Structs reached from the uniform address space (their struct and
    /// array members get `@align(16)`).
    pub(super) uniform_structs: FastHashSet<Handle<ir::Type>>,
    /// Struct members holding column-major matrices (or arrays of them) in
    /// a buffer: stored as WGSL `matCxR` and read through `transpose`
    /// (see [`Writer::is_transposed`]).
    pub transposed_members: FastHashSet<(Handle<ir::Type>, u32)>,
    /// Plain uniforms and structured buffers of column-major matrices.
    pub transposed_globals: FastHashSet<Handle<ir::GlobalVariable>>,
    /// Globals an `Interlocked*` function updates: WGSL atomics live in
    /// variables of `atomic<T>` type, so these are declared so and every
    /// other access goes through `atomicLoad`/`atomicStore`.
    pub atomic_globals: FastHashSet<Handle<ir::GlobalVariable>>,
    /// Uniform arrays of scalars and small vectors: HLSL puts each element
    /// of a constant-buffer array at a 16-byte boundary, so they are
    /// declared `array<vec4<T>, N>` and an element reads its first
    /// components (see [`Writer::padded_components`]). Struct members here,
    /// plain uniforms in `padded_globals`.
    pub padded_members: FastHashSet<(Handle<ir::Type>, u32)>,
    pub padded_globals: FastHashSet<Handle<ir::GlobalVariable>>,
    /// `bool` members of buffer structs and `bool` plain uniforms: WGSL
    /// buffers hold no booleans, HLSL's are 32-bit, so they are stored as
    /// `u32` (`vecN<u32>`) and compared with zero when read.
    pub bool_members: FastHashSet<(Handle<ir::Type>, u32)>,
    pub bool_globals: FastHashSet<Handle<ir::GlobalVariable>>,
    /// Uniform matrices (and arrays of them) whose stored WGSL columns are
    /// 2-vectors: WGSL's `matCx2` has an 8-byte column stride where std140
    /// asks 16, so they are declared `array<vec4<f32>, C>` and rebuilt
    /// from the first two components of each `vec4` when read (see
    /// [`Writer::padded_matrix`]). Struct members here, plain uniforms in
    /// `padded_matrix_globals`.
    pub padded_matrix_members: FastHashSet<(Handle<ir::Type>, u32)>,
    pub padded_matrix_globals: FastHashSet<Handle<ir::GlobalVariable>>,
}

impl<'a> Writer<'a> {
    /// A writer of the entry points `entry_points` of `module` (at least
    /// one) in one WGSL module.
    pub fn new(module: &'a ir::Module, entry_points: &[usize], options: &Options) -> Result<Self> {
        let entries = crate::error::entry_points::<Error>(module, entry_points)?;
        let first = entry_points[0];
        let bindings = match (&options.bindings, entry_points.len()) {
            (Some(_), _) | (None, 1) => binding::of(
                module,
                first,
                legalis_bind::Target::Wgsl,
                options.bindings.as_ref(),
            ),
            (None, _) => Bindings::from_plan(
                &legalis_bind::plan_entries(
                    module,
                    entry_points,
                    legalis_bind::Target::Wgsl,
                    &Default::default(),
                )
                .plan,
            ),
        };
        let mut w = Writer {
            module,
            entries,
            stages: FastHashMap::default(),
            entry_reach: Vec::new(),
            names: Namer::new(RULES),
            struct_names: FastHashMap::default(),
            member_names: FastHashMap::default(),
            global_names: FastHashMap::default(),
            function_names: FastHashMap::default(),
            plain_uniforms: None,
            bindings,
            reachable: Vec::new(),
            used_globals: BTreeSet::new(),
            uses: FastHashMap::default(),
            static_locals: FastHashMap::default(),
            entry_inits: Vec::new(),
            uniform_structs: FastHashSet::default(),
            transposed_members: FastHashSet::default(),
            transposed_globals: FastHashSet::default(),
            atomic_globals: FastHashSet::default(),
            padded_members: FastHashSet::default(),
            padded_globals: FastHashSet::default(),
            bool_members: FastHashSet::default(),
            bool_globals: FastHashSet::default(),
            padded_matrix_members: FastHashSet::default(),
            padded_matrix_globals: FastHashSet::default(),
        };
        w.collect_used()?;
        if options.preserve_params {
            let uniforms = module.globals.iter();
            let uniforms = uniforms.filter(|(_, g)| g.space == ir::AddressSpace::Uniform);
            w.used_globals.extend(uniforms.map(|(h, _)| h));
        }
        w.collect_transposed();
        w.name_everything();
        Ok(w)
    }

    /// Functions reachable from the entry points (callees first, in
    /// module order) and the globals they or used initializers reach;
    /// what each entry point reaches.
    fn collect_used(&mut self) -> Result<()> {
        let mut all = BTreeSet::new();
        for entry in self.entries.clone() {
            let reach = self.reach(entry)?;
            for f in reach.functions() {
                let stages = self.stages.entry(f).or_default();
                if !stages.contains(&entry.stage) {
                    stages.push(entry.stage);
                }
            }
            all.extend(reach.functions());
            self.used_globals.extend(reach.globals());
            self.entry_reach.push(reach);
        }
        self.reachable = all.into_iter().collect();
        for f in self.reachable.clone() {
            self.collect_resource_uses(f);
        }
        Ok(())
    }

    /// The functions and globals one entry point reaches.
    fn reach(&self, entry: &ir::EntryPoint) -> Result<ir::Reach> {
        let reach = ir::Reach::of_entry_point(self.module, entry);
        if reach.undefined_call().is_some() {
            return Err(Error::NotLegalized {
                what: "a call of a function the module does not define".into(),
                span: entry.span,
            });
        }
        Ok(reach)
    }

    /// The stages of the entry points that reach `f` (every entry point's
    /// for module-scope code).
    pub fn stages_of(&self, f: Option<Handle<ir::Function>>) -> Vec<ShaderStage> {
        match f.and_then(|f| self.stages.get(&f)) {
            Some(stages) => stages.clone(),
            None => self.entries.iter().map(|e| e.stage).collect(),
        }
    }

    /// Reads, writes and comparisons of resource globals, and the globals
    /// `Interlocked*` functions update.
    fn collect_resource_uses(&mut self, f: Handle<ir::Function>) {
        let func = &self.module.functions[f];
        for (_, e) in func.expressions.iter() {
            if let Expression::Intrinsic { fun, args } = e
                && fun
                    .atomic()
                    .is_some_and(|(op, on_buffer)| !(on_buffer && op.compares()))
                && let Some(&dest) = args.first()
                && let Some(g) = super::expr::root_global(&func.expressions, dest)
            {
                self.atomic_globals.insert(g);
            }
        }
        crate::resource_uses::collect(func, &mut self.uses);
    }

    /// HLSL packs buffer matrices column-major unless `row_major`: memory
    /// holds HLSL columns, which WGSL reads as its columns, while the
    /// matrix convention wants the HLSL rows there. Such matrices are
    /// declared `matCxR` (their memory's shape) and read through
    /// `transpose`, which gives the `matRxC` value the code expects.
    fn collect_transposed(&mut self) {
        let module = self.module;
        for g in self.used_globals.clone() {
            let v = &module.globals[g];
            if v.space != AddressSpace::Uniform {
                continue;
            }
            match &module.types[v.ty].inner {
                TypeInner::ConstantBuffer { inner } | TypeInner::TextureBuffer { inner } => {
                    self.mark_transposed(*inner, &mut FastHashSet::default())
                }
                TypeInner::Buffer {
                    element: Some(e), ..
                } => {
                    if matches!(module.types[*e].inner, TypeInner::Matrix { .. })
                        && v.matrix_layout != Some(ir::MatrixLayout::RowMajor)
                    {
                        self.transposed_globals.insert(g);
                    }
                    self.mark_transposed(*e, &mut FastHashSet::default());
                }
                inner if !inner.is_resource() => {
                    if holds_matrix(module, v.ty)
                        && v.matrix_layout != Some(ir::MatrixLayout::RowMajor)
                    {
                        self.transposed_globals.insert(g);
                    }
                    self.mark_transposed(v.ty, &mut FastHashSet::default());
                }
                _ => {}
            }
        }
    }

    fn mark_transposed(&mut self, ty: Handle<ir::Type>, seen: &mut FastHashSet<Handle<ir::Type>>) {
        let module = self.module;
        match &module.types[ty].inner {
            TypeInner::Struct { members } => {
                if !seen.insert(ty) {
                    return;
                }
                for (i, m) in members.iter().enumerate() {
                    if holds_matrix(module, m.ty)
                        && m.matrix_layout != Some(ir::MatrixLayout::RowMajor)
                    {
                        self.transposed_members.insert((ty, i as u32));
                    }
                    self.mark_transposed(m.ty, seen);
                }
            }
            TypeInner::Array { base, .. } => self.mark_transposed(*base, seen),
            _ => {}
        }
    }

    pub fn write(mut self) -> Result<String> {
        let mut out = self.enables();
        let globals = self.globals()?;
        let functions = self.functions()?;
        let structs = self.structs()?;
        out.push_str(&structs);
        out.push_str(&globals);
        out.push_str(&functions);
        Ok(out)
    }

    /// The `enable` directives of the extensions the module uses: `f16`
    /// for any `f16` type the output spells or computes (see
    /// [`Writer::uses_f16`]), `clip_distances` for a
    /// `@builtin(clip_distances)` output, `dual_source_blending` for a
    /// `@blend_src` one.
    fn enables(&self) -> String {
        let member = |wanted: fn(&ir::Binding) -> bool| {
            self.module.types.iter().any(|(_, ty)| match &ty.inner {
                TypeInner::Struct { members, .. } => members
                    .iter()
                    .any(|m| m.io.binding.as_ref().is_some_and(wanted)),
                _ => false,
            })
        };
        let mut out = String::new();
        if self.uses_f16() {
            out.push_str("enable f16;\n");
        }
        if member(
            |b| matches!(b, ir::Binding::BuiltIn(b) if b.value == ir::SystemValue::ClipDistance),
        ) {
            out.push_str("enable clip_distances;\n");
        }
        if member(|b| matches!(b, ir::Binding::Location { index: Some(_), .. })) {
            out.push_str("enable dual_source_blending;\n");
        }
        if !out.is_empty() {
            out.push('\n');
        }
        out
    }

    /// Whether the output has an `f16` anywhere: in a global the entry
    /// points reach (a buffer's element too), or in a parameter, result,
    /// local or expression of a function they reach (an `h` literal is an
    /// expression of `f16` type). The types of the module that nothing
    /// written uses do not count: `enable f16;` asks the device for a
    /// feature.
    fn uses_f16(&self) -> bool {
        let module = self.module;
        let f16 = |ty| super::types::uses_f16(module, ty);
        if self.used_globals.iter().any(|&g| f16(module.globals[g].ty)) {
            return true;
        }
        self.reachable.iter().any(|&f| {
            let func = &module.functions[f];
            func.params.iter().any(|p| f16(p.ty))
                || func.result.as_ref().is_some_and(|r| f16(r.ty))
                || func.locals.iter().any(|(_, l)| f16(l.ty))
                || func
                    .expressions
                    .iter()
                    .any(|(h, _)| func.expressions.ty(h).is_some_and(f16))
        })
    }

    fn functions(&mut self) -> Result<String> {
        let mut out = String::new();
        for &f in &self.reachable.clone() {
            self.function(f, &mut out)?;
        }
        Ok(out)
    }

    fn function(&mut self, f: Handle<ir::Function>, out: &mut String) -> Result<()> {
        let module = self.module;
        let func = &module.functions[f];
        let entry_index = self.entries.iter().position(|e| e.function == f);
        let entry = entry_index.map(|k| self.entries[k]);
        let mut ctx = super::expr::FnCtx::new(self, f)?;
        let mut params = Vec::new();
        let mut prologue = String::new();
        for (i, p) in func.params.iter().enumerate() {
            let name = ctx.params[i].name.clone();
            let attrs = match (&p.io.binding, entry) {
                (Some(b), Some(entry)) => self.io_attributes(b, entry.stage, p.span)?,
                (None, Some(_)) => {
                    return Err(Error::NotLegalized {
                        what: format!(
                            "the entry-point parameter `{}` has no builtin or location",
                            p.name
                        ),
                        span: p.span,
                    });
                }
                _ => String::new(),
            };
            let inner = &module.types[p.ty].inner;
            let ty = if inner.is_resource() {
                match inner {
                    TypeInner::Texture(ir::Texture {
                        access: ir::ResourceAccess::Read,
                        ..
                    })
                    | TypeInner::Sampler { .. } => {
                        self.handle_type(p.ty, Use::default(), p.span)?
                    }
                    _ => {
                        return unsupported(
                            format!(
                                "a parameter of type `{}` (WGSL passes only sampled textures and samplers)",
                                ir::print::type_name(module, p.ty)
                            ),
                            p.span,
                        );
                    }
                }
            } else {
                self.spell(p.ty, p.span)?
            };
            let ty = if ctx.params[i].pointer {
                format!("ptr<function, {ty}>")
            } else {
                ty
            };
            match &ctx.params[i].copy {
                Some(copy) => {
                    params.push(format!("{attrs}{copy}: {ty}"));
                    writeln!(prologue, "    var {name}: {ty} = {copy};").ok();
                }
                None => params.push(format!("{attrs}{name}: {ty}")),
            }
        }
        if let Some(k) = entry_index {
            // The initializers of the globals this entry point reaches.
            for g in self.entry_inits.clone() {
                if !self.entry_reach[k].has_global(g) {
                    continue;
                }
                let init = module.globals[g].init;
                if let Some(init) = init {
                    let mut gctx = super::expr::FnCtx::for_globals(self);
                    let value = self.expr(&mut gctx, init)?;
                    writeln!(prologue, "    {} = {value};", self.global_names[&g]).ok();
                }
            }
        }
        let result = match &func.result {
            Some(r) => format!(" -> {}", self.spell(r.ty, r.span)?),
            None => String::new(),
        };
        if let Some(entry) = entry {
            let stage = match entry.stage {
                ShaderStage::Vertex => "@vertex".to_string(),
                ShaderStage::Fragment => "@fragment".to_string(),
                ShaderStage::Compute => {
                    let [x, y, z] = entry.attributes.workgroup_size.unwrap_or([1, 1, 1]);
                    format!("@compute @workgroup_size({x}, {y}, {z})")
                }
                other => {
                    return Err(Error::NotLegalized {
                        what: format!("a {} entry point", other.name()),
                        span: entry.span,
                    });
                }
            };
            if entry.attributes.early_depth_stencil {
                return unsupported(
                    "`[earlydepthstencil]` (WGSL cannot force early depth tests)",
                    entry.span,
                );
            }
            writeln!(out, "{stage}").ok();
        }
        let name = &self.function_names[&f];
        writeln!(out, "fn {name}({}){result} {{", params.join(", ")).ok();
        out.push_str(&prologue);
        let mut body = String::new();
        self.block(&mut ctx, &func.body, 1, &mut body)?;
        out.push_str(&body);
        out.push_str("}\n\n");
        Ok(())
    }
}

/// The stage of the entry point whose function returns the struct `ty`
/// (its members carry interface attributes), if one does.
pub(super) fn entry_result_stage(w: &Writer, ty: Handle<ir::Type>) -> Option<ShaderStage> {
    w.entries.iter().find_map(|e| {
        w.module.functions[e.function]
            .result
            .as_ref()
            .is_some_and(|r| r.ty == ty)
            .then_some(e.stage)
    })
}

/// The initializer of a `static` local's declaration.
pub(super) fn static_init(
    block: &ir::Block,
    local: Handle<ir::LocalVariable>,
) -> Option<Handle<Expression>> {
    for stmt in &block.stmts {
        if let Statement::Declare { local: l, init } = stmt
            && *l == local
        {
            return *init;
        }
        for b in stmt.blocks() {
            if let Some(init) = static_init(b, local) {
                return Some(init);
            }
        }
    }
    None
}
