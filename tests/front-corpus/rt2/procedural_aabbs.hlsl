// legalis: -entry BoxIntersect -stage intersection
// legalis: -entry BoxAnyHit -stage anyhit
// legalis: -entry BoxHit -stage closesthit
// Intersection shader with a custom attribute struct holding arrays, slab test loop, ReportHit with hit kinds.

struct BoxAttributes
{
    float3 normal;
    uint face;
    float uvw[3];
};

struct Payload
{
    float3 color;
    float hitT;
};

StructuredBuffer<float4> gBoxMin : register(t0);
StructuredBuffer<float4> gBoxMax : register(t1);

[shader("intersection")]
void BoxIntersect()
{
    float3 o = ObjectRayOrigin();
    float3 d = ObjectRayDirection();
    float3 lo = gBoxMin[PrimitiveIndex()].xyz;
    float3 hi = gBoxMax[PrimitiveIndex()].xyz;
    float tNear = RayTMin();
    float tFar = RayTCurrent();
    uint face = 0;
    [unroll]
    for (uint axis = 0; axis < 3; axis++)
    {
        float inv = 1.0f / d[axis];
        float t0 = (lo[axis] - o[axis]) * inv;
        float t1 = (hi[axis] - o[axis]) * inv;
        if (t0 > t1)
        {
            float tmp = t0;
            t0 = t1;
            t1 = tmp;
        }
        if (t0 > tNear)
        {
            tNear = t0;
            face = axis;
        }
        tFar = min(tFar, t1);
    }
    if (tNear <= tFar)
    {
        BoxAttributes a;
        a.normal = 0;
        a.normal[face] = -sign(d[face]);
        a.face = face;
        float3 p = o + d * tNear;
        for (uint k = 0; k < 3; k++)
            a.uvw[k] = (p[k] - lo[k]) / (hi[k] - lo[k]);
        ReportHit(tNear, face, a);
    }
}

[shader("anyhit")]
void BoxAnyHit(inout Payload p, BoxAttributes a)
{
    if (a.uvw[0] > 0.45f && a.uvw[0] < 0.55f)
        IgnoreHit();
}

[shader("closesthit")]
void BoxHit(inout Payload p, BoxAttributes a)
{
    p.color = abs(a.normal) * (float)(HitKind() + 1) / 3.0f;
    p.hitT = RayTCurrent();
}
