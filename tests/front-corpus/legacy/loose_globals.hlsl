// legalis: -entry VS -stage vertex
// legalis: -entry PS -stage fragment
// D3D10/11-era style: loose uniform globals (implicit $Globals), `uniform` keyword, upper-case semantics, un-indexed TEXCOORD.

Texture2D gDiffuse : register(t0);
SamplerState gSampler : register(s0);

uniform float4 gTint;
float4x4 gWorldViewProj;
float gTime;
static float sScale = 1.5f;

struct VS_INPUT
{
    float4 Pos : POSITION;
    float2 Tex : TEXCOORD;
    float3 Norm : NORMAL;
};

struct PS_INPUT
{
    float4 Pos : SV_POSITION;
    float2 Tex : TEXCOORD0;
    float3 Norm : TEXCOORD1;
};

PS_INPUT VS(VS_INPUT input)
{
    PS_INPUT output = (PS_INPUT)0;
    output.Pos = mul(input.Pos * sScale, gWorldViewProj);
    output.Tex = input.Tex + float2(gTime, 0) * 0.01f;
    output.Norm = input.Norm;
    return output;
}

float4 PS(PS_INPUT input) : SV_TARGET
{
    float4 c = gDiffuse.Sample(gSampler, input.Tex) * gTint;
    c.rgb *= saturate(dot(normalize(input.Norm), float3(0, 0, -1))) * 0.8f + 0.2f;
    return c;
}
