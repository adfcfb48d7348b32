// legalis: -entry PS_FXAA -stage pixel
// A compact FXAA-like edge filter.

#define FXAA_EDGE_THRESHOLD (1.0 / 8.0)
#define FXAA_EDGE_THRESHOLD_MIN (1.0 / 24.0)
#define FXAA_SPAN_MAX 8.0
#define FXAA_REDUCE_MUL (1.0 / 8.0)
#define FXAA_REDUCE_MIN (1.0 / 128.0)

Texture2D ColorTex : register(t0);
SamplerState LinearSampler : register(s0);

cbuffer FxaaCB : register(b0)
{
    float4 RcpFrame;
};

float Luma(float3 rgb)
{
    return rgb.g * (0.587 / 0.299) + rgb.r;
}

float4 PS_FXAA(float4 pos : SV_POSITION, float2 uv : TEXCOORD0) : SV_TARGET
{
    float2 rcp = RcpFrame.xy;
    float3 rgbNW = ColorTex.SampleLevel(LinearSampler, uv + float2(-1, -1) * rcp, 0).rgb;
    float3 rgbNE = ColorTex.SampleLevel(LinearSampler, uv + float2(1, -1) * rcp, 0).rgb;
    float3 rgbSW = ColorTex.SampleLevel(LinearSampler, uv + float2(-1, 1) * rcp, 0).rgb;
    float3 rgbSE = ColorTex.SampleLevel(LinearSampler, uv + float2(1, 1) * rcp, 0).rgb;
    float4 rgbM = ColorTex.SampleLevel(LinearSampler, uv, 0);

    float lumaNW = Luma(rgbNW);
    float lumaNE = Luma(rgbNE);
    float lumaSW = Luma(rgbSW);
    float lumaSE = Luma(rgbSE);
    float lumaM = Luma(rgbM.rgb);

    float lumaMin = min(lumaM, min(min(lumaNW, lumaNE), min(lumaSW, lumaSE)));
    float lumaMax = max(lumaM, max(max(lumaNW, lumaNE), max(lumaSW, lumaSE)));
    float range = lumaMax - lumaMin;
    [branch]
    if (range < max(FXAA_EDGE_THRESHOLD_MIN, lumaMax * FXAA_EDGE_THRESHOLD))
        return rgbM;

    float2 dir;
    dir.x = -((lumaNW + lumaNE) - (lumaSW + lumaSE));
    dir.y = ((lumaNW + lumaSW) - (lumaNE + lumaSE));

    float dirReduce = max((lumaNW + lumaNE + lumaSW + lumaSE) * (0.25 * FXAA_REDUCE_MUL), FXAA_REDUCE_MIN);
    float rcpDirMin = 1.0 / (min(abs(dir.x), abs(dir.y)) + dirReduce);
    dir = min(float2(FXAA_SPAN_MAX, FXAA_SPAN_MAX), max(float2(-FXAA_SPAN_MAX, -FXAA_SPAN_MAX), dir * rcpDirMin)) * rcp;

    float3 rgbA = 0.5 * (ColorTex.SampleLevel(LinearSampler, uv + dir * (1.0 / 3.0 - 0.5), 0).rgb +
                         ColorTex.SampleLevel(LinearSampler, uv + dir * (2.0 / 3.0 - 0.5), 0).rgb);
    float3 rgbB = rgbA * 0.5 + 0.25 * (ColorTex.SampleLevel(LinearSampler, uv + dir * -0.5, 0).rgb +
                                       ColorTex.SampleLevel(LinearSampler, uv + dir * 0.5, 0).rgb);
    float lumaB = Luma(rgbB);
    if ((lumaB < lumaMin) || (lumaB > lumaMax))
        return float4(rgbA, rgbM.a);
    return float4(rgbB, rgbM.a);
}
