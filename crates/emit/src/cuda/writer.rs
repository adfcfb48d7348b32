//! The CUDA writer: what the entry point reaches, how each global reaches
//! the code that uses it (see the module doc), names, structs and
//! functions, and the entry point itself: a `__global__` kernel, or an
//! OptiX program with its payload and attribute traffic (`ray_tracing.rs`).
//! Statements and expressions are in `expr.rs`, built-in functions in
//! `intrinsics.rs`.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use legalis_ir as ir;
use legalis_ir::{AddressSpace, Expression, Handle, ShaderStage, Span, TypeInner};
use legalis_ir::{FastHashMap, FastHashSet};
use legalis_layout::{Layouter, Rule};

use super::keywords::RESERVED;
use super::types::{self, Result, unsupported};
use super::{Error, Options};
use crate::cfamily::names::Names;
use crate::cfamily::prelude::*;
use crate::cfamily::reach::{self, Initializers};
use crate::identifier::sanitize;
use crate::namer::Reserved;
use crate::namer::{Namer, Rules};

/// How a global reaches the code that uses it: `static const` globals
/// are `__device__ const` values, `static` ones locals of the entry
/// function passed as `T&`, `groupshared` ones `__shared__` locals of the
/// kernel passed as `T&`, resources kernel parameters (members of the
/// launch parameters in an OptiX program) passed on as they are, plain
/// uniforms members of the `Globals` block.
pub(super) type GlobalKind = reach::GlobalKind<()>;

pub(super) struct Writer<'a> {
    pub module: &'a ir::Module,
    pub entry: &'a ir::EntryPoint,
    /// Every module-scope name of the output.
    pub names: Names,
    /// Functions reachable from the entry point, callees first.
    pub reachable: Vec<Handle<ir::Function>>,
    /// Per function, the non-constant globals it reaches (itself or
    /// through callees): its extra trailing parameters.
    pub threaded: FastHashMap<Handle<ir::Function>, Vec<Handle<ir::GlobalVariable>>>,
    pub kinds: FastHashMap<Handle<ir::GlobalVariable>, GlobalKind>,
    /// The `Globals` block: type name and parameter name.
    pub globals_block: Option<(String, String)>,
    /// The OptiX program's name (`__closesthit__main`); `None` for a
    /// kernel.
    pub program: Option<String>,
    used_structs: BTreeSet<Handle<ir::Type>>,
    /// Members of structs shared with the host that hold column-major
    /// matrices (or arrays of them): declared `lg::column_major<M>`, read
    /// through `lg::rows` and stored through `lg::columns` (see
    /// [`Writer::stored_columns`]).
    pub column_members: FastHashSet<(Handle<ir::Type>, u32)>,
    /// Plain uniforms of column-major matrices and structured buffers
    /// whose elements are column-major matrices.
    pub column_globals: FastHashSet<Handle<ir::GlobalVariable>>,
    /// The entry function's `uniform` parameters, by index: an OptiX
    /// program's shader-binding-table record members, or a kernel's launch
    /// arguments after its resources.
    pub uniform_params: Vec<usize>,
    /// An OptiX program's shader-record struct name, when it has
    /// `uniform` parameters.
    pub record_struct: Option<String>,
    /// Every entry point the output holds (one, or several OptiX
    /// programs), with its program name, `uniform` parameters and record
    /// struct; `select` makes one of them the current `entry`.
    entries: Vec<EntryInfo<'a>>,
    /// The functions an any-hit program reaches, other than its entry
    /// function, that reach `IgnoreHit`/`AcceptHitAndEndSearch`, with the
    /// program's payload type: each takes the payload by reference as a
    /// last parameter (`lg_payload`), to write it back to the registers
    /// before the call.
    pub payload_threaded: FastHashMap<Handle<ir::Function>, Handle<ir::Type>>,
}

/// The name of the payload parameter of [`Writer::payload_threaded`]
/// functions (reserved, so no source name takes it).
pub(super) const PAYLOAD_PARAM: &str = "lg_payload";

/// One entry point of the output.
#[derive(Clone)]
struct EntryInfo<'a> {
    entry: &'a ir::EntryPoint,
    program: Option<String>,
    uniform_params: Vec<usize>,
    record_struct: Option<String>,
}

/// The names no CUDA identifier of the output takes.
pub(super) static RESERVED_NAMES: Reserved =
    Reserved::new(&[crate::cfamily::keywords::CPP_RESERVED, RESERVED]);

/// How CUDA spells a fresh name: the source name made an identifier,
/// kept off [`RESERVED_NAMES`].
pub(super) const RULES: Rules = Rules {
    sanitize,
    reserved: |name| RESERVED_NAMES.contains(name),
};

/// The CUDA name of an entry point called `name` of `stage`: a kernel's
/// own name made an identifier (`_1` appended when reserved, as `main`),
/// an OptiX program's name with its kind's prefix (`__raygen__main`), as
/// OptiX finds programs by prefix.
pub fn entry_point_name(name: &str, stage: ShaderStage) -> String {
    match program_prefix(stage) {
        Some(prefix) => format!("{prefix}{}", sanitize(name)),
        None => Namer::new(RULES).call(name),
    }
}

/// The OptiX program-name prefix of a ray-tracing stage.
pub(super) fn program_prefix(stage: ShaderStage) -> Option<&'static str> {
    Some(match stage {
        ShaderStage::RayGeneration => "__raygen__",
        ShaderStage::Miss => "__miss__",
        ShaderStage::ClosestHit => "__closesthit__",
        ShaderStage::AnyHit => "__anyhit__",
        ShaderStage::Intersection => "__intersection__",
        ShaderStage::Callable => "__direct_callable__",
        _ => return None,
    })
}

impl<'a> Writer<'a> {
    pub fn new(module: &'a ir::Module, entry_point: usize, options: &Options) -> Result<Self> {
        Self::with_entries(module, &[entry_point], options)
    }

    /// A writer of entry points `entry_points` (one, or several OptiX
    /// programs) into one translation unit, the first of them current.
    pub fn with_entries(
        module: &'a ir::Module,
        entry_points: &[usize],
        _options: &Options,
    ) -> Result<Self> {
        let mut entries = Vec::new();
        for entry in crate::error::entry_points::<Error>(module, entry_points)? {
            let program =
                program_prefix(entry.stage).map(|_| entry_point_name(&entry.name, entry.stage));
            if program.is_none() && entry.stage != ShaderStage::Compute {
                return unsupported(
                    format!(
                        "{} entry points (CUDA has kernels and OptiX programs)",
                        entry.stage.name()
                    ),
                    entry.span,
                );
            }
            if program.is_none() && entry_points.len() > 1 {
                return unsupported(
                    "a compute kernel beside other entry points in one output (choose it with -entry)",
                    entry.span,
                );
            }
            entries.push(EntryInfo {
                entry,
                program,
                uniform_params: Vec::new(),
                record_struct: None,
            });
        }
        let first = entries[0].clone();
        let (entry, program) = (first.entry, first.program);
        let mut w = Writer {
            module,
            entry,
            names: Names::new(RULES),
            reachable: Vec::new(),
            threaded: FastHashMap::default(),
            kinds: FastHashMap::default(),
            globals_block: None,
            program,
            used_structs: BTreeSet::new(),
            column_members: FastHashSet::default(),
            column_globals: FastHashSet::default(),
            uniform_params: Vec::new(),
            record_struct: None,
            entries,
            payload_threaded: FastHashMap::default(),
        };
        for i in 0..w.entries.len() {
            w.select(i);
            w.collect_uniform_params()?;
            w.entries[i].uniform_params = std::mem::take(&mut w.uniform_params);
        }
        w.select(0);
        w.collect_used()?;
        w.collect_payload_threaded()?;
        w.classify_globals()?;
        w.used_structs = reach::used_structs(module, &w.reachable, w.kinds.keys().copied());
        w.collect_columns()?;
        w.name_everything();
        w.select(0);
        Ok(w)
    }

    /// [`Writer::payload_threaded`]: per any-hit program with a payload
    /// in registers, the functions it reaches (not its entry function)
    /// that reach a hit control.
    fn collect_payload_threaded(&mut self) -> Result<()> {
        let module = self.module;
        let hit_control = |f: Handle<ir::Function>| {
            module.functions.try_get(f).is_some_and(|func| {
                func.expressions.iter().any(|(_, e)| {
                    matches!(
                        e,
                        Expression::Intrinsic {
                            fun: ir::Intrinsic::IgnoreHit | ir::Intrinsic::AcceptHitAndEndSearch,
                            ..
                        }
                    )
                })
            })
        };
        for info in &self.entries {
            let entry = info.entry;
            if entry.stage != ShaderStage::AnyHit {
                continue;
            }
            let Some(func) = module.functions.try_get(entry.function) else {
                continue;
            };
            let Some(payload) = func
                .params
                .iter()
                .find(|p| p.direction != ir::ParamDirection::In)
            else {
                continue;
            };
            let registers = legalis_layout::optix::payload(module, payload.ty)
                .is_ok_and(|l| matches!(l.passing(), legalis_layout::optix::Passing::Registers(_)));
            if !registers {
                continue;
            }
            let from_entry = ir::Reach::calls(module, [entry.function]);
            for &f in &self.reachable {
                if f == entry.function
                    || !from_entry.has_function(f)
                    || !ir::Reach::calls(module, [f]).functions().any(&hit_control)
                {
                    continue;
                }
                match self.payload_threaded.insert(f, payload.ty) {
                    Some(other) if other != payload.ty => {
                        return unsupported(
                            "a function calling `IgnoreHit`/`AcceptHitAndEndSearch` reached by any-hit programs of different payloads",
                            module.functions.span(f),
                        );
                    }
                    _ => {}
                }
            }
        }
        Ok(())
    }

    /// Makes entry `i` the current one.
    pub(super) fn select(&mut self, i: usize) {
        let info = self.entries[i].clone();
        self.entry = info.entry;
        self.program = info.program;
        self.uniform_params = info.uniform_params;
        self.record_struct = info.record_struct;
    }

    pub(super) fn entry_function(&self) -> &'a ir::Function {
        &self.module.functions[self.entry.function]
    }

    /// The entry function's `uniform` parameters (declared so, or of a
    /// resource type), each checked to be one the host can write: no bare
    /// column-major matrix (wrap it in a struct, or declare it
    /// `row_major`).
    fn collect_uniform_params(&mut self) -> Result<()> {
        let module = self.module;
        for (i, p) in self.entry_function().params.iter().enumerate() {
            let resource = module
                .types
                .try_get(p.ty)
                .is_some_and(|t| t.inner.is_resource());
            if p.role != ir::ParamRole::Uniform && !(resource && self.program.is_some()) {
                continue;
            }
            if holds_column_major(module, p.ty, None) {
                return Err(Error::Layout {
                    what: format!(
                        "the uniform parameter `{}` of a column-major matrix (wrap it in a struct, or declare it `row_major`)",
                        p.name
                    ),
                    span: p.span,
                });
            }
            if resource {
                if let TypeInner::Buffer {
                    element: Some(e), ..
                } = module.types[p.ty].inner
                    && holds_column_major(module, e, None)
                {
                    return Err(Error::Layout {
                        what: format!(
                            "the uniform parameter `{}`, a buffer of column-major matrices (make it a global)",
                            p.name
                        ),
                        span: p.span,
                    });
                }
                self.resource_type_of(p.ty, false, p.span)?;
            }
            self.uniform_params.push(i);
        }
        Ok(())
    }

    /// The spelling of a function parameter's type: a value type, or a
    /// resource as a kernel parameter spells it.
    pub(super) fn param_type(&self, ty: Handle<ir::Type>, span: Span) -> Result<String> {
        if self.module.types[ty].inner.is_resource() {
            return self.resource_type_of(ty, false, span);
        }
        self.spell(ty, span)
    }

    /// Reachable functions and the globals each reaches.
    fn collect_used(&mut self) -> Result<()> {
        let entries: Vec<_> = self.entries.iter().map(|e| e.entry).collect();
        let reach = reach::collect(self.module, &entries, Initializers::Shared)?;
        self.reachable = reach.reachable;
        self.threaded = reach.threaded;
        Ok(())
    }

    /// Every reached global's kind.
    fn classify_globals(&mut self) -> Result<()> {
        let module = self.module;
        let decide = |g: Handle<ir::GlobalVariable>, span: Span| -> Result<Option<GlobalKind>> {
            let global = &module.globals[g];
            Ok(Some(match global.space {
                AddressSpace::Workgroup => {
                    if self.entry.stage != ShaderStage::Compute {
                        return unsupported("`groupshared` outside a compute entry point", span);
                    }
                    GlobalKind::Workgroup
                }
                AddressSpace::Uniform if module.types[global.ty].inner.is_resource() => {
                    self.resource_type(g, span)?;
                    GlobalKind::Resource(())
                }
                AddressSpace::TaskPayload => {
                    return unsupported("a task payload (CUDA has no mesh stages)", span);
                }
                AddressSpace::RayTracing(_) => {
                    return Err(Error::NotLegalized {
                        what: "ray-tracing storage (OptiX payloads live in registers)".into(),
                        span,
                    });
                }
                _ => return Ok(None),
            }))
        };
        self.kinds = reach::classify(module, &self.threaded, decide)?;
        if self.kinds.values().any(|k| *k == GlobalKind::Plain) {
            self.globals_block = Some((String::new(), String::new()));
        }
        Ok(())
    }

    /// The CUDA type of a resource global as a kernel parameter or launch
    /// parameter member.
    pub(super) fn resource_type(
        &self,
        g: Handle<ir::GlobalVariable>,
        span: Span,
    ) -> Result<String> {
        let ty = self.module.globals[g].ty;
        self.resource_type_of(ty, self.column_globals.contains(&g), span)
    }

    /// The CUDA type of a resource of type `ty` (`columns`: a structured
    /// buffer of column-major matrices the host shares).
    pub(super) fn resource_type_of(
        &self,
        ty: Handle<ir::Type>,
        columns: bool,
        span: Span,
    ) -> Result<String> {
        let module = self.module;
        Ok(match &module.types[ty].inner {
            TypeInner::ConstantBuffer { inner } => self.spell(*inner, span)?,
            TypeInner::TextureBuffer { inner } => format!("const {}*", self.spell(*inner, span)?),
            TypeInner::AccelerationStructure => "OptixTraversableHandle".into(),
            TypeInner::Buffer { .. } => self.buffer_pointer(ty, columns, span)?,
            TypeInner::Texture(_) | TypeInner::Sampler { .. } => {
                types::texture(module, ty, span)?.into()
            }
            _ => {
                return unsupported(
                    format!("the resource type `{}`", ir::print::type_name(module, ty)),
                    span,
                );
            }
        })
    }

    /// The pointer a structured or byte-address buffer `ty` is (`columns`:
    /// one of column-major matrices the host shares): `const T*` where it
    /// is read only.
    fn buffer_pointer(&self, ty: Handle<ir::Type>, columns: bool, span: Span) -> Result<String> {
        let TypeInner::Buffer {
            kind,
            access,
            element,
            ..
        } = self.module.types[ty].inner
        else {
            return unsupported("a buffer of an unknown kind", span);
        };
        let element = match (kind, element) {
            (ir::BufferKind::ByteAddress, _) => "uint32_t".to_string(),
            (ir::BufferKind::Structured, Some(e)) => self.spell_stored(e, columns, span)?,
            (ir::BufferKind::Typed, _) => {
                return unsupported("typed buffers (`Buffer<T>`)", span);
            }
            (ir::BufferKind::Append | ir::BufferKind::Consume, _) => {
                return unsupported(
                    "append and consume buffers (no buffer counters in CUDA output)",
                    span,
                );
            }
            (_, None) => return unsupported("a buffer without an element type", span),
        };
        match access {
            ir::ResourceAccess::Read => Ok(format!("const {element}*")),
            ir::ResourceAccess::ReadWrite => Ok(format!("{element}*")),
            ir::ResourceAccess::RasterizerOrdered => {
                unsupported("rasterizer-ordered buffers", span)
            }
        }
    }

    /// The members and globals holding column-major matrices the host
    /// shares ([`Writer::column_members`], [`Writer::column_globals`]).
    fn collect_columns(&mut self) -> Result<()> {
        let module = self.module;
        for st in self.buffer_structs() {
            if let TypeInner::Struct { members } = &module.types[st].inner {
                for (i, m) in members.iter().enumerate() {
                    if holds_column_major(module, m.ty, m.matrix_layout) {
                        self.column_members.insert((st, i as u32));
                    }
                }
            }
        }
        for (&g, kind) in &self.kinds {
            let global = &module.globals[g];
            let stored = match (kind, &module.types[global.ty].inner) {
                (GlobalKind::Plain, _) => Some(global.ty),
                (
                    GlobalKind::Resource(()),
                    TypeInner::Buffer {
                        kind: ir::BufferKind::Structured,
                        element: Some(e),
                        ..
                    },
                ) => Some(*e),
                (
                    GlobalKind::Resource(()),
                    TypeInner::ConstantBuffer { inner } | TypeInner::TextureBuffer { inner },
                ) if holds_column_major(module, *inner, global.matrix_layout) => {
                    return Err(Error::Layout {
                        what: format!(
                            "a constant buffer of the column-major matrix `{}` (wrap it in a struct)",
                            ir::print::type_name(module, *inner)
                        ),
                        span: module.globals.span(g),
                    });
                }
                _ => None,
            };
            if stored.is_some_and(|ty| holds_column_major(module, ty, global.matrix_layout)) {
                self.column_globals.insert(g);
            }
        }
        Ok(())
    }

    fn name_everything(&mut self) {
        let module = self.module;
        // The entries' names first: the host looks them up.
        for e in &self.entries {
            let name = match &e.program {
                Some(program) => program.clone(),
                None => entry_point_name(&e.entry.name, e.entry.stage),
            };
            self.names.taken.take(&name);
        }
        for e in &self.entries {
            let name = match &e.program {
                Some(_) => self.names.fresh(&format!("{}_body", e.entry.name)),
                None => entry_point_name(&e.entry.name, e.entry.stage),
            };
            self.names.functions.insert(e.entry.function, name);
        }
        self.names.name_structs(module, &self.used_structs);
        if self.globals_block.is_some() {
            let ty = self.names.fresh("Globals");
            let param = self.names.fresh("globals_");
            self.globals_block = Some((ty, param));
        }
        if self.program.is_some() {
            self.names.taken.take("LaunchParams");
            for i in 0..self.entries.len() {
                if !self.entries[i].uniform_params.is_empty() {
                    self.entries[i].record_struct = Some(self.names.fresh("ShaderRecordParams"));
                }
            }
        }
        let globals = self.kinds.keys().copied().collect();
        let kinds = &self.kinds;
        self.names
            .name_globals(module, globals, |g| kinds[&g] == GlobalKind::Plain);
        self.names.name_functions(module, &self.reachable);
    }

    pub fn module_names(&self) -> Namer {
        self.names.taken.clone()
    }

    /// The spelling of a value type as stored in memory the host shares:
    /// with `columns`, a matrix (or the matrices of an array) as
    /// `lg::column_major<M>`.
    pub fn spell_stored(&self, ty: Handle<ir::Type>, columns: bool, span: Span) -> Result<String> {
        if !columns {
            return self.spell(ty, span);
        }
        match self.module.types[ty].inner {
            TypeInner::Matrix { .. } => Ok(format!("lg::column_major<{}>", self.spell(ty, span)?)),
            TypeInner::Array {
                base,
                size: ir::ArraySize::Constant(n),
            } => Ok(format!(
                "lg::array<{}, {n}>",
                self.spell_stored(base, true, span)?
            )),
            _ => self.spell(ty, span),
        }
    }

    pub fn write(mut self) -> Result<String> {
        let mut out = String::new();
        if self.program.is_some() || self.uses_traversable() {
            out.push_str("#include <optix.h>\n");
        }
        writeln!(out, "#include \"{}\"\n", super::PRELUDE_NAME).ok();
        out.push_str(&self.structs()?);
        out.push_str(&self.launch_params()?);
        out.push_str(&self.constants()?);
        out.push_str(&self.functions()?);
        for i in 0..self.entries.len() {
            self.select(i);
            if self.program.is_some() {
                out.push_str(&self.program_function()?);
            }
        }
        Ok(out)
    }

    fn uses_traversable(&self) -> bool {
        self.kinds.keys().any(|g| {
            matches!(
                self.module.types[self.module.globals[*g].ty].inner,
                TypeInner::AccelerationStructure
            )
        })
    }

    /// Structs whose bytes the host shares: those inside constant buffers,
    /// structured buffers and the globals block. They get `legalis_layout`
    /// offsets; other structs (payloads, locals only) stay as C++ lays them.
    pub(super) fn buffer_structs(&self) -> BTreeSet<Handle<ir::Type>> {
        let mut out = BTreeSet::new();
        for g in self.kinds.keys() {
            let global = &self.module.globals[*g];
            if global.space == AddressSpace::Uniform {
                crate::structs::mark_structs(self.module, global.ty, &mut out);
            }
        }
        for e in &self.entries {
            let params = &self.module.functions[e.entry.function].params;
            for &i in &e.uniform_params {
                crate::structs::mark_structs(self.module, params[i].ty, &mut out);
            }
        }
        out
    }

    fn structs(&self) -> Result<String> {
        let module = self.module;
        let mut out = String::new();
        let shared = self.buffer_structs();
        for &ty in &self.used_structs {
            let TypeInner::Struct { members } = &module.types[ty].inner else {
                continue;
            };
            if members.is_empty() && shared.contains(&ty) {
                // C++ gives an empty struct one byte; the host's layout
                // gives it none.
                return unsupported(
                    "an empty struct in memory the host shares",
                    module.types.span(ty),
                );
            }
            let names = &self.names.members[&ty];
            let mut fields = Vec::new();
            for (i, m) in members.iter().enumerate() {
                let columns = self.column_members.contains(&(ty, i as u32));
                let spelled = self.spell_stored(m.ty, columns, m.span)?;
                fields.push((spelled, names[i].clone(), m.ty, m.matrix_layout));
            }
            if shared.contains(&ty) {
                self.laid_out_struct(&self.names.struct_name(ty), &fields, &mut out)?;
            } else {
                writeln!(out, "struct {}\n{{", self.names.struct_name(ty)).ok();
                for (spelled, field, ..) in &fields {
                    writeln!(out, "    {spelled} {field};").ok();
                }
                out.push_str("};\n\n");
            }
        }
        if let Some((ty, _)) = &self.globals_block {
            let mut fields = Vec::new();
            for g in self.globals_of(GlobalKind::Plain) {
                let global = &module.globals[g];
                let span = module.globals.span(g);
                let columns = self.column_globals.contains(&g);
                let spelled = self.spell_stored(global.ty, columns, span)?;
                fields.push((
                    spelled,
                    self.names.globals[&g].clone(),
                    global.ty,
                    global.matrix_layout,
                ));
            }
            self.laid_out_struct(ty, &fields, &mut out)?;
        }
        for e in &self.entries {
            if let Some(name) = &e.record_struct {
                let fields = self.record_fields_of(e.entry, &e.uniform_params)?;
                self.laid_out_struct(name, &fields, &mut out)?;
            }
        }
        Ok(out)
    }

    /// The members of an OptiX program's shader-record struct: its
    /// `uniform` parameters in order, under their own names.
    pub(super) fn record_fields(&self) -> Result<Vec<SharedField>> {
        self.record_fields_of(self.entry, &self.uniform_params)
    }

    fn record_fields_of(
        &self,
        entry: &ir::EntryPoint,
        uniform_params: &[usize],
    ) -> Result<Vec<SharedField>> {
        let params = &self.module.functions[entry.function].params;
        let mut local = Namer::new(RULES);
        let mut fields = Vec::new();
        for &i in uniform_params {
            let p = &params[i];
            fields.push((
                self.param_type(p.ty, p.span)?,
                local.call(&p.name),
                p.ty,
                None,
            ));
        }
        Ok(fields)
    }

    /// Per member of struct `ty`: whether `laid_out_struct` puts padding
    /// bytes before it.
    pub(super) fn padded_members(&self, ty: Handle<ir::Type>) -> Vec<bool> {
        let TypeInner::Struct { members } = &self.module.types[ty].inner else {
            return Vec::new();
        };
        if !self.buffer_structs().contains(&ty) {
            return Vec::new();
        }
        let types: Vec<_> = members.iter().map(|m| (m.ty, m.matrix_layout)).collect();
        let Ok((_, placed)) = Layouter::new(self.module, Rule::Cuda).struct_layout(&types) else {
            return Vec::new();
        };
        let mut cursor = 0;
        placed
            .iter()
            .map(|m| {
                let padded = m.offset > cursor;
                cursor = m.offset + m.layout.size;
                padded
            })
            .collect()
    }

    /// A struct whose members sit at their `legalis_layout` CUDA offsets:
    /// the prelude's vectors, matrices and arrays align only to their
    /// scalar, so explicit padding bytes before a member (and at the end)
    /// reach every offset and size the rule asks for; `static_assert`s
    /// make nvcc prove them.
    fn laid_out_struct(&self, name: &str, fields: &[SharedField], out: &mut String) -> Result<()> {
        let layouter = Layouter::new(self.module, Rule::Cuda);
        let types: Vec<_> = fields.iter().map(|f| (f.2, f.3)).collect();
        let (layout, placed) = match layouter.struct_layout(&types) {
            Ok(l) => l,
            // Opaque members (resources in a parameter struct) have no
            // layout to keep: the struct stays as C++ lays it out.
            Err(_) => {
                writeln!(out, "struct {name}\n{{").ok();
                for (spelled, field, ..) in fields {
                    writeln!(out, "    {spelled} {field};").ok();
                }
                out.push_str("};\n\n");
                return Ok(());
            }
        };
        writeln!(out, "struct {name}\n{{").ok();
        let mut cursor = 0;
        let mut pads = 0;
        let mut pad = |out: &mut String, to: u32, cursor: &mut u32| {
            if to > *cursor {
                writeln!(out, "    unsigned char _pad{pads}[{}];", to - *cursor).ok();
                pads += 1;
                *cursor = to;
            }
        };
        for ((spelled, field, ..), member) in fields.iter().zip(&placed) {
            pad(out, member.offset, &mut cursor);
            writeln!(out, "    {spelled} {field};").ok();
            cursor = member.offset + member.layout.size;
        }
        pad(out, layout.size, &mut cursor);
        out.push_str("};\n");
        for ((_, field, ..), member) in fields.iter().zip(&placed) {
            writeln!(
                out,
                "static_assert(offsetof({name}, {field}) == {}, \"{name}.{field}\");",
                member.offset
            )
            .ok();
        }
        writeln!(
            out,
            "static_assert(sizeof({name}) == {}, \"sizeof({name})\");\n",
            layout.size
        )
        .ok();
        Ok(())
    }

    pub(super) fn globals_of(&self, kind: GlobalKind) -> Vec<Handle<ir::GlobalVariable>> {
        reach::globals_of(&self.kinds, |k| *k == kind)
    }

    /// An OptiX program's resources: the launch parameters, one member per
    /// resource in declaration order, then the `Globals` block.
    fn launch_params(&self) -> Result<String> {
        if self.program.is_none() {
            return Ok(String::new());
        }
        let members = self.launch_members()?;
        if members.is_empty() {
            return Ok(String::new());
        }
        let mut out = String::from("struct LaunchParams\n{\n");
        for (_, declaration) in members {
            writeln!(out, "    {declaration};").ok();
        }
        out.push_str("};\n\nextern \"C\"\n{\n    __constant__ LaunchParams params;\n}\n\n");
        Ok(out)
    }

    /// The members of an OptiX program's launch parameters, each with its
    /// global (`None`: the `Globals` block) and declaration.
    fn launch_members(&self) -> Result<Vec<(Option<Handle<ir::GlobalVariable>>, String)>> {
        let mut members = Vec::new();
        for g in self.globals_of(GlobalKind::Resource(())) {
            let span = self.module.globals.span(g);
            let declaration = format!(
                "{} {}",
                self.resource_type(g, span)?,
                self.names.globals[&g]
            );
            members.push((Some(g), declaration));
        }
        if let Some((ty, name)) = &self.globals_block {
            members.push((None, format!("{ty} {name}")));
        }
        Ok(members)
    }

    /// The parameters function `f` takes for the globals it reaches
    /// (`kernel`: the kernel's own, which are all its parameters), each
    /// with its global (`None`: the `Globals` block).
    fn trailing_params(
        &self,
        f: Handle<ir::Function>,
        kernel: bool,
    ) -> Result<Vec<(Option<Handle<ir::GlobalVariable>>, String)>> {
        let mut params = Vec::new();
        for &g in &self.threaded[&f] {
            if let Some(p) = self.global_param(g, kernel)? {
                params.push((Some(g), p));
            }
        }
        let needs_globals_block = self.threaded[&f]
            .iter()
            .any(|g| self.kinds[g] == GlobalKind::Plain);
        if let (true, Some((ty, name))) = (needs_globals_block, &self.globals_block) {
            params.push((
                None,
                if kernel {
                    format!("{ty} {name}")
                } else {
                    format!("const {ty}& {name}")
                },
            ));
        }
        Ok(params)
    }

    /// Where each resource and plain uniform the entry point reaches is
    /// in the output: the kernel parameters or the launch parameters
    /// (the same lists the kernel's signature and `LaunchParams` are
    /// written from).
    pub fn resources(&self) -> Result<Vec<super::Resource>> {
        let module = self.module;
        let list = match self.program {
            Some(_) => self.launch_members()?,
            None => self.trailing_params(self.entry.function, true)?,
        };
        let count = list.len() as u32;
        let mut out = Vec::new();
        for (index, (global, declaration)) in list.into_iter().enumerate() {
            let place = match self.program {
                Some(_) => super::ResourcePlace::LaunchParams,
                None => super::ResourcePlace::KernelParameter(index as u32),
            };
            match global {
                Some(g) => out.push(super::Resource {
                    global: module.globals[g].name.clone(),
                    name: self.names.globals[&g].clone(),
                    declaration,
                    place,
                    block: None,
                    parameter: None,
                }),
                None => {
                    let Some((_, block)) = &self.globals_block else {
                        continue;
                    };
                    for g in self.globals_of(GlobalKind::Plain) {
                        let span = module.globals.span(g);
                        let name = self.names.globals[&g].clone();
                        let columns = self.column_globals.contains(&g);
                        out.push(super::Resource {
                            global: module.globals[g].name.clone(),
                            declaration: format!(
                                "{} {name}",
                                self.spell_stored(module.globals[g].ty, columns, span)?
                            ),
                            name,
                            place: place.clone(),
                            block: Some(block.clone()),
                            parameter: None,
                        });
                    }
                }
            }
        }
        out.extend(self.uniform_resources(count)?);
        Ok(out)
    }

    /// The entry point's `uniform` parameters as [`super::Resource`]s: an
    /// OptiX program's shader-record members, or a kernel's launch
    /// arguments from parameter `first` on.
    fn uniform_resources(&self, first: u32) -> Result<Vec<super::Resource>> {
        let params = &self.entry_function().params;
        let mut out = Vec::new();
        if let Some(record) = &self.record_struct {
            for (member, (&i, (spelled, name, ..))) in self
                .uniform_params
                .iter()
                .zip(self.record_fields()?)
                .enumerate()
            {
                out.push(super::Resource {
                    global: params[i].name.clone(),
                    declaration: format!("{spelled} {name}"),
                    name,
                    place: super::ResourcePlace::ShaderRecord {
                        record: record.clone(),
                        member: member as u32,
                    },
                    block: None,
                    parameter: Some(i as u32),
                });
            }
            return Ok(out);
        }
        let ctx = self.fn_ctx(self.entry.function)?;
        for (n, &i) in self.uniform_params.iter().enumerate() {
            let p = &params[i];
            let name = ctx.param_names[i].clone();
            out.push(super::Resource {
                global: p.name.clone(),
                declaration: format!("{} {name}", self.param_type(p.ty, p.span)?),
                name,
                place: super::ResourcePlace::KernelParameter(first + n as u32),
                block: None,
                parameter: Some(i as u32),
            });
        }
        Ok(out)
    }

    /// `static const` values: `__device__ const` variables, but for those
    /// whose initializer nvcc cannot initialize statically (vector and
    /// matrix arithmetic, reads of other constants: `a + c`), which are
    /// written as their initializer where they are used.
    fn constants(&self) -> Result<String> {
        let mut constants = self.globals_of(GlobalKind::Constant);
        constants.retain(|g| self.inlined_constant(*g).is_none());
        self.write_constants(&constants, "__device__ const", |_, _| Ok(()))
    }

    /// A threaded global as a parameter of a function (`kernel`: of the
    /// kernel itself).
    fn global_param(&self, g: Handle<ir::GlobalVariable>, kernel: bool) -> Result<Option<String>> {
        let module = self.module;
        let global = &module.globals[g];
        let span = module.globals.span(g);
        let name = &self.names.globals[&g];
        let text = match self.kinds[&g] {
            GlobalKind::Constant | GlobalKind::Plain => return Ok(None),
            GlobalKind::Private | GlobalKind::Workgroup if kernel => return Ok(None),
            GlobalKind::Private | GlobalKind::Workgroup => {
                format!("{}& {name}", self.spell(global.ty, span)?)
            }
            GlobalKind::Resource(()) => {
                let ty = self.resource_type(g, span)?;
                match &module.types[global.ty].inner {
                    // A constant buffer is a value of the kernel, a const
                    // reference below it.
                    TypeInner::ConstantBuffer { .. } if !kernel => format!("const {ty}& {name}"),
                    _ => format!("{ty} {name}"),
                }
            }
        };
        Ok(Some(text))
    }

    /// Every reachable function once, each written for the first entry
    /// point that reaches it (its stage decides what the function may
    /// call).
    fn functions(&mut self) -> Result<String> {
        let mut out = String::new();
        let from_entries: Vec<_> = self
            .entries
            .iter()
            .map(|e| ir::Reach::calls(self.module, [e.entry.function]))
            .collect();
        let reaching: Vec<usize> = self
            .reachable
            .iter()
            .map(|&f| {
                let first = from_entries.iter().position(|r| r.has_function(f));
                first.unwrap_or(0)
            })
            .collect();
        for (f, i) in self.reachable.clone().into_iter().zip(reaching) {
            self.select(i);
            self.function(f, &mut out)?;
        }
        self.select(0);
        Ok(out)
    }

    fn function(&mut self, f: Handle<ir::Function>, out: &mut String) -> Result<()> {
        let module = self.module;
        let func = &module.functions[f];
        let kernel = f == self.entry.function && self.program.is_none();
        let mut ctx = self.fn_ctx(f)?;
        let mut params = Vec::new();
        let mut builtins = Vec::new();
        let mut uniforms = Vec::new();
        for (i, p) in func.params.iter().enumerate() {
            let name = ctx.param_names[i].clone();
            let ty = self.param_type(p.ty, p.span)?;
            if kernel && p.role == ir::ParamRole::Uniform {
                // A launch argument, after the resources.
                uniforms.push(format!("{ty} {name}"));
                continue;
            }
            if kernel {
                // A kernel reads its ids from CUDA's built-in variables.
                let Some(ir::Binding::BuiltIn(b)) = &p.io.binding else {
                    return Err(Error::NotLegalized {
                        what: format!("the kernel parameter `{}` is not a system value", p.name),
                        span: p.span,
                    });
                };
                let legalis_sysval::CudaMapping::BuiltIn(row) = legalis_sysval::cuda(
                    b.value,
                    self.entry.stage,
                    legalis_sysval::Direction::Input,
                ) else {
                    return Err(Error::NotLegalized {
                        what: format!("`{}` has no CUDA expression", b.value.name()),
                        span: p.span,
                    });
                };
                builtins.push(format!("    const {ty} {name} = {};\n", row.expression));
                continue;
            }
            match p.direction {
                ir::ParamDirection::In => params.push(format!("{ty} {name}")),
                ir::ParamDirection::Out | ir::ParamDirection::InOut => {
                    params.push(format!("{ty}& {name}"));
                }
            }
        }
        params.extend(self.trailing_params(f, kernel)?.into_iter().map(|(_, p)| p));
        if let Some(&ty) = self.payload_threaded.get(&f) {
            params.push(format!("{}& {PAYLOAD_PARAM}", self.spell(ty, func.span)?));
        }
        params.extend(uniforms);
        let result = match &func.result {
            Some(r) if kernel => {
                return Err(Error::NotLegalized {
                    what: "a kernel that returns a value".into(),
                    span: r.span,
                });
            }
            Some(r) => self.spell(r.ty, r.span)?,
            None => "void".into(),
        };
        let qualifier = if kernel {
            "extern \"C\" __global__ "
        } else {
            "__device__ "
        };
        let name = &self.names.functions[&f];
        if kernel && let Some([x, y, z]) = self.entry.attributes.workgroup_size {
            writeln!(
                out,
                "// [numthreads({x}, {y}, {z})]: launch blocks of this size"
            )
            .ok();
        }
        writeln!(out, "{qualifier}{result} {name}({})\n{{", params.join(", ")).ok();
        for line in builtins {
            out.push_str(&line);
        }
        if kernel {
            self.entry_locals(out)?;
        }
        self.function_body(&mut ctx, &func.body, out)
    }

    /// The `static` and `groupshared` globals as locals of the entry, in
    /// declaration order, with their initializers.
    pub(super) fn entry_locals(&self, out: &mut String) -> Result<()> {
        let locals = self
            .kinds
            .iter()
            .filter(|(_, k)| matches!(k, GlobalKind::Private | GlobalKind::Workgroup))
            .map(|(g, k)| (*g, *k))
            .collect();
        self.write_entry_locals(locals, "__shared__", out)
    }
}

impl Writer<'_> {
    /// The arguments a call of `function` passes for the globals it
    /// reaches; `prefix` is `params.` where resources come from the launch
    /// parameters.
    pub(super) fn threaded_arguments(
        &self,
        function: Handle<ir::Function>,
        prefix: &str,
    ) -> Vec<String> {
        let block = self.globals_block.as_ref().map(|(_, name)| name.as_str());
        reach::threaded_arguments(
            &self.threaded,
            &self.kinds,
            &self.names,
            function,
            block,
            prefix,
        )
    }
}

/// A member of a struct shared with the host: its spelling, name, type
/// and matrix major.
type SharedField = (String, String, Handle<ir::Type>, Option<ir::MatrixLayout>);

/// Whether `ty` (a matrix, or an array of them) shared with the host is
/// stored in column order: HLSL's default `column_major`, not `row_major`.
/// A matrix of one row or one column stores the same components in either
/// order and stays an `lg::mat`.
fn holds_column_major(
    module: &ir::Module,
    ty: Handle<ir::Type>,
    major: Option<ir::MatrixLayout>,
) -> bool {
    match module.types[ty].inner {
        TypeInner::Array { base, .. } => holds_column_major(module, base, major),
        TypeInner::Matrix { rows, columns, .. } => {
            rows > 1 && columns > 1 && major != Some(ir::MatrixLayout::RowMajor)
        }
        _ => false,
    }
}
