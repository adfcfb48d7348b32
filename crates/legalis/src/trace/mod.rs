//! `--trace-legalization[=text|json]`: the legalization plan as an
//! artifact. For every leaf of every entry-point parameter and result
//! (`input.pos`, `return.color`, `p.inner.d`) the trace says where it went
//! (a builtin, a location and component, `Patch`, per-primitive, per-vertex,
//! a uniform), the type adapter between the declared type and the
//! interface's, and why (the table's row, an explicit `[[vk::location]]`, a
//! semantic index, the next free location). Interface variables the
//! legalizer made without a leaf (`gl_BaseVertex` for a rebased
//! `SV_VertexID`, a hull's `gl_InvocationID`, mesh indices, transform
//! feedback copies, the task payload) are listed with their reason.
//!
//! The JSON form's schema is `legalis-trace/1`, documented in
//! `docs/design/trace.md`; the harness reads it back to compare every
//! output's interface with the plan.

pub(crate) mod cuda;
pub(crate) mod glsl;
pub(crate) mod metal;
pub(crate) mod wgsl;

use legalis_ir as ir;
use legalis_sysval::Direction;
use serde_json::Value;

/// The forms `--trace-legalization` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TraceFormat {
    /// Readable text, one line per varying.
    Text,
    /// JSON after the schema `legalis-trace/1` (`docs/design/trace.md`).
    Json,
}

impl TraceFormat {
    /// The format a `--trace-legalization=FORM` value names (`text`,
    /// `json`).
    pub fn from_name(name: &str) -> Option<TraceFormat> {
        match name {
            "text" => Some(TraceFormat::Text),
            "json" => Some(TraceFormat::Json),
            _ => None,
        }
    }
}

/// The schema name of the JSON form.
pub const SCHEMA: &str = "legalis-trace/1";

/// The traces of several entry points written into one output: in JSON,
/// an array of them; in text, one after the other.
fn finish_all(values: Vec<Value>, format: TraceFormat) -> String {
    match format {
        TraceFormat::Json => finish(&Value::Array(values), format),
        TraceFormat::Text => {
            let texts: Vec<String> = values.iter().map(|v| finish(v, format)).collect();
            texts.join("\n")
        }
    }
}

/// The trace in `format`.
fn finish(value: &Value, format: TraceFormat) -> String {
    match format {
        TraceFormat::Json => {
            let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
            text.push('\n');
            text
        }
        TraceFormat::Text => text(value),
    }
}

fn direction(d: Direction) -> &'static str {
    match d {
        Direction::Input => "in",
        Direction::Output => "out",
    }
}

fn interpolation_name(i: ir::Interpolation) -> &'static str {
    match i.mode {
        None | Some(ir::InterpolationMode::Linear) => "smooth",
        Some(ir::InterpolationMode::Flat) => "flat",
        Some(ir::InterpolationMode::NoPerspective) => "noperspective",
    }
}

fn sampling_name(i: ir::Interpolation) -> Option<&'static str> {
    i.sampling.map(|s| match s {
        ir::Sampling::Centroid => "centroid",
        ir::Sampling::Sample => "sample",
    })
}

/// The HLSL name of a builtin's type (`int`, `float4`, `float[4]`), or of
/// one element of an arrayed builtin.
/// The place of a WGSL or Metal user varying (or render target): one
/// location, no component, with its dual-source blending `index`, its
/// interpolation, and whether it is per primitive.
fn user_location(
    location: u32,
    interpolation: ir::Interpolation,
    index: Option<u32>,
    per_primitive: bool,
) -> Value {
    serde_json::json!({
        "kind": "location",
        "location": location,
        "component": 0,
        "count": 1,
        "index": index,
        "interpolation": interpolation_name(interpolation),
        "sampling": sampling_name(interpolation),
        "patch": false,
        "per_primitive": per_primitive,
        "per_vertex": false,
    })
}

fn builtin_type_name(ty: legalis_sysval::BuiltinType, element: bool) -> String {
    use legalis_sysval::BuiltinType as B;
    let scalar = scalar_name;
    match ty {
        B::Scalar(s) => scalar(s),
        B::Vector(s, n) => format!("{}{n}", scalar(s)),
        B::Array(s, _) if element => scalar(s),
        B::Array(s, Some(n)) => format!("{}[{n}]", scalar(s)),
        B::Array(s, None) => format!("{}[]", scalar(s)),
    }
}

/// The HLSL name of a scalar type.
fn scalar_name(s: ir::Scalar) -> String {
    let name = match (s.kind, s.width) {
        (ir::ScalarKind::Bool, _) => "bool",
        (ir::ScalarKind::Float, 2) => "half",
        (ir::ScalarKind::Float, 8) => "double",
        (ir::ScalarKind::Float, _) => "float",
        (ir::ScalarKind::Sint, 1) => "int8_t",
        (ir::ScalarKind::Uint, 1) => "uint8_t",
        (ir::ScalarKind::Sint, 2) => "int16_t",
        (ir::ScalarKind::Sint, 8) => "int64_t",
        (ir::ScalarKind::Sint, _) => "int",
        (ir::ScalarKind::Uint, 2) => "uint16_t",
        (ir::ScalarKind::Uint, 8) => "uint64_t",
        (ir::ScalarKind::Uint, _) => "uint",
    };
    name.to_string()
}

/// The scalar type name of a vector or array declaration.
fn scalar_of(module: &ir::Module, ty: ir::Handle<ir::Type>) -> String {
    match module.types.try_get(ty).map(|t| &t.inner) {
        Some(ir::TypeInner::Array { base, .. }) => scalar_of(module, *base),
        Some(inner) => inner
            .scalar()
            .map(scalar_name)
            .unwrap_or_else(|| ir::print::type_name(module, ty)),
        None => String::new(),
    }
}

/// The text form: one line per leaf, then the synthesized variables.
fn text(value: &Value) -> String {
    let s = |v: &Value| v.as_str().unwrap_or_default().to_string();
    let mut out = format!(
        "legalization of `{}` ({}) for {}\n",
        s(&value["entry"]),
        s(&value["stage"]),
        s(&value["target"])
    );
    let place = |p: &Value| -> String {
        match p["kind"].as_str() {
            Some("builtin") => {
                let name = match p["metal"].as_str() {
                    Some(attribute) => format!("[[{attribute}]]"),
                    None => p["glsl"]
                        .as_str()
                        .or(p["wgsl"].as_str())
                        .or(p["cuda"].as_str())
                        .unwrap_or_default()
                        .to_string(),
                };
                let mut t = format!("builtin {name}");
                if let Some(k) = p["element"].as_u64() {
                    t.push_str(&format!("[{k}]"));
                }
                if let Some(block) = p["block"].as_str() {
                    t = format!("builtin {block}[].{}", &t["builtin ".len()..]);
                }
                t
            }
            Some("location") => {
                let mut t = format!("location {}", p["location"]);
                if p["component"].as_u64().unwrap_or(0) != 0 {
                    t.push_str(&format!(" component {}", p["component"]));
                }
                if let Some(i) = p["index"].as_u64() {
                    t.push_str(&format!(" index {i}"));
                }
                for flag in ["patch", "per_primitive", "per_vertex"] {
                    if p[flag].as_bool() == Some(true) {
                        t.push_str(&format!(" {}", flag.replace('_', "-")));
                    }
                }
                if p["interpolation"].as_str() == Some("flat") {
                    t.push_str(" flat");
                }
                if let Some(attribute) = p["metal"].as_str() {
                    t.push_str(&format!(" [[{attribute}]]"));
                }
                t
            }
            Some("computed") => format!(
                "computed from [[{}]]",
                p["from"].as_str().unwrap_or_default()
            ),
            Some("payload") => "[[payload]] const object_data pointer".into(),
            Some("indices") => format!("set_index, {} per primitive", p["per_primitive"]),
            Some("mesh") => format!(
                "metal::mesh<{}, {}, {}>",
                p["vertices"],
                p["primitives"],
                p["topology"].as_str().unwrap_or_default()
            ),
            Some("object-payload") => format!(
                "[[payload]] object_data {}*",
                p["type"].as_str().unwrap_or_default()
            ),
            Some("payload-register") => {
                let mut t = p["cuda"].as_str().unwrap_or_default().to_string();
                match p["bits"].as_u64() {
                    Some(64) => t.push_str(" high:low"),
                    Some(bits) if bits < 32 => {
                        t.push_str(&format!(" byte {}, {bits} bits", p["byte"]))
                    }
                    _ => {}
                }
                t
            }
            Some("payload-pointer") => {
                format!("pointer in {}", p["cuda"].as_str().unwrap_or_default())
            }
            Some("attribute-slot") => {
                let mut t = p["cuda"].as_str().unwrap_or_default().to_string();
                if p["count"].as_u64() == Some(2) {
                    t.push_str(" high:low");
                }
                t
            }
            Some("callable-data") => format!(
                "direct-callable data {}",
                p["cuda"].as_str().unwrap_or_default()
            ),
            Some(kind) => kind.to_string(),
            None => String::new(),
        }
    };
    let leaves = value["leaves"].as_array().cloned().unwrap_or_default();
    let made = value["synthesized"].as_array().cloned().unwrap_or_default();
    let width = |key: &str, items: &[Value], f: &dyn Fn(&Value) -> String| {
        items.iter().map(|v| f(&v[key]).len()).max().unwrap_or(0)
    };
    let path_width = width("path", &leaves, &s).max(width("name", &made, &s));
    let place_width = width("place", &leaves, &place).max(width("place", &made, &place));
    let declared_width = width("declared", &leaves, &s);
    // `inout` (CUDA payloads) widens the column; other traces keep 3.
    let direction_width = width("direction", &leaves, &s).max(3);
    for leaf in &leaves {
        let mut line = format!(
            "  {:<path_width$}  {:<direction_width$}  {:<place_width$}  {:<declared_width$}  {}",
            s(&leaf["path"]),
            s(&leaf["direction"]),
            place(&leaf["place"]),
            s(&leaf["declared"]),
            s(&leaf["reason"]).replace('-', " ")
        );
        if let Some(adapter) = leaf["adapter"].as_str() {
            line.push_str(&format!("; {adapter}"));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    for g in &made {
        let line = format!(
            "  {:<path_width$}  {:<direction_width$}  {:<place_width$}  made: {}",
            s(&g["name"]),
            s(&g["direction"]),
            place(&g["place"]),
            s(&g["why"])
        );
        out.push_str(&line);
        out.push('\n');
    }
    if let Some(function) = value["function"].as_str() {
        let optix = &value["optix"];
        let mut line = match optix.is_object() {
            true => format!("  OptiX program {function}"),
            false => format!("  kernel {function}"),
        };
        match (
            optix["payload"]["passing"].as_str(),
            optix["payload"]["registers"].as_u64(),
        ) {
            (Some("pointer"), Some(n)) => line.push_str(&format!(
                "; payload (param {}) of {n} registers, over 32: its address in registers 0-1",
                optix["payload"]["param"]
            )),
            (Some("registers"), Some(n)) => line.push_str(&format!(
                "; payload (param {}) in {n} register{}",
                optix["payload"]["param"],
                if n == 1 { "" } else { "s" }
            )),
            _ => {}
        }
        if let Some(n) = optix["attributes"]["slots"].as_u64() {
            line.push_str(&format!(
                "; attributes (param {}) in {n} slot{}",
                optix["attributes"]["param"],
                if n == 1 { "" } else { "s" }
            ));
        }
        out.push_str(&line);
        out.push('\n');
    }
    let resources = value["resources"].as_array().cloned().unwrap_or_default();
    let resource_place = |r: &Value| -> String {
        let p = &r["place"];
        let holder = match p["kind"].as_str() {
            Some("kernel-parameter") => format!("kernel parameter {}", p["index"]),
            Some("shader-record") => format!(
                "{} member {}",
                p["record"].as_str().unwrap_or_default(),
                p["member"]
            ),
            _ => "launch parameter".to_string(),
        };
        let cuda = p["cuda"].as_str().unwrap_or_default();
        match p["block"].as_str() {
            Some(block) => format!("{cuda} in {block}, {holder}"),
            None => format!("{cuda}, {holder}"),
        }
    };
    let name_width = width("name", &resources, &s);
    let resource_width = resources
        .iter()
        .map(|r| resource_place(r).len())
        .max()
        .unwrap_or(0);
    for r in &resources {
        let line = format!(
            "  {:<name_width$}  {:<resource_width$}  as {}",
            s(&r["name"]),
            resource_place(r),
            s(&r["access"])
        );
        out.push_str(&line);
        out.push('\n');
    }
    if let Some(call) = value["patch_constant"].as_object() {
        let args: Vec<String> = call["args"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|a| match a["kind"].as_str() {
                Some("input-patch") => {
                    format!("the entry point's input patch (param {})", a["param"])
                }
                Some("output-patch") => "the output patch read back".into(),
                _ => "its leaves".into(),
            })
            .collect();
        out.push_str(&format!(
            "  patch-constant call: {} for {} control points, after a barrier, by invocation 0; arguments: {}\n",
            call["function"].as_str().unwrap_or_default(),
            call["control_points"],
            args.join(", ")
        ));
    }
    out
}
