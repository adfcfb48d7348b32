//! Checker tests: every construct the front end accepts is lowered to the
//! IR shape it should have, and every rejection carries its code and span.

use legalis_front::{Options, compile};
use legalis_ir as ir;

/// Compiles `src`; panics with the diagnostics if there were errors.
fn ok(src: &str) -> ir::Module {
    ok_with(src, &Options::default())
}

fn ok_with(src: &str, options: &Options) -> ir::Module {
    let out = compile(src, options);
    let errors: Vec<String> = out
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| format!("{} {} `{}`", d.code_str(), d.message, snippet(src, d)))
        .collect();
    assert!(
        errors.is_empty(),
        "unexpected errors:\n{}",
        errors.join("\n")
    );
    let module = out.module.expect("a module when there are no errors");
    if let Err(errors) = ir::verify::verify(&module) {
        panic!("the verifier rejected the module: {errors:?}");
    }
    module
}

fn snippet<'a>(src: &'a str, d: &ir::diag::Diagnostic) -> &'a str {
    let span = d.primary_span();
    if span.is_defined() {
        src.get(span.range()).unwrap_or("<bad span>")
    } else {
        "<no span>"
    }
}

/// `(code, message, text under the primary span)` of every diagnostic.
fn diags(src: &str) -> Vec<(String, String, String)> {
    diags_with(src, &Options::default())
}

fn diags_with(src: &str, options: &Options) -> Vec<(String, String, String)> {
    let out = compile(src, options);
    out.diagnostics
        .iter()
        .map(|d| (d.code_str(), d.message.clone(), snippet(src, d).to_string()))
        .collect()
}

fn errors_only(src: &str) -> Vec<(String, String, String)> {
    let out = compile(src, &Options::default());
    out.diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| (d.code_str(), d.message.clone(), snippet(src, d).to_string()))
        .collect()
}

#[test]
fn a_clean_module_holds_no_error_type() {
    let m = ok("[shader(\"compute\")][numthreads(1,1,1)] void main() { }");
    assert!(
        m.types
            .iter()
            .all(|(_, t)| t.name.as_deref() != Some("<error>"))
    );
}

/// Asserts exactly one error with `code`, whose message contains `message`
/// and whose span covers `text`.
#[track_caller]
fn error(src: &str, code: &str, message: &str, text: &str) {
    let out = compile(src, &Options::default());
    assert!(
        out.module.is_none(),
        "expected an error, the module compiled"
    );
    let errors: Vec<_> = out.diagnostics.iter().filter(|d| d.is_error()).collect();
    assert_eq!(errors.len(), 1, "expected one error, got {:#?}", diags(src));
    let d = errors[0];
    assert_eq!(d.code_str(), code, "{d:#?}");
    assert!(
        d.message.contains(message),
        "message `{}` lacks `{message}`",
        d.message
    );
    assert_eq!(snippet(src, d), text, "span of `{}`", d.message);
}

fn entry<'m>(module: &'m ir::Module, name: &str) -> &'m ir::EntryPoint {
    module
        .entry_points
        .iter()
        .find(|e| e.name == name)
        .expect("entry point")
}

fn function<'m>(module: &'m ir::Module, name: &str) -> &'m ir::Function {
    module
        .functions
        .iter()
        .map(|(_, f)| f)
        .find(|f| f.name == name)
        .expect("function")
}

#[test]
fn printf_is_a_statement_checked_against_its_format() {
    let m = ok(r#"[shader("compute")][numthreads(1,1,1)]
        void main(uint3 id : SV_DispatchThreadID) { printf("%u 100%% %v3u\n", id.x, id); }"#);
    let found = function(&m, "main")
        .body
        .stmts
        .iter()
        .find_map(|s| match s {
            ir::Statement::Printf { format, args } => Some((format.clone(), args.len())),
            _ => None,
        });
    assert_eq!(found, Some(("%u 100%% %v3u\n".to_string(), 2)));
    // A function of the user's named `printf` is called as any other.
    ok(
        r#"void printf(int x) {} [shader("compute")][numthreads(1,1,1)] void main() { printf(3); }"#,
    );
    let wrap = |body: &str| {
        format!(
            "[shader(\"compute\")][numthreads(1,1,1)] \
             void main(uint3 id : SV_DispatchThreadID) {{ {body} }}"
        )
    };
    error(
        &wrap("printf();"),
        "E30042",
        "needs a format string",
        "printf()",
    );
    error(&wrap("printf(\"a\\0b\");"), "E30042", "NUL", "\"a\\0b\"");
    error(
        &wrap("printf(\"%v5f\", id);"),
        "E30042",
        "size from 2 to 4",
        "\"%v5f\"",
    );
    error(
        &wrap("printf(\"%d\", 1.5f);"),
        "E30042",
        "prints an integer",
        "1.5f",
    );
    error(
        &wrap("printf(\"%v3u\", id.x);"),
        "E30042",
        "prints a vector of 3",
        "id.x",
    );
    error(
        &wrap("printf(\"%u\", id);"),
        "E30042",
        "prints a scalar",
        "id",
    );
    error(
        &wrap("printf(\"%f\", float2x2(1, 2, 3, 4));"),
        "E30042",
        "this argument is `float2x2`",
        "float2x2(1, 2, 3, 4)",
    );
    error(
        &wrap("printf(\"%u\", 1, 2);"),
        "E30042",
        "1 conversion but the call passes 2 arguments",
        "\"%u\"",
    );
    error(
        &wrap("uint x = printf(\"a\");"),
        "E30042",
        "returns nothing",
        "printf",
    );
}

fn struct_members<'m>(module: &'m ir::Module, name: &str) -> &'m [ir::StructMember] {
    module
        .types
        .iter()
        .find_map(|(_, t)| match &t.inner {
            ir::TypeInner::Struct { members } if t.name.as_deref() == Some(name) => {
                Some(members.as_slice())
            }
            _ => None,
        })
        .expect("struct")
}

fn semantic(io: &ir::IoAttrs) -> String {
    match &io.binding {
        Some(ir::Binding::Semantic(s)) => s.to_string(),
        other => format!("{other:?}"),
    }
}

fn global<'m>(module: &'m ir::Module, name: &str) -> &'m ir::GlobalVariable {
    module
        .globals
        .iter()
        .map(|(_, g)| g)
        .find(|g| g.name == name)
        .expect("global")
}

const VS: &str = r#"
struct VsIn { float3 pos : POSITION; float2 uv : TEXCOORD0; };
struct VsOut { float4 pos : SV_Position; nointerpolation uint id : BLENDINDICES2; noperspective centroid float2 uv : TEXCOORD1; };
cbuffer Params : register(b0) { row_major float4x4 mvp; float4 tint; };
[shader("vertex")]
VsOut main(VsIn input, uint vid : SV_VertexID)
{
    VsOut o;
    o.pos = mul(float4(input.pos, 1.0), mvp);
    o.id = vid;
    o.uv = input.uv * tint.xy;
    return o;
}
"#;

#[test]
fn struct_fields_keep_semantics_and_interpolation() {
    let m = ok(VS);
    let out = struct_members(&m, "VsOut");
    assert_eq!(semantic(&out[0].io), "SV_Position");
    assert_eq!(semantic(&out[1].io), "BLENDINDICES2");
    assert_eq!(
        out[1].io.interpolation.mode,
        Some(ir::InterpolationMode::Flat)
    );
    assert_eq!(
        out[2].io.interpolation.mode,
        Some(ir::InterpolationMode::NoPerspective)
    );
    assert_eq!(
        out[2].io.interpolation.sampling,
        Some(ir::Sampling::Centroid)
    );
    let ep = entry(&m, "main");
    assert_eq!(ep.stage, ir::ShaderStage::Vertex);
    let f = &m.functions[ep.function];
    assert_eq!(semantic(&f.params[1].io), "SV_VertexID");
}

#[test]
fn cbuffer_members_are_reached_by_bare_name() {
    let m = ok(VS);
    let g = global(&m, "Params");
    assert_eq!(g.space, ir::AddressSpace::Uniform);
    assert_eq!(
        g.binding.register,
        Some(ir::Register {
            class: ir::RegisterClass::B,
            index: 0,
            space: 0
        })
    );
    let ir::TypeInner::ConstantBuffer { inner } = m.types[g.ty].inner else {
        panic!("cbuffer type")
    };
    let ir::TypeInner::Struct { members } = &m.types[inner].inner else {
        panic!("struct")
    };
    assert_eq!(members[0].matrix_layout, Some(ir::MatrixLayout::RowMajor));
    let f = function(&m, "main");
    let reaches_member = f
        .expressions
        .iter()
        .any(|(_, e)| matches!(e, ir::Expression::Member { index: 1, .. }));
    assert!(reaches_member);
}

#[test]
fn params_directions_and_return_semantic() {
    let m = ok(r#"
        void helper(in float a, out float b, inout float c) { b = a; c += a; }
        [shader("fragment")]
        float4 main(float4 p : SV_Position) : SV_Target { float b; float c = 1; helper(p.x, b, c); return float4(b, c, 0, 1); }
    "#);
    let h = function(&m, "helper");
    let dirs: Vec<_> = h.params.iter().map(|p| p.direction).collect();
    assert_eq!(
        dirs,
        [
            ir::ParamDirection::In,
            ir::ParamDirection::Out,
            ir::ParamDirection::InOut
        ]
    );
    let main = function(&m, "main");
    assert_eq!(semantic(&main.result.as_ref().unwrap().io), "SV_Target");
    // callee before caller
    let order: Vec<_> = m.functions.iter().map(|(_, f)| f.name.as_str()).collect();
    assert_eq!(order, ["helper", "main"]);
}

#[test]
fn functions_may_call_functions_defined_later() {
    let m = ok(r#"
        float a(float x) { return b(x) * 2; }
        float b(float x) { return x + 1; }
        [shader("compute")] [numthreads(1,1,1)] void main() { float y = a(1); }
    "#);
    let order: Vec<_> = m.functions.iter().map(|(_, f)| f.name.as_str()).collect();
    assert_eq!(order, ["b", "a", "main"]);
}

#[test]
fn prototypes_are_matched_with_definitions() {
    ok(r#"
        float f(float x);
        [shader("compute")] [numthreads(1,1,1)] void main() { float y = f(1); }
        float f(float x) { return x; }
    "#);
    error(
        r#"
        float f(float x);
        [shader("compute")] [numthreads(1,1,1)] void main() { float y = f(1); }
        "#,
        "E30026",
        "declared but never defined",
        "f(1)",
    );
}

#[test]
fn globals_with_storage_classes_and_initializers() {
    let m = ok(r#"
        static const float k = 2.0;
        static float3 arr[2] = { {1, 2, 3}, {4, 5, 6} };
        static const uint flat[] = { 1, 2, 3, 4 };
        groupshared float cache[64];
        float4 plainUniform;
        [shader("compute")] [numthreads(64, 1, 1)]
        void main(uint3 id : SV_DispatchThreadID) { cache[id.x] = k * arr[1].y + flat[3]; }
    "#);
    assert_eq!(global(&m, "k").space, ir::AddressSpace::Constant);
    assert_eq!(global(&m, "arr").space, ir::AddressSpace::Private);
    assert!(global(&m, "arr").init.is_some());
    assert_eq!(global(&m, "cache").space, ir::AddressSpace::Workgroup);
    assert_eq!(global(&m, "plainUniform").space, ir::AddressSpace::Uniform);
    let flat = global(&m, "flat");
    assert!(matches!(
        m.types[flat.ty].inner,
        ir::TypeInner::Array {
            size: ir::ArraySize::Constant(4),
            ..
        }
    ));
    assert_eq!(
        entry(&m, "main").attributes.workgroup_size,
        Some([64, 1, 1])
    );
}

#[test]
fn an_empty_initializer_list_is_the_zero_value() {
    let m = ok(r#"
        struct S { float2 a; int b[2]; };
        static const int z[4] = {};
        static S s = {};
        [shader("compute")] [numthreads(1, 1, 1)]
        void main(uint3 id : SV_DispatchThreadID) { float4 v = {}; s.b[0] = z[id.x % 4] + int(v.x); }
    "#);
    for name in ["z", "s"] {
        let init = global(&m, name).init.expect("an initializer");
        assert!(
            matches!(m.global_expressions[init], ir::Expression::Construct { .. }),
            "{name}"
        );
    }
    // A struct or array `{}` without a zero value (a resource) is still
    // refused.
    error(
        r#"
        struct R { Texture2D t; };
        [shader("compute")] [numthreads(1, 1, 1)]
        void main() { R r = {}; }
    "#,
        "E30025",
        "initializer list has 0 element(s)",
        "{}",
    );
}

#[test]
fn entry_names_a_namespaced_or_static_member_function_not_a_method() {
    let src = r#"
        struct In { float4 c : COLOR; };
        namespace N {
            struct S {
                static float4 ps(In i) : SV_Target { return i.c; }
                float4 method(In i) : SV_Target { return i.c; }
            }
        }
    "#;
    for entry in ["N.S.ps", "N::S::ps"] {
        let options = Options {
            entry: Some(entry.into()),
            stage: Some(ir::ShaderStage::Fragment),
            ..Default::default()
        };
        let m = ok_with(src, &options);
        assert_eq!(m.entry_points[0].name, "ps", "{entry}");
    }
    let options = Options {
        entry: Some("N.S.method".into()),
        stage: Some(ir::ShaderStage::Fragment),
        ..Default::default()
    };
    let found: Vec<String> = diags_with(src, &options).into_iter().map(|d| d.0).collect();
    assert_eq!(found, ["E31002"]);
}

#[test]
fn resources_with_registers_and_vk_bindings() {
    let m = ok(r#"
        Texture2D<float4> tex : register(t0, space1);
        Texture2DArray texArr : register(t1);
        TextureCube cube;
        SamplerState samp : register(s0);
        SamplerComparisonState shadowSamp;
        StructuredBuffer<float4> sb;
        RWStructuredBuffer<uint> rwsb;
        RWTexture2D<unorm float4> img;
        ByteAddressBuffer bab;
        RWByteAddressBuffer rwbab;
        RaytracingAccelerationStructure scene;
        [[vk::binding(3, 2)]] Texture2D vkTex;
        struct P { float4 c; };
        ConstantBuffer<P> cb : register(b1);
        [shader("fragment")]
        float4 main(float2 uv : TEXCOORD0) : SV_Target {
            float4 a = tex.Sample(samp, uv) + texArr.SampleLevel(samp, float3(uv, 0), 0) + cube.Sample(samp, float3(uv, 1));
            float s = tex.SampleCmp(shadowSamp, uv, 0.5);
            rwsb[0] = bab.Load(0) + rwbab.Load4(16).x;
            rwbab.Store(0, 1u);
            img[uint2(0, 0)] = sb[1] * cb.c;
            uint w, h; tex.GetDimensions(w, h);
            uint mw, mh, levels; tex.GetDimensions(0, mw, mh, levels);
            return a * s + vkTex.Load(int3(0, 0, 0));
        }
    "#);
    let tex = global(&m, "tex");
    assert_eq!(
        tex.binding.register,
        Some(ir::Register {
            class: ir::RegisterClass::T,
            index: 0,
            space: 1
        })
    );
    assert_eq!(global(&m, "vkTex").binding.vk_binding, Some((3, 2)));
    let img = global(&m, "img");
    assert!(matches!(
        m.types[img.ty].inner,
        ir::TypeInner::Texture(ir::Texture {
            access: ir::ResourceAccess::ReadWrite,
            normalization: Some(ir::Normalization::Unorm),
            ..
        })
    ));
    assert!(matches!(
        m.types[global(&m, "scene").ty].inner,
        ir::TypeInner::AccelerationStructure
    ));
}

#[test]
fn typedefs_typealiases_and_enums() {
    let m = ok(r#"
        typedef float4 Color;
        typedef float Weights[4];
        typealias Vec3 = float3;
        enum Mode { Off, On = 5, Next };
        enum class Kind : uint { A, B };
        [shader("compute")] [numthreads(1,1,1)]
        void main() {
            Color c = Color(1, 2, 3, 4);
            Weights w = { 1, 2, 3, 4 };
            Vec3 v = c.xyz;
            int m = Next + Mode::On + Mode.Off;
            uint k = (uint)Kind::B;
        }
    "#);
    let f = function(&m, "main");
    let literals: Vec<i64> = f
        .expressions
        .iter()
        .filter_map(|(_, e)| match e {
            ir::Expression::Literal(ir::Literal::Int(v)) => Some(*v),
            _ => None,
        })
        .collect();
    assert!(
        literals.contains(&6) && literals.contains(&5),
        "enum values: {literals:?}"
    );
}

#[test]
fn preprocessor_constants_drive_array_sizes() {
    let m = ok(r#"
        #define COUNT 4
        #if COUNT > 2
        static const int N = COUNT * 2;
        #else
        static const int N = 1;
        #endif
        #ifdef MISSING
        this is not code
        #endif
        static float values[N];
        [shader("compute")] [numthreads(COUNT, 1, 1)] void main() { values[0] = 1; }
    "#);
    let g = global(&m, "values");
    assert!(matches!(
        m.types[g.ty].inner,
        ir::TypeInner::Array {
            size: ir::ArraySize::Constant(8),
            ..
        }
    ));
    assert_eq!(entry(&m, "main").attributes.workgroup_size, Some([4, 1, 1]));
}

#[test]
fn every_statement_form() {
    ok(r#"
        [shader("fragment")]
        float4 main(float4 p : SV_Position) : SV_Target {
            float acc = 0;
            int i;
            for (i = 0, acc = 1; i < 4; i++, acc += 1) { if (i == 2) continue; acc *= 2; }
            [unroll] for (int j = 0; j < 3; ++j) acc -= j;
            while (acc > 10) { acc /= 2; if (acc < 0) break; }
            do { acc += 1; } while (acc < 3);
            switch ((int)acc) {
                case 0: case 1: acc = 5; break;
                case 2: acc = 6;
                default: acc = 7; break;
            }
            { float shadow = acc; acc = shadow; }
            if (acc > 100) discard; else acc = acc;
            ;
            return float4(acc, acc, acc, 1);
        }
    "#);
}

#[test]
fn literals_have_the_right_types() {
    let m = ok(r#"
        [shader("compute")] [numthreads(1,1,1)]
        void main() {
            uint a = 0xFFu; int64_t b = 5ll; uint64_t c = 7ull; half d = 1.5h; double e = 2.0l;
            float f = 1e3f + .5 + 3.; int g = 012; bool t = true;
        }
    "#);
    let f = function(&m, "main");
    let lit_types: Vec<String> = f
        .expressions
        .iter()
        .filter(|(_, e)| matches!(e, ir::Expression::Literal(_)))
        .map(|(h, _)| ir::print::type_name(&m, f.expressions.ty(h).unwrap()))
        .collect();
    for want in [
        "uint", "int64_t", "uint64_t", "half", "double", "float", "int", "bool",
    ] {
        assert!(
            lit_types.iter().any(|t| t == want),
            "no `{want}` literal in {lit_types:?}"
        );
    }
}

#[test]
fn operators_promote_like_hlsl() {
    let m = ok(r#"
        [shader("compute")] [numthreads(1,1,1)]
        void main() {
            int i = 1; uint u = 2; float f = 3; float3 v = 1;
            float3 a = v * f + i;
            uint b = i + u;
            bool3 c = v > 0.5;
            int d = (i << 2) | (i & 3) ^ ~i;
            float e = i ? f : 2;
            bool l = i && f || !u;
            v.xy = v.zx;
            v.rgb += 1;
        }
    "#);
    let f = function(&m, "main");
    let add_uint = f.expressions.iter().any(|(h, e)| {
        matches!(
            e,
            ir::Expression::Binary {
                op: ir::BinaryOp::Add,
                ..
            }
        ) && ir::print::type_name(&m, f.expressions.ty(h).unwrap()) == "uint"
    });
    assert!(add_uint, "int + uint is uint");
}

#[test]
fn constructors_casts_and_splats() {
    ok(r#"
        struct S { float a; int b[2]; };
        [shader("compute")] [numthreads(1,1,1)]
        void main() {
            float4 a = float4(1, float2(2, 3), 4);
            float4 b = 1;
            float3 c = (float3)a;
            int2 d = (int2)b.xy;
            float2x2 m = float2x2(1, 2, 3, 4);
            float3x3 n = (float3x3)float4x4(a, a, a, a);
            matrix<float, 2, 2> mm = m;
            vector<int, 3> vi = vector<int, 3>(1, 2, 3);
            S s = (S)0;
            S t = { 1.0, { 2, 3 } };
            float x = m._m01 + m._11 + n._m22_m00.x;
            float4 fromScalar = float4(x.xxx, 1);
        }
    "#);
}

#[test]
fn intrinsics_are_typed() {
    ok(r#"
        [shader("fragment")]
        float4 main(float4 p : SV_Position, float3 n : NORMAL) : SV_Target {
            float3 v = normalize(n);
            float d = dot(v, n) + length(v) + distance(v, n);
            float3 c = cross(v, n) + lerp(v, n, 0.5) + saturate(v) + clamp(v, 0, 1) + smoothstep(0, 1, v);
            float m = min(d, 1) + max(1, 2) + abs(-d) + sign(d) + sqrt(d) + rsqrt(d) + pow(d, 2) + exp(d) + exp2(d);
            m += log(d) + log2(d) + sin(d) + cos(d) + tan(d) + asin(d) + acos(d) + atan(d) + atan2(d, 1);
            m += frac(d) + floor(d) + ceil(d) + round(d) + trunc(d) + step(0.5, d);
            float4x4 mat = float4x4(p, p, p, p);
            float4 r = mul(mat, p) + mul(p, mat) + mul(2, p);
            float4x4 t = transpose(mat);
            float det = determinant(mat);
            bool b = any(v) && all(v);
            uint bits = asuint(d) + countbits(5u) + firstbithigh(8u) + reversebits(1u) + f32tof16(d);
            int ib = asint(d);
            float back = asfloat(bits) + f16tof32(bits);
            float3 dd = ddx(v) + ddy(v) + fwidth(v);
            return r + t[0] + det + m + float4(c + dd, back);
        }
    "#);
}

#[test]
fn stage_intrinsics_are_declared() {
    ok(r#"
        struct Payload { float4 color; };
        struct Attribs { float2 bary; };
        RaytracingAccelerationStructure scene;
        RWTexture2D<float4> output;
        [shader("raygeneration")]
        void rg() {
            uint3 idx = DispatchRaysIndex();
            uint3 dim = DispatchRaysDimensions();
            RayDesc ray;
            ray.Origin = float3(0, 0, 0); ray.Direction = float3(0, 0, 1); ray.TMin = 0.01; ray.TMax = 100;
            Payload payload = (Payload)0;
            TraceRay(scene, 0, 0xFF, 0, 1, 0, ray, payload);
            CallShader(0, payload);
            output[idx.xy] = payload.color;
        }
        [shader("intersection")]
        void isect() { Attribs a; a.bary = float2(0, 0); ReportHit(RayTCurrent(), 0, a); }
        [shader("anyhit")]
        void ah(inout Payload p, in BuiltInTriangleIntersectionAttributes attr) { if (attr.barycentrics.x > 0.5) IgnoreHit(); else AcceptHitAndEndSearch(); }
        [shader("closesthit")]
        void ch(inout Payload p, in BuiltInTriangleIntersectionAttributes attr) {
            p.color = float4(WorldRayOrigin() + WorldRayDirection() * RayTCurrent(), InstanceID() + HitKind() + PrimitiveIndex() + InstanceIndex());
            float3x4 o2w = ObjectToWorld3x4();
        }
        [shader("miss")]
        void ms(inout Payload p) { p.color = 0; }
        [shader("callable")]
        void cl(inout Payload p) { p.color = 1; }
    "#);
}

#[test]
fn compute_and_wave_intrinsics() {
    ok(r#"
        groupshared uint counter;
        RWStructuredBuffer<uint> buf;
        [shader("compute")] [numthreads(8, 8, 1)]
        void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint idx : SV_GroupIndex) {
            uint original;
            InterlockedAdd(counter, 1, original);
            InterlockedMax(buf[0], id.x);
            GroupMemoryBarrierWithGroupSync();
            uint s = WaveActiveSum(id.x) + WaveGetLaneIndex() + WavePrefixSum(1u) + WaveReadLaneFirst(idx);
            bool any = WaveActiveAnyTrue(s > 3);
            buf[idx] = s + buf.IncrementCounter();
        }
    "#);
}

#[test]
fn every_stage_with_its_attributes() {
    let m = ok(r#"
        struct VsOut { float4 pos : SV_Position; };
        struct HsOut { float3 pos : POSITION; };
        struct Pc { float tess[3] : SV_TessFactor; float inside : SV_InsideTessFactor; };
        Pc patchFn(InputPatch<VsOut, 3> patch, uint pid : SV_PrimitiveID) { Pc p; p.tess[0] = p.tess[1] = p.tess[2] = 1; p.inside = 1; return p; }
        [shader("hull")] [domain("tri")] [partitioning("fractional_odd")] [outputtopology("triangle_cw")]
        [outputcontrolpoints(3)] [patchconstantfunc("patchFn")] [maxtessfactor(64.0)]
        HsOut hs(InputPatch<VsOut, 3> patch, uint i : SV_OutputControlPointID) { HsOut o; o.pos = patch[i].pos.xyz; return o; }
        [shader("domain")] [domain("tri")]
        VsOut ds(Pc pc, float3 bary : SV_DomainLocation, const OutputPatch<HsOut, 3> patch) { VsOut o; o.pos = float4(patch[0].pos * bary.x, 1); return o; }
        [shader("geometry")] [maxvertexcount(3)] [instance(2)]
        void gs(triangle VsOut input[3], inout TriangleStream<VsOut> stream, uint inst : SV_GSInstanceID) {
            for (int i = 0; i < 3; i++) stream.Append(input[i]);
            stream.RestartStrip();
        }
        struct MeshPayload { uint base; };
        struct Prim { uint layer : SV_RenderTargetArrayIndex; };
        [shader("mesh")] [numthreads(32, 1, 1)] [outputtopology("triangle")]
        void ms(in payload MeshPayload pl, uint tid : SV_GroupThreadID, out vertices VsOut verts[3], out indices uint3 tris[1], out primitives Prim prims[1]) {
            SetMeshOutputCounts(3, 1);
            verts[tid].pos = float4(pl.base, 0, 0, 1);
            tris[0] = uint3(0, 1, 2);
            prims[0].layer = 0;
        }
        groupshared MeshPayload shared;
        [shader("amplification")] [numthreads(1, 1, 1)]
        void as() { shared.base = 1; DispatchMesh(1, 1, 1, shared); }
        [shader("fragment")] [earlydepthstencil]
        float4 fs(VsOut i, bool front : SV_IsFrontFace) : SV_Target { return front ? i.pos : 0; }
    "#);
    let hs = entry(&m, "hs");
    assert_eq!(hs.attributes.domain, Some(ir::TessDomain::Tri));
    assert_eq!(
        hs.attributes.partitioning,
        Some(ir::Partitioning::FractionalOdd)
    );
    assert_eq!(
        hs.attributes.output_topology,
        Some(ir::OutputTopology::TriangleCw)
    );
    assert_eq!(hs.attributes.output_control_points, Some(3));
    assert_eq!(hs.attributes.max_tess_factor, Some(64.0));
    let pcf = hs
        .attributes
        .patch_constant_func
        .expect("patch constant function");
    assert_eq!(m.functions[pcf].name, "patchFn");
    let gs = entry(&m, "gs");
    assert_eq!(
        (gs.attributes.max_vertex_count, gs.attributes.instances),
        (Some(3), Some(2))
    );
    let gs_fn = &m.functions[gs.function];
    assert_eq!(
        gs_fn.params[0].role,
        ir::ParamRole::GeometryInput(ir::InputPrimitive::Triangle)
    );
    let ms = &m.functions[entry(&m, "ms").function];
    assert_eq!(ms.params[0].role, ir::ParamRole::Payload);
    assert!(matches!(
        m.types[ms.params[2].ty].inner,
        ir::TypeInner::MeshOutput {
            kind: ir::MeshOutputKind::Vertices,
            count: 3,
            ..
        }
    ));
    assert!(entry(&m, "fs").attributes.early_depth_stencil);
    assert_eq!(m.entry_points.len(), 6);
}

#[test]
fn mesh_output_generic_spelling() {
    let m = ok(r#"
        struct V { float4 pos : SV_Position; };
        [shader("mesh")] [numthreads(1, 1, 1)] [outputtopology("triangle")]
        void ms(OutputVertices<V, 3> verts, OutputIndices<uint3, 1> tris) { SetMeshOutputCounts(3, 1); tris[0] = uint3(0, 1, 2); }
    "#);
    let f = &m.functions[entry(&m, "ms").function];
    assert_eq!(f.params[0].direction, ir::ParamDirection::Out);
}

#[test]
fn entry_option_picks_function_and_stage() {
    let src = "float4 vmain(float4 p : POSITION) : SV_Position { return p; }";
    let options = Options {
        entry: Some("vmain".into()),
        stage: Some(ir::ShaderStage::Vertex),
        ..Default::default()
    };
    let m = ok_with(src, &options);
    assert_eq!(entry(&m, "vmain").stage, ir::ShaderStage::Vertex);
    let missing = Options {
        entry: Some("nope".into()),
        ..Default::default()
    };
    let d = diags_with(src, &missing);
    assert_eq!(d[0].0, "E31002");
    let no_stage = Options {
        entry: Some("vmain".into()),
        ..Default::default()
    };
    let d = diags_with(src, &no_stage);
    assert_eq!((d[0].0.as_str(), d[0].2.as_str()), ("E31005", "vmain"));
    let clash = Options {
        entry: Some("main".into()),
        stage: Some(ir::ShaderStage::Vertex),
        ..Default::default()
    };
    let d = diags_with(
        "[shader(\"fragment\")] float4 main() : SV_Target { return 0; }",
        &clash,
    );
    assert_eq!(
        (d[0].0.as_str(), d[0].2.as_str()),
        ("E31004", "\"fragment\"")
    );
}

#[test]
fn unknown_attribute_is_a_warning() {
    let src = "[shader(\"compute\")] [numthreads(1,1,1)] [frobnicate(3)] void main() { }";
    let out = compile(src, &Options::default());
    assert!(out.module.is_some());
    let d = diags(src);
    assert_eq!(d.len(), 1);
    assert_eq!(
        (d[0].0.as_str(), d[0].2.as_str()),
        ("E31000", "frobnicate(3)")
    );
}

// ---- error paths ----------------------------------------------------------

#[test]
fn undefined_names_and_types() {
    error(
        "[shader(\"compute\")][numthreads(1,1,1)] void main() { float x = missing; }",
        "E30001",
        "undefined name `missing`",
        "missing",
    );
    error(
        "[shader(\"compute\")][numthreads(1,1,1)] void main() { Frob x; }",
        "E30002",
        "undefined type `Frob`",
        "Frob",
    );
    error(
        "[shader(\"compute\")][numthreads(1,1,1)] void main() { nothing(1); }",
        "E30001",
        "undefined function `nothing`",
        "nothing",
    );
}

#[test]
fn type_mismatches() {
    error(
        "struct S { float a; }; [shader(\"compute\")][numthreads(1,1,1)] void main() { S s; float4 v = s; }",
        "E30003",
        "cannot convert `S` to `float4`",
        "s",
    );
    error(
        "[shader(\"compute\")][numthreads(1,1,1)] void main() { float2 v = float2(1, 2, 3); }",
        "E30008",
        "constructor needs 2 components, the arguments supply 3",
        "float2(1, 2, 3)",
    );
    error(
        "Texture2D t; [shader(\"compute\")][numthreads(1,1,1)] void main() { float x = t + 1; }",
        "E30020",
        "cannot be applied",
        "t + 1",
    );
    error(
        "[shader(\"compute\")][numthreads(1,1,1)] void main() { float f = 1.0; int i = f << 2; }",
        "E30020",
        "integer operands",
        "f << 2",
    );
}

#[test]
fn overload_errors() {
    error(
        "float f(float a) { return a; } [shader(\"compute\")][numthreads(1,1,1)] void main() { f(1, 2); }",
        "E30004",
        "no overload of `f`",
        "f(1, 2)",
    );
    error(
        "float f(float a, int b) { return a; } float f(int a, float b) { return b; } [shader(\"compute\")][numthreads(1,1,1)] void main() { f(1, 1); }",
        "E30005",
        "ambiguous",
        "f(1, 1)",
    );
    error(
        "[shader(\"compute\")][numthreads(1,1,1)] void main() { float3 c = cross(1, 2); }",
        "E30004",
        "no overload of `cross`",
        "cross(1, 2)",
    );
    error(
        "Texture2D t; [shader(\"fragment\")] float4 main() : SV_Target { return t.Sample(1); }",
        "E30004",
        "`Texture2D<float4>.Sample`",
        "t.Sample(1)",
    );
}

#[test]
fn redefinitions() {
    error(
        "struct A { float x; }; struct A { float y; };",
        "E30006",
        "already defined",
        "A",
    );
    error(
        "struct A { float x; float x; };",
        "E30006",
        "field `x` is already declared",
        "x",
    );
    error(
        "static float g; static int g;",
        "E30006",
        "already defined",
        "g",
    );
    error(
        "float f() { return 1; } float f() { return 2; }",
        "E30006",
        "already defined",
        "f",
    );
}

#[test]
fn assignment_targets() {
    error(
        "[shader(\"compute\")][numthreads(1,1,1)] void main() { const float c = 1; c = 2; }",
        "E30007",
        "`const` variable",
        "c",
    );
    error(
        "static const float k = 1; [shader(\"compute\")][numthreads(1,1,1)] void main() { k = 2; }",
        "E30007",
        "a constant",
        "k",
    );
    error(
        "[shader(\"compute\")][numthreads(1,1,1)] void main() { float4 v; v.xx = 1; }",
        "E30007",
        "repeats a component",
        "v.xx",
    );
    error(
        "[shader(\"compute\")][numthreads(1,1,1)] void main() { 1 = 2; }",
        "E30007",
        "not a variable",
        "1",
    );
    error(
        "cbuffer C { float x; }; [shader(\"compute\")][numthreads(1,1,1)] void main() { x = 2; }",
        "E30007",
        "constant-buffer member",
        "x",
    );
}

#[test]
fn swizzle_and_member_errors() {
    error(
        "[shader(\"compute\")][numthreads(1,1,1)] void main() { float4 v; float2 a = v.xg; }",
        "E30009",
        "cannot be mixed",
        "xg",
    );
    error(
        "[shader(\"compute\")][numthreads(1,1,1)] void main() { float2 v; float a = v.z; }",
        "E30009",
        "out of range",
        "z",
    );
    error(
        "struct S { float a; }; [shader(\"compute\")][numthreads(1,1,1)] void main() { S s; float b = s.b; }",
        "E30010",
        "`S` has no member `b`",
        "b",
    );
    error(
        "[shader(\"compute\")][numthreads(1,1,1)] void main() { float f; float g = f[0]; }",
        "E30011",
        "`float` cannot be indexed",
        "f",
    );
}

#[test]
fn constants_and_array_sizes() {
    error("static float a[0];", "E30021", "positive integer", "0");
    error(
        "static float g = 1; static float a[g];",
        "E30012",
        "not a compile-time constant",
        "g",
    );
    error(
        "static float a[4 / 0];",
        "E30027",
        "division by zero",
        "4 / 0",
    );
    error(
        "static const float k;",
        "E30025",
        "needs an initializer",
        "k",
    );
}

#[test]
fn control_flow_errors() {
    error(
        "[shader(\"compute\")][numthreads(1,1,1)] void main() { break; }",
        "E30014",
        "`break` outside",
        "break;",
    );
    error(
        "[shader(\"compute\")][numthreads(1,1,1)] void main() { continue; }",
        "E30014",
        "`continue` outside",
        "continue;",
    );
    error(
        "[shader(\"compute\")][numthreads(1,1,1)] void main() { return 1; }",
        "E30018",
        "cannot return a value",
        "1",
    );
    error(
        "float f() { return; }",
        "E30018",
        "must return a `float`",
        "return;",
    );
    error(
        "[shader(\"compute\")][numthreads(1,1,1)] void main() { float4 v; if (v) {} }",
        "E30019",
        "must be a scalar",
        "v",
    );
    error(
        "[shader(\"compute\")][numthreads(1,1,1)] void main() { int i = 0; switch (i) { case 1: break; case 1: break; } }",
        "E30023",
        "`case 1` appears twice",
        "case 1: break;",
    );
}

#[test]
fn recursion_is_rejected() {
    let d = errors_only("float f(float x) { return g(x); } float g(float x) { return f(x); }");
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].0, "E30013");
    assert!(d[0].1.contains("`f`, `g`"), "{}", d[0].1);
    let d = errors_only("float f(float x) { return f(x); }");
    assert_eq!(d[0].0, "E30013");
}

#[test]
fn missing_return_warns() {
    let d = diags(
        "[shader(\"compute\")][numthreads(1,1,1)] void main() { } float f(float x) { if (x > 0) return 1; }",
    );
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!((d[0].0.as_str(), d[0].2.as_str()), ("E30015", "f"));
}

#[test]
fn implicit_truncation_warns() {
    let d = diags(
        "[shader(\"compute\")][numthreads(1,1,1)] void main() { float4 v = 1; float3 t = v; }",
    );
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!((d[0].0.as_str(), d[0].2.as_str()), ("E30081", "v"));
}

#[test]
fn generic_argument_errors() {
    error("vector<float, 5> v;", "E30017", "from 1 to 4", "5");
    error(
        "InputPatch<float4> p;",
        "E30017",
        "takes 2 generic argument(s), found 1",
        "InputPatch<float4>",
    );
    error(
        "TextureBuffer<float4> c;",
        "E30017",
        "needs a struct type",
        "TextureBuffer<float4>",
    );
    error(
        "ConstantBuffer<Texture2D> c;",
        "E30017",
        "needs a struct type",
        "ConstantBuffer<Texture2D>",
    );
}

/// `ConstantBuffer<float4> c` holds `struct ConstantBuffer_float4 { float4
/// _data; }`, and `c` reads the member.
#[test]
fn constant_buffer_of_a_value_wraps_it_in_a_struct() {
    let m = ok("ConstantBuffer<float4> c;\nfloat4 f() { return c * 2.0; }");
    let g = global(&m, "c");
    let ir::TypeInner::ConstantBuffer { inner } = m.types[g.ty].inner else {
        panic!("a constant buffer")
    };
    assert_eq!(
        m.types[inner].name.as_deref(),
        Some("ConstantBuffer_float4")
    );
    let ir::TypeInner::Struct { members } = &m.types[inner].inner else {
        panic!("a struct")
    };
    assert_eq!(members.len(), 1);
    assert_eq!(members[0].name, "_data");
    let f = function(&m, "f");
    let reads_member = f
        .expressions
        .iter()
        .any(|(_, e)| matches!(e, ir::Expression::Member { index: 0, .. }));
    assert!(reads_member);
}

#[test]
fn stage_attribute_errors() {
    error(
        "[shader(\"compute\")][numthreads(0, 1, 1)] void main() { }",
        "E31001",
        "at least 1",
        "numthreads(0, 1, 1)",
    );
    error(
        "[shader(\"vertexx\")] void main() { }",
        "E31003",
        "unknown stage `vertexx`",
        "\"vertexx\"",
    );
    error(
        "struct O { float4 p : POSITION; }; [shader(\"hull\")][domain(\"tri\")][partitioning(\"integer\")][outputtopology(\"triangle_cw\")][outputcontrolpoints(3)][patchconstantfunc(\"nope\")] O main(InputPatch<O, 3> p) { return p[0]; }",
        "E31007",
        "`nope` is not defined",
        "\"nope\"",
    );
    error(
        "[shader(\"domain\")][domain(\"hexagon\")] float4 main() : SV_Position { return 0; }",
        "E31001",
        "must be one of",
        "\"hexagon\"",
    );
    error(
        "[shader(\"geometry\")] void main() { }",
        "E31005",
        "[maxvertexcount(n)]",
        "main",
    );
    let d =
        diags("[shader(\"vertex\")][numthreads(1,1,1)] float4 main() : SV_Position { return 0; }");
    assert_eq!(
        (d[0].0.as_str(), d[0].2.as_str()),
        ("E31006", "numthreads(1,1,1)")
    );
}

#[test]
fn stage_objects_outside_their_stage() {
    error(
        "struct V { float4 p : SV_Position; }; [shader(\"vertex\")] V main(InputPatch<V, 3> p) { return p[0]; }",
        "E31009",
        "not allowed in a vertex entry point",
        "p",
    );
    error(
        "TriangleStream<float4> s;",
        "E30003",
        "only allowed as an entry-point parameter",
        "s",
    );
}

#[test]
fn unknown_system_value_survives_the_front_end() {
    // Rejecting unknown SV_ semantics is the legalizers' job (B5): the front
    // end keeps the spelling so the diagnostic can point at it.
    let m = ok("[shader(\"fragment\")] float4 main(float4 p : SV_Bogus) : SV_Target { return p; }");
    let f = function(&m, "main");
    assert_eq!(
        f.params[0].io.binding,
        Some(ir::Binding::Semantic(ir::Semantic::UnknownSystem {
            name: "SV_Bogus".into(),
            index: 0
        }))
    );
}

#[test]
fn deep_operator_chains_hit_the_depth_limit_not_the_stack() {
    let terms = vec!["x"; 10_000].join(" + ");
    let src = format!("float f(float x) {{ return {terms}; }}");
    let result = std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(move || diags(&src))
        .expect("thread")
        .join()
        .expect("no stack overflow");
    assert!(
        result.iter().any(|d| d.0 == "E20002"),
        "{:?}",
        &result[..result.len().min(3)]
    );
}

// ---- constructs found by the front-end corpus --------------------------------

#[test]
fn namespaces_qualify_and_resolve_names() {
    let m = ok(r#"
        namespace Util {
            static const float Scale = 2.0;
            struct Pair { float a; float b; };
            float twice(float x) { return x * Scale; }
            namespace Inner { float thrice(float x) { return twice(x) + x; } }
        }
        [shader("compute")] [numthreads(1, 1, 1)]
        void main() {
            Util::Pair p;
            p.a = Util::twice(1.0);
            p.b = Util::Inner::thrice(p.a) * Util::Scale;
        }
    "#);
    let names: Vec<_> = m.functions.iter().map(|(_, f)| f.name.as_str()).collect();
    assert_eq!(names, ["Util::twice", "Util::Inner::thrice", "main"]);
    assert!(
        m.types
            .iter()
            .any(|(_, t)| t.name.as_deref() == Some("Util::Pair"))
    );
    error(
        "namespace N { float f() { return 1; } } [shader(\"compute\")][numthreads(1,1,1)] void main() { float x = M::f(); }",
        "E30001",
        "undefined function `M::f`",
        "M::f",
    );
}

#[test]
fn struct_member_functions() {
    let m = ok(r#"
        struct Counter {
            uint value;
            uint step;
            [mutating] void reset() { value = 0; }
            void bump() { value += step; }
            uint peek() { return value + twice(step); }
            uint twice(uint x) { return x * 2; }
            static Counter make(uint s) { Counter c; c.value = 0; c.step = s; return c; }
        };
        [shader("compute")] [numthreads(1, 1, 1)]
        void main() {
            Counter c = Counter::make(3);
            c.bump();
            uint v = c.peek();
            c.reset();
        }
    "#);
    let f = |name: &str| function(&m, name);
    assert_eq!(
        f("Counter::reset").params[0].direction,
        ir::ParamDirection::InOut
    );
    assert_eq!(
        f("Counter::bump").params[0].direction,
        ir::ParamDirection::InOut
    );
    assert_eq!(
        f("Counter::peek").params[0].direction,
        ir::ParamDirection::In
    );
    assert_eq!(f("Counter::peek").params[0].name, "this");
    assert!(f("Counter::make").params.iter().all(|p| p.name != "this"));
    error(
        "struct S { float x; float get() { return x; } }; [shader(\"compute\")][numthreads(1,1,1)] void main() { S s; float y = s.nope(); }",
        "E30010",
        "`S` has no method `nope`",
        "nope",
    );
    error(
        "[shader(\"compute\")][numthreads(1,1,1)] void main() { struct L { float x; float g() { return x; } }; }",
        "E20003",
        "inside a function are not supported",
        "g",
    );
}

const GENERIC_ENTRY: &str = "[shader(\"compute\")][numthreads(1,1,1)] void main() { go(); }";

/// Names of the module's functions, in module order.
fn function_names(module: &ir::Module) -> Vec<String> {
    module
        .functions
        .iter()
        .map(|(_, f)| f.name.clone())
        .collect()
}

#[test]
fn generic_functions_are_specialised_once_per_argument_list() {
    let src = format!(
        "T twice<T>(T x) {{ return x + x; }}
         T unused<T>(T x) {{ return x; }}
         float sum<let N : int>(float a[N]) {{
             float t = 0; for (int i = 0; i < N; i++) t += a[i]; return t + N;
         }}
         vector<T, N> scale<T, let N : int>(vector<T, N> v, T k) {{ return v * k; }}
         T pick<T>(T a, T b) {{ return b; }}
         void go() {{
             float a[3] = {{1, 2, 3}};
             float f = twice(1.0f) + twice(2.0f) + float(twice(3)) + sum(a);
             float3 v = scale(float3(1, 2, 3), 2.0f) + twice<float3>(1);
             float p = pick(1, 2.5);
         }}
         {GENERIC_ENTRY}"
    );
    let m = ok(&src);
    let mut names = function_names(&m);
    names.sort();
    assert_eq!(
        names,
        [
            "go",
            "main",
            "pick<float>",
            "scale<float, 3>",
            "sum<3>",
            "twice<float3>",
            "twice<float>",
            "twice<int>"
        ]
    );
    let sum = function(&m, "sum<3>");
    assert!(matches!(
        m.types[sum.params[0].ty].inner,
        ir::TypeInner::Array {
            size: ir::ArraySize::Constant(3),
            ..
        }
    ));
    // `N` is the constant 3 in the body.
    assert!(
        sum.expressions
            .iter()
            .any(|(_, e)| matches!(e, ir::Expression::Literal(ir::Literal::Int(3))))
    );
}

#[test]
fn constraint_methods_resolve_to_the_concrete_struct() {
    let src = format!(
        "interface IArea {{ float area(); }}
         interface ISquare : IArea {{ }}
         struct Sq : ISquare {{ float s; float area() {{ return s * s; }} }}
         float total<S : IArea>(S a, S b) {{ return a.area() + b.area(); }}
         T one<T : IFloat>() {{ return T(1); }}
         void go() {{ Sq q; q.s = 2; float t = total(q, q) + one<float>(); }}
         {GENERIC_ENTRY}"
    );
    let m = ok(&src);
    let total = function(&m, "total<Sq>");
    assert!(total.expressions.iter().any(|(_, e)| matches!(
        e,
        ir::Expression::Call { function, .. } if m.functions[*function].name == "Sq::area"
    )));
}

#[test]
fn generic_structs_make_one_struct_per_argument_list() {
    let src = format!(
        "struct Pair<T> {{ T a; T b; T sum() {{ return a + b; }} }}
         struct Buf<let N : int> {{ float v[N]; float first() {{ return v[0] + N; }} }}
         typealias PF = Pair<float>;
         void go() {{
             PF p; Pair<float> q; Pair<int> r; Buf<4> b;
             float s = p.sum() + q.sum() + float(r.sum()) + b.first();
         }}
         {GENERIC_ENTRY}"
    );
    let m = ok(&src);
    assert_eq!(struct_members(&m, "Pair<float>").len(), 2);
    assert_eq!(struct_members(&m, "Pair<int>").len(), 2);
    let v = &struct_members(&m, "Buf<4>")[0];
    assert!(matches!(
        m.types[v.ty].inner,
        ir::TypeInner::Array {
            size: ir::ArraySize::Constant(4),
            ..
        }
    ));
    let mut names = function_names(&m);
    names.sort();
    assert_eq!(
        names,
        [
            "Buf<4>::first",
            "Pair<float>::sum",
            "Pair<int>::sum",
            "go",
            "main"
        ]
    );
    // Inference reads a struct instance's arguments.
    let src = format!(
        "struct Pair<T> {{ T a; T b; }}
         T first<T>(Pair<T> p) {{ return p.a; }}
         void go() {{ Pair<uint> p; p.a = 1; p.b = 2; uint x = first(p); }}
         {GENERIC_ENTRY}"
    );
    let m = ok(&src);
    assert!(function_names(&m).contains(&"first<uint>".to_string()));
}

#[test]
fn generic_prefix_and_where_clauses() {
    let src = format!(
        "interface IScale {{ float scale(); }}
         struct Two : IScale {{ float scale() {{ return 2.0; }} }}
         __generic<T : IScale>
         float apply(T s, float x) {{ return s.scale() * x; }}
         __generic<T, let N : int>
         struct Arr {{ T v[N]; }}
         float twice<T>(T s) where T : IScale {{ return s.scale() * 2; }}
         struct Box<T> where T : IScale {{ T inner; }}
         void go() {{
             Two t; Arr<float, 2> a; Box<Two> b;
             float x = apply(t, a.v[1]) + twice(b.inner);
         }}
         {GENERIC_ENTRY}"
    );
    let m = ok(&src);
    assert_eq!(struct_members(&m, "Arr<float, 2>").len(), 1);
    assert_eq!(struct_members(&m, "Box<Two>").len(), 1);
    let names = function_names(&m);
    assert!(names.contains(&"apply<Two>".to_string()), "{names:?}");
    assert!(names.contains(&"twice<Two>".to_string()), "{names:?}");
    // A `where` constraint is checked like one written in the list.
    error(
        "interface IScale { float scale(); }
         struct Box<T> where T : IScale { T inner; }
         void go() { Box<float> b; }",
        "E30032",
        "`float` does not conform to `IScale`",
        "Box<float>",
    );
    let m = ok(&format!(
        "struct S {{ float k; __generic<T : IFloat> T scale(T x) {{ return x * k; }} }}
         void go() {{ S s; float2 v = s.scale(float2(1, 2)); }}
         {GENERIC_ENTRY}"
    ));
    assert!(function_names(&m).contains(&"S::scale<float2>".to_string()));
    error(
        "struct S { __generic<T> float bad; }",
        "E20001",
        "must come before a method",
        "__generic",
    );
    error(
        "__generic<T> typedef float F;",
        "E20001",
        "must come before a struct or a function",
        "__generic",
    );
    error(
        "float f<T>(T x) where U : IFloat { return 1; }",
        "E20001",
        "`U` is not a type parameter",
        "U",
    );
}

#[test]
fn extensions_add_methods_and_conformances() {
    let src = format!(
        "interface IArea {{ float area(); }}
         extension Sq : IArea {{ float area() {{ return s * s; }} void grow() {{ s += 1; }} }}
         struct Sq {{ float s; }}
         float total<A : IArea>(A a) {{ return a.area(); }}
         void go() {{ Sq q; q.s = 1; q.grow(); float t = total(q); }}
         {GENERIC_ENTRY}"
    );
    let m = ok(&src);
    let grow = function(&m, "Sq::grow");
    // It assigns a field by its bare name: `this` is inout.
    assert_eq!(grow.params[0].direction, ir::ParamDirection::InOut);
    assert!(function_names(&m).contains(&"total<Sq>".to_string()));
    error(
        "extension float { float twice() { return 2; } }",
        "E20003",
        "an extension of `float`, which is not a struct, is not supported",
        "float",
    );
    error(
        "struct Pair<T> { T a; } extension Pair { float f() { return 1; } }",
        "E20003",
        "an extension of the generic struct `Pair` is not supported",
        "Pair",
    );
    error(
        "extension Nothing { float f() { return 1; } }",
        "E30002",
        "undefined type `Nothing`",
        "Nothing",
    );
    error(
        "interface IArea { float area(); } struct Sq { float s; } extension Sq : IArea { }",
        "E30028",
        "does not implement `IArea.area`",
        "Sq",
    );
}

#[test]
fn conditional_fields_are_there_or_not() {
    let src = format!(
        "struct S<let on : bool> {{ float a; Conditional<float2, on> b; Conditional<int, true> c; }}
         void go() {{ S<true> x; S<false> y; x.b = float2(1, 2); y.a = 1; }}
         {GENERIC_ENTRY}"
    );
    let m = ok(&src);
    let names = |s: &str| -> Vec<String> {
        struct_members(&m, s)
            .iter()
            .map(|f| f.name.clone())
            .collect()
    };
    assert_eq!(names("S<true>"), ["a", "b", "c"]);
    assert_eq!(names("S<false>"), ["a", "c"]);
    error(
        "struct S { Conditional<float> b; }",
        "E30017",
        "`Conditional` takes 2 generic arguments",
        "Conditional<float>",
    );
    // A left-out field still has its name: a store to it does nothing.
    ok(&format!(
        "struct S<let on : bool> {{ Conditional<float, on> b; }} void go() {{ S<false> s; s.b = 1; }}
         {GENERIC_ENTRY}"
    ));
    error(
        "struct S<let on : bool> { Conditional<float, on> b; } void f() { S<false> s; s.c = 1; }",
        "E30010",
        "no member",
        "c",
    );
}

#[test]
fn generic_methods_are_specialised_with_this() {
    let src = format!(
        "struct S {{
             float k;
             T scale<T : IFloat>(T x) {{ return x * k; }}
             float2 twice(float2 v) {{ return scale(v) + scale(v); }}
         }}
         struct Box<T> {{ T v; U to<U>() {{ return U(v); }} }}
         void go() {{
             S s; s.k = 2; Box<int> b; b.v = 1;
             float2 a = s.scale(float2(1, 2)) + s.scale<float>(3) + b.to<float>() + s.twice(1);
         }}
         {GENERIC_ENTRY}"
    );
    let m = ok(&src);
    let mut names = function_names(&m);
    names.sort();
    assert_eq!(
        names,
        [
            "Box<int>::to<float>",
            "S::scale<float2>",
            "S::scale<float>",
            "S::twice",
            "go",
            "main"
        ]
    );
    assert!(function(&m, "S::scale<float>").params[0].name == "this");
    error(
        "struct S { float k; } void go() { S s; float x = s.get<float>(); }",
        "E30010",
        "has no method `get`",
        "get",
    );
    error(
        "struct S { float k; float get() { return k; } } void go() { S s; float x = s.get<float>(); }",
        "E30004",
        "method `get` takes no generic arguments",
        "float",
    );
}

#[test]
fn static_requirements_are_called_through_the_parameter() {
    let src = format!(
        "interface IUnit {{ static float unit(); }}
         struct Two : IUnit {{ static float unit() {{ return 2; }} }}
         typedef Two Deux;
         float both<T : IUnit>() {{ return T::unit() + T.unit(); }}
         void go() {{ float x = both<Two>() + Deux::unit(); }}
         {GENERIC_ENTRY}"
    );
    let m = ok(&src);
    let both = function(&m, "both<Two>");
    let calls = both
        .expressions
        .iter()
        .filter(|(_, e)| {
            matches!(
                e,
                ir::Expression::Call { function, .. } if m.functions[*function].name == "Two::unit"
            )
        })
        .count();
    assert_eq!(calls, 2);
}

#[test]
fn generic_rejections_have_codes_and_spans() {
    let entry = |body: &str| {
        format!(
            "interface IArea {{ float area(); }}
             struct Plain {{ float x; }}
             T make<T>() {{ T t; return t; }}
             float area<S : IArea>(S s) {{ return s.area(); }}
             T half<T : IFloat>(T x) {{ return x / 2; }}
             struct Pair<T> {{ T a; }}
             {body}"
        )
    };
    error(
        &entry("void f() { float x = make(); }"),
        "E30031",
        "cannot infer generic argument `T` of `make`",
        "make()",
    );
    error(
        &entry("void f() { Plain p; float x = area(p); }"),
        "E30032",
        "`Plain` does not conform to `IArea`",
        "area(p)",
    );
    error(
        &entry("void f() { int x = half(3); }"),
        "E30032",
        "`int` does not conform to `IFloat`",
        "half(3)",
    );
    error(
        &entry("void f() { Pair<float, int> p; }"),
        "E30017",
        "takes 1 generic argument(s), found 2",
        "Pair<float, int>",
    );
    error(
        &entry("void f() { float x = make<float, int>(); }"),
        "E30017",
        "takes 1 generic argument(s), found 2",
        "make<float, int>()",
    );
    error(
        "T f<T : INothing>(T x) { return x; }",
        "E30002",
        "undefined interface `INothing`",
        "INothing",
    );
    error(
        "T f<T>(T x) { return f(x + 1); } void g() { f(1.0); }",
        "E30013",
        "recursion is not allowed",
        "T f<T>(T x) { return f(x + 1); }",
    );
    let runaway = errors_only("void f<let N : int>() { f<N + 1>(); } void g() { f<0>(); }");
    assert_eq!(runaway.len(), 1, "{runaway:?}");
    assert_eq!(runaway[0].0, "E30013");
    assert!(
        runaway[0]
            .1
            .contains("more than 1024 generic specialisations")
    );
    assert_eq!(runaway[0].2, "f<N + 1>()");
}

#[test]
fn hlsl_2021_and_bindless_helpers() {
    ok(r#"
        Texture2D textures[] : register(t0, space1);
        SamplerState samp;
        globallycoherent RWByteAddressBuffer counters;
        [shader("fragment")]
        float4 main(nointerpolation uint index : MATERIAL, float2 uv : TEXCOORD0) : SV_Target {
            uint slot;
            counters.InterlockedAdd(0, 1, slot);
            counters.InterlockedMax(4, index);
            float4 c = textures[NonUniformResourceIndex(index)].Sample(samp, uv);
            float3 sign3 = select(c.rgb >= 0.5, 1.0, -1.0);
            static const float3x3 basis = { {1, 0, 0}, {0, 1, 0}, {0, 0, 1} };
            return float4(mul(basis, sign3), c.a);
        }
    "#);
    error(
        "globallycoherent float g;",
        "E30022",
        "only to read-write resources",
        "g",
    );
    error(
        "ByteAddressBuffer b; [shader(\"compute\")][numthreads(1,1,1)] void main() { uint o; b.InterlockedAdd(0, 1, o); }",
        "E30010",
        "has no method `InterlockedAdd`",
        "InterlockedAdd",
    );
}

#[test]
fn struct_attributes_are_accepted_or_warned() {
    let d = diags("[raypayload] struct P { float4 c; }; [frob] struct Q { float x; };");
    assert_eq!(d.len(), 2, "{d:?}");
    assert!(d.iter().any(|x| x.0 == "E31000" && x.2 == "frob"), "{d:?}");
    assert!(d.iter().any(|x| x.0 == "E31008"), "{d:?}");
}

#[test]
fn vk_location_index_and_every_geometry_input() {
    let m = ok(r#"
        struct O { [[vk::location(2)]] float4 c : SV_Target0; [[vk::location(2), vk::index(1)]] float4 d : SV_Target1; };
        [shader("fragment")] O fs(float4 p : SV_Position) { O o; o.c = p; o.d = p; return o; }
        struct V { float4 p : SV_Position; };
        [shader("geometry")] [maxvertexcount(1)] void gp(point V v[1], inout PointStream<V> s) { s.Append(v[0]); }
        [shader("geometry")] [maxvertexcount(2)] void gl(line V v[2], inout LineStream<V> s) { s.Append(v[1]); }
        [shader("geometry")] [maxvertexcount(2)] void gla(lineadj V v[4], inout LineStream<V> s) { s.Append(v[3]); }
        [shader("geometry")] [maxvertexcount(3)] void gta(triangleadj V v[6], inout TriangleStream<V> s) { s.Append(v[5]); }
    "#);
    let o = struct_members(&m, "O");
    assert_eq!(
        (o[0].io.explicit_location, o[0].io.explicit_index),
        (Some(2), None)
    );
    assert_eq!(
        (o[1].io.explicit_location, o[1].io.explicit_index),
        (Some(2), Some(1))
    );
    let roles: Vec<_> = ["gp", "gl", "gla", "gta"]
        .iter()
        .map(|n| m.functions[entry(&m, n).function].params[0].role)
        .collect();
    use ir::InputPrimitive as P;
    assert_eq!(
        roles,
        [P::Point, P::Line, P::LineAdj, P::TriangleAdj].map(ir::ParamRole::GeometryInput)
    );
}

#[test]
fn small_scalar_types_and_fragment_intrinsics() {
    let m = ok(r#"
        struct PsIn { nointerpolation float3 color : COLOR; };
        [shader("fragment")]
        float4 main(PsIn i) : SV_Target {
            int8_t a = 1; uint8_t b = 2; int16_t c = 3; uint16_t d = 4; float16_t h = 0.5;
            min16float m = 1.0; min16uint mu = 2; int64_t big = 1ll << 40;
            float3 v0 = GetAttributeAtVertex(i.color, 0);
            float3 v1 = GetAttributeAtVertex(i.color, 1);
            return float4(v0 + v1, float(a + b + c + d) * h * m + mu + float(big));
        }
    "#);
    let f = function(&m, "main");
    let uses_vertex_attr = f
        .expressions
        .iter()
        .filter(|(_, e)| {
            matches!(
                e,
                ir::Expression::Intrinsic {
                    fun: ir::Intrinsic::GetAttributeAtVertex,
                    ..
                }
            )
        })
        .count();
    assert_eq!(uses_vertex_attr, 2);
}

#[test]
fn default_arguments_and_uniform_parameters() {
    let m = ok(r#"
        float scale(float x, float by = 2.0) { return x * by; }
        [shader("vertex")]
        float4 main(float4 p : POSITION, uniform float4x4 world) : SV_Position { return mul(world, p) * scale(1.0); }
    "#);
    let main = function(&m, "main");
    assert_eq!(main.params[1].role, ir::ParamRole::Uniform);
}

#[test]
fn includes_are_a_coded_error() {
    error(
        "#include \"common.hlsl\"\nfloat4 x;",
        "E15006",
        "#include is not supported",
        "#include \"common.hlsl\"",
    );
}

// ---- constructs found by the second corpus round ------------------------------

#[test]
fn matrix_selector_stores_write_each_element() {
    let m = ok(r#"
        [shader("compute")] [numthreads(1, 1, 1)]
        void main() {
            float3x3 m = (float3x3)0;
            m._m01_m10 = m._m10_m01;
            m._11_22_33 += float3(1, 2, 3);
            m._m02 = 5;
        }
    "#);
    let f = function(&m, "main");
    let temporaries = f
        .locals
        .iter()
        .filter(|(_, l)| l.name == "matrix_elements")
        .count();
    assert_eq!(temporaries, 2);
    error(
        "static const float2x2 k = {1, 2, 3, 4}; [shader(\"compute\")][numthreads(1,1,1)] void main() { k._m00_m11 = float2(0, 0); }",
        "E30007",
        "a constant",
        "k",
    );
}

#[test]
fn hlsl_2021_and_or_and_enum_dot_labels() {
    ok(r#"
        enum class Mode { Off, On };
        [shader("compute")] [numthreads(1, 1, 1)]
        void main(uint3 id : SV_DispatchThreadID) {
            bool3 inside = and(id >= 1, id <= 8);
            bool3 outside = or(id < 1, !inside);
            Mode mode = (Mode)(id.x & 1);
            switch (mode) { case Mode.Off: break; case Mode.On: break; }
        }
    "#);
}

#[test]
fn slang_let_and_var() {
    let m = ok(r#"
        [shader("compute")] [numthreads(1, 1, 1)]
        void main() {
            let n = 64u;
            var phi = 0.0;
            var count : int = 0;
            for (var i = 0; i < 4; i++) { phi += i; count++; }
        }
    "#);
    let f = function(&m, "main");
    let ty = |name: &str| {
        let (_, l) = f
            .locals
            .iter()
            .find(|(_, l)| l.name == name)
            .expect("local");
        (ir::print::type_name(&m, l.ty), l.is_const)
    };
    assert_eq!(ty("n"), ("uint".to_string(), true));
    assert_eq!(ty("phi"), ("float".to_string(), false));
    assert_eq!(ty("count"), ("int".to_string(), false));
    assert_eq!(ty("i"), ("int".to_string(), false));
    error(
        "[shader(\"compute\")][numthreads(1,1,1)] void main() { let n = 1; n = 2; }",
        "E30007",
        "`const` variable",
        "n",
    );
}

#[test]
fn static_calls_through_a_dot_anonymous_structs_and_whole_cbuffer_reads() {
    ok(r#"
        struct Aabb { float3 lo; float3 hi; static Aabb unit() { Aabb a; a.lo = 0; a.hi = 1; return a; } };
        struct Camera { struct { float nearZ; float farZ; } clip; float fov; };
        struct Instance { float4x4 world; };
        ConstantBuffer<Instance> instances[4];
        ConstantBuffer<Camera> camera;
        [shader("vertex")]
        float4 main(float4 p : POSITION, uint i : SV_InstanceID) : SV_Position {
            Aabb box = Aabb.unit();
            Instance inst = instances[i & 3];
            return mul(inst.world, p) * camera.clip.farZ + box.hi.x;
        }
    "#);
}

/// Members of a struct too large to scan are found through the name index:
/// every field at its own index, and an unknown name still reported.
#[test]
fn large_struct_members_resolve_by_index() {
    let n = 40;
    let mut src = String::from("struct S {\n");
    for i in 0..n {
        src.push_str(&format!("    float f{i};\n"));
    }
    src.push_str("};\nfloat pick(S s) { return ");
    let sum: Vec<String> = (0..n).rev().map(|i| format!("s.f{i}")).collect();
    src.push_str(&sum.join(" + "));
    src.push_str("; }\n");
    let m = ok(&src);
    let f = function(&m, "pick");
    let mut indices: Vec<u32> = f
        .expressions
        .iter()
        .filter_map(|(_, e)| match e {
            ir::Expression::Member { index, .. } => Some(*index),
            _ => None,
        })
        .collect();
    indices.sort_unstable();
    assert_eq!(indices, (0..n).collect::<Vec<u32>>());

    let unknown = src.replace("s.f0;", "s.g0;");
    error(&unknown, "E30010", "`S` has no member `g0`", "g0");
}

#[test]
fn a_compute_entry_point_without_numthreads_runs_one_thread_per_group() {
    let src = "[shader(\"compute\")] void main() { }";
    let d = diags(src);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!((d[0].0.as_str(), d[0].2.as_str()), ("E31015", "main"));
    let m = ok(src);
    assert_eq!(m.entry_points[0].attributes.workgroup_size, Some([1, 1, 1]));
    // A malformed `[numthreads]` is its own error, not the default.
    let d = errors_only("[shader(\"compute\")][numthreads(0, 1, 1)] void main() { }");
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].0, "E31001");
}

#[test]
fn numthreads_alone_makes_a_compute_entry_point() {
    let src = "RWStructuredBuffer<float> b; [numthreads(4, 1, 1)] void k(uint3 t : SV_DispatchThreadID) { b[t.x] = 1; } [shader(\"compute\")][numthreads(2, 1, 1)] void c() { } void helper() { }";
    let m = ok(src);
    let names: Vec<(&str, ir::ShaderStage)> = m
        .entry_points
        .iter()
        .map(|e| (e.name.as_str(), e.stage))
        .collect();
    assert_eq!(
        names,
        [
            ("k", ir::ShaderStage::Compute),
            ("c", ir::ShaderStage::Compute)
        ]
    );
    // `-entry` without `-stage` takes the stage `[numthreads]` implies.
    let named = Options {
        entry: Some("k".into()),
        ..Default::default()
    };
    let m = ok_with(src, &named);
    assert_eq!(m.entry_points.len(), 1);
    assert_eq!(m.entry_points[0].stage, ir::ShaderStage::Compute);
    assert_eq!(m.entry_points[0].attributes.workgroup_size, Some([4, 1, 1]));
}

#[test]
fn struct_constructors_are_called_by_the_struct_name() {
    let m = ok(r#"
        struct Ray {
            float3 origin;
            float tmin;
            __init(float3 o, float t = 0.5) { origin = o; this.tmin = t; }
            __init(float t) { origin = 0; if (t < 0) { tmin = 0; return; } tmin = t; }
            float end() { return tmin; }
        };
        [shader("compute")][numthreads(1, 1, 1)]
        void main() { Ray a = Ray(float3(1, 2, 3)); Ray b = Ray(2.0); float x = a.end() + b.tmin; }
    "#);
    let ctors: Vec<&ir::Function> = m
        .functions
        .iter()
        .map(|(_, f)| f)
        .filter(|f| f.name.ends_with("__init"))
        .collect();
    assert_eq!(ctors.len(), 2);
    for f in ctors {
        // No `this` parameter: the struct is the result, built in a local.
        assert!(f.params.iter().all(|p| p.name != "this"), "{f:?}");
        assert!(f.result.is_some());
        assert!(f.locals.iter().any(|(_, l)| l.name == "this"));
    }
    // An argument list no constructor takes is an error at the call.
    let d = errors_only(
        "struct S { float x; __init(float a) { x = a; } }; \
         [shader(\"compute\")][numthreads(1, 1, 1)] void main() { S s = S(1, 2); }",
    );
    assert_eq!(d.len(), 1, "{d:?}");
}

#[test]
fn descriptor_handles() {
    // `T.Handle` is `DescriptorHandle<T>`, a `uint2` read as its resource
    // through the descriptor heap of `T`.
    let m = ok(r#"
        struct Material { Texture2D.Handle albedo; DescriptorHandle<SamplerState> samp; };
        StructuredBuffer<Material> materials;
        uniform RWStructuredBuffer<float4>.Handle output;
        static const DescriptorHandle<SamplerState> fixedSampler = DescriptorHandle<SamplerState>(uint2(3, 4));
        [shader("compute")] [numthreads(1, 1, 1)]
        void main(uint3 id : SV_DispatchThreadID) {
            Material m = materials[id.x];
            uint2 bits = (uint2)m.albedo;
            uint64_t wide = (uint64_t)m.samp;
            Texture2D t = m.albedo;
            output[0] = t.SampleLevel(m.samp, float2(bits), 0) + float4(float(wide));
            output[1] = m.albedo.SampleLevel(fixedSampler, float2(0), 0);
        }
    "#);
    let heaps: Vec<_> = m
        .globals
        .iter()
        .filter_map(|(_, g)| g.binding.descriptor_heap)
        .collect();
    assert_eq!(heaps, vec![2, 2, 0], "{heaps:?}");
    error(
        "float.Handle h;",
        "E30060",
        "a descriptor handle refers to a resource",
        "float.Handle",
    );
    // An acceleration structure's handle is its 64-bit device address, read
    // by an assignment or `RaytracingAccelerationStructure(h)`: no heap.
    let m = ok(r#"
        uniform RaytracingAccelerationStructure.Handle h;
        [shader("compute")] [numthreads(1, 1, 1)]
        void main() {
            RaytracingAccelerationStructure a = h;
            RaytracingAccelerationStructure b = RaytracingAccelerationStructure(h);
        }
    "#);
    assert!(
        m.globals
            .iter()
            .all(|(_, g)| g.binding.descriptor_heap.is_none())
    );
    let from_address = function(&m, "main")
        .expressions
        .iter()
        .filter(|(_, e)| {
            matches!(
                e,
                ir::Expression::Intrinsic {
                    fun: ir::Intrinsic::AccelerationStructureFromAddress,
                    ..
                }
            )
        })
        .count();
    assert_eq!(from_address, 2);
    error(
        "uniform Texture2D.Handle h; [shader(\"compute\")] [numthreads(1,1,1)] void main() { uint2 u = h; }",
        "E30003",
        "cannot convert",
        "h",
    );
}

#[test]
fn initializer_lists_take_their_type_from_assignments_and_returns() {
    let m = ok(r#"
        struct V { float4 p; float3 c; };
        RWStructuredBuffer<V> b;
        V make(float x) { return { float4(x), {x, 1, 2} }; }
        [shader("compute")][numthreads(1, 1, 1)]
        void main() { V v; v = { float4(1), float3(2) }; b[0] = { float4(0), float3(1) }; b[1] = make(3); v = {}; b[2] = v; }
    "#);
    let constructs = m
        .functions
        .iter()
        .flat_map(|(_, f)| f.expressions.iter())
        .filter(|(_, e)| matches!(e, ir::Expression::Construct { .. }))
        .count();
    assert!(constructs >= 4, "{constructs}");
    // Where nothing gives it a type, it is an error at the list.
    let d = errors_only(
        "[shader(\"compute\")][numthreads(1, 1, 1)] void main() { float x = 1 + {1, 2}; }",
    );
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!((d[0].0.as_str(), d[0].2.as_str()), ("E30025", "{1, 2}"));
}

#[test]
fn a_constant_buffer_of_a_value_parameter_reads_the_value() {
    let m = ok(r#"
        RWStructuredBuffer<uint> o;
        [shader("compute")][numthreads(4, 1, 1)]
        void main(uint3 t : SV_DispatchThreadID, ConstantBuffer<float> factor, uniform ConstantBuffer<uint2> pair)
        { o[t.x] = uint(factor) + pair.y; }
    "#);
    let main = m
        .functions
        .iter()
        .map(|(_, f)| f)
        .find(|f| f.name == "main");
    let main = main.expect("main");
    let reads = main
        .expressions
        .iter()
        .filter(|(h, e)| {
            matches!(e, ir::Expression::Member { index: 0, base }
                if matches!(main.expressions[*base], ir::Expression::Param(1 | 2)))
                && h.index() > 0
        })
        .count();
    assert_eq!(reads, 2);
}

#[test]
fn a_short_initializer_list_leaves_the_last_fields_default_or_zero() {
    let m = ok(r#"
        struct V { float4 p; float3 c; float2 t = float2(1, 2); int k; };
        RWStructuredBuffer<V> b;
        [shader("compute")][numthreads(1, 1, 1)]
        void main() { V v = { float4(0), float3(1) }; b[0] = v; b[1] = { float4(2) }; }
    "#);
    let main = m
        .functions
        .iter()
        .map(|(_, f)| f)
        .find(|f| f.name == "main");
    let main = main.expect("main");
    let full = main
        .expressions
        .iter()
        .filter(|(h, e)| {
            matches!(e, ir::Expression::Construct { components } if components.len() == 4)
                && main
                    .expressions
                    .ty(*h)
                    .is_some_and(|t| m.types[t].name.as_deref() == Some("V"))
        })
        .count();
    assert_eq!(full, 2);
}

#[test]
fn a_geometry_array_input_without_a_primitive_takes_it_from_its_length() {
    let src = "struct V { float4 p : SV_Position; }; \
        [shader(\"geometry\")][maxvertexcount(3)] \
        void main(V verts[3], inout TriangleStream<V> s) { s.Append(verts[0]); }";
    let d = diags(src);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!((d[0].0.as_str(), d[0].2.as_str()), ("E31016", "verts"));
    assert!(d[0].1.contains("`triangle`"), "{d:?}");
    let m = ok(src);
    let f = &m.functions[m.entry_points[0].function];
    assert_eq!(
        f.params[0].role,
        ir::ParamRole::GeometryInput(ir::InputPrimitive::Triangle)
    );
    // Written out, it is kept, and nothing is said.
    let d = diags(
        "struct V { float4 p : SV_Position; }; \
        [shader(\"geometry\")][maxvertexcount(2)] \
        void main(line V verts[2], inout LineStream<V> s) { s.Append(verts[0]); }",
    );
    assert!(d.is_empty(), "{d:?}");
}

const RAY_QUERY_PRELUDE: &str = "RaytracingAccelerationStructure scene;
RWStructuredBuffer<uint> results;
";

#[test]
fn ray_query_template_flags_are_added_to_the_call_flags() {
    let src = format!(
        "{RAY_QUERY_PRELUDE}[numthreads(1, 1, 1)] void main(uint3 id : SV_DispatchThreadID) {{
    RayDesc ray = (RayDesc)0;
    RayQuery<RAY_FLAG_FORCE_OPAQUE | RAY_FLAG_SKIP_TRIANGLES> q;
    q.TraceRayInline(scene, RAY_FLAG_CULL_OPAQUE, 0xFF, ray);
    q.TraceRayInline(scene, id.x, 0xFF, ray);
    results[0] = q.Proceed() ? q.CommittedStatus() : CANDIDATE_PROCEDURAL_PRIMITIVE;
}}"
    );
    let module = ok(&src);
    let f = entry(&module, "main").function;
    let func = &module.functions[f];
    let flags: Vec<&ir::Expression> = func
        .expressions
        .iter()
        .filter_map(|(_, e)| match e {
            ir::Expression::Intrinsic {
                fun: ir::Intrinsic::RayQueryTraceRayInline,
                args,
            } => Some(&func.expressions[args[2]]),
            _ => None,
        })
        .collect();
    assert_eq!(flags.len(), 2);
    assert_eq!(flags[0], &ir::Expression::Literal(ir::Literal::Uint(0x141)));
    assert!(
        matches!(
            flags[1],
            ir::Expression::Binary {
                op: ir::BinaryOp::BitwiseOr,
                ..
            }
        ),
        "{:?}",
        flags[1]
    );
}

#[test]
fn ray_query_rejections() {
    let main = |body: &str| {
        format!(
            "{RAY_QUERY_PRELUDE}[numthreads(1, 1, 1)] void main() {{ RayDesc ray = (RayDesc)0; {body} }}"
        )
    };
    error(
        &main("RayQuery<0> q; q.Rewind();"),
        "E30010",
        "`RayQuery` has no method `Rewind`",
        "Rewind",
    );
    error(
        &main("RayQuery<0> q; q.TraceRayInline(scene, 0, 0xFF);"),
        "E30004",
        "expected 4 argument(s)",
        "q.TraceRayInline(scene, 0, 0xFF)",
    );
    error(
        &main("RayQuery<0> q; q.TraceRayInline(results, 0, 0xFF, ray);"),
        "E30004",
        "argument 1 must be a `RaytracingAccelerationStructure`",
        "q.TraceRayInline(results, 0, 0xFF, ray)",
    );
    error(
        &main("RayQuery<0> q; results[0] = q.CommittedStatus(1);"),
        "E30004",
        "expected 0 argument(s)",
        "q.CommittedStatus(1)",
    );
    error(
        &main("RayQuery<0, 1> q;"),
        "E30017",
        "`RayQuery` takes 0 to 1 generic argument(s), found 2",
        "RayQuery<0, 1>",
    );
}

#[test]
fn a_compound_assignment_statement_evaluates_its_index_once() {
    // `a[n++] += 2.0;` is `a[i] = a[i] + 2.0` with `i = n++` evaluated
    // once before the store; a pure index is copied, not hoisted.
    let m = ok("float main(uint k) {
            float a[4] = { 0, 0, 0, 0 };
            uint n = 0;
            a[n++] += 2.0;
            a[k] *= 3.0;
            return a[0] + float(n);
        }");
    let f = function(&m, "main");
    let text = ir::print::print_module(&m);
    let increments = f
        .expressions
        .iter()
        .filter(|(_, e)| matches!(e, ir::Expression::IncDec { .. }))
        .count();
    assert_eq!(increments, 1, "{text}");
    let hoisted = f.locals.iter().filter(|(_, l)| l.name == "index").count();
    assert_eq!(hoisted, 1, "{text}");
}
