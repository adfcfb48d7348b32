// legalis: -entry main -stage compute
// Radix-2 FFT butterflies in groupshared memory with float2 complex math and bit-reversed indexing.

#define N 256
#define LOG2N 8

RWStructuredBuffer<float2> gSignal : register(u0);
groupshared float2 sData[N];

float2 cmul(float2 a, float2 b)
{
    return float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

[numthreads(N / 2, 1, 1)]
void main(uint3 gid : SV_GroupID, uint gi : SV_GroupIndex)
{
    uint base = gid.x * N;
    uint i0 = gi;
    uint i1 = gi + N / 2;
    sData[reversebits(i0) >> (32 - LOG2N)] = gSignal[base + i0];
    sData[reversebits(i1) >> (32 - LOG2N)] = gSignal[base + i1];
    GroupMemoryBarrierWithGroupSync();
    [unroll]
    for (uint stage = 0; stage < LOG2N; stage++)
    {
        uint half_ = 1u << stage;
        uint group = gi / half_;
        uint k = gi % half_;
        uint a = group * half_ * 2 + k;
        uint b = a + half_;
        float angle = -6.2831853f * (float)k / (float)(half_ * 2);
        float2 w;
        sincos(angle, w.y, w.x);
        float2 t = cmul(w, sData[b]);
        float2 u = sData[a];
        GroupMemoryBarrierWithGroupSync();
        sData[a] = u + t;
        sData[b] = u - t;
        GroupMemoryBarrierWithGroupSync();
    }
    gSignal[base + i0] = sData[i0];
    gSignal[base + i1] = sData[i1];
}
