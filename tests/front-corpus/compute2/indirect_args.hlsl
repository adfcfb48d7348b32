// legalis: -entry main -stage compute
// Writing indirect draw/dispatch arguments with RWByteAddressBuffer Store2/Store3/Store4 and Load variants.

struct DrawArgs
{
    uint indexCount;
    uint instanceCount;
    uint firstIndex;
    int baseVertex;
    uint firstInstance;
};

ByteAddressBuffer gCounts : register(t0);
RWByteAddressBuffer gArgs : register(u0);
RWStructuredBuffer<DrawArgs> gDraws : register(u1);
AppendStructuredBuffer<uint> gVisible : register(u2);
ConsumeStructuredBuffer<uint> gPending : register(u3);

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint count = gCounts.Load(id.x * 4);
    uint2 pair = gCounts.Load2(0);
    uint3 tri = gCounts.Load3(16);
    uint4 quad = gCounts.Load4(32);
    DrawArgs d;
    d.indexCount = count * 3;
    d.instanceCount = 1;
    d.firstIndex = pair.x;
    d.baseVertex = (int)pair.y;
    d.firstInstance = id.x;
    gDraws[id.x] = d;
    gArgs.Store3(id.x * 12, uint3((count + 63) / 64, 1, 1));
    gArgs.Store2(4096, tri.xy);
    gArgs.Store4(8192, quad);
    gArgs.Store(12288 + id.x * 4, count);
    if (count > 0)
        gVisible.Append(id.x);
    uint next = gPending.Consume();
    gArgs.Store(16384, next);
}
