//! The CUDA writer: what the entry point reaches, how each global reaches
//! the code that uses it (see the module doc) and functions, the entry
//! point among them: a `__global__` kernel, or an OptiX program with its
//! payload and attribute traffic (`ray_tracing.rs`). Names are in
//! `names.rs`, types and structs in `types.rs`, what the host binds in
//! `io.rs`, statements and expressions in `expr.rs` (over the shared
//! `cfamily/`), built-in functions in `intrinsics.rs`.

use super::names::entry_point_name;
use super::names::{RULES, program_prefix};
use super::types::holds_column_major;
use std::collections::BTreeSet;
use std::fmt::Write as _;

use legalis_ir as ir;
use legalis_ir::{AddressSpace, Expression, Handle, ShaderStage, Span, TypeInner};
use legalis_ir::{FastHashMap, FastHashSet};

use super::types::{Result, unsupported};
use super::{Error, Options};
use crate::cfamily::names::Names;
use crate::cfamily::prelude::*;
use crate::cfamily::reach::{self, Initializers};

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
    pub(super) used_structs: BTreeSet<Handle<ir::Type>>,
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
    pub(super) entries: Vec<EntryInfo<'a>>,
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
pub(super) struct EntryInfo<'a> {
    pub(super) entry: &'a ir::EntryPoint,
    pub(super) program: Option<String>,
    pub(super) uniform_params: Vec<usize>,
    pub(super) record_struct: Option<String>,
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
