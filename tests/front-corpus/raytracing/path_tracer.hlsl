// legalis: -entry RayGen -stage raygeneration
// legalis: -entry Miss -stage miss
// legalis: -entry ShadowMiss -stage miss
// legalis: -entry ClosestHit -stage closesthit
// legalis: -entry AlphaAnyHit -stage anyhit
// DXR-style path tracer with a shadow ray and alpha-tested any-hit.

#define MAX_BOUNCES 4
static const float PI = 3.14159265f;

struct SceneCB
{
    float4x4 invView;
    float4x4 invProj;
    float3 sunDir;
    uint frameIndex;
    float3 sunColor;
    uint samplesPerPixel;
};

struct Vertex
{
    float3 position;
    float3 normal;
    float2 uv;
};

struct GeometryInfo
{
    uint vertexOffset;
    uint indexOffset;
    uint materialIndex;
    uint pad;
};

struct Material
{
    float4 albedo;
    float3 emissive;
    float roughness;
    int albedoTexture;
    float alphaCutoff;
    float2 pad;
};

RaytracingAccelerationStructure SceneBVH : register(t0, space0);
StructuredBuffer<Vertex> Vertices : register(t1, space0);
StructuredBuffer<uint> Indices : register(t2, space0);
StructuredBuffer<GeometryInfo> Geometries : register(t3, space0);
StructuredBuffer<Material> Materials : register(t4, space0);
Texture2D Textures[] : register(t0, space1);
TextureCube SkyTexture : register(t5, space0);
SamplerState LinearWrap : register(s0);
RWTexture2D<float4> Output : register(u0);
RWTexture2D<float4> Accumulation : register(u1);
ConstantBuffer<SceneCB> Scene : register(b0);

struct RadiancePayload
{
    float3 radiance;
    float3 throughput;
    float3 nextOrigin;
    float3 nextDir;
    uint seed;
    uint done;
};

struct ShadowPayload
{
    bool visible;
};

uint PCGHash(uint v)
{
    uint state = v * 747796405u + 2891336453u;
    uint word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
    return (word >> 22u) ^ word;
}

float Rand(inout uint seed)
{
    seed = PCGHash(seed);
    return float(seed) / 4294967295.0;
}

float3 CosineSampleHemisphere(float3 n, inout uint seed)
{
    float r1 = Rand(seed);
    float r2 = Rand(seed);
    float phi = 2.0 * PI * r1;
    float r = sqrt(r2);
    float3 up = abs(n.z) < 0.999 ? float3(0, 0, 1) : float3(1, 0, 0);
    float3 t = normalize(cross(up, n));
    float3 b = cross(n, t);
    return normalize(t * (r * cos(phi)) + b * (r * sin(phi)) + n * sqrt(1.0 - r2));
}

[shader("raygeneration")]
void RayGen()
{
    uint2 pixel = DispatchRaysIndex().xy;
    uint2 dims = DispatchRaysDimensions().xy;
    uint seed = PCGHash(pixel.x + pixel.y * dims.x + Scene.frameIndex * dims.x * dims.y);

    float3 color = 0;
    for (uint s = 0; s < Scene.samplesPerPixel; ++s)
    {
        float2 jitter = float2(Rand(seed), Rand(seed));
        float2 ndc = ((float2(pixel) + jitter) / float2(dims)) * 2.0 - 1.0;
        ndc.y = -ndc.y;
        float4 target = mul(Scene.invProj, float4(ndc, 1, 1));
        RayDesc ray;
        ray.Origin = mul(Scene.invView, float4(0, 0, 0, 1)).xyz;
        ray.Direction = mul(Scene.invView, float4(normalize(target.xyz / target.w), 0)).xyz;
        ray.TMin = 0.001;
        ray.TMax = 10000.0;

        RadiancePayload payload;
        payload.radiance = 0;
        payload.throughput = 1;
        payload.seed = seed;
        payload.done = 0;

        [loop]
        for (uint bounce = 0; bounce < MAX_BOUNCES; ++bounce)
        {
            TraceRay(SceneBVH, RAY_FLAG_NONE, 0xFF, 0, 2, 0, ray, payload);
            if (payload.done != 0)
                break;
            ray.Origin = payload.nextOrigin;
            ray.Direction = payload.nextDir;
        }
        seed = payload.seed;
        color += payload.radiance;
    }
    color /= Scene.samplesPerPixel;

    float4 prev = Accumulation[pixel];
    float n = prev.w + 1.0;
    float3 accum = lerp(prev.rgb, color, 1.0 / n);
    Accumulation[pixel] = float4(accum, n);
    Output[pixel] = float4(accum / (1.0 + accum), 1.0);
}

[shader("miss")]
void Miss(inout RadiancePayload payload)
{
    float3 sky = SkyTexture.SampleLevel(LinearWrap, WorldRayDirection(), 0).rgb;
    payload.radiance += payload.throughput * sky;
    payload.done = 1;
}

[shader("miss")]
void ShadowMiss(inout ShadowPayload payload)
{
    payload.visible = true;
}

Vertex InterpolateVertex(GeometryInfo geo, float3 bary)
{
    uint i0 = Indices[geo.indexOffset + PrimitiveIndex() * 3 + 0];
    uint i1 = Indices[geo.indexOffset + PrimitiveIndex() * 3 + 1];
    uint i2 = Indices[geo.indexOffset + PrimitiveIndex() * 3 + 2];
    Vertex v0 = Vertices[geo.vertexOffset + i0];
    Vertex v1 = Vertices[geo.vertexOffset + i1];
    Vertex v2 = Vertices[geo.vertexOffset + i2];
    Vertex v;
    v.position = v0.position * bary.x + v1.position * bary.y + v2.position * bary.z;
    v.normal = normalize(v0.normal * bary.x + v1.normal * bary.y + v2.normal * bary.z);
    v.uv = v0.uv * bary.x + v1.uv * bary.y + v2.uv * bary.z;
    return v;
}

[shader("closesthit")]
void ClosestHit(inout RadiancePayload payload, in BuiltInTriangleIntersectionAttributes attr)
{
    float3 bary = float3(1.0 - attr.barycentrics.x - attr.barycentrics.y, attr.barycentrics.x, attr.barycentrics.y);
    GeometryInfo geo = Geometries[InstanceID() + GeometryIndex()];
    Material mat = Materials[geo.materialIndex];
    Vertex v = InterpolateVertex(geo, bary);

    float3 N = normalize(mul((float3x3)ObjectToWorld3x4(), v.normal));
    if (dot(N, WorldRayDirection()) > 0)
        N = -N;
    float3 P = WorldRayOrigin() + WorldRayDirection() * RayTCurrent();

    float3 albedo = mat.albedo.rgb;
    if (mat.albedoTexture >= 0)
        albedo *= Textures[NonUniformResourceIndex(mat.albedoTexture)].SampleLevel(LinearWrap, v.uv, 0).rgb;

    payload.radiance += payload.throughput * mat.emissive;

    RayDesc shadowRay;
    shadowRay.Origin = P + N * 0.001;
    shadowRay.Direction = -Scene.sunDir;
    shadowRay.TMin = 0.0;
    shadowRay.TMax = 1e4;
    ShadowPayload shadow;
    shadow.visible = false;
    TraceRay(SceneBVH, RAY_FLAG_ACCEPT_FIRST_HIT_AND_END_SEARCH | RAY_FLAG_SKIP_CLOSEST_HIT_SHADER | RAY_FLAG_CULL_BACK_FACING_TRIANGLES,
             0xFF, 1, 2, 1, shadowRay, shadow);
    if (shadow.visible)
        payload.radiance += payload.throughput * albedo / PI * Scene.sunColor * saturate(dot(N, -Scene.sunDir));

    payload.throughput *= albedo;
    payload.nextOrigin = P + N * 0.001;
    payload.nextDir = CosineSampleHemisphere(N, payload.seed);
}

[shader("anyhit")]
void AlphaAnyHit(inout RadiancePayload payload, in BuiltInTriangleIntersectionAttributes attr)
{
    GeometryInfo geo = Geometries[InstanceID() + GeometryIndex()];
    Material mat = Materials[geo.materialIndex];
    if (mat.albedoTexture < 0)
        return;
    float3 bary = float3(1.0 - attr.barycentrics.x - attr.barycentrics.y, attr.barycentrics.x, attr.barycentrics.y);
    Vertex v = InterpolateVertex(geo, bary);
    float alpha = Textures[NonUniformResourceIndex(mat.albedoTexture)].SampleLevel(LinearWrap, v.uv, 0).a;
    if (alpha < mat.alphaCutoff)
        IgnoreHit();
}
