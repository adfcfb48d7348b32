//! The WGSL writer: what the module uses, names, declarations (structs,
//! resources, `var<private>`/`var<workgroup>`, the `_Globals` uniform
//! struct) and functions with the entry point's attributes. Statements
//! and expressions are in `expr.rs`, built-in functions in
//! `intrinsics.rs`.

use legalis_ir::{FastHashMap, FastHashSet};
use std::collections::BTreeSet;
use std::fmt::Write as _;

use legalis_ir as ir;
use legalis_ir::{AddressSpace, Expression, Handle, ShaderStage, Span, Statement, TypeInner};

use super::keywords::is_reserved;
use super::types::{self, Result, unsupported};
use super::{Error, Options};
use crate::binding::{self, Bindings};
use crate::namer::{Namer, Rules};
use crate::resource_uses::Use;

pub(super) struct Writer<'a> {
    pub module: &'a ir::Module,
    /// The entry points written, in order.
    entries: Vec<&'a ir::EntryPoint>,
    /// The stages of the entry points that reach each function: the
    /// stage-dependent decisions of a function are made with them.
    stages: FastHashMap<Handle<ir::Function>, Vec<ShaderStage>>,
    /// What each entry point (in `entries` order) reaches.
    entry_reach: Vec<ir::Reach>,
    /// Names taken at module scope.
    names: Namer,
    pub struct_names: FastHashMap<Handle<ir::Type>, String>,
    pub member_names: FastHashMap<Handle<ir::Type>, Vec<String>>,
    pub global_names: FastHashMap<Handle<ir::GlobalVariable>, String>,
    pub function_names: FastHashMap<Handle<ir::Function>, String>,
    /// The `_Globals` uniform variable's name and its members' names.
    pub plain_uniforms: Option<(String, FastHashMap<Handle<ir::GlobalVariable>, String>)>,
    bindings: Bindings,
    pub reachable: Vec<Handle<ir::Function>>,
    pub used_globals: BTreeSet<Handle<ir::GlobalVariable>>,
    pub uses: FastHashMap<Handle<ir::GlobalVariable>, Use>,
    /// `static` locals hoisted to `var<private>`: their module names.
    pub static_locals: FastHashMap<(Handle<ir::Function>, Handle<ir::LocalVariable>), String>,
    /// Globals whose initializer is not a constant expression: assigned at
    /// the start of the entry point, in declaration order.
    entry_inits: Vec<Handle<ir::GlobalVariable>>,
    /// Structs reached from the uniform address space (their struct and
    /// array members get `@align(16)`).
    uniform_structs: FastHashSet<Handle<ir::Type>>,
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

pub(super) use crate::identifier::sanitize;

/// WGSL's naming: [`sanitize`]d, and no reserved word taken, numbered or
/// not.
pub(super) const RULES: Rules = Rules {
    sanitize,
    reserved: is_reserved,
};

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
                && (super::intrinsics::is_atomic(*fun)
                    || super::intrinsics::buffer_atomic(*fun).is_some())
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

    /// `ty` spelled as stored: a column-major matrix (or array of them)
    /// as `matCxR`.
    pub fn spell_stored(
        &self,
        ty: Handle<ir::Type>,
        transposed: bool,
        span: Span,
    ) -> Result<String> {
        if !transposed {
            return self.spell(ty, span);
        }
        match &self.module.types[ty].inner {
            TypeInner::Matrix {
                rows,
                columns,
                scalar,
            } => {
                let t = self.module.types.get(&ir::Type {
                    name: None,
                    inner: TypeInner::Matrix {
                        rows: *columns,
                        columns: *rows,
                        scalar: *scalar,
                    },
                });
                match t {
                    Some(t) => self.spell(t, span),
                    None => {
                        types::scalar(*scalar, span)?;
                        Ok(format!("mat{columns}x{rows}<f32>"))
                    }
                }
            }
            TypeInner::Array { base, size } => {
                let base = self.spell_stored(*base, true, span)?;
                Ok(match size {
                    ir::ArraySize::Constant(n) => format!("array<{base}, {n}>"),
                    ir::ArraySize::Unsized => format!("array<{base}>"),
                })
            }
            _ => self.spell(ty, span),
        }
    }

    /// `atomic<u32>`/`atomic<i32>` for an integer scalar, and arrays of
    /// them; atomics inside structs are not supported yet.
    fn spell_atomic(&self, ty: Handle<ir::Type>, span: Span) -> Result<String> {
        match &self.module.types[ty].inner {
            TypeInner::Scalar(s)
                if s.width == 4
                    && matches!(s.kind, ir::ScalarKind::Uint | ir::ScalarKind::Sint) =>
            {
                Ok(format!("atomic<{}>", types::scalar(*s, span)?))
            }
            TypeInner::Array { base, size } => {
                let base = self.spell_atomic(*base, span)?;
                Ok(match size {
                    ir::ArraySize::Constant(n) => format!("array<{base}, {n}>"),
                    ir::ArraySize::Unsized => format!("array<{base}>"),
                })
            }
            _ => unsupported(
                format!(
                    "an `Interlocked` operation on a `{}` (WGSL atomics are 32-bit integers, here whole variables or array elements)",
                    ir::print::type_name(self.module, ty)
                ),
                span,
            ),
        }
    }

    fn name_everything(&mut self) {
        let module = self.module;
        // Room for every module-scope name up front: thousands of varyings
        // would rehash the tables as they grow.
        let names = module.types.len() + module.globals.len() + module.functions.len();
        self.names.reserve(names);
        self.global_names.reserve(module.globals.len());
        // The entry points keep their names first.
        for entry in self.entries.clone() {
            if !self.function_names.contains_key(&entry.function) {
                let entry_name = self.names.call(&entry.name);
                self.function_names.insert(entry.function, entry_name);
            }
        }
        for (h, t) in module.types.iter() {
            if let TypeInner::Struct { members } = &t.inner {
                let name = self.names.call(t.name.as_deref().unwrap_or("Struct"));
                self.struct_names.insert(h, name);
                let mut member_names = Namer::new(RULES);
                let names = members.iter().map(|m| member_names.call(&m.name)).collect();
                self.member_names.insert(h, names);
            }
        }
        for &g in &self.used_globals.clone() {
            let var = &module.globals[g];
            if var.space == AddressSpace::Uniform && !binding::is_resource(module, var) {
                continue;
            }
            let name = self.names.call(&var.name);
            self.global_names.insert(g, name);
        }
        let plain: Vec<Handle<ir::GlobalVariable>> = self
            .used_globals
            .iter()
            .copied()
            .filter(|&g| {
                let var = &module.globals[g];
                var.space == AddressSpace::Uniform && !binding::is_resource(module, var)
            })
            .collect();
        if !plain.is_empty() {
            let var = self.names.call("_Globals");
            let mut member_names = Namer::new(RULES);
            let members = plain
                .iter()
                .map(|&g| (g, member_names.call(&module.globals[g].name)))
                .collect();
            self.plain_uniforms = Some((var, members));
        }
        for &f in &self.reachable {
            if self.function_names.contains_key(&f) {
                continue;
            }
            let name = self.names.call(&module.functions[f].name);
            self.function_names.insert(f, name);
        }
        for &f in &self.reachable {
            let func = &module.functions[f];
            for (l, local) in func.locals.iter() {
                if local.is_static {
                    let name = self.names.call(&format!("{}_{}", func.name, local.name));
                    self.static_locals.insert((f, l), name);
                }
            }
        }
    }

    /// The module scope's namer, for a function's own names.
    pub fn module_names(&self) -> Namer {
        self.names.clone()
    }

    pub fn struct_name(&self, ty: Handle<ir::Type>) -> String {
        self.struct_names
            .get(&ty)
            .cloned()
            .unwrap_or_else(|| "Struct".into())
    }

    pub fn spell(&self, ty: Handle<ir::Type>, span: Span) -> Result<String> {
        types::spell(self.module, ty, &|t| self.struct_name(t), span)
    }

    pub fn write(mut self) -> Result<String> {
        let mut out = String::new();
        let globals = self.globals()?;
        let functions = self.functions()?;
        let structs = self.structs()?;
        out.push_str(&structs);
        out.push_str(&globals);
        out.push_str(&functions);
        Ok(out)
    }

    /// Struct types the output uses, in module order.
    fn structs(&self) -> Result<String> {
        let mut used = BTreeSet::new();
        let mark = |ty: Handle<ir::Type>, used: &mut BTreeSet<Handle<ir::Type>>| {
            crate::structs::mark_structs(self.module, ty, used);
        };
        for &g in &self.used_globals {
            let var = &self.module.globals[g];
            let ty = match self.module.types[var.ty].inner {
                TypeInner::ConstantBuffer { inner } | TypeInner::TextureBuffer { inner } => inner,
                TypeInner::Buffer {
                    element: Some(e), ..
                } => e,
                _ => var.ty,
            };
            mark(ty, &mut used);
        }
        for &f in &self.reachable {
            let func = &self.module.functions[f];
            for p in &func.params {
                mark(p.ty, &mut used);
            }
            if let Some(r) = &func.result {
                mark(r.ty, &mut used);
            }
            for (_, l) in func.locals.iter() {
                mark(l.ty, &mut used);
            }
            for (h, _) in func.expressions.iter() {
                if let Some(ty) = func.expressions.ty(h) {
                    mark(ty, &mut used);
                }
            }
        }
        let mut out = String::new();
        for ty in used {
            let t = &self.module.types[ty];
            let TypeInner::Struct { members } = &t.inner else {
                continue;
            };
            let span = self.module.types.span(ty);
            if members.is_empty() {
                return unsupported("an empty struct (WGSL structs have members)", span);
            }
            let names = &self.member_names[&ty];
            let in_uniform = self.uniform_structs.contains(&ty);
            writeln!(out, "struct {} {{", self.struct_name(ty)).ok();
            let mut after_struct = false;
            for (index, (m, name)) in members.iter().zip(names).enumerate() {
                let index = index as u32;
                let mut attrs = String::new();
                if let Some(io) = &m.io.binding
                    && let Some(stage) = entry_result_stage(self, ty)
                {
                    attrs = self.io_attributes(io, stage, m.span)?;
                }
                let is_struct = matches!(self.module.types[m.ty].inner, TypeInner::Struct { .. });
                let is_array = matches!(self.module.types[m.ty].inner, TypeInner::Array { .. });
                if in_uniform && (is_struct || is_array || after_struct) {
                    attrs.push_str("@align(16) ");
                }
                after_struct = is_struct;
                let transposed = self.transposed_members.contains(&(ty, index));
                let member_ty = if self.padded_members.contains(&(ty, index)) {
                    self.padded_spelling(m.ty, m.span)?
                } else if self.padded_matrix_members.contains(&(ty, index)) {
                    self.padded_matrix_spelling(m.ty, transposed, m.span)?
                } else if self.bool_members.contains(&(ty, index)) {
                    self.bool_spelling(m.ty)
                } else {
                    self.spell_stored(m.ty, transposed, m.span)?
                };
                push!(&mut out, "    ", attrs, name, ": ", member_ty, ",\n");
            }
            out.push_str("}\n\n");
        }
        Ok(out)
    }

    /// `@builtin(name)` or `@location(n) @interpolate(...)`, on the
    /// interface of a `stage` entry point.
    pub fn io_attributes(
        &self,
        binding: &ir::Binding,
        stage: ShaderStage,
        span: Span,
    ) -> Result<String> {
        match binding {
            ir::Binding::BuiltIn(b) => {
                let name = [
                    legalis_sysval::Direction::Input,
                    legalis_sysval::Direction::Output,
                ]
                .into_iter()
                .find_map(|d| match legalis_sysval::wgsl(b.value, stage, d) {
                    legalis_sysval::WgslMapping::BuiltIn(row) => Some(row.name),
                    _ => None,
                });
                match name {
                    Some(name) => Ok(format!("@builtin({name}) ")),
                    None => Err(Error::NotLegalized {
                        what: format!("`{}` has no WGSL builtin", b.value.name()),
                        span,
                    }),
                }
            }
            ir::Binding::Location {
                location,
                interpolation,
                ..
            } => {
                let mut s = String::with_capacity(16);
                s.push_str("@location(");
                crate::push_number(&mut s, *location);
                s.push_str(") ");
                if !interpolation.is_default() {
                    let mode = match interpolation.mode {
                        Some(ir::InterpolationMode::Flat) => "flat",
                        Some(ir::InterpolationMode::NoPerspective) => "linear",
                        Some(ir::InterpolationMode::Linear) | None => "perspective",
                    };
                    let sampling = match (interpolation.mode, interpolation.sampling) {
                        (Some(ir::InterpolationMode::Flat), _) | (_, None) => "",
                        (_, Some(ir::Sampling::Centroid)) => ", centroid",
                        (_, Some(ir::Sampling::Sample)) => ", sample",
                    };
                    write!(s, "@interpolate({mode}{sampling}) ").ok();
                }
                Ok(s)
            }
            ir::Binding::Semantic(semantic) => Err(Error::NotLegalized {
                what: format!("the semantic `{semantic}` was not legalized"),
                span,
            }),
            ir::Binding::PrimitiveIndices => {
                unsupported("mesh primitive indices (WGSL has no mesh stage)", span)
            }
        }
    }

    fn globals(&mut self) -> Result<String> {
        let module = self.module;
        let mut out = String::new();
        // `_Globals` first, as the binding rule numbers it.
        if let Some((var, members)) = self.plain_uniforms.clone() {
            let struct_name = self.names.call("GlobalsBlock");
            writeln!(out, "struct {struct_name} {{").ok();
            let mut after_struct = false;
            for g in self.used_globals.clone() {
                let Some(name) = members.get(&g) else {
                    continue;
                };
                let v = &module.globals[g];
                let span = module.globals.span(g);
                if self.paddable(v.ty) {
                    self.padded_globals.insert(g);
                } else if is_bool(module, v.ty) {
                    self.bool_globals.insert(g);
                } else if self
                    .padded_matrix(v.ty, self.transposed_globals.contains(&g))
                    .is_some()
                {
                    self.padded_matrix_globals.insert(g);
                } else {
                    self.check_uniform(v.ty, span)?;
                }
                let inner = &module.types[v.ty].inner;
                let is_struct = matches!(inner, TypeInner::Struct { .. });
                let align = if is_struct || after_struct || matches!(inner, TypeInner::Array { .. })
                {
                    "@align(16) "
                } else {
                    ""
                };
                after_struct = is_struct;
                let transposed = self.transposed_globals.contains(&g);
                let ty = if self.padded_globals.contains(&g) {
                    self.padded_spelling(v.ty, span)?
                } else if self.padded_matrix_globals.contains(&g) {
                    self.padded_matrix_spelling(v.ty, transposed, span)?
                } else if self.bool_globals.contains(&g) {
                    self.bool_spelling(v.ty)
                } else {
                    self.spell_stored(v.ty, transposed, span)?
                };
                writeln!(out, "    {align}{name}: {ty},").ok();
            }
            out.push_str("}\n\n");
            let (set, binding) = self.bindings.globals_block.unwrap_or((0, 0));
            writeln!(
                out,
                "@group({set}) @binding({binding}) var<uniform> {var}: {struct_name};\n"
            )
            .ok();
        }
        for &g in &self.used_globals.clone() {
            let v = &module.globals[g];
            let span = module.globals.span(g);
            let Some(name) = self.global_names.get(&g).cloned() else {
                continue;
            };
            match v.space {
                AddressSpace::Uniform => {
                    let decl = self.resource_declaration(g, v, &name, span)?;
                    let (set, binding) = self.bindings.resources.get(&g).copied().unwrap_or((0, 0));
                    writeln!(out, "@group({set}) @binding({binding}) {decl}\n").ok();
                }
                AddressSpace::Private | AddressSpace::Constant => {
                    let ty = self.spell(v.ty, span)?;
                    match v.init {
                        Some(init) if super::expr::is_const(&module.global_expressions, init) => {
                            let mut ctx = super::expr::FnCtx::for_globals(self);
                            let value = self.expr(&mut ctx, init)?;
                            writeln!(out, "var<private> {name}: {ty} = {value};\n").ok();
                        }
                        Some(_) => {
                            self.entry_inits.push(g);
                            writeln!(out, "var<private> {name}: {ty};\n").ok();
                        }
                        None => {
                            writeln!(out, "var<private> {name}: {ty};\n").ok();
                        }
                    }
                }
                AddressSpace::Workgroup => {
                    let ty = if self.atomic_globals.contains(&g) {
                        self.spell_atomic(v.ty, span)?
                    } else {
                        self.spell(v.ty, span)?
                    };
                    writeln!(out, "var<workgroup> {name}: {ty};\n").ok();
                }
                AddressSpace::Input | AddressSpace::Output => {
                    return Err(Error::NotLegalized {
                        what: format!(
                            "the interface global `{}` (WGSL passes varyings as parameters)",
                            v.name
                        ),
                        span,
                    });
                }
                AddressSpace::TaskPayload => {
                    return unsupported(
                        "a task payload (WGSL has no mesh or amplification stages)",
                        span,
                    );
                }
                AddressSpace::RayTracing(_) => {
                    return unsupported(
                        "ray-tracing storage (WGSL has no ray-tracing stages)",
                        span,
                    );
                }
            }
        }
        // Hoisted `static` locals.
        let mut statics: Vec<_> = self
            .static_locals
            .iter()
            .map(|(k, v)| (*k, v.clone()))
            .collect();
        statics.sort();
        for ((f, l), name) in statics {
            let func = &module.functions[f];
            let local = &func.locals[l];
            let span = func.locals.span(l);
            let ty = self.spell(local.ty, span)?;
            match static_init(&func.body, l) {
                Some(init) if super::expr::is_const(&func.expressions, init) => {
                    let mut ctx = super::expr::FnCtx::new(self, f)?;
                    let value = self.expr(&mut ctx, init)?;
                    writeln!(out, "var<private> {name}: {ty} = {value};\n").ok();
                }
                Some(init) => {
                    return unsupported(
                        "a `static` local whose initializer is not a constant expression",
                        func.expressions.span(init),
                    );
                }
                None => {
                    writeln!(out, "var<private> {name}: {ty};\n").ok();
                }
            }
        }
        Ok(out)
    }

    /// The declaration after `@group @binding` of a resource global.
    fn resource_declaration(
        &mut self,
        g: Handle<ir::GlobalVariable>,
        v: &ir::GlobalVariable,
        name: &str,
        span: Span,
    ) -> Result<String> {
        let module = self.module;
        let u = self.uses.get(&g).copied().unwrap_or_default();
        let decl = match &module.types[v.ty].inner {
            TypeInner::ConstantBuffer { inner } => {
                self.check_uniform(*inner, span)?;
                format!("var<uniform> {name}: {};", self.spell(*inner, span)?)
            }
            TypeInner::Buffer {
                kind: ir::BufferKind::Structured,
                access,
                element: Some(element),
                ..
            } => {
                self.check_storage(*element, span)?;
                let access = match access {
                    ir::ResourceAccess::Read => "read",
                    _ => "read_write",
                };
                let element = if self.atomic_globals.contains(&g) {
                    self.spell_atomic(*element, span)?
                } else {
                    self.spell_stored(*element, self.transposed_globals.contains(&g), span)?
                };
                format!("var<storage, {access}> {name}: array<{element}>;")
            }
            TypeInner::Buffer {
                kind: ir::BufferKind::ByteAddress,
                access,
                ..
            } => {
                let access = match access {
                    ir::ResourceAccess::Read => "read",
                    _ => "read_write",
                };
                let word = if self.atomic_globals.contains(&g) {
                    "atomic<u32>"
                } else {
                    "u32"
                };
                format!("var<storage, {access}> {name}: array<{word}>;")
            }
            TypeInner::Texture(_) | TypeInner::Sampler { .. } => {
                format!("var {name}: {};", self.handle_type(v.ty, u, span)?)
            }
            _ => {
                return unsupported(
                    format!(
                        "a resource of type `{}` (no WGSL counterpart yet)",
                        ir::print::type_name(module, v.ty)
                    ),
                    span,
                );
            }
        };
        Ok(decl)
    }

    /// A texture or sampler type as WGSL spells it, given how it is used.
    pub fn handle_type(&self, ty: Handle<ir::Type>, u: Use, span: Span) -> Result<String> {
        let module = self.module;
        match &module.types[ty].inner {
            TypeInner::Sampler { comparison } => Ok(if *comparison || u.compare {
                "sampler_comparison".into()
            } else {
                "sampler".into()
            }),
            TypeInner::Texture(t) => {
                use ir::TextureDim as D;
                if t.combined {
                    return unsupported(
                        format!(
                            "the combined texture-sampler `{}` (WGSL textures and samplers \
                             are separate bindings)",
                            ir::print::type_name(module, ty)
                        ),
                        span,
                    );
                }
                let shape = match (t.dim, t.arrayed, t.multisampled) {
                    (D::D1, false, false) => "1d",
                    (D::D2, false, false) => "2d",
                    (D::D2, true, false) => "2d_array",
                    (D::D3, false, false) => "3d",
                    (D::Cube, false, false) => "cube",
                    (D::Cube, true, false) => "cube_array",
                    (D::D2, false, true) => "multisampled_2d",
                    _ => {
                        return unsupported(
                            format!(
                                "`{}` (WGSL has no such texture)",
                                ir::print::type_name(module, ty)
                            ),
                            span,
                        );
                    }
                };
                if t.access != ir::ResourceAccess::Read {
                    if t.multisampled || t.dim == D::Cube {
                        return unsupported(
                            format!(
                                "`{}` (WGSL has no such storage texture)",
                                ir::print::type_name(module, ty)
                            ),
                            span,
                        );
                    }
                    let format = types::storage_format(module, t.texel, t.normalization, span)?;
                    let access = match (u.read, u.write) {
                        (true, true) => "read_write",
                        (true, false) => "read",
                        _ => "write",
                    };
                    return Ok(format!("texture_storage_{shape}<{format}, {access}>"));
                }
                if u.compare || t.shadow {
                    if t.dim == D::D1 || t.dim == D::D3 {
                        return unsupported("comparison sampling of a 1D or 3D texture", span);
                    }
                    return Ok(format!("texture_depth_{shape}"));
                }
                let scalar = types::texel_shape(module, t.texel)
                    .map(|(_, s)| s)
                    .unwrap_or(ir::Scalar::F32);
                Ok(format!("texture_{shape}<{}>", types::scalar(scalar, span)?))
            }
            _ => unsupported(
                format!("`{}` as a texture", ir::print::type_name(module, ty)),
                span,
            ),
        }
    }

    /// What WGSL's uniform address space allows: host-shareable types
    /// whose array strides are multiples of 16 bytes. Marks the structs
    /// for `@align(16)`.
    fn check_uniform(&mut self, ty: Handle<ir::Type>, span: Span) -> Result<()> {
        let module = self.module;
        match &module.types[ty].inner {
            TypeInner::Struct { members } => {
                self.uniform_structs.insert(ty);
                for (i, m) in members.iter().enumerate() {
                    if self.paddable(m.ty) {
                        self.padded_members.insert((ty, i as u32));
                    } else if is_bool(module, m.ty) {
                        self.bool_members.insert((ty, i as u32));
                    } else if self
                        .padded_matrix(m.ty, self.transposed_members.contains(&(ty, i as u32)))
                        .is_some()
                    {
                        self.padded_matrix_members.insert((ty, i as u32));
                    } else {
                        self.check_uniform(m.ty, m.span)?;
                    }
                }
                Ok(())
            }
            TypeInner::Array { base, .. } => {
                self.check_uniform(*base, span)?;
                let (align, size) = types::layout(module, *base).unwrap_or((4, 4));
                if !types::round_up(align, size).is_multiple_of(16) {
                    return unsupported(
                        format!(
                            "the uniform array `{}` (WGSL uniform arrays need a stride that is a multiple of 16 bytes)",
                            ir::print::type_name(module, ty)
                        ),
                        span,
                    );
                }
                Ok(())
            }
            _ => self.check_host_shareable(ty, span),
        }
    }

    /// An array of numeric scalars or vectors (not `bool`) whose WGSL
    /// stride is under 16 bytes: stored one element per `vec4`.
    fn paddable(&self, ty: Handle<ir::Type>) -> bool {
        let module = self.module;
        let TypeInner::Array {
            base,
            size: ir::ArraySize::Constant(_),
        } = module.types[ty].inner
        else {
            return false;
        };
        let numeric = match &module.types[base].inner {
            TypeInner::Scalar(s) | TypeInner::Vector { scalar: s, .. } => {
                s.width == 4 && s.kind != ir::ScalarKind::Bool
            }
            _ => false,
        };
        numeric
            && types::layout(module, base)
                .is_some_and(|(align, size)| !types::round_up(align, size).is_multiple_of(16))
    }

    /// For a uniform matrix (or array of matrices) whose stored WGSL
    /// columns are 2-vectors, the number of stored columns; `transposed`
    /// says the matrix is stored column-major (`matCxR`).
    pub fn padded_matrix(&self, ty: Handle<ir::Type>, transposed: bool) -> Option<u8> {
        match self.module.types[ty].inner {
            TypeInner::Array { base, .. } => self.padded_matrix(base, transposed),
            TypeInner::Matrix { rows, columns, .. } => {
                let (count, len) = if transposed {
                    (columns, rows)
                } else {
                    (rows, columns)
                };
                (len == 2).then_some(count)
            }
            _ => None,
        }
    }

    /// A padded matrix as stored: `array<vec4<f32>, C>`, inside the arrays
    /// that hold it.
    fn padded_matrix_spelling(
        &self,
        ty: Handle<ir::Type>,
        transposed: bool,
        span: Span,
    ) -> Result<String> {
        match &self.module.types[ty].inner {
            TypeInner::Array { base, size } => {
                let base = self.padded_matrix_spelling(*base, transposed, span)?;
                Ok(match size {
                    ir::ArraySize::Constant(n) => format!("array<{base}, {n}>"),
                    ir::ArraySize::Unsized => format!("array<{base}>"),
                })
            }
            _ => {
                // Checks the matrix has a WGSL type at all.
                self.spell_stored(ty, transposed, span)?;
                let count = self.padded_matrix(ty, transposed).unwrap_or(2);
                Ok(format!("array<vec4<f32>, {count}>"))
            }
        }
    }

    /// A padded array's element type spelled as stored: `vec4<T>`.
    pub fn padded_spelling(&self, ty: Handle<ir::Type>, span: Span) -> Result<String> {
        let TypeInner::Array {
            base,
            size: ir::ArraySize::Constant(n),
        } = self.module.types[ty].inner
        else {
            return self.spell(ty, span);
        };
        let scalar = self.module.types[base]
            .inner
            .scalar()
            .unwrap_or(ir::Scalar::F32);
        Ok(format!(
            "array<vec4<{}>, {n}>",
            types::scalar(scalar, span)?
        ))
    }

    /// The components an element of a padded array keeps: `Some(n)` for
    /// an array of n-component elements stored one per `vec4`.
    pub fn padded_components(&self, ty: Handle<ir::Type>) -> Option<u8> {
        match self.module.types[ty].inner {
            TypeInner::Array { base, .. } => match self.module.types[base].inner {
                TypeInner::Scalar(_) => Some(1),
                TypeInner::Vector { size, .. } => Some(size),
                _ => None,
            },
            _ => None,
        }
    }

    fn check_storage(&mut self, ty: Handle<ir::Type>, span: Span) -> Result<()> {
        let module = self.module;
        match &module.types[ty].inner {
            TypeInner::Struct { members } => {
                for (i, m) in members.iter().enumerate() {
                    if is_bool(module, m.ty) {
                        self.bool_members.insert((ty, i as u32));
                    } else {
                        self.check_storage(m.ty, m.span)?;
                    }
                }
                Ok(())
            }
            TypeInner::Array { base, .. } => self.check_storage(*base, span),
            _ => self.check_host_shareable(ty, span),
        }
    }

    /// `bool`/`boolN` as stored in a buffer: `u32`/`vecN<u32>`.
    pub fn bool_spelling(&self, ty: Handle<ir::Type>) -> String {
        match self.module.types[ty].inner {
            TypeInner::Vector { size, .. } => format!("vec{size}<u32>"),
            _ => "u32".into(),
        }
    }

    fn check_host_shareable(&self, ty: Handle<ir::Type>, span: Span) -> Result<()> {
        let inner = &self.module.types[ty].inner;
        if inner
            .scalar()
            .is_some_and(|s| s.kind == ir::ScalarKind::Bool)
        {
            return unsupported(
                "`bool` in a buffer (WGSL buffers hold 32-bit numbers, not booleans)",
                span,
            );
        }
        if inner.is_resource() {
            return unsupported("a resource inside a buffer", span);
        }
        Ok(())
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

/// The index of member `m` in `members`.
/// `bool` or a vector of them.
fn is_bool(module: &ir::Module, ty: Handle<ir::Type>) -> bool {
    matches!(
        module.types[ty].inner,
        TypeInner::Scalar(s) | TypeInner::Vector { scalar: s, .. } if s.kind == ir::ScalarKind::Bool
    )
}

/// A matrix, or an array of them.
fn holds_matrix(module: &ir::Module, ty: Handle<ir::Type>) -> bool {
    match &module.types[ty].inner {
        TypeInner::Matrix { .. } => true,
        TypeInner::Array { base, .. } => holds_matrix(module, *base),
        _ => false,
    }
}

/// The stage of the entry point whose function returns the struct `ty`
/// (its members carry interface attributes), if one does.
fn entry_result_stage(w: &Writer, ty: Handle<ir::Type>) -> Option<ShaderStage> {
    w.entries.iter().find_map(|e| {
        w.module.functions[e.function]
            .result
            .as_ref()
            .is_some_and(|r| r.ty == ty)
            .then_some(e.stage)
    })
}

/// The initializer of a `static` local's declaration.
fn static_init(block: &ir::Block, local: Handle<ir::LocalVariable>) -> Option<Handle<Expression>> {
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
