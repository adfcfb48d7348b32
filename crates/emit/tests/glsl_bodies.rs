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
            "_hlsl_sincos_float(back, sn, cs)",
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
            // CalculateLevelOfDetail is the clamped level: component x.
            "textureQueryLod(sampler2D(t, s), uv).x",
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
        bindings: None,
        preserve_params: false,
        scalar_layout: false,
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
    let src = "[shader(\"compute\")] [numthreads(1, 1, 1)] void main() { float l = noise(float3(1, 2, 3)); }";
    let err = glsl::write(&module(src), 0, &glsl::Options::default()).unwrap_err();
    match &err {
        glsl::Error::Unsupported { what, span } => {
            assert!(
                what.contains("`noise`") && what.contains("tx_1_0"),
                "{what}"
            );
            assert_eq!(&src[span.range()], "noise(float3(1, 2, 3))");
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

/// The text of helper `name` in `out` (from its signature to its `}`).
fn helper<'a>(out: &'a str, name: &str) -> &'a str {
    let start = out
        .find(&format!(" {name}("))
        .unwrap_or_else(|| panic!("no helper {name} in:\n{out}"));
    let end = out[start..]
        .find("\n}\n")
        .map_or(out.len(), |e| start + e + 3);
    &out[start..end]
}

#[test]
fn static_locals_are_private_globals_initialised_once() {
    let out = compute(
        "rw[0] = next() + next();",
        "RWStructuredBuffer<uint> rw;
         uint next() { static uint count = rw[1]; static float unset; count++; unset += 1; return count + uint(unset); }",
    );
    has(
        &out,
        &[
            "uint next_count;",
            "bool next_count_init = false;",
            "float next_unset;",
            // HLSL runs the initializer when the declaration is first reached.
            "if (!next_count_init)\n    {\n        next_count_init = true;\n        next_count = rw.data[1];\n    }",
            "next_count++",
        ],
    );
    assert!(!out.contains("uint count"), "{out}");
}

#[test]
fn operands_needed_twice_are_evaluated_once() {
    let out = compute(
        "float s, c; sincos(f(), s, c);
         uint3 w = bab.Load3(addr()); bab.Store2(addr(), w.xy + uint2(f(), 1));
         float4 t4 = t.Load(int3(addr(), 0, 0)) + t.Load(int3(1, 2, 0));
         rw[0] = uint(s + c + t4.x) + w.z;",
        "RWStructuredBuffer<uint> rw; RWByteAddressBuffer bab; Texture2D<float4> t;
         uint addr() { rw[1]++; return rw[1] * 4; } float f() { rw[2]++; return 0.5; }",
    );
    has(
        &out,
        &[
            "void _hlsl_sincos_float(float x, out float s, out float c)",
            "_hlsl_sincos_float(f(), s, c)",
            // Load3: the word index once, then three words.
            "(_hlsl_tmp = uint(addr()) >> 2u, uvec3(bab.data[_hlsl_tmp], bab.data[_hlsl_tmp + 1u], bab.data[_hlsl_tmp + 2u]))",
            // Store2: address, then value, each once, in HLSL's order.
            "_hlsl_tmp_1 = uint(addr()) >> 2u, _hlsl_tmp_2 = (w.xy + uvec2(uint(f()), uint(1))), bab.data[_hlsl_tmp_1] = (_hlsl_tmp_2).x",
            "bab.data[_hlsl_tmp_1 + 1u] = (_hlsl_tmp_2).y",
            "(_hlsl_tmp_3 = ivec3(int(addr()), 0, 0), ",
            "texelFetch(t, _hlsl_tmp_3.xy, _hlsl_tmp_3.z))",
            // A pure coordinate is still printed in place.
            "texelFetch(t, (ivec3(1, 2, 0)).xy, (ivec3(1, 2, 0)).z)",
            "uint _hlsl_tmp;",
            "ivec3 _hlsl_tmp_3;",
        ],
    );
}

#[test]
fn texel_read_modify_write() {
    let out = compute(
        "uint2 uv = uint2(1, 2); img[uv].x = 1; img[uv] += float4(1, 2, 3, 4); tb[uv.x]++;
         float4 r = (img[uv] = float4(0, 0, 0, 1)); float y = img[uv].y++; uint before = --tb[0];
         rw[0] = uint(r.w + y) + before;",
        "RWTexture2D<float4> img; RWBuffer<uint> tb; RWStructuredBuffer<uint> rw;",
    );
    has(
        &out,
        &[
            // Partial write: load, set the component, store back.
            "_hlsl_tmp_1 = imageLoad(img, _hlsl_tmp), _hlsl_tmp_1.x = float(1), imageStore(img, _hlsl_tmp, vec4(_hlsl_tmp_1))",
            // Compound assignment reads then writes the texel.
            "imageStore(img, ivec2(uv), vec4((imageLoad(img, ivec2(uv)) + ",
            // Post-increment yields the old value.
            "_hlsl_tmp_4 = _hlsl_tmp_3, ++_hlsl_tmp_3, imageStore(tb, _hlsl_tmp_2, uvec4(_hlsl_tmp_3, 0u, 0u, 0u)), _hlsl_tmp_4)",
            // Assignment as a value yields the stored texel.
            "_hlsl_tmp_6 = vec4(",
            "imageStore(img, _hlsl_tmp_5, vec4(_hlsl_tmp_6)), _hlsl_tmp_6)",
            // A component's post-increment yields that component's old value.
            "++_hlsl_tmp_8.y, imageStore(img, _hlsl_tmp_7, vec4(_hlsl_tmp_8)), _hlsl_tmp_9.y)",
            "--_hlsl_tmp_11, imageStore(tb",
            // Pre-decrement yields the new value.
            "uvec4(_hlsl_tmp_11, 0u, 0u, 0u)), _hlsl_tmp_11)",
        ],
    );
}

#[test]
fn matrix_comparisons_bit_operators_and_integer_matrices() {
    let out = compute(
        "float2x2 a = float2x2(1, 2, 3, 4); float2x2 b = a * 2; bool2x2 lt = a < b; bool2x2 eq = a == b;
         int2x3 m = int2x3(1, 2, 3, int2(4, 5), 6); int2x3 k = m & 3; int2x3 s = -(m + k) | m;
         uint2x2 u = (uint2x2)a; float2x2 back = (float2x2)u; int2x2 trunc2 = (int2x2)m;
         bool2x2 both = lt && !eq; int3 row = s[1]; int2x3 z = 0;
         rw[0] = uint(row.x + s[0][2] + trunc2[1][1] + z[1][1]) + u[1][0] + uint(back[0][1]) + (both[1].y ? 1u : 0u);",
        "RWStructuredBuffer<uint> rw;",
    );
    has(
        &out,
        &[
            // GLSL has no integer or bool matrices: arrays of HLSL rows.
            "ivec3 m[2] = ivec3[2](ivec3(1, 2, 3), ivec3(ivec2(4, 5), 6));",
            "bvec2 lt[2] = _hlsl_lt_mat2x2_mat2x2(a, b);",
            // HLSL `==` on matrices is per component, GLSL's is one bool.
            "bvec2[2] _hlsl_eq_mat2x2_mat2x2(mat2x2 a, mat2x2 b)\n{\n    return bvec2[2](equal(a[0], b[0]), equal(a[1], b[1]));",
            "return ivec3[2]((a[0] & b[0]), (a[1] & b[1]));",
            "_hlsl_neg_ivec3_2(",
            "uvec2 u[2] = _hlsl_cvt_mat2x2_uvec2_2(a);",
            "return mat2x2(vec2(m[0]), vec2(m[1]));",
            // Truncation keeps the leading rows and columns.
            "return ivec2[2](ivec2(m[0].xy), ivec2(m[1].xy));",
            "bvec2(uvec2(a[0]) & uvec2(b[0]))",
            "not(a[0])",
            "ivec3 row = s[1];",
            "_hlsl_splat_ivec3_2(",
        ],
    );
    let lt = helper(&out, "_hlsl_lt_mat2x2_mat2x2");
    assert!(lt.contains("lessThan(a[1], b[1])"), "{lt}");
    assert!(!out.contains("__"), "GLSL reserves `__`:\n{out}");
}

#[test]
fn rare_math_intrinsics() {
    let out = compute(
        "float4 l = lit(0.5, 0.25, 8); float4 d = dst(float4(1, 2, 3, 4), float4(5, 6, 7, 8));
         uint4 sad = msad4(0x01020300u, uint2(0x04030201u, 0x08070605u), uint4(0, 0, 0, 0));
         float e; float m = frexp(12.0, e); float3 e3; float3 m3 = frexp(float3(1, 2, 3), e3);
         double dd = asdouble(0u, 0x3FF00000u); double2 d2 = asdouble(uint2(0, 0), uint2(1, 2));
         uint lo, hi; asuint(dd, lo, hi);
         half h = asfloat16(uint16_t(0x3C00)); int16_t hi16 = asint16(h); uint16_t hu16 = asuint16(h);
         int id = dot(int3(1, 2, 3), int3(4, 5, 6)); uint ud = dot(uint2(1, 2), uint2(3, 4));
         rw[0] = uint(l.y + d.y + m + e + m3.x + e3.z + float(dd) + float(d2.y) + float(h)) + sad.x + lo + hi + uint(hi16) + uint(hu16) + uint(id) + ud;",
        "RWStructuredBuffer<uint> rw;",
    );
    // lit: (1, n.l < 0 ? 0 : n.l, n.l < 0 || n.h < 0 ? 0 : n.h^m, 1).
    let lit = helper(&out, "_hlsl_lit");
    assert!(
        lit.contains("(n_dot_l < 0.0 || n_dot_h < 0.0) ? 0.0 : pow(n_dot_h, m)")
            && lit.contains("vec4(1.0, max(n_dot_l, 0.0), specular, 1.0)"),
        "{lit}"
    );
    // dst(a, b) = (1, a.y * b.y, a.z, b.w).
    assert!(helper(&out, "_hlsl_dst_vec4").contains("vec4(1, a.y * b.y, a.z, b.w)"));
    // msad4: sum over reference bytes j that are not 0 of
    // |ref[j] - src[i + j]|, src bytes 0..3 in .x, 4..7 in .y, plus accum[i].
    let sad = helper(&out, "_hlsl_msad4");
    for t in [
        "uvec4 result = accum;",
        "(source.x >> (8 * i)) | (source.y << (32 - 8 * i))",
        "if (r != 0u)",
        "result[i] += uint(abs(int(r) - int(s)));",
    ] {
        assert!(sad.contains(t), "missing {t:?} in {sad}");
    }
    // frexp: x = m * 2^e with m in [0.5, 1) in both languages; HLSL's
    // exponent is a float of x's type.
    let fx = helper(&out, "_hlsl_frexp_vec3");
    assert!(
        fx.contains("ivec3 i;")
            && fx.contains("vec3 m = frexp(x, i);")
            && fx.contains("e = vec3(i);"),
        "{fx}"
    );
    has(
        &out,
        &[
            "_hlsl_frexp_float(12.0, e)",
            "packDouble2x32(uvec2(0u, 1072693248u))",
            "packDouble2x32(uvec2(lo[1], hi[1]))",
            "uvec2 words = unpackDouble2x32(d);",
            "uint16BitsToFloat16(",
            "float16BitsToInt16(h)",
            "float16BitsToUint16(h)",
            "GL_EXT_shader_explicit_arithmetic_types_float16",
            "GL_EXT_shader_explicit_arithmetic_types_int16",
            "int _hlsl_dot_ivec3(ivec3 a, ivec3 b)\n{\n    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];",
            "_hlsl_dot_uvec2(",
        ],
    );
}

#[test]
fn structured_buffer_dimensions_use_the_std430_stride() {
    let out = compute(
        "uint n, stride, n2, stride2; sb.GetDimensions(n, stride); packed.GetDimensions(n2, stride2);
         rw[0] = n + stride + n2 + stride2;",
        "struct Padded { float a; float3 b; }; struct Packed { float3 a; float b; };
         StructuredBuffer<Padded> sb; RWStructuredBuffer<Packed> packed; RWStructuredBuffer<uint> rw;",
    );
    // Padded: a at 0, b at 16 (float3 aligns to 16), 28 rounded to 32.
    // Packed: b fills a's padding, 16.
    has(
        &out,
        &[
            "n = uint(sb.data.length()), stride = uint(32)",
            "n2 = uint(packed.data.length()), stride2 = uint(16)",
        ],
    );
}

#[test]
fn append_consume_and_counters() {
    let out = compute(
        "float4 v = co.Consume(); ap.Append(v * 2); uint slot = rw.IncrementCounter(); uint left = rw.DecrementCounter();
         uint n, stride; ap.GetDimensions(n, stride); rw[slot] = left + n + stride;",
        "AppendStructuredBuffer<float4> ap; ConsumeStructuredBuffer<float4> co; RWStructuredBuffer<uint> rw;
         RWStructuredBuffer<uint> plain;",
    );
    has(
        &out,
        &[
            "binding = 0) buffer block_ap\n{\n    vec4 data[];\n} ap;",
            // The counter takes the first free binding after the buffer's own,
            // allocated after every other resource.
            "set = 0, binding = 4) buffer block_ap_counter\n{\n    uint count;\n} ap_counter;",
            "binding = 1) buffer block_co\n",
            "set = 0, binding = 5) buffer block_co_counter",
            "set = 0, binding = 6) buffer block_rw_counter",
            // Append writes at the old count; Consume reads at the new one.
            "ap.data[atomicAdd(ap_counter.count, 1u)] = ",
            "co.data[atomicAdd(co_counter.count, 0xFFFFFFFFu) - 1u]",
            "uint slot = atomicAdd(rw_counter.count, 1u);",
            "uint left = (atomicAdd(rw_counter.count, 0xFFFFFFFFu) - 1u);",
            "stride = uint(16)",
        ],
    );
    assert!(!out.contains("plain_counter"), "{out}");
}

#[test]
fn texture_buffers_are_uniform_blocks() {
    let out = compute(
        "rw[0] = uint(tv.x + tb2.w.y);",
        "tbuffer TB : register(t3) { float4 tv; }; struct W { float2 w; }; TextureBuffer<W> tb2;
         RWStructuredBuffer<uint> rw;",
    );
    has(
        &out,
        &[
            "binding = 3) uniform block_TB\n{\n    vec4 tv;\n} TB;",
            "TB.tv.x",
            "uniform block_tb2\n{\n    vec2 w;\n} tb2;",
            "tb2.w.y",
        ],
    );
}

#[test]
fn rasterizer_ordered_resources_run_inside_an_interlock() {
    let src = "RasterizerOrderedTexture2D<float4> rov; RasterizerOrderedStructuredBuffer<uint> rob;
        [shader(\"fragment\")] void main() {
            rov[uint2(0, 0)] = rov[uint2(0, 0)] + float4(1, 0, 0, 0); rob[0] += 1;
            if (rob[1] == 0) return;
            rob[1] = 2;
        }";
    let out = glsl_ok(src, ShaderStage::Fragment);
    has(
        &out,
        &[
            "#extension GL_ARB_fragment_shader_interlock : require",
            "layout(pixel_interlock_ordered) in;",
            "rgba32f) uniform image2D rov;",
            "void _hlsl_main()",
            "void main()\n{\n    beginInvocationInterlockARB();\n    _hlsl_main();\n    endInvocationInterlockARB();\n}",
        ],
    );
    let compute_src = "RasterizerOrderedStructuredBuffer<uint> rob;
        [shader(\"compute\")] [numthreads(1, 1, 1)] void main() { rob[0] = 1; }";
    match glsl::write(&module(compute_src), 0, &glsl::Options::default()) {
        Err(glsl::Error::Unsupported { what, .. }) => {
            assert!(what.contains("fragment shader interlock"), "{what}")
        }
        other => panic!("expected Unsupported, got {other:?}"),
    }
}

#[test]
fn buffer_parameters_are_specialised_per_global() {
    let decls = "RWStructuredBuffer<uint> rw; RWStructuredBuffer<uint> a; RWStructuredBuffer<uint> b;
         Texture2D<float4> t; SamplerState s;
         uint first(RWStructuredBuffer<uint> buf, uint i) { buf[i] += 1; return buf[i]; }
         uint only(RWStructuredBuffer<uint> buf) { uint n, st; buf.GetDimensions(n, st); return n; }
         uint twice(RWStructuredBuffer<uint> buf) { return only(buf) * 2; }
         uint sum(Texture2D<float4> tex, SamplerState smp) { return uint(tex.SampleLevel(smp, float2(0, 0), 0).x); }";
    let body = "rw[0] = first(a, 0) + first(b, 1) + only(a) + twice(a) + sum(t, s) * sum(t, s);";
    let src = format!(
        "{decls}\n[shader(\"compute\")] [numthreads(8, 4, 1)] void main() {{\n{body}\n}}\n"
    );
    // The writer alone refuses a buffer passed to a function ...
    let err = glsl::write(&module(&src), 0, &glsl::Options::default()).unwrap_err();
    assert!(
        err.to_string().contains("passing a buffer or image"),
        "{err}"
    );
    // ... which the legalizer specialises per global.
    let policy = legalis_ir::Policy::default();
    let legalized = <legalis_legalize::glsl::Glsl as legalis_legalize::Family>::legalize(
        &module(&src),
        0,
        &policy,
    )
    .unwrap_or_else(|d| panic!("legalizer rejected the shader: {d:#?}"));
    let out = glsl::write(&legalized.module, 0, &glsl::Options::default())
        .unwrap_or_else(|e| panic!("writer failed: {e} at {:?}", e.span()));
    if let Err(e) = legalis_validate::validate_glsl(&out, ShaderStage::Compute) {
        panic!("output does not validate:\n{out}\n{e}");
    }
    has(
        &out,
        &[
            // Two different globals: one clone each, without the parameter.
            "uint first_a(uint i)",
            "uint first_b(uint i)",
            "a.data[i] = (a.data[i] + uint(1));",
            "b.data[i] = (b.data[i] + uint(1));",
            // Always the same global (also through another parameter): one
            // function under its own name.
            "uint only()",
            "n = uint(a.data.length())",
            "uint twice()\n{\n    return (only() * uint(2));",
            // Textures and samplers are passed as GLSL parameters (by a
            // function called from more than one place).
            "uint sum(texture2D tex, sampler smp)",
            "first_a(uint(0)) + first_b(uint(1))",
        ],
    );
}

#[test]
fn byte_address_atomics() {
    let out = compute(
        "uint old; bab.InterlockedAdd(8, 1u, old); bab.InterlockedCompareStore(4, 0u, old);
         rw[0] = old;",
        "RWByteAddressBuffer bab; RWStructuredBuffer<uint> rw;",
    );
    has(
        &out,
        &[
            "old = atomicAdd(bab.data[uint(uint(8)) >> 2u], 1u)",
            "atomicCompSwap(bab.data[uint(uint(4)) >> 2u], 0u, old)",
        ],
    );
}
