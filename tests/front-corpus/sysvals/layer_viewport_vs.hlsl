// legalis: -entry main -stage vertex
// SV_RenderTargetArrayIndex and SV_ViewportArrayIndex written from a vertex shader (layered rendering).

cbuffer Cascades : register(b0)
{
    float4x4 gCascadeVP[4];
};

struct VSOut
{
    float4 pos : SV_Position;
    uint layer : SV_RenderTargetArrayIndex;
    uint viewport : SV_ViewportArrayIndex;
};

VSOut main(float3 p : POSITION, uint inst : SV_InstanceID)
{
    VSOut o;
    uint cascade = inst % 4;
    o.pos = mul(gCascadeVP[cascade], float4(p, 1.0f));
    o.layer = cascade;
    o.viewport = cascade;
    return o;
}
