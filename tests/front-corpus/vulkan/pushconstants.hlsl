// legalis: -entry VSMain -stage vertex
// legalis: -entry PSMain -stage pixel
// Per-draw data through a push constant block.

struct PushConsts
{
    float4x4 model;
    float4 color;
    uint materialIndex;
};
[[vk::push_constant]] PushConsts pushConsts;

[[vk::binding(0, 0)]]
cbuffer SceneUBO
{
    float4x4 projection;
    float4x4 view;
    float4 lightDir;
};

[[vk::binding(0, 1)]] Texture2D materialTextures[8];
[[vk::binding(1, 1)]] SamplerState linearSampler;

struct VSInput
{
    [[vk::location(0)]] float3 Pos : POSITION0;
    [[vk::location(1)]] float3 Normal : NORMAL0;
    [[vk::location(2)]] float2 UV : TEXCOORD0;
};

struct VSOutput
{
    float4 Pos : SV_POSITION;
    [[vk::location(0)]] float3 Normal : NORMAL0;
    [[vk::location(1)]] float2 UV : TEXCOORD0;
    [[vk::location(2)]] nointerpolation uint Material : TEXCOORD1;
};

VSOutput VSMain(VSInput input)
{
    VSOutput output;
    float4 world = mul(pushConsts.model, float4(input.Pos, 1.0));
    output.Pos = mul(projection, mul(view, world));
    output.Normal = normalize(mul((float3x3)pushConsts.model, input.Normal));
    output.UV = input.UV;
    output.Material = pushConsts.materialIndex;
    return output;
}

float4 PSMain(VSOutput input) : SV_TARGET
{
    float3 albedo = materialTextures[NonUniformResourceIndex(input.Material)].Sample(linearSampler, input.UV).rgb;
    float ndotl = saturate(dot(normalize(input.Normal), -lightDir.xyz));
    return float4(albedo * pushConsts.color.rgb * (0.1 + ndotl), 1.0);
}
