// legalis: -entry main -stage vertex
// Water-reflection pass: user clip planes via SV_ClipDistance, plus SV_CullDistance.

#pragma pack_matrix(row_major)

cbuffer ReflectCB : register(b0)
{
    float4x4 worldViewProj;
    float4x4 world;
    float4 clipPlane;
    float cullRadius;
};

struct VOut
{
    float4 pos : SV_Position;
    float2 uv : TEXCOORD0;
    float clip0 : SV_ClipDistance0;
    float cull0 : SV_CullDistance0;
};

VOut main(float3 pos : POSITION, float2 uv : TEXCOORD0)
{
    VOut o;
    float4 wp = mul(float4(pos, 1), world);
    o.pos = mul(float4(pos, 1), worldViewProj);
    o.uv = uv;
    o.clip0 = dot(wp, clipPlane);
    o.cull0 = cullRadius - length(wp.xyz);
    return o;
}
