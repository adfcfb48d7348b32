// legalis: -entry vsMain -stage vertex
// legalis: -entry psMain -stage fragment
// SV_ViewID for multiview stereo in both stages.

cbuffer Stereo : register(b0)
{
    float4x4 gViewProj[2];
    float4 gEyeTint[2];
};

struct VSOut
{
    float4 pos : SV_Position;
    float3 normal : NORMAL;
};

VSOut vsMain(float3 p : POSITION, float3 n : NORMAL, uint view : SV_ViewID)
{
    VSOut o;
    o.pos = mul(gViewProj[view], float4(p, 1.0f));
    o.normal = n;
    return o;
}

float4 psMain(VSOut i, uint view : SV_ViewID) : SV_Target
{
    return float4(normalize(i.normal) * 0.5f + 0.5f, 1.0f) * gEyeTint[view];
}
