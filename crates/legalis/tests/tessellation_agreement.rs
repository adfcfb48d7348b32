//! Cross-stage agreement of tessellation interfaces (issue 6, item 5): a
//! hull and a domain entry point compiled from one file must agree on
//! every location, its `Patch` decoration and its type, for the tri, quad
//! and isoline domains, on both arms: Legalis' SPIR-V, and Legalis' GLSL
//! compiled by glslang. The interfaces are read back from the SPIR-V with
//! rspirv; a hull output nobody reads, or a domain input nobody writes,
//! fails as a disagreement.

use std::collections::{BTreeMap, HashMap};

use legalis::{Request, ShaderStage, Target, compile};
use rspirv::dr::{Module, Operand};
use spirv::{Decoration, Op, StorageClass};

/// One tessellation domain: its name, the HLSL types of its factors and of
/// `SV_DomainLocation`.
struct Domain {
    name: &'static str,
    outer: u32,
    /// `None`: isolines have no inside factor.
    inner: Option<&'static str>,
    location: &'static str,
    weight: &'static str,
}

const DOMAINS: [Domain; 3] = [
    Domain {
        name: "tri",
        outer: 3,
        inner: Some("float inside"),
        location: "float3",
        weight: "location.x + location.y * 2.0 + location.z",
    },
    Domain {
        name: "quad",
        outer: 4,
        inner: Some("float inside[2]"),
        location: "float2",
        weight: "location.x + location.y",
    },
    Domain {
        name: "isoline",
        outer: 2,
        inner: None,
        location: "float2",
        weight: "location.x * location.y",
    },
];

/// Both entry points of one file. The domain declares its patch constants
/// before its control points, the opposite of the hull's order, so the
/// locations agree only because both stages number control points first.
fn source(d: &Domain) -> String {
    let (inner_field, inner_write, inner_read) = match d.inner {
        Some(decl) => (
            format!("    {decl} : SV_InsideTessFactor;\n"),
            if decl.ends_with(']') {
                "    output.inside[0] = 2.0;\n    output.inside[1] = 3.0;\n"
            } else {
                "    output.inside = 2.0;\n"
            },
            if decl.ends_with(']') {
                " + constants.inside[1]"
            } else {
                " + constants.inside"
            },
        ),
        None => (String::new(), "", ""),
    };
    let topology = if d.name == "isoline" {
        "line"
    } else {
        "triangle_cw"
    };
    format!(
        r#"
struct ControlPoint
{{
    float3 position : POSITION;
    float2x3 frame : FRAME;
    nointerpolation uint id : ID;
    float2 uv : TEXCOORD0;
}};

struct PatchConstants
{{
    float edges[{outer}] : SV_TessFactor;
{inner_field}    float3 center : CENTER;
    uint flags : FLAGS;
}};

PatchConstants patchConstants(InputPatch<ControlPoint, 4> patch, uint primitive : SV_PrimitiveID)
{{
    PatchConstants output;
    [unroll] for (int i = 0; i < {outer}; i++)
        output.edges[i] = 4.0;
{inner_write}    output.center = patch[0].position;
    output.flags = primitive;
    return output;
}}

[shader("hull")]
[domain("{name}")]
[partitioning("fractional_odd")]
[outputtopology("{topology}")]
[outputcontrolpoints(4)]
[patchconstantfunc("patchConstants")]
ControlPoint hullMain(InputPatch<ControlPoint, 4> patch, uint id : SV_OutputControlPointID)
{{
    return patch[id];
}}

[shader("domain")]
[domain("{name}")]
float4 domainMain(PatchConstants constants,
                  {location} location : SV_DomainLocation,
                  const OutputPatch<ControlPoint, 4> patch) : SV_Position
{{
    float w = {weight};
    float3 p = patch[0].position * w + patch[1].frame[1] + patch[2].frame[0] + constants.center;
    p += float3(patch[3].uv, float(patch[1].id + constants.flags));
    return float4(p, constants.edges[1]{inner_read});
}}
"#,
        outer = d.outer,
        name = d.name,
        location = d.location,
        weight = d.weight,
    )
}

/// The SPIR-V of `entry`: Legalis' own, or glslang's for Legalis' GLSL.
fn spirv(src: &str, entry: &str, stage: ShaderStage, target: Target) -> Vec<u32> {
    let request = Request::builder("tessellation.slang", src)
        .entry(entry)
        .stage(stage)
        .target(target)
        .build();
    let compiled = compile(&request);
    let Some(output) = compiled.output else {
        panic!(
            "{entry} ({stage:?}) did not compile: {:#?}",
            compiled.diagnostics
        );
    };
    match target {
        Target::Spirv => output
            .bytes
            .chunks_exact(4)
            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
            .collect(),
        Target::Glsl => {
            let text = String::from_utf8(output.bytes).expect("GLSL is text");
            legalis_validate::validate_glsl(&text, stage)
                .unwrap_or_else(|e| panic!("{entry}: {e}\n{text}"))
        }
        other => panic!("no SPIR-V for {other:?}"),
    }
}

/// One interface variable as the other stage sees it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Slot {
    patch: bool,
    /// The type of one control point's value (per-control-point arrays
    /// stripped: the hull's have `[outputcontrolpoints]` elements, the
    /// domain's `gl_MaxPatchVertices`), or of the patch's.
    ty: String,
}

/// The `storage` variables of the entry point: user ones by location, and
/// the `TessLevelOuter`/`TessLevelInner` builtins by name.
fn interface(words: &[u32], storage: StorageClass) -> BTreeMap<String, Slot> {
    let module = rspirv::dr::load_words(words).expect("rspirv reads the module");
    let mut decorations: HashMap<u32, Vec<(Decoration, Option<u32>)>> = HashMap::new();
    for inst in &module.annotations {
        if inst.class.opcode != Op::Decorate {
            continue;
        }
        let (Some(Operand::IdRef(target)), Some(Operand::Decoration(d))) =
            (inst.operands.first(), inst.operands.get(1))
        else {
            continue;
        };
        let value = match inst.operands.get(2) {
            Some(Operand::LiteralBit32(v)) => Some(*v),
            Some(Operand::BuiltIn(b)) => Some(*b as u32),
            _ => None,
        };
        decorations.entry(*target).or_default().push((*d, value));
    }
    let mut slots = BTreeMap::new();
    for inst in &module.types_global_values {
        if inst.class.opcode != Op::Variable
            || inst.operands.first() != Some(&Operand::StorageClass(storage))
        {
            continue;
        }
        let id = inst.result_id.expect("a variable has an id");
        let decs = decorations.get(&id).cloned().unwrap_or_default();
        let find = |d: Decoration| decs.iter().find(|(x, _)| *x == d).map(|(_, v)| *v);
        let patch = find(Decoration::Patch).is_some();
        let key = if let Some(Some(location)) = find(Decoration::Location) {
            format!("location {location}")
        } else {
            match find(Decoration::BuiltIn).flatten() {
                Some(b) if b == spirv::BuiltIn::TessLevelOuter as u32 => "TessLevelOuter".into(),
                Some(b) if b == spirv::BuiltIn::TessLevelInner as u32 => "TessLevelInner".into(),
                _ => continue,
            }
        };
        let pointer = inst.result_type.expect("a variable has a type");
        let mut ty = pointee(&module, pointer);
        if !patch {
            ty = element(&module, ty).unwrap_or(ty);
        }
        slots.insert(
            key,
            Slot {
                patch,
                ty: describe(&module, ty),
            },
        );
    }
    slots
}

fn def(module: &Module, id: u32) -> &rspirv::dr::Instruction {
    module
        .types_global_values
        .iter()
        .find(|i| i.result_id == Some(id))
        .unwrap_or_else(|| panic!("no definition of %{id}"))
}

fn id_operand(inst: &rspirv::dr::Instruction, k: usize) -> u32 {
    match inst.operands.get(k) {
        Some(Operand::IdRef(id)) => *id,
        other => panic!("operand {k} of {:?} is {other:?}", inst.class.opcode),
    }
}

fn pointee(module: &Module, pointer: u32) -> u32 {
    id_operand(def(module, pointer), 1)
}

fn element(module: &Module, ty: u32) -> Option<u32> {
    let inst = def(module, ty);
    (inst.class.opcode == Op::TypeArray).then(|| id_operand(inst, 0))
}

/// `f32`, `vec3<f32>`, `mat2<vec3<f32>>`, `[f32; 4]`, `u32`.
fn describe(module: &Module, ty: u32) -> String {
    let inst = def(module, ty);
    let literal = |k: usize| match inst.operands.get(k) {
        Some(Operand::LiteralBit32(v)) => *v,
        other => panic!("operand {k} of {:?} is {other:?}", inst.class.opcode),
    };
    match inst.class.opcode {
        Op::TypeFloat => format!("f{}", literal(0)),
        Op::TypeInt if literal(1) == 0 => format!("u{}", literal(0)),
        Op::TypeInt => format!("i{}", literal(0)),
        Op::TypeBool => "bool".into(),
        Op::TypeVector => format!(
            "vec{}<{}>",
            literal(1),
            describe(module, id_operand(inst, 0))
        ),
        Op::TypeMatrix => format!(
            "mat{}<{}>",
            literal(1),
            describe(module, id_operand(inst, 0))
        ),
        Op::TypeArray => {
            let length = def(module, id_operand(inst, 1));
            let n = match length.operands.first() {
                Some(Operand::LiteralBit32(n)) => *n,
                other => panic!("array length {other:?}"),
            };
            format!("[{}; {n}]", describe(module, id_operand(inst, 0)))
        }
        other => format!("{other:?}"),
    }
}

fn check_domain(d: &Domain, target: Target) {
    let src = source(d);
    let hull = interface(
        &spirv(&src, "hullMain", ShaderStage::Hull, target),
        StorageClass::Output,
    );
    let domain = interface(
        &spirv(&src, "domainMain", ShaderStage::Domain, target),
        StorageClass::Input,
    );
    assert_eq!(
        hull, domain,
        "{} domain, {target:?}: the hull's outputs (left) and the domain's inputs (right) disagree",
        d.name
    );
    // The comparison is not vacuous: every control-point field, every
    // user patch constant and every factor array is on both sides.
    let patches = hull.values().filter(|s| s.patch).count();
    let expected_patches = 2 + 1 + usize::from(d.inner.is_some());
    assert_eq!(
        (hull.len(), patches),
        (4 + 2 + 1 + usize::from(d.inner.is_some()), expected_patches),
        "{} domain, {target:?}: {hull:#?}",
        d.name
    );
}

#[test]
fn hull_outputs_and_domain_inputs_agree_in_spirv() {
    for d in &DOMAINS {
        check_domain(d, Target::Spirv);
    }
}

#[test]
fn hull_outputs_and_domain_inputs_agree_in_glsl() {
    for d in &DOMAINS {
        check_domain(d, Target::Glsl);
    }
}

/// The shipped examples are one pipeline's hull and domain, in two files:
/// they agree too, on both arms.
#[test]
fn the_example_hull_and_domain_agree() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples");
    let read = |name: &str| {
        std::fs::read_to_string(format!("{root}/{name}")).unwrap_or_else(|e| panic!("{name}: {e}"))
    };
    let (hull_src, domain_src) = (read("hull.slang"), read("domain.slang"));
    for target in [Target::Spirv, Target::Glsl] {
        let hull = interface(
            &spirv(&hull_src, "main", ShaderStage::Hull, target),
            StorageClass::Output,
        );
        let domain = interface(
            &spirv(&domain_src, "main", ShaderStage::Domain, target),
            StorageClass::Input,
        );
        assert_eq!(hull, domain, "{target:?}");
        assert_eq!(hull.len(), 4 + 1 + 2, "{target:?}: {hull:#?}");
    }
}
