// legalis: -entry main -stage compute
// Buffer<float4>/RWBuffer<uint> typed buffers: Load, operator[], read-modify-write, formats.

Buffer<float4> gPositions : register(t0);
Buffer<uint> gIndices : register(t1);
Buffer<float2> gUVs : register(t2);
RWBuffer<uint> gCounters : register(u0);
RWBuffer<float4> gOutPos : register(u1);
RWBuffer<int2> gPairs : register(u2);

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint i = gIndices[id.x];
    float4 p = gPositions.Load(i);
    float2 uv = gUVs[i];
    gOutPos[id.x] = p + float4(uv, 0, 0);
    gCounters[id.x % 16] += 1;
    uint prev;
    InterlockedAdd(gCounters[0], 1, prev);
    gPairs[id.x] = int2((int)prev, -(int)i);
}
