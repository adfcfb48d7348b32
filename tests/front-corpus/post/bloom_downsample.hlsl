// legalis: -entry CSDownsample -stage compute
// legalis: -entry CSUpsample -stage compute
// Dual-filter bloom chain, 13-tap downsample and tent upsample.

cbuffer BloomParams : register(b0)
{
    float2 srcTexelSize;
    uint2 dstSize;
    float threshold;
    float knee;
    float upsampleRadius;
    uint firstPass;
};

Texture2D<float4> srcTex : register(t0);
Texture2D<float4> bloomTex : register(t1);
RWTexture2D<float4> dstTex : register(u0);
SamplerState linearClamp : register(s0);

float Luminance(float3 c)
{
    return dot(c, float3(0.2126, 0.7152, 0.0722));
}

float3 Prefilter(float3 c)
{
    float br = max(c.r, max(c.g, c.b));
    float rq = clamp(br - threshold + knee, 0.0, 2.0 * knee);
    rq = (rq * rq) / (4.0 * knee + 1e-4);
    float contribution = max(rq, br - threshold) / max(br, 1e-4);
    return c * contribution;
}

float KarisWeight(float3 c)
{
    return 1.0 / (1.0 + Luminance(c));
}

[numthreads(8, 8, 1)]
void CSDownsample(uint3 id : SV_DispatchThreadID)
{
    if (id.x >= dstSize.x || id.y >= dstSize.y)
        return;
    float2 uv = (float2(id.xy) + 0.5) / float2(dstSize);
    float2 t = srcTexelSize;

    float3 a = srcTex.SampleLevel(linearClamp, uv + t * float2(-2, -2), 0).rgb;
    float3 b = srcTex.SampleLevel(linearClamp, uv + t * float2(0, -2), 0).rgb;
    float3 c = srcTex.SampleLevel(linearClamp, uv + t * float2(2, -2), 0).rgb;
    float3 d = srcTex.SampleLevel(linearClamp, uv + t * float2(-2, 0), 0).rgb;
    float3 e = srcTex.SampleLevel(linearClamp, uv, 0).rgb;
    float3 f = srcTex.SampleLevel(linearClamp, uv + t * float2(2, 0), 0).rgb;
    float3 g = srcTex.SampleLevel(linearClamp, uv + t * float2(-2, 2), 0).rgb;
    float3 h = srcTex.SampleLevel(linearClamp, uv + t * float2(0, 2), 0).rgb;
    float3 i = srcTex.SampleLevel(linearClamp, uv + t * float2(2, 2), 0).rgb;
    float3 j = srcTex.SampleLevel(linearClamp, uv + t * float2(-1, -1), 0).rgb;
    float3 k = srcTex.SampleLevel(linearClamp, uv + t * float2(1, -1), 0).rgb;
    float3 l = srcTex.SampleLevel(linearClamp, uv + t * float2(-1, 1), 0).rgb;
    float3 m = srcTex.SampleLevel(linearClamp, uv + t * float2(1, 1), 0).rgb;

    float3 result;
    if (firstPass != 0)
    {
        float3 g0 = (a + b + d + e) * 0.25;
        float3 g1 = (b + c + e + f) * 0.25;
        float3 g2 = (d + e + g + h) * 0.25;
        float3 g3 = (e + f + h + i) * 0.25;
        float3 g4 = (j + k + l + m) * 0.25;
        float w0 = KarisWeight(g0), w1 = KarisWeight(g1), w2 = KarisWeight(g2);
        float w3 = KarisWeight(g3), w4 = KarisWeight(g4);
        result = (g0 * w0 + g1 * w1 + g2 * w2 + g3 * w3 + g4 * w4 * 4.0) / (w0 + w1 + w2 + w3 + w4 * 4.0);
        result = Prefilter(result);
    }
    else
    {
        result = e * 0.125;
        result += (a + c + g + i) * 0.03125;
        result += (b + d + f + h) * 0.0625;
        result += (j + k + l + m) * 0.125;
    }
    dstTex[id.xy] = float4(max(result, 0.0), 1.0);
}

[numthreads(8, 8, 1)]
void CSUpsample(uint3 id : SV_DispatchThreadID)
{
    uint w, hgt;
    dstTex.GetDimensions(w, hgt);
    if (id.x >= w || id.y >= hgt)
        return;
    float2 uv = (float2(id.xy) + 0.5) / float2(w, hgt);
    float2 r = srcTexelSize * upsampleRadius;
    float3 s = 0;
    s += srcTex.SampleLevel(linearClamp, uv + float2(-r.x, -r.y), 0).rgb;
    s += srcTex.SampleLevel(linearClamp, uv + float2(0, -r.y), 0).rgb * 2.0;
    s += srcTex.SampleLevel(linearClamp, uv + float2(r.x, -r.y), 0).rgb;
    s += srcTex.SampleLevel(linearClamp, uv + float2(-r.x, 0), 0).rgb * 2.0;
    s += srcTex.SampleLevel(linearClamp, uv, 0).rgb * 4.0;
    s += srcTex.SampleLevel(linearClamp, uv + float2(r.x, 0), 0).rgb * 2.0;
    s += srcTex.SampleLevel(linearClamp, uv + float2(-r.x, r.y), 0).rgb;
    s += srcTex.SampleLevel(linearClamp, uv + float2(0, r.y), 0).rgb * 2.0;
    s += srcTex.SampleLevel(linearClamp, uv + float2(r.x, r.y), 0).rgb;
    s *= 1.0 / 16.0;
    float3 existing = bloomTex.Load(int3(id.xy, 0)).rgb;
    dstTex[id.xy] = float4(existing + s, 1.0);
}
