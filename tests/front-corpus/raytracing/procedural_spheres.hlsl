// legalis: -entry SphereIntersection -stage intersection
// legalis: -entry SphereClosestHit -stage closesthit
// Procedural AABB geometry with a custom attribute struct and ReportHit.

struct SphereAttributes
{
    float3 normal;
    float t;
};

struct HitPayload
{
    float4 color;
    uint depth;
};

struct SphereData
{
    float3 center;
    float radius;
    float4 color;
};

StructuredBuffer<SphereData> Spheres : register(t1);

[shader("intersection")]
void SphereIntersection()
{
    SphereData s = Spheres[PrimitiveIndex()];
    float3 o = ObjectRayOrigin() - s.center;
    float3 d = ObjectRayDirection();
    float a = dot(d, d);
    float b = 2.0 * dot(o, d);
    float c = dot(o, o) - s.radius * s.radius;
    float disc = b * b - 4.0 * a * c;
    if (disc < 0.0)
        return;
    float sq = sqrt(disc);
    float t0 = (-b - sq) / (2.0 * a);
    float t1 = (-b + sq) / (2.0 * a);
    float t = t0 >= RayTMin() ? t0 : t1;
    if (t < RayTMin() || t > RayTCurrent())
        return;
    SphereAttributes attr;
    attr.normal = normalize(o + t * d);
    attr.t = t;
    ReportHit(t, 0, attr);
}

[shader("closesthit")]
void SphereClosestHit(inout HitPayload payload, in SphereAttributes attr)
{
    SphereData s = Spheres[PrimitiveIndex()];
    float3 n = normalize(mul(attr.normal, (float3x3)WorldToObject4x3()));
    float shade = 0.3 + 0.7 * saturate(dot(n, normalize(float3(1, 1, -1))));
    payload.color = float4(s.color.rgb * shade, 1.0);
    payload.depth += 1;
}
