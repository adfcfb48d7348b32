// legalis: -entry VSMain -stage vertex
// legalis: -entry PSMain -stage pixel
// Cubemap skybox; depth forced to the far plane.

struct UBO
{
    float4x4 projection;
    float4x4 model;
    float exposure;
    float gamma;
};

[[vk::binding(0, 0)]] ConstantBuffer<UBO> ubo;
[[vk::binding(1, 0)]] TextureCube cubeMap;
[[vk::binding(1, 0)]] SamplerState cubeSampler;

struct VSOutput
{
    float4 Pos : SV_POSITION;
    [[vk::location(0)]] float3 UVW : TEXCOORD0;
};

VSOutput VSMain([[vk::location(0)]] float3 Pos : POSITION0)
{
    VSOutput output;
    output.UVW = Pos;
    float4x4 viewNoTranslation = ubo.model;
    viewNoTranslation[0][3] = 0.0;
    viewNoTranslation[1][3] = 0.0;
    viewNoTranslation[2][3] = 0.0;
    output.Pos = mul(ubo.projection, mul(viewNoTranslation, float4(Pos.xyz, 1.0))).xyww;
    return output;
}

float3 Uncharted2Tonemap(float3 x)
{
    const float A = 0.15;
    const float B = 0.50;
    const float C = 0.10;
    const float D = 0.20;
    const float E = 0.02;
    const float F = 0.30;
    return ((x * (A * x + C * B) + D * E) / (x * (A * x + B) + D * F)) - E / F;
}

float4 PSMain(VSOutput input) : SV_TARGET
{
    float3 color = cubeMap.Sample(cubeSampler, input.UVW).rgb;
    color = Uncharted2Tonemap(color * ubo.exposure);
    color = color * (1.0f / Uncharted2Tonemap((11.2f).xxx));
    color = pow(color, (1.0f / ubo.gamma).xxx);
    return float4(color, 1.0);
}
