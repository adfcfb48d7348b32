// legalis: -entry RayGen -stage raygeneration
// legalis: -entry Miss -stage miss
// legalis: -entry ClosestHit -stage closesthit
// legalis: -entry AnyHit -stage anyhit
// legalis: -entry SphereIntersect -stage intersection
// legalis: -entry EmissiveCallable -stage callable
// All six ray-tracing stages in one library-style file with [shader] attributes.

struct Payload
{
    float3 radiance;
    uint depth;
};

struct SphereAttribs
{
    float3 normal;
    float t;
};

struct CallableData
{
    float3 emission;
    uint materialId;
};

RaytracingAccelerationStructure gScene : register(t0);
RWTexture2D<float4> gOutput : register(u0);
StructuredBuffer<float4> gSpheres : register(t1);

cbuffer Camera : register(b0)
{
    float4x4 gInvViewProj;
    float3 gOrigin;
};

[shader("raygeneration")]
void RayGen()
{
    uint2 idx = DispatchRaysIndex().xy;
    uint2 dim = DispatchRaysDimensions().xy;
    float2 ndc = (float2(idx) + 0.5f) / float2(dim) * 2.0f - 1.0f;
    float4 target = mul(gInvViewProj, float4(ndc.x, -ndc.y, 1.0f, 1.0f));
    RayDesc ray;
    ray.Origin = gOrigin;
    ray.Direction = normalize(target.xyz / target.w - gOrigin);
    ray.TMin = 0.001f;
    ray.TMax = 1e4f;
    Payload p;
    p.radiance = 0;
    p.depth = 0;
    TraceRay(gScene, RAY_FLAG_NONE, 0xFF, 0, 1, 0, ray, p);
    gOutput[idx] = float4(p.radiance, 1.0f);
}

[shader("miss")]
void Miss(inout Payload p)
{
    float3 d = WorldRayDirection();
    p.radiance = lerp(float3(1, 1, 1), float3(0.4f, 0.6f, 1.0f), saturate(d.y));
}

[shader("closesthit")]
void ClosestHit(inout Payload p, in SphereAttribs attr)
{
    CallableData cd;
    cd.emission = 0;
    cd.materialId = InstanceID();
    CallShader(InstanceIndex() % 4, cd);
    float3 hitPos = WorldRayOrigin() + WorldRayDirection() * RayTCurrent();
    float3 objPos = ObjectRayOrigin() + ObjectRayDirection() * RayTCurrent();
    float3 n = normalize(mul((float3x3)ObjectToWorld3x4(), attr.normal));
    p.radiance = cd.emission + saturate(dot(n, float3(0, 1, 0))) * 0.8f + (hitPos - objPos) * 0.0f;
    p.depth = PrimitiveIndex() + GeometryIndex() + HitKind();
}

[shader("anyhit")]
void AnyHit(inout Payload p, in SphereAttribs attr)
{
    if (attr.t < RayTMin() * 2.0f)
        IgnoreHit();
    if (RayFlags() & RAY_FLAG_ACCEPT_FIRST_HIT_AND_END_SEARCH)
        AcceptHitAndEndSearch();
}

[shader("intersection")]
void SphereIntersect()
{
    float4 s = gSpheres[PrimitiveIndex()];
    float3 o = ObjectRayOrigin() - s.xyz;
    float3 d = ObjectRayDirection();
    float b = dot(o, d);
    float c = dot(o, o) - s.w * s.w;
    float disc = b * b - c;
    if (disc < 0.0f)
        return;
    float sq = sqrt(disc);
    float roots[2] = { -b - sq, -b + sq };
    for (int i = 0; i < 2; i++)
    {
        float t = roots[i];
        if (t > RayTMin() && t < RayTCurrent())
        {
            SphereAttribs a;
            a.normal = normalize(o + d * t);
            a.t = t;
            if (ReportHit(t, 0, a))
                break;
        }
    }
}

[shader("callable")]
void EmissiveCallable(inout CallableData cd)
{
    cd.emission = float3(1.0f, 0.5f, 0.2f) * (float)(cd.materialId & 3);
}
