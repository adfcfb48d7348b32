//! GLSL writer bodies: shaders without varyings (so no legalizer is needed)
//! go through the front end and the writer, and the output must pass
//! glslang and spirv-val. Each test also pins a few tokens that show the
//! construct was printed the intended way.

use legalis_emit::glsl;
use legalis_ir::ShaderStage;

fn module(src: &str) -> legalis_ir::Module {
    let out = legalis_front::compile(src, &legalis_front::Options::default());
    match out.module {
        Some(m) => m,
        None => panic!("front end rejected the test shader: {:#?}", out.diagnostics),
    }
}

/// Writes and validates; returns the GLSL.
fn glsl_ok(src: &str, stage: ShaderStage) -> String {
    let text = glsl::write(&module(src), 0, &glsl::Options::default())
        .unwrap_or_else(|e| panic!("writer failed: {e} at {:?}", e.span()));
    if let Err(e) = legalis_validate::validate_glsl(&text, stage) {
        panic!("output does not validate:\n{text}\n{e}");
    }
    text
}

fn has(out: &str, tokens: &[&str]) {
    for t in tokens {
        assert!(out.contains(t), "missing {t:?} in:\n{out}");
    }
}

fn compute(body: &str, decls: &str) -> String {
    let src = format!(
        "{decls}\n[shader(\"compute\")] [numthreads(8, 4, 1)] void main() {{\n{body}\n}}\n"
    );
    glsl_ok(&src, ShaderStage::Compute)
}

#[test]
fn types_literals_and_structs() {
    let out = compute(
        "Inner i = { 1.0, 2u }; Outer o; o.inner = i; o.m = float2x3(1, 2, 3, 4, 5, 6);
         float3 row = o.m[1]; half h = 1.5; int64_t big = 5; uint8_t b = 3; double d = 2.0;
         int16_t s = 2; bool2 bb = bool2(true, false); float arr[3] = { 1, 2, 3 };
         rw[0] = uint(row.x + float(h) + float(big) + float(b) + float(d) + float(s) + arr[2] + (bb.x ? 1.0 : 0.0));",
        "struct Inner { float a; uint b; }; struct Outer { Inner inner; float2x3 m; }; struct Unused { float x; };
         RWStructuredBuffer<uint> rw;",
    );
    has(
        &out,
        &[
            "struct Inner",
            "struct Outer",
            "mat2x3",
            "float16_t",
            "int64_t",
            "uint8_t",
            "double",
            "GL_EXT_shader_explicit_arithmetic_types_int8",
            "float[3]",
        ],
    );
    assert!(!out.contains("Unused"), "unused struct declared:\n{out}");
    assert!(out.find("struct Inner").unwrap() < out.find("struct Outer").unwrap());
}

#[test]
fn operators_select_convert_construct() {
    let out = compute(
        "int a = -7; int b = 3; int r = a % b; float f = fmod(-5.5, 2.0); float g = 5.5 % 2.0;
         float3 v = float3(1, 2, 3); float4 w = float4(v, 1); float3 t = (float3)w;
         float3x3 m = 2.0; float3x3 n = m * m; bool3 lt = v < t; float3 sel = lt ? v : t;
         uint u = ~7u << 2 >> 1 ^ 5u | 8u & 9u; bool c = (a < b) && !(b > a) || a == b;
         int i = 0; i++; --i; int j = (i = 4); float4x4 big = 1; float3x3 small = (float3x3)big;
         rw[0] = uint(r + f + g + sel.x + n[0][0] + small[1][1] + u + (c ? 1 : 0) + i + j);",
        "RWStructuredBuffer<uint> rw;",
    );
    has(
        &out,
        &[
            "_hlsl_mod_int",
            "_hlsl_mod_float",
            "trunc(a / b)",
            "matrixCompMult",
            "lessThan(",
            "mix(",
            "_hlsl_splat_mat3x3",
            "vec3(w)",
            "mat3x3(big)",
        ],
    );
}

#[test]
fn statements() {
    let out = compute(
        "uint acc = 0;
         for (uint i = 0, k = 1; i < 4; i++, k += 2) { if (i == 2) continue; acc += k; }
         for (int q = 0; q < 3; ++q) { acc += q; }
         while (acc > 100) { acc -= 10; if (acc == 55) break; }
         do { acc++; } while (acc < 3);
         switch (acc) { case 1: acc = 5; case 2: acc += 1; break; case 3: { acc = 9; break; } default: acc = 0; break; }
         { uint scoped = helper(acc); acc = scoped; }
         if (acc == 0) return; else acc = 1;
         rw[0] = acc;",
        "RWStructuredBuffer<uint> rw; uint helper(uint x) { uint y; twice(x, y); return y; }
         void twice(uint x, out uint y) { y = x * 2; }",
    );
    has(
        &out,
        &[
            "switch (acc)",
            "case 1u:",
            "default:",
            "do\n",
            "while (",
            "continue;",
            "out uint",
            "uint helper(uint x)",
        ],
    );
}

#[test]
fn globals_and_constant_buffers() {
    let out = compute(
        "float4 x = mul(m, float4(v, 1)) + cs.a + gU + sP + K; tile[0] = x.x; GroupMemoryBarrierWithGroupSync();
         rw[0] = uint(x.x + tile[1] + float(cs.b));",
        "struct S { float4 a; uint b; }; cbuffer CB : register(b1) { float4x4 m; float3 v; };
         ConstantBuffer<S> cs; float gU; static float sP = 2; static const int K = 3;
         groupshared float tile[64]; RWStructuredBuffer<uint> rw;",
    );
    has(
        &out,
        &[
            "uniform _Globals",
            "_globals.gU",
            "const int K = 3;",
            "shared float tile[64];",
            "    sP = float(2);",
            "binding = 1) uniform block_CB",
            "} CB;",
            "CB.m",
            "(vec4(CB.v, float(1)) * CB.m)",
            "memoryBarrierShared(); barrier();",
            "layout(row_major) uniform;",
        ],
    );
}

#[test]
fn buffers_and_atomics() {
    let out = compute(
        "uint o; InterlockedAdd(counter[0], 1u, o); InterlockedMax(sh[1], 4u);
         InterlockedCompareExchange(counter[1], 0u, 5u, o); InterlockedAdd(img[uint2(1, 2)], 1);
         uint4 four = bab.Load4(16); bab.Store2(0, four.xy); bab.Store(8, bab.Load(4) + o + sb[2].b);
         uint dim; bab.GetDimensions(dim); counter[2] = dim + sh[0];",
        "struct S { float a; uint b; }; StructuredBuffer<S> sb; RWStructuredBuffer<uint> counter;
         RWByteAddressBuffer bab; RWTexture2D<int> img; groupshared uint sh[4];",
    );
    has(
        &out,
        &[
            "readonly buffer",
            "S data[];",
            "o = atomicAdd(counter.data[0], 1u)",
            "atomicMax(sh[1], 4u)",
            "atomicCompSwap(",
            "imageAtomicAdd(img, ivec2(",
            "r32i",
            "bab.data[((uint(16)) >> 2u) + 3u]",
            ".length()",
        ],
    );
}

#[test]
fn textures_and_images() {
    let out = compute(
        "float2 uv = float2(0.5, 0.5); float4 c = t.SampleLevel(s, uv, 0) + t.SampleLevel(s, uv, 1, int2(1, 0));
         c += t.SampleGrad(s, uv, float2(0, 0), float2(0, 0)) + t.Gather(s, uv) + t.GatherGreen(s, uv);
         c += t.Load(int3(1, 2, 0)) + t[uint2(1, 1)] + cube.SampleLevel(s, float3(0, 0, 1), 0) + arr.SampleLevel(s, float3(uv, 1), 0);
         c.x += shadow.SampleCmpLevelZero(cmp, uv, 0.5) + shadow.GatherCmp(cmp, uv, 0.5).x;
         uint w, h, levels; t.GetDimensions(0, w, h, levels); uint iw, ih; img.GetDimensions(iw, ih);
         img[uint2(w, h)] = c + img[uint2(0, 0)]; img2[uint2(0, 0)] = float2(c.x, ih);
         unk[uint2(0, 0)] = float3(1, 2, 3); norm[uint2(0, 0)] = c; tb[0] = ib[1] + float(levels + iw);",
        "Texture2D<float4> t; TextureCube<float4> cube; Texture2DArray<float4> arr; Texture2D<float> shadow;
         SamplerState s; SamplerComparisonState cmp; RWTexture2D<float4> img; RWTexture2D<float2> img2;
         RWTexture2D<float3> unk; RWTexture2D<unorm float4> norm; RWBuffer<float> tb; Buffer<float> ib;",
    );
    has(
        &out,
        &[
            "uniform texture2D t;",
            "uniform sampler s;",
            "samplerShadow",
            "textureLod(sampler2D(t, s), uv, ",
            "textureLodOffset(",
            "textureGrad(",
            "textureGather(sampler2D(t, s), uv, 1)",
            "texelFetch(t, (ivec3(1, 2, 0)).xy, (ivec3(1, 2, 0)).z)",
            "sampler2DShadow(shadow, cmp)",
            "textureSize(t, int(",
            "textureQueryLevels(t)",
            "imageSize(img)",
            "imageStore(img, ivec2(",
            "rgba32f",
            "rg32f",
            "GL_EXT_shader_image_load_formatted",
            "rgba8",
            "GL_EXT_samplerless_texture_functions",
            "textureCube",
            "texture2DArray",
            "imageBuffer",
        ],
    );
}

#[test]
fn math_and_bit_intrinsics() {
    let out = compute(
        "float3 v = float3(0.25, 0.5, 0.75); float x = saturate(v.x) + lerp(1, 2, v.y) + frac(v.z) + rsqrt(v.x)
           + rcp(v.y) + log10(v.z) + sign(v.x) + mad(v.x, v.y, v.z) + dot(v, v) + length(cross(v, v))
           + atan2(v.x, v.y) + round(v.x) + smoothstep(0, 1, v.x) + determinant(float2x2(1, 2, 3, 4))
           + transpose(float2x3(1, 2, 3, 4, 5, 6))[0][1] + mul(float2(1, 2), float2x3(1, 2, 3, 4, 5, 6)).z
           + mul(float3x3(1,0,0,0,1,0,0,0,1), v).x;
         uint bits = asuint(x) + countbits(7u) + firstbithigh(8u) + firstbitlow(8u) + reversebits(1u) + f32tof16(x);
         float back = asfloat(bits) + f16tof32(bits) + (isnan(x) ? 1 : 0) + (isfinite(x) ? 1 : 0) + (any(v) ? 1 : 0) + (all(v > 0) ? 1 : 0);
         float sn, cs; sincos(back, sn, cs); float ip; float fr = modf(back, ip);
         rw[0] = bits + uint(sn + cs + fr + ip + clamp(x, 0, 1) + min(x, 1) + max(x, 0) + abs(-x));",
        "RWStructuredBuffer<uint> rw;",
    );
    has(
        &out,
        &[
            "clamp(",
            "mix(",
            "fract(",
            "inversesqrt(",
            "floatBitsToUint(",
            "uintBitsToFloat(",
            "packHalf2x16",
            "unpackHalf2x16",
            "bitCount(",
            "findMSB(",
            "bitfieldReverse(",
            "roundEven(",
            "sin(back)",
            "modf(",
            "transpose(",
            "determinant(",
            "_hlsl_isfinite_float",
        ],
    );
}

#[test]
fn wave_intrinsics() {
    let out = compute(
        "uint lane = WaveGetLaneIndex(); uint n = WaveGetLaneCount() + WaveActiveSum(lane) + WavePrefixSum(lane)
           + WaveActiveMax(lane) + WaveActiveBitOr(lane) + WaveReadLaneAt(lane, 0) + WaveReadLaneFirst(lane)
           + WaveActiveCountBits(lane > 2) + WavePrefixCountBits(true) + WaveActiveBallot(true).x
           + (WaveIsFirstLane() ? 1 : 0) + (WaveActiveAnyTrue(lane == 0) ? 1 : 0) + (WaveActiveAllEqual(lane) ? 1 : 0)
           + QuadReadAcrossX(lane) + QuadReadLaneAt(lane, 1);
         rw[0] = n;",
        "RWStructuredBuffer<uint> rw;",
    );
    has(
        &out,
        &[
            "GL_KHR_shader_subgroup_arithmetic",
            "GL_KHR_shader_subgroup_ballot",
            "GL_KHR_shader_subgroup_vote",
            "GL_KHR_shader_subgroup_quad",
            "GL_KHR_shader_subgroup_shuffle",
            "gl_SubgroupInvocationID",
            "subgroupAdd(",
            "subgroupExclusiveAdd(",
            "subgroupBallotBitCount(subgroupBallot(",
            "subgroupElect()",
            "subgroupQuadSwapHorizontal(",
        ],
    );
}

#[test]
fn fragment_intrinsics_and_discard() {
    let src = "Texture2D<float4> t; SamplerState s; RWTexture2D<float4> outImg;
        static float2 uv = float2(0.25, 0.75);
        [shader(\"fragment\")] [earlydepthstencil] void main() {
            float4 c = t.Sample(s, uv) + t.SampleBias(s, uv, 0.5) + t.Sample(s, uv, int2(1, 1));
            c.x += ddx(uv.x) + ddy_fine(uv.y) + fwidth(uv.x) + t.CalculateLevelOfDetail(s, uv);
            clip(c.x - 0.1); clip(c.xy);
            if (c.w < 0) discard;
            outImg[uint2(1, 1)] = c;
        }";
    let out = glsl_ok(src, ShaderStage::Fragment);
    has(
        &out,
        &[
            "layout(early_fragment_tests) in;",
            "texture(sampler2D(t, s), uv)",
            "textureOffset(",
            "dFdx(",
            "dFdyFine(",
            "fwidth(",
            "textureQueryLod(",
            "discard;",
            "if (any(lessThan(",
            "imageStore(outImg",
        ],
    );
}

#[test]
fn keywords_and_names_are_renamed() {
    let out = compute(
        "float input = 1; float gl_thing = 2; float a__b = 3; rw[0] = uint(input + gl_thing + a__b + sample(1) + main2());",
        "RWStructuredBuffer<uint> rw; float sample(float x) { return x; } float main2() { return 1; }",
    );
    has(&out, &["input_", "ugl_thing", "a_b", "sample_("]);
    assert!(!out.contains("__"), "{out}");
}

#[test]
fn bindings_follow_vk_binding_then_register_then_declaration_order() {
    let out = compute(
        "rw[0] = uint(a.Load(int3(0, 0, 0)).x + b.Load(int3(0, 0, 0)).x + c.Load(int3(0, 0, 0)).x);",
        "[[vk::binding(0, 0)]] Texture2D<float4> a; Texture2D<float4> b : register(t1, space2);
         Texture2D<float4> c; RWStructuredBuffer<uint> rw;",
    );
    has(
        &out,
        &[
            "set = 0, binding = 0) uniform texture2D a;",
            "set = 2, binding = 1) uniform texture2D b;",
            "set = 0, binding = 1) uniform texture2D c;",
            "set = 0, binding = 2) buffer",
        ],
    );
}

#[test]
fn extensions_and_version_come_from_options() {
    let m = module("[shader(\"compute\")] [numthreads(1, 1, 1)] void main() { }");
    let options = glsl::Options {
        version: 460,
        extensions: vec!["GL_EXT_b".into(), "GL_EXT_a".into(), "GL_EXT_b".into()],
    };
    let out = glsl::write(&m, 0, &options).unwrap();
    assert!(
        out.starts_with(
            "#version 460\n#extension GL_EXT_a : require\n#extension GL_EXT_b : require\n"
        ),
        "{out}"
    );
    assert!(matches!(
        glsl::write(&m, 3, &options),
        Err(glsl::Error::NoSuchEntryPoint { index: 3 })
    ));
}

#[test]
fn unsupported_intrinsics_are_coded_errors_with_spans() {
    let src =
        "[shader(\"compute\")] [numthreads(1, 1, 1)] void main() { float4 l = lit(1, 2, 3); }";
    let err = glsl::write(&module(src), 0, &glsl::Options::default()).unwrap_err();
    match &err {
        glsl::Error::Unsupported { what, span } => {
            assert!(what.contains("lit"), "{what}");
            assert_eq!(&src[span.range()], "lit(1, 2, 3)");
        }
        other => panic!("expected Unsupported, got {other:?}"),
    }
    let src = "struct P { float4 c; }; [shader(\"compute\")] [numthreads(1, 1, 1)] void main() { P p; DispatchMesh(1, 1, 1, p); }";
    assert!(matches!(
        glsl::write(&module(src), 0, &glsl::Options::default()),
        Err(glsl::Error::Unsupported { .. })
    ));
}

#[test]
fn entry_points_with_parameters_are_not_legalized() {
    let src =
        "[shader(\"compute\")] [numthreads(1, 1, 1)] void main(uint3 id : SV_DispatchThreadID) { }";
    let err = glsl::write(&module(src), 0, &glsl::Options::default()).unwrap_err();
    assert!(matches!(err, glsl::Error::NotLegalized { .. }), "{err:?}");
}
