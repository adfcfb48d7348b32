// legalis: -entry csMain -stage compute
// legalis: -entry psMain -stage fragment
// Wave intrinsics (ballot, prefix, reductions, read lane) and quad operations.

StructuredBuffer<uint> gIn : register(t0);
RWStructuredBuffer<uint4> gOut : register(u0);
Texture2D<float4> gTex : register(t1);
SamplerState gSamp : register(s0);

[numthreads(64, 1, 1)]
void csMain(uint3 id : SV_DispatchThreadID)
{
    uint v = gIn[id.x];
    bool keep = (v & 1) != 0;
    uint4 ballot = WaveActiveBallot(keep);
    uint slot = WavePrefixCountBits(keep);
    uint total = WaveActiveCountBits(keep);
    uint lane = WaveGetLaneIndex();
    uint lanes = WaveGetLaneCount();
    uint sum = WaveActiveSum(v);
    uint prefix = WavePrefixSum(v);
    uint prod = WavePrefixProduct(v | 1);
    uint mx = WaveActiveMax(v);
    uint mn = WaveActiveMin(v);
    uint bor = WaveActiveBitOr(v);
    uint band = WaveActiveBitAnd(v);
    uint bxor = WaveActiveBitXor(v);
    bool same = WaveActiveAllEqual(v);
    bool anyT = WaveActiveAnyTrue(keep);
    bool allT = WaveActiveAllTrue(keep);
    uint first = WaveReadLaneFirst(v);
    uint other = WaveReadLaneAt(v, (lane + 1) % lanes);
    bool isFirst = WaveIsFirstLane();
    uint base = 0;
    if (isFirst)
        base = total;
    base = WaveReadLaneFirst(base);
    if (keep)
        gOut[base + slot] = uint4(ballot.x, sum + prefix + prod, mx - mn + (bor ^ band ^ bxor), first + other + (same ? 1u : 0u) + (anyT ? 2u : 0u) + (allT ? 4u : 0u));
}

float4 psMain(float4 pos : SV_Position, float2 uv : TEXCOORD0) : SV_Target
{
    float4 c = gTex.Sample(gSamp, uv);
    float4 x = QuadReadAcrossX(c);
    float4 y = QuadReadAcrossY(c);
    float4 dgn = QuadReadAcrossDiagonal(c);
    float4 l0 = QuadReadLaneAt(c, 0);
    float lum = dot(c.rgb, 0.333f);
    float avg = WaveActiveSum(lum) / (float)WaveActiveCountBits(true);
    return (c + x + y + dgn + l0) * 0.2f + avg * 0.0f;
}
