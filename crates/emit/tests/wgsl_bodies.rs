//! WGSL writer bodies: shaders go through the front end, the WGSL varying
//! legalizer and the writer, and the output must pass naga's WGSL front
//! end and validator. Each test also pins the tokens that show the
//! construct was printed under WGSL's rules; the refusals pin their code's
//! error and span.

use legalis_emit::wgsl;
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
    legalis_legalize::wgsl::Wgsl::legalize(&module, 0, &legalis_ir::Policy::default())
        .unwrap_or_else(|e| panic!("legalizer: {e:#?}"))
        .module
}

/// Writes and validates; returns the WGSL.
fn wgsl_ok(src: &str, stage: ShaderStage) -> String {
    let text = wgsl::write(&legalized(src, stage), 0, &wgsl::Options::default())
        .unwrap_or_else(|e| panic!("writer failed: {e} at {:?}", e.span()));
    if let Err(e) = legalis_validate::validate_wgsl(&text, stage) {
        panic!("output does not validate:\n{text}\n{e}");
    }
    text
}

/// The writer's refusal: its message and the source under its span.
fn wgsl_err(src: &str, stage: ShaderStage) -> (String, String) {
    let e = wgsl::write(&legalized(src, stage), 0, &wgsl::Options::default())
        .expect_err("the writer refuses");
    assert_eq!(
        legalis_emit::codes::of_wgsl(&e),
        legalis_emit::codes::WGSL_UNSUPPORTED
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
    wgsl_ok(&src, ShaderStage::Compute)
}

#[test]
fn statics_conversions_select_and_shadowing() {
    let out = compute(
        "int i = 3; uint u = i; float f = u; float3 v = f; bool b = f > 2;
         float s = b ? v.x : v.y; int n = -i; uint m = -u;
         float fun = b ? g() : 1.0;
         rw[id.x] = uint(s + k + fun) + u32 + uint(n) + m;",
        "static float k = 2; static const float K2 = 3;
         float g() { k += 1; return k * K2; }
         RWStructuredBuffer<uint> rw; static uint u32 = 7;",
    );
    has(
        &out,
        &[
            "var<private> k: f32 = 2.0f;",
            "var u: u32 = u32(i);",
            "select(v.y, v.x, b)",
            "(~(u) + 1u)",
            // `u32` is a WGSL type name: the global is renamed.
            "var<private> u32_1: u32",
            // `g()` has side effects: only the chosen side runs.
            "if b {",
        ],
    );
}

#[test]
fn loops_switches_and_jumps() {
    let out = compute(
        "uint acc = 0;
         for (uint j = 0; j < 4; j++) { if (j == 2) continue; acc += j; }
         int w = 0; while (w < 3) { w++; if (w == 2) break; }
         do { acc++; } while (acc < 10);
         switch (int(id.x)) { case 0: acc += 1; case 1: acc += 2; break; case 2: case 3: acc = 0; break; default: acc = 9; }
         rw[id.x] = acc + uint(w);",
        "RWStructuredBuffer<uint> rw;",
    );
    has(
        &out,
        &[
            "loop {",
            "continuing {",
            "break if !(",
            "case 0i: {",
            "case 2i, 3i: {",
            "default: {",
        ],
    );
    // Case 0 falls into case 1: its body runs both.
    let case0 = out.split("case 0i: {").nth(1).unwrap_or_default();
    let case0 = case0.split("case 1i").next().unwrap_or_default();
    assert!(case0.contains("+ 1u") && case0.contains("+ 2u"), "{out}");
}

#[test]
fn out_parameters_are_pointers_and_globals_go_through_temporaries() {
    let out = compute(
        "float a; int c = 1; split(2.5, a, c); split(1.5, gs, c);
         float2 v; split(3.5, v.y, c);
         rw[id.x] = uint(a + gs + v.y) + uint(c);",
        "static float gs;
         void split(float x, out float whole, inout int count) { whole = floor(x); count++; x = 0; }
         RWStructuredBuffer<uint> rw;",
    );
    has(
        &out,
        &[
            "fn split(x_in: f32, whole: ptr<function, f32>, count: ptr<function, i32>)",
            "var x: f32 = x_in;",
            "(*whole) = floor(x);",
            "(*count)++;",
            "split(2.5f, &a, &c);",
            "gs = arg",
            "v.y = arg",
        ],
    );
}

#[test]
fn swizzle_stores_assignments_and_increments_as_values() {
    let out = compute(
        "float4 v = 0; v.xz = float2(1, 2); v.w += 1;
         int i = 0; int j = i++; int k = ++i; int l; int m = l = 4;
         rw[id.x] = uint(v.x + v.z + float(j + k + l + m));",
        "RWStructuredBuffer<uint> rw;",
    );
    has(
        &out,
        &[
            "v.x = value",
            "v.z = value",
            "let old = i;",
            "i++;",
            "l = 4i;",
        ],
    );
}

#[test]
fn matrices_keep_the_glsl_convention_and_buffers_transpose() {
    let out = compute(
        "float3x3 m = (float3x3)world; float4 p = mul(world, float4(1, 2, 3, 1));
         float2x2 a = float2x2(1, 2, 3, 4) * float2x2(5, 6, 7, 8);
         out4[id.x] = p + float4(m[0], a[1][0]) + mul(float4(1, 1, 1, 1), rowMajor);",
        "cbuffer C { float4x4 world; row_major float4x4 rowMajor; };
         RWStructuredBuffer<float4> out4;",
    );
    has(
        &out,
        &[
            "world: mat4x4<f32>",
            "transpose(C_1.world)",
            "(vec4<f32>(1.0f, 2.0f, 3.0f, 1.0f) * transpose(C_1.world))",
            "(C_1.rowMajor * vec4<f32>(",
            "mat2x2<f32>((",
        ],
    );
    assert!(!out.contains("transpose(C_1.rowMajor)"), "{out}");
}

#[test]
fn resources_bindings_and_textures() {
    let src = "
        Texture2D albedo : register(t0);
        SamplerState linearSampler : register(s0);
        Texture2DArray layers : register(t1);
        Texture2D shadowMap : register(t2);
        SamplerComparisonState shadowSampler : register(s1);
        ByteAddressBuffer raw : register(t3);
        float4 tint;
        float4 main(float2 uv : TEXCOORD0) : SV_Target
        {
            uint w, h; albedo.GetDimensions(w, h);
            float4 c = albedo.Sample(linearSampler, uv) * tint;
            c += layers.SampleLevel(linearSampler, float3(uv, 2), 0);
            c += albedo.Load(int3(int2(uv * float2(w, h)), 0));
            c.x += shadowMap.SampleCmp(shadowSampler, uv, 0.5);
            c.y += asfloat(raw.Load(4)) + float(raw.Load2(8).y);
            clip(c.w - 0.5);
            return c;
        }";
    let out = wgsl_ok(src, ShaderStage::Fragment);
    has(
        &out,
        &[
            "var<uniform> _Globals: GlobalsBlock;",
            "var albedo: texture_2d<f32>;",
            "var linearSampler: sampler;",
            "var shadowMap: texture_depth_2d;",
            "var shadowSampler: sampler_comparison;",
            "var<storage, read> raw: array<u32>;",
            "textureSample(albedo, linearSampler, uv)",
            "textureSampleLevel(layers, linearSampler, ",
            "i32(round(",
            "textureSampleCompare(shadowMap, shadowSampler, uv, 0.5f)",
            "textureDimensions(albedo).x",
            "if ((c.w - 0.5f) < 0.0f) { discard; }",
        ],
    );
    // Registers of different classes share numbers in D3D; WGSL needs
    // them unique, so each `@group(0) @binding(n)` appears once.
    let bindings: Vec<&str> = out
        .lines()
        .filter_map(|l| l.split(" var").next())
        .filter(|l| l.starts_with("@group"))
        .collect();
    let mut unique = bindings.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(bindings.len(), unique.len(), "{out}");
}

#[test]
fn storage_textures_and_barriers() {
    let out = compute(
        "tile[id.x % 64] = input[id.xy].x; GroupMemoryBarrierWithGroupSync();
         output[id.xy] = float4(tile[63 - id.x % 64], 0, 0, 1); counts[id.xy] = 1;",
        "Texture2D<float4> input; RWTexture2D<float4> output; RWTexture2D<uint> counts;
         groupshared float tile[64];",
    );
    has(
        &out,
        &[
            "var<workgroup> tile: array<f32, 64>;",
            "texture_storage_2d<rgba32float, write>",
            "texture_storage_2d<r32uint, write>",
            "workgroupBarrier();",
            "textureStore(output, id.xy, ",
            "textureStore(counts, id.xy, vec4<u32>(1u, 0u, 0u, 0u));",
            "textureLoad(input, id.xy, 0)",
        ],
    );
}

#[test]
fn what_wgsl_cannot_express_is_refused_at_the_construct() {
    let (message, text) = wgsl_err(
        "RWStructuredBuffer<uint> b; groupshared uint total;
         [numthreads(1, 1, 1)] void main(uint3 id : SV_DispatchThreadID) { uint old; InterlockedCompareExchange(total, 0, 1, old); b[0] = old; }",
        ShaderStage::Compute,
    );
    assert!(message.contains("may fail spuriously"), "{message}");
    assert_eq!(text, "InterlockedCompareExchange(total, 0, 1, old)");
    let (message, text) = wgsl_err(
        "RWStructuredBuffer<double> b;
         [numthreads(1, 1, 1)] void main(uint3 id : SV_DispatchThreadID) { b[0] = 1.0; }",
        ShaderStage::Compute,
    );
    assert!(message.contains("`double`"), "{message}");
    assert_eq!(text, "b");
    let (message, text) = wgsl_err(
        "cbuffer C { float weights[8]; }; RWStructuredBuffer<float> b;
         [numthreads(1, 1, 1)] void main(uint3 id : SV_DispatchThreadID) { float w[8] = weights; b[0] = w[id.x]; }",
        ShaderStage::Compute,
    );
    assert!(message.contains("16 bytes apart"), "{message}");
    assert_eq!(text, "weights");
    let (message, _) = wgsl_err(
        "float4 main(float4 p : POSITION) : SV_Position { return p + ddx(p); }",
        ShaderStage::Vertex,
    );
    assert!(message.contains("fragment shaders only"), "{message}");
}

#[test]
fn interlocked_variables_are_atomics() {
    let out = compute(
        "if (id.x == 0) total = 0; GroupMemoryBarrierWithGroupSync();
         uint slot; InterlockedAdd(total, 1, slot); InterlockedMax(bins[slot % 4], id.x);
         counters.InterlockedAdd(8, 1); uint seen = counters.Load(8);
         GroupMemoryBarrierWithGroupSync(); bins[0] = total + seen;",
        "groupshared uint total; RWStructuredBuffer<uint> bins; RWByteAddressBuffer counters;",
    );
    has(
        &out,
        &[
            "var<workgroup> total: atomic<u32>;",
            "var<storage, read_write> bins: array<atomic<u32>>;",
            "var<storage, read_write> counters: array<atomic<u32>>;",
            "atomicStore(&total, 0u);",
            "slot = atomicAdd(&total, 1u);",
            "atomicMax(&bins[(slot % 4u)], id.x);",
            "atomicAdd(&counters[(8u >> 2u)], 1u);",
            "atomicLoad(&counters[(8u >> 2u)])",
            "atomicStore(&bins[0i], (atomicLoad(&total) + seen));",
        ],
    );
}

#[test]
fn uniform_arrays_of_scalars_are_one_element_per_vec4() {
    let out = compute(
        "float s = 0; for (int i = 0; i < 9; i++) s += weights[i];
         out4[id.x] = float4(offsets[1], s, gains[2]);",
        "cbuffer Blur { float weights[9]; float2 offsets[4]; float3 dirs[2]; };
         float gains[3]; RWStructuredBuffer<float4> out4;",
    );
    has(
        &out,
        &[
            "@align(16) weights: array<vec4<f32>, 9>,",
            "@align(16) offsets: array<vec4<f32>, 4>,",
            // `float3` elements are 16 bytes apart already.
            "@align(16) dirs: array<vec3<f32>, 2>,",
            "@align(16) gains: array<vec4<f32>, 3>,",
            "Blur_1.weights[i].x",
            "Blur_1.offsets[1i].xy",
            "_Globals.gains[2i].x",
        ],
    );
}

#[test]
fn booleans_in_buffers_are_words() {
    let out = compute(
        "Item it = items[id.x]; it.alive = !it.alive || useFog; it.mask = bool2(true, it.mask.y);
         items[id.x] = it; Item fresh = { 1.0, false, bool2(false, true) }; items[0] = fresh;",
        "struct Item { float weight; bool alive; bool2 mask; };
         RWStructuredBuffer<Item> items; bool useFog;",
    );
    has(
        &out,
        &[
            "alive: u32,",
            "mask: vec2<u32>,",
            "useFog: u32,",
            "(it.alive != 0u)",
            "(_Globals.useFog != 0u)",
            "it.alive = select(0u, 1u, ",
            "(it.mask != vec2<u32>(0u)).y",
            "it.mask = select(vec2<u32>(0u), vec2<u32>(1u), vec2<bool>(true, ",
            "Item(1.0f, select(0u, 1u, false), select(vec2<u32>(0u), vec2<u32>(1u), vec2<bool>(false, true)))",
        ],
    );
}

/// `half` is `f16` everywhere, under `enable f16;`: locals, functions,
/// buffers, matrices, `h` literals (the nearest `f16`), `0.0h`, the
/// writer's own constants of the operand's type, conversions both ways;
/// an infinite `half` constant is assigned at run time.
#[test]
fn half_is_f16_under_enable_f16() {
    let out = compute(
        "half4 v = buf[id.x]; half2x2 m = half2x2(1, 2, 3, 4); m = m * m;
         v.x = rcp(v.y) + big; v.w++;
         if (isinf(v.x) || any(v)) v.y = -0.1h;
         float4 wide = v; v = (half4)wide + twice(v.x); buf[id.x] = v;",
        "RWStructuredBuffer<half4> buf; static const half big = 100000.0;
         half twice(half h) { return h * 2; }",
    );
    has(
        &out,
        &[
            "enable f16;\n",
            "var<storage, read_write> buf: array<vec4<f16>>;",
            "var<private> big: f16;",
            "big = f16(bitcast<f32>(2139095040u));",
            "fn twice(h: f16) -> f16 {",
            "(h * 2.0h)",
            "mat2x2<f16>(1.0h, 2.0h, 3.0h, 4.0h)",
            "mat2x2<f16>((m[0] * m[0]), (m[1] * m[1]))",
            "(1.0h / v.y)",
            "(v.w + 1.0h)",
            "(abs(v.x) > 65504.0h)",
            "any(v != vec4<f16>(0.0h))",
            "-(0.099975586h)",
            "var wide: vec4<f32> = vec4<f32>(v);",
            "vec4<f16>(wide)",
        ],
    );
}

/// `clip` of a `half` compares with the `f16` zero.
#[test]
fn clip_of_half() {
    let out = wgsl_ok(
        "float4 main(half3 c : COLOR0) : SV_Target { clip(c); clip(c.x); return float4(c, 1); }",
        ShaderStage::Fragment,
    );
    has(
        &out,
        &[
            "@location(0) c: vec3<f16>",
            "any(c < vec3<f16>(0.0h))",
            "(c.x < 0.0h)",
        ],
    );
}

/// A texture of `half` texels is sampled as `f32` (WGSL sampled textures
/// have no `f16` type) and its texels converted.
#[test]
fn half_textures_are_sampled_as_f32() {
    let out = wgsl_ok(
        "Texture2D<half4> t; Texture2D<half> r; SamplerState s;
         float4 main(float2 uv : TEXCOORD0) : SV_Target {
             half4 a = t.Sample(s, uv); half g = t.GatherRed(s, uv).x; half x = r.Sample(s, uv);
             return a + g + x;
         }",
        ShaderStage::Fragment,
    );
    has(
        &out,
        &[
            "var t: texture_2d<f32>;",
            "var a: vec4<f16> = vec4<f16>(textureSample(t, s, uv));",
            "vec4<f16>(textureGather(0, t, s, uv)).x",
            "f16(textureSample(r, s, uv).x)",
        ],
    );
}

/// `enable f16;` only when the output has an `f16`: a `half` function
/// nothing calls does not ask for the feature.
#[test]
fn unused_half_enables_nothing() {
    let out = compute(
        "rw[id.x] = 1;",
        "RWStructuredBuffer<uint> rw; half unused(half h) { return h; }",
    );
    assert!(!out.contains("f16"), "{out}");
}

/// WGSL has no 16-bit integers, and no uniform `f16` matrix laid out as
/// a constant buffer's.
#[test]
fn sixteen_bit_integers_and_uniform_half_matrices_are_refused() {
    let (message, at) = wgsl_err(
        "RWStructuredBuffer<uint> rw;
         [numthreads(1, 1, 1)] void main() { int16_t s = 3; rw[0] = s; }",
        ShaderStage::Compute,
    );
    assert!(message.contains("WGSL has no 16-bit integers"), "{message}");
    assert!(at.contains("s = 3"), "{at}");
    let (message, _) = wgsl_err(
        "cbuffer C { half2x2 m; }; RWStructuredBuffer<half2> rw;
         [numthreads(1, 1, 1)] void main() { rw[0] = m[0]; }",
        ShaderStage::Compute,
    );
    assert!(message.contains("uniform `half` matrix"), "{message}");
}
