// legalis: -entry BinLights -stage compute
// Tiled light culling: per-tile depth bounds via groupshared atomics.

#define TILE_SIZE 16
#define MAX_LIGHTS_PER_TILE 256

struct Light
{
    float3 positionVS;
    float range;
    float3 color;
    uint type;
};

cbuffer TileCB : register(b0)
{
    float4x4 invProj;
    uint2 screenSize;
    uint numLights;
    uint tilesX;
};

Texture2D<float> DepthTexture : register(t0);
StructuredBuffer<Light> Lights : register(t1);
RWStructuredBuffer<uint> LightIndexList : register(u0);
RWTexture2D<uint2> LightGrid : register(u1);
globallycoherent RWByteAddressBuffer LightIndexCounter : register(u2);

groupshared uint gsMinDepth;
groupshared uint gsMaxDepth;
groupshared uint gsLightCount;
groupshared uint gsLightIndexStart;
groupshared uint gsLightList[MAX_LIGHTS_PER_TILE];
groupshared float4 gsPlanes[4];

float4 ClipToView(float4 clip)
{
    float4 view = mul(invProj, clip);
    return view / view.w;
}

float4 ComputePlane(float3 p0, float3 p1, float3 p2)
{
    float3 n = normalize(cross(p1 - p0, p2 - p0));
    return float4(n, dot(n, p0));
}

[numthreads(TILE_SIZE, TILE_SIZE, 1)]
void BinLights(uint3 groupId : SV_GroupID, uint3 dtid : SV_DispatchThreadID, uint gi : SV_GroupIndex)
{
    if (gi == 0)
    {
        gsMinDepth = 0x7f7fffff;
        gsMaxDepth = 0;
        gsLightCount = 0;
        float2 tileMin = float2(groupId.xy * TILE_SIZE) / screenSize;
        float2 tileMax = float2((groupId.xy + 1) * TILE_SIZE) / screenSize;
        float3 corners[4];
        corners[0] = ClipToView(float4(tileMin.x * 2 - 1, 1 - tileMin.y * 2, 1, 1)).xyz;
        corners[1] = ClipToView(float4(tileMax.x * 2 - 1, 1 - tileMin.y * 2, 1, 1)).xyz;
        corners[2] = ClipToView(float4(tileMin.x * 2 - 1, 1 - tileMax.y * 2, 1, 1)).xyz;
        corners[3] = ClipToView(float4(tileMax.x * 2 - 1, 1 - tileMax.y * 2, 1, 1)).xyz;
        float3 eye = float3(0, 0, 0);
        gsPlanes[0] = ComputePlane(eye, corners[2], corners[0]);
        gsPlanes[1] = ComputePlane(eye, corners[1], corners[3]);
        gsPlanes[2] = ComputePlane(eye, corners[0], corners[1]);
        gsPlanes[3] = ComputePlane(eye, corners[3], corners[2]);
    }
    GroupMemoryBarrierWithGroupSync();

    float depth = DepthTexture.Load(int3(min(dtid.xy, screenSize - 1), 0));
    uint depthBits = asuint(depth);
    InterlockedMin(gsMinDepth, depthBits);
    InterlockedMax(gsMaxDepth, depthBits);
    GroupMemoryBarrierWithGroupSync();

    float minZ = ClipToView(float4(0, 0, asfloat(gsMinDepth), 1)).z;
    float maxZ = ClipToView(float4(0, 0, asfloat(gsMaxDepth), 1)).z;

    for (uint i = gi; i < numLights; i += TILE_SIZE * TILE_SIZE)
    {
        Light light = Lights[i];
        bool inside = light.positionVS.z + light.range > minZ && light.positionVS.z - light.range < maxZ;
        [unroll]
        for (uint p = 0; p < 4; ++p)
        {
            inside = inside && (dot(gsPlanes[p].xyz, light.positionVS) - gsPlanes[p].w < light.range);
        }
        if (inside)
        {
            uint slot;
            InterlockedAdd(gsLightCount, 1, slot);
            if (slot < MAX_LIGHTS_PER_TILE)
                gsLightList[slot] = i;
        }
    }
    GroupMemoryBarrierWithGroupSync();

    if (gi == 0)
    {
        uint count = min(gsLightCount, MAX_LIGHTS_PER_TILE);
        LightIndexCounter.InterlockedAdd(0, count, gsLightIndexStart);
        LightGrid[groupId.xy] = uint2(gsLightIndexStart, count);
    }
    GroupMemoryBarrierWithGroupSync();

    for (uint j = gi; j < min(gsLightCount, MAX_LIGHTS_PER_TILE); j += TILE_SIZE * TILE_SIZE)
    {
        LightIndexList[gsLightIndexStart + j] = gsLightList[j];
    }
}
