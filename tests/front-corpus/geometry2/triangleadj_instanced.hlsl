// legalis: -entry main -stage geometry
// triangleadj input with [instance(n)], SV_GSInstanceID, SV_RenderTargetArrayIndex and SV_PrimitiveID.

cbuffer Faces : register(b0)
{
    float4x4 gFaceVP[6];
};

struct VSOut
{
    float4 worldPos : POSITION;
};

struct GSOut
{
    float4 pos : SV_Position;
    uint layer : SV_RenderTargetArrayIndex;
    uint prim : TEXCOORD0;
};

[instance(6)]
[maxvertexcount(3)]
void main(triangleadj VSOut v[6], uint instance : SV_GSInstanceID, uint prim : SV_PrimitiveID, inout TriangleStream<GSOut> stream)
{
    [unroll]
    for (int i = 0; i < 6; i += 2)
    {
        GSOut o;
        o.pos = mul(gFaceVP[instance], v[i].worldPos);
        o.layer = instance;
        o.prim = prim;
        stream.Append(o);
    }
}
