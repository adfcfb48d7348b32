// legalis: -entry CSResolve -stage compute
// Temporal AA resolve: neighbourhood clamp in YCoCg, velocity dilation.

cbuffer TAAConstants : register(b0)
{
    uint2 resolution;
    float2 invResolution;
    float feedbackMin;
    float feedbackMax;
    uint resetHistory;
    uint pad;
};

Texture2D<float4> currentColor : register(t0);
Texture2D<float4> historyColor : register(t1);
Texture2D<float2> velocityTex : register(t2);
Texture2D<float> depthTex : register(t3);
RWTexture2D<float4> outputColor : register(u0);
SamplerState linearClamp : register(s0);

float3 RGBToYCoCg(float3 c)
{
    return float3(dot(c, float3(0.25, 0.5, 0.25)), dot(c, float3(0.5, 0.0, -0.5)), dot(c, float3(-0.25, 0.5, -0.25)));
}

float3 YCoCgToRGB(float3 c)
{
    return float3(c.x + c.y - c.z, c.x + c.z, c.x - c.y - c.z);
}

int2 ClosestDepthOffset(int2 p)
{
    float best = 1.0;
    int2 bestOffset = int2(0, 0);
    [unroll]
    for (int y = -1; y <= 1; ++y)
    {
        [unroll]
        for (int x = -1; x <= 1; ++x)
        {
            float d = depthTex.Load(int3(p + int2(x, y), 0));
            if (d < best)
            {
                best = d;
                bestOffset = int2(x, y);
            }
        }
    }
    return bestOffset;
}

[numthreads(8, 8, 1)]
void CSResolve(uint3 dtid : SV_DispatchThreadID)
{
    if (any(dtid.xy >= resolution))
        return;
    int2 p = int2(dtid.xy);
    float3 curr = currentColor.Load(int3(p, 0)).rgb;
    if (resetHistory != 0)
    {
        outputColor[dtid.xy] = float4(curr, 1.0);
        return;
    }

    float3 m1 = 0, m2 = 0;
    float3 cmin = 1e9, cmax = -1e9;
    for (int y = -1; y <= 1; ++y)
    {
        for (int x = -1; x <= 1; ++x)
        {
            float3 c = RGBToYCoCg(currentColor.Load(int3(p + int2(x, y), 0)).rgb);
            m1 += c;
            m2 += c * c;
            cmin = min(cmin, c);
            cmax = max(cmax, c);
        }
    }
    float3 mean = m1 / 9.0;
    float3 sigma = sqrt(abs(m2 / 9.0 - mean * mean));
    cmin = max(cmin, mean - 1.25 * sigma);
    cmax = min(cmax, mean + 1.25 * sigma);

    float2 velocity = velocityTex.Load(int3(p + ClosestDepthOffset(p), 0));
    float2 uv = (float2(p) + 0.5) * invResolution;
    float2 prevUV = uv - velocity;
    float3 hist = RGBToYCoCg(historyColor.SampleLevel(linearClamp, prevUV, 0).rgb);
    hist = clamp(hist, cmin, cmax);

    float lumCurr = RGBToYCoCg(curr).x;
    float lumHist = hist.x;
    float diff = abs(lumCurr - lumHist) / max(lumCurr, max(lumHist, 0.2));
    float feedback = lerp(feedbackMax, feedbackMin, diff * diff);
    if (any(prevUV < 0.0) || any(prevUV > 1.0))
        feedback = 0.0;

    float3 result = lerp(curr, YCoCgToRGB(hist), feedback);
    outputColor[dtid.xy] = float4(result, 1.0);
}
