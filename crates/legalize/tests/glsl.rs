//! The GLSL/SPIR-V legalizer on small entry points: the plan (where each
//! leaf goes and why), the rewritten module, and every rejection with its
//! code and span.

use legalis_ir as ir;
use legalis_legalize::Family;
use legalis_legalize::glsl::{Glsl, Legalized, Part, PatchArg, Root, Target};
use legalis_sysval::Direction;

fn front(src: &str, entry: &str, stage: ir::ShaderStage) -> ir::Module {
    let options = legalis_front::Options {
        entry: Some(entry.into()),
        stage: Some(stage),
        ..Default::default()
    };
    let out = legalis_front::compile(src, &options);
    out.module
        .unwrap_or_else(|| panic!("front end: {:#?}", out.diagnostics))
}

fn ok(src: &str, entry: &str, stage: ir::ShaderStage) -> Legalized {
    let module = front(src, entry, stage);
    let legalized =
        Glsl::legalize(&module, 0, &ir::Policy::default()).unwrap_or_else(|e| panic!("{e:#?}"));
    ir::verify::verify(&legalized.module).expect("the verifier accepts the legalized module");
    legalized
}

/// `(code, message, text under the primary span)` of the single error.
fn err(src: &str, entry: &str, stage: ir::ShaderStage) -> Vec<(String, String, String)> {
    let module = front(src, entry, stage);
    let errors =
        Glsl::legalize(&module, 0, &ir::Policy::default()).expect_err("legalization fails");
    errors
        .iter()
        .map(|d| {
            let span = d.primary_span();
            let text = if span.is_defined() {
                src[span.range()].to_string()
            } else {
                String::new()
            };
            (d.code_str(), d.message.clone(), text)
        })
        .collect()
}

/// `path -> (direction, where)` for every leaf, e.g. `input.uv in loc 1`.
fn summary(l: &Legalized) -> Vec<String> {
    l.plan
        .leaves
        .iter()
        .map(|leaf| {
            let dir = match leaf.direction {
                Direction::Input => "in",
                Direction::Output => "out",
            };
            let place = match &leaf.target {
                Target::BuiltIn { row, .. } => row.glsl_name.to_string(),
                Target::Location {
                    location,
                    interpolation,
                    ..
                } => {
                    let flat = if interpolation.mode == Some(ir::InterpolationMode::Flat) {
                        " flat"
                    } else {
                        ""
                    };
                    format!("loc {location}{flat}")
                }
                Target::Uniform => "uniform".into(),
            };
            format!(
                "{} {dir} {place} {} {:?}",
                leaf.path, leaf.global_name, leaf.reason
            )
        })
        .collect()
}

const VS: &str = r#"
struct VsIn { float3 pos : POSITION; float3 normal : NORMAL; float2 uv : TEXCOORD0; };
struct VsOut { float4 pos : SV_Position; float3 normal : NORMAL; float2 uv : TEXCOORD0; uint id : ID; };
VsOut main(VsIn input, uint vid : SV_VertexID)
{
    VsOut o;
    o.pos = float4(input.pos, 1);
    o.normal = input.normal;
    o.uv = input.uv;
    o.id = vid;
    return o;
}
"#;

#[test]
fn b1_struct_fields_flatten_with_sequential_locations() {
    let l = ok(VS, "main", ir::ShaderStage::Vertex);
    assert_eq!(
        summary(&l),
        [
            "input.pos in loc 0 input_pos NextFreeLocation",
            "input.normal in loc 1 input_normal NextFreeLocation",
            "input.uv in loc 2 input_uv NextFreeLocation",
            "vid in gl_VertexIndex gl_VertexIndex TableRow",
            "return.pos out gl_Position gl_Position TableRow",
            "return.normal out loc 0 entryPointParam_main_normal NextFreeLocation",
            "return.uv out loc 1 entryPointParam_main_uv NextFreeLocation",
            "return.id out loc 2 flat entryPointParam_main_id NextFreeLocation",
        ]
    );
    let ep = &l.module.entry_points[0];
    let main = &l.module.functions[ep.function];
    assert!(main.params.is_empty() && main.result.is_none());
    assert_eq!(l.module.entry_points.len(), 1);
}

#[test]
fn b1_no_semantic_survives_on_the_interface() {
    let l = ok(VS, "main", ir::ShaderStage::Vertex);
    for (_, g) in l.module.globals.iter() {
        if matches!(g.space, ir::AddressSpace::Input | ir::AddressSpace::Output) {
            let binding = g.io.as_ref().and_then(|io| io.binding.clone());
            assert!(
                !matches!(binding, Some(ir::Binding::Semantic(_)) | None),
                "{}: {binding:?}",
                g.name
            );
        }
    }
}

#[test]
fn b6_vertex_index_is_rebased_and_needs_460() {
    let l = ok(VS, "main", ir::ShaderStage::Vertex);
    assert_eq!(l.plan.version(), 460);
    let text = ir::print::print_module(&l.module);
    assert!(
        text.contains("uint(gl_VertexIndex - gl_BaseVertex)"),
        "{text}"
    );
}

#[test]
fn explicit_and_indexed_locations_are_reserved_first() {
    let l = ok(
        r#"
        struct PsOut { float4 a : SV_Target2; float4 b : SV_Target0; [[vk::location(1)]] float4 c : SV_Target5; };
        struct PsIn { float2 uv : TEXCOORD; [[vk::location(0)]] float4 color : COLOR; nointerpolation int4 ids : IDS; float4 pos : SV_Position; };
        PsOut main(PsIn i) { PsOut o; o.a = i.color; o.b = float4(i.uv, 0, 1); o.c = i.ids; return o; }
        "#,
        "main",
        ir::ShaderStage::Fragment,
    );
    assert_eq!(
        summary(&l),
        [
            "i.uv in loc 1 i_uv NextFreeLocation",
            "i.color in loc 0 i_color ExplicitLocation",
            "i.ids in loc 2 flat i_ids NextFreeLocation",
            "i.pos in gl_FragCoord gl_FragCoord TableRow",
            "return.a out loc 2 entryPointParam_main_a SemanticIndex",
            "return.b out loc 0 entryPointParam_main_b SemanticIndex",
            "return.c out loc 1 entryPointParam_main_c ExplicitLocation",
        ]
    );
}

#[test]
fn wide_varyings_take_several_locations() {
    let l = ok(
        r#"
        struct O { float4 pos : SV_Position; float4x4 m : MATRIX; float2 pair[3] : PAIRS; double4 d : WIDE; float last : LAST; };
        O main(float4 p : POSITION) { O o = (O)0; o.pos = p; return o; }
        "#,
        "main",
        ir::ShaderStage::Vertex,
    );
    let locations: Vec<(String, u32)> = l
        .plan
        .leaves
        .iter()
        .filter_map(|leaf| match leaf.target {
            Target::Location { location, .. } if leaf.direction == Direction::Output => {
                Some((leaf.path.clone(), location))
            }
            _ => None,
        })
        .collect();
    let want = [
        ("return.m", 0),
        ("return.pair", 4),
        ("return.d", 7),
        ("return.last", 9),
    ];
    assert_eq!(locations, want.map(|(p, l)| (p.to_string(), l)));
}

#[test]
fn b3_compute_ids_and_narrowing() {
    let l = ok(
        r#"
        RWStructuredBuffer<uint> o;
        [numthreads(4, 4, 1)]
        void main(uint3 d : SV_DispatchThreadID, uint3 g : SV_GroupID, uint2 t : SV_GroupThreadID, uint i : SV_GroupIndex) {
            o[i] = d.x + g.y + t.x;
        }
        "#,
        "main",
        ir::ShaderStage::Compute,
    );
    let text = ir::print::print_module(&l.module);
    for want in [
        "d_value = gl_GlobalInvocationID;",
        "g_value = gl_WorkGroupID;",
        "t_value = uint2(gl_LocalInvocationID);",
        "i_value = gl_LocalInvocationIndex;",
    ] {
        assert!(text.contains(want), "missing `{want}` in\n{text}");
    }
    // A second `SV_DispatchThreadID` parameter is a front-end error now
    // (E31013, duplicate system value); one builtin global per value.
    assert_eq!(
        text.matches("global in uint3 gl_GlobalInvocationID")
            .count(),
        1,
        "{text}"
    );
    assert_eq!(l.plan.version(), 450);
}

#[test]
fn b4_fragment_position_and_face() {
    let l = ok(
        r#"
        float4 main(float4 p : SV_Position, bool front : SV_IsFrontFace, float2 uv : TEXCOORD) : SV_Target { return front ? p : float4(uv, 0, 1); }
        "#,
        "main",
        ir::ShaderStage::Fragment,
    );
    assert_eq!(
        summary(&l),
        [
            "p in gl_FragCoord gl_FragCoord TableRow",
            "front in gl_FrontFacing gl_FrontFacing TableRow",
            "uv in loc 0 uv NextFreeLocation",
            "return out loc 0 entryPointParam_main SemanticIndex",
        ]
    );
}

#[test]
fn out_and_inout_parameters_and_uniforms() {
    let l = ok(
        r#"
        Texture2D tex; SamplerState s;
        void main(float2 uv : TEXCOORD, uniform float4 tint, out float4 color : SV_Target0, out float depth : SV_Depth) {
            color = tex.Sample(s, uv) * tint;
            depth = 0.5;
        }
        "#,
        "main",
        ir::ShaderStage::Fragment,
    );
    assert_eq!(
        summary(&l),
        [
            "uv in loc 0 uv NextFreeLocation",
            "tint in uniform tint Uniform",
            "color out loc 0 entryPointParam_main_color SemanticIndex",
            "depth out gl_FragDepth gl_FragDepth TableRow",
        ]
    );
}

#[test]
fn other_entry_points_and_their_globals_are_pruned() {
    let src = r#"
        groupshared float cache[64];
        RWStructuredBuffer<float> data;
        float helper(float x) { return x * 2; }
        [shader("compute")] [numthreads(64, 1, 1)]
        void cs(uint i : SV_GroupIndex) { cache[i] = data[i]; GroupMemoryBarrierWithGroupSync(); data[i] = helper(cache[63 - i]); }
        [shader("vertex")]
        float4 vs(float4 p : POSITION) : SV_Position { return p; }
    "#;
    let l = ok(src, "vs", ir::ShaderStage::Vertex);
    let names: Vec<&str> = l
        .module
        .globals
        .iter()
        .map(|(_, g)| g.name.as_str())
        .collect();
    assert!(
        !names.contains(&"cache") && !names.contains(&"data"),
        "{names:?}"
    );
    let functions: Vec<&str> = l
        .module
        .functions
        .iter()
        .map(|(_, f)| f.name.as_str())
        .collect();
    assert_eq!(functions, ["vs", "vs_entry"]);
}

#[test]
fn b5_unknown_system_value_points_at_the_declaration() {
    let e = err(
        "struct I { float4 extra : SV_Bogus; }; float4 main(I i) : SV_Position { return i.extra; }",
        "main",
        ir::ShaderStage::Vertex,
    );
    assert_eq!(
        e,
        [(
            "E49999".into(),
            "unknown system-value semantic".into(),
            "extra".into()
        )]
    );
    let e = err(
        "float4 main(float4 p : SV_Postion) : SV_Position { return p; }",
        "main",
        ir::ShaderStage::Vertex,
    );
    assert_eq!(e[0].0, "E49999");
    assert_eq!(e[0].2, "p");
}

#[test]
fn system_values_outside_their_stage() {
    // The front end rejects a system value outside its stage first, with the
    // same code; the legalizer keeps the check for modules from elsewhere.
    // Here: a compute module whose entry point is relabelled a vertex one.
    let src = "[numthreads(1,1,1)] void main(uint3 id : SV_DispatchThreadID) { }";
    let mut module = front(src, "main", ir::ShaderStage::Compute);
    module.entry_points[0].stage = ir::ShaderStage::Vertex;
    let errors =
        Glsl::legalize(&module, 0, &ir::Policy::default()).expect_err("legalization fails");
    let e: Vec<_> = errors
        .iter()
        .map(|d| {
            (
                d.code_str(),
                d.message.clone(),
                src[d.primary_span().range()].to_string(),
            )
        })
        .collect();
    assert_eq!(e[0].2, "id");
    assert_eq!(e[0].0, "E49990");
    assert!(
        e[0].1
            .contains("`SV_DispatchThreadID` is not available as a vertex input"),
        "{}",
        e[0].1
    );
    // A vector clip distance covers consecutive elements of
    // gl_ClipDistance from its index (B15); two declarations on one element
    // are refused, naming both.
    let l = ok(
        "float4 main(float4 p : POSITION, out float2 c : SV_ClipDistance0, out float d : SV_ClipDistance2) \
         : SV_Position { c = p.xy; d = p.z; return p; }",
        "main",
        ir::ShaderStage::Vertex,
    );
    let elements: Vec<(String, Option<u32>)> = l
        .plan
        .leaves
        .iter()
        .filter_map(|leaf| match &leaf.target {
            Target::BuiltIn { element, .. } if element.is_some() => {
                Some((leaf.path.clone(), *element))
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        elements,
        [
            ("c.x".to_string(), Some(0)),
            ("c.y".to_string(), Some(1)),
            ("d".to_string(), Some(2)),
        ]
    );
    let text = ir::print::print_module(&l.module);
    assert!(text.contains("= c_value.y;"), "{text}");
    // Registers pack in semantic-index order, D3D's way: a float2 at
    // index 0 then a float at index 1 are elements 0, 1 and 2.
    let l = ok(
        "float4 main(float4 p : POSITION, out float2 c : SV_ClipDistance0, out float d : SV_ClipDistance1) \
         : SV_Position { c = p.xy; d = p.z; return p; }",
        "main",
        ir::ShaderStage::Vertex,
    );
    let elements: Vec<(&str, Option<u32>)> = l
        .plan
        .leaves
        .iter()
        .filter_map(|leaf| match &leaf.target {
            Target::BuiltIn {
                value: ir::SystemValue::ClipDistance,
                element,
                ..
            } => Some((leaf.path.as_str(), *element)),
            _ => None,
        })
        .collect();
    assert_eq!(
        elements,
        [("c.x", Some(0)), ("c.y", Some(1)), ("d", Some(2))]
    );
    // Two declarations on one register (`d[1]` is register 1, as `c`) is
    // E49993 on the element they share.
    let e = err(
        "float4 main(float4 p : POSITION, out float2 c : SV_ClipDistance1, out float d[2] : SV_ClipDistance0) \
         : SV_Position { c = p.xy; d[0] = p.z; d[1] = p.w; return p; }",
        "main",
        ir::ShaderStage::Vertex,
    );
    assert_eq!(
        e[0],
        (
            "E49993".to_string(),
            "`c.x` and `d[1]` both use `gl_ClipDistance[1]`".to_string(),
            "d".to_string()
        )
    );
    // So does an array of distances, element by element.
    let l = ok(
        "float4 main(float4 p : POSITION, out float c[2] : SV_CullDistance1) : SV_Position \
         { c[0] = p.x; c[1] = p.y; return p; }",
        "main",
        ir::ShaderStage::Vertex,
    );
    let paths: Vec<(&str, Option<Part>)> = l
        .plan
        .leaves
        .iter()
        .map(|leaf| (leaf.path.as_str(), leaf.part))
        .collect();
    assert_eq!(
        paths,
        [
            ("p", None),
            ("c[0]", Some(Part::Element(0))),
            ("c[1]", Some(Part::Element(1))),
            ("return", None),
        ]
    );
    let text = ir::print::print_module(&l.module);
    assert!(text.contains("= c_value[1u];"), "{text}");
    // Eight elements each and together: E49998 at the declaration past it.
    let e = err(
        "float4 main(float4 p : POSITION, out float4 c : SV_ClipDistance0, out float4 d : SV_ClipDistance1, \
         out float e : SV_ClipDistance2) : SV_Position { c = p; d = p; e = 0; return p; }",
        "main",
        ir::ShaderStage::Vertex,
    );
    assert_eq!(
        e[0],
        (
            "E49998".to_string(),
            "`e` needs 9 elements of `SV_ClipDistance`; at most 8 are guaranteed".to_string(),
            "e".to_string()
        )
    );
    let e = err(
        "float4 main(float4 p : POSITION, out float4 c : SV_ClipDistance0, out float4 d : SV_CullDistance0, \
         out float x : SV_CullDistance4) : SV_Position { c = p; d = p; x = 0; return p; }",
        "main",
        ir::ShaderStage::Vertex,
    );
    assert_eq!(
        e[0],
        (
            "E49998".to_string(),
            "`x` makes 9 clip and cull distances together; at most 8 are guaranteed".to_string(),
            "x".to_string()
        )
    );
    let e = err(
        "[numthreads(1,1,1)] void main(uint3 id : MY_ID) { }",
        "main",
        ir::ShaderStage::Compute,
    );
    assert_eq!((e[0].0.as_str(), e[0].2.as_str()), ("E49995", "id"));
}

#[test]
fn location_conflicts_name_both_sides() {
    let e = err(
        "struct O { [[vk::location(0)]] float4 a : SV_Target0; [[vk::location(0)]] float4 b : SV_Target1; }; O main() { O o = (O)0; return o; }",
        "main",
        ir::ShaderStage::Fragment,
    );
    assert_eq!(e[0].0, "E49993");
    assert!(
        e[0].1
            .contains("`return.a` and `return.b` both use location 0"),
        "{}",
        e[0].1
    );
}

#[test]
fn unsupported_shapes_and_stages_are_coded() {
    let e = err(
        "struct V { float4 c : COLOR; }; struct O { float4 p : SV_Position; V v[2] : VS; }; O main() { O o = (O)0; return o; }",
        "main",
        ir::ShaderStage::Vertex,
    );
    assert_eq!(e[0].0, "E49994");
    // Every stage is legalized: a miss shader too.
    let module = front(
        "struct Payload { float4 color; }; \
         [shader(\"miss\")] void main(inout Payload p) { p.color = float4(0, 0, 0, 1); }",
        "main",
        ir::ShaderStage::Miss,
    );
    Glsl::legalize(&module, 0, &ir::Policy::default()).expect("a miss shader legalizes");
    let e = Glsl::legalize(&module, 5, &ir::Policy::default()).expect_err("no such entry point");
    assert_eq!(e[0].code_str(), "E49996");
}

#[test]
fn resource_locals_are_replaced_by_their_initializers() {
    let l = ok(
        r#"
        Texture2D textures[4]; SamplerState samplers[2];
        float4 main(float2 uv : TEXCOORD, nointerpolation uint i : INDEX) : SV_Target {
            SamplerState s = samplers[i & 1];
            Texture2D t = textures[i];
            return t.Sample(s, uv) + t.Sample(s, uv * 2);
        }
        "#,
        "main",
        ir::ShaderStage::Fragment,
    );
    let text = ir::print::print_module(&l.module);
    assert!(
        text.contains(".Sample(samplers[i#p1 & uint(1)], uv#p0)"),
        "{text}"
    );
    assert!(text.contains("return textures[i#p1].Sample("), "{text}");
    assert!(
        !text
            .lines()
            .any(|l| l.trim_start().starts_with("var SamplerState")),
        "{text}"
    );
    let e = err(
        r#"
        SamplerState a; SamplerState b;
        float4 main(float2 uv : TEXCOORD) : SV_Target { SamplerState s = a; s = b; Texture2D t; return t.Sample(s, uv); }
        "#,
        "main",
        ir::ShaderStage::Fragment,
    );
    assert!(
        e.iter().any(|d| d.0 == "E49994"
            && d.2 == "s"
            && d.1.contains("assigned after its declaration")),
        "{e:?}"
    );
}

#[test]
fn elements_of_arrayed_builtins() {
    let l = ok(
        r#"
        struct VsOut { float4 pos : SV_Position; float c0 : SV_ClipDistance0; float c1 : SV_ClipDistance1; };
        VsOut main(float4 p : POSITION) { VsOut o; o.pos = p; o.c0 = p.x; o.c1 = p.y; return o; }
        "#,
        "main",
        ir::ShaderStage::Vertex,
    );
    let text = ir::print::print_module(&l.module);
    assert!(text.contains("builtin(SV_ClipDistance[0])"), "{text}");
    assert!(text.contains("builtin(SV_ClipDistance[1])"), "{text}");
    let l = ok(
        "float4 main(uint mask : SV_Coverage, uint s : SV_SampleIndex) : SV_Target { return float4(mask, s, 0, 1); }",
        "main",
        ir::ShaderStage::Fragment,
    );
    let text = ir::print::print_module(&l.module);
    assert!(text.contains("builtin(SV_Coverage[0])"), "{text}");
    assert!(
        text.contains("mask_value = uint(gl_SampleMaskIn);"),
        "{text}"
    );
    assert!(text.contains("s_value = uint(gl_SampleID);"), "{text}");
}

#[test]
fn kept_globals_keep_their_initializers_and_what_they_name() {
    // `table` is used by the entry point; its initializer names `scale` (a
    // global kept only through it) and calls nothing. `unused` is dropped.
    let l = ok(
        r#"
        static const float scale = 2.0;
        static const float table[2] = { scale, scale * 3 };
        static const float unused = 5.0;
        float4 main(float4 p : POSITION) : SV_Position { return p * table[1]; }
        "#,
        "main",
        ir::ShaderStage::Vertex,
    );
    let names: Vec<&str> = l
        .module
        .globals
        .iter()
        .map(|(_, g)| g.name.as_str())
        .collect();
    assert!(
        names.contains(&"scale") && names.contains(&"table"),
        "{names:?}"
    );
    assert!(!names.contains(&"unused"), "{names:?}");
    let text = ir::print::print_module(&l.module);
    assert!(text.contains("table[2] = {scale, scale * "), "{text}");
}

const GS_HEAD: &str = "struct O { float4 p : SV_Position; float4 c : COLOR0; float2 uv : TEXCOORD0; double d : DBL; };\n";
const GS_BODY: &str = "[maxvertexcount(1)] void main(point float4 v[1] : SV_Position, inout PointStream<O> s) { O o = (O)0; o.p = v[0]; s.Append(o); }";

fn gs(attrs: &str) -> String {
    format!("{GS_HEAD}{attrs}\n{GS_BODY}")
}

#[test]
fn geometry_streams_become_outputs_and_emits() {
    let l = ok(
        "struct O { float4 p : SV_Position; uint layer : SV_RenderTargetArrayIndex; float2 uv : TEXCOORD0; };\n\
         [maxvertexcount(3)] [instance(2)] void main(triangle float2 uv[3] : TEXCOORD0, uint prim : SV_PrimitiveID, \
         inout TriangleStream<O> s) { for (uint i = 0; i < 3; ++i) { O o = (O)0; o.uv = uv[i]; o.layer = prim; s.Append(o); } s.RestartStrip(); }",
        "main",
        ir::ShaderStage::Geometry,
    );
    assert_eq!(
        summary(&l),
        [
            "uv in loc 0 uv NextFreeLocation",
            "prim in gl_PrimitiveIDIn gl_PrimitiveIDIn TableRow",
            "s.p out gl_Position gl_Position TableRow",
            "s.layer out gl_Layer gl_Layer TableRow",
            "s.uv out loc 0 entryPointParam_main_s_uv NextFreeLocation",
        ]
    );
    let attrs = &l.module.entry_points[0].attributes;
    assert_eq!(attrs.input_primitive, Some(ir::InputPrimitive::Triangle));
    assert_eq!(attrs.output_stream, Some(ir::StreamKind::Triangle));
    let text = ir::print::print_module(&l.module);
    assert!(text.contains("emit_vertex(stream 0);"), "{text}");
    assert!(text.contains("end_primitive(stream 0);"), "{text}");
    // The original entry function lost its stream parameter.
    assert!(!text.contains("TriangleStream"), "{text}");
}

#[test]
fn geometry_rejections_are_coded() {
    // A stream handed to another function.
    let e = err(
        "struct O { float4 p : SV_Position; }; void put(inout PointStream<O> s, O o) { s.Append(o); }\n\
         [maxvertexcount(1)] void main(point float4 v[1] : SV_Position, inout PointStream<O> s) { O o; o.p = v[0]; put(s, o); }",
        "main",
        ir::ShaderStage::Geometry,
    );
    assert_eq!(e[0].0, "E49991", "{e:?}");
    assert_eq!(e[0].2, "s");
    // A builtin of the whole primitive inside the per-vertex struct.
    let e = err(
        "struct V { float4 p : SV_Position; uint prim : SV_PrimitiveID; }; struct O { float4 p : SV_Position; };\n\
         [maxvertexcount(1)] void main(point V v[1], inout PointStream<O> s) { O o; o.p = v[0].p; s.Append(o); }",
        "main",
        ir::ShaderStage::Geometry,
    );
    assert_eq!(e[0].0, "E49990", "{e:?}");
    assert_eq!(
        e[0].1,
        "system value `SV_PrimitiveID` has one value per primitive, not per vertex: \
         declare it as a parameter of its own, not as a field of the input primitive"
    );
    assert_eq!(e[0].2, "prim");
    // A per-vertex element of an arrayed builtin: `gl_in[i].gl_ClipDistance[k]`,
    // a vector spread over consecutive elements; alone, the register of
    // `SV_ClipDistance1` is the first, at element 0.
    let l = ok(
        "struct V { float4 p : SV_Position; float2 c : SV_ClipDistance1; }; struct O { float4 p : SV_Position; };\n\
         [maxvertexcount(1)] void main(point V v[1], inout PointStream<O> s) { O o; o.p = v[0].p * v[0].c.y; s.Append(o); }",
        "main",
        ir::ShaderStage::Geometry,
    );
    let elements: Vec<(&str, Option<u32>)> = l
        .plan
        .leaves
        .iter()
        .filter_map(|leaf| match &leaf.target {
            Target::BuiltIn { element, .. } if element.is_some() => {
                Some((leaf.path.as_str(), *element))
            }
            _ => None,
        })
        .collect();
    assert_eq!(elements, [("v.c.x", Some(0)), ("v.c.y", Some(1))]);
    let text = ir::print::print_module(&l.module);
    assert!(text.contains("v_value[0u].c.y = gl_ClipDistance"), "{text}");
    // Streams of different primitive kinds.
    let e = err(
        "struct O { float4 p : SV_Position; }; struct Q { float4 d : DIR; };\n\
         [maxvertexcount(1)] void main(point float4 v[1] : SV_Position, inout PointStream<O> s, inout TriangleStream<Q> t) \
         { O o; o.p = v[0]; s.Append(o); Q q; q.d = v[0]; t.Append(q); }",
        "main",
        ir::ShaderStage::Geometry,
    );
    assert_eq!(e[0].0, "E49994", "{e:?}");
    assert_eq!(
        e[0].1,
        "output stream `t` is a TriangleStream<Q>; every output stream of one geometry shader \
         must have the same primitive kind"
    );
    assert_eq!(e[0].2, "t");
    // A builtin output of a stream other than 0.
    let e = err(
        "struct O { float4 p : SV_Position; }; struct Q { float4 p : SV_Position; };\n\
         [maxvertexcount(1)] void main(point float4 v[1] : SV_Position, inout PointStream<O> s, inout PointStream<Q> t) \
         { O o; o.p = v[0]; s.Append(o); Q q; q.p = v[0]; t.Append(q); }",
        "main",
        ir::ShaderStage::Geometry,
    );
    assert_eq!(e[0].0, "E49991", "{e:?}");
}

#[test]
fn stream_output_declarations_are_checked() {
    let cases: &[(&str, &str, &str, &str)] = &[
        (
            r#"[StreamOutput(0, "0:NORMAL.xyz")]"#,
            "E49101",
            "stream 0 has no output with semantic `NORMAL0`",
            "0:NORMAL.xyz",
        ),
        (
            r#"[StreamOutput(0, "COLOR0.xz")]"#,
            "E49101",
            "stream-output entry `COLOR0.xz`: `.xz` is not a mask of consecutive components (`.xy`, `.yzw`)",
            "COLOR0.xz",
        ),
        (
            r#"[StreamOutput(0, "TEXCOORD0.yzw")]"#,
            "E49101",
            "the mask selects components the 2-component output `s.uv` does not have",
            "TEXCOORD0.yzw",
        ),
        (
            r#"[StreamOutput(0, "x:COLOR0")]"#,
            "E49101",
            "stream-output entry `x:COLOR0`: `x` is not a buffer slot number",
            "x:COLOR0",
        ),
        (
            r#"[StreamOutput(0, "1:COL-OR")]"#,
            "E49101",
            "stream-output entry `1:COL-OR`: expected a semantic name",
            "1:COL-OR",
        ),
        (
            r#"[StreamOutput(0, "DBL")]"#,
            "E49101",
            "`s.d` is not a 32-bit scalar or vector; stream output captures only those",
            "DBL",
        ),
        (
            r#"[StreamOutput(0, "4:COLOR0")]"#,
            "E49102",
            "buffer slot 4 is out of range; slots are 0 to 3",
            "4:COLOR0",
        ),
        (
            r#"[StreamOutput(0, "COLOR0")] [StreamOutputStride(0, 12)]"#,
            "E49102",
            "the stride of buffer slot 0 must be a multiple of 4 from 16 (its declarations' extent) to 2048 bytes, not 12",
            "StreamOutputStride(0, 12)",
        ),
        (
            r#"[StreamOutput(0, "COLOR0")] [StreamOutputStride(1, 16)]"#,
            "E49101",
            "no stream-output declaration uses buffer slot 1",
            "StreamOutputStride(1, 16)",
        ),
    ];
    for &(attrs, code, message, under) in cases {
        let e = err(&gs(attrs), "main", ir::ShaderStage::Geometry);
        assert_eq!(e[0], (code.into(), message.into(), under.into()), "{attrs}");
    }
    let long = format!(
        r#"[StreamOutput(0, "{}COLOR0")]"#,
        "$SKIP.xyzw; ".repeat(2048 / 16)
    );
    let e = err(&gs(&long), "main", ir::ShaderStage::Geometry);
    assert_eq!(e[0].0, "E49102", "{e:?}");
    assert!(e[0].1.contains("more than 64 components"), "{e:?}");
}

#[test]
fn stream_output_offsets_and_strides() {
    let l = ok(
        &gs(
            r#"[StreamOutput(0, "0:COLOR0; 0:$SKIP.xy; 0:TEXCOORD0; 3:SV_Position.w")] [StreamOutputStride(0, 32)]"#,
        ),
        "main",
        ir::ShaderStage::Geometry,
    );
    let mut xfb: Vec<(String, ir::Xfb)> = l
        .module
        .globals
        .iter()
        .filter_map(|(_, g)| Some((g.name.clone(), g.io.as_ref()?.xfb?)))
        .collect();
    xfb.sort_by_key(|(_, x)| (x.buffer, x.offset));
    let x = |buffer, offset, stride| ir::Xfb {
        buffer,
        offset,
        stride,
    };
    assert_eq!(
        xfb,
        [
            ("entryPointParam_main_s_c".to_string(), x(0, 0, 32)),
            ("entryPointParam_main_s_uv".to_string(), x(0, 24, 32)),
            ("xfb_Position".to_string(), x(3, 0, 4)),
        ]
    );
}

#[test]
fn get_attribute_at_vertex_reads_a_per_vertex_array_of_a_plain_input() {
    let l = ok(
        r#"
        float4 main(float4 pos : SV_Position, nointerpolation float3 c : COLOR) : SV_Target {
            return float4(GetAttributeAtVertex(c, 0) + GetAttributeAtVertex(c, 2), pos.x);
        }
        "#,
        "main",
        ir::ShaderStage::Fragment,
    );
    let leaf = l.plan.leaves.iter().find(|leaf| leaf.path == "c").unwrap();
    assert!(leaf.per_vertex, "{leaf:?}");
    let text = ir::print::print_module(&l.module);
    assert!(
        text.contains("float3 c[3] : location(0, per_vertex);"),
        "{text}"
    );
    assert_eq!(text.matches("c[3]").count(), 1, "one array: {text}");
    // A local, a builtin and a matrix input are not per-vertex inputs.
    let e = err(
        r#"
        float4 main(float4 pos : SV_Position, nointerpolation float2x2 m : MATRIX,
                    nointerpolation float3 c : COLOR) : SV_Target {
            float3 local = c;
            float3 a = GetAttributeAtVertex(local, 0);
            float4 b = GetAttributeAtVertex(pos, 1);
            float2x2 d = GetAttributeAtVertex(m, 2);
            return float4(a, b.x + d[0][0]);
        }
        "#,
        "main",
        ir::ShaderStage::Fragment,
    );
    let got: Vec<(&str, &str)> = e.iter().map(|(c, _, t)| (c.as_str(), t.as_str())).collect();
    assert_eq!(
        got,
        [
            ("E49997", "GetAttributeAtVertex(local, 0)"),
            ("E49997", "GetAttributeAtVertex(pos, 1)"),
            ("E49997", "GetAttributeAtVertex(m, 2)"),
        ]
    );
}

fn with_policy(src: &str, stage: ir::ShaderStage, policy: ir::Policy) -> (Legalized, String) {
    let module = front(src, "main", stage);
    let legalized = Glsl::legalize(&module, 0, &policy).unwrap_or_else(|e| panic!("{e:#?}"));
    ir::verify::verify(&legalized.module).expect("the verifier accepts the legalized module");
    let text = ir::print::print_module(&legalized.module);
    (legalized, text)
}

#[test]
fn policy_invert_y_negates_the_written_position() {
    let invert = ir::Policy {
        invert_y: true,
        ..ir::Policy::default()
    };
    let (_, text) = with_policy(VS, ir::ShaderStage::Vertex, invert);
    assert!(text.contains("gl_Position.y = -gl_Position.y"), "{text}");
    let (_, plain) = with_policy(VS, ir::ShaderStage::Vertex, ir::Policy::default());
    assert!(!plain.contains("-gl_Position.y"), "{plain}");
}

#[test]
fn policy_dx_position_w_reads_the_reciprocal() {
    let src =
        "float4 main(float4 p : SV_Position, float4 q : TEXCOORD) : SV_Target { return p + q; }";
    let dx = ir::Policy {
        dx_position_w: true,
        invert_y: true,
        ..ir::Policy::default()
    };
    let (_, text) = with_policy(src, ir::ShaderStage::Fragment, dx);
    assert!(text.contains("1.0 / gl_FragCoord.w"), "{text}");
    let (_, plain) = with_policy(src, ir::ShaderStage::Fragment, ir::Policy::default());
    assert!(!plain.contains("gl_FragCoord.w"), "{plain}");
}

#[test]
fn policy_raw_vertex_ids_read_the_bare_index() {
    let src = "float4 main(uint vid : SV_VertexID, uint iid : SV_InstanceID) : SV_Position { return float4(vid, iid, 0, 1); }";
    let raw = ir::Policy {
        vertex_ids: ir::VertexIdBase::Raw,
        ..ir::Policy::default()
    };
    let (l, text) = with_policy(src, ir::ShaderStage::Vertex, raw);
    assert_eq!(l.plan.version(), 450);
    assert!(text.contains("uint(gl_VertexIndex)"), "{text}");
    assert!(text.contains("uint(gl_InstanceIndex)"), "{text}");
    assert!(!text.contains("gl_Base"), "{text}");
    assert_eq!(
        summary(&l)[..2],
        [
            "vid in gl_VertexIndex gl_VertexIndex TableRow",
            "iid in gl_InstanceIndex gl_InstanceIndex TableRow",
        ]
    );
    let (rebased, _) = with_policy(src, ir::ShaderStage::Vertex, ir::Policy::default());
    assert_eq!(rebased.plan.version(), 460);
}

#[test]
fn policy_invert_y_applies_at_each_geometry_append() {
    let invert = ir::Policy {
        invert_y: true,
        ..ir::Policy::default()
    };
    let src = "struct O { float4 p : SV_Position; };\n\
         [maxvertexcount(2)] void main(point float4 v[1] : SV_Position, inout PointStream<O> s) \
         { O o; o.p = v[0]; s.Append(o); s.Append(o); }";
    let (_, text) = with_policy(src, ir::ShaderStage::Geometry, invert);
    // The printer tells the output from the `gl_in[]` input by a suffix.
    assert_eq!(text.matches(".y = -gl_Position#g1.y;").count(), 2, "{text}");
    let (_, plain) = with_policy(src, ir::ShaderStage::Geometry, ir::Policy::default());
    assert!(!plain.contains("-gl_Position.y"), "{plain}");
}

#[test]
fn stream_output_slots_spans_and_copies() {
    // One slot, two streams: the second use is refused, labelled at the first.
    let src = "struct O { float4 p : SV_Position; float4 c : COLOR0; }; struct Q { float4 d : DIR; };\n\
         [StreamOutput(0, \"COLOR0\")] [StreamOutput(1, \"DIR\")]\n\
         [maxvertexcount(1)] void main(point float4 v[1] : SV_Position, inout PointStream<O> s, inout PointStream<Q> t) \
         { O o = (O)0; o.p = v[0]; s.Append(o); Q q; q.d = v[0]; t.Append(q); }";
    let module = front(src, "main", ir::ShaderStage::Geometry);
    let e = Glsl::legalize(&module, 0, &ir::Policy::default()).expect_err("two streams in slot 0");
    assert_eq!(e[0].code_str(), "E49101");
    assert_eq!(
        e[0].message,
        "buffer slot 0 already captures stream 0; one slot holds one stream"
    );
    assert_eq!(&src[e[0].primary_span().range()], "DIR");
    assert_eq!(&src[e[0].labels[1].span.range()], "COLOR0");
    // A component letter that is no component; empty entries are skipped.
    let e = err(
        &gs(r#"[StreamOutput(0, "COLOR0;; COLOR0.xq")]"#),
        "main",
        ir::ShaderStage::Geometry,
    );
    assert_eq!(e[0].0, "E49101", "{e:?}");
    assert_eq!(e[0].2, "COLOR0.xq");
    // With an escape in the literal the entry's place is unknown: the
    // diagnostic points at the whole string.
    let src = gs("[StreamOutput(0, \"COLOR0.q\\t\")]");
    let e = err(&src, "main", ir::ShaderStage::Geometry);
    assert_eq!(e[0].2, "\"COLOR0.q\\t\"", "{e:?}");
    // A whole builtin is captured through a copy of the same type.
    let l = ok(
        &gs(r#"[StreamOutput(0, "SV_Position")]"#),
        "main",
        ir::ShaderStage::Geometry,
    );
    let text = ir::print::print_module(&l.module);
    assert!(text.contains("xfb_Position = vertex.p;"), "{text}");
    // An output captured twice: in place once, then through a copy.
    let l = ok(
        &gs(r#"[StreamOutput(0, "0:COLOR0; 1:COLOR0")]"#),
        "main",
        ir::ShaderStage::Geometry,
    );
    let mut xfb: Vec<(String, u32)> = l
        .module
        .globals
        .iter()
        .filter_map(|(_, g)| Some((g.name.clone(), g.io.as_ref()?.xfb?.buffer)))
        .collect();
    xfb.sort();
    assert_eq!(
        xfb,
        [
            ("entryPointParam_main_s_c".to_string(), 0),
            ("xfb_entryPointParam_main_s_c".to_string(), 1),
        ]
    );
    // So is a scalar builtin.
    let l = ok(
        "struct O { float4 p : SV_Position; uint layer : SV_RenderTargetArrayIndex; };\n\
         [StreamOutput(0, \"SV_RenderTargetArrayIndex\")]\n\
         [maxvertexcount(1)] void main(point float4 v[1] : SV_Position, inout PointStream<O> s) \
         { O o; o.p = v[0]; o.layer = 2; s.Append(o); }",
        "main",
        ir::ShaderStage::Geometry,
    );
    let text = ir::print::print_module(&l.module);
    assert!(text.contains("xfb_Layer = vertex.layer;"), "{text}");
}

#[test]
fn geometry_leaves_other_appends_and_intrinsics_alone() {
    let l = ok(
        "struct O { float4 p : SV_Position; }; AppendStructuredBuffer<float4> log; RWByteAddressBuffer counter;\n\
         [maxvertexcount(1)] void main(point float4 v[1] : SV_Position, inout PointStream<O> s) \
         { O o; o.p = v[0]; log.Append(o.p); counter.InterlockedAdd(0, 1); s.Append(o); }",
        "main",
        ir::ShaderStage::Geometry,
    );
    let text = ir::print::print_module(&l.module);
    assert!(text.contains("log.Append(o.p);"), "{text}");
    assert_eq!(text.matches("emit_vertex(stream 0);").count(), 1, "{text}");
}

#[test]
fn domain_patch_constants_follow_the_control_points() {
    // Quad: the factors have the builtins' own sizes and are read whole;
    // the patch constant comes after both control-point locations even
    // though its parameter comes first.
    let l = ok(
        "struct CP { float4 p : POSITION; float2 uv : TEXCOORD0; };\n\
         struct PC { float e[4] : SV_TessFactor; float i[2] : SV_InsideTessFactor; float w : WEIGHT; };\n\
         [domain(\"quad\")] float4 main(PC pc, float2 uv : SV_DomainLocation, const OutputPatch<CP, 4> patch) : SV_Position \
         { return patch[0].p * uv.x * pc.e[3] * pc.i[1] * pc.w; }",
        "main",
        ir::ShaderStage::Domain,
    );
    assert_eq!(
        summary(&l),
        [
            "pc.e in gl_TessLevelOuter gl_TessLevelOuter TableRow",
            "pc.i in gl_TessLevelInner gl_TessLevelInner TableRow",
            "pc.w in loc 2 pc_w NextFreeLocation",
            "uv in gl_TessCoord gl_TessCoord TableRow",
            "patch.p in loc 0 patch_p NextFreeLocation",
            "patch.uv in loc 1 patch_uv NextFreeLocation",
            "return out gl_Position gl_Position TableRow",
        ]
    );
    let text = ir::print::print_module(&l.module);
    assert!(text.contains("pc_value.e = gl_TessLevelOuter;"), "{text}");
    assert!(text.contains("float4 patch_p[32]"), "{text}");
    assert!(text.contains("location(2, patch)"), "{text}");
    // Isoline: two outer factors, the first two elements.
    let l = ok(
        "struct CP { float4 p : POSITION; }; struct PC { float e[2] : SV_TessFactor; };\n\
         [domain(\"isoline\")] float4 main(PC pc, float2 uv : SV_DomainLocation, const OutputPatch<CP, 2> patch) : SV_Position \
         { return patch[1].p * uv.x * pc.e[1]; }",
        "main",
        ir::ShaderStage::Domain,
    );
    let text = ir::print::print_module(&l.module);
    assert!(
        text.contains("pc_value.e[1u] = gl_TessLevelOuter[1u];"),
        "{text}"
    );
    assert!(!text.contains("gl_TessLevelOuter[2u]"), "{text}");
}

/// A hull entry point over `cp`/`pc` declarations, with `params` for the
/// patch-constant function and `attrs` replacing the default attributes.
fn hs(decls: &str, pc_params: &str, pc_body: &str, partitioning: &str) -> String {
    format!(
        "{decls}\n\
         PC pcf({pc_params}) {{ PC o; {pc_body} return o; }}\n\
         [domain(\"tri\")] [partitioning(\"{partitioning}\")] [outputtopology(\"triangle_cw\")] \
         [outputcontrolpoints(3)] [patchconstantfunc(\"pcf\")]\n\
         CP main(InputPatch<CP, 3> patch, uint id : SV_OutputControlPointID) {{ return patch[id]; }}"
    )
}

const HS_DECLS: &str = "struct CP { float4 p : POSITION; float2 uv : TEXCOORD0; };\n\
     struct PC { float3 c : CENTER; float e[3] : SV_TessFactor; float i : SV_InsideTessFactor; };";

#[test]
fn hull_plan_numbers_patch_constants_after_the_control_points() {
    let src = hs(
        HS_DECLS,
        "InputPatch<CP, 3> ip, OutputPatch<CP, 3> op, uint prim : SV_PrimitiveID",
        "o.c = ip[0].p.xyz + op[1].p.xyz + float(prim); o.e[0] = 1; o.e[1] = 1; o.e[2] = 1; o.i = 1;",
        "integer",
    );
    let l = ok(&src, "main", ir::ShaderStage::Hull);
    assert_eq!(
        summary(&l),
        [
            "patch.p in loc 0 patch_p NextFreeLocation",
            "patch.uv in loc 1 patch_uv NextFreeLocation",
            "id in gl_InvocationID gl_InvocationID TableRow",
            "return.p out loc 0 entryPointParam_main_p NextFreeLocation",
            "return.uv out loc 1 entryPointParam_main_uv NextFreeLocation",
            "prim in gl_PrimitiveID gl_PrimitiveID TableRow",
            "pcf.return.c out loc 2 entryPointParam_pcf_c NextFreeLocation",
            "pcf.return.e out gl_TessLevelOuter gl_TessLevelOuter TableRow",
            "pcf.return.i out gl_TessLevelInner gl_TessLevelInner TableRow",
        ]
    );
    let call = l
        .plan
        .extra
        .patch_constant
        .as_ref()
        .expect("a patch-constant call");
    assert_eq!(
        call.args,
        [
            PatchArg::InputPatch(0),
            PatchArg::OutputPatch,
            PatchArg::Leaves
        ]
    );
    assert_eq!(call.control_points, 3);
    let roots: Vec<Root> = l.plan.leaves.iter().map(|leaf| leaf.root.clone()).collect();
    assert_eq!(roots[5], Root::PatchParam(2));
    assert_eq!(roots[8], Root::PatchResult);
    let text = ir::print::print_module(&l.module);
    // Only the control points are per vertex; the patch constant is `patch`.
    assert!(text.contains("float4 entryPointParam_main_p[3]"), "{text}");
    assert!(text.contains("location(2, patch)"), "{text}");
    assert!(text.contains("patch_barrier;"), "{text}");
    assert!(
        text.contains("op_value[2u].uv = entryPointParam_main_uv[2u];"),
        "{text}"
    );
    assert!(
        text.contains("gl_TessLevelInner[0u] = pcf_result.i;"),
        "{text}"
    );
}

#[test]
fn hull_rejections_are_coded() {
    let cases = [
        // A per-control-point value in the patch constants.
        (
            "struct CP { float4 p : POSITION; };\n\
             struct PC { float e[3] : SV_TessFactor; float i : SV_InsideTessFactor; float4 q : SV_Position; };"
                .to_string(),
            "InputPatch<CP, 3> ip",
            "E49990",
            "system value `SV_Position` has one value per control point, not per patch: \
             return it from the hull entry point, not the patch-constant function",
            "q",
        ),
        // A user-semantic parameter of the patch-constant function.
        (
            HS_DECLS.to_string(),
            "float3 c : CENTER",
            "E49990",
            "patch-constant parameter `c` needs a system-value semantic (`SV_PrimitiveID`, \
             `SV_OutputControlPointID`) or an `InputPatch`/`OutputPatch` type",
            "c",
        ),
        // An input patch of another size than the hull's.
        (
            HS_DECLS.to_string(),
            "InputPatch<CP, 4> ip",
            "E49994",
            "patch-constant parameter `ip` is `InputPatch<CP, 4>`, but hull entry point `main` has no \
             parameter of that type: the patch-constant function reads the hull's own input patch",
            "ip",
        ),
        // An output patch of another element type than the hull's result.
        (
            format!("{HS_DECLS}\nstruct Other {{ float4 p : POSITION; }};"),
            "OutputPatch<Other, 3> op",
            "E49994",
            "patch-constant parameter `op` is `OutputPatch<Other, 3>`, but hull entry point `main` \
             returns `CP` for 3 control points: an output patch must be `OutputPatch<CP, 3>`",
            "op",
        ),
    ];
    for (decls, params, code, message, under) in cases {
        let src = hs(&decls, params, "", "integer");
        let errors = err(&src, "main", ir::ShaderStage::Hull);
        assert_eq!(
            errors,
            [(code.to_string(), message.to_string(), under.to_string())],
            "{src}"
        );
    }
    // A per-patch value in the control point the hull returns.
    let src = "struct CP { float4 p : POSITION; };\n\
         struct CPO { float4 p : POSITION; float e[3] : SV_TessFactor; };\n\
         struct PC { float e[3] : SV_TessFactor; float i : SV_InsideTessFactor; };\n\
         PC pcf() { PC o; return o; }\n\
         [domain(\"tri\")] [partitioning(\"integer\")] [outputtopology(\"triangle_cw\")] \
         [outputcontrolpoints(3)] [patchconstantfunc(\"pcf\")]\n\
         CPO main(InputPatch<CP, 3> patch, uint id : SV_OutputControlPointID) { CPO o; o.p = patch[id].p; return o; }";
    assert_eq!(
        err(src, "main", ir::ShaderStage::Hull),
        [(
            "E49990".to_string(),
            "system value `SV_TessFactor` has one value per patch, not per control point: \
             return it from the patch-constant function"
                .to_string(),
            "e".to_string()
        )]
    );
    // `pow2` partitioning has no Vulkan spacing; the span is the entry
    // point's name.
    let src = hs(HS_DECLS, "", "", "pow2");
    let errors = err(&src, "main", ir::ShaderStage::Hull);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].0, "E49989");
    assert!(
        errors[0]
            .1
            .contains("`[partitioning(\"pow2\")]` has no Vulkan equivalent")
    );
    assert_eq!(errors[0].2, "main");
}

#[test]
fn policy_invert_y_negates_the_hull_control_point_it_writes() {
    let src = "struct CP { float4 p : SV_Position; };\n\
         struct PC { float e[3] : SV_TessFactor; float i : SV_InsideTessFactor; };\n\
         PC pcf() { PC o = (PC)0; return o; }\n\
         [domain(\"tri\")] [partitioning(\"integer\")] [outputtopology(\"triangle_cw\")] \
         [outputcontrolpoints(3)] [patchconstantfunc(\"pcf\")]\n\
         CP main(InputPatch<CP, 3> patch, uint id : SV_OutputControlPointID) { return patch[id]; }";
    let invert = ir::Policy {
        invert_y: true,
        ..ir::Policy::default()
    };
    let (_, text) = with_policy(src, ir::ShaderStage::Hull, invert);
    assert!(
        text.contains("gl_Position#g2[gl_InvocationID].y = -gl_Position#g2[gl_InvocationID].y"),
        "{text}"
    );
}

const MESH: &str = "struct V { float4 p : SV_Position; float2 uv : TEXCOORD0; };\n\
     struct P { uint layer : SV_RenderTargetArrayIndex; uint m : MATERIAL; };\n\
     [outputtopology(\"triangle\")] [numthreads(1, 1, 1)]\n\
     void main(uint3 g : SV_GroupID, out vertices V verts[3], out indices uint3 tris[1], out primitives P prims[1])\n\
     { SetMeshOutputCounts(3, 1); V v; v.p = float4(g[0], 0, 0, 1); v.uv = 0; verts[g[0]] = v; verts[1].p = 1; verts[2].p.x = 2; \
       tris[0] = uint3(0, 1, 2); prims[0].layer = g[1]; prims[0].m = 4; }";

#[test]
fn mesh_outputs_are_written_in_place() {
    let l = ok(MESH, "main", ir::ShaderStage::Mesh);
    assert_eq!(
        summary(&l),
        [
            "g in gl_WorkGroupID gl_WorkGroupID TableRow",
            "verts.p out gl_Position gl_Position TableRow",
            "verts.uv out loc 0 verts_uv NextFreeLocation",
            "prims.layer out gl_Layer gl_Layer TableRow",
            "prims.m out loc 1 flat prims_m NextFreeLocation",
        ]
    );
    let per_primitive: Vec<bool> = l
        .plan
        .leaves
        .iter()
        .map(|leaf| {
            matches!(
                leaf.target,
                Target::Location {
                    per_primitive: true,
                    ..
                }
            )
        })
        .collect();
    assert_eq!(per_primitive, [false, false, false, false, true]);
    let entry = &l.module.entry_points[0];
    assert_eq!(
        (
            entry.attributes.mesh_vertices,
            entry.attributes.mesh_primitives
        ),
        (Some(3), Some(1))
    );
    let text = ir::print::print_module(&l.module);
    // A whole vertex: through temporaries, one store per field.
    assert!(text.contains("gl_Position[index] = element.p;"), "{text}");
    assert!(text.contains("verts_uv[index] = element.uv;"), "{text}");
    // One field: in place; a swizzle of one: in place too.
    assert!(text.contains("gl_Position[1"), "{text}");
    assert!(
        text.contains("gl_Position[2u].x = 2") || text.contains("gl_Position[2].x"),
        "{text}"
    );
    // The builtin's `int`, from the declared `uint`.
    assert!(text.contains("gl_Layer[0] = int(g[1]);"), "{text}");
    assert!(text.contains(": primitive_indices"), "{text}");
}

#[test]
fn mesh_and_amplification_rejections_are_coded() {
    // A mesh output read back whole.
    let src = "struct V { float4 p : SV_Position; };\n\
         [outputtopology(\"triangle\")] [numthreads(1, 1, 1)]\n\
         void main(out vertices V verts[3], out indices uint3 tris[1]) \
         { SetMeshOutputCounts(3, 1); verts[0].p = 0; V copy = verts[0]; verts[1] = copy; tris[0] = 0; }";
    let e = err(src, "main", ir::ShaderStage::Mesh);
    assert_eq!(e.len(), 1, "{e:?}");
    assert_eq!((e[0].0.as_str(), e[0].2.as_str()), ("E49991", "verts"));
    assert!(
        e[0].1
            .starts_with("mesh output `verts` is used other than by writing"),
        "{e:?}"
    );
    // A per-primitive value in the vertex.
    let src = "struct V { float4 p : SV_Position; uint layer : SV_RenderTargetArrayIndex; };\n\
         [outputtopology(\"triangle\")] [numthreads(1, 1, 1)]\n\
         void main(out vertices V verts[3], out indices uint3 tris[1]) { SetMeshOutputCounts(3, 1); }";
    assert_eq!(
        err(src, "main", ir::ShaderStage::Mesh),
        [(
            "E49990".to_string(),
            "system value `SV_RenderTargetArrayIndex` has one value per primitive: declare it in \
             the element of the `out primitives` array"
                .to_string(),
            "layer".to_string()
        )]
    );
    // A per-vertex value in the primitive.
    let src = "struct V { float4 p : SV_Position; }; struct P { float q : SV_ClipDistance0; };\n\
         [outputtopology(\"triangle\")] [numthreads(1, 1, 1)]\n\
         void main(out vertices V verts[3], out indices uint3 tris[1], out primitives P prims[1]) \
         { SetMeshOutputCounts(3, 1); }";
    assert_eq!(
        err(src, "main", ir::ShaderStage::Mesh),
        [(
            "E49990".to_string(),
            "system value `SV_ClipDistance` has one value per vertex: declare it in the element of \
             the `out vertices` array"
                .to_string(),
            "q".to_string()
        )]
    );
    // A payload that is not `groupshared`, and two payloads.
    let src = "struct P { uint n; }; groupshared P a; groupshared P b;\n\
         [numthreads(1, 1, 1)] void main(uint i : SV_GroupIndex) { P local; local.n = i; \
         if (i == 0) DispatchMesh(1, 1, 1, local); else if (i == 1) DispatchMesh(1, 1, 1, a); else DispatchMesh(1, 1, 1, b); }";
    let e = err(src, "main", ir::ShaderStage::Amplification);
    assert_eq!(e.len(), 2, "{e:?}");
    assert_eq!(e[0].0, "E49994");
    assert_eq!(
        e[0].1,
        "the payload of `DispatchMesh` must be a `groupshared` variable"
    );
    assert_eq!(e[0].2, "DispatchMesh(1, 1, 1, local)");
    assert_eq!(e[1].0, "E49994");
    assert!(
        e[1].1.contains("an amplification shader has one payload"),
        "{e:?}"
    );
    assert_eq!(e[1].2, "DispatchMesh(1, 1, 1, b)");
}

#[test]
fn policy_invert_y_negates_each_mesh_position_written() {
    let invert = ir::Policy {
        invert_y: true,
        ..ir::Policy::default()
    };
    let whole = MESH.replace("verts[2].p.x = 2;", "");
    let (_, text) = with_policy(&whole, ir::ShaderStage::Mesh, invert);
    assert!(
        text.contains("gl_Position[index].y = -gl_Position[index].y"),
        "{text}"
    );
    assert!(
        text.contains("gl_Position[index#3].y = -gl_Position[index#3].y"),
        "{text}"
    );
    let (_, plain) = with_policy(&whole, ir::ShaderStage::Mesh, ir::Policy::default());
    assert!(!plain.contains(".y = -"), "{plain}");
    // A store of some components cannot be inverted: a coded refusal at it.
    let module = front(MESH, "main", ir::ShaderStage::Mesh);
    let e = Glsl::legalize(&module, 0, &invert).expect_err("a partial position write");
    assert_eq!(e[0].code_str(), "E49991");
    assert_eq!(&MESH[e[0].primary_span().range()], "verts[2].p");
}

/// Every entry point of `src` (no `-entry`), for linking.
fn whole(src: &str) -> ir::Module {
    let out = legalis_front::compile(src, &legalis_front::Options::default());
    out.module
        .unwrap_or_else(|| panic!("front end: {:#?}", out.diagnostics))
}

fn index_of(module: &ir::Module, name: &str) -> usize {
    module
        .entry_points
        .iter()
        .position(|e| e.name == name)
        .unwrap_or_else(|| panic!("no entry point {name}"))
}

#[test]
fn link_orders_one_pipeline_and_refuses_others() {
    use legalis_legalize::glsl::link::pipeline_order;
    let module = whole(
        "[shader(\"fragment\")] float4 fs(float4 c : COLOR) : SV_Target { return c; }\n\
         [shader(\"vertex\")] float4 vs(float4 p : POSITION, out float4 c : COLOR) : SV_Position { c = p; return p; }\n\
         [shader(\"compute\")] [numthreads(1, 1, 1)] void cs() {}\n\
         [shader(\"fragment\")] float4 fs2() : SV_Target { return 1; }\n\
         struct V { float4 p : SV_Position; };\n\
         [shader(\"mesh\")] [outputtopology(\"triangle\")] [numthreads(1, 1, 1)] \
         void ms(out vertices V v[3], out indices uint3 t[1]) { SetMeshOutputCounts(0, 0); }",
    );
    let (fs, vs, cs, fs2, ms) = (
        index_of(&module, "fs"),
        index_of(&module, "vs"),
        index_of(&module, "cs"),
        index_of(&module, "fs2"),
        index_of(&module, "ms"),
    );
    assert_eq!(pipeline_order(&module, &[fs, vs]), Ok(vec![vs, fs]));
    let codes = |chosen: &[usize]| -> Vec<String> {
        pipeline_order(&module, chosen)
            .expect_err("not one pipeline")
            .iter()
            .map(|d| format!("{} {}", d.code_str(), d.message))
            .collect()
    };
    assert_eq!(
        codes(&[vs, cs]),
        [
            "E49803 compute entry point `cs` is in no graphics pipeline: only vertex, hull, \
          domain, geometry, amplification, mesh and fragment stages link"
        ]
    );
    assert_eq!(
        codes(&[fs, fs2]),
        ["E49803 `fs` (fragment) and `fs2` (fragment) cannot be stages of one pipeline"]
    );
    assert_eq!(
        codes(&[vs, ms]),
        ["E49803 `vs` (vertex) and `ms` (mesh) cannot be stages of one pipeline"]
    );
}

#[test]
fn link_checks_interpolation_and_the_payload() {
    use legalis_legalize::glsl::link::link_inputs;
    let module = whole(
        "struct O { float4 p : SV_Position; noperspective float2 uv : UV; float w : W; };\n\
         [shader(\"vertex\")] O vs(float4 p : POSITION) { O o; o.p = p; o.uv = p.xy; o.w = 1; return o; }\n\
         [shader(\"fragment\")] float4 fs(float2 uv : UV, centroid float w : W) : SV_Target { return uv.xyxy * w; }\n\
         struct P { uint n; };\n\
         [shader(\"amplification\")] [numthreads(1, 1, 1)] void none() {}\n\
         struct V { float4 p : SV_Position; };\n\
         [shader(\"mesh\")] [outputtopology(\"triangle\")] [numthreads(1, 1, 1)] \
         void ms(in payload P pl, out vertices V v[3], out indices uint3 t[1]) { SetMeshOutputCounts(pl.n, 0); }",
    );
    let policy = ir::Policy::default();
    let own = |name: &str| {
        Glsl::legalize(&module, index_of(&module, name), &policy)
            .unwrap_or_else(|e| panic!("{e:#?}"))
    };
    let errors = link_inputs(&module, &own("vs"), &own("fs")).expect_err("noperspective");
    let texts: Vec<(String, String)> = errors
        .iter()
        .map(|d| (d.code_str(), d.message.clone()))
        .collect();
    assert_eq!(
        texts,
        [(
            "E49802".to_string(),
            "`uv` is interpolated `linear` in `fs` but declared `noperspective` in `vs`"
                .to_string()
        )]
    );
    // Sampling is not interpolation: `centroid` alone agrees with `linear`.
    let errors = link_inputs(&module, &own("none"), &own("ms")).expect_err("no payload");
    assert_eq!(errors[0].code_str(), "E49801");
    assert_eq!(
        errors[0].message,
        "`ms` reads a payload that `none` never dispatches"
    );
}

#[test]
fn inputs_without_semantics_take_the_next_free_location() {
    let l = ok(
        "float4 main(float4 p, float4 q : COLOR) : SV_Target { return p + q; }",
        "main",
        ir::ShaderStage::Fragment,
    );
    assert_eq!(
        summary(&l),
        [
            "p in loc 0 p NextFreeLocation",
            "q in loc 1 q NextFreeLocation",
            "return out loc 0 entryPointParam_main SemanticIndex",
        ]
    );
}

/// `name kind location reason` for every ray-tracing variable of the plan.
fn ray_summary(l: &Legalized) -> Vec<String> {
    l.plan
        .extra
        .ray
        .iter()
        .map(|v| {
            let location = v.location.map_or("-".into(), |l| l.to_string());
            format!("{} {:?} {location} {:?}", v.name, v.kind, v.reason)
        })
        .collect()
}

const RAY_TYPES: &str = r#"
struct P { float4 c; };
struct Q { float t; };
RaytracingAccelerationStructure scene;
RayDesc make() { RayDesc r; r.Origin = float3(0, 0, 0); r.TMin = 0; r.Direction = float3(0, 0, 1); r.TMax = 1; return r; }
"#;

#[test]
fn b12_payload_and_callable_counters_are_independent() {
    let src = format!(
        "{RAY_TYPES}
        void trace(inout Q q) {{ TraceRay(scene, 0, 0xFF, 0, 1, 0, make(), q); }}
        [shader(\"miss\")]
        void main([[vk::location(0)]] inout P p) {{
            Q q; q.t = 0; trace(q);
            P again; again.c = p.c; TraceRay(scene, 0, 0xFF, 0, 1, 0, make(), again);
            Q data; data.t = 1; CallShader(0, data); CallShader(1, data);
            p.c = again.c + q.t + data.t;
        }}"
    );
    let l = ok(&src, "main", ir::ShaderStage::Miss);
    assert_eq!(
        ray_summary(&l),
        [
            "p IncomingRayPayload 0 ExplicitLocation",
            "rayPayload_0 RayPayload 1 NextFreeLocation",
            "rayPayload_1 RayPayload 2 NextFreeLocation",
            "callableData_0 CallableData 0 NextFreeLocation",
            "callableData_1 CallableData 1 NextFreeLocation",
        ]
    );
    assert!(
        l.plan
            .extensions()
            .contains(&"GL_EXT_ray_tracing".to_string())
    );
    assert_eq!(l.plan.version(), 460);
}

#[test]
fn b11_and_d7_consolidation_storage() {
    let two = "void main(inout P p, inout Q q) { p.c = q.t; }";
    let l = ok(&format!("{RAY_TYPES}{two}"), "main", ir::ShaderStage::Miss);
    assert_eq!(
        ray_summary(&l),
        ["main_payloads IncomingRayPayload 0 NextFreeLocation"]
    );
    let l = ok(
        &format!("{RAY_TYPES}{two}"),
        "main",
        ir::ShaderStage::Callable,
    );
    assert_eq!(
        ray_summary(&l),
        ["main_callableData IncomingCallableData 0 NextFreeLocation"]
    );
    let text = ir::print::print_module(&l.module);
    assert!(text.contains("callableDataInEXT"), "{text}");
    assert!(!text.contains("rayPayload"), "{text}");
}

#[test]
fn ray_tracing_rejections_are_coded_at_their_source() {
    let at = |src: &str, stage| {
        let e = err(&format!("{RAY_TYPES}{src}"), "main", stage);
        e.into_iter()
            .map(|(code, message, text)| format!("{code} {text}: {message}"))
            .collect::<Vec<_>>()
    };
    let e = at("void main(inout P p) { }", ir::ShaderStage::RayGeneration);
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(
        e[0].starts_with("E49103 p: raygeneration entry points have no payload"),
        "{e:?}"
    );
    let e = at(
        "void main(inout P p, in BuiltInTriangleIntersectionAttributes a, in BuiltInTriangleIntersectionAttributes b) { }",
        ir::ShaderStage::ClosestHit,
    );
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(
        e[0].starts_with("E49103 b: a hit shader has one hit-attribute parameter"),
        "{e:?}"
    );
    let e = at(
        "void main() { P p; p.c = 0; Q q; q.t = 0; ReportHit(1.0, 0, p); ReportHit(2.0, 0, q); }",
        ir::ShaderStage::Intersection,
    );
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(
        e[0].starts_with(
            "E49104 ReportHit(2.0, 0, q): `ReportHit` with attributes of type `Q` after `P`"
        ),
        "{e:?}"
    );
    let e = at(
        "void main() { P p; p.c = 0; float t = 0; while (!ReportHit(t, 0, p)) { t += 1; } }",
        ir::ShaderStage::Intersection,
    );
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(
        e[0].starts_with("E49105 ReportHit(t, 0, p): `ReportHit` in a loop condition"),
        "{e:?}"
    );
    let e = at(
        "void main(inout P p) { IgnoreHit(); p.c = RayTCurrent(); }",
        ir::ShaderStage::ClosestHit,
    );
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(
        e[0].starts_with("E49990 IgnoreHit(): `IgnoreHit` is not available in a closesthit shader"),
        "{e:?}"
    );
    let e = at(
        "void main(uniform float4 tint, inout P p) { p.c = tint; }",
        ir::ShaderStage::Miss,
    );
    assert!(
        e[0].starts_with("E49103 tint: uniform parameter `tint`"),
        "{e:?}"
    );
}

#[test]
fn ray_tracing_results_calls_and_for_conditions_are_coded() {
    let at = |src: &str, stage| {
        let e = err(&format!("{RAY_TYPES}{src}"), "main", stage);
        e.into_iter()
            .map(|(code, message, text)| format!("{code} {text}: {message}"))
            .collect::<Vec<_>>()
    };
    let e = at(
        "float4 main(inout P p) { return p.c; }",
        ir::ShaderStage::Miss,
    );
    assert_eq!(
        e,
        ["E49103 float4: miss entry points return nothing: write the payload instead"]
    );
    let e = at(
        "void main(inout P p, in BuiltInTriangleIntersectionAttributes a) { Q q; q.t = 0; CallShader(0, q); }",
        ir::ShaderStage::AnyHit,
    );
    assert_eq!(
        e,
        ["E49990 CallShader(0, q): `CallShader` is not available in an anyhit shader"]
    );
    let e = at(
        "void main() { P p; p.c = 0; for (float t = 0; !ReportHit(t, 0, p); t += 1) { } }",
        ir::ShaderStage::Intersection,
    );
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].starts_with("E49105 ReportHit(t, 0, p):"), "{e:?}");
}

#[test]
fn report_hit_stores_before_its_statement_and_trace_ray_copies_back() {
    let l = ok(
        &format!(
            "{RAY_TYPES}
            void main() {{ P p; p.c = 0; bool accepted = ReportHit(RayTCurrent(), 1, p); }}"
        ),
        "main",
        ir::ShaderStage::Intersection,
    );
    assert_eq!(ray_summary(&l), ["hitAttributes HitAttribute - TableRow"]);
    let text = ir::print::print_module(&l.module);
    let store = text
        .find("hitAttributes = p")
        .expect("the attributes are stored");
    let report = text.find("ReportHit(").expect("the hit is reported");
    assert!(store < report, "{text}");
}

/// A legalized module is finished: the body function reads a `uniform`
/// resource parameter's global itself (the parameter and the call's
/// argument go), while a plain uniform stays an argument.
#[test]
fn uniform_resource_parameters_read_their_globals() {
    let src = "[shader(\"compute\")] [numthreads(1, 1, 1)]
        void main(uint3 id : SV_DispatchThreadID, uniform RWStructuredBuffer<float> o, uniform float k) { o[id.x] = k; }";
    let legalized = ok(src, "main", ir::ShaderStage::Compute);
    let params: Vec<&str> = legalized
        .module
        .functions
        .iter()
        .flat_map(|(_, f)| f.params.iter().map(|p| p.name.as_str()))
        .collect();
    assert!(!params.contains(&"o"), "{params:?}");
    assert!(params.contains(&"k"), "{params:?}");
    assert!(legalized.module.globals.iter().any(|(_, g)| g.name == "o"));
}

#[test]
fn a_capture_copy_past_the_last_location_is_e49108() {
    // `pos.xyz` is captured through a copy output at the location after
    // the last output, 4294967295, which has no next one.
    let src = "struct VsOut { float4 pos : SV_Position; };
        struct Particle { float4 pos : POSITION; [[vk::location(4294967295)]] float4 color : COLOR0; };
        [shader(\"geometry\")] [maxvertexcount(1)] [StreamOutput(0, \"0:POSITION.xyz\")]
        void main(point VsOut input[1], inout PointStream<Particle> particles)
        { Particle p; p.pos = input[0].pos; p.color = input[0].pos; particles.Append(p); }";
    let errors = err(src, "main", ir::ShaderStage::Geometry);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(
        (errors[0].0.as_str(), errors[0].2.as_str()),
        ("E49108", "pos")
    );
}

#[test]
fn more_plain_uniforms_than_a_block_holds_are_e49109() {
    // SPIR-V's 16383 members, one plain uniform over, every one used (a
    // uniform nothing reads is not written).
    let mut src = String::new();
    for i in 0..16384 {
        src.push_str(&format!("float u{i};\n"));
    }
    src.push_str("float4 main() : SV_Target {\n    float s = 0;\n");
    for i in 0..16384 {
        src.push_str(&format!("    s += u{i};\n"));
    }
    src.push_str("    return float4(s, 0, 0, 1);\n}\n");
    let errors = err(&src, "main", ir::ShaderStage::Fragment);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].0, "E49109");
    assert!(
        errors[0].1.starts_with("16384 plain uniforms"),
        "{errors:?}"
    );
}
