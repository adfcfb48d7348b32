// legalis: -entry Bloom -stage compute
// legalis: -entry Composite -stage compute
// legalis: -entry Composite -stage compute -D TONEMAP=2 -D USE_LUT=1 -D USE_GRAIN
// legalis: -entry Composite -stage compute -D TONEMAP=3 -D USE_VIGNETTE=1 -D USE_CHROMATIC=1
// legalis: -entry Histogram -stage compute
// legalis: -entry Exposure -stage compute
// legalis: -entry FullscreenVS -stage vertex
// legalis: -entry CopyPS -stage fragment
// A post-processing stack in one file: bloom, histogram, auto exposure, composite with tonemapper permutations.

#ifndef TONEMAP
#define TONEMAP 1
#endif
#ifndef USE_LUT
#define USE_LUT 0
#endif
#ifndef USE_VIGNETTE
#define USE_VIGNETTE 0
#endif
#ifndef USE_CHROMATIC
#define USE_CHROMATIC 0
#endif

#define HISTOGRAM_BINS 256
#define GROUP_X 16
#define GROUP_Y 16
#define LUMA_WEIGHTS float3(0.2126f, 0.7152f, 0.0722f)
#define EPS 1e-4f

cbuffer PostConstants : register(b0)
{
    uint2 gSize;
    float2 gInvSize;
    float gBloomThreshold;
    float gBloomIntensity;
    float gMinLogLum;
    float gLogLumRange;
    float gAdaptRate;
    float gDeltaTime;
    float gVignetteStrength;
    float gChromaticAmount;
    float gGrainAmount;
    uint gFrame;
    float2 gPad;
};

Texture2D<float4> gHdr : register(t0);
Texture2D<float4> gBloomIn : register(t1);
Texture3D<float4> gLut : register(t2);
StructuredBuffer<float> gExposureIn : register(t3);
RWTexture2D<float4> gBloomOut : register(u0);
RWTexture2D<float4> gLdrOut : register(u1);
RWByteAddressBuffer gHistogram : register(u2);
RWStructuredBuffer<float> gExposureOut : register(u3);
SamplerState gLinearClamp : register(s0);

groupshared uint sBins[HISTOGRAM_BINS];
groupshared float sLum[HISTOGRAM_BINS];

//------------------------------------------------------------------------------
// Shared helpers
//------------------------------------------------------------------------------
float luminance(float3 c)
{
    return dot(c, LUMA_WEIGHTS);
}

float3 thresholdColor(float3 c, float t)
{
    float l = luminance(c);
    float soft = clamp(l - t + 0.5f, 0.0f, 1.0f);
    soft = soft * soft * 0.5f;
    float contrib = max(soft, l - t) / max(l, EPS);
    return c * contrib;
}

float3 acesFilm(float3 x)
{
    const float a = 2.51f;
    const float b = 0.03f;
    const float c = 2.43f;
    const float d = 0.59f;
    const float e = 0.14f;
    return saturate((x * (a * x + b)) / (x * (c * x + d) + e));
}

float3 reinhardExtended(float3 c, float whitePoint)
{
    float l = luminance(c);
    float n = l * (1.0f + l / (whitePoint * whitePoint));
    float ln = n / (1.0f + l);
    return c * (ln / max(l, EPS));
}

float3 uncharted2Partial(float3 x)
{
    static const float A = 0.15f;
    static const float B = 0.50f;
    static const float C = 0.10f;
    static const float D = 0.20f;
    static const float E = 0.02f;
    static const float F = 0.30f;
    return ((x * (A * x + C * B) + D * E) / (x * (A * x + B) + D * F)) - E / F;
}

float3 uncharted2(float3 c)
{
    float3 curr = uncharted2Partial(c * 2.0f);
    float3 whiteScale = 1.0f / uncharted2Partial(11.2f.xxx);
    return curr * whiteScale;
}

float3 tonemap(float3 c)
{
#if TONEMAP == 1
    return acesFilm(c);
#elif TONEMAP == 2
    return reinhardExtended(c, 4.0f);
#elif TONEMAP == 3
    return uncharted2(c);
#else
    return saturate(c);
#endif
}

float3 linearToSrgb(float3 c)
{
    return select(c <= 0.0031308f, c * 12.92f, 1.055f * pow(abs(c), 1.0f / 2.4f) - 0.055f);
}

uint lumToBin(float l)
{
    if (l < EPS)
        return 0;
    float logLum = saturate((log2(l) - gMinLogLum) / gLogLumRange);
    return (uint)(logLum * 254.0f + 1.0f);
}

float hashNoise(uint2 p, uint frame)
{
    uint h = p.x * 73856093u ^ p.y * 19349663u ^ frame * 83492791u;
    h = (h ^ (h >> 13)) * 0x5bd1e995u;
    h ^= h >> 15;
    return (float)(h & 0xFFFFFF) / 16777215.0f;
}

//------------------------------------------------------------------------------
// Bloom: 13-tap downsample with a Karis average on the first mip
//------------------------------------------------------------------------------
[numthreads(GROUP_X, GROUP_Y, 1)]
void Bloom(uint3 id : SV_DispatchThreadID)
{
    if (any(id.xy >= gSize))
        return;
    float2 uv = (float2(id.xy) + 0.5f) * gInvSize;
    float2 t = gInvSize;
    float3 a = gHdr.SampleLevel(gLinearClamp, uv + t * float2(-2, -2), 0).rgb;
    float3 b = gHdr.SampleLevel(gLinearClamp, uv + t * float2(0, -2), 0).rgb;
    float3 c = gHdr.SampleLevel(gLinearClamp, uv + t * float2(2, -2), 0).rgb;
    float3 d = gHdr.SampleLevel(gLinearClamp, uv + t * float2(-2, 0), 0).rgb;
    float3 e = gHdr.SampleLevel(gLinearClamp, uv, 0).rgb;
    float3 f = gHdr.SampleLevel(gLinearClamp, uv + t * float2(2, 0), 0).rgb;
    float3 g = gHdr.SampleLevel(gLinearClamp, uv + t * float2(-2, 2), 0).rgb;
    float3 h = gHdr.SampleLevel(gLinearClamp, uv + t * float2(0, 2), 0).rgb;
    float3 i = gHdr.SampleLevel(gLinearClamp, uv + t * float2(2, 2), 0).rgb;
    float3 j = gHdr.SampleLevel(gLinearClamp, uv + t * float2(-1, -1), 0).rgb;
    float3 k = gHdr.SampleLevel(gLinearClamp, uv + t * float2(1, -1), 0).rgb;
    float3 l = gHdr.SampleLevel(gLinearClamp, uv + t * float2(-1, 1), 0).rgb;
    float3 m = gHdr.SampleLevel(gLinearClamp, uv + t * float2(1, 1), 0).rgb;
    float3 groups[5];
    groups[0] = (a + b + d + e) * (0.125f / 4.0f);
    groups[1] = (b + c + e + f) * (0.125f / 4.0f);
    groups[2] = (d + e + g + h) * (0.125f / 4.0f);
    groups[3] = (e + f + h + i) * (0.125f / 4.0f);
    groups[4] = (j + k + l + m) * (0.5f / 4.0f);
    float3 sum = 0;
    float wsum = 0;
    [unroll]
    for (int n = 0; n < 5; n++)
    {
        float w = 1.0f / (1.0f + luminance(groups[n]));
        sum += groups[n] * w;
        wsum += w;
    }
    gBloomOut[id.xy] = float4(thresholdColor(sum / wsum, gBloomThreshold), 1.0f);
}

//------------------------------------------------------------------------------
// Luminance histogram
//------------------------------------------------------------------------------
[numthreads(GROUP_X, GROUP_Y, 1)]
void Histogram(uint3 id : SV_DispatchThreadID, uint gi : SV_GroupIndex)
{
    sBins[gi] = 0;
    GroupMemoryBarrierWithGroupSync();
    if (all(id.xy < gSize))
    {
        float3 c = gHdr.Load(int3(id.xy, 0)).rgb;
        InterlockedAdd(sBins[lumToBin(luminance(c))], 1);
    }
    GroupMemoryBarrierWithGroupSync();
    gHistogram.InterlockedAdd(gi * 4, sBins[gi]);
}

//------------------------------------------------------------------------------
// Auto exposure: weighted average of the histogram, temporal adaptation
//------------------------------------------------------------------------------
[numthreads(HISTOGRAM_BINS, 1, 1)]
void Exposure(uint gi : SV_GroupIndex)
{
    uint count = gHistogram.Load(gi * 4);
    sLum[gi] = (float)count * (float)gi;
    GroupMemoryBarrierWithGroupSync();
    gHistogram.Store(gi * 4, 0);
    [unroll]
    for (uint stride = HISTOGRAM_BINS / 2; stride > 0; stride >>= 1)
    {
        if (gi < stride)
            sLum[gi] += sLum[gi + stride];
        GroupMemoryBarrierWithGroupSync();
    }
    if (gi == 0)
    {
        float pixels = (float)(gSize.x * gSize.y);
        float weighted = sLum[0] / max(pixels - (float)count, 1.0f) - 1.0f;
        float avgLum = exp2((weighted / 254.0f) * gLogLumRange + gMinLogLum);
        float prev = gExposureIn[0];
        float adapted = prev + (avgLum - prev) * (1.0f - exp(-gDeltaTime * gAdaptRate));
        gExposureOut[0] = adapted;
    }
}

//------------------------------------------------------------------------------
// Composite
//------------------------------------------------------------------------------
[numthreads(GROUP_X, GROUP_Y, 1)]
void Composite(uint3 id : SV_DispatchThreadID)
{
    if (id.x >= gSize.x || id.y >= gSize.y)
        return;
    float2 uv = (float2(id.xy) + 0.5f) * gInvSize;
    float3 hdr;
#if USE_CHROMATIC
    float2 dir = (uv - 0.5f) * gChromaticAmount;
    hdr.r = gHdr.SampleLevel(gLinearClamp, uv + dir, 0).r;
    hdr.g = gHdr.SampleLevel(gLinearClamp, uv, 0).g;
    hdr.b = gHdr.SampleLevel(gLinearClamp, uv - dir, 0).b;
#else
    hdr = gHdr.SampleLevel(gLinearClamp, uv, 0).rgb;
#endif
    hdr += gBloomIn.SampleLevel(gLinearClamp, uv, 0).rgb * gBloomIntensity;
    float exposure = 0.18f / max(gExposureIn[0], EPS);
    float3 ldr = tonemap(hdr * exposure);
#if USE_VIGNETTE
    float2 v = uv * (1.0f - uv.yx);
    ldr *= pow(v.x * v.y * 15.0f, gVignetteStrength);
#endif
#if USE_LUT
    float3 lutCoord = saturate(ldr) * (31.0f / 32.0f) + 0.5f / 32.0f;
    ldr = gLut.SampleLevel(gLinearClamp, lutCoord, 0).rgb;
#endif
#ifdef USE_GRAIN
    ldr += (hashNoise(id.xy, gFrame) - 0.5f) * gGrainAmount;
#endif
    gLdrOut[id.xy] = float4(linearToSrgb(saturate(ldr)), luminance(ldr));
}

//------------------------------------------------------------------------------
// Fullscreen triangle and copy
//------------------------------------------------------------------------------
struct FsOut
{
    float4 pos : SV_Position;
    float2 uv : TEXCOORD0;
};

FsOut FullscreenVS(uint vid : SV_VertexID)
{
    FsOut o;
    o.uv = float2((vid << 1) & 2, vid & 2);
    o.pos = float4(o.uv * float2(2.0f, -2.0f) + float2(-1.0f, 1.0f), 0.0f, 1.0f);
    return o;
}

float4 CopyPS(FsOut i) : SV_Target
{
    return float4(tonemap(gHdr.Sample(gLinearClamp, i.uv).rgb), 1.0f);
}
