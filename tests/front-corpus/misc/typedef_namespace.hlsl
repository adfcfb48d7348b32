// legalis: -entry main -stage pixel
// typedef, namespaces, #if defined, function overloads, out/inout helpers, precise.

#define QUALITY_HIGH
#if defined(QUALITY_HIGH) && !defined(QUALITY_LOW)
#define TAPS 8
#else
#define TAPS 4
#endif

typedef float3 Color;
typedef uint MaterialId;

namespace Util
{
    float Luma(Color c) { return dot(c, float3(0.299, 0.587, 0.114)); }
    float Luma(float4 c) { return Luma(c.rgb); }
    void Split(float4 v, out Color rgb, out float a)
    {
        rgb = v.rgb;
        a = v.a;
    }
}

Texture2D<float4> Source : register(t0);
SamplerState Bilinear : register(s0);

cbuffer Blur : register(b0)
{
    float2 texel;
    MaterialId material;
};

void Accumulate(inout Color sum, inout float weight, Color c, float w)
{
    sum += c * w;
    weight += w;
}

float4 main(float4 pos : SV_Position, float2 uv : TEXCOORD0) : SV_Target
{
    Color sum = 0;
    float weight = 0;
    [unroll]
    for (int i = 0; i < TAPS; ++i)
    {
        float angle = i * (6.2831853 / TAPS);
        float2 o = float2(cos(angle), sin(angle)) * texel * 2.0;
        Color c;
        float a;
        Util::Split(Source.Sample(Bilinear, uv + o), c, a);
        Accumulate(sum, weight, c, a * (1.0 + Util::Luma(c)));
    }
    precise float inv = 1.0 / max(weight, 1e-5);
    return float4(sum * inv, material == 0 ? 1.0 : 0.5);
}
