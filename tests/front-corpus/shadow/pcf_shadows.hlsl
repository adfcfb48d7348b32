// legalis: -entry ShadowVS -stage vertex
// legalis: -entry MainPS -stage pixel
// Cascaded shadow maps with SampleCmpLevelZero and a PCF kernel.

#define NUM_CASCADES 4
#define PCF_RADIUS 2

cbuffer ShadowCB : register(b0)
{
    float4x4 lightViewProj[NUM_CASCADES];
    float4 cascadeSplits;
    float shadowMapSize;
    float depthBias;
    float normalBias;
    uint showCascades;
};

cbuffer ObjectCB : register(b1)
{
    float4x4 worldViewProj;
    float4x4 world;
};

Texture2DArray<float> ShadowMap : register(t0);
SamplerComparisonState ShadowSampler : register(s0);

float4 ShadowVS(float3 pos : POSITION) : SV_Position
{
    return mul(worldViewProj, float4(pos, 1.0));
}

struct PSIn
{
    float4 pos : SV_Position;
    float3 worldPos : TEXCOORD0;
    float3 normal : NORMAL;
    float viewDepth : TEXCOORD1;
};

float SampleCascade(uint cascade, float3 worldPos, float3 normal)
{
    float3 biased = worldPos + normal * normalBias;
    float4 lp = mul(lightViewProj[cascade], float4(biased, 1.0));
    lp.xyz /= lp.w;
    float2 uv = lp.xy * float2(0.5, -0.5) + 0.5;
    float depth = lp.z - depthBias;
    float texel = 1.0 / shadowMapSize;
    float sum = 0.0;
    [unroll]
    for (int y = -PCF_RADIUS; y <= PCF_RADIUS; ++y)
    {
        [unroll]
        for (int x = -PCF_RADIUS; x <= PCF_RADIUS; ++x)
        {
            sum += ShadowMap.SampleCmpLevelZero(ShadowSampler, float3(uv + float2(x, y) * texel, cascade), depth);
        }
    }
    return sum / ((2 * PCF_RADIUS + 1) * (2 * PCF_RADIUS + 1));
}

float4 MainPS(PSIn input) : SV_Target
{
    uint cascade = 0;
    [unroll]
    for (uint i = 0; i < NUM_CASCADES - 1; ++i)
    {
        if (input.viewDepth > cascadeSplits[i])
            cascade = i + 1;
    }
    float shadow = SampleCascade(cascade, input.worldPos, normalize(input.normal));
    float3 color = float3(1, 1, 1) * (0.2 + 0.8 * shadow);
    if (showCascades != 0)
    {
        static const float3 tints[4] = { float3(1, 0.3, 0.3), float3(0.3, 1, 0.3), float3(0.3, 0.3, 1), float3(1, 1, 0.3) };
        color *= tints[cascade];
    }
    return float4(color, 1.0);
}
