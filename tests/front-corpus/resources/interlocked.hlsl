// legalis: -entry main -stage compute
// Every Interlocked* form on groupshared, RWStructuredBuffer, RWByteAddressBuffer and RWTexture2D.

groupshared uint gsCounter;
groupshared int gsMin;
groupshared uint gsLock;

RWStructuredBuffer<uint> gBuf : register(u0);
RWByteAddressBuffer gRaw : register(u1);
RWTexture2D<uint> gTex : register(u2);
RWStructuredBuffer<int> gSigned : register(u3);

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint gi : SV_GroupIndex)
{
    if (gi == 0)
    {
        gsCounter = 0;
        gsMin = 0x7FFFFFFF;
        gsLock = 0;
    }
    GroupMemoryBarrierWithGroupSync();
    uint orig;
    InterlockedAdd(gsCounter, 1, orig);
    InterlockedMin(gsMin, (int)id.x - 32);
    uint was;
    InterlockedCompareExchange(gsLock, 0, 1, was);
    if (was == 0)
        InterlockedExchange(gsLock, 0, was);
    InterlockedCompareStore(gsLock, 1, 2);
    InterlockedMax(gBuf[0], id.x);
    InterlockedAnd(gBuf[1], ~(1u << (id.x & 31)));
    InterlockedOr(gBuf[2], 1u << (id.x & 31));
    InterlockedXor(gBuf[3], id.x);
    uint ce;
    InterlockedCompareExchange(gBuf[4], id.x, id.x + 1, ce);
    gRaw.InterlockedAdd(0, 1, orig);
    gRaw.InterlockedMax(4, id.x);
    gRaw.InterlockedCompareExchange(8, 0, id.x, ce);
    gRaw.InterlockedExchange(12, id.x, was);
    InterlockedAdd(gTex[id.xy], 1);
    InterlockedMin(gSigned[0], -(int)id.x);
    GroupMemoryBarrierWithGroupSync();
    if (gi == 0)
        gBuf[5] = gsCounter + (uint)gsMin + ce + orig;
}
