// legalis: -entry main -stage compute
// 2D groupshared tile with apron, struct-typed groupshared arrays, barriers of every flavour.

#define TILE 16
#define APRON 2
#define SIZE (TILE + 2 * APRON)

struct Texel
{
    float3 color;
    float depth;
};

Texture2D<float4> gColor : register(t0);
Texture2D<float> gDepth : register(t1);
RWTexture2D<float4> gOut : register(u0);

groupshared Texel sTile[SIZE][SIZE];
groupshared uint sValid;

[numthreads(TILE, TILE, 1)]
void main(uint3 gid : SV_GroupID, uint3 gtid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    int2 origin = int2(gid.xy) * TILE - APRON;
    for (uint i = gi; i < SIZE * SIZE; i += TILE * TILE)
    {
        int2 local = int2(i % SIZE, i / SIZE);
        int2 p = origin + local;
        sTile[local.y][local.x].color = gColor.Load(int3(p, 0)).rgb;
        sTile[local.y][local.x].depth = gDepth.Load(int3(p, 0));
    }
    if (gi == 0)
        sValid = 0;
    GroupMemoryBarrierWithGroupSync();
    float3 sum = 0;
    float wsum = 0;
    Texel c = sTile[gtid.y + APRON][gtid.x + APRON];
    for (int y = -APRON; y <= APRON; y++)
    {
        for (int x = -APRON; x <= APRON; x++)
        {
            Texel t = sTile[gtid.y + APRON + y][gtid.x + APRON + x];
            float w = exp(-abs(t.depth - c.depth) * 50.0f);
            sum += t.color * w;
            wsum += w;
        }
    }
    InterlockedAdd(sValid, wsum > 1.0f ? 1u : 0u);
    DeviceMemoryBarrierWithGroupSync();
    AllMemoryBarrierWithGroupSync();
    GroupMemoryBarrier();
    DeviceMemoryBarrier();
    AllMemoryBarrier();
    gOut[gid.xy * TILE + gtid.xy] = float4(sum / wsum, (float)sValid);
}
