//! MSL writer bodies: shaders go through the front end, the Metal varying
//! legalizer and the writer. No Metal compiler runs on Linux, so each test
//! pins the tokens that show the construct was printed under MSL's rules
//! (and the suite re-reads the signatures); the refusals pin their code,
//! message and span.

use legalis_emit::metal;
use legalis_ir::ShaderStage;
use legalis_legalize::Family;

fn legalized(src: &str, stage: ShaderStage) -> legalis_ir::Module {
    let options = legalis_front::Options {
        entry: Some("main".into()),
        stage: Some(stage),
        ..Default::default()
    };
    let out = legalis_front::compile(src, &options);
    let Some(module) = out.module else {
        panic!("front end rejected the test shader: {:#?}", out.diagnostics);
    };
    legalis_legalize::metal::Metal::legalize(&module, 0, &legalis_ir::Policy::default())
        .unwrap_or_else(|e| panic!("legalizer: {e:#?}"))
        .module
}

fn msl_ok(src: &str, stage: ShaderStage) -> String {
    metal::write(&legalized(src, stage), 0, &metal::Options::default())
        .unwrap_or_else(|e| panic!("writer failed: {e} at {:?}", e.span()))
}

/// The writer's refusal: its message and the source under its span.
fn msl_err(src: &str, stage: ShaderStage) -> (String, String) {
    let e = metal::write(&legalized(src, stage), 0, &metal::Options::default())
        .expect_err("the writer refuses");
    assert_eq!(
        legalis_emit::codes::of_metal(&e),
        legalis_emit::codes::METAL_UNSUPPORTED
    );
    let span = e.span().expect("a span");
    (e.to_string(), src[span.range()].to_string())
}

fn has(out: &str, tokens: &[&str]) {
    for t in tokens {
        assert!(out.contains(t), "missing {t:?} in:\n{out}");
    }
}

fn compute(body: &str, decls: &str) -> String {
    let src = format!(
        "{decls}\n[numthreads(8, 4, 1)] void main(uint3 id : SV_DispatchThreadID) {{\n{body}\n}}\n"
    );
    msl_ok(&src, ShaderStage::Compute)
}

#[test]
fn globals_reach_their_users_as_parameters() {
    let out = compute(
        "bump(id.x); counter += 1; shared_[id.x % 4] = counter; out_[id.x] = scale * shared_[0];",
        "RWStructuredBuffer<float> out_ : register(u2); groupshared float shared_[4]; \
         static float counter = 2; float scale; \
         void bump(uint i) { out_[i] = counter + scale; }",
    );
    has(
        &out,
        &[
            "#include <metal_stdlib>",
            "struct Globals\n{\n    float scale;\n};",
            "void bump(uint i, device float* out_, thread float& counter, constant Globals& globals_)",
            "bump(id.x, out_, counter, globals_);",
            "constant Globals& globals_ [[buffer(0)]]",
            "device float* out_ [[buffer(2)]]",
            "    float counter = 2.0;",
            "    threadgroup array<float, 4> shared_;",
            "globals_.scale",
        ],
    );
}

#[test]
fn statements_and_operators() {
    let out = compute(
        "float x = 3.5; int k = -7; uint u = 5u; \
         for (int i = 0; i < 4; i++) { if (i == 2) continue; x += fmod(x, 2.0) + (x % 1.5); } \
         switch (k) { case 1: k = 2; case 2: k = 3; break; default: k = 0; break; } \
         do { u >>= 1; } while (u > 1); \
         float3 v = k > 0 ? float3(1, 2, 3) : float3(4, 5, 6); \
         bool3 c = v > 2; float3 w = c ? v : -v; \
         out_[id.x] = x + w.y + frac(x) + lerp(x, 1, 0.5) + rsqrt(x);",
        "RWStructuredBuffer<float> out_;",
    );
    has(
        &out,
        &[
            "for (; (i < 4); (i++))",
            "continue;",
            "fmod(x, 2.0)",
            "fmod(x, 1.5)",
            "case 1:\n",
            "do\n",
            "} while ((u > 1u));",
            "select(",
            "fract(x)",
            "mix(x, ",
            "rsqrt(x)",
        ],
    );
    // `case 1` falls through into `case 2`: no `break` between them.
    let case1 = out.find("case 1:").unwrap();
    let case2 = out.find("case 2:").unwrap();
    assert!(!out[case1..case2].contains("break"), "{out}");
}

#[test]
fn textures_samplers_and_matrices() {
    let src = "Texture2D<float4> albedo : register(t0); Texture2DArray layers : register(t1); \
               RWTexture2D<float> target : register(u2); SamplerState s : register(s0); \
               SamplerComparisonState cmp : register(s1); Texture2D<float> shadow : register(t3); \
               cbuffer M : register(b0) { float4x4 world; row_major float4x4 view; }; \
               float4 main(float4 pos : SV_Position, float2 uv : UV) : SV_Target { \
               float4 a = albedo.Sample(s, uv) + albedo.SampleLevel(s, uv, 2) + albedo.SampleBias(s, uv, 1, int2(1, 0)); \
               float4 b = layers.Sample(s, float3(uv, 1)) + albedo.Load(int3(1, 2, 0)) + albedo.GatherGreen(s, uv); \
               float d = shadow.SampleCmpLevelZero(cmp, uv, 0.5) + target[uint2(1, 1)]; \
               uint w, h; albedo.GetDimensions(w, h); \
               return mul(world, a) + mul(b, view) + d + w + h; }";
    let out = msl_ok(src, ShaderStage::Fragment);
    has(
        &out,
        &[
            "albedo.sample(s, uv)",
            "albedo.sample(s, uv, level(2.0))",
            "albedo.sample(s, uv, bias(1.0), int2(1, 0))",
            "layers.sample(s, ",
            ".xy, uint(rint(",
            "albedo.read(uint2(",
            "albedo.gather(s, uv, int2(0), component::y)",
            "shadow.sample_compare(cmp, uv, 0.5, level(0))",
            "target.read(uint2(",
            "w = uint(albedo.get_width());",
            "h = uint(albedo.get_height());",
            "(a * transpose(",
            "(M_1.view * b)",
            "texture2d<float> albedo [[texture(0)]]",
            "texture2d_array<float> layers [[texture(1)]]",
            "texture2d<float, access::read_write> target [[texture(2)]]",
            "depth2d<float> shadow [[texture(3)]]",
            "sampler cmp [[sampler(1)]]",
            "constant M& M_1 [[buffer(0)]]",
        ],
    );
}

#[test]
fn out_parameters_are_references_and_main_is_renamed() {
    let src = "void split(float x, out float a, inout float b) { a = x; b += x; } \
               float4 main(float4 pos : SV_Position) : SV_Target { float a, b = 1; split(pos.x, a, b); return a + b; }";
    let out = msl_ok(src, ShaderStage::Fragment);
    has(
        &out,
        &[
            "void split(float x, thread float& a, thread float& b)",
            "split(",
            "[[fragment]] mainOutput main_1(",
        ],
    );
}

#[test]
fn refusals_have_their_code_and_span() {
    let (message, at) = msl_err(
        "RWStructuredBuffer<double> b; [numthreads(1, 1, 1)] void main() { b[0] = 1.0; }",
        ShaderStage::Compute,
    );
    assert!(message.contains("`double`"), "{message}");
    assert_eq!(at, "b");
    let (message, at) = msl_err(
        "RWStructuredBuffer<float2x2> b; [numthreads(1, 1, 1)] void main() { float2x2 m = b[0]; b[1] = m * m; }",
        ShaderStage::Compute,
    );
    assert!(
        message.contains("structured buffer of matrices"),
        "{message}"
    );
    assert_eq!(at, "b");
    let (message, at) = msl_err(
        "RWStructuredBuffer<uint> b; [numthreads(1, 1, 1)] void main() { InterlockedAdd(b[0], 1); }",
        ShaderStage::Compute,
    );
    assert!(message.contains("InterlockedAdd"), "{message}");
    assert_eq!(at, "InterlockedAdd(b[0], 1)");
    // Typed buffers are `texture_buffer`s of 32-bit or `half` elements.
    let (message, at) = msl_err(
        "Buffer<uint16_t> t; RWStructuredBuffer<uint> o; \
         [numthreads(1, 1, 1)] void main() { o[0] = t[0]; }",
        ShaderStage::Compute,
    );
    assert!(
        message.contains("a typed buffer of `ushort` elements"),
        "{message}"
    );
    assert_eq!(at, "t");
    let msl = msl_ok(
        "Buffer<float4> t; RWStructuredBuffer<float4> o; \
         [numthreads(1, 1, 1)] void main() { o[0] = t[0]; }",
        ShaderStage::Compute,
    );
    assert!(
        msl.contains("texture_buffer<float, access::read> t [[texture(0)]]"),
        "{msl}"
    );
}
