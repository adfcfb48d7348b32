//! Generated shaders: the scaling series of the benchmarks and `cargo
//! xtask bench`, and the seeded entry-point shapes of the generated-shape
//! test (`tests/generated_shapes.rs`).

use std::fmt::Write as _;

/// The field counts of the scaling series.
pub const SIZES: [usize; 5] = [16, 64, 256, 1024, 4096];

/// A vertex shader passing `n` `float4` fields from its input struct to
/// its output struct.
pub fn passthrough(n: usize) -> String {
    let mut s = String::from("struct VertexIn\n{\n");
    for i in 0..n {
        let _ = writeln!(s, "    float4 f{i} : TEXCOORD{i};");
    }
    s.push_str("};\n\nstruct VertexOut\n{\n    float4 position : SV_Position;\n");
    for i in 0..n {
        let _ = writeln!(s, "    float4 f{i} : TEXCOORD{i};");
    }
    s.push_str("};\n\n[shader(\"vertex\")]\nVertexOut main(VertexIn input)\n{\n    VertexOut output;\n    output.position = input.f0;\n");
    for i in 0..n {
        let _ = writeln!(s, "    output.f{i} = input.f{i} * 2.0;");
    }
    s.push_str("    return output;\n}\n");
    s
}

/// A closest-hit shader scaling `n` `float4` fields of its ray payload
/// (`p.fI = p.fI * 2.0`): the series for CUDA/OptiX, which has no vertex
/// stage; past 32 registers the payload travels through a pointer.
pub fn payload_passthrough(n: usize) -> String {
    let mut s = String::from("struct Payload\n{\n");
    for i in 0..n {
        let _ = writeln!(s, "    float4 f{i};");
    }
    s.push_str(
        "};\n\n[shader(\"closesthit\")]\n\
         void main(inout Payload p, in BuiltInTriangleIntersectionAttributes attr)\n{\n",
    );
    for i in 0..n {
        let _ = writeln!(s, "    p.f{i} = p.f{i} * 2.0;");
    }
    s.push_str("}\n");
    s
}

/// One series of the scaling benchmark: a target, the stage of its
/// shader and the shader's generator.
#[derive(Debug, Clone, Copy)]
pub struct ScalingSeries {
    /// The `-target` name.
    pub target: &'static str,
    /// The `-stage` name of the generated entry point `main`.
    pub stage: &'static str,
    /// The shader with `n` fields.
    pub shader: fn(usize) -> String,
    /// The file stem the shaders are written under.
    pub stem: &'static str,
}

/// Every target's scaling series: the vertex pass-through where the
/// target has vertex shaders, the closest-hit payload for CUDA.
pub const SCALING: [ScalingSeries; 5] = [
    ScalingSeries::vertex("glsl"),
    ScalingSeries::vertex("spirv"),
    ScalingSeries::vertex("wgsl"),
    ScalingSeries::vertex("metal"),
    ScalingSeries {
        target: "cuda",
        stage: "closesthit",
        shader: payload_passthrough,
        stem: "payload",
    },
];

impl ScalingSeries {
    const fn vertex(target: &'static str) -> ScalingSeries {
        ScalingSeries {
            target,
            stage: "vertex",
            shader: passthrough,
            stem: "passthrough",
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn payload_passthrough_scales_n_fields() {
        let text = super::payload_passthrough(3);
        assert_eq!(text.matches("    float4 f").count(), 3);
        assert!(text.contains("p.f2 = p.f2 * 2.0;"));
        assert!(text.contains("[shader(\"closesthit\")]"));
        assert!(!text.contains("f3"));
    }

    #[test]
    fn passthrough_has_n_fields_each_way() {
        let text = super::passthrough(3);
        assert_eq!(text.matches(": TEXCOORD").count(), 6);
        assert!(text.contains("output.f2 = input.f2 * 2.0;"));
        assert!(!text.contains("f3"));
    }
}

/// A small deterministic generator (xorshift64*): the same seed gives the
/// same shaders on every machine.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        // Zero is xorshift's fixed point; mix the seed so nearby seeds differ.
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Which types the generator draws from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Profile {
    /// Every varying type GLSL and SPIR-V can carry: 16- and 64-bit
    /// scalars, `bool`, matrices, arrays.
    Full,
    /// What every target carries: 32-bit scalars and vectors,
    /// in nested structs (WGSL and Metal varyings are no matrices or
    /// arrays).
    Portable,
}

/// A generated entry point: which stage, and the whole source file.
#[derive(Debug, Clone)]
pub struct Shape {
    pub seed: u64,
    pub profile: Profile,
    /// `vertex` or `fragment` from [`entry_point_shape`], one of
    /// [`MORE_STAGES`] from [`stage_shape`].
    pub stage: &'static str,
    pub source: String,
}

/// Scalars, weighted toward the common ones (listed more than once).
const SCALARS: [&str; 16] = [
    "float", "float", "float", "float", "int", "int", "uint", "uint", "half", "half", "double",
    "int16_t", "uint16_t", "int64_t", "uint64_t", "bool",
];

const INTERPOLATION: [&str; 8] = [
    "",
    "",
    "nointerpolation ",
    "linear ",
    "centroid ",
    "sample ",
    "noperspective ",
    "noperspective centroid ",
];

const PORTABLE_SCALARS: [&str; 4] = ["float", "float", "int", "uint"];

/// A leaf type, written as HLSL.
fn leaf_type(rng: &mut Rng, profile: Profile) -> String {
    if profile == Profile::Portable {
        let scalar = *rng.pick(&PORTABLE_SCALARS);
        return match rng.below(2) {
            0 => scalar.to_string(),
            _ => format!("{scalar}{}", 2 + rng.below(3)),
        };
    }
    let scalar = *rng.pick(&SCALARS);
    match rng.below(10) {
        0..=3 => scalar.to_string(),
        4..=7 => format!("{scalar}{}", 2 + rng.below(3)),
        // Matrices only of floating point: HLSL has no bool matrices.
        _ => {
            let float = *rng.pick(&["float", "float", "half", "double"]);
            format!("{float}{}x{}", 2 + rng.below(3), 2 + rng.below(3))
        }
    }
}

/// One field declaration list of a struct (no semantics inside nested
/// structs; the leaves get them where the struct is used).
struct Field {
    modifiers: String,
    ty: String,
    name: String,
    array: Option<usize>,
    /// A nested struct: its semantic index is where its leaves start.
    nested: bool,
}

/// Generates entry point `seed` of `profile`: a vertex shader passing a
/// struct of generated fields through (nested structs, arrays of structs,
/// vectors, matrices, 16- and 64-bit scalars, interpolation modifiers,
/// explicit and implicit locations), or a fragment shader reading one.
pub fn entry_point_shape(seed: u64, profile: Profile) -> Shape {
    let mut rng = Rng::new(seed);
    let stage = if rng.chance(50) { "vertex" } else { "fragment" };
    let mut source = String::new();
    let mut structs = Vec::new();
    // Up to two nested struct types, the second may contain the first.
    for s in 0..rng.below(3) {
        let mut body = String::new();
        for f in 0..1 + rng.below(3) {
            let ty = if s == 1 && f == 0 && rng.chance(50) {
                "Inner0".to_string()
            } else {
                leaf_type(&mut rng, profile)
            };
            let _ = writeln!(body, "    {ty} m{f};");
        }
        let _ = writeln!(source, "struct Inner{s}\n{{\n{body}}};\n");
        structs.push(format!("Inner{s}"));
    }
    let mut fields = Vec::new();
    for i in 0..1 + rng.below(6) {
        let nested = !structs.is_empty() && rng.chance(25);
        let ty = if nested {
            rng.pick(&structs).clone()
        } else {
            leaf_type(&mut rng, profile)
        };
        let array = (profile == Profile::Full && rng.chance(20)).then(|| 1 + rng.below(3));
        let interpolation = *rng.pick(&INTERPOLATION);
        fields.push(Field {
            modifiers: interpolation.to_string(),
            ty,
            name: format!("f{i}"),
            array,
            nested,
        });
    }
    // Semantics far apart so no two overlap whatever a leaf spans; some
    // leaves get an explicit location, also far apart: 32 locations, more
    // than the widest leaf takes (`double4x4[3]`, 24).
    let declare = |source: &mut String, rng: &mut Rng, with_modifiers: bool| {
        for (i, field) in fields.iter().enumerate() {
            let location = if !field.nested && rng.chance(25) {
                format!("[[vk::location({})]] ", 16 + 32 * i)
            } else {
                String::new()
            };
            let modifiers = if with_modifiers { &field.modifiers } else { "" };
            let array = field.array.map(|n| format!("[{n}]")).unwrap_or_default();
            let _ = writeln!(
                source,
                "    {location}{modifiers}{} {}{array} : TEXCOORD{};",
                field.ty,
                field.name,
                32 * i
            );
        }
    };
    match stage {
        "vertex" => {
            source.push_str("struct VIn\n{\n");
            declare(&mut source, &mut rng, false);
            source.push_str("};\n\nstruct VOut\n{\n    float4 pos : SV_Position;\n");
            declare(&mut source, &mut rng, true);
            source.push_str(
                "};\n\n[shader(\"vertex\")]\nVOut main(VIn i)\n{\n    VOut o;\n    o.pos = float4(0.0, 0.0, 0.0, 1.0);\n",
            );
            for field in &fields {
                let _ = writeln!(source, "    o.{0} = i.{0};", field.name);
            }
            source.push_str("    return o;\n}\n");
        }
        _ => {
            source.push_str("struct PIn\n{\n");
            declare(&mut source, &mut rng, true);
            source.push_str(
                "};\n\n[shader(\"pixel\")]\nfloat4 main(PIn i) : SV_Target\n{\n    return float4(0.0, 0.0, 0.0, 1.0);\n}\n",
            );
        }
    }
    Shape {
        seed,
        profile,
        stage,
        source,
    }
}

/// The stages [`stage_shape`] generates, beyond vertex and fragment.
pub const MORE_STAGES: [&str; 7] = [
    "geometry",
    "hull",
    "domain",
    "mesh",
    "closesthit",
    "miss",
    "callable",
];

/// The generated fields of one shape, declared in a struct.
struct Fields {
    structs: String,
    fields: Vec<Field>,
}

fn generate_fields(rng: &mut Rng, profile: Profile, arrays: bool) -> Fields {
    let mut structs = String::new();
    let mut names = Vec::new();
    for s in 0..rng.below(3) {
        let mut body = String::new();
        for f in 0..1 + rng.below(3) {
            let ty = if s == 1 && f == 0 && rng.chance(50) {
                "Inner0".to_string()
            } else {
                leaf_type(rng, profile)
            };
            let _ = writeln!(body, "    {ty} m{f};");
        }
        let _ = writeln!(structs, "struct Inner{s}\n{{\n{body}}};\n");
        names.push(format!("Inner{s}"));
    }
    let mut fields = Vec::new();
    for i in 0..1 + rng.below(6) {
        let nested = !names.is_empty() && rng.chance(25);
        let ty = if nested {
            rng.pick(&names).clone()
        } else {
            leaf_type(rng, profile)
        };
        let array =
            (arrays && profile == Profile::Full && rng.chance(20)).then(|| 1 + rng.below(3));
        fields.push(Field {
            modifiers: rng.pick(&INTERPOLATION).to_string(),
            ty,
            name: format!("f{i}"),
            array,
            nested,
        });
    }
    Fields { structs, fields }
}

impl Fields {
    /// The fields as struct members: with semantics far apart (and some
    /// explicit locations) for varyings, bare for ray payloads.
    fn declare(&self, out: &mut String, rng: &mut Rng, varyings: bool, modifiers: bool) {
        for (i, field) in self.fields.iter().enumerate() {
            let array = field.array.map(|n| format!("[{n}]")).unwrap_or_default();
            if !varyings {
                let _ = writeln!(out, "    {} {}{array};", field.ty, field.name);
                continue;
            }
            let location = if !field.nested && rng.chance(25) {
                format!("[[vk::location({})]] ", 16 + 32 * i)
            } else {
                String::new()
            };
            let modifiers = if modifiers {
                field.modifiers.as_str()
            } else {
                ""
            };
            let _ = writeln!(
                out,
                "    {location}{modifiers}{} {}{array} : TEXCOORD{};",
                field.ty,
                field.name,
                32 * i
            );
        }
    }

    /// `to.f = from.f;` for every field.
    fn copy(&self, out: &mut String, to: &str, from: &str) {
        for field in &self.fields {
            let _ = writeln!(out, "    {to}.{0} = {from}.{0};", field.name);
        }
    }
}

/// Generates entry point `seed` of `profile` for `stage`, one of
/// [`MORE_STAGES`]: the generated fields travel through a geometry shader
/// (a triangle in, a triangle stream out), a hull shader's control points
/// (with a patch-constant function), a domain shader's output patch, a
/// mesh shader's vertices, or a closest-hit, miss or callable shader's
/// payload (callable data).
pub fn stage_shape(seed: u64, profile: Profile, stage: &'static str) -> Shape {
    let mut rng = Rng::new(seed ^ 0x5EED_0000);
    let ray = matches!(stage, "closesthit" | "miss" | "callable");
    // Arrays only where the legalizer carries them on every stage it
    // compiles: not in mesh outputs written whole.
    let fields = generate_fields(&mut rng, profile, stage != "mesh");
    let mut source = fields.structs.clone();
    if ray {
        source.push_str("struct Payload\n{\n");
        fields.declare(&mut source, &mut rng, false, false);
        source.push_str("};\n\n");
        let params = match stage {
            "closesthit" => "inout Payload p, in BuiltInTriangleIntersectionAttributes a",
            _ => "inout Payload p",
        };
        let _ = write!(
            source,
            "[shader(\"{stage}\")]\nvoid main({params})\n{{\n    Payload q = p;\n"
        );
        fields.copy(&mut source, "p", "q");
        source.push_str("}\n");
        return Shape {
            seed,
            profile,
            stage,
            source,
        };
    }
    // The varying struct every other stage reads or writes.
    source.push_str("struct V\n{\n    float4 pos : SV_Position;\n");
    fields.declare(&mut source, &mut rng, true, true);
    source.push_str("};\n\n");
    match stage {
        "geometry" => {
            source.push_str(
                "[shader(\"geometry\")]\n[maxvertexcount(3)]\nvoid main(triangle V input[3], inout TriangleStream<V> stream)\n{\n    for (uint i = 0; i < 3; i++)\n    {\n        V o;\n        o.pos = input[i].pos;\n",
            );
            for field in &fields.fields {
                let _ = writeln!(source, "        o.{0} = input[i].{0};", field.name);
            }
            source.push_str("        stream.Append(o);\n    }\n}\n");
        }
        "hull" => {
            source.push_str(
                "struct PC\n{\n    float edges[3] : SV_TessFactor;\n    float inside : SV_InsideTessFactor;\n};\n\nPC constants(InputPatch<V, 3> patch)\n{\n    PC o;\n    o.edges[0] = 1.0;\n    o.edges[1] = 1.0;\n    o.edges[2] = 1.0;\n    o.inside = 1.0;\n    return o;\n}\n\n[shader(\"hull\")]\n[domain(\"tri\")]\n[partitioning(\"integer\")]\n[outputtopology(\"triangle_cw\")]\n[outputcontrolpoints(3)]\n[patchconstantfunc(\"constants\")]\nV main(InputPatch<V, 3> patch, uint id : SV_OutputControlPointID)\n{\n    return patch[id];\n}\n",
            );
        }
        "domain" => {
            source.push_str(
                "struct PC\n{\n    float edges[3] : SV_TessFactor;\n    float inside : SV_InsideTessFactor;\n};\n\n[shader(\"domain\")]\n[domain(\"tri\")]\nV main(PC constants, float3 bary : SV_DomainLocation, const OutputPatch<V, 3> patch)\n{\n    V o;\n    o.pos = patch[0].pos * bary.x + patch[1].pos * bary.y + patch[2].pos * bary.z;\n",
            );
            fields.copy(&mut source, "o", "patch[0]");
            source.push_str("    return o;\n}\n");
        }
        _ => {
            // Mesh: whole vertices stored, the way every target takes them.
            source.push_str(
                "[shader(\"mesh\")]\n[outputtopology(\"triangle\")]\n[numthreads(1, 1, 1)]\nvoid main(out vertices V verts[3], out indices uint3 tris[1])\n{\n    SetMeshOutputCounts(3, 1);\n    V v = (V)0;\n    for (uint i = 0; i < 3; i++)\n    {\n        v.pos = float4(float(i), 0.0, 0.0, 1.0);\n        verts[i] = v;\n    }\n    tris[0] = uint3(0, 1, 2);\n}\n",
            );
        }
    }
    Shape {
        seed,
        profile,
        stage,
        source,
    }
}
