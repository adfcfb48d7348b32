// legalis: -entry main -stage compute
// Inline ray tracing: RayQuery<flags> with Proceed loop, candidate/committed queries (beyond the issue's list).

RaytracingAccelerationStructure gTlas : register(t0);
Texture2D<float> gDepth : register(t1);
RWTexture2D<float> gShadow : register(u0);

cbuffer Sun : register(b0)
{
    float4x4 gInvViewProj;
    float3 gSunDir;
};

[numthreads(8, 8, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float z = gDepth.Load(int3(id.xy, 0));
    float4 p = mul(gInvViewProj, float4(float2(id.xy) / 1024.0f * 2.0f - 1.0f, z, 1.0f));
    RayDesc ray;
    ray.Origin = p.xyz / p.w;
    ray.Direction = gSunDir;
    ray.TMin = 0.01f;
    ray.TMax = 1000.0f;
    RayQuery<RAY_FLAG_ACCEPT_FIRST_HIT_AND_END_SEARCH | RAY_FLAG_SKIP_PROCEDURAL_PRIMITIVES> q;
    q.TraceRayInline(gTlas, RAY_FLAG_NONE, 0xFF, ray);
    while (q.Proceed())
    {
        if (q.CandidateType() == CANDIDATE_NON_OPAQUE_TRIANGLE)
        {
            float2 bary = q.CandidateTriangleBarycentrics();
            if (bary.x + bary.y < 0.9f)
                q.CommitNonOpaqueTriangleHit();
        }
    }
    float lit = q.CommittedStatus() == COMMITTED_TRIANGLE_HIT ? 0.0f : 1.0f;
    gShadow[id.xy] = lit;
}
