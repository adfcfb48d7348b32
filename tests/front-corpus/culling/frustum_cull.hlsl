// legalis: -entry CullInstances -stage compute
// GPU instance culling: sphere vs frustum and Hi-Z, compaction via wave ops.

struct InstanceData
{
    float4x4 world;
    float4 boundingSphere;
    uint meshIndex;
    uint materialIndex;
    uint2 pad;
};

struct DrawArgs
{
    uint indexCountPerInstance;
    uint instanceCount;
    uint startIndexLocation;
    int baseVertexLocation;
    uint startInstanceLocation;
};

cbuffer CullCB : register(b0)
{
    float4 frustumPlanes[6];
    float4x4 viewProj;
    float2 hizSize;
    uint instanceCount;
    uint hizMipCount;
};

StructuredBuffer<InstanceData> Instances : register(t0);
Texture2D<float> HiZ : register(t1);
SamplerState PointClampMin : register(s0);
RWStructuredBuffer<uint> VisibleInstances : register(u0);
RWByteAddressBuffer DrawCount : register(u1);

bool SphereInFrustum(float3 c, float r)
{
    [unroll]
    for (uint i = 0; i < 6; ++i)
    {
        if (dot(frustumPlanes[i].xyz, c) + frustumPlanes[i].w < -r)
            return false;
    }
    return true;
}

bool OcclusionTest(float3 c, float r)
{
    float4 clip = mul(viewProj, float4(c, 1.0));
    if (clip.w <= r)
        return true;
    float3 ndc = clip.xyz / clip.w;
    float2 uv = ndc.xy * float2(0.5, -0.5) + 0.5;
    float projRadius = r / clip.w;
    float level = clamp(ceil(log2(projRadius * max(hizSize.x, hizSize.y))), 0, hizMipCount - 1);
    float hiz = HiZ.SampleLevel(PointClampMin, uv, level);
    return ndc.z - projRadius <= hiz;
}

[numthreads(64, 1, 1)]
void CullInstances(uint3 dtid : SV_DispatchThreadID)
{
    uint index = dtid.x;
    bool visible = false;
    if (index < instanceCount)
    {
        InstanceData inst = Instances[index];
        float3 center = mul(inst.world, float4(inst.boundingSphere.xyz, 1.0)).xyz;
        float scale = max(length(inst.world[0].xyz), max(length(inst.world[1].xyz), length(inst.world[2].xyz)));
        float radius = inst.boundingSphere.w * scale;
        visible = SphereInFrustum(center, radius) && OcclusionTest(center, radius);
    }

    uint laneCount = WaveActiveCountBits(visible);
    uint laneOffset = WavePrefixCountBits(visible);
    uint waveBase = 0;
    if (WaveIsFirstLane())
    {
        DrawCount.InterlockedAdd(4, laneCount, waveBase);
    }
    waveBase = WaveReadLaneFirst(waveBase);
    if (visible)
    {
        VisibleInstances[waveBase + laneOffset] = index;
    }
}
