// legalis: -entry VSMain -stage vertex
// legalis: -entry PSMain -stage pixel
// Textured quad with separate texture and sampler, LOD bias from the UBO.

struct VSInput
{
    [[vk::location(0)]] float3 Pos : POSITION0;
    [[vk::location(1)]] float2 UV : TEXCOORD0;
    [[vk::location(2)]] float3 Normal : NORMAL0;
};

struct UBO
{
    float4x4 projection;
    float4x4 model;
    float4 viewPos;
    float lodBias;
};

cbuffer ubo : register(b0) { UBO ubo; }

[[vk::binding(1, 0)]] Texture2D textureColor : register(t1);
[[vk::binding(1, 0)]] SamplerState samplerColor : register(s1);

struct VSOutput
{
    float4 Pos : SV_POSITION;
    [[vk::location(0)]] float2 UV : TEXCOORD0;
    [[vk::location(1)]] float LodBias : TEXCOORD3;
    [[vk::location(2)]] float3 Normal : NORMAL0;
    [[vk::location(3)]] float3 ViewVec : TEXCOORD1;
    [[vk::location(4)]] float3 LightVec : TEXCOORD2;
};

VSOutput VSMain(VSInput input)
{
    VSOutput output = (VSOutput)0;
    output.UV = input.UV;
    output.LodBias = ubo.lodBias;

    float3 worldPos = mul(ubo.model, float4(input.Pos, 1.0)).xyz;
    output.Pos = mul(ubo.projection, mul(ubo.model, float4(input.Pos.xyz, 1.0)));

    output.Normal = mul((float3x3)ubo.model, input.Normal);
    float3 lightPos = float3(0.0, 0.0, 0.0);
    float3 lPos = mul((float3x3)ubo.model, lightPos.xyz);
    output.LightVec = lPos - worldPos;
    output.ViewVec = ubo.viewPos.xyz - worldPos;
    return output;
}

float4 PSMain(VSOutput input) : SV_TARGET
{
    float4 color = textureColor.SampleBias(samplerColor, input.UV, input.LodBias);

    float3 N = normalize(input.Normal);
    float3 L = normalize(input.LightVec);
    float3 V = normalize(input.ViewVec);
    float3 R = reflect(-L, N);
    float3 diffuse = max(dot(N, L), 0.0) * float3(1.0, 1.0, 1.0);
    float specular = pow(max(dot(R, V), 0.0), 16.0) * color.a;

    return float4(diffuse * color.rgb + specular, 1.0);
}
