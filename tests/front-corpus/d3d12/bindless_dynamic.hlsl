// legalis: -entry main -stage pixel
// Bindless material fetch with unbounded arrays in separate spaces.

struct Material
{
    uint baseColorTex;
    uint normalTex;
    uint ormTex;
    uint emissiveTex;
    float4 baseColorFactor;
    float3 emissiveFactor;
    float alphaCutoff;
};

cbuffer PerDraw : register(b0, space0)
{
    uint materialId;
    uint samplerId;
};

StructuredBuffer<Material> Materials : register(t0, space0);
Texture2D<float4> Textures2D[] : register(t0, space1);
SamplerState Samplers[] : register(s0, space2);

struct PixelIn
{
    float4 pos : SV_Position;
    float2 uv : TEXCOORD0;
    float3 normal : NORMAL;
    float4 tangent : TANGENT;
};

struct PixelOut
{
    float4 color : SV_Target0;
    float4 emissive : SV_Target1;
};

PixelOut main(PixelIn pin)
{
    Material m = Materials[materialId];
    SamplerState s = Samplers[samplerId];
    float4 base = Textures2D[NonUniformResourceIndex(m.baseColorTex)].Sample(s, pin.uv) * m.baseColorFactor;
    clip(base.a - m.alphaCutoff);
    float3 emissive = Textures2D[NonUniformResourceIndex(m.emissiveTex)].Sample(s, pin.uv).rgb * m.emissiveFactor;
    PixelOut o;
    o.color = base;
    o.emissive = float4(emissive, 1.0);
    return o;
}
