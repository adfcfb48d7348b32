// legalis: -entry CoCPS -stage pixel
// legalis: -entry BokehCS -stage compute
// Depth of field: circle of confusion and a disc-kernel gather.

cbuffer DofCB : register(b0)
{
    float focusDistance;
    float focusRange;
    float maxCoC;
    float nearPlane;
    float farPlane;
    float2 texelSize;
    uint sampleCount;
};

Texture2D<float> DepthBuffer : register(t0);
Texture2D<float4> SceneTexture : register(t1);
Texture2D<float> CoCTexture : register(t2);
RWTexture2D<float4> BokehOut : register(u0);
SamplerState LinearClamp : register(s0);

static const float GOLDEN_ANGLE = 2.39996323;

float LinearizeDepth(float d)
{
    return nearPlane * farPlane / (farPlane - d * (farPlane - nearPlane));
}

float CoCPS(float4 pos : SV_Position) : SV_Target
{
    float depth = LinearizeDepth(DepthBuffer.Load(int3(pos.xy, 0)));
    float coc = (depth - focusDistance) / focusRange;
    return clamp(coc, -1.0, 1.0) * maxCoC;
}

[numthreads(8, 8, 1)]
void BokehCS(uint3 id : SV_DispatchThreadID)
{
    float2 uv = (id.xy + 0.5) * texelSize;
    float centerCoC = abs(CoCTexture.SampleLevel(LinearClamp, uv, 0));
    float3 acc = SceneTexture.SampleLevel(LinearClamp, uv, 0).rgb;
    float weight = 1.0;
    for (uint i = 1; i < sampleCount; ++i)
    {
        float r = sqrt(float(i) / sampleCount) * centerCoC;
        float theta = i * GOLDEN_ANGLE;
        float2 offset = float2(cos(theta), sin(theta)) * r * texelSize;
        float sampleCoC = abs(CoCTexture.SampleLevel(LinearClamp, uv + offset, 0));
        float w = saturate(sampleCoC - r + 1.0);
        acc += SceneTexture.SampleLevel(LinearClamp, uv + offset, 0).rgb * w;
        weight += w;
    }
    BokehOut[id.xy] = float4(acc / weight, centerCoC);
}
