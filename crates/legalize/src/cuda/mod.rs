//! The CUDA/OptiX legalizer (B17, B18, D8, and the compute ids).
//!
//! A compute entry point becomes a kernel: a wrapper named after the entry
//! point takes one parameter per system-value leaf of the source's
//! parameters (bound to the system value: the writer reads each from the
//! CUDA column of the table, `threadIdx`/`blockIdx`/`blockDim`), rebuilds
//! the source's parameters as locals and calls the source function
//! (renamed `<entry>_body`). Its `uniform` parameters (and resource
//! parameters) stay parameters of the wrapper, passed on as they are: the
//! kernel's launch arguments. What CUDA cannot express is `E55402` at the
//! declaration.
//!
//! The six ray-tracing stages become OptiX programs. Their parameters are
//! checked here (a hit program's one `in` hit-attribute struct and one
//! `inout` payload, a miss program's payload, a callable program's
//! data; `uniform` and resource parameters, which are the program's
//! shader-binding-table record, `Plan::Program::record`); the payload's
//! register layout and the attributes' slots come
//! from `legalis_layout::optix`, THE layout function the writer packs and unpacks with
//! on both sides. Over 8 attribute slots is `E55403` (D8) at the
//! parameter or the `ReportHit` call; a value with no bits to pack is
//! `E55404`. `IgnoreHit`/`AcceptHitAndEndSearch` may be called from any
//! function the any-hit program reaches: the writer passes the payload
//! on to those functions, which write it back before the call.
//!
//! A [`Legalized`] module: a kernel's wrapper and renamed body, or an OptiX
//! program's module unchanged, and what the writer needs (the kernel's
//! system-value leaves or the program's payload and attribute layouts).
//! [`LegalizedAll`]: every entry point of a module legalized for CUDA into
//! one translation unit ([`Family::legalize_all_unverified`]), one plan
//! each (in entry-point order): OptiX programs, as OptiX builds one module
//! of them, are checked and planned without rewriting the module.
//! `legalize_linked` is `legalize`, as CUDA has no graphics stages to link.
//!
//! The legalizer never prints; the result is IR plus the plan.

use legalis_ir as ir;
use legalis_ir::diag::Diagnostic;
use legalis_ir::{
    Expression, Handle, Intrinsic as I, Semantic, ShaderStage as S, Span, Statement, Type,
    TypeInner,
};
use legalis_layout::optix as layout;
use legalis_sysval::{CudaMapping, Direction};

use crate::codes;
use crate::common::builder::{self, FunctionBuilder};
use crate::common::legalized::{family, keep_or_drop};
use crate::{Family, Job};

/// A system-value leaf of a kernel's parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct Leaf {
    /// `dtid`, `input.gid`.
    pub path: String,
    /// The index of the source function's parameter the leaf belongs to.
    pub param: u32,
    /// Member indices from the parameter to the leaf.
    pub members: Vec<u32>,
    /// The system value its semantic names (a compute id).
    pub value: ir::SystemValue,
    /// The leaf's type as declared.
    pub ty: Handle<Type>,
    /// The C++ expression the writer reads it from, the system-value
    /// table's CUDA row (over `threadIdx`, `blockIdx` and `blockDim`).
    pub expression: &'static str,
    /// The declaration in the source (diagnostics point here).
    pub span: Span,
}

/// What the legalizer decided.
#[derive(Clone, Debug, PartialEq)]
pub enum Plan {
    /// A kernel, its system-value leaves, and its `uniform` parameters
    /// (their indices in the source's parameters), which stay kernel
    /// parameters: launch arguments, after the resources and the
    /// `Globals` block.
    Kernel {
        /// The entry point's name, the kernel's.
        entry: String,
        /// The system-value leaves, in parameter order.
        leaves: Vec<Leaf>,
        /// Indices of the `uniform` parameters in the source's parameters.
        uniforms: Vec<u32>,
    },
    /// An OptiX program: its payload's layout (hit and miss programs) and
    /// its attributes' (hit programs), and the layouts of the payloads its
    /// `TraceRay` calls pack and of the attributes its `ReportHit` calls
    /// pass (one per type, in the order first met).
    Program {
        /// The entry point's name.
        entry: String,
        /// The ray-tracing stage (OptiX program kind).
        stage: S,
        /// The payload parameter's index and register layout (hit and miss
        /// programs), or a callable program's data parameter with an empty
        /// layout; `None` without one.
        payload: Option<(u32, layout::Layout)>,
        /// A hit program's hit-attribute parameter's index and slot layout
        /// (at most [`layout::MAX_ATTRIBUTE_SLOTS`] slots).
        attributes: Option<(u32, layout::Layout)>,
        /// The payload type of each `TraceRay` call and its layout.
        traces: Vec<(Handle<Type>, layout::Layout)>,
        /// The attribute type of each `ReportHit` call and its layout.
        reports: Vec<(Handle<Type>, layout::Layout)>,
        /// The `uniform` parameters (and resource parameters), by index:
        /// the members of the program's shader-binding-table record, in
        /// this order, read through `optixGetSbtDataPointer()`.
        record: Vec<u32>,
    },
}

family!(Cuda, "CUDA");

impl Family for Cuda {
    type Plan = Plan;

    // A kernel's `uniform` parameters stay its parameters: launch
    // arguments.
    const RESOURCE_ARGUMENTS_AS_GLOBALS: bool = false;

    fn legalize_one(job: Job<'_>) -> Result<Legalized, Vec<Diagnostic>> {
        let (module, entry) = (job.module, job.entry);
        let mut out = module.clone();
        let index = keep_or_drop(&mut out, job.entry_point, job.others);
        let plan = if entry.stage == S::Compute {
            let (leaves, uniforms) = kernel_leaves(module, &module.functions[entry.function])?;
            wrap_kernel(&mut out, index, &leaves, &uniforms);
            Plan::Kernel {
                entry: entry.name.clone(),
                leaves,
                uniforms,
            }
        } else {
            program_plan(module, entry)?
        };
        Ok(Legalized { module: out, plan })
    }

    /// The IR verifier on a legalized module: a pass that left it invalid
    /// is an internal error (`E55400`), reported at the entry point
    /// (`span`).
    ///
    /// A module of OptiX programs only gets the plain verifier, not the
    /// legalized one's "no semantic survives" check: a program has no
    /// varyings. Its parameters are the payload, the hit attributes, the
    /// callable data and the shader-binding-table record, which the writer
    /// moves through registers, slots and pointers by their layout; a
    /// semantic on them or on their members (`float4 a : PACKED_HIT_INFO_A`)
    /// means nothing there, as on the GLSL and SPIR-V side, and the writer
    /// never reads one.
    fn verify(module: &ir::Module, span: ir::Span) -> Result<(), Vec<Diagnostic>> {
        let programs = !module.entry_points.is_empty()
            && module.entry_points.iter().all(|e| e.stage.is_ray_tracing());
        if programs {
            let result = legalis_ir::verify::verify(module);
            return crate::common::report(result, span, codes::CUDA_INTERNAL_VERIFY);
        }
        crate::common::verify(module, span, codes::CUDA_INTERNAL_VERIFY)
    }
}

/// Whether `param` is a `uniform` parameter: declared so, or of a
/// resource type (a resource parameter is uniform whether or not it says
/// so).
fn is_uniform(module: &ir::Module, param: &ir::FunctionParam) -> bool {
    param.role == ir::ParamRole::Uniform
        || module
            .types
            .try_get(param.ty)
            .is_some_and(|t| t.inner.is_resource())
}

/// Every leaf of a kernel's parameters, each a system value CUDA reads,
/// and the indices of its `uniform` parameters (launch arguments).
fn kernel_leaves(
    module: &ir::Module,
    func: &ir::Function,
) -> Result<(Vec<Leaf>, Vec<u32>), Vec<Diagnostic>> {
    let mut leaves = Vec::new();
    let mut uniforms = Vec::new();
    let mut errors = Vec::new();
    for (index, param) in func.params.iter().enumerate() {
        let uniform = is_uniform(module, param);
        if param.direction != ir::ParamDirection::In {
            let what = if uniform {
                "a uniform parameter is an input"
            } else {
                "a CUDA kernel's parameters are system-value inputs and uniforms"
            };
            errors.push(Diagnostic::error(
                codes::CUDA_KERNEL_PARAMETER,
                format!("kernel parameter `{}`: {what}", param.name),
                param.span,
            ));
            continue;
        }
        if uniform {
            uniforms.push(index as u32);
            continue;
        }
        walk_leaf(
            module,
            index as u32,
            param.name.clone(),
            Vec::new(),
            param.ty,
            &param.io,
            param.span,
            &mut leaves,
            &mut errors,
        );
    }
    if errors.is_empty() {
        Ok((leaves, uniforms))
    } else {
        Err(errors)
    }
}

#[allow(clippy::too_many_arguments)]
fn walk_leaf(
    module: &ir::Module,
    param: u32,
    path: String,
    members: Vec<u32>,
    ty: Handle<Type>,
    io: &ir::IoAttrs,
    span: Span,
    leaves: &mut Vec<Leaf>,
    errors: &mut Vec<Diagnostic>,
) {
    if let Some(TypeInner::Struct { members: fields }) = module.types.try_get(ty).map(|t| &t.inner)
    {
        for (i, m) in fields.iter().enumerate() {
            let mut next = members.clone();
            next.push(i as u32);
            walk_leaf(
                module,
                param,
                format!("{path}.{}", m.name),
                next,
                m.ty,
                &m.io,
                m.span,
                leaves,
                errors,
            );
        }
        return;
    }
    match &io.binding {
        Some(ir::Binding::Semantic(Semantic::System { value, .. })) => {
            match legalis_sysval::cuda(*value, S::Compute, Direction::Input) {
                CudaMapping::BuiltIn(row) => leaves.push(Leaf {
                    path,
                    param,
                    members,
                    value: *value,
                    ty,
                    expression: row.expression,
                    span,
                }),
                CudaMapping::Unsupported { code } => {
                    let message = legalis_sysval::cuda::unsupported_message(*value, S::Compute);
                    errors.push(crate::common::leaves::unsupported_system_value(
                        code, message, span,
                    ))
                }
            }
        }
        Some(ir::Binding::Semantic(Semantic::UnknownSystem { name, .. })) => {
            errors.push(Diagnostic::error(
                codes::CUDA_UNKNOWN_SYSTEM_VALUE,
                format!("unknown system-value semantic '{name}'"),
                span,
            ))
        }
        _ => errors.push(Diagnostic::error(
            codes::CUDA_KERNEL_PARAMETER,
            format!("`{path}`: a compute entry point's parameters must be system values"),
            span,
        )),
    }
}

/// The wrapper of entry point `index` of `module`, a kernel: one parameter
/// per leaf (bound to its system value), then one per `uniform` parameter
/// (passed on as it is), the source's other parameters as locals, the
/// call.
fn wrap_kernel(module: &mut ir::Module, index: usize, leaves: &[Leaf], uniforms: &[u32]) {
    let entry = module.entry_points[index].clone();
    let inner = entry.function;
    let source = module.functions[inner].clone();
    module.functions.get_mut(inner).name = format!("{}_body", entry.name);
    let mut b = FunctionBuilder::new(&entry.name, source.span);
    let mut locals = Vec::new();
    for (index, param) in source.params.iter().enumerate() {
        if uniforms.contains(&(index as u32)) {
            // Not a local: the argument is the wrapper's own parameter.
            locals.push(None);
            continue;
        }
        b.span = param.span;
        let local = b.declare(&param.name, param.ty, None);
        locals.push(Some((local, param.ty)));
    }
    for leaf in leaves {
        let builtin_ty = if leaf.value == ir::SystemValue::GroupIndex {
            builder::ty(module, TypeInner::Scalar(ir::Scalar::U32))
        } else {
            let inner = TypeInner::Vector {
                size: 3,
                scalar: ir::Scalar::U32,
            };
            builder::ty(module, inner)
        };
        let index = b.func.params.len() as u32;
        b.func.params.push(ir::FunctionParam {
            name: leaf.path.replace('.', "_"),
            ty: builtin_ty,
            direction: ir::ParamDirection::In,
            role: ir::ParamRole::Plain,
            io: ir::IoAttrs {
                binding: Some(ir::Binding::BuiltIn(ir::BuiltIn {
                    value: leaf.value,
                    array_index: None,
                })),
                ..ir::IoAttrs::default()
            },
            span: leaf.span,
        });
        b.span = leaf.span;
        let value = b.expr(Expression::Param(index), Some(builtin_ty));
        let value = b.convert(value, builtin_ty, leaf.ty);
        let Some((local, ty)) = locals[leaf.param as usize] else {
            continue;
        };
        let target = b.place(module, Expression::Local(local), ty, &leaf.members);
        b.push(Statement::Store { target, value });
    }
    let mut uniform_params = std::collections::HashMap::new();
    for &index in uniforms {
        let param = &source.params[index as usize];
        uniform_params.insert(index, b.func.params.len() as u32);
        b.func.params.push(ir::FunctionParam {
            name: param.name.clone(),
            ty: param.ty,
            direction: ir::ParamDirection::In,
            role: ir::ParamRole::Uniform,
            io: ir::IoAttrs::default(),
            span: param.span,
        });
    }
    let args = locals
        .iter()
        .enumerate()
        .map(|(index, local)| match local {
            Some((l, ty)) => {
                b.span = source.span;
                b.expr(Expression::Local(*l), Some(*ty))
            }
            None => {
                let param = &source.params[index];
                b.span = param.span;
                b.expr(
                    Expression::Param(uniform_params[&(index as u32)]),
                    Some(param.ty),
                )
            }
        })
        .collect();
    b.span = source.span;
    let call = b.expr(
        Expression::Call {
            function: inner,
            args,
        },
        None,
    );
    b.push(Statement::Expr(call));
    b.push(Statement::Return(None));
    let span = module.functions.span(inner);
    let wrapper = module.functions.append(b.func, span);
    module.entry_points[index].function = wrapper;
}

/// The parameters of an OptiX program, their layouts, and the checks of
/// every `TraceRay` and `ReportHit` it reaches.
fn program_plan(module: &ir::Module, entry: &ir::EntryPoint) -> Result<Plan, Vec<Diagnostic>> {
    let func = &module.functions[entry.function];
    let stage = entry.stage;
    let mut errors = Vec::new();
    let mut payload = None;
    let mut attributes = None;
    let mut record = Vec::new();
    let refuse = |errors: &mut Vec<Diagnostic>, message: String, span: Span| {
        errors.push(Diagnostic::error(
            codes::CUDA_RAY_TRACING_PARAMETER,
            message,
            span,
        ));
    };
    for (index, param) in func.params.iter().enumerate() {
        let index = index as u32;
        if is_uniform(module, param) {
            if param.direction != ir::ParamDirection::In {
                refuse(
                    &mut errors,
                    format!(
                        "uniform parameter `{}`: a shader-binding-table record is read-only, so a uniform parameter is an input",
                        param.name
                    ),
                    param.span,
                );
            } else {
                record.push(index);
            }
            continue;
        }
        match (stage, param.direction) {
            (S::RayGeneration | S::Intersection, _) => refuse(
                &mut errors,
                format!(
                    "{} entry points have no payload or attributes: parameter `{}` has nothing to receive",
                    stage.name(),
                    param.name
                ),
                param.span,
            ),
            (S::AnyHit | S::ClosestHit, ir::ParamDirection::In) if attributes.is_none() => {
                match layout::attributes(module, param.ty) {
                    Ok(l) if l.registers > layout::MAX_ATTRIBUTE_SLOTS => {
                        errors.push(too_many_slots(module, param.ty, &l, param.span))
                    }
                    Ok(l) => attributes = Some((index, l)),
                    Err(e) => errors.push(unpackable(&param.name, &e, param.span)),
                }
            }
            (S::AnyHit | S::ClosestHit, ir::ParamDirection::In) => refuse(
                &mut errors,
                format!(
                    "a hit shader has one hit-attribute parameter; `{}` is a second one",
                    param.name
                ),
                param.span,
            ),
            (_, ir::ParamDirection::In) if stage != S::Callable => refuse(
                &mut errors,
                format!(
                    "`{}`: a {} entry point's payload is an `inout` parameter",
                    param.name,
                    stage.name()
                ),
                param.span,
            ),
            _ if payload.is_some() => refuse(
                &mut errors,
                format!(
                    "`{}`: OptiX programs take one payload (or callable-data) parameter",
                    param.name
                ),
                param.span,
            ),
            (S::Callable, _) => {
                payload = Some((
                    index,
                    layout::Layout {
                        fields: Vec::new(),
                        registers: 0,
                    },
                ))
            }
            _ => match layout::payload(module, param.ty) {
                Ok(l) => payload = Some((index, l)),
                Err(e) => errors.push(unpackable(&param.name, &e, param.span)),
            },
        }
    }
    let calls = check_calls(module, entry, &mut errors);
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(Plan::Program {
        entry: entry.name.clone(),
        stage,
        payload,
        attributes,
        traces: calls.traces,
        reports: calls.reports,
        record,
    })
}

fn too_many_slots(
    module: &ir::Module,
    ty: Handle<Type>,
    l: &layout::Layout,
    span: Span,
) -> Diagnostic {
    Diagnostic::error(
        codes::CUDA_ATTRIBUTES_TOO_LARGE,
        format!(
            "the hit attributes `{}` need {} 32-bit slots ({} bytes); OptiX passes at most {} (32 bytes)",
            ir::print::type_name(module, ty),
            l.registers,
            4 * l.registers,
            layout::MAX_ATTRIBUTE_SLOTS
        ),
        span,
    )
}

fn unpackable(name: &str, e: &layout::Unpackable, span: Span) -> Diagnostic {
    Diagnostic::error(
        codes::CUDA_UNPACKABLE,
        format!(
            "`{name}` cannot travel in OptiX registers: it holds {}",
            e.what
        ),
        span,
    )
}

/// The layouts of the `TraceRay` payloads and `ReportHit` attributes a
/// program reaches, one per type.
#[derive(Default)]
struct Calls {
    traces: Vec<(Handle<Type>, layout::Layout)>,
    reports: Vec<(Handle<Type>, layout::Layout)>,
}

fn note(list: &mut Vec<(Handle<Type>, layout::Layout)>, ty: Handle<Type>, l: layout::Layout) {
    if !list.iter().any(|(t, _)| *t == ty) {
        list.push((ty, l));
    }
}

/// The calls the OptiX ABI constrains, in every reachable function, and
/// the layouts they pack with.
fn check_calls(module: &ir::Module, entry: &ir::EntryPoint, errors: &mut Vec<Diagnostic>) -> Calls {
    let mut calls = Calls::default();
    let mut seen = std::collections::BTreeSet::new();
    let mut work = vec![entry.function];
    while let Some(f) = work.pop() {
        if !seen.insert(f) {
            continue;
        }
        let Some(func) = module.functions.try_get(f) else {
            continue;
        };
        for (h, e) in func.expressions.iter() {
            let span = func.expressions.span(h);
            match e {
                Expression::Call { function, .. } => work.push(*function),
                Expression::Intrinsic {
                    fun: I::TraceRay | I::HitObjectTraceRay | I::HitObjectInvoke,
                    args,
                } => {
                    if let Some(ty) = args.last().and_then(|a| func.expressions.ty(*a)) {
                        match layout::payload(module, ty) {
                            Ok(l) => note(&mut calls.traces, ty, l),
                            Err(e) => errors.push(unpackable("the payload", &e, span)),
                        }
                    }
                }
                Expression::Intrinsic {
                    fun: I::ReportHit,
                    args,
                } => {
                    if let Some(ty) = args.get(2).and_then(|a| func.expressions.ty(*a)) {
                        match layout::attributes(module, ty) {
                            Ok(l) if l.registers > layout::MAX_ATTRIBUTE_SLOTS => {
                                errors.push(too_many_slots(module, ty, &l, span))
                            }
                            Ok(l) => note(&mut calls.reports, ty, l),
                            Err(e) => errors.push(unpackable("the hit attributes", &e, span)),
                        }
                    }
                }
                _ => {}
            }
        }
    }
    calls
}
