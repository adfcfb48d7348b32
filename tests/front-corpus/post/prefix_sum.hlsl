// legalis: -entry ScanGroup -stage compute
// Work-efficient Blelloch scan over 512 elements per group.

#define THREADS 256
#define ELEMENTS (THREADS * 2)

StructuredBuffer<uint> InputValues : register(t0);
RWStructuredBuffer<uint> OutputValues : register(u0);
RWStructuredBuffer<uint> GroupSums : register(u1);

groupshared uint temp[ELEMENTS];

[numthreads(THREADS, 1, 1)]
void ScanGroup(uint3 gid : SV_GroupID, uint3 gtid : SV_GroupThreadID)
{
    uint t = gtid.x;
    uint base = gid.x * ELEMENTS;
    temp[2 * t] = InputValues[base + 2 * t];
    temp[2 * t + 1] = InputValues[base + 2 * t + 1];

    uint offset = 1;
    for (uint d = ELEMENTS >> 1; d > 0; d >>= 1)
    {
        GroupMemoryBarrierWithGroupSync();
        if (t < d)
        {
            uint ai = offset * (2 * t + 1) - 1;
            uint bi = offset * (2 * t + 2) - 1;
            temp[bi] += temp[ai];
        }
        offset *= 2;
    }

    if (t == 0)
    {
        GroupSums[gid.x] = temp[ELEMENTS - 1];
        temp[ELEMENTS - 1] = 0;
    }

    for (uint d2 = 1; d2 < ELEMENTS; d2 *= 2)
    {
        offset >>= 1;
        GroupMemoryBarrierWithGroupSync();
        if (t < d2)
        {
            uint ai = offset * (2 * t + 1) - 1;
            uint bi = offset * (2 * t + 2) - 1;
            uint v = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += v;
        }
    }
    GroupMemoryBarrierWithGroupSync();

    OutputValues[base + 2 * t] = temp[2 * t];
    OutputValues[base + 2 * t + 1] = temp[2 * t + 1];
}
