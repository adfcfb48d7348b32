// legalis: -entry main -stage vertex
// VR multiview: SV_ViewID selects the eye's matrix.

cbuffer StereoCB : register(b0)
{
    float4x4 viewProj[2];
    float4x4 model;
};

struct VOut
{
    float4 pos : SV_Position;
    float3 normal : NORMAL;
};

VOut main(float3 pos : POSITION, float3 normal : NORMAL, uint viewId : SV_ViewID)
{
    VOut o;
    o.pos = mul(viewProj[viewId], mul(model, float4(pos, 1)));
    o.normal = mul((float3x3)model, normal);
    return o;
}
