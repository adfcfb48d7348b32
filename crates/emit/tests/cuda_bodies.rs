//! CUDA writer bodies: shaders go through the front end, the CUDA
//! legalizer and the writer, and every output is compiled by `nvcc -ptx`
//! against the prelude (a missing toolchain fails: run `cargo xtask
//! setup`); the refusals pin their code, message and span.

use legalis_emit::cuda;
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
    legalis_legalize::cuda::Cuda::legalize(&module, 0, &legalis_ir::Policy::default())
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
fn textures_sample_through_texture_objects() {
    let text = cuda_ok(
        r#"
Texture1D<float> line;
Texture2D<float4> tex;
Texture3D<float2> vol;
TextureCube<float4> sky;
Texture1DArray<float4> lines;
Texture2DArray<int> layers;
TextureCubeArray<float4> skies;
SamplerState samp;
RWStructuredBuffer<float4> o;
[numthreads(8, 8, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float2 uv = float2(id.xy) / 64.0;
    float3 p = float3(uv, 0.5);
    float4 a = tex.Sample(samp, uv) + tex.SampleLevel(samp, uv, 2.0)
        + tex.SampleGrad(samp, uv, float2(0.01, 0.0), float2(0.0, 0.01));
    float b = line.Sample(samp, uv.x) + line.SampleLevel(samp, uv.x, 1.0)
        + line.SampleGrad(samp, uv.x, 0.01, 0.01);
    float2 c = vol.Sample(samp, p) + vol.SampleLevel(samp, p, 0.0) + vol.SampleGrad(samp, p, p, p);
    float4 d = sky.Sample(samp, p) + sky.SampleLevel(samp, p, 1.0) + sky.SampleGrad(samp, p, p, p);
    float4 e = lines.Sample(samp, uv) + lines.SampleLevel(samp, uv, 0.0) + lines.SampleGrad(samp, uv, 0.1, 0.1);
    int f = layers.Sample(samp, p) + layers.SampleLevel(samp, p, 0.0) + layers.SampleGrad(samp, p, uv, uv);
    float4 g = skies.Sample(samp, float4(p, 2.0)) + skies.SampleLevel(samp, float4(p, 1.0), 0.0);
    o[id.x] = a + b + float4(c, 0.0, 0.0) + d + e + float(f) + g;
}
"#,
        ShaderStage::Compute,
    );
    for expected in [
        "cudaTextureObject_t line, cudaTextureObject_t tex, cudaTextureObject_t vol, \
         cudaTextureObject_t sky, cudaTextureObject_t lines, cudaTextureObject_t layers, \
         cudaTextureObject_t skies, lg::sampler_state samp, lg::float4* o",
        "lg::sample_2d<lg::float4>(tex, uv)",
        "lg::sample_level_2d<lg::float4>(tex, uv, 2.0f)",
        "lg::sample_grad_2d<lg::float4>(tex, uv, lg::float2(0.01f, 0.0f), lg::float2(0.0f, 0.01f))",
        "lg::sample_1d<float>(line, uv.x)",
        "lg::sample_grad_1d<float>(line, uv.x, 0.01f, 0.01f)",
        "lg::sample_level_3d<lg::float2>(vol, p, 0.0f)",
        "lg::sample_grad_cube<lg::float4>(sky, p, p, p)",
        "lg::sample_1d_array<lg::float4>(lines, uv)",
        "lg::sample_level_2d_array<int>(layers, p, 0.0f)",
        "lg::sample_cube_array<lg::float4>(skies, ",
    ] {
        assert!(text.contains(expected), "missing `{expected}`:\n{text}");
    }
}

#[test]
fn texture_loads_fetch_texels_at_integer_coordinates() {
    let text = cuda_ok(
        r#"
Texture1D<uint> line;
Texture2D<float4> tex;
Texture3D<int2> vol;
RWStructuredBuffer<float4> o;
[numthreads(8, 8, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float4 a = tex.Load(int3(id.xy, 1)) + tex[id.xy];
    uint b = line.Load(int2(id.x, 0)) + line[id.x];
    int2 c = vol.Load(int4(id, 0)) + vol[id];
    o[id.x] = a + float(b) + float(c.x + c.y);
}
"#,
        ShaderStage::Compute,
    );
    for expected in [
        "lg::load_2d<lg::float4>(tex, ",
        "lg::load_2d<lg::float4>(tex, lg::make<int, 3>(",
        "lg::load_1d<uint32_t>(line, ",
        "lg::load_1d<uint32_t>(line, lg::make<int, 2>(",
        "lg::load_3d<lg::int2>(vol, lg::make<int, 4>(",
    ] {
        assert!(text.contains(expected), "missing `{expected}`:\n{text}");
    }
}

#[test]
fn read_write_textures_are_surfaces() {
    let text = cuda_ok(
        r#"
RWTexture1D<uint> counts;
RWTexture2D<float4> image;
RWTexture3D<int2> grid;
Texture2D<float4> src;

void bump(RWTexture1D<uint> t, uint i) { t[i] = t[i] + 1; }

[numthreads(8, 8, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    image[id.xy] = image[id.xy] * 0.5 + src.Load(int3(id.xy, 0));
    image[id.xy] += float4(1.0, 0.0, 0.0, 1.0);
    grid[id] = int2(1, 2) + grid.Load(int3(id));
    bump(counts, id.x);
}
"#,
        ShaderStage::Compute,
    );
    for expected in [
        "cudaSurfaceObject_t counts",
        "cudaSurfaceObject_t image",
        "cudaSurfaceObject_t grid",
        "lg::surface_write_2d<lg::float4>(image, ",
        "lg::surface_read_2d<lg::float4>(image, ",
        "lg::surface_write_3d<lg::int2>(grid, id, ",
        "lg::surface_read_3d<lg::int2>(grid, lg::int3(id))",
        "lg::surface_read_1d<uint32_t>(t, i)",
        "__device__ void bump(cudaSurfaceObject_t t, uint32_t i)",
    ] {
        assert!(text.contains(expected), "missing `{expected}`:\n{text}");
    }
}

#[test]
fn get_dimensions_queries_texture_and_surface_objects() {
    let text = cuda_ok(
        r#"
Texture1D<float> line;
Texture2D<float4> tex;
TextureCube<float4> sky;
Texture3D<float> vol;
RWTexture2D<float4> image;
RWTexture3D<uint> grid;
RWStructuredBuffer<float4> o;
[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint a, w, h, s1, s2, d, iw, ih, gw, gh, gd;
    float fw, fh;
    line.GetDimensions(a);
    tex.GetDimensions(w, h);
    sky.GetDimensions(fw, fh);
    vol.GetDimensions(s1, s2, d);
    image.GetDimensions(iw, ih);
    grid.GetDimensions(gw, gh, gd);
    o[0] = float4(a + w + h + s1 + s2 + d, iw + ih, gw + gh + gd, fw + fh);
}
"#,
        ShaderStage::Compute,
    );
    for expected in [
        "lg::texture_dimensions_1d(line, a);",
        "lg::texture_dimensions_2d(tex, w, h);",
        "lg::texture_dimensions_2d(sky, fw, fh);",
        "lg::texture_dimensions_3d(vol, s1, s2, d);",
        "lg::surface_dimensions_2d(image, iw, ih);",
        "lg::surface_dimensions_3d(grid, gw, gh, gd);",
    ] {
        assert!(text.contains(expected), "missing `{expected}`:\n{text}");
    }
}

#[test]
fn texture_methods_cuda_does_not_express_are_refused_with_their_span() {
    let cases = [
        (
            "Texture2D<float4> tex;\nRWStructuredBuffer<float4> o;\n[numthreads(1, 1, 1)]\nvoid main(uint3 id : SV_DispatchThreadID) { uint w, h, n; tex.GetDimensions(1, w, h, n); o[0] = float4(w, h, n, 0); }",
            "this `GetDimensions`",
            "tex.GetDimensions(1, w, h, n)",
        ),
        (
            "Texture2D<float4> tex;\nSamplerState s;\nRWStructuredBuffer<float4> o;\n[numthreads(1, 1, 1)]\nvoid main(uint3 id : SV_DispatchThreadID) { o[0] = tex.SampleBias(s, float2(0.5, 0.5), 1.0); }",
            "`SampleBias`",
            "tex.SampleBias(s, float2(0.5, 0.5), 1.0)",
        ),
        (
            "Texture2D<float> tex;\nSamplerComparisonState s;\nRWStructuredBuffer<float> o;\n[numthreads(1, 1, 1)]\nvoid main(uint3 id : SV_DispatchThreadID) { o[0] = tex.SampleCmpLevelZero(s, float2(0.5, 0.5), 0.5); }",
            "`SampleCmpLevelZero`",
            "tex.SampleCmpLevelZero(s, float2(0.5, 0.5), 0.5)",
        ),
        (
            "Texture2D<float4> tex;\nSamplerState s;\nRWStructuredBuffer<float4> o;\n[numthreads(1, 1, 1)]\nvoid main(uint3 id : SV_DispatchThreadID) { o[0] = tex.Sample(s, float2(0.5, 0.5), int2(1, 0)); }",
            "offset, clamp or status",
            "tex.Sample(s, float2(0.5, 0.5), int2(1, 0))",
        ),
        (
            "Texture2DArray<float4> tex;\nRWStructuredBuffer<float4> o;\n[numthreads(1, 1, 1)]\nvoid main(uint3 id : SV_DispatchThreadID) { o[0] = tex.Load(int4(id, 0)); }",
            "array or cube texture",
            "tex.Load(int4(id, 0))",
        ),
        (
            "Texture2D<float3> tex;\nRWStructuredBuffer<float3> o;\n[numthreads(1, 1, 1)]\nvoid main(uint3 id : SV_DispatchThreadID) { o[0] = tex.Load(int3(id)); }",
            "the texel type `float3`",
            "tex",
        ),
        (
            "RWTexture2DArray<float4> tex;\n[numthreads(1, 1, 1)]\nvoid main(uint3 id : SV_DispatchThreadID) { tex[id] = float4(1, 0, 0, 1); }",
            "read-write texture type",
            "tex",
        ),
        (
            "Texture2DMS<float4> tex;\nRWStructuredBuffer<float4> o;\n[numthreads(1, 1, 1)]\nvoid main(uint3 id : SV_DispatchThreadID) { o[0] = tex.Load(int2(id.xy), 0); }",
            "multisampled",
            "tex",
        ),
        (
            "RWTexture2D<float4> tex;\n[numthreads(1, 1, 1)]\nvoid main(uint3 id : SV_DispatchThreadID) { tex[id.xy].x = 1.0; }",
            "a texel of a texture as a reference",
            "tex[id.xy]",
        ),
    ];
    for (src, message_part, span_text) in cases {
        let (message, at) = cuda_err(src, ShaderStage::Compute);
        assert!(message.contains(message_part), "{src}\n{message}");
        assert_eq!(at, span_text, "{src}\n{message}");
    }
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
