// legalis: -entry ReduceCS -stage compute
// Wave intrinsics: sums, min/max, ballots, lane reads and quad ops in a reduction.

StructuredBuffer<float> InputData : register(t0);
RWStructuredBuffer<float4> Results : register(u0);
RWByteAddressBuffer Flags : register(u1);

groupshared float4 waveResults[32];

[numthreads(256, 1, 1)]
void ReduceCS(uint3 dtid : SV_DispatchThreadID, uint gi : SV_GroupIndex, uint3 gid : SV_GroupID)
{
    float v = InputData[dtid.x];
    float waveSum = WaveActiveSum(v);
    float waveMin = WaveActiveMin(v);
    float waveMax = WaveActiveMax(v);
    uint4 ballot = WaveActiveBallot(v > 0.5);
    uint positives = countbits(ballot.x) + countbits(ballot.y) + countbits(ballot.z) + countbits(ballot.w);
    float neighbour = QuadReadAcrossX(v);
    bool allSame = WaveActiveAllEqual(v);
    uint lane = WaveGetLaneIndex();
    uint laneCount = WaveGetLaneCount();

    if (lane == 0)
        waveResults[gi / laneCount] = float4(waveSum, waveMin, waveMax, float(positives));
    GroupMemoryBarrierWithGroupSync();

    if (gi == 0)
    {
        float4 total = float4(0, 1e30, -1e30, 0);
        uint waves = (256 + laneCount - 1) / laneCount;
        for (uint w = 0; w < waves; ++w)
        {
            total.x += waveResults[w].x;
            total.y = min(total.y, waveResults[w].y);
            total.z = max(total.z, waveResults[w].z);
            total.w += waveResults[w].w;
        }
        Results[gid.x] = total;
    }
    if (WaveActiveAnyTrue(neighbour < 0.0) && allSame)
        Flags.Store(gid.x * 4, 1);
}
