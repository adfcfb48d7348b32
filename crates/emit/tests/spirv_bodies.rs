//! SPIR-V writer bodies: every expression, statement and resource kind
//! the GLSL writer's tests cover, plus nested control flow, through the
//! front end, the legalizer and the SPIR-V writer; every module must pass
//! spirv-val (Vulkan 1.3), and a few disassembly tokens pin how each
//! construct was lowered.

use legalis_emit::spirv;
use legalis_ir::ShaderStage;
use legalis_legalize::Family;
use legalis_validate::TargetEnv;

fn write(src: &str) -> Result<Vec<u32>, spirv::Error> {
    let out = legalis_front::compile(src, &legalis_front::Options::default());
    let module = out
        .module
        .unwrap_or_else(|| panic!("front end rejected the shader: {:#?}", out.diagnostics));
    let legalized =
        legalis_legalize::glsl::Glsl::legalize(&module, 0, &legalis_ir::Policy::default())
            .unwrap_or_else(|d| panic!("legalizer rejected the shader: {d:#?}"));
    spirv::write(&legalized.module, 0, &spirv::Options::default())
}

/// Writes and validates; returns the disassembly.
fn asm(src: &str) -> String {
    let words = write(src).unwrap_or_else(|e| panic!("writer failed: {e} at {:?}", e.span()));
    let text = spirv::disassemble(&words);
    if let Err(e) = legalis_validate::validate_spirv(&words, TargetEnv::Vulkan_1_3) {
        panic!("module does not validate:\n{text}\n{e}");
    }
    text
}

fn has(out: &str, tokens: &[&str]) {
    for t in tokens {
        assert!(out.contains(t), "missing {t:?} in:\n{out}");
    }
}

fn compute(body: &str, decls: &str) -> String {
    asm(&format!(
        "{decls}\n[shader(\"compute\")] [numthreads(8, 4, 1)] void main() {{\n{body}\n}}\n"
    ))
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
            "OpTypeFloat 16",
            "OpTypeInt 64 1",
            "OpTypeInt 8 0",
            "OpTypeFloat 64",
            "OpCapability Int8",
            "OpCapability Float16",
            "%_arr_float_uint_3",
            "OpMemberName %Inner 0 \"a\"",
        ],
    );
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
            "OpSRem",
            "OpFRem",
            "OpSelect",
            "OpFOrdLessThan",
            "OpConvertSToF",
            "OpShiftLeftLogical",
            "OpNot",
            "OpVectorShuffle",
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
            "OpLoopMerge",
            "OpSelectionMerge",
            "OpSwitch",
            "OpBranchConditional",
            "OpFunctionCall",
            "OpFunctionParameter %_ptr_Function_uint",
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
            "OpDecorate %type_Globals Block",
            "%_Globals = OpVariable %_ptr_Uniform_type_Globals Uniform",
            "OpDecorate %CB Binding 1",
            "OpVectorTimesMatrix",
            "OpControlBarrier %uint_2 %uint_2",
            "Workgroup",
            "RowMajor",
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
            "OpDecorate %sb NonWritable",
            "OpAtomicIAdd",
            "OpAtomicUMax",
            "OpAtomicCompareExchange",
            "OpImageTexelPointer",
            "R32i",
            "OpArrayLength",
            "OpShiftRightLogical",
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
            "OpSampledImage",
            "OpImageSampleExplicitLod",
            "Lod|ConstOffset",
            "Grad",
            "OpImageGather",
            "OpImageDrefGather",
            "OpImageSampleDrefExplicitLod",
            "OpImageFetch",
            "OpImageQuerySizeLod",
            "OpImageQueryLevels",
            "OpImageQuerySize",
            "OpImageWrite",
            "Rgba32f",
            "Rg32f",
            "StorageImageExtendedFormats",
            "StorageImageWriteWithoutFormat",
            "Rgba8",
            "ImageQuery",
            "ImageBuffer",
            "SampledBuffer",
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
            "FClamp",
            "FMix",
            "Fract",
            "InverseSqrt",
            "OpBitcast",
            "PackHalf2x16",
            "UnpackHalf2x16",
            "OpBitCount",
            "FindUMsb",
            "OpBitReverse",
            "RoundEven",
            "Sin",
            "Cos",
            "ModfStruct",
            "OpTranspose",
            "Determinant",
            "OpIsNan",
            "OpIsInf",
            "OpDot",
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
            "; Version: 1.3",
            "OpCapability GroupNonUniformArithmetic",
            "OpCapability GroupNonUniformBallot",
            "OpCapability GroupNonUniformVote",
            "OpCapability GroupNonUniformQuad",
            "OpCapability GroupNonUniformShuffle",
            "BuiltIn SubgroupLocalInvocationId",
            "OpGroupNonUniformIAdd %uint %uint_3 Reduce",
            "ExclusiveScan",
            "OpGroupNonUniformBallotBitCount",
            "OpGroupNonUniformElect",
            "OpGroupNonUniformQuadSwap",
        ],
    );
}

#[test]
fn keywords() {
    let out = compute(
        "float input = 1; float gl_thing = 2; float a__b = 3; rw[0] = uint(input + gl_thing + a__b + sample(1) + main2());",
        "RWStructuredBuffer<uint> rw; float sample(float x) { return x; } float main2() { return 1; }",
    );
    has(&out, &["%input", "%gl_thing", "%a__b"]);
}

#[test]
fn bindings() {
    let out = compute(
        "rw[0] = uint(a.Load(int3(0, 0, 0)).x + b.Load(int3(0, 0, 0)).x + c.Load(int3(0, 0, 0)).x);",
        "[[vk::binding(0, 0)]] Texture2D<float4> a; Texture2D<float4> b : register(t1, space2);
         Texture2D<float4> c; RWStructuredBuffer<uint> rw;",
    );
    has(
        &out,
        &[
            "OpDecorate %a DescriptorSet 0",
            "OpDecorate %a Binding 0",
            "OpDecorate %b DescriptorSet 2",
            "OpDecorate %b Binding 1",
            "OpDecorate %c Binding 1",
            "OpDecorate %rw Binding 2",
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
    let out = asm(src);
    has(
        &out,
        &[
            "OpExecutionMode %main EarlyFragmentTests",
            "OpImageSampleImplicitLod",
            "Bias",
            "ConstOffset",
            "OpDPdx",
            "OpDPdyFine",
            "OpCapability DerivativeControl",
            "OpFwidth",
            "OpImageQueryLod",
            "OpKill",
            "OpAny",
        ],
    );
}

#[test]
fn nested_control_flow_with_break_and_continue() {
    let out = compute(
        "uint acc = 0;
         for (uint i = 0; i < 8; i++) {
             switch (i % 3) {
                 case 0: {
                     for (uint j = 0; j < 4; j++) { if (j == 2) break; if (j == 1) continue; acc += j; }
                     uint k = 0;
                     while (true) { k++; if (k > 3) break; switch (k) { case 1: continue; default: acc += k; break; } }
                     break;
                 }
                 case 1: if (acc > 10) continue; acc += 2;
                 case 2: acc *= 2; break;
                 default: return;
             }
             do { acc--; if (acc == 7) break; } while (acc > 20);
         }
         bool b = acc > 3 && side(acc) || acc == 0;
         rw[0] = acc + (b ? 1 : 0);",
        "RWStructuredBuffer<uint> rw; bool side(uint x) { rw[1] = x; return x > 5; }",
    );
    has(&out, &["OpLoopMerge", "OpSwitch", "OpReturn"]);
    assert!(out.matches("OpLoopMerge").count() >= 4, "{out}");
}

#[test]
fn swizzle_stores_inout_and_matrix_rows() {
    let out = compute(
        "float4 v = float4(1, 2, 3, 4); v.zx = float2(7, 8); v.y = 5; float3x3 m = 0; m[1] = v.xyz; m[2].y = 3;
         float q = 1; bump(q); bump(v.w);
         rw[0] = uint(v.x + v.z + m[1][0] + m[2][1] + q);",
        "RWStructuredBuffer<uint> rw; void bump(inout float x) { x += 1; }",
    );
    has(
        &out,
        &[
            "OpVectorShuffle %v4float",
            "OpFunctionParameter %_ptr_Function_float",
            "OpAccessChain %_ptr_Function_v3float",
        ],
    );
}

#[test]
fn stage_io_decorations_and_depth() {
    let out = asm(
        "struct PsIn { float4 pos : SV_Position; nointerpolation uint id : ID; noperspective float2 uv : UV; centroid float c : C; };
         struct PsOut { float4 color : SV_Target0; float4 extra : SV_Target1; float depth : SV_Depth; };
         [shader(\"fragment\")] PsOut main(PsIn input) { PsOut o; o.color = input.pos; o.extra = float4(input.uv, input.c, float(input.id)); o.depth = 0.5; return o; }",
    );
    has(
        &out,
        &[
            "OpExecutionMode %main DepthReplacing",
            "BuiltIn FragDepth",
            "Flat",
            "NoPerspective",
            "Centroid",
            "Location 1",
        ],
    );
}

#[test]
fn unsupported_constructs_are_errors_with_spans() {
    let src =
        "[shader(\"compute\")] [numthreads(1, 1, 1)] void main() { float4 l = lit(1, 2, 3); }";
    match write(src) {
        Err(spirv::Error::Unsupported { what, span }) => {
            assert!(what.contains("lit"), "{what}");
            assert_eq!(&src[span.range()], "lit(1, 2, 3)");
        }
        other => panic!("expected Unsupported, got {other:?}"),
    }
    let src = "struct P { float4 c; }; [shader(\"compute\")] [numthreads(1, 1, 1)] void main() { P p; DispatchMesh(1, 1, 1, p); }";
    assert!(matches!(write(src), Err(spirv::Error::Unsupported { .. })));
}

#[test]
fn entry_points_with_parameters_are_not_legalized() {
    let src =
        "[shader(\"compute\")] [numthreads(1, 1, 1)] void main(uint3 id : SV_DispatchThreadID) { }";
    let out = legalis_front::compile(src, &legalis_front::Options::default());
    let err = spirv::write(&out.module.unwrap(), 0, &spirv::Options::default()).unwrap_err();
    assert!(matches!(err, spirv::Error::NotLegalized { .. }), "{err:?}");
    assert!(matches!(
        spirv::write(&out_module(), 3, &spirv::Options::default()),
        Err(spirv::Error::NoSuchEntryPoint { index: 3 })
    ));
}

fn out_module() -> legalis_ir::Module {
    let src = "[shader(\"compute\")] [numthreads(1, 1, 1)] void main() { }";
    legalis_front::compile(src, &legalis_front::Options::default())
        .module
        .unwrap()
}

#[test]
fn binding_rule_is_vk_binding_then_register_then_declaration_order() {
    let src =
        "[[vk::binding(0, 0)]] Texture2D<float4> a; Texture2D<float4> b : register(t1, space2);
         Texture2D<float4> c; float plain; RWStructuredBuffer<uint> rw;
         [shader(\"compute\")] [numthreads(1, 1, 1)] void main() { rw[0] = uint(plain); }";
    let module = legalis_front::compile(src, &legalis_front::Options::default())
        .module
        .unwrap();
    let b = spirv::assign_bindings(&module);
    let by_name = |n: &str| {
        let (h, _) = module.globals.iter().find(|(_, g)| g.name == n).unwrap();
        b.resources[&h]
    };
    assert_eq!(by_name("a"), (0, 0));
    assert_eq!(by_name("b"), (2, 1));
    assert_eq!(b.globals_block, Some((0, 1)));
    assert_eq!(by_name("c"), (0, 2));
    assert_eq!(by_name("rw"), (0, 3));
}

#[test]
fn version_rises_to_1_4_and_then_the_interface_lists_every_global() {
    let src = "RWStructuredBuffer<uint> rw; groupshared uint g;
        [shader(\"compute\")] [numthreads(1, 1, 1)] void main() { g = 1; rw[0] = g; }";
    let out = legalis_front::compile(src, &legalis_front::Options::default());
    let legalized = legalis_legalize::glsl::Glsl::legalize(
        &out.module.unwrap(),
        0,
        &legalis_ir::Policy::default(),
    )
    .unwrap();
    let options = spirv::Options {
        min_version: (1, 4),
        ..Default::default()
    };
    let words = spirv::write(&legalized.module, 0, &options).unwrap();
    legalis_validate::validate_spirv(&words, TargetEnv::Vulkan_1_3).unwrap();
    let text = spirv::disassemble(&words);
    has(
        &text,
        &[
            "; Version: 1.4",
            "OpEntryPoint GLCompute %main \"main\" %rw %g",
        ],
    );
    assert!(
        !text.contains("SPV_KHR_storage_buffer_storage_class"),
        "{text}"
    );
    let _ = ShaderStage::Compute;
}
