// legalis: -entry main -stage pixel
// Combined image samplers as the Vulkan HLSL guide shows them.

[[vk::combinedImageSampler]] [[vk::binding(0, 0)]]
Texture2D<float4> albedoMap;
[[vk::combinedImageSampler]] [[vk::binding(0, 0)]]
SamplerState albedoSampler;

[[vk::binding(1, 0)]] TextureCube<float4> envMap;
[[vk::binding(2, 0)]] SamplerState envSampler;

struct PSIn
{
    [[vk::location(0)]] float2 uv : TEXCOORD0;
    [[vk::location(1)]] float3 normal : NORMAL;
    [[vk::location(2)]] float3 viewDir : TEXCOORD1;
};

float4 main(PSIn i) : SV_Target0
{
    float4 base = albedoMap.Sample(albedoSampler, i.uv);
    float3 r = reflect(normalize(i.viewDir), normalize(i.normal));
    float3 env = envMap.SampleLevel(envSampler, r, 2.0).rgb;
    return float4(lerp(base.rgb, env, 0.25), base.a);
}
