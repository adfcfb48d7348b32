//! The trace of the WGSL legalizer.

use super::*;
use legalis_legalize::wgsl::Plan;
use serde_json::json;

/// The trace of a WGSL legalization: builtins by their `@builtin` name,
/// locations; WGSL makes no interface variable of its own. A `half`
/// location widened by `-fvk-widen-16bit-varyings` has the adapter
/// `float4 as half4`; one without an adapter travels as `f16`.
pub(crate) fn render(module: &ir::Module, plan: &Plan, format: TraceFormat) -> String {
    finish(&wgsl_json(module, plan), format)
}

/// The traces of a WGSL module of several entry points, one per plan in
/// entry-point order: a JSON array, or the texts one after the other.
pub(crate) fn render_entries(module: &ir::Module, plans: &[Plan], format: TraceFormat) -> String {
    let values: Vec<Value> = plans.iter().map(|plan| wgsl_json(module, plan)).collect();
    finish_all(values, format)
}

/// [`render`]'s JSON value for one entry point's plan.
fn wgsl_json(module: &ir::Module, plan: &Plan) -> Value {
    use legalis_legalize::wgsl::plan as w;
    let leaves: Vec<Value> = plan
        .leaves
        .iter()
        .map(|leaf| {
            let declared = ir::print::type_name(module, leaf.ty);
            let (place, adapter) = match &leaf.target {
                w::Target::BuiltIn {
                    value,
                    row,
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
                            "wgsl": row.name,
                            "spirv": null,
                            "element": element,
                            "block": null,
                            "type": ty,
                        }),
                        adapter,
                    )
                }
                w::Target::Location {
                    location,
                    interpolation,
                    blend,
                    widened,
                } => (
                    user_location(*location, *interpolation, *blend, false),
                    // `-fvk-widen-16bit-varyings`: the location is `f32`.
                    widened.then(|| format!("{} as {declared}", widened_name(module, leaf.ty))),
                ),
                w::Target::Uniform => (json!({ "kind": "uniform" }), None),
            };
            let reason = leaf.reason.name();
            let root = match leaf.root {
                w::Root::Param(i) => format!("param {i}"),
                w::Root::Result => "result".into(),
                w::Root::Added => "added".into(),
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
                "mesh": null,
            })
        })
        .collect();
    json!({
        "schema": SCHEMA,
        "target": "wgsl",
        "entry": plan.entry,
        "stage": plan.stage.name(),
        "leaves": leaves,
        "synthesized": [],
        "patch_constant": null,
    })
}

/// The 32-bit counterpart's HLSL name of a 16-bit scalar or vector type
/// (`half4` → `float4`).
fn widened_name(module: &ir::Module, ty: ir::Handle<ir::Type>) -> String {
    let wide = |s: ir::Scalar| ir::Scalar { width: 4, ..s }.name();
    match module.types.try_get(ty).map(|t| &t.inner) {
        Some(ir::TypeInner::Scalar(s)) => wide(*s).to_string(),
        Some(ir::TypeInner::Vector { size, scalar }) => format!("{}{size}", wide(*scalar)),
        _ => ir::print::type_name(module, ty),
    }
}
