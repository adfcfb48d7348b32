//! `-dump-bindings`: a plan as text for people or as JSON (schema
//! [`SCHEMA`], docs/design/bindings.md).

use std::fmt::Write;

use serde_json::{Value, json};

use crate::{Count, Place, Plan, Resource, class_letter};

/// The JSON schema name; the number changes with any incompatible change.
pub const SCHEMA: &str = "legalis-bindings/1";

fn place_text(place: Place) -> String {
    match place {
        Place::Descriptor { set, binding } => format!("set {set}, binding {binding}"),
        Place::Metal { table, index } => format!("[[{}({index})]]", table.attribute()),
        Place::KernelParameter(n) => format!("kernel parameter {n}"),
        Place::LaunchParams(n) => format!("LaunchParams member {n}"),
        Place::None => "none".into(),
    }
}

fn explicit_text(r: &Resource) -> String {
    let mut parts = Vec::new();
    if let Some(reg) = r.register {
        parts.push(format!(
            "register({}{}, space{})",
            class_letter(reg.class),
            reg.index,
            reg.space
        ));
    }
    if let Some((binding, set)) = r.vk_binding {
        parts.push(format!("[[vk::binding({binding}, {set})]]"));
    }
    match parts.is_empty() {
        true => "no explicit binding".into(),
        false => parts.join(" "),
    }
}

/// One line per resource: name, kind and type, explicit placement, place
/// and reason.
pub fn render_text(plan: &Plan, target: &str) -> String {
    let mut out = format!(
        "bindings of `{}` ({}) for {target}: {} resource{}\n",
        plan.entry,
        plan.stage.name(),
        plan.resources.len(),
        if plan.resources.len() == 1 { "" } else { "s" }
    );
    for r in &plan.resources {
        let count = match r.count {
            Count::One => String::new(),
            Count::Array(n) => format!(" x{n}"),
            Count::Unsized => " x unsized".into(),
        };
        writeln!(
            out,
            "  {}: {} `{}`{count}, {}{}\n    -> {} ({})",
            r.name,
            r.kind.name(),
            r.ty,
            explicit_text(r),
            if r.used { "" } else { ", unused" },
            place_text(r.place),
            r.reason
        )
        .ok();
    }
    out
}

fn place_json(place: Place) -> Value {
    match place {
        Place::Descriptor { set, binding } => json!({ "set": set, "binding": binding }),
        Place::Metal { table, index } => json!({ "metal": table.attribute(), "index": index }),
        Place::KernelParameter(n) => json!({ "kernel_parameter": n }),
        Place::LaunchParams(n) => json!({ "launch_params_member": n }),
        Place::None => Value::Null,
    }
}

/// The plan as one JSON document, followed by a newline.
pub fn render_json(plan: &Plan, target: &str) -> String {
    let resources: Vec<Value> = plan
        .resources
        .iter()
        .map(|r| {
            json!({
                "name": r.name,
                "kind": r.kind.name(),
                "type": r.ty,
                "count": match r.count {
                    Count::One => json!(1),
                    Count::Array(n) => json!(n),
                    Count::Unsized => json!("unsized"),
                },
                "class": class_letter(r.kind.class()).to_string(),
                "register": r.register.map(|reg| json!({
                    "class": class_letter(reg.class).to_string(),
                    "index": reg.index,
                    "space": reg.space,
                })),
                "vk_binding": r.vk_binding.map(|(binding, set)| json!({
                    "binding": binding,
                    "set": set,
                })),
                "used": r.used,
                "place": place_json(r.place),
                "reason": r.reason,
            })
        })
        .collect();
    let doc = json!({
        "schema": SCHEMA,
        "target": target,
        "entry": plan.entry,
        "stage": plan.stage.name(),
        "resources": resources,
    });
    let mut text = serde_json::to_string_pretty(&doc).unwrap_or_default();
    text.push('\n');
    text
}
