// legalis: -entry main -stage pixel
// Signed-distance-field text with outline and drop shadow, using fwidth.

Texture2D<float> FontSDF : register(t0);
SamplerState LinearClamp : register(s0);

cbuffer TextCB : register(b0)
{
    float4 textColor;
    float4 outlineColor;
    float4 shadowColor;
    float2 shadowOffset;
    float outlineWidth;
    float softness;
};

float Coverage(float dist, float edge)
{
    float w = fwidth(dist) * (0.5 + softness);
    return smoothstep(edge - w, edge + w, dist);
}

float4 main(float4 pos : SV_Position, float2 uv : TEXCOORD0) : SV_Target
{
    float d = FontSDF.Sample(LinearClamp, uv);
    float fill = Coverage(d, 0.5);
    float outline = Coverage(d, 0.5 - outlineWidth);
    float shadowD = FontSDF.Sample(LinearClamp, uv - shadowOffset);
    float shadow = Coverage(shadowD, 0.5 - outlineWidth) * shadowColor.a;

    float4 c = lerp(outlineColor, textColor, fill);
    c.a *= outline;
    float4 result;
    result.a = c.a + shadow * (1.0 - c.a);
    result.rgb = (c.rgb * c.a + shadowColor.rgb * shadow * (1.0 - c.a)) / max(result.a, 1e-4);
    return result;
}
