// legalis: -entry RayGen -stage raygeneration
// legalis: -entry ShadowMiss -stage miss
// legalis: -entry Hit -stage closesthit
// Vulkan-style ray tracing: [[vk::binding]], shader record via [[vk::shader_record_ext]], two payload types, BuiltInTriangleIntersectionAttributes.

struct RadiancePayload
{
    float4 color;
    uint seed;
};

struct ShadowPayload
{
    bool occluded;
};

struct Record
{
    float4 albedo;
};

[[vk::binding(0, 0)]] RaytracingAccelerationStructure gTlas;
[[vk::binding(1, 0)]] RWTexture2D<float4> gImage;
[[vk::shader_record_ext]] ConstantBuffer<Record> gRecord;

[shader("raygeneration")]
void RayGen()
{
    uint3 idx = DispatchRaysIndex();
    RayDesc r;
    r.Origin = float3(float2(idx.xy) * 0.01f, -5.0f);
    r.Direction = float3(0, 0, 1);
    r.TMin = 0.0f;
    r.TMax = 100.0f;
    RadiancePayload rp;
    rp.color = 0;
    rp.seed = idx.x * 7919u + idx.y;
    TraceRay(gTlas, RAY_FLAG_FORCE_OPAQUE, 0xFF, 0, 2, 0, r, rp);
    ShadowPayload sp;
    sp.occluded = true;
    TraceRay(gTlas, RAY_FLAG_ACCEPT_FIRST_HIT_AND_END_SEARCH | RAY_FLAG_SKIP_CLOSEST_HIT_SHADER, 0x01, 1, 2, 1, r, sp);
    gImage[idx.xy] = rp.color * (sp.occluded ? 0.3f : 1.0f);
}

[shader("miss")]
void ShadowMiss(inout ShadowPayload p)
{
    p.occluded = false;
}

[shader("closesthit")]
void Hit(inout RadiancePayload p, in BuiltInTriangleIntersectionAttributes attr)
{
    float3 bary = float3(1.0f - attr.barycentrics.x - attr.barycentrics.y, attr.barycentrics);
    float4x3 w2o = WorldToObject4x3();
    float3x4 o2w = ObjectToWorld3x4();
    p.color = gRecord.albedo * float4(bary, 1.0f) + float4(w2o[0] + o2w[0].xyz, 0) * 0.0f;
}
