// legalis: -entry main -stage vertex
// Vertex inputs of many formats and semantics, SV_VertexID/InstanceID, [vk::location] pins, interpolation qualifiers on outputs.

struct VSIn
{
    [[vk::location(0)]] float3 position : POSITION0;
    [[vk::location(1)]] float3 normal : NORMAL0;
    [[vk::location(2)]] float4 tangent : TANGENT0;
    [[vk::location(3)]] float2 uv0 : TEXCOORD0;
    [[vk::location(4)]] float2 uv1 : TEXCOORD1;
    [[vk::location(5)]] float4 color : COLOR0;
    [[vk::location(6)]] uint4 joints : BLENDINDICES0;
    [[vk::location(7)]] float4 weights : BLENDWEIGHT0;
    uint vid : SV_VertexID;
    uint iid : SV_InstanceID;
};

struct VSOut
{
    float4 pos : SV_Position;
    nointerpolation uint instance : TEXCOORD0;
    linear float2 uv : TEXCOORD1;
    centroid float4 color : COLOR0;
    noperspective float depth : TEXCOORD2;
    sample float3 normal : NORMAL;
    centroid float3 tangent : TANGENT;
};

VSOut main(VSIn v)
{
    VSOut o;
    o.pos = float4(v.position + v.normal * 0.01f * (float)(v.vid & 1), 1.0f);
    o.instance = v.iid;
    o.uv = v.uv0 + v.uv1;
    o.color = v.color * dot(v.weights, 1.0f) + (float)v.joints.x * 0.0f;
    o.depth = o.pos.z;
    o.normal = v.normal;
    o.tangent = v.tangent.xyz * v.tangent.w;
    return o;
}
