// legalis: -entry AORayGen -stage raygeneration
// legalis: -entry AOMiss -stage miss
// Ray-traced ambient occlusion from a depth/normal G-buffer.

struct AOPayload
{
    float hitDistance;
};

cbuffer AOCB : register(b0)
{
    float4x4 invViewProj;
    float aoRadius;
    uint rayCount;
    uint frame;
    float pad;
};

RaytracingAccelerationStructure Scene : register(t0);
Texture2D<float> DepthBuffer : register(t1);
Texture2D<float4> NormalBuffer : register(t2);
RWTexture2D<float> AOOutput : register(u0);

float3 Hemisphere(float2 u, float3 n)
{
    float phi = u.x * 6.2831853;
    float cosTheta = sqrt(1.0 - u.y);
    float sinTheta = sqrt(u.y);
    float3 t = normalize(abs(n.x) > 0.1 ? cross(float3(0, 1, 0), n) : cross(float3(1, 0, 0), n));
    float3 b = cross(n, t);
    return t * cos(phi) * sinTheta + b * sin(phi) * sinTheta + n * cosTheta;
}

float2 Hammersley(uint i, uint n)
{
    uint bits = reversebits(i);
    return float2(float(i) / float(n), float(bits) * 2.3283064365386963e-10);
}

[shader("raygeneration")]
void AORayGen()
{
    uint2 p = DispatchRaysIndex().xy;
    float2 dims = float2(DispatchRaysDimensions().xy);
    float depth = DepthBuffer[p];
    if (depth == 1.0)
    {
        AOOutput[p] = 1.0;
        return;
    }
    float2 ndc = (float2(p) + 0.5) / dims * float2(2, -2) + float2(-1, 1);
    float4 world = mul(invViewProj, float4(ndc, depth, 1));
    float3 pos = world.xyz / world.w;
    float3 n = normalize(NormalBuffer[p].xyz * 2.0 - 1.0);

    float visibility = 0;
    for (uint i = 0; i < rayCount; ++i)
    {
        RayDesc ray;
        ray.Origin = pos + n * 0.01;
        ray.Direction = Hemisphere(frac(Hammersley(i, rayCount) + frame * 0.618034), n);
        ray.TMin = 0.0;
        ray.TMax = aoRadius;
        AOPayload payload = { aoRadius };
        TraceRay(Scene, RAY_FLAG_ACCEPT_FIRST_HIT_AND_END_SEARCH | RAY_FLAG_SKIP_CLOSEST_HIT_SHADER | RAY_FLAG_FORCE_OPAQUE,
                 0xFF, 0, 1, 0, ray, payload);
        visibility += payload.hitDistance >= aoRadius ? 1.0 : 0.0;
    }
    AOOutput[p] = visibility / rayCount;
}

[shader("miss")]
void AOMiss(inout AOPayload payload)
{
    payload.hitDistance = RayTCurrent();
}
