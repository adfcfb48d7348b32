// legalis: -entry GSSilhouette -stage geometry
// Silhouette edge extraction from triangles with adjacency into a line stream.

cbuffer EdgeCB : register(b0)
{
    float4x4 viewProj;
    float3 eyePos;
};

struct VSOut
{
    float3 worldPos : POSITION;
};

struct LineVertex
{
    float4 pos : SV_Position;
    float4 color : COLOR;
};

bool FacesEye(float3 a, float3 b, float3 c)
{
    float3 n = cross(b - a, c - a);
    return dot(n, eyePos - a) > 0;
}

void EmitEdge(float3 a, float3 b, inout LineStream<LineVertex> stream)
{
    LineVertex v;
    v.color = float4(0, 0, 0, 1);
    v.pos = mul(viewProj, float4(a, 1));
    stream.Append(v);
    v.pos = mul(viewProj, float4(b, 1));
    stream.Append(v);
    stream.RestartStrip();
}

[maxvertexcount(6)]
void GSSilhouette(triangleadj VSOut v[6], inout LineStream<LineVertex> stream)
{
    float3 p0 = v[0].worldPos, p2 = v[2].worldPos, p4 = v[4].worldPos;
    if (!FacesEye(p0, p2, p4))
        return;
    if (!FacesEye(p0, v[1].worldPos, p2))
        EmitEdge(p0, p2, stream);
    if (!FacesEye(p2, v[3].worldPos, p4))
        EmitEdge(p2, p4, stream);
    if (!FacesEye(p4, v[5].worldPos, p0))
        EmitEdge(p4, p0, stream);
}
