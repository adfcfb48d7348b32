// legalis: -entry GenerateMips -stage compute
// Two-level mip generation using groupshared storage and a 2x2 reduction.

cbuffer MipCB : register(b0)
{
    uint srcMipLevel;
    uint numMipLevels;
    float2 texelSize;
};

Texture2D<float4> SrcMip : register(t0);
RWTexture2D<float4> OutMip1 : register(u0);
RWTexture2D<float4> OutMip2 : register(u1);
SamplerState BilinearClamp : register(s0);

groupshared float gsR[64];
groupshared float gsG[64];
groupshared float gsB[64];
groupshared float gsA[64];

void StoreColor(uint index, float4 c)
{
    gsR[index] = c.r;
    gsG[index] = c.g;
    gsB[index] = c.b;
    gsA[index] = c.a;
}

float4 LoadColor(uint index)
{
    return float4(gsR[index], gsG[index], gsB[index], gsA[index]);
}

[numthreads(8, 8, 1)]
void GenerateMips(uint gi : SV_GroupIndex, uint3 dtid : SV_DispatchThreadID)
{
    float2 uv = texelSize * (dtid.xy + 0.5);
    float4 src1 = SrcMip.SampleLevel(BilinearClamp, uv, srcMipLevel);
    OutMip1[dtid.xy] = src1;

    if (numMipLevels == 1)
        return;

    StoreColor(gi, src1);
    GroupMemoryBarrierWithGroupSync();

    if ((gi & 0x9) == 0)
    {
        float4 src2 = LoadColor(gi + 0x01);
        float4 src3 = LoadColor(gi + 0x08);
        float4 src4 = LoadColor(gi + 0x09);
        src1 = 0.25 * (src1 + src2 + src3 + src4);
        OutMip2[dtid.xy / 2] = src1;
    }
}
