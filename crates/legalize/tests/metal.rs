//! The Metal varying legalizer on small entry points: the plan (where each
//! leaf goes and why, B19 and B20), `SV_GroupIndex` synthesised from the
//! threadgroup-local id, and every rejection with its code and span.

use legalis_ir as ir;
use legalis_legalize::Family;
use legalis_legalize::metal::{Legalized, Metal, Reason, Root, Target};
use legalis_sysval::Direction;

fn front(src: &str, stage: ir::ShaderStage) -> ir::Module {
    let options = legalis_front::Options {
        entry: Some("main".into()),
        stage: Some(stage),
        ..Default::default()
    };
    let out = legalis_front::compile(src, &options);
    out.module
        .unwrap_or_else(|| panic!("front end: {:#?}", out.diagnostics))
}

fn ok(src: &str, stage: ir::ShaderStage) -> Legalized {
    let module = front(src, stage);
    let legalized =
        Metal::legalize(&module, 0, &ir::Policy::default()).unwrap_or_else(|e| panic!("{e:#?}"));
    ir::verify::verify_legalized(&legalized.module).expect("the verifier accepts the result");
    legalized
}

/// `(code, text under the primary span)` of every error.
fn err(src: &str, stage: ir::ShaderStage) -> Vec<(String, String)> {
    let module = front(src, stage);
    let errors =
        Metal::legalize(&module, 0, &ir::Policy::default()).expect_err("legalization fails");
    errors
        .iter()
        .map(|d| {
            let span = d.primary_span();
            let text = if span.is_defined() {
                src[span.range()].to_string()
            } else {
                String::new()
            };
            (d.code_str(), text)
        })
        .collect()
}

/// `name: in|out [[attribute]]` for every leaf.
fn summary(l: &Legalized) -> Vec<String> {
    let mut out = Vec::new();
    for direction in [Direction::Input, Direction::Output] {
        let dir = match direction {
            Direction::Input => "in",
            Direction::Output => "out",
        };
        for (name, attribute) in l.plan.expected_attributes(direction) {
            out.push(format!("{name}: {dir} [[{attribute}]]"));
        }
    }
    out
}

const VS: ir::ShaderStage = ir::ShaderStage::Vertex;
const FS: ir::ShaderStage = ir::ShaderStage::Fragment;
const CS: ir::ShaderStage = ir::ShaderStage::Compute;

#[test]
fn b19_fragment_struct_flattens_to_one_attribute_per_field() {
    let src = "struct In { float4 pos : SV_Position; float2 uv : TEXCOORD0; \
               nointerpolation uint id : ID; noperspective centroid float d : D; \
               uint view : SV_ViewID; bool front : SV_IsFrontFace; };
               struct Out { float4 c : SV_Target0; float4 c2 : SV_Target2; float z : SV_DepthGreaterEqual; };
               Out main(In i) { Out o; o.c = i.pos; o.c2 = float4(i.uv, i.d, i.id + i.view); \
               o.z = i.front ? 0.5 : 0.25; return o; }";
    let l = ok(src, FS);
    assert_eq!(
        summary(&l),
        [
            "i_pos: in [[position]]",
            "i_uv: in [[user(TEXCOORD)]]",
            "i_id: in [[user(ID), flat]]",
            "i_d: in [[user(D), centroid_no_perspective]]",
            "i_view: in [[amplification_id]]",
            "i_front: in [[front_facing]]",
            "c: out [[color(0)]]",
            "c2: out [[color(2)]]",
            "z: out [[depth(greater)]]",
        ]
    );
    let reasons: Vec<Reason> = l.plan.leaves.iter().map(|l| l.reason).collect();
    assert_eq!(reasons[0], Reason::TableRow);
    assert_eq!(reasons[1], Reason::NextFreeLocation);
    assert_eq!(reasons[7], Reason::SemanticIndex);
}

#[test]
fn b20_vertex_table() {
    let src = "struct VOut { float4 pos : SV_Position; float size : PSIZE; float ps : SV_PointSize; \
               uint layer : SV_RenderTargetArrayIndex; };
               VOut main(float3 p : POSITION, float2 uv : TEXCOORD, uint vid : SV_VertexID, \
               uint iid : SV_InstanceID, uint bv : SV_StartVertexLocation) \
               { VOut o; o.pos = float4(p, uv.x); o.size = vid + iid + bv; o.ps = 1; o.layer = 2; return o; }";
    let l = ok(src, VS);
    assert_eq!(
        summary(&l),
        [
            "p: in [[attribute(0)]]",
            "uv: in [[attribute(1)]]",
            "vid: in [[vertex_id]]",
            "iid: in [[instance_id]]",
            "bv: in [[base_vertex]]",
            "pos: out [[position]]",
            "size: out [[user(PSIZE)]]",
            "ps: out [[point_size]]",
            "layer: out [[render_target_array_index]]",
        ]
    );
}

#[test]
fn b20_group_index_is_synthesised_from_the_local_id() {
    let src = "RWStructuredBuffer<uint> b; [numthreads(8, 4, 2)] \
               void main(uint3 id : SV_DispatchThreadID, uint gi : SV_GroupIndex, uint3 g : SV_GroupID) \
               { b[id.x] = gi + g.y; }";
    let l = ok(src, CS);
    assert_eq!(
        summary(&l),
        [
            "id: in [[thread_position_in_grid]]",
            "g: in [[threadgroup_position_in_grid]]",
            "group_thread_id: in [[thread_position_in_threadgroup]]",
        ]
    );
    let gi = l.plan.leaves.iter().find(|l| l.path == "gi").unwrap();
    assert_eq!(gi.target, Target::GroupIndex { x: 8, y: 4 });
    assert_eq!(gi.reason, Reason::Synthesized);
    let added = l
        .plan
        .leaves
        .iter()
        .find(|l| l.root == Root::Added)
        .unwrap();
    assert_eq!(added.reason, Reason::Synthesized);
    // The wrapper reads it as (z*4 + y)*8 + x.
    let text = ir::print::print_module(&l.module);
    assert!(text.contains("* 4u"), "{text}");
    assert!(text.contains("* 8u"), "{text}");
}

#[test]
fn b20_group_index_reuses_a_declared_local_id() {
    let src = "RWStructuredBuffer<uint> b; [numthreads(16, 1, 1)] \
               void main(uint3 lid : SV_GroupThreadID, uint gi : SV_GroupIndex) { b[gi] = lid.x; }";
    let l = ok(src, CS);
    assert_eq!(summary(&l), ["lid: in [[thread_position_in_threadgroup]]"]);
    assert!(l.plan.leaves.iter().all(|l| l.root != Root::Added));
}

#[test]
fn unsupported_system_values_are_e55302_at_each_declaration() {
    let src = "struct VOut { float4 pos : SV_Position; uint rate : SV_ShadingRate; float cull : SV_CullDistance0; };
               VOut main() { VOut o = (VOut)0; return o; }";
    assert_eq!(
        err(src, VS),
        [
            ("E55302".to_string(), "rate".to_string()),
            ("E55302".to_string(), "cull".to_string()),
        ]
    );
    let src = "float4 main(uint c : SV_InnerCoverage) : SV_Target { return c; }";
    assert_eq!(err(src, FS), [("E55302".to_string(), "c".to_string())]);
}

#[test]
fn other_refusals_have_their_codes_and_spans() {
    let conflict = "struct O { [[vk::location(1)]] float4 a : A; [[vk::location(1)]] float4 b : B; float4 p : SV_Position; };
                    O main() { O o = (O)0; return o; }";
    assert_eq!(err(conflict, VS), [("E55303".to_string(), "b".to_string())]);
    // A matrix is one varying per row; of 64-bit rows, refused once.
    let shape = "float4 main(double4x4 m : M) : SV_Target { return float4(m[0]); }";
    assert_eq!(err(shape, FS), [("E55304".to_string(), "m".to_string())]);
    let array = "float4 main(float4 a[2] : A) : SV_Target { return a[0]; }";
    assert_eq!(err(array, FS), [("E55304".to_string(), "a".to_string())]);
    // An array whose system value is refused is refused once, for that.
    let culled = "struct O { float4 p : SV_Position; float c[2] : SV_CullDistance0; };
                  O main() { O o = (O)0; return o; }";
    assert_eq!(err(culled, VS), [("E55302".to_string(), "c".to_string())]);
    // Two varyings linking by one `[[user(NAME)]]`.
    let twice = "struct O { float4 p : SV_Position; float4 a : TEXCOORD1; float2 b : TEXCOORD1; };
                 O main() { O o = (O)0; return o; }";
    assert_eq!(err(twice, VS), [("E55303".to_string(), "b".to_string())]);
    let boolean = "float4 main(bool b : B) : SV_Target { return b ? 1 : 0; }";
    assert_eq!(err(boolean, FS), [("E55304".to_string(), "b".to_string())]);
    let compute = "[numthreads(1, 1, 1)] void main(uint x : X) {}";
    assert_eq!(err(compute, CS), [("E55305".to_string(), "x".to_string())]);
}

#[test]
fn stages_metal_lacks_are_refused_at_the_entry_point() {
    let gs = "struct V { float4 p : SV_Position; }; [maxvertexcount(1)] \
              void main(point V i[1], inout PointStream<V> s) { s.Append(i[0]); }";
    let errors = err(gs, ir::ShaderStage::Geometry);
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].0, "E55301");
    let module = ir::Module::default();
    let errors = Metal::legalize(&module, 0, &ir::Policy::default()).unwrap_err();
    assert_eq!(errors[0].code_str(), "E55308");
}

#[test]
fn uniform_and_inout_parameters() {
    // A `uniform` parameter is a global passed as an argument; an `inout`
    // parameter is an input and an output.
    let l = ok(
        "float4 main(uniform float4 tint, inout float4 color : COLOR) : SV_Target \
         { color = color * 2; return tint + color; }",
        ir::ShaderStage::Fragment,
    );
    let uniforms = l
        .plan
        .leaves
        .iter()
        .filter(|leaf| leaf.target == Target::Uniform && leaf.reason == Reason::Uniform)
        .count();
    assert_eq!(uniforms, 1);
    let color: Vec<Direction> = l
        .plan
        .leaves
        .iter()
        .filter(|leaf| leaf.path == "color")
        .map(|leaf| leaf.direction)
        .collect();
    assert_eq!(color, [Direction::Input, Direction::Output]);
    assert!(
        l.module
            .globals
            .iter()
            .any(|(_, g)| g.name == "tint" && g.space == ir::AddressSpace::Uniform)
    );
    let _ = Root::Result;
}

#[test]
fn b21_mesh_plan_members_payload_and_indices() {
    // A mesh function with a `uniform` parameter (a global the writer
    // passes), a payload, per-vertex and per-primitive members, lines.
    let src = "struct V { float4 p : SV_Position; float2 uv : UV; };
               struct P { uint id : SV_PrimitiveID; uint m : M; };
               struct Pl { uint base; };
               [outputtopology(\"line\")] [numthreads(2, 1, 1)]
               void main(uint t : SV_GroupThreadID, uniform float scale, in payload Pl pl,
                         out vertices V verts[4], out indices uint2 lines[2],
                         out primitives P prims[2]) {
                   SetMeshOutputCounts(4, 2);
                   V v; v.p = float4(scale, 0, 0, 1); v.uv = float2(0, 0);
                   verts[t] = v;
                   lines[t] = uint2(t, t + 1);
                   P p; p.id = pl.base + t; p.m = 3; prims[t] = p;
               }";
    let l = ok(src, ir::ShaderStage::Mesh);
    assert_eq!(
        l.plan.mesh_attributes(ir::MeshOutputKind::Vertices),
        [
            ("p".to_string(), "position".to_string()),
            ("uv".to_string(), "user(UV)".to_string())
        ]
    );
    assert_eq!(
        l.plan.mesh_attributes(ir::MeshOutputKind::Primitives),
        [
            ("id".to_string(), "primitive_id".to_string()),
            ("m".to_string(), "user(M)".to_string())
        ]
    );
    let shape = l.plan.extra.shape.clone().expect("a mesh shape");
    assert_eq!(
        (shape.vertices, shape.primitives, shape.topology),
        (4, 2, "line")
    );
    let target = |path: &str| {
        l.plan
            .leaves
            .iter()
            .find(|leaf| leaf.path == path)
            .map(|leaf| (leaf.target.clone(), leaf.reason))
    };
    assert_eq!(target("pl"), Some((Target::Payload, Reason::Payload)));
    assert_eq!(
        target("lines"),
        Some((Target::Indices { per_primitive: 2 }, Reason::Topology))
    );
    assert_eq!(target("scale"), Some((Target::Uniform, Reason::Uniform)));
    assert_eq!(l.plan.extra.object_payload, None);
}

#[test]
fn b21_object_plan_names_the_payload() {
    let src = "struct Pl { uint x; }; groupshared Pl pl;
               [numthreads(1, 1, 1)] void main(uint g : SV_GroupID) {
                   pl.x = g; DispatchMesh(1, 1, 1, pl);
               }";
    let l = ok(src, ir::ShaderStage::Amplification);
    assert_eq!(l.plan.extra.object_payload.as_deref(), Some("Pl"));
    assert_eq!(l.plan.extra.shape, None);
}

/// Linking checks the fragment function against the vertex function it
/// follows; the `[[user(NAME)]]` names already agree, so nothing is placed.
#[test]
fn linking_checks_both_sides_by_semantic() {
    use legalis_legalize::metal::link_inputs;
    let src = "\
struct O { float4 p : SV_Position; float2 uv : TEXCOORD0; nointerpolation uint id : ID; };
[shader(\"vertex\")] O vs(float4 p : POSITION, uint v : SV_VertexID) { O o; o.p = p; o.uv = p.xy; o.id = v; return o; }
[shader(\"fragment\")] float4 fs(uint id : ID, float2 uv : TEXCOORD0) : SV_Target { return uv.xyxy * float(id); }
[shader(\"fragment\")] float4 bad(float3 uv : TEXCOORD0, float4 fog : FOG) : SV_Target { return fog * uv.x; }
";
    let out = legalis_front::compile(src, &legalis_front::Options::default());
    let module = out.module.expect("front end");
    let policy = ir::Policy::default();
    let plan = |name: &str| {
        let i = module.entry_points.iter().position(|e| e.name == name);
        Metal::legalize(&module, i.expect(name), &policy)
            .unwrap_or_else(|e| panic!("{e:#?}"))
            .plan
    };
    assert_eq!(link_inputs(&module, &plan("vs"), &plan("fs")), Ok(()));
    let errors = link_inputs(&module, &plan("vs"), &plan("bad")).expect_err("they disagree");
    let texts: Vec<(String, &str)> = errors
        .iter()
        .map(|d| (d.code_str(), d.message.as_str()))
        .collect();
    assert_eq!(
        texts,
        [
            (
                "E49802".to_string(),
                "`uv` is `float3` in `bad` and `float2` in `vs`, which writes it"
            ),
            (
                "E49801".to_string(),
                "fragment input `fog` (FOG0) is written by no earlier stage"
            ),
        ]
    );
}

/// A legalized module is finished, on Metal too: the body function reads
/// a `uniform` resource parameter's global itself.
#[test]
fn uniform_resource_parameters_read_their_globals() {
    let src = "[shader(\"compute\")] [numthreads(1, 1, 1)]
        void main(uint3 id : SV_DispatchThreadID, uniform RWStructuredBuffer<float> o) { o[id.x] = 1; }";
    let legalized = ok(src, ir::ShaderStage::Compute);
    let params: Vec<&str> = legalized
        .module
        .functions
        .iter()
        .flat_map(|(_, f)| f.params.iter().map(|p| p.name.as_str()))
        .collect();
    assert!(!params.contains(&"o"), "{params:?}");
}
