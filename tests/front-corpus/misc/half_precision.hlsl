// legalis: -entry main -stage pixel
// 16-bit half types as mobile-minded engines write them.

Texture2D<half4> Albedo : register(t0);
SamplerState Samp : register(s0);

cbuffer MinCB : register(b0)
{
    float4 tint;
    float gamma;
};

half3 ApplyGamma(half3 c, half g)
{
    return pow(max(c, (half)0), (half3)g);
}

float4 main(float4 pos : SV_Position, float2 uv : TEXCOORD0) : SV_Target
{
    half4 a = Albedo.Sample(Samp, uv);
    half3 c = a.rgb * (half3)tint.rgb;
    c = ApplyGamma(c, (half)(1.0 / gamma));
    int steps = 4;
    c = floor(c * steps) / steps;
    return float4(c, a.a);
}
