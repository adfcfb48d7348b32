// legalis: -entry main -stage compute
// Statement attributes: [branch], [flatten], [unroll(n)], [loop], [allow_uav_condition], [call], [forcecase]; unknown attributes.

RWStructuredBuffer<uint> gData : register(u0);

[numthreads(64, 1, 1)]
[WaveSize(32)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint v = gData[id.x];
    [branch]
    if (v > 100)
        v -= 100;
    [flatten]
    if (v & 1)
        v += 3;
    else
        v += 5;
    [unroll(4)]
    for (uint i = 0; i < 4; i++)
        v ^= i << 2;
    [loop]
    [allow_uav_condition]
    while (gData[0] > v)
        v += 17;
    [forcecase]
    switch (v & 3)
    {
    case 0: v = 1; break;
    case 1: v = 2; break;
    default: v = 3; break;
    }
    [call]
    switch (v)
    {
    case 1: v *= 7; break;
    default: break;
    }
    [SomeVendorHint(3)]
    gData[id.x] = v;
}
