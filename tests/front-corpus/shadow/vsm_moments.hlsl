// legalis: -entry MomentsPS -stage pixel
// legalis: -entry ReceivePS -stage pixel
// Variance shadow maps: write moments, receive with Chebyshev bound.

cbuffer VSMCB : register(b0)
{
    float4x4 lightViewProj;
    float minVariance;
    float lightBleedReduction;
};

Texture2D<float2> MomentsMap : register(t0);
SamplerState LinearClamp : register(s0);

float2 MomentsPS(float4 pos : SV_Position, float depth : TEXCOORD0) : SV_Target
{
    float dx = ddx(depth);
    float dy = ddy(depth);
    return float2(depth, depth * depth + 0.25 * (dx * dx + dy * dy));
}

float LinStep(float lo, float hi, float v)
{
    return saturate((v - lo) / (hi - lo));
}

float Chebyshev(float2 moments, float t)
{
    float p = (t <= moments.x) ? 1.0 : 0.0;
    float variance = max(moments.y - moments.x * moments.x, minVariance);
    float d = t - moments.x;
    float pMax = LinStep(lightBleedReduction, 1.0, variance / (variance + d * d));
    return max(p, pMax);
}

float4 ReceivePS(float4 pos : SV_Position, float3 worldPos : TEXCOORD0, float3 albedo : COLOR0) : SV_Target
{
    float4 lp = mul(lightViewProj, float4(worldPos, 1));
    float2 uv = lp.xy / lp.w * float2(0.5, -0.5) + 0.5;
    float2 moments = MomentsMap.Sample(LinearClamp, uv);
    float lit = Chebyshev(moments, lp.z / lp.w);
    return float4(albedo * lit, 1);
}
