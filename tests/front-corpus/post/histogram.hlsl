// legalis: -entry BuildHistogram -stage compute
// legalis: -entry AverageLuminance -stage compute
// Auto-exposure: luminance histogram with groupshared atomics, then a reduction.

#define NUM_BINS 256
#define EPSILON 0.0001

cbuffer HistogramCB : register(b0)
{
    uint inputWidth;
    uint inputHeight;
    float minLogLum;
    float inverseLogLumRange;
    float timeCoeff;
    float numPixels;
    float logLumRange;
    float pad0;
};

Texture2D<float4> hdrTexture : register(t0);
RWByteAddressBuffer histogram : register(u0);
RWTexture2D<float> luminanceOut : register(u1);

groupshared uint histogramShared[NUM_BINS];

uint ColorToBin(float3 hdrColor)
{
    float lum = dot(hdrColor, float3(0.2126, 0.7152, 0.0722));
    if (lum < EPSILON)
        return 0;
    float logLum = saturate((log2(lum) - minLogLum) * inverseLogLumRange);
    return (uint)(logLum * 254.0 + 1.0);
}

[numthreads(16, 16, 1)]
void BuildHistogram(uint groupIndex : SV_GroupIndex, uint3 threadId : SV_DispatchThreadID)
{
    histogramShared[groupIndex] = 0;
    GroupMemoryBarrierWithGroupSync();

    if (threadId.x < inputWidth && threadId.y < inputHeight)
    {
        float3 c = hdrTexture.Load(int3(threadId.xy, 0)).rgb;
        uint bin = ColorToBin(c);
        InterlockedAdd(histogramShared[bin], 1);
    }
    GroupMemoryBarrierWithGroupSync();

    histogram.InterlockedAdd(groupIndex * 4, histogramShared[groupIndex]);
}

groupshared float weightedShared[NUM_BINS];

[numthreads(NUM_BINS, 1, 1)]
void AverageLuminance(uint groupIndex : SV_GroupIndex)
{
    uint count = histogram.Load(groupIndex * 4);
    weightedShared[groupIndex] = count * (float)groupIndex;
    histogram.Store(groupIndex * 4, 0);
    GroupMemoryBarrierWithGroupSync();

    [unroll]
    for (uint cutoff = (NUM_BINS >> 1); cutoff > 0; cutoff >>= 1)
    {
        if (groupIndex < cutoff)
            weightedShared[groupIndex] += weightedShared[groupIndex + cutoff];
        GroupMemoryBarrierWithGroupSync();
    }

    if (groupIndex == 0)
    {
        float weightedLogAverage = (weightedShared[0] / max(numPixels - float(count), 1.0)) - 1.0;
        float weightedAvgLum = exp2(((weightedLogAverage / 254.0) * logLumRange) + minLogLum);
        float lumLastFrame = luminanceOut[uint2(0, 0)];
        float adapted = lumLastFrame + (weightedAvgLum - lumLastFrame) * timeCoeff;
        luminanceOut[uint2(0, 0)] = adapted;
    }
}
