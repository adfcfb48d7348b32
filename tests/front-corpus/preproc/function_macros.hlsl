// legalis: -entry main -stage fragment
// Function-like macros with several arguments, nested macro calls, multi-line bodies.

#define SQR(x) ((x) * (x))
#define LERP3(a, b, t) ((a) + ((b) - (a)) * (t))
#define CLAMP01(v) clamp((v), 0.0f, 1.0f)
#define MAD(a, b, c) ((a) * (b) + (c))
#define LUMA(c) dot((c), float3(0.299f, 0.587f, 0.114f))
#define SAMPLE(tex, uv) tex.Sample(gSampler, uv)
#define REMAP(v, lo0, hi0, lo1, hi1) \
    ((lo1) + ((v) - (lo0)) * ((hi1) - (lo1)) / ((hi0) - (lo0)))
#define MAX3(a, b, c) max(max(a, b), c)
#define EMPTY()
#define UNUSED_ARG(x)

Texture2D gTex : register(t0);
SamplerState gSampler : register(s0);

float4 main(float2 uv : TEXCOORD0) : SV_Target
{
    float4 c = SAMPLE(gTex, uv);
    float l = LUMA(c.rgb);
    float v = REMAP(l, 0.0f, 1.0f, -1.0f, 1.0f);
    float3 mixed = LERP3(c.rgb, float3(l, l, l), CLAMP01(SQR(v)));
    float m = MAX3(mixed.r, mixed.g, MAD(mixed.b, 2.0f, -0.5f)) EMPTY();
    UNUSED_ARG(this is dropped)
    return float4(mixed, CLAMP01(m));
}
