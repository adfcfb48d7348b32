// legalis: -entry PSMain -stage pixel
// Additive OIT accumulation into two render targets.

cbuffer cbPerObject : register(b0)
{
    float4 g_color;
    float g_depthScale;
};

struct PSInput
{
    float4 position : SV_POSITION;
    float3 normal : NORMAL;
    float depthVS : TEXCOORD0;
};

struct PSOutput
{
    float4 accum : SV_Target0;
    float revealage : SV_Target1;
};

float weight(float z, float a)
{
    return clamp(pow(min(1.0, a * 10.0) + 0.01, 3.0) * 1e8 * pow(1.0 - z * 0.9, 3.0), 1e-2, 3e3);
}

PSOutput PSMain(PSInput input)
{
    float4 c = g_color;
    c.rgb *= 0.5 + 0.5 * abs(normalize(input.normal).z);
    float w = weight(input.depthVS * g_depthScale, c.a);
    PSOutput o;
    o.accum = float4(c.rgb * c.a, c.a) * w;
    o.revealage = c.a;
    return o;
}
