//! System-value checks of entry-point signatures, from the system-value
//! table: stage and direction (E49990), declared type (E31012), duplicates
//! (E31013) and render-target conflicts (E31014). Each test pins the code,
//! the exact message, the text under the primary span and, where there is
//! one, the secondary label.

use legalis_front::{Options, compile};
use legalis_ir as ir;

fn text(src: &str, span: ir::Span) -> &str {
    src.get(span.range()).unwrap_or("<bad span>")
}

/// `(code, message, primary text, [(secondary text, label)])` of one error.
type Reported = (String, String, String, Vec<(String, String)>);

fn errors(src: &str) -> Vec<Reported> {
    let out = compile(src, &Options::default());
    let errors: Vec<_> = out
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| {
            let secondary = d.labels[1..]
                .iter()
                .map(|l| (text(src, l.span).to_string(), l.message.clone()))
                .collect();
            (
                d.code_str(),
                d.message.clone(),
                text(src, d.primary_span()).to_string(),
                secondary,
            )
        })
        .collect();
    if !errors.is_empty() {
        assert!(out.module.is_none(), "errors but a module");
    }
    errors
}

#[track_caller]
fn one_error(src: &str, code: &str, message: &str, at: &str) {
    let all = errors(src);
    assert_eq!(all.len(), 1, "{all:#?}");
    assert_eq!(
        (all[0].0.as_str(), all[0].1.as_str(), all[0].2.as_str()),
        (code, message, at)
    );
}

#[track_caller]
fn clean(src: &str) {
    let all = errors(src);
    assert!(all.is_empty(), "{all:#?}");
}

#[test]
fn a_system_value_outside_its_stage_is_the_tables_code() {
    one_error(
        "[shader(\"vertex\")] float4 main(uint id : SV_DispatchThreadID) : SV_Position { return id; }",
        "E49990",
        "system value `SV_DispatchThreadID` is not available as a vertex input",
        "id",
    );
}

#[test]
fn a_system_value_in_the_wrong_direction_is_rejected() {
    one_error(
        "[shader(\"fragment\")] float4 main(out bool face : SV_IsFrontFace) : SV_Target { face = true; return 0; }",
        "E49990",
        "system value `SV_IsFrontFace` is not available as a fragment output",
        "face",
    );
    // `SV_Target` is a fragment output only.
    one_error(
        "struct V { float4 p : SV_Position; float4 c : SV_Target; };\n\
         [shader(\"vertex\")] V main() { V v = (V)0; return v; }",
        "E49990",
        "system value `SV_Target` is not available as a vertex output",
        "c",
    );
}

#[test]
fn struct_fields_and_stream_elements_are_checked() {
    // A geometry stream's element is an output; `SV_GroupID` is no
    // geometry output.
    clean(
        "[shader(\"geometry\")] [maxvertexcount(1)]\n\
         void main(point float4 v[1] : SV_Position, inout PointStream<float4> s) { s.Append(v[0]); }",
    );
    one_error(
        "struct G { float4 p : SV_Position; uint g : SV_GroupID; };\n\
         [shader(\"geometry\")] [maxvertexcount(1)]\n\
         void main(point float4 v[1] : SV_Position, inout PointStream<G> s) { G o = (G)0; s.Append(o); }",
        "E49990",
        "system value `SV_GroupID` is not available as a geometry output",
        "g",
    );
}

#[test]
fn wrong_types_name_the_semantic_stage_and_expected_type() {
    one_error(
        "[shader(\"fragment\")] float4 main(float3 p : SV_Position) : SV_Target { return p.xyzz; }",
        "E31012",
        "system value `SV_Position` as a fragment input must be declared float4, not `float3`",
        "p",
    );
    one_error(
        "[shader(\"fragment\")] float4 main(float c : SV_Coverage) : SV_Target { return c; }",
        "E31012",
        "system value `SV_Coverage` as a fragment input must be declared uint or int, not `float`",
        "c",
    );
    one_error(
        "[shader(\"fragment\")] float4 main() : SV_Depth { return 1; }",
        "E31012",
        "system value `SV_Depth` as a fragment output must be declared float, not `float4`",
        "float4",
    );
    one_error(
        "RWStructuredBuffer<float> b;\n\
         [shader(\"compute\")] [numthreads(1,1,1)] void main(float3 i : SV_DispatchThreadID) { b[0] = i.x; }",
        "E31012",
        "system value `SV_DispatchThreadID` as a compute input must be declared uint3, int3, uint, int, uint2 or int2, not `float3`",
        "i",
    );
    one_error(
        "[shader(\"fragment\")] bool main() : SV_Target { return true; }",
        "E31012",
        "system value `SV_Target` as a fragment output must be declared float4, int4, uint4, float, int, uint, float2, int2, uint2, float3, int3 or uint3 (or their 16-bit forms), not `bool`",
        "bool",
    );
}

#[test]
fn accepted_declarations() {
    clean(
        "[shader(\"fragment\")] half4 main(float4 p : SV_Position, uint face : SV_IsFrontFace,\n\
         int cov : SV_Coverage, float clip[2] : SV_ClipDistance) : SV_Target { return (half4)p; }",
    );
    clean(
        "RWStructuredBuffer<uint> b;\n\
         [shader(\"compute\")] [numthreads(1,1,1)]\n\
         void main(uint2 i : SV_DispatchThreadID, int g : SV_GroupIndex) { b[0] = i.x + g; }",
    );
}

#[test]
fn tessellation_factors_follow_the_domain() {
    let hull = |factors: &str| {
        format!(
            "struct P {{ float4 p : SV_Position; }};\n\
             struct C {{ {factors} }};\n\
             C pcf(InputPatch<P, 3> ip) {{ C c = (C)0; return c; }}\n\
             [shader(\"hull\")] [domain(\"tri\")] [partitioning(\"integer\")]\n\
             [outputtopology(\"triangle_cw\")] [outputcontrolpoints(3)] [patchconstantfunc(\"pcf\")]\n\
             P main(InputPatch<P, 3> ip, uint i : SV_OutputControlPointID) {{ return ip[i]; }}"
        )
    };
    clean(&hull(
        "float e[3] : SV_TessFactor; float i : SV_InsideTessFactor;",
    ));
    one_error(
        &hull("float e[4] : SV_TessFactor; float i : SV_InsideTessFactor;"),
        "E31012",
        "system value `SV_TessFactor` of a `tri` domain must be declared float[3], not `float[4]`",
        "e",
    );
    // The patch-constant function is part of the hull stage.
    one_error(
        &hull(
            "float e[3] : SV_TessFactor; float i : SV_InsideTessFactor; uint d : SV_DispatchThreadID;",
        ),
        "E49990",
        "system value `SV_DispatchThreadID` is not available as a hull output",
        "d",
    );
}

#[test]
fn a_domain_shader_reads_the_output_patch() {
    clean(
        "struct P { float4 p : SV_Position; };\n\
         struct C { float e[4] : SV_TessFactor; float i[2] : SV_InsideTessFactor; };\n\
         [shader(\"domain\")] [domain(\"quad\")]\n\
         float4 main(C c, float2 uv : SV_DomainLocation, const OutputPatch<P, 4> op) : SV_Position { return op[0].p * uv.x; }",
    );
}

#[test]
fn the_same_system_value_twice_in_one_direction() {
    let all = errors(
        "struct I { float4 p : SV_Position; };\n\
         [shader(\"fragment\")] float4 main(I i, float4 q : SV_Position) : SV_Target { return i.p + q; }",
    );
    assert_eq!(
        all,
        vec![(
            "E31013".to_string(),
            "system value `SV_Position` is declared twice as a fragment input: `i.p` and `q`"
                .to_string(),
            "q".to_string(),
            vec![("p".to_string(), "first declared here".to_string())],
        )]
    );
}

#[test]
fn indexed_system_values_differ_by_index_and_directions_are_separate() {
    clean(
        "struct V { float4 p : SV_Position; float a : SV_ClipDistance0; float b : SV_ClipDistance1; };\n\
         [shader(\"geometry\")] [maxvertexcount(1)]\n\
         void main(point V v[1], inout PointStream<V> s) { s.Append(v[0]); }",
    );
    one_error(
        "struct V { float4 p : SV_Position; float a : SV_ClipDistance1; float b : SV_ClipDistance1; };\n\
         [shader(\"vertex\")] V main() { V v = (V)0; return v; }",
        "E31013",
        "system value `SV_ClipDistance1` is declared twice as a vertex output: `return.a` and `return.b`",
        "b",
    );
}

#[test]
fn two_outputs_for_one_render_target() {
    let all = errors(
        "struct O { float4 a : SV_Target; float4 b : SV_Target1; float4 c : SV_Target0; };\n\
         [shader(\"fragment\")] O main() { O o = (O)0; return o; }",
    );
    assert_eq!(
        all,
        vec![(
            "E31014".to_string(),
            "`return.a` and `return.c` both write render target 0 (`SV_Target`)".to_string(),
            "c".to_string(),
            vec![(
                "a".to_string(),
                "render target first written here".to_string()
            )],
        )]
    );
}

#[test]
fn inout_parameters_are_checked_once_per_direction() {
    one_error(
        "[shader(\"fragment\")] void main(inout float4 c : SV_Target) { c = 1; }",
        "E49990",
        "system value `SV_Target` is not available as a fragment input",
        "c",
    );
}

#[test]
fn mesh_outputs_are_outputs() {
    clean(
        "struct V { float4 p : SV_Position; };\n\
         struct P { uint id : SV_PrimitiveID; bool cull : SV_CullPrimitive; };\n\
         [shader(\"mesh\")] [numthreads(1,1,1)] [outputtopology(\"triangle\")]\n\
         void main(uint t : SV_GroupThreadID, out vertices V v[3], out indices uint3 i[1], out primitives P p[1]) {\n\
         SetMeshOutputCounts(3, 1); }",
    );
    one_error(
        "struct V { float4 p : SV_Position; float f : SV_Depth; };\n\
         [shader(\"mesh\")] [numthreads(1,1,1)] [outputtopology(\"triangle\")]\n\
         void main(out vertices V v[3]) { SetMeshOutputCounts(3, 0); }",
        "E49990",
        "system value `SV_Depth` is not available as a mesh output",
        "f",
    );
}

#[test]
fn each_geometry_stream_has_its_own_signature() {
    // Both streams may carry a position; within one stream it is a duplicate.
    clean(
        "struct O { float4 p : SV_Position; }; struct Q { float4 p : SV_Position; };
         [shader(\"geometry\")] [maxvertexcount(1)]
         void main(point float4 v[1] : SV_Position, inout PointStream<O> s, inout PointStream<Q> t)
         { O o; o.p = v[0]; s.Append(o); Q q; q.p = v[0]; t.Append(q); }",
    );
    let all = errors(
        "struct O { float4 p : SV_Position; float4 q : SV_Position; };
         [shader(\"geometry\")] [maxvertexcount(1)]
         void main(point float4 v[1] : SV_Position, inout PointStream<O> s)
         { O o; o.p = v[0]; o.q = v[0]; s.Append(o); }",
    );
    assert_eq!(all.len(), 1, "{all:#?}");
    assert_eq!(all[0].0, "E31013");
}
