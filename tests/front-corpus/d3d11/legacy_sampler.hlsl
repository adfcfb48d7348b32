// legalis: -entry PS -stage pixel
// D3D11-era code using Texture2D and SamplerState pairs with register bindings and half.

Texture2D DiffuseMap : register(t0);
Texture2D DetailMap : register(t1);
SamplerState DiffuseSampler : register(s0);
SamplerState DetailSampler : register(s1);

cbuffer cbMaterial : register(b2)
{
    float4 DiffuseColor;
    float DetailScale;
    float DetailIntensity;
};

struct PS_INPUT
{
    float4 Pos : SV_POSITION;
    float2 Tex : TEXCOORD0;
    float3 Norm : TEXCOORD1;
    float4 VertColor : COLOR0;
};

half4 PS(PS_INPUT input) : SV_Target
{
    half4 diffuse = (half4)DiffuseMap.Sample(DiffuseSampler, input.Tex);
    half3 detail = (half3)DetailMap.Sample(DetailSampler, input.Tex * DetailScale).rgb;
    diffuse.rgb *= lerp((half3)1.0, detail * 2.0h, (half)DetailIntensity);
    return diffuse * (half4)DiffuseColor * (half4)input.VertColor;
}
