// legalis: -entry vsMain -stage vertex
// legalis: -entry psMain -stage fragment
// SV_ShadingRate written per vertex and read in the pixel shader (variable-rate shading).

struct VSOut
{
    float4 pos : SV_Position;
    float2 uv : TEXCOORD0;
    uint rate : SV_ShadingRate;
};

VSOut vsMain(float3 p : POSITION, float2 uv : TEXCOORD0)
{
    VSOut o;
    o.pos = float4(p, 1.0f);
    o.uv = uv;
    float d = length(uv - 0.5f);
    o.rate = d > 0.4f ? 0xA : (d > 0.2f ? 0x5 : 0x0);
    return o;
}

float4 psMain(float4 pos : SV_Position, float2 uv : TEXCOORD0, uint rate : SV_ShadingRate) : SV_Target
{
    float x = (float)((rate >> 2) & 3);
    float y = (float)(rate & 3);
    return float4(uv, x * 0.25f, y * 0.25f);
}
