//! The trace of the Metal legalizer.

use super::*;
use legalis_legalize::metal::Plan;
use serde_json::json;

/// The trace of a Metal legalization: attributes by their text inside
/// `[[...]]` (`position`, `user(TEXCOORD)`, `attribute(1)`, `color(0)`),
/// `SV_GroupIndex` computed (B20), and for object and mesh functions (B21)
/// the payload, the indices and the parameters the writer adds.
pub(crate) fn render(module: &ir::Module, plan: &Plan, format: TraceFormat) -> String {
    finish(&metal_json(module, plan), format)
}

/// The traces of an MSL translation unit of several entry points, one
/// per plan in entry-point order: a JSON array, or the texts one after
/// the other.
pub(crate) fn render_entries(module: &ir::Module, plans: &[Plan], format: TraceFormat) -> String {
    let values: Vec<Value> = plans.iter().map(|plan| metal_json(module, plan)).collect();
    finish_all(values, format)
}

/// [`render`]'s JSON value for one entry point's plan.
fn metal_json(module: &ir::Module, plan: &Plan) -> Value {
    use legalis_legalize::metal as m;
    let location = |location: u32,
                    interpolation: ir::Interpolation,
                    metal: String,
                    per_primitive: bool,
                    blend: Option<u32>| {
        let mut place = user_location(location, interpolation, blend, per_primitive);
        place["metal"] = Value::String(metal);
        place
    };
    let leaves: Vec<Value> = plan
        .leaves
        .iter()
        .map(|leaf| {
            let declared = ir::print::type_name(module, leaf.ty);
            let per_primitive = leaf.mesh == Some(ir::MeshOutputKind::Primitives);
            let (place, adapter) = match &leaf.target {
                // `SV_TargetN`: `[[color(N)]]` in the declared type.
                m::Target::BuiltIn {
                    row, index, blend, ..
                } if row.by_index => (
                    location(
                        *index,
                        ir::Interpolation::default(),
                        legalis_sysval::metal::with_blend(row.attribute(*index), *blend),
                        false,
                        *blend,
                    ),
                    None,
                ),
                m::Target::BuiltIn {
                    value,
                    row,
                    index,
                    interpolation,
                    blend,
                    element,
                } => {
                    // A gathered leaf fills its elements as declared.
                    let ty = match element {
                        Some(_) => declared.clone(),
                        None => builtin_type_name(row.ty, false),
                    };
                    let adapter = (ty != declared).then(|| format!("{ty} as {declared}"));
                    (
                        json!({
                            "kind": "builtin",
                            "value": value.name(),
                            "glsl": null,
                            "spirv": null,
                            "metal": legalis_sysval::metal::with_blend(
                                row.attribute_with(*index, *interpolation),
                                *blend,
                            ),
                            "element": element,
                            "block": null,
                            "type": ty,
                        }),
                        adapter,
                    )
                }
                m::Target::Location {
                    location: l,
                    interpolation,
                    link,
                    blend,
                } => {
                    let direction = if leaf.mesh.is_some() {
                        Direction::Output
                    } else {
                        leaf.direction
                    };
                    let interpolation_for_text = if leaf.mesh.is_some() {
                        ir::Interpolation::default()
                    } else {
                        *interpolation
                    };
                    let metal = legalis_sysval::metal::with_blend(
                        legalis_sysval::metal::location_attribute(
                            plan.stage,
                            direction,
                            *l,
                            interpolation_for_text,
                            link.as_deref(),
                        ),
                        *blend,
                    );
                    (
                        location(*l, *interpolation, metal, per_primitive, *blend),
                        None,
                    )
                }
                m::Target::GroupIndex { x, y } => (
                    json!({
                        "kind": "computed",
                        "from": "thread_position_in_threadgroup",
                        "numthreads": [x, y],
                    }),
                    Some(format!("(z * {y} + y) * {x} + x")),
                ),
                m::Target::Uniform => (json!({ "kind": "uniform" }), None),
                m::Target::Payload => (
                    json!({ "kind": "payload", "metal": "payload", "space": "const object_data" }),
                    None,
                ),
                m::Target::Indices { per_primitive } => (
                    json!({ "kind": "indices", "per_primitive": per_primitive }),
                    None,
                ),
            };
            let reason = leaf.reason.name();
            let root = match leaf.root {
                m::Root::Param(i) => format!("param {i}"),
                m::Root::Result => "result".into(),
                m::Root::Added => "added".into(),
            };
            json!({
                "path": leaf.path,
                "direction": direction(leaf.direction),
                "declared": declared,
                "semantic": null,
                "place": place,
                "global": leaf.name,
                "reason": reason,
                "adapter": adapter,
                "root": root,
                "vertices": null,
                "stream": null,
                "part": null,
                "mesh": leaf.mesh.map(|k| match k {
                    ir::MeshOutputKind::Vertices => "vertices",
                    ir::MeshOutputKind::Primitives => "primitives",
                    ir::MeshOutputKind::Indices => "indices",
                }),
            })
        })
        .collect();
    let mut synthesized = Vec::new();
    if let Some(shape) = &plan.extra.shape {
        synthesized.push(json!({
            "name": "mesh_out",
            "direction": "out",
            "place": {
                "kind": "mesh",
                "vertices": shape.vertices,
                "primitives": shape.primitives,
                "topology": shape.topology,
            },
            "why": "the metal::mesh parameter the vertex, index and primitive outputs are written to (B21)",
        }));
    }
    if let Some(payload) = &plan.extra.object_payload {
        synthesized.push(json!({
            "name": "payload_out",
            "direction": "out",
            "place": { "kind": "object-payload", "type": payload },
            "why": "the object_data payload DispatchMesh stores to (B21)",
        }));
        synthesized.push(json!({
            "name": "grid",
            "direction": "out",
            "place": { "kind": "mesh-grid-properties" },
            "why": "the mesh_grid_properties DispatchMesh sets the threadgroups per grid on (B21)",
        }));
    }
    json!({
        "schema": SCHEMA,
        "target": "metal",
        "entry": plan.entry,
        "stage": plan.stage.name(),
        "leaves": leaves,
        "synthesized": synthesized,
        "patch_constant": null,
    })
}
