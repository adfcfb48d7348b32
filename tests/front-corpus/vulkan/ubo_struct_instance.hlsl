// legalis: -entry main -stage vertex
// cbuffer declared with a trailing instance name, the way some ports write it.

struct UBOData
{
    float4x4 viewProj;
    float4x4 world;
    float time;
    float3 _pad;
};

ConstantBuffer<UBOData> ubo : register(b0);

struct VertexIn
{
    [[vk::location(0)]] float3 position : POSITION;
    [[vk::location(1)]] float4 color : COLOR;
};

struct VertexOut
{
    float4 position : SV_Position;
    [[vk::location(0)]] float4 color : COLOR;
};

VertexOut main(VertexIn vin)
{
    VertexOut vout;
    float3 p = vin.position;
    p.y += sin(ubo.time + p.x * 4.0) * 0.05;
    vout.position = mul(ubo.viewProj, mul(ubo.world, float4(p, 1.0f)));
    vout.color = vin.color;
    return vout;
}
