//! The trace of the GLSL/SPIR-V legalizer: builtins by their GLSL and
//! SPIR-V names, locations, and the interface variables it synthesizes.

use super::*;
use legalis_legalize::glsl::{Leaf, Part, PatchArg, Plan, Root, Target as Place};
use legalis_sysval::{GlslMapping, primitive_indices};
use serde_json::json;

/// The trace of a GLSL/SPIR-V legalization for `target`.
pub(crate) fn render(
    module: &ir::Module,
    plan: &Plan,
    target: &str,
    format: TraceFormat,
) -> String {
    let value = to_json(module, plan, target, None);
    finish(&value, format)
}

/// The trace of a module of several entry points legalized for SPIR-V
/// (`plans`, in entry-point order): in text, one trace after another; in
/// JSON, an array of the entry points' traces. An entry point's
/// synthesized variables are the ones it reaches.
pub(crate) fn render_entries(
    module: &ir::Module,
    plans: &[Plan],
    target: &str,
    format: TraceFormat,
) -> String {
    let values: Vec<Value> = plans
        .iter()
        .enumerate()
        .map(|(k, plan)| {
            let reached = legalis_bind::reached_globals(module, k);
            to_json(module, plan, target, Some(&reached))
        })
        .collect();
    finish_all(values, format)
}

fn to_json(
    module: &ir::Module,
    plan: &Plan,
    target: &str,
    reached: Option<&std::collections::BTreeSet<ir::Handle<ir::GlobalVariable>>>,
) -> Value {
    let leaves: Vec<Value> = plan
        .leaves
        .iter()
        .map(|leaf| leaf_json(module, plan.stage, leaf))
        .collect();
    let names: Vec<&str> = plan.leaves.iter().map(|l| l.global_name.as_str()).collect();
    let synthesized: Vec<Value> = module
        .globals
        .iter()
        .filter(|(h, g)| {
            matches!(
                g.space,
                ir::AddressSpace::Input | ir::AddressSpace::Output | ir::AddressSpace::TaskPayload
            ) && !names.contains(&g.name.as_str())
                && reached.is_none_or(|r| r.contains(h))
        })
        .map(|(_, g)| synthesized_json(module, plan.stage, g))
        .collect();
    let patch_constant = plan.extra.patch_constant.as_ref().map(|call| {
        let args: Vec<Value> = call
            .args
            .iter()
            .map(|arg| match arg {
                PatchArg::InputPatch(n) => json!({ "kind": "input-patch", "param": n }),
                PatchArg::OutputPatch => json!({ "kind": "output-patch" }),
                PatchArg::Leaves => json!({ "kind": "leaves" }),
            })
            .collect();
        json!({
            "function": call.name,
            "control_points": call.control_points,
            "args": args,
        })
    });
    json!({
        "schema": SCHEMA,
        "target": target,
        "entry": plan.entry,
        "stage": plan.stage.name(),
        "leaves": leaves,
        "synthesized": synthesized,
        "patch_constant": patch_constant,
    })
}

fn leaf_json(module: &ir::Module, stage: ir::ShaderStage, leaf: &Leaf) -> Value {
    let declared = ir::print::type_name(module, leaf.ty);
    let (place, adapter) = match &leaf.target {
        Place::BuiltIn {
            value,
            row,
            element,
        } => {
            let builtin_ty = builtin_type_name(row.ty, element.is_some());
            let mut adapters = Vec::new();
            let declared_scalar = match leaf.part {
                Some(_) => scalar_of(module, leaf.ty),
                None => declared.clone(),
            };
            if declared_scalar != builtin_ty {
                adapters.push(format!("{builtin_ty} as {declared_scalar}"));
            }
            if let Some(rebase) = row.rebase {
                adapters.push(format!("minus {}", rebase.base_name));
            }
            let place = json!({
                "kind": "builtin",
                "value": value.name(),
                "glsl": row.glsl_name,
                "spirv": row.spirv_builtin,
                "element": element,
                "block": row.access.block_array(),
                "type": builtin_ty,
            });
            let _ = stage;
            (place, (!adapters.is_empty()).then(|| adapters.join(", ")))
        }
        Place::Location {
            location,
            count,
            index,
            interpolation,
            patch,
            per_primitive,
        } => (
            json!({
                "kind": "location",
                "location": location,
                "component": 0,
                "count": count,
                "index": index,
                "interpolation": interpolation_name(*interpolation),
                "sampling": sampling_name(*interpolation),
                "patch": patch,
                "per_primitive": per_primitive,
                "per_vertex": leaf.per_vertex,
            }),
            None,
        ),
        Place::Uniform => (json!({ "kind": "uniform" }), None),
    };
    let reason = leaf.reason.name();
    let root = match leaf.root {
        Root::Param(i) => format!("param {i}"),
        Root::Result => "result".into(),
        Root::PatchParam(i) => format!("patch-constant param {i}"),
        Root::PatchResult => "patch-constant result".into(),
    };
    json!({
        "path": leaf.path,
        "direction": direction(leaf.direction),
        "declared": declared,
        "semantic": leaf.semantic.as_ref().map(ToString::to_string),
        "place": place,
        "global": leaf.global_name,
        "reason": reason,
        "adapter": adapter,
        "root": root,
        "vertices": leaf.vertices,
        "stream": leaf.stream,
        "part": leaf.part.map(|p| match p {
            Part::Component(c) => format!(".{}", ["x", "y", "z", "w"][usize::from(c & 3)]),
            Part::Element(k) => format!("[{k}]"),
        }),
        "mesh": leaf.mesh.map(|m| match m {
            ir::MeshOutputKind::Vertices => "vertices",
            ir::MeshOutputKind::Primitives => "primitives",
            ir::MeshOutputKind::Indices => "indices",
        }),
    })
}

fn synthesized_json(module: &ir::Module, stage: ir::ShaderStage, g: &ir::GlobalVariable) -> Value {
    let dir = match g.space {
        ir::AddressSpace::Input => Direction::Input,
        _ => Direction::Output,
    };
    let binding = g.io.as_ref().and_then(|io| io.binding.as_ref());
    let (place, why) = match (g.space, binding) {
        (ir::AddressSpace::TaskPayload, _) => (
            json!({ "kind": "task-payload" }),
            "the payload amplification shaders write and mesh shaders read (B10)",
        ),
        (_, Some(ir::Binding::BuiltIn(b))) => {
            let row = match legalis_sysval::glsl(b.value, stage, dir) {
                GlslMapping::BuiltIn(row) => Some(row),
                _ => None,
            };
            let why = match b.value {
                ir::SystemValue::StartVertexLocation | ir::SystemValue::StartInstanceLocation => {
                    "the base a rebased SV_VertexID or SV_InstanceID subtracts (B6)"
                }
                ir::SystemValue::OutputControlPointId => {
                    "the control point a hull invocation writes, and the patch-constant guard (B7)"
                }
                _ => "a builtin the legalizer reads or writes",
            };
            (
                json!({
                    "kind": "builtin",
                    "value": b.value.name(),
                    "glsl": row.map(|r| r.glsl_name).unwrap_or(g.name.as_str()),
                    "spirv": row.map(|r| r.spirv_builtin),
                    "element": b.array_index,
                    "block": row.and_then(|r| r.access.block_array()),
                    "type": ir::print::type_name(module, g.ty),
                }),
                why,
            )
        }
        (_, Some(ir::Binding::PrimitiveIndices)) => {
            // The system-value table's row of the topology whose GLSL
            // array the legalizer declared (triangles' when none is).
            let topologies = [
                Some(ir::OutputTopology::Line),
                Some(ir::OutputTopology::Point),
            ];
            let spirv = topologies
                .into_iter()
                .map(primitive_indices)
                .find(|row| row.glsl_name == g.name)
                .unwrap_or_else(|| primitive_indices(None))
                .spirv_builtin;
            (
                json!({
                    "kind": "builtin",
                    "value": null,
                    "glsl": g.name,
                    "spirv": spirv,
                    "element": null,
                    "block": null,
                    "type": ir::print::type_name(module, g.ty),
                }),
                "the mesh shader's `out indices` array (B10)",
            )
        }
        (
            _,
            Some(&ir::Binding::Location {
                location,
                component,
                index,
                interpolation,
                patch,
                per_primitive,
                per_vertex,
            }),
        ) => (
            json!({
                "kind": "location",
                "location": location,
                "component": component,
                "count": 1,
                "index": index,
                "interpolation": interpolation_name(interpolation),
                "sampling": sampling_name(interpolation),
                "patch": patch,
                "per_primitive": per_primitive,
                "per_vertex": per_vertex,
            }),
            "a transform-feedback copy of part of an output or of a builtin",
        ),
        _ => (json!({ "kind": "other" }), "made by the legalizer"),
    };
    json!({
        "name": g.name,
        "direction": direction(dir),
        "place": place,
        "why": why,
    })
}
