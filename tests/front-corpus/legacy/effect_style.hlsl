// legalis: -entry PS_Blur -stage fragment
// legalis: -entry VS_Quad -stage vertex
// FX-era idioms without technique blocks: global sampler arrays, texture arrays of Texture2D, packoffset, register spaces.

cbuffer cbPerFrame : register(b0)
{
    float4 g_vOffsets[8] : packoffset(c0);
    float g_fWeights[8] : packoffset(c8);
    float2 g_vTexelSize : packoffset(c16);
};

Texture2D g_Textures[4] : register(t0);
SamplerState g_Samplers[2] : register(s0);

struct QuadVS_Output
{
    float4 Pos : SV_POSITION;
    float2 Tex : TEXCOORD0;
};

QuadVS_Output VS_Quad(float4 Pos : POSITION, float2 Tex : TEXCOORD0)
{
    QuadVS_Output Out;
    Out.Pos = Pos;
    Out.Tex = Tex;
    return Out;
}

float4 PS_Blur(QuadVS_Output In) : SV_TARGET
{
    float4 vColor = 0.0f;
    for (int i = 0; i < 8; i++)
    {
        vColor += g_fWeights[i] * g_Textures[i & 3].Sample(g_Samplers[i & 1], In.Tex + g_vOffsets[i].xy * g_vTexelSize);
    }
    return vColor;
}
