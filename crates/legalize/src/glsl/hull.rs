//! B7: the hull shader's patch-constant splice.
//!
//! Vulkan has no patch-constant function of its own: one tessellation
//! control shader runs once per output control point. The splice keeps the
//! HLSL meaning inside that model. The entry point's wrapper
//! (`flatten_varyings.rs`) calls the original, which returns to it from
//! every `return`, and writes the control point into the output arrays at
//! `gl_InvocationID`. Then the tail added here:
//!
//! 1. a patch barrier (`barrier()`, `OpControlBarrier`), so every control
//!    point of the patch is written before any invocation reads one;
//! 2. `if (gl_InvocationID == 0)`: one invocation per patch goes on;
//! 3. inside the guard, the patch-constant function is called with the
//!    entry point's own `InputPatch`, an `OutputPatch` read back from the
//!    per-control-point output arrays, and its system values
//!    (`SV_PrimitiveID`, `SV_OutputControlPointID`, D4), and its result is
//!    written to the `patch` outputs: `SV_TessFactor` and
//!    `SV_InsideTessFactor` element by element into `gl_TessLevelOuter[4]`
//!    and `gl_TessLevelInner[2]`, user fields at locations after every
//!    control-point location (D5).
//!
//! [`plan_call`] decides, before any rewrite, where each argument comes
//! from; [`splice`] builds the tail.

use legalis_ir as ir;
use legalis_ir::diag::Diagnostic;
use legalis_ir::{Handle, Type, TypeInner};
use legalis_sysval::Direction;

use crate::codes;
use crate::common::builder::FunctionBuilder;
use crate::glsl::adapt_builtins;
use crate::glsl::flatten_varyings::{self, Interface};
use crate::glsl::map_system_values::{self, RawLeaf};
use crate::glsl::plan::{PatchArg, PatchConstantCall, Plan, Root};

/// Marks the entry point's outputs as per control point and adds the
/// patch-constant function's leaves; returns where each argument of the
/// patch-constant call comes from.
pub fn plan_call(
    module: &ir::Module,
    entry: &ir::EntryPoint,
    leaves: &mut Vec<RawLeaf>,
) -> Result<PatchConstantCall, Vec<Diagnostic>> {
    let attrs = &entry.attributes;
    // The front end requires both attributes on a hull entry point.
    let (Some(control_points), Some(function)) =
        (attrs.output_control_points, attrs.patch_constant_func)
    else {
        let message = "a hull entry point needs `[outputcontrolpoints(n)]` and `[patchconstantfunc(\"...\")]`";
        return Err(vec![Diagnostic::error(
            codes::NOT_IN_STAGE,
            message,
            entry.span,
        )]);
    };
    if attrs.partitioning == Some(ir::Partitioning::Pow2) {
        return Err(vec![pow2(entry.span)]);
    }
    for leaf in leaves.iter_mut() {
        if leaf.direction == Direction::Output {
            leaf.vertices = Some(control_points);
        }
    }
    let hull = &module.functions[entry.function];
    let pcf = &module.functions[function];
    let mut args = Vec::with_capacity(pcf.params.len());
    let mut errors = Vec::new();
    for param in &pcf.params {
        let arg = match module.types.try_get(param.ty).map(|t| &t.inner) {
            Some(&TypeInner::Patch {
                kind: ir::PatchKind::Input,
                ..
            }) => match hull.params.iter().position(|p| p.ty == param.ty) {
                Some(n) => PatchArg::InputPatch(n as u32),
                None => {
                    errors.push(Diagnostic::error(
                        codes::UNSUPPORTED_SHAPE,
                        format!(
                            "patch-constant parameter `{}` is `{}`, but hull entry point `{}` has no \
                             parameter of that type: the patch-constant function reads the hull's own input patch",
                            param.name,
                            ir::print::type_name(module, param.ty),
                            entry.name
                        ),
                        param.span,
                    ));
                    continue;
                }
            },
            Some(&TypeInner::Patch {
                kind: ir::PatchKind::Output,
                element,
                count,
            }) => {
                let control_point = hull.result.as_ref().map(|r| r.ty);
                if control_point != Some(element) || count != control_points {
                    let result = control_point
                        .map(|ty| ir::print::type_name(module, ty))
                        .unwrap_or_else(|| "void".into());
                    errors.push(Diagnostic::error(
                        codes::UNSUPPORTED_SHAPE,
                        format!(
                            "patch-constant parameter `{}` is `{}`, but hull entry point `{}` returns \
                             `{result}` for {control_points} control points: an output patch must be \
                             `OutputPatch<{result}, {control_points}>`",
                            param.name,
                            ir::print::type_name(module, param.ty),
                            entry.name
                        ),
                        param.span,
                    ));
                    continue;
                }
                PatchArg::OutputPatch
            }
            _ => PatchArg::Leaves,
        };
        args.push(arg);
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    leaves.extend(map_system_values::collect_leaves(module, pcf, true)?);
    Ok(PatchConstantCall {
        function,
        name: pcf.name.clone(),
        args,
        control_points,
    })
}

/// Appends the barrier, the single-invocation guard and the patch-constant
/// call to the wrapper `b`. `entry_locals` are the wrapper's locals for
/// the entry point's parameters, by index.
pub fn splice(
    b: &mut FunctionBuilder,
    module: &mut ir::Module,
    plan: &Plan,
    call: &PatchConstantCall,
    interface: &Interface,
    entry_locals: &[Option<Handle<ir::LocalVariable>>],
) -> Result<(), Vec<Diagnostic>> {
    let Some((invocation, int)) = interface.invocation else {
        let message = "internal error: the hull shader has no `gl_InvocationID`";
        return Err(vec![Diagnostic::error(
            codes::INTERNAL_VERIFY,
            message,
            ir::Span::UNDEFINED,
        )]);
    };
    let bool_ty = module.types.insert(
        ir::Type {
            name: None,
            inner: TypeInner::Scalar(ir::Scalar::BOOL),
        },
        ir::Span::UNDEFINED,
    );
    b.push(ir::Statement::PatchBarrier);
    // The guarded block is built in the function's body, then moved.
    let outer = std::mem::take(&mut b.func.body);

    let pcf = &module.functions[call.function];
    let params: Vec<(String, Handle<Type>)> =
        pcf.params.iter().map(|p| (p.name.clone(), p.ty)).collect();
    let result_ty = pcf.result.as_ref().map(|r| r.ty);
    let pc_name = pcf.name.clone();
    let mut locals = Vec::with_capacity(params.len());
    for ((name, ty), arg) in params.iter().zip(&call.args) {
        let local = match arg {
            PatchArg::InputPatch(_) => None,
            PatchArg::OutputPatch | PatchArg::Leaves => {
                let local = b.local(&format!("{name}_value"), *ty);
                b.push(ir::Statement::Declare { local, init: None });
                Some(local)
            }
        };
        locals.push(local);
    }
    let declared: Vec<u32> = (0..params.len() as u32).collect();
    for (index, leaf) in plan.leaves.iter().enumerate() {
        if matches!(leaf.root, Root::PatchParam(_)) && leaf.direction == Direction::Input {
            flatten_varyings::gather_input(b, module, leaf, interface, index, &locals, &declared);
        }
    }
    for (k, arg) in call.args.iter().enumerate() {
        if let (PatchArg::OutputPatch, Some(local)) = (arg, locals[k]) {
            read_output_patch(b, module, plan, call, interface, (local, params[k].1));
        }
    }
    let args: Vec<Handle<ir::Expression>> = call
        .args
        .iter()
        .enumerate()
        .map(|(k, arg)| {
            let local = match arg {
                PatchArg::InputPatch(n) => entry_locals.get(*n as usize).copied().flatten(),
                PatchArg::OutputPatch | PatchArg::Leaves => locals[k],
            };
            let local = local.unwrap_or(Handle::from_index(0));
            b.expr(ir::Expression::Local(local), Some(params[k].1))
        })
        .collect();
    let value = b.expr(
        ir::Expression::Call {
            function: call.function,
            args,
        },
        result_ty,
    );
    let result = match result_ty {
        Some(ty) => {
            let local = b.local(&format!("{pc_name}_result"), ty);
            b.push(ir::Statement::Declare {
                local,
                init: Some(value),
            });
            Some((local, ty))
        }
        None => {
            b.push(ir::Statement::Expr(value));
            None
        }
    };
    for (index, leaf) in plan.leaves.iter().enumerate() {
        if leaf.root.is_patch_constant() && leaf.direction == Direction::Output {
            flatten_varyings::scatter_output(
                b, module, leaf, interface, index, &locals, &declared, result,
            );
        }
    }

    let accept = std::mem::replace(&mut b.func.body, outer);
    let left = b.expr(ir::Expression::Global(invocation), Some(int));
    let right = b.expr(ir::Expression::Literal(ir::Literal::Int(0)), Some(int));
    let condition = b.expr(
        ir::Expression::Binary {
            op: ir::BinaryOp::Equal,
            left,
            right,
        },
        Some(bool_ty),
    );
    b.push(ir::Statement::If {
        condition,
        accept: Box::new(accept),
        reject: Box::new(ir::Block::default()),
    });
    Ok(())
}

/// `patch[k].field = output_field[k]` for every control point `k` and every
/// per-control-point output leaf of the entry point's result: the
/// `OutputPatch` the patch-constant function reads.
fn read_output_patch(
    b: &mut FunctionBuilder,
    module: &ir::Module,
    plan: &Plan,
    call: &PatchConstantCall,
    interface: &Interface,
    patch: (Handle<ir::LocalVariable>, Handle<Type>),
) {
    let (local, patch_ty) = patch;
    let Some(&TypeInner::Array {
        base: control_point,
        ..
    }) = module.types.try_get(patch_ty).map(|t| &t.inner)
    else {
        return;
    };
    let uint = interface.uint;
    for (index, leaf) in plan.leaves.iter().enumerate() {
        if leaf.root != Root::Result || leaf.vertices.is_none() {
            continue;
        }
        let global = interface.globals[index];
        let global_ty = module.globals[global].ty;
        let element_ty = match module.types.try_get(global_ty).map(|t| &t.inner) {
            Some(&TypeInner::Array { base, .. }) => base,
            _ => continue,
        };
        for k in 0..call.control_points {
            let root = b.expr(ir::Expression::Local(local), Some(patch_ty));
            let root = b.element(root, k, uint, control_point);
            let field = b.members(module, root, control_point, &leaf.members);
            let (place, place_ty) = flatten_varyings::part(b, field, leaf.part, element_ty, uint);
            let all = b.expr(ir::Expression::Global(global), Some(global_ty));
            let value = b.element(all, k, uint, element_ty);
            let value = adapt_builtins::write_value(b, value, element_ty, place_ty);
            b.push(ir::Statement::Store {
                target: place,
                value,
            });
        }
    }
}

/// The tessellator settings a domain shader takes from the hull it is
/// linked after: the hull's `[partitioning]` and `[outputtopology]`
/// (GLSL states them in the evaluation shader only). A domain entry
/// point that states one itself must agree with the hull: else
/// `E49802`, naming both, into `errors`.
pub fn link_tessellator(
    hull: &ir::EntryPoint,
    domain: &ir::EntryPoint,
    errors: &mut Vec<Diagnostic>,
) -> (Option<ir::Partitioning>, Option<ir::OutputTopology>) {
    let (h, d) = (&hull.attributes, &domain.attributes);
    let mut disagree = |attribute: &str, hull_says: &str, domain_says: &str| {
        errors.push(
            Diagnostic::error(
                codes::LINK_MISMATCH,
                format!(
                    "the domain shader `{}` tessellates with `[{attribute}(\"{domain_says}\")]`, its hull `{}` with `[{attribute}(\"{hull_says}\")]`",
                    domain.name, hull.name
                ),
                domain.span,
            )
            .with_label(hull.span, "the hull"),
        )
    };
    if let (Some(a), Some(b)) = (h.partitioning, d.partitioning)
        && a != b
    {
        disagree("partitioning", a.name(), b.name());
    }
    if let (Some(a), Some(b)) = (h.output_topology, d.output_topology)
        && a != b
    {
        disagree("outputtopology", a.name(), b.name());
    }
    (
        h.partitioning.or(d.partitioning),
        h.output_topology.or(d.output_topology),
    )
}

/// A domain entry point's tessellator settings: its own `[partitioning]`
/// and `[outputtopology]`, else what its linked hull says (`linked`).
/// `pow2` has no Vulkan spacing: `E49989`, as on the hull.
pub fn domain_tessellator(
    entry: &ir::EntryPoint,
    linked: &ir::link::Linked,
) -> Result<(Option<ir::Partitioning>, Option<ir::OutputTopology>), Vec<Diagnostic>> {
    let attrs = &entry.attributes;
    let partitioning = attrs.partitioning.or(linked.partitioning);
    if partitioning == Some(ir::Partitioning::Pow2) {
        return Err(vec![pow2(entry.span)]);
    }
    Ok((
        partitioning,
        attrs.output_topology.or(linked.output_topology),
    ))
}

/// `[partitioning("pow2")]`, which Vulkan cannot tessellate with.
fn pow2(span: ir::Span) -> Diagnostic {
    let message = "`[partitioning(\"pow2\")]` has no Vulkan equivalent: use \"integer\", \"fractional_even\" or \"fractional_odd\"";
    Diagnostic::error(codes::NO_TARGET_EQUIVALENT, message, span)
}
