// legalis: -entry BitonicSort -stage compute
// Bitonic sort of (key, index) pairs for back-to-front particle rendering.

#define BITONIC_BLOCK_SIZE 512

cbuffer SortCB : register(b0)
{
    uint level;
    uint levelMask;
    uint width;
    uint height;
};

RWStructuredBuffer<float2> Data : register(u0);

groupshared float2 sharedData[BITONIC_BLOCK_SIZE];

bool Compare(float2 a, float2 b)
{
    return a.x > b.x;
}

[numthreads(BITONIC_BLOCK_SIZE, 1, 1)]
void BitonicSort(uint3 gid : SV_GroupID, uint3 dtid : SV_DispatchThreadID, uint3 gtid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    sharedData[gi] = Data[dtid.x];
    GroupMemoryBarrierWithGroupSync();

    for (uint j = level >> 1; j > 0; j >>= 1)
    {
        uint partner = gi ^ j;
        float2 mine = sharedData[gi];
        float2 other = sharedData[partner];
        bool ascending = (levelMask & dtid.x) != 0;
        bool swap = (Compare(mine, other) == ascending) == (gi < partner);
        GroupMemoryBarrierWithGroupSync();
        sharedData[gi] = swap ? other : mine;
        GroupMemoryBarrierWithGroupSync();
    }
    Data[dtid.x] = sharedData[gi];
}
