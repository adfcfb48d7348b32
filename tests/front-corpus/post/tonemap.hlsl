// legalis: -entry VSQuad -stage vertex
// legalis: -entry PSTonemap -stage pixel
// Final composite: exposure, bloom, vignette, film grain, tonemapping operators.

#define TONEMAP_REINHARD 0
#define TONEMAP_ACES 1
#define TONEMAP_UNCHARTED 2

cbuffer PostCB : register(b0)
{
    float exposure;
    float bloomStrength;
    float vignetteStrength;
    float grainStrength;
    uint tonemapper;
    float time;
    float2 invResolution;
};

Texture2D<float4> sceneColor : register(t0);
Texture2D<float4> bloom : register(t1);
Texture2D<float> autoExposure : register(t2);
Texture3D<float4> colorGradingLut : register(t3);
SamplerState linearClampSampler : register(s0);

struct QuadOut
{
    float4 pos : SV_POSITION;
    noperspective float2 uv : TEXCOORD0;
};

QuadOut VSQuad(uint id : SV_VertexID)
{
    QuadOut o;
    float2 uv = float2((id << 1) & 2, id & 2);
    o.pos = float4(uv * float2(2, -2) + float2(-1, 1), 0, 1);
    o.uv = uv;
    return o;
}

float3 Reinhard(float3 c)
{
    return c / (1.0 + c);
}

float3 ACESFitted(float3 color)
{
    static const float3x3 ACESInputMat =
    {
        {0.59719, 0.35458, 0.04823},
        {0.07600, 0.90834, 0.01566},
        {0.02840, 0.13383, 0.83777}
    };
    static const float3x3 ACESOutputMat =
    {
        { 1.60475, -0.53108, -0.07367},
        {-0.10208,  1.10813, -0.00605},
        {-0.00327, -0.07276,  1.07602}
    };
    color = mul(ACESInputMat, color);
    float3 a = color * (color + 0.0245786f) - 0.000090537f;
    float3 b = color * (0.983729f * color + 0.4329510f) + 0.238081f;
    color = a / b;
    color = mul(ACESOutputMat, color);
    return saturate(color);
}

float3 Uncharted2(float3 x)
{
    float A = 0.15, B = 0.50, C = 0.10, D = 0.20, E = 0.02, F = 0.30;
    return ((x * (A * x + C * B) + D * E) / (x * (A * x + B) + D * F)) - E / F;
}

float Hash(float2 p)
{
    return frac(sin(dot(p, float2(12.9898, 78.233))) * 43758.5453);
}

float3 LinearToSRGB(float3 c)
{
    float3 lo = c * 12.92;
    float3 hi = 1.055 * pow(abs(c), 1.0 / 2.4) - 0.055;
    return select(c <= 0.0031308, lo, hi);
}

float4 PSTonemap(QuadOut input) : SV_Target
{
    float3 hdr = sceneColor.SampleLevel(linearClampSampler, input.uv, 0).rgb;
    hdr += bloom.SampleLevel(linearClampSampler, input.uv, 0).rgb * bloomStrength;
    float avgLum = autoExposure.Load(int3(0, 0, 0));
    hdr *= exposure / max(avgLum * 9.6, 1e-4);

    float3 ldr;
    switch (tonemapper)
    {
    case TONEMAP_REINHARD:
        ldr = Reinhard(hdr);
        break;
    case TONEMAP_ACES:
        ldr = ACESFitted(hdr);
        break;
    default:
        ldr = Uncharted2(hdr * 2.0) / Uncharted2(11.2.xxx);
        break;
    }

    float2 d = input.uv - 0.5;
    ldr *= 1.0 - dot(d, d) * vignetteStrength;

    float3 lutSize;
    colorGradingLut.GetDimensions(lutSize.x, lutSize.y, lutSize.z);
    float3 lutUV = saturate(ldr) * ((lutSize - 1.0) / lutSize) + 0.5 / lutSize;
    ldr = colorGradingLut.SampleLevel(linearClampSampler, lutUV, 0).rgb;

    ldr += (Hash(input.uv * 1000.0 + time) - 0.5) * grainStrength;
    return float4(LinearToSRGB(saturate(ldr)), 1.0);
}
