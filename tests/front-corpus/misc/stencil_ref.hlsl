// legalis: -entry main -stage pixel
// Stencil export and inner coverage (conservative rasterisation) outputs.

cbuffer StencilCB : register(b0)
{
    uint baseRef;
};

struct Out
{
    float4 color : SV_Target;
    uint stencil : SV_StencilRef;
};

Out main(float4 pos : SV_Position, nointerpolation uint objectId : TEXCOORD0, uint inner : SV_InnerCoverage)
{
    Out o;
    o.color = float4(inner != 0 ? 1.0 : 0.5, float(objectId & 255) / 255.0, 0, 1);
    o.stencil = (baseRef + objectId) & 0xFF;
    return o;
}
