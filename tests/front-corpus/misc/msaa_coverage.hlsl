// legalis: -entry ResolvePS -stage pixel
// legalis: -entry A2CPS -stage pixel
// MSAA: per-sample shading with SV_SampleIndex, custom resolve, coverage output.

Texture2DMS<float4, 4> MSColor : register(t0);
Texture2DMS<float> MSDepth : register(t1);

cbuffer ResolveCB : register(b0)
{
    uint sampleCount;
    float exposure;
    float alphaToCoverageScale;
};

float4 ResolvePS(float4 pos : SV_Position) : SV_Target
{
    int2 coord = int2(pos.xy);
    float3 sum = 0;
    float wsum = 0;
    for (uint s = 0; s < sampleCount; ++s)
    {
        float3 c = MSColor.Load(coord, s).rgb * exposure;
        float w = 1.0 / (1.0 + max(c.r, max(c.g, c.b)));
        sum += c * w;
        wsum += w;
    }
    float3 r = sum / wsum;
    return float4(r / (1.0 - min(max(r.r, max(r.g, r.b)), 0.999)), 1);
}

float4 A2CPS(float4 pos : SV_Position, float4 color : COLOR0, uint sampleIndex : SV_SampleIndex,
             out uint coverage : SV_Coverage) : SV_Target
{
    float dither = float(sampleIndex) * 0.0625;
    float alpha = saturate(color.a * alphaToCoverageScale + dither);
    uint bits = (uint)(alpha * 4.0 + 0.5);
    coverage = (1u << bits) - 1u;
    return float4(color.rgb, 1);
}
