// legalis: -entry VSMain -stage vertex
// legalis: -entry PSMain -stage pixel
// Instanced rocks: per-instance attributes in a second vertex stream.

struct VSInput
{
    [[vk::location(0)]] float3 Pos : POSITION0;
    [[vk::location(1)]] float3 Normal : NORMAL0;
    [[vk::location(2)]] float2 UV : TEXCOORD0;
    [[vk::location(3)]] float3 Color : COLOR0;

    // Instanced attributes
    [[vk::location(4)]] float3 instancePos : POSITION1;
    [[vk::location(5)]] float3 instanceRot : TEXCOORD1;
    [[vk::location(6)]] float instanceScale : TEXCOORD2;
    [[vk::location(7)]] int instanceTexIndex : TEXCOORD3;
};

struct UBO
{
    float4x4 projection;
    float4x4 modelview;
    float4 lightPos;
    float locSpeed;
    float globSpeed;
};

cbuffer ubo : register(b0) { UBO ubo; }

Texture2DArray textureArray : register(t1);
SamplerState samplerArray : register(s1);

struct VSOutput
{
    float4 Pos : SV_POSITION;
    [[vk::location(0)]] float3 Normal : NORMAL0;
    [[vk::location(1)]] float3 Color : COLOR0;
    [[vk::location(2)]] float3 UV : TEXCOORD0;
    [[vk::location(3)]] float3 ViewVec : TEXCOORD1;
    [[vk::location(4)]] float3 LightVec : TEXCOORD2;
};

float3x3 rotationX(float a)
{
    float s = sin(a), c = cos(a);
    return float3x3(1.0, 0.0, 0.0,
                    0.0, c, s,
                    0.0, -s, c);
}

float3x3 rotationY(float a)
{
    float s = sin(a), c = cos(a);
    return float3x3(c, 0.0, s,
                    0.0, 1.0, 0.0,
                    -s, 0.0, c);
}

float3x3 rotationZ(float a)
{
    float s = sin(a), c = cos(a);
    return float3x3(c, s, 0.0,
                    -s, c, 0.0,
                    0.0, 0.0, 1.0);
}

VSOutput VSMain(VSInput input, uint instanceId : SV_InstanceID)
{
    VSOutput output = (VSOutput)0;
    output.Color = input.Color;
    output.UV = float3(input.UV, input.instanceTexIndex);

    float3x3 rot = mul(rotationZ(input.instanceRot.z),
                   mul(rotationY(input.instanceRot.y + ubo.locSpeed),
                       rotationX(input.instanceRot.x)));

    float gAngle = ubo.globSpeed + float(instanceId) * 0.001;
    float4x4 gRot = float4x4(cos(gAngle), 0.0, sin(gAngle), 0.0,
                             0.0, 1.0, 0.0, 0.0,
                             -sin(gAngle), 0.0, cos(gAngle), 0.0,
                             0.0, 0.0, 0.0, 1.0);

    float3 locPos = mul(rot, input.Pos.xyz);
    float4 pos = float4((locPos * input.instanceScale) + input.instancePos, 1.0);

    output.Pos = mul(ubo.projection, mul(ubo.modelview, mul(gRot, pos)));
    output.Normal = mul((float3x3)mul(ubo.modelview, gRot), mul(rot, input.Normal));

    pos = mul(ubo.modelview, float4(input.Pos.xyz + input.instancePos, 1.0));
    float3 lPos = mul((float3x3)ubo.modelview, ubo.lightPos.xyz);
    output.LightVec = lPos - pos.xyz;
    output.ViewVec = -pos.xyz;
    return output;
}

float4 PSMain(VSOutput input) : SV_TARGET
{
    float4 color = textureArray.Sample(samplerArray, input.UV) * float4(input.Color, 1.0);
    float3 N = normalize(input.Normal);
    float3 L = normalize(input.LightVec);
    float3 V = normalize(input.ViewVec);
    float3 R = reflect(-L, N);
    float3 diffuse = max(dot(N, L), 0.1) * input.Color;
    float3 specular = (dot(N, L) > 0.0) ? pow(max(dot(R, V), 0.0), 16.0) * float3(0.75, 0.75, 0.75) * color.r : float3(0.0, 0.0, 0.0);
    return float4(diffuse * color.rgb + specular, 1.0);
}
