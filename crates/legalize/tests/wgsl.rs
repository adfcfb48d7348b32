//! The WGSL varying legalizer on small entry points: the plan (where each
//! leaf goes and why), the wrapper entry function, the policy conventions,
//! and every rejection with its code and span.

use legalis_ir as ir;
use legalis_legalize::Family;
use legalis_legalize::wgsl::{Legalized, Reason, Target, Wgsl};
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

fn ok_with(src: &str, stage: ir::ShaderStage, policy: &ir::Policy) -> Legalized {
    let module = front(src, "main", stage);
    let legalized = Wgsl::legalize(&module, 0, policy).unwrap_or_else(|e| panic!("{e:#?}"));
    ir::verify::verify_legalized(&legalized.module).expect("the verifier accepts the result");
    legalized
}

fn ok(src: &str, stage: ir::ShaderStage) -> Legalized {
    ok_with(src, stage, &ir::Policy::default())
}

/// `(code, text under the primary span)` of every error.
fn err(src: &str, stage: ir::ShaderStage) -> Vec<(String, String)> {
    let module = front(src, "main", stage);
    let errors =
        Wgsl::legalize(&module, 0, &ir::Policy::default()).expect_err("legalization fails");
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

/// `name: in|out builtin|@location(n)` for every leaf.
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
                Target::BuiltIn { row, .. } => row.name.to_string(),
                Target::Location {
                    location,
                    interpolation,
                    ..
                } if interpolation.is_default() => format!("@location({location})"),
                Target::Location {
                    location,
                    interpolation,
                    ..
                } => format!("@location({location}) {interpolation:?}"),
                Target::Uniform => "uniform".into(),
            };
            format!("{}: {dir} {place}", leaf.name)
        })
        .collect()
}

const VS: ir::ShaderStage = ir::ShaderStage::Vertex;
const FS: ir::ShaderStage = ir::ShaderStage::Fragment;
const CS: ir::ShaderStage = ir::ShaderStage::Compute;

#[test]
fn vertex_leaves_flatten_and_number_in_declaration_order() {
    let l = ok(
        "struct In { float3 p : POSITION; float2 uv : TEXCOORD0; };
         struct Out { float4 pos : SV_Position; float2 uv : TEXCOORD0; nointerpolation int id : ID; };
         Out main(In input, uint vid : SV_VertexID) {
             Out o; o.pos = float4(input.p, 1); o.uv = input.uv; o.id = int(vid); return o; }",
        VS,
    );
    assert_eq!(
        summary(&l),
        [
            "input_p: in @location(0)",
            "input_uv: in @location(1)",
            "vid: in vertex_index",
            "pos: out position",
            "uv: out @location(0)",
            "id: out @location(1) Interpolation { mode: Some(Flat), sampling: None }",
        ]
    );
    let entry = &l.module.entry_points[0];
    let wrapper = &l.module.functions[entry.function];
    assert_eq!(wrapper.name, "main");
    assert_eq!(wrapper.params.len(), 3);
    let result = wrapper.result.as_ref().expect("a result struct");
    assert_eq!(
        l.module.types[result.ty].name.as_deref(),
        Some("mainOutput")
    );
    assert!(
        l.module
            .functions
            .iter()
            .any(|(_, f)| f.name == "main_body")
    );
}

#[test]
fn reasons_say_why() {
    let l = ok(
        "struct Out { float4 a : SV_Target1; float4 b : COLOR; float d : SV_Depth; };
         Out main([[vk::location(3)]] float4 x : X, float4 y : Y) {
             Out o; o.a = x; o.b = y; o.d = 0; return o; }",
        FS,
    );
    let reasons: Vec<(String, Reason)> = l
        .plan
        .leaves
        .iter()
        .map(|leaf| (leaf.name.clone(), leaf.reason))
        .collect();
    assert_eq!(
        reasons,
        [
            ("x".to_string(), Reason::ExplicitLocation),
            ("y".to_string(), Reason::NextFreeLocation),
            ("a".to_string(), Reason::SemanticIndex),
            ("b".to_string(), Reason::NextFreeLocation),
            ("d".to_string(), Reason::TableRow),
        ]
    );
    assert_eq!(
        summary(&l),
        [
            "x: in @location(3)",
            "y: in @location(0)",
            "a: out @location(1)",
            "b: out @location(0)",
            "d: out frag_depth",
        ]
    );
}

#[test]
fn inout_parameters_are_one_leaf_each_way_and_uniforms_globals() {
    let l = ok(
        "float4 main(inout float4 c : COLOR, uniform float4 tint) : SV_Target { c *= tint; return c; }",
        FS,
    );
    assert_eq!(
        summary(&l),
        [
            "c: in @location(0)",
            "c: out @location(1)",
            "tint: in uniform",
            "result: out @location(0)",
        ]
    );
    assert!(
        l.module
            .globals
            .iter()
            .any(|(_, g)| g.name == "tint" && g.space == ir::AddressSpace::Uniform)
    );
}

#[test]
fn fragment_names_do_not_collide() {
    let l = ok(
        "struct A { float4 c : COLOR0; }; struct B { float4 c : SV_Target; };
         void main(A a_c, A a, out B o, out float4 o_c : SV_Target1) { o.c = a.c + a_c.c; o_c = 0; }",
        FS,
    );
    let names: Vec<&str> = l.plan.leaves.iter().map(|x| x.name.as_str()).collect();
    assert_eq!(names, ["a_c_c", "a_c", "o_c", "o_c_1"]);
}

#[test]
fn compute_without_outputs_returns_nothing() {
    let l = ok(
        "RWStructuredBuffer<uint> b; [numthreads(4, 1, 1)] void main(uint i : SV_GroupIndex) { b[i] = i; }",
        CS,
    );
    let entry = &l.module.entry_points[0];
    assert!(l.module.functions[entry.function].result.is_none());
    assert_eq!(summary(&l), ["i: in local_invocation_index"]);
}

#[test]
fn invert_y_negates_the_written_position() {
    let src = "float4 main(float4 p : POSITION) : SV_Position { return p; }";
    let plain = ok(src, VS);
    let policy = ir::Policy {
        invert_y: true,
        ..ir::Policy::default()
    };
    let inverted = ok_with(src, VS, &policy);
    let stores = |l: &Legalized| {
        let f = &l.module.functions[l.module.entry_points[0].function];
        f.body
            .stmts
            .iter()
            .filter(|s| matches!(s, ir::Statement::Store { .. }))
            .count()
    };
    assert_eq!(stores(&inverted), stores(&plain) + 1);
    let f = &inverted.module.functions[inverted.module.entry_points[0].function];
    assert!(f.expressions.iter().any(|(_, e)| matches!(
        e,
        ir::Expression::Unary {
            op: ir::UnaryOp::Negate,
            ..
        }
    )));
}

#[test]
fn dx_position_w_reads_the_reciprocal() {
    let src = "float4 main(float4 p : SV_Position) : SV_Target { return p; }";
    let policy = ir::Policy {
        dx_position_w: true,
        ..ir::Policy::default()
    };
    let l = ok_with(src, FS, &policy);
    let f = &l.module.functions[l.module.entry_points[0].function];
    assert!(f.expressions.iter().any(|(_, e)| matches!(
        e,
        ir::Expression::Binary {
            op: ir::BinaryOp::Divide,
            ..
        }
    )));
}

#[test]
fn unsupported_system_values_are_e55202_at_each_declaration() {
    let src = "struct Out { float4 pos : SV_Position; uint layer : SV_RenderTargetArrayIndex; float cull : SV_CullDistance; };
         Out main(uint view : SV_ViewID) { Out o; o.pos = 0; o.layer = 0; o.cull = float(view); return o; }";
    assert_eq!(
        err(src, VS),
        [
            ("E55202".to_string(), "view".to_string()),
            ("E55202".to_string(), "layer".to_string()),
            ("E55202".to_string(), "cull".to_string()),
        ]
    );
    let module = front(src, "main", VS);
    let errors = Wgsl::legalize(&module, 0, &ir::Policy::default()).unwrap_err();
    assert_eq!(errors[0].message, "system value semantic not supported");
    assert_eq!(
        errors[2].labels[0].message,
        "system value semantic 'sv_culldistance' is not supported for the current target."
    );
}

#[test]
fn other_refusals_have_their_codes_and_spans() {
    assert_eq!(
        err(
            "float4 main([[vk::location(1)]] float4 a : A, [[vk::location(1)]] float4 b : B) : SV_Target { return a + b; }",
            FS
        ),
        [("E55203".to_string(), "b".to_string())]
    );
    assert_eq!(
        err(
            "float4 main(double4x4 m : M) : SV_Target { return float4(m[0]); }",
            FS
        ),
        [("E55204".to_string(), "m".to_string())]
    );
    assert_eq!(
        err(
            "float4 main(bool b : B) : SV_Target { return b ? 1 : 0; }",
            FS
        ),
        [("E55204".to_string(), "b".to_string())]
    );
    assert_eq!(
        err(
            "struct S { float a[2] : A; }; float4 main(S s) : SV_Target { return s.a[0]; }",
            FS
        ),
        [("E55204".to_string(), "a".to_string())]
    );
    assert_eq!(
        err(
            "struct S { float4 a : A; SamplerState t; }; float4 main(S s) : SV_Target { return s.a; }",
            FS
        ),
        [("E55204".to_string(), "t".to_string())]
    );
    // A system value WGSL cannot express is E55202 whatever its shape.
    assert_eq!(
        err(
            "struct V { float4 p : SV_Position; float c[2] : SV_CullDistance0; };
             V main(float4 p : P) { V v; v.p = p; v.c[0] = 0; v.c[1] = 1; return v; }",
            VS
        ),
        [("E55202".to_string(), "c".to_string())]
    );
    assert_eq!(
        err(
            "RWStructuredBuffer<uint> b; [numthreads(1, 1, 1)] void main(uint i : INDEX) { b[0] = i; }",
            CS
        ),
        [("E55205".to_string(), "i".to_string())]
    );
    assert_eq!(
        err("float4 main(float4 p : POSITION) : COLOR { return p; }", VS),
        [("E55206".to_string(), "main".to_string())]
    );
    assert_eq!(
        err(
            "float4 main(float4 p : SV_Bogus) : SV_Target { return p; }",
            FS
        ),
        [("E55207".to_string(), "p".to_string())]
    );
}

#[test]
fn stages_wgsl_lacks_and_missing_entry_points_are_refused() {
    let hull = "struct P { float4 p : POSITION; };
        struct C { float e[3] : SV_TessFactor; float i : SV_InsideTessFactor; };
        C pc(InputPatch<P, 3> ip) { C c; c.e[0] = 1; c.e[1] = 1; c.e[2] = 1; c.i = 1; return c; }
        [domain(\"tri\")] [partitioning(\"integer\")] [outputtopology(\"triangle_cw\")]
        [outputcontrolpoints(3)] [patchconstantfunc(\"pc\")]
        P main(InputPatch<P, 3> ip, uint i : SV_OutputControlPointID) { return ip[i]; }";
    let errors = err(hull, ir::ShaderStage::Hull);
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].0, "E55201");
    let module = ir::Module::default();
    let errors = Wgsl::legalize(&module, 0, &ir::Policy::default()).unwrap_err();
    assert_eq!(errors[0].code_str(), "E55208");
}

#[test]
fn the_compute_table_and_conversions() {
    let l = ok(
        "RWStructuredBuffer<uint> b;
         [numthreads(8, 1, 1)]
         void main(uint2 d : SV_DispatchThreadID, int3 g : SV_GroupID, uint3 t : SV_GroupThreadID, int i : SV_GroupIndex) {
             b[d.x] = uint(g.x) + t.y + uint(i); }",
        CS,
    );
    assert_eq!(
        summary(&l),
        [
            "d: in global_invocation_id",
            "g: in workgroup_id",
            "t: in local_invocation_id",
            "i: in local_invocation_index",
        ]
    );
    let f = &l.module.functions[l.module.entry_points[0].function];
    let converts = f
        .expressions
        .iter()
        .filter(|(_, e)| matches!(e, ir::Expression::Convert { .. }))
        .count();
    // `uint2` from `vec3<u32>`, `int3` from `vec3<u32>`, `int` from `u32`.
    assert_eq!(converts, 3);
}

/// Reserved locations are skipped by the numbering, which goes on upward
/// from the lowest free one and never reuses a location it gave.
#[test]
fn numbered_locations_skip_the_reserved_ones() {
    let l = ok(
        "float4 main([[vk::location(1)]] float4 x : X, float4 y : Y, [[vk::location(3)]] float4 z : Z,
                     float4 v : V, float4 w : W) : SV_Target { return x + y + z + v + w; }",
        FS,
    );
    assert_eq!(
        summary(&l),
        [
            "x: in @location(1)",
            "y: in @location(0)",
            "z: in @location(3)",
            "v: in @location(2)",
            "w: in @location(4)",
            "result: out @location(0)",
        ]
    );
}

#[test]
fn a_varying_without_a_semantic_takes_a_location() {
    let l = ok(
        "float4 main(float4 x, float4 y : Y) : SV_Target { return x + y; }",
        FS,
    );
    assert_eq!(
        summary(&l),
        [
            "x: in @location(0)",
            "y: in @location(1)",
            "result: out @location(0)",
        ]
    );
    assert_eq!(
        err(
            "RWStructuredBuffer<uint> b; [numthreads(1, 1, 1)] void main(uint i) { b[0] = i; }",
            CS
        ),
        [("E55205".to_string(), "i".to_string())]
    );
}

/// The front end reports a system value outside its stage (`E49990`)
/// before any legalizer runs; the legalizer's own check, reached here by
/// relabelling a fragment entry point as compute, says the same, on WGSL
/// and on Metal, whose shared message once said "a input".
#[test]
fn a_system_value_outside_its_stage_is_e49990() {
    let src = "float4 main(float4 p : SV_Position) : SV_Target { return p; }";
    let mut module = front(src, "main", FS);
    module.entry_points[0].stage = CS;
    let policy = ir::Policy::default();
    let wgsl = Wgsl::legalize(&module, 0, &policy).unwrap_err();
    let metal = legalis_legalize::metal::Metal::legalize(&module, 0, &policy).unwrap_err();
    for errors in [wgsl, metal] {
        let found: Vec<(String, String)> = errors
            .iter()
            .map(|d| (d.code_str(), d.labels[0].message.clone()))
            .collect();
        assert_eq!(
            found,
            [
                (
                    "E49990".to_string(),
                    "`SV_Position` cannot be an input of a compute entry point".to_string()
                ),
                (
                    "E49990".to_string(),
                    "`SV_Target` cannot be an output of a compute entry point".to_string()
                ),
            ]
        );
    }
}

/// Every entry point of `src`, for linking.
fn whole(src: &str) -> ir::Module {
    let out = legalis_front::compile(src, &legalis_front::Options::default());
    out.module
        .unwrap_or_else(|| panic!("front end: {:#?}", out.diagnostics))
}

const LINKED: &str = "\
struct O { float4 p : SV_Position; float2 uv : UV; float3 n : N; float4 c : C; };
[shader(\"vertex\")] O vs(float4 p : POSITION) { O o; o.p = p; o.uv = p.xy; o.n = p.xyz; o.c = p; return o; }
[shader(\"fragment\")] float4 fs(float4 c : C, float2 uv : UV) : SV_Target { return c * uv.x; }
[shader(\"fragment\")] float4 centroid_n(centroid float3 n : N) : SV_Target { return n.xyzz; }
";

#[test]
fn linked_inputs_take_the_vertex_stage_locations() {
    use legalis_legalize::wgsl::link_inputs;
    let module = whole(LINKED);
    let policy = ir::Policy::default();
    let index = |name: &str| module.entry_points.iter().position(|e| e.name == name);
    let (vs, fs) = (index("vs").expect("vs"), index("fs").expect("fs"));
    let producer = Wgsl::legalize(&module, vs, &policy).expect("vs");
    let alone = Wgsl::legalize(&module, fs, &policy).expect("fs");
    // Alone: c at 0, uv at 1; the vertex stage writes uv at 0, c at 2.
    assert_eq!(
        summary(&alone)[..2],
        ["c: in @location(0)", "uv: in @location(1)"]
    );
    let hints = link_inputs(&module, &producer.plan, &alone.plan).expect("they agree");
    let linked = Wgsl::legalize_linked(&module, fs, &policy, &hints).expect("fs linked");
    assert_eq!(
        summary(&linked)[..2],
        ["c: in @location(2)", "uv: in @location(0)"]
    );
    assert!(
        linked.plan.leaves[..2]
            .iter()
            .all(|l| l.reason == Reason::Linked)
    );
    // WebGPU compares the sampling too.
    let sampled = Wgsl::legalize(&module, index("centroid_n").expect("n"), &policy).expect("n");
    let errors = link_inputs(&module, &producer.plan, &sampled.plan).expect_err("centroid");
    let texts: Vec<(String, &str)> = errors
        .iter()
        .map(|d| (d.code_str(), d.message.as_str()))
        .collect();
    assert_eq!(
        texts,
        [(
            "E49802".to_string(),
            "`n` is sampled `centroid` in `centroid_n` but `center` in `vs`, which writes it: \
             both sides of a WGSL varying sample alike"
        )]
    );
}

/// A module built by hand, without the vector types the front end
/// declares: a fragment `main(float3x2 m : M, float4 c : C) : SV_Target`
/// returning `c`.
fn matrix_without_row_type() -> ir::Module {
    let mut m = ir::Module::default();
    let mut ty = |inner| {
        m.types
            .insert(ir::Type { name: None, inner }, ir::Span::UNDEFINED)
    };
    let float4 = ty(ir::TypeInner::Vector {
        size: 4,
        scalar: ir::Scalar::F32,
    });
    let float3x2 = ty(ir::TypeInner::Matrix {
        rows: 3,
        columns: 2,
        scalar: ir::Scalar::F32,
    });
    let semantic = |text| ir::IoAttrs {
        binding: Some(ir::Binding::Semantic(
            ir::Semantic::parse(text).expect("a semantic"),
        )),
        ..ir::IoAttrs::default()
    };
    let param = |name: &str, ty, io| ir::FunctionParam {
        name: name.to_string(),
        ty,
        direction: ir::ParamDirection::In,
        role: ir::ParamRole::Plain,
        io,
        span: ir::Span::UNDEFINED,
    };
    let mut f = ir::Function {
        name: "main".to_string(),
        params: vec![
            param("m", float3x2, semantic("M")),
            param("c", float4, semantic("C")),
        ],
        result: Some(ir::FunctionResult {
            ty: float4,
            io: semantic("SV_Target"),
            span: ir::Span::UNDEFINED,
        }),
        locals: ir::Arena::new(),
        expressions: ir::ExpressionArena::default(),
        body: ir::Block::default(),
        span: ir::Span::UNDEFINED,
    };
    let c = f
        .expressions
        .append(ir::Expression::Param(1), Some(float4), ir::Span::UNDEFINED);
    f.body
        .push(ir::Statement::Return(Some(c)), ir::Span::UNDEFINED);
    let function = m.functions.append(f, ir::Span::UNDEFINED);
    m.entry_points.push(ir::EntryPoint {
        name: "main".to_string(),
        stage: FS,
        function,
        attributes: ir::EntryPointAttributes::default(),
        span: ir::Span::UNDEFINED,
    });
    m
}

#[test]
fn a_matrix_varying_is_a_row_each_even_where_the_module_lacks_the_row_type() {
    let module = matrix_without_row_type();
    let float2 = ir::Type {
        name: None,
        inner: ir::TypeInner::Vector {
            size: 2,
            scalar: ir::Scalar::F32,
        },
    };
    // The legalizer interns the row type itself.
    assert!(module.types.get(&float2).is_none());
    let l = Wgsl::legalize(&module, 0, &ir::Policy::default()).unwrap_or_else(|e| panic!("{e:#?}"));
    ir::verify::verify_legalized(&l.module).expect("the verifier accepts the result");
    let rows: Vec<(u32, Option<u32>)> = l
        .plan
        .leaves
        .iter()
        .filter_map(|leaf| match leaf.target {
            Target::Location { location, .. } if leaf.direction == Direction::Input => {
                Some((location, leaf.row))
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        rows,
        [(0, Some(0)), (1, Some(1)), (2, Some(2)), (3, None)],
        "{:?}",
        summary(&l)
    );
    let row = l.module.types.get(&float2).expect("the row type");
    assert!(
        l.plan
            .leaves
            .iter()
            .filter(|leaf| leaf.row.is_some())
            .all(|leaf| leaf.ty == row)
    );
}

#[test]
fn a_one_column_matrix_varying_is_a_scalar_per_row() {
    let l = ok(
        "float4 main(float2x1 m : M) : SV_Target { return float4(m._m00, m._m10, 0, 1); }",
        FS,
    );
    assert_eq!(
        summary(&l),
        [
            "m_0: in @location(0)",
            "m_1: in @location(1)",
            "result: out @location(0)"
        ]
    );
    let rows = l.plan.leaves.iter().filter(|leaf| leaf.row.is_some());
    assert!(rows.clone().count() == 2);
    assert!(rows.into_iter().all(|leaf| matches!(
        l.module.types[leaf.ty].inner,
        ir::TypeInner::Scalar(ir::Scalar::F32)
    )));
    // Of 64-bit rows, refused once, named as the matrix.
    assert_eq!(
        err(
            "float4 main(double2x1 d : D) : SV_Target { return float4(float(d._m00), 0, 0, 1); }",
            FS
        ),
        [("E55204".to_string(), "d".to_string())]
    );
}
