//! The MSL writer: what the entry point reaches, how each global reaches
//! the code that uses it (see the module doc), argument-table indices and
//! functions with the entry point's attributes. Names are in `names.rs`,
//! types and structs (the `[[stage_in]]` struct among them) in
//! `types.rs`, the entry function's interface (attributes, `[[stage_in]]`
//! members, `metal::mesh`) and `constant` globals in `io.rs`, statements
//! and expressions in `expr.rs` (over the shared `cfamily/`), built-in
//! functions in `intrinsics.rs`.
//!
//! Argument table numbering, per Metal's three tables: `register(bN)`,
//! `register(tN)` and `register(uN)` of a buffer give `[[buffer(N)]]`,
//! `register(tN)`/`register(uN)` of a texture `[[texture(N)]]`,
//! `register(sN)` of a sampler `[[sampler(N)]]` (the reference's choice);
//! everything else, and a second claim on a taken index, takes the next
//! free index of its table in declaration order, with the `_Globals`
//! block of plain uniforms first among the buffers.

use super::names::RULES;
use legalis_ir::{FastHashMap, FastHashSet};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use legalis_ir as ir;
use legalis_ir::{AddressSpace, Expression, Handle, ShaderStage, Span, TypeInner};
use legalis_sysval::Direction;

use super::types::{Result, unsupported};
use super::{Error, Options};
use crate::cfamily::names::Names;
use crate::cfamily::prelude::*;
use crate::cfamily::reach::{self, Initializers};

/// A Metal argument table index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Slot {
    Buffer(u32),
    Texture(u32),
    Sampler(u32),
    /// A subpass input: the fragment function's `[[color(n)]]` input of
    /// render-target `n` (framebuffer fetch).
    Color(u32),
}

impl Slot {
    pub(super) fn attribute(self) -> String {
        match self {
            Slot::Buffer(n) => format!("buffer({n})"),
            Slot::Texture(n) => format!("texture({n})"),
            Slot::Sampler(n) => format!("sampler({n})"),
            Slot::Color(n) => format!("color({n})"),
        }
    }
}

/// How a global reaches the code that uses it: `static const` globals
/// are program-scope `constant` values, `static` ones locals of the entry
/// function passed as `thread T&`, `groupshared` ones `threadgroup` locals
/// of the kernel passed as `threadgroup T&`, resources entry-point
/// arguments at a `Slot`, plain uniforms members of the `_Globals` block.
pub(super) type GlobalKind = reach::GlobalKind<Slot>;

pub(super) struct Writer<'a> {
    pub module: &'a ir::Module,
    /// The entry points written, each one `[[vertex]]`, `[[fragment]]`...
    /// function under its own name.
    pub entries: Vec<&'a ir::EntryPoint>,
    /// Every module-scope name of the output.
    pub names: Names,
    /// Functions reachable from any of the entry points, callees first.
    pub reachable: Vec<Handle<ir::Function>>,
    /// Per function, the non-constant globals it reaches (itself or
    /// through callees): its extra trailing parameters.
    pub threaded: FastHashMap<Handle<ir::Function>, Vec<Handle<ir::GlobalVariable>>>,
    pub kinds: FastHashMap<Handle<ir::GlobalVariable>, GlobalKind>,
    /// Textures sampled with comparison: `depth2d<float>` and friends.
    pub compare: FastHashSet<Handle<ir::GlobalVariable>>,
    /// The `_Globals` block: type name, parameter name, buffer index.
    pub globals_block: Option<(String, String, u32)>,
    /// Struct members stored as the transposed MSL matrix (column-major
    /// matrices reached from buffers), read and written through
    /// `transpose`.
    pub transposed: FastHashSet<(Handle<ir::Type>, u32)>,
    /// Plain uniforms of column-major matrix type, likewise.
    pub transposed_plain: FastHashSet<Handle<ir::GlobalVariable>>,
    /// Per entry point (in `entries` order), the `[[stage_in]]` struct's
    /// type name and parameter name.
    pub stage_ins: Vec<Option<(String, String)>>,
    /// Per entry point, an object function's payload pointer and
    /// `mesh_grid_properties` parameter names, and the payload type (B21).
    pub object_payloads: Vec<Option<(String, String, Handle<ir::Type>)>>,
    pub(super) used_structs: BTreeSet<Handle<ir::Type>>,
    /// Helper functions the intrinsics need (an integer `dot`, which MSL
    /// lacks), by name: written once, before the functions.
    pub helpers: RefCell<BTreeMap<String, String>>,
    /// How the reachable functions use each resource global: a read-write
    /// texture only written is `access::write`, one written and read
    /// fences after each write.
    pub uses: FastHashMap<Handle<ir::GlobalVariable>, crate::resource_uses::Use>,
}

/// The span of the first `discard` in `block`, nested blocks included.
fn first_discard(block: &ir::Block) -> Option<Span> {
    block.iter().find_map(|(stmt, span)| match stmt {
        ir::Statement::Discard => Some(span),
        other => other.blocks().into_iter().find_map(first_discard),
    })
}

/// A struct type behind a buffer-like type: a `cbuffer`'s block, a
/// structured buffer's element.
pub(super) fn buffer_contents(
    module: &ir::Module,
    ty: Handle<ir::Type>,
) -> Option<Handle<ir::Type>> {
    match module.types[ty].inner {
        TypeInner::ConstantBuffer { inner } | TypeInner::TextureBuffer { inner } => Some(inner),
        TypeInner::Buffer {
            element: Some(element),
            kind: ir::BufferKind::Structured,
            ..
        } => Some(element),
        _ => None,
    }
}

impl<'a> Writer<'a> {
    /// A writer of the entry points `entry_points` (at least one) of
    /// `module`, all in one translation unit.
    pub fn new(module: &'a ir::Module, entry_points: &[usize], options: &Options) -> Result<Self> {
        let entries = crate::error::entry_points::<Error>(module, entry_points)?;
        let mut w = Writer {
            module,
            stage_ins: vec![None; entries.len()],
            object_payloads: vec![None; entries.len()],
            entries,
            names: Names::new(RULES),
            reachable: Vec::new(),
            threaded: FastHashMap::default(),
            kinds: FastHashMap::default(),
            compare: FastHashSet::default(),
            globals_block: None,
            transposed: FastHashSet::default(),
            transposed_plain: FastHashSet::default(),
            used_structs: BTreeSet::new(),
            helpers: RefCell::default(),
            uses: FastHashMap::default(),
        };
        w.collect_used()?;
        for &f in &w.reachable {
            crate::resource_uses::collect(&module.functions[f], &mut w.uses);
        }
        w.fragment_only_in_fragments()?;
        let planned;
        let plan = match &options.bindings {
            Some(plan) => plan,
            None => {
                planned = legalis_bind::plan_entries(
                    module,
                    entry_points,
                    legalis_bind::Target::Metal,
                    &Default::default(),
                )
                .plan;
                &planned
            }
        };
        w.classify_globals(plan)?;
        w.used_structs = reach::used_structs(module, &w.reachable, w.kinds.keys().copied());
        w.collect_transposed()?;
        w.name_everything();
        Ok(w)
    }

    /// The index in `entries` of the entry point whose function is `f`.
    pub fn entry_of(&self, f: Handle<ir::Function>) -> Option<usize> {
        self.entries.iter().position(|e| e.function == f)
    }

    pub(super) fn entry_function(&self, k: usize) -> &'a ir::Function {
        &self.module.functions[self.entries[k].function]
    }

    /// Derivatives and `discard` (`clip`), which MSL has in fragment
    /// functions only, reached from another entry function: `E56301` at
    /// the first (GLSL and SPIR-V have compute derivatives; Metal has none).
    fn fragment_only_in_fragments(&self) -> Result<()> {
        for entry in &self.entries {
            if entry.stage == ShaderStage::Fragment {
                continue;
            }
            let stage = match entry.stage {
                ShaderStage::Compute => "kernel",
                other => other.name(),
            };
            let mut seen = BTreeSet::from([entry.function]);
            let mut work = vec![entry.function];
            while let Some(f) = work.pop() {
                let Some(func) = self.module.functions.try_get(f) else {
                    continue;
                };
                for (h, e) in func.expressions.iter() {
                    match e {
                        Expression::Call { function, .. } if seen.insert(*function) => {
                            work.push(*function);
                        }
                        Expression::Intrinsic { fun, .. }
                            if matches!(
                                fun,
                                ir::Intrinsic::Ddx
                                    | ir::Intrinsic::DdxCoarse
                                    | ir::Intrinsic::DdxFine
                                    | ir::Intrinsic::Ddy
                                    | ir::Intrinsic::DdyCoarse
                                    | ir::Intrinsic::DdyFine
                                    | ir::Intrinsic::Fwidth
                                    | ir::Intrinsic::Clip
                            ) =>
                        {
                            let what = if *fun == ir::Intrinsic::Clip {
                                "discards fragments only".to_string()
                            } else {
                                "has derivatives in fragment functions only".to_string()
                            };
                            return unsupported(
                                format!("`{}` in a {stage} function (MSL {what})", fun.name()),
                                func.expressions.span(h),
                            );
                        }
                        _ => {}
                    }
                }
                if let Some(span) = first_discard(&func.body) {
                    return unsupported(
                        format!("`discard` in a {stage} function (MSL discards fragments only)"),
                        span,
                    );
                }
            }
        }
        Ok(())
    }

    /// Reachable functions, the globals each reaches, and the comparison
    /// textures.
    fn collect_used(&mut self) -> Result<()> {
        let reach = reach::collect(self.module, &self.entries, Initializers::PerEntry)?;
        self.reachable = reach.reachable;
        self.threaded = reach.threaded;
        for &f in &self.reachable {
            let func = &self.module.functions[f];
            for (_, e) in func.expressions.iter() {
                if let Expression::Intrinsic { fun, args } = e
                    && ir::Intrinsic::compares(*fun)
                    && let Some(Expression::Global(g)) = args.first().map(|a| &func.expressions[*a])
                {
                    self.compare.insert(*g);
                }
            }
        }
        Ok(())
    }

    /// Every reached global's kind and argument-table index (from the
    /// binding plan, `legalis_bind::rules::metal`).
    fn classify_globals(&mut self, plan: &legalis_bind::Plan) -> Result<()> {
        let module = self.module;
        let decide = |g: Handle<ir::GlobalVariable>, span: Span| -> Result<Option<GlobalKind>> {
            let global = &module.globals[g];
            Ok(Some(match global.space {
                AddressSpace::Workgroup => {
                    let outside_kernel = self.entries.iter().any(|e| {
                        !e.stage.has_workgroups() && self.threaded[&e.function].contains(&g)
                    });
                    if outside_kernel {
                        return unsupported(
                            "`groupshared` outside a kernel, object or mesh entry point",
                            span,
                        );
                    }
                    GlobalKind::Workgroup
                }
                AddressSpace::Uniform
                    if matches!(
                        module.types[global.ty].inner,
                        TypeInner::SubpassInput { .. }
                    ) =>
                {
                    let elsewhere = self.entries.iter().find(|e| {
                        e.stage != ShaderStage::Fragment && self.threaded[&e.function].contains(&g)
                    });
                    if let Some(entry) = elsewhere {
                        return unsupported(
                            format!(
                                "a subpass input in a {} entry point (Metal framebuffer fetch \
                                 is a fragment function's)",
                                entry.stage.name()
                            ),
                            span,
                        );
                    }
                    let index = global.binding.input_attachment_index.unwrap_or(0);
                    GlobalKind::Resource(Slot::Color(index))
                }
                AddressSpace::Uniform if module.types[global.ty].inner.is_resource() => {
                    // Refuses the kinds Metal output has no table for.
                    self.table_of(g, span)?;
                    match plan.place(g) {
                        legalis_bind::Place::Metal { table, index } => {
                            GlobalKind::Resource(slot(table, index))
                        }
                        _ => return not_planned(&global.name, span),
                    }
                }
                AddressSpace::TaskPayload => {
                    return unsupported(
                        "a task payload global (Metal passes payloads as parameters)",
                        span,
                    );
                }
                AddressSpace::RayTracing(_) => {
                    return unsupported(
                        "ray-tracing storage (Metal has no ray-tracing stages here)",
                        span,
                    );
                }
                _ => return Ok(None),
            }))
        };
        self.kinds = reach::classify(module, &self.threaded, decide)?;
        if self.kinds.values().any(|k| *k == GlobalKind::Plain) {
            let block = plan.globals_block().map(|r| r.place);
            let Some(legalis_bind::Place::Metal { index, .. }) = block else {
                return not_planned("_Globals", self.entries[0].span);
            };
            self.globals_block = Some((String::new(), String::new(), index));
        }
        Ok(())
    }

    /// Which argument table a resource global lives in.
    fn table_of(&self, g: Handle<ir::GlobalVariable>, span: Span) -> Result<Slot> {
        let global = &self.module.globals[g];
        Ok(match &self.module.types[global.ty].inner {
            TypeInner::Texture(_) => Slot::Texture(0),
            TypeInner::Sampler { .. } => Slot::Sampler(0),
            TypeInner::ConstantBuffer { .. } | TypeInner::TextureBuffer { .. } => Slot::Buffer(0),
            TypeInner::Buffer { kind, .. } => match kind {
                ir::BufferKind::Structured | ir::BufferKind::ByteAddress => Slot::Buffer(0),
                ir::BufferKind::Typed => Slot::Texture(0),
                ir::BufferKind::Append | ir::BufferKind::Consume => {
                    return unsupported(
                        "append and consume buffers (Metal has no buffer counters)",
                        span,
                    );
                }
            },
            _ => {
                return unsupported(
                    format!(
                        "the resource type `{}`",
                        ir::print::type_name(self.module, global.ty)
                    ),
                    span,
                );
            }
        })
    }

    /// Column-major matrices reached from buffers and plain uniforms.
    fn collect_transposed(&mut self) -> Result<()> {
        let module = self.module;
        let mut buffer_structs = BTreeSet::new();
        for (&g, kind) in &self.kinds {
            let global = &module.globals[g];
            match kind {
                GlobalKind::Resource(_) => {
                    if let Some(inner) = buffer_contents(module, global.ty) {
                        crate::structs::mark_structs(module, inner, &mut buffer_structs);
                        if matches!(module.types[inner].inner, TypeInner::Matrix { .. }) {
                            return unsupported(
                                "a structured buffer of matrices",
                                module.globals.span(g),
                            );
                        }
                    }
                }
                GlobalKind::Plain => {
                    crate::structs::mark_structs(module, global.ty, &mut buffer_structs);
                    let matrix = |ty| matches!(module.types[ty].inner, TypeInner::Matrix { .. });
                    if matrix(global.ty) && global.matrix_layout != Some(ir::MatrixLayout::RowMajor)
                    {
                        self.transposed_plain.insert(g);
                    }
                    if let TypeInner::Array { base, .. } = module.types[global.ty].inner
                        && matrix(base)
                    {
                        return unsupported("a uniform array of matrices", module.globals.span(g));
                    }
                }
                _ => {}
            }
        }
        for ty in buffer_structs {
            let TypeInner::Struct { members } = &module.types[ty].inner else {
                continue;
            };
            for (index, m) in members.iter().enumerate() {
                let row_major = m.matrix_layout == Some(ir::MatrixLayout::RowMajor);
                match module.types[m.ty].inner {
                    TypeInner::Matrix { .. } if !row_major => {
                        self.transposed.insert((ty, index as u32));
                    }
                    // Read element by element through `transpose`.
                    TypeInner::Array { base, .. }
                        if matches!(module.types[base].inner, TypeInner::Matrix { .. })
                            && !row_major =>
                    {
                        self.transposed.insert((ty, index as u32));
                    }
                    _ => {}
                }
            }
        }
        Ok(())
    }

    pub fn write(mut self) -> Result<String> {
        let mut out = String::from("#include <metal_stdlib>\nusing namespace metal;\n\n");
        out.push_str(&self.structs()?);
        out.push_str(&self.constants()?);
        let functions = self.functions()?;
        for helper in self.helpers.borrow().values() {
            out.push_str(helper);
        }
        out.push_str(&functions);
        Ok(out)
    }

    /// Whether the read-write texture `g` is only written (whole texels,
    /// never read): `access::write`, which more pixel formats allow than
    /// `access::read_write`.
    pub fn write_only(&self, g: Handle<ir::GlobalVariable>) -> bool {
        let u = self.uses.get(&g).copied().unwrap_or_default();
        u.write && !u.read
    }

    /// Whether texel writes to the texture `g` need a `fence()` before a
    /// later read in the same thread sees them: it is read and written.
    pub fn needs_fence(&self, g: Handle<ir::GlobalVariable>) -> bool {
        let u = self.uses.get(&g).copied().unwrap_or_default();
        u.write && u.read
    }

    fn functions(&mut self) -> Result<String> {
        let mut out = String::new();
        for f in self.reachable.clone() {
            self.function(f, &mut out)?;
        }
        Ok(out)
    }

    fn function(&mut self, f: Handle<ir::Function>, out: &mut String) -> Result<()> {
        let module = self.module;
        let func = &module.functions[f];
        let k = self.entry_of(f);
        let entry = k.map(|k| self.entries[k]);
        let is_entry = entry.is_some();
        let mut ctx = self.fn_ctx(f)?;
        let mut params = Vec::new();
        if let Some(Some((ty, name))) = k.map(|k| &self.stage_ins[k]) {
            params.push(format!("{ty} {name} [[stage_in]]"));
        }
        let mut mesh_written = false;
        for (i, p) in func.params.iter().enumerate() {
            let name = ctx.param_names[i].clone();
            if let (Some(entry), TypeInner::MeshOutput { .. }) = (entry, &module.types[p.ty].inner)
            {
                if !mesh_written {
                    mesh_written = true;
                    params.push(format!("{} {name}", self.mesh_type(entry, func, p.span)?));
                }
                continue;
            }
            if is_entry && p.role == ir::ParamRole::Payload {
                let ty = self.spell(p.ty, p.span)?;
                params.push(format!("const object_data {ty}* {name} [[payload]]"));
                continue;
            }
            let ty = self.spell(p.ty, p.span)?;
            if let Some(entry) = entry {
                match &p.io.binding {
                    Some(ir::Binding::Location { .. }) => {}
                    Some(binding) => {
                        // Barycentrics keep their interpolation:
                        // `[[barycentric_coord, center_no_perspective]]`.
                        let attribute =
                            self.attribute(binding, entry.stage, Direction::Input, &p.io, p.span)?;
                        params.push(format!("{ty} {name} [[{attribute}]]"));
                    }
                    None => {
                        return Err(Error::NotLegalized {
                            what: format!(
                                "the entry-point parameter `{}` has no attribute",
                                p.name
                            ),
                            span: p.span,
                        });
                    }
                }
                continue;
            }
            match p.direction {
                ir::ParamDirection::In => params.push(format!("{ty} {name}")),
                ir::ParamDirection::Out | ir::ParamDirection::InOut => {
                    params.push(format!("thread {ty}& {name}"));
                }
            }
        }
        for &g in &self.threaded[&f] {
            if let Some(p) = self.global_param(g, entry)? {
                params.push(p);
            }
        }
        let needs_globals_block = self.threaded[&f]
            .iter()
            .any(|g| self.kinds[g] == GlobalKind::Plain);
        if let (true, Some((ty, name, n))) = (needs_globals_block, &self.globals_block) {
            params.push(if is_entry {
                format!("constant {ty}& {name} [[buffer({n})]]")
            } else {
                format!("constant {ty}& {name}")
            });
        }
        if let (Some(entry), Some(Some((payload, grid, ty)))) =
            (entry, k.map(|k| &self.object_payloads[k]))
        {
            let ty = self.spell(*ty, entry.span)?;
            params.push(format!("object_data {ty}* {payload} [[payload]]"));
            params.push(format!("mesh_grid_properties {grid}"));
        }
        let result = match &func.result {
            Some(r) => self.spell(r.ty, r.span)?,
            None => "void".into(),
        };
        let qualifier = match entry {
            Some(entry) => match entry.stage {
                ShaderStage::Vertex => "[[vertex]] ",
                // `[earlydepthstencil]`: depth and stencil tests before the
                // fragment function runs.
                ShaderStage::Fragment if entry.attributes.early_depth_stencil => {
                    "[[early_fragment_tests]] [[fragment]] "
                }
                ShaderStage::Fragment => "[[fragment]] ",
                ShaderStage::Compute => "[[kernel]] ",
                ShaderStage::Amplification => "[[object]] ",
                ShaderStage::Mesh => "[[mesh]] ",
                other => {
                    return unsupported(format!("{} entry points", other.name()), entry.span);
                }
            },
            None => "",
        };
        let name = &self.names.functions[&f];
        if let Some([x, y, z]) = entry.and_then(|e| e.attributes.workgroup_size) {
            writeln!(
                out,
                "// [numthreads({x}, {y}, {z})]: the host dispatches threadgroups of this size"
            )
            .ok();
        }
        writeln!(out, "{qualifier}{result} {name}({})\n{{", params.join(", ")).ok();
        if is_entry {
            self.entry_locals(f, out)?;
        }
        self.function_body(&mut ctx, &func.body, out)
    }

    /// The `static` and `groupshared` globals the entry function `f`
    /// reaches as its locals, in declaration order, with their
    /// initializers.
    fn entry_locals(&self, f: Handle<ir::Function>, out: &mut String) -> Result<()> {
        let locals = self.threaded[&f]
            .iter()
            .map(|g| (*g, self.kinds[g]))
            .filter(|(_, k)| matches!(k, GlobalKind::Private | GlobalKind::Workgroup))
            .collect();
        self.write_entry_locals(locals, "threadgroup", out)
    }
}

fn slot(table: legalis_bind::MetalTable, n: u32) -> Slot {
    match table {
        legalis_bind::MetalTable::Buffer => Slot::Buffer(n),
        legalis_bind::MetalTable::Texture => Slot::Texture(n),
        legalis_bind::MetalTable::Sampler => Slot::Sampler(n),
    }
}

/// A reached resource the binding plan gave no Metal index: the plan was
/// made for another module or entry point.
fn not_planned<T>(name: &str, span: Span) -> Result<T> {
    Err(Error::NotLegalized {
        what: format!("`{name}`, which the binding plan gives no Metal index"),
        span,
    })
}

/// Whether a resource type is rasterizer-ordered (`RasterizerOrdered*`).
pub(super) fn rasterizer_ordered(inner: &TypeInner) -> bool {
    matches!(
        inner,
        TypeInner::Texture(ir::Texture {
            access: ir::ResourceAccess::RasterizerOrdered,
            ..
        }) | TypeInner::Buffer {
            access: ir::ResourceAccess::RasterizerOrdered,
            ..
        }
    )
}

/// Refuses a structured-buffer element whose natural MSL layout (what the
/// native types the writer spells give: the metal-constant rule) differs
/// from the metal-device rule the host uses (`packed_float3`): the span is
/// the first member whose offset or size differs, else the buffer.
pub(super) fn device_layout_matches(
    module: &ir::Module,
    element: Handle<ir::Type>,
    major: Option<ir::MatrixLayout>,
    span: Span,
) -> Result<()> {
    use legalis_layout::{Layouter, Rule};
    let native = Layouter::new(module, Rule::MetalConstant);
    let device = Layouter::new(module, Rule::MetalDevice);
    let refuse = |span| {
        Err(Error::Layout {
            what: format!(
                "a structured buffer of `{}` (MSL's native types lay it out unlike the packed device layout the host uses)",
                ir::print::type_name(module, element)
            ),
            span,
        })
    };
    if let TypeInner::Struct { members } = &module.types[element].inner {
        let fields: Vec<_> = members.iter().map(|m| (m.ty, m.matrix_layout)).collect();
        if let (Ok((_, n)), Ok((_, d))) =
            (native.struct_layout(&fields), device.struct_layout(&fields))
        {
            for ((m, n), d) in members.iter().zip(n).zip(d) {
                if n.offset != d.offset || n.layout.size != d.layout.size {
                    return refuse(m.span);
                }
                if matches!(
                    module.types[m.ty].inner,
                    TypeInner::Struct { .. } | TypeInner::Array { .. }
                ) {
                    device_layout_matches(module, m.ty, m.matrix_layout, m.span)?;
                }
            }
        }
    }
    if let TypeInner::Array { base, .. } = module.types[element].inner {
        if native.array_stride(base, major) != device.array_stride(base, major) {
            return refuse(span);
        }
        device_layout_matches(module, base, major, span)?;
    }
    match (native.layout(element, major), device.layout(element, major)) {
        (Ok(n), Ok(d)) if n.stride() != d.stride() || n.size != d.size => refuse(span),
        _ => Ok(()),
    }
}
