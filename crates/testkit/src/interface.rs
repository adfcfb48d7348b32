//! The round-trip interface check: every GLSL and SPIR-V output's stage
//! interface, read back from SPIR-V with rspirv (GLSL through the SPIR-V
//! glslang makes of it), must be the one the legalization trace
//! (`--trace-legalization=json`, schema `legalis-trace/1`) promises: the
//! same locations with the same component, `Patch`, per-primitive and
//! per-vertex flags in each direction, every builtin the plan names, and
//! no standalone builtin variable it does not name.

use std::collections::BTreeSet;

use rspirv::dr::{Instruction, Module, Operand};
use spirv::{Decoration, Op, StorageClass};

/// One slot of a stage interface.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Slot {
    Location {
        direction: &'static str,
        location: u32,
        component: u32,
        patch: bool,
        per_primitive: bool,
        per_vertex: bool,
    },
    BuiltIn {
        direction: &'static str,
        /// The SPIR-V name (`Position`, `TessLevelOuter`).
        name: String,
    },
}

impl std::fmt::Display for Slot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Slot::Location {
                direction,
                location,
                component,
                patch,
                per_primitive,
                per_vertex,
            } => {
                write!(f, "{direction} location {location}")?;
                if *component != 0 {
                    write!(f, " component {component}")?;
                }
                for (set, name) in [
                    (patch, "patch"),
                    (per_primitive, "per-primitive"),
                    (per_vertex, "per-vertex"),
                ] {
                    if *set {
                        write!(f, " {name}")?;
                    }
                }
                Ok(())
            }
            Slot::BuiltIn { direction, name } => write!(f, "{direction} builtin {name}"),
        }
    }
}

/// An interface read back from a module.
#[derive(Debug, Default)]
pub struct Interface {
    /// Location slots and standalone builtin variables.
    pub slots: BTreeSet<Slot>,
    /// Builtins that are members of blocks (`gl_PerVertex`), which
    /// glslang declares whole: these may hold more than the plan names.
    pub block_builtins: BTreeSet<Slot>,
}

/// The stage interface of the first entry point of a SPIR-V module.
pub fn read_spirv(words: &[u32]) -> Result<Interface, String> {
    read_spirv_entry(words, 0)
}

/// The stage interface of entry point `index` (in `OpEntryPoint` order) of
/// a SPIR-V module.
pub fn read_spirv_entry(words: &[u32], index: usize) -> Result<Interface, String> {
    let words = without_execution_mode_ids(words);
    let module = rspirv::dr::load_words(&words).map_err(|e| format!("rspirv: {e}"))?;
    let entry = module
        .entry_points
        .get(index)
        .ok_or_else(|| format!("the module has no entry point {index}"))?;
    let ids: Vec<u32> = entry
        .operands
        .iter()
        .skip(3)
        .filter_map(|o| match o {
            Operand::IdRef(id) => Some(*id),
            _ => None,
        })
        .collect();
    let mut interface = Interface::default();
    for id in ids {
        let Some(var) = definition(&module, id) else {
            continue;
        };
        if var.class.opcode != Op::Variable {
            continue;
        }
        let direction = match var.operands.first() {
            Some(Operand::StorageClass(StorageClass::Input)) => "in",
            Some(Operand::StorageClass(StorageClass::Output)) => "out",
            _ => continue,
        };
        let own = decorations(&module, id, None);
        if let Some(name) = builtin(&own) {
            interface.slots.insert(Slot::BuiltIn { direction, name });
            continue;
        }
        if let Some(location) = literal(&own, Decoration::Location) {
            interface.slots.insert(Slot::Location {
                direction,
                location,
                component: literal(&own, Decoration::Component).unwrap_or(0),
                patch: has(&own, Decoration::Patch),
                per_primitive: has(&own, Decoration::PerPrimitiveEXT),
                per_vertex: has(&own, Decoration::PerVertexKHR),
            });
            continue;
        }
        // A block of builtins: `gl_PerVertex`, `gl_MeshPerVertexEXT`.
        let Some(block) = var
            .result_type
            .and_then(|p| pointee(&module, p))
            .map(|t| strip_arrays(&module, t))
        else {
            continue;
        };
        for member in 0..member_count(&module, block) {
            if let Some(name) = builtin(&decorations(&module, block, Some(member))) {
                interface
                    .block_builtins
                    .insert(Slot::BuiltIn { direction, name });
            }
        }
    }
    Ok(interface)
}

/// The stage interface of a WGSL module's entry point (validated by naga):
/// its arguments and result, struct members included, by `@location` and
/// `@builtin` name.
pub fn read_wgsl(module: &naga::Module) -> Result<Interface, String> {
    let entry = module
        .entry_points
        .first()
        .ok_or("the module has no entry point")?;
    let mut interface = Interface::default();
    let mut add =
        |direction: &'static str, binding: Option<&naga::Binding>, ty: naga::Handle<naga::Type>| {
            let mut bindings = Vec::new();
            match binding {
                Some(b) => bindings.push(b.clone()),
                None => {
                    if let naga::TypeInner::Struct { members, .. } = &module.types[ty].inner {
                        bindings.extend(members.iter().filter_map(|m| m.binding.clone()));
                    }
                }
            }
            for b in bindings {
                let slot = match b {
                    naga::Binding::Location { location, .. } => Slot::Location {
                        direction,
                        location,
                        component: 0,
                        patch: false,
                        per_primitive: false,
                        per_vertex: false,
                    },
                    naga::Binding::BuiltIn(builtin) => Slot::BuiltIn {
                        direction,
                        name: wgsl_builtin(builtin),
                    },
                };
                interface.slots.insert(slot);
            }
        };
    for arg in &entry.function.arguments {
        add("in", arg.binding.as_ref(), arg.ty);
    }
    if let Some(result) = &entry.function.result {
        add("out", result.binding.as_ref(), result.ty);
    }
    Ok(interface)
}

/// The `@builtin(...)` spelling of a naga builtin.
fn wgsl_builtin(builtin: naga::BuiltIn) -> String {
    use naga::BuiltIn as B;
    let name = match builtin {
        B::Position { .. } => "position",
        B::VertexIndex => "vertex_index",
        B::InstanceIndex => "instance_index",
        B::FrontFacing => "front_facing",
        B::FragDepth => "frag_depth",
        B::SampleIndex => "sample_index",
        B::SampleMask => "sample_mask",
        B::LocalInvocationId => "local_invocation_id",
        B::LocalInvocationIndex => "local_invocation_index",
        B::GlobalInvocationId => "global_invocation_id",
        B::WorkGroupId => "workgroup_id",
        B::NumWorkGroups => "num_workgroups",
        B::ClipDistances => "clip_distances",
        B::PrimitiveIndex => "primitive_index",
        other => return format!("{other:?}"),
    };
    name.to_string()
}

/// What a `legalis-trace/1` trace promises the interface holds.
pub fn expected(trace: &str) -> Result<BTreeSet<Slot>, String> {
    let value: serde_json::Value =
        serde_json::from_str(trace).map_err(|e| format!("the trace is not JSON: {e}"))?;
    if value["schema"].as_str() != Some("legalis-trace/1") {
        return Err(format!("unknown trace schema {}", value["schema"]));
    }
    let mut slots = BTreeSet::new();
    let items = value["leaves"]
        .as_array()
        .into_iter()
        .chain(value["synthesized"].as_array())
        .flatten();
    for item in items {
        let direction = match item["direction"].as_str() {
            Some("in") => "in",
            Some("out") => "out",
            // CUDA payloads: read at entry, written back at exit.
            Some("inout") => "inout",
            other => return Err(format!("a trace item without a direction: {other:?}")),
        };
        let place = &item["place"];
        match place["kind"].as_str() {
            // A CUDA compute id is an expression over `threadIdx`,
            // `blockIdx` and `blockDim`, not an interface slot.
            Some("builtin") if place["cuda"].is_string() => {}
            Some("location") => {
                let number = |key: &str| place[key].as_u64().map(|n| n as u32);
                slots.insert(Slot::Location {
                    direction,
                    location: number("location").ok_or("a location without its number")?,
                    component: number("component").unwrap_or(0),
                    patch: place["patch"].as_bool() == Some(true),
                    per_primitive: place["per_primitive"].as_bool() == Some(true),
                    per_vertex: place["per_vertex"].as_bool() == Some(true),
                });
            }
            Some("builtin") => {
                // SPIR-V and GLSL traces name the SPIR-V builtin; WGSL ones
                // the `@builtin` name.
                let name = place["spirv"]
                    .as_str()
                    .or(place["wgsl"].as_str())
                    .or(place["metal"].as_str())
                    .ok_or("a builtin without its SPIR-V, WGSL or Metal name")?;
                slots.insert(Slot::BuiltIn {
                    direction,
                    name: name.to_string(),
                });
            }
            // Metal (B20, B21): no interface slot of their own; the Metal
            // signature re-read checks them against the plan.
            Some(
                "uniform"
                | "task-payload"
                | "computed"
                | "payload"
                | "indices"
                | "mesh"
                | "object-payload"
                | "mesh-grid-properties"
                // CUDA/OptiX (B17, B18): registers and slots, checked by
                // nvcc compiling the code the same layout wrote.
                | "payload-register"
                | "payload-pointer"
                | "attribute-slot"
                | "callable-data",
            ) => {}
            other => return Err(format!("unknown place kind {other:?}")),
        }
    }
    Ok(slots)
}

/// Compares an interface read back with what the trace promises; the
/// error lists every difference.
pub fn compare(interface: &Interface, expected: &BTreeSet<Slot>) -> Result<(), String> {
    let mut problems = Vec::new();
    for slot in expected {
        if !interface.slots.contains(slot) && !interface.block_builtins.contains(slot) {
            problems.push(format!("the plan's `{slot}` is not in the output"));
        }
    }
    for slot in &interface.slots {
        if !expected.contains(slot) {
            problems.push(format!("the output's `{slot}` is not in the plan"));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

/// The module without its `OpExecutionModeId` instructions, which rspirv
/// 0.13's loader refuses (glslang writes them for mesh shaders) and which
/// say nothing about the interface.
pub(crate) fn without_execution_mode_ids(words: &[u32]) -> Vec<u32> {
    const HEADER: usize = 5;
    let mut out = words[..HEADER.min(words.len())].to_vec();
    let mut at = HEADER;
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        let end = (at + count.max(1)).min(words.len());
        if words[at] & 0xffff != Op::ExecutionModeId as u32 {
            out.extend_from_slice(&words[at..end]);
        }
        at = end;
    }
    out
}

fn definition(module: &Module, id: u32) -> Option<&Instruction> {
    module
        .types_global_values
        .iter()
        .find(|i| i.result_id == Some(id))
}

/// `(decoration, first literal operand or builtin)` of `id`, or of member
/// `member` of the struct `id`.
fn decorations(
    module: &Module,
    id: u32,
    member: Option<u32>,
) -> Vec<(Decoration, Option<Operand>)> {
    module
        .annotations
        .iter()
        .filter_map(|inst| {
            let (target, rest) = match (inst.class.opcode, member) {
                (Op::Decorate, None) => (inst.operands.first()?, &inst.operands[1..]),
                (Op::MemberDecorate, Some(m)) => {
                    if inst.operands.get(1) != Some(&Operand::LiteralBit32(m)) {
                        return None;
                    }
                    (inst.operands.first()?, &inst.operands[2..])
                }
                _ => return None,
            };
            if target != &Operand::IdRef(id) {
                return None;
            }
            match rest.first() {
                Some(Operand::Decoration(d)) => Some((*d, rest.get(1).cloned())),
                _ => None,
            }
        })
        .collect()
}

fn builtin(decorations: &[(Decoration, Option<Operand>)]) -> Option<String> {
    decorations.iter().find_map(|(d, v)| match (d, v) {
        (Decoration::BuiltIn, Some(Operand::BuiltIn(b))) => Some(format!("{b:?}")),
        _ => None,
    })
}

fn literal(decorations: &[(Decoration, Option<Operand>)], which: Decoration) -> Option<u32> {
    decorations.iter().find_map(|(d, v)| match v {
        Some(Operand::LiteralBit32(n)) if *d == which => Some(*n),
        _ => None,
    })
}

fn has(decorations: &[(Decoration, Option<Operand>)], which: Decoration) -> bool {
    decorations.iter().any(|(d, _)| *d == which)
}

fn pointee(module: &Module, pointer: u32) -> Option<u32> {
    match definition(module, pointer)?.operands.get(1) {
        Some(Operand::IdRef(t)) => Some(*t),
        _ => None,
    }
}

fn strip_arrays(module: &Module, mut ty: u32) -> u32 {
    while let Some(inst) = definition(module, ty) {
        match (inst.class.opcode, inst.operands.first()) {
            (Op::TypeArray | Op::TypeRuntimeArray, Some(Operand::IdRef(base))) => ty = *base,
            _ => break,
        }
    }
    ty
}

fn member_count(module: &Module, ty: u32) -> u32 {
    match definition(module, ty) {
        Some(inst) if inst.class.opcode == Op::TypeStruct => inst.operands.len() as u32,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn location(direction: &'static str, location: u32, patch: bool) -> Slot {
        Slot::Location {
            direction,
            location,
            component: 0,
            patch,
            per_primitive: false,
            per_vertex: false,
        }
    }

    const TRACE: &str = r#"{
        "schema": "legalis-trace/1",
        "leaves": [
            {"direction": "in", "place": {"kind": "location", "location": 0, "component": 0, "patch": false}},
            {"direction": "out", "place": {"kind": "builtin", "spirv": "Position"}},
            {"direction": "in", "place": {"kind": "uniform"}}
        ],
        "synthesized": [
            {"direction": "in", "place": {"kind": "builtin", "spirv": "BaseVertex"}}
        ]
    }"#;

    #[test]
    fn the_trace_promises_its_locations_and_builtins() {
        let expected = expected(TRACE).expect("a valid trace");
        let builtin = |direction, name: &str| Slot::BuiltIn {
            direction,
            name: name.to_string(),
        };
        assert_eq!(
            expected,
            BTreeSet::from([
                location("in", 0, false),
                builtin("out", "Position"),
                builtin("in", "BaseVertex"),
            ])
        );
        // What the output holds must be exactly that, block members aside.
        let mut interface = Interface::default();
        interface.slots.insert(location("in", 0, false));
        interface.slots.insert(builtin("in", "BaseVertex"));
        interface.block_builtins.insert(builtin("out", "Position"));
        interface.block_builtins.insert(builtin("out", "PointSize"));
        assert_eq!(compare(&interface, &expected), Ok(()));
        // A patch flag lost, and a location the plan does not have.
        interface.slots.remove(&location("in", 0, false));
        interface.slots.insert(location("in", 0, true));
        let error = compare(&interface, &expected).unwrap_err();
        assert_eq!(
            error,
            "the plan's `in location 0` is not in the output\n\
             the output's `in location 0 patch` is not in the plan"
        );
    }

    #[test]
    fn cuda_places_promise_no_interface_slot() {
        let trace = r#"{
            "schema": "legalis-trace/1",
            "leaves": [
                {"direction": "in", "place": {"kind": "builtin", "spirv": null, "cuda": "threadIdx.x"}},
                {"direction": "inout", "place": {"kind": "payload-register", "register": 0}},
                {"direction": "inout", "place": {"kind": "payload-pointer"}},
                {"direction": "in", "place": {"kind": "attribute-slot", "slot": 0}},
                {"direction": "inout", "place": {"kind": "callable-data"}}
            ],
            "synthesized": []
        }"#;
        assert_eq!(expected(trace), Ok(BTreeSet::new()));
        let unknown = trace.replace("callable-data", "register-file");
        assert_eq!(
            expected(&unknown).unwrap_err(),
            "unknown place kind Some(\"register-file\")"
        );
    }

    #[test]
    fn malformed_traces_are_refused() {
        assert!(
            expected("{")
                .unwrap_err()
                .starts_with("the trace is not JSON")
        );
        assert_eq!(
            expected(r#"{"schema": "other/2"}"#).unwrap_err(),
            "unknown trace schema \"other/2\""
        );
        let no_direction =
            r#"{"schema": "legalis-trace/1", "leaves": [{"place": {"kind": "uniform"}}]}"#;
        assert!(
            expected(no_direction)
                .unwrap_err()
                .contains("without a direction")
        );
        let odd = r#"{"schema": "legalis-trace/1", "leaves": [{"direction": "in", "place": {"kind": "odd"}}]}"#;
        assert!(expected(odd).unwrap_err().contains("unknown place kind"));
    }

    #[test]
    fn a_spirv_module_is_read_back() {
        let words = legalis_validate::assemble_spirv(
            "OpCapability Shader\n\
             OpCapability Tessellation\n\
             OpMemoryModel Logical GLSL450\n\
             OpEntryPoint TessellationEvaluation %main \"main\" %a %b %c\n\
             OpExecutionMode %main Triangles\n\
             OpDecorate %a Location 2\n\
             OpDecorate %a Patch\n\
             OpDecorate %b BuiltIn TessCoord\n\
             OpMemberDecorate %block 0 BuiltIn Position\n\
             OpDecorate %block Block\n\
             %void = OpTypeVoid\n\
             %fn = OpTypeFunction %void\n\
             %float = OpTypeFloat 32\n\
             %v3 = OpTypeVector %float 3\n\
             %v4 = OpTypeVector %float 4\n\
             %block = OpTypeStruct %v4\n\
             %pa = OpTypePointer Input %v3\n\
             %pc = OpTypePointer Output %block\n\
             %a = OpVariable %pa Input\n\
             %b = OpVariable %pa Input\n\
             %c = OpVariable %pc Output\n\
             %main = OpFunction %void None %fn\n\
             %l = OpLabel\n\
             OpReturn\n\
             OpFunctionEnd\n",
        )
        .expect("assembles");
        let interface = read_spirv(&words).expect("reads");
        assert_eq!(
            interface.slots,
            BTreeSet::from([
                location("in", 2, true),
                Slot::BuiltIn {
                    direction: "in",
                    name: "TessCoord".into()
                }
            ])
        );
        assert_eq!(
            interface.block_builtins,
            BTreeSet::from([Slot::BuiltIn {
                direction: "out",
                name: "Position".into()
            }])
        );
    }
}
