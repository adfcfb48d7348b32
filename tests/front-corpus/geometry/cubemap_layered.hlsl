// legalis: -entry VSMain -stage vertex
// legalis: -entry GSMain -stage geometry
// legalis: -entry PSMain -stage pixel
// Single-pass cube shadow map: geometry shader instancing over six faces.

cbuffer CubeCB : register(b0)
{
    float4x4 faceViewProj[6];
    float3 lightPos;
    float farPlane;
};

cbuffer ObjectCB : register(b1)
{
    float4x4 model;
};

struct VSOut
{
    float4 worldPos : POSITION;
};

struct GSOut
{
    float4 pos : SV_Position;
    float3 worldPos : TEXCOORD0;
    uint face : SV_RenderTargetArrayIndex;
};

VSOut VSMain(float3 pos : POSITION)
{
    VSOut o;
    o.worldPos = mul(model, float4(pos, 1.0));
    return o;
}

[instance(6)]
[maxvertexcount(3)]
void GSMain(triangle VSOut input[3], uint instanceId : SV_GSInstanceID, inout TriangleStream<GSOut> output)
{
    for (uint v = 0; v < 3; ++v)
    {
        GSOut o;
        o.pos = mul(faceViewProj[instanceId], input[v].worldPos);
        o.worldPos = input[v].worldPos.xyz;
        o.face = instanceId;
        output.Append(o);
    }
    output.RestartStrip();
}

float PSMain(GSOut input) : SV_Depth
{
    return length(input.worldPos - lightPos) / farPlane;
}
