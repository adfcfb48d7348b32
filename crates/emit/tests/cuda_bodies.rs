//! CUDA writer bodies: shaders go through the front end, the CUDA
//! legalizer and the writer, and every output is compiled by `nvcc -ptx`
//! against the prelude (a missing toolchain fails: run `cargo xtask
//! setup`); the refusals pin their code, message and span.

use legalis_emit::cuda;
use legalis_ir::ShaderStage;

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
    legalis_legalize_varying::cuda::legalize(&module, 0, &legalis_ir::Policy::default())
        .unwrap_or_else(|e| panic!("legalizer: {e:#?}"))
        .module
}

/// The CUDA text, compiled by nvcc.
fn cuda_ok(src: &str, stage: ShaderStage) -> String {
    let text = cuda::write(&legalized(src, stage), 0, &cuda::Options::default())
        .unwrap_or_else(|e| panic!("writer failed: {e} at {:?}", e.span()));
    if let Err(error) =
        legalis_validate::cuda::validate_cuda(&text, &[(cuda::PRELUDE_NAME, cuda::PRELUDE)])
    {
        panic!("nvcc rejects:\n{text}\n{error}");
    }
    text
}

fn cuda_err(src: &str, stage: ShaderStage) -> (String, String) {
    let e = cuda::write(&legalized(src, stage), 0, &cuda::Options::default())
        .expect_err("the writer refuses");
    assert_eq!(
        legalis_emit::codes::of_cuda(&e),
        legalis_emit::codes::CUDA_UNSUPPORTED
    );
    let span = e.span().expect("a span");
    (e.to_string(), src[span.range()].to_string())
}

#[test]
fn the_math_library_compiles() {
    let text = cuda_ok(
        r#"
RWStructuredBuffer<float4> o;
RWStructuredBuffer<uint> u;
[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float4 v = o[id.x];
    float3 n = normalize(cross(v.xyz, float3(0.0, 1.0, 0.0)));
    float s = dot(v, v) + length(n) + distance(v.xy, v.zw);
    float4 w = saturate(lerp(v, float4(1.0, 2.0, 3.0, 4.0), 0.5));
    w = clamp(w, 0.0, 1.0) + abs(v) + min(v, w) + max(v, w) + floor(v) + ceil(v) + frac(v);
    w = w + sin(v) + cos(v) + exp(v) + log(abs(v) + 1.0) + sqrt(abs(v)) + rsqrt(abs(v) + 1.0);
    w = w + pow(abs(v), 2.0) + step(0.5, v) + smoothstep(0.0, 1.0, v) + sign(v) + trunc(v) + round(v);
    w = w + fmod(v, 3.0) + atan2(v, w) + mad(v, w, v) + rcp(v + 1.0) + tan(v) + exp2(v) + log2(abs(v) + 1.0);
    float2x2 m = float2x2(v.x, v.y, v.z, v.w);
    float2 r = mul(m, v.xy) + mul(v.zw, transpose(m)) + determinant(m);
    float3 f = reflect(n, float3(0.0, 0.0, 1.0)) + faceforward(n, n, n);
    bool4 b = v > w;
    if (all(b) || any(!b))
        s += 1.0;
    o[id.x] = float4(r, s, f.x) + w;
    u[id.x] = countbits(id.x) + reversebits(id.y) + firstbitlow(id.z) + firstbithigh(id.x) + asuint(s);
    int i = asint(v.x) % 7;
    u[id.y] = uint(i) << 2;
    double d = (double)s * 2.0;
    u[id.z] = (uint)d;
    half h = half(v.y) * half(2.0);
    u[id.x + 1] = asuint(float(h));
}
"#,
        ShaderStage::Compute,
    );
    assert!(text.contains("lg::normalize(lg::cross("), "{text}");
    assert!(text.contains("lg::mul("), "{text}");
}

#[test]
fn structs_arrays_statics_and_byte_address_buffers_compile() {
    let text = cuda_ok(
        r#"
struct Item { float3 p; uint ids[2]; };
static const float K[3] = { 1.0, 2.0, 3.0 };
static uint counter = 3;
RWByteAddressBuffer raw;
RWStructuredBuffer<Item> items;
cbuffer C { row_major float4x4 world; uint n; };
groupshared uint best;
uint bump(inout uint x) { x += 1; return x; }
[numthreads(8, 8, 1)]
void main(uint3 id : SV_DispatchThreadID, uint gi : SV_GroupIndex)
{
    Item it = items[id.x];
    it.p = mul(world, float4(it.p, 1.0)).xyz * K[gi % 3];
    it.ids[1] = bump(counter);
    for (uint k = 0; k < n; ++k) { if (k == 3) break; it.ids[0] += k; }
    switch (gi) { case 0: it.p.x = 1.0; break; default: it.p.y = 2.0; break; }
    items[id.x] = it;
    uint4 q = raw.Load4(16);
    raw.Store2(0, q.xy);
    raw.Store(8, q.z + raw.Load(4));
    uint old;
    InterlockedMax(best, 5, old);
    InterlockedCompareExchange(best, 5, old, old);
    DeviceMemoryBarrierWithGroupSync();
}
"#,
        ShaderStage::Compute,
    );
    assert!(
        text.contains("__device__ const lg::array<float, 3> K"),
        "{text}"
    );
}

#[test]
fn textures_are_refused_with_their_span() {
    let (message, at) = cuda_err(
        r#"
Texture2D<float4> tex;
RWStructuredBuffer<float4> o;
[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) { o[0] = tex.Load(int3(id)); }
"#,
        ShaderStage::Compute,
    );
    assert!(
        message.contains("CUDA texture objects come later"),
        "{message}"
    );
    assert_eq!(at, "tex");
}

#[test]
fn callable_programs_take_their_data_by_address() {
    let text = cuda_ok(
        r#"
struct Data { float4 color; uint n; };
[shader("callable")]
void main(inout Data d) { d.color *= 2.0; d.n += 1; }
"#,
        ShaderStage::Callable,
    );
    assert!(
        text.contains("extern \"C\" __device__ void __direct_callable__main(Data* d)"),
        "{text}"
    );
}
