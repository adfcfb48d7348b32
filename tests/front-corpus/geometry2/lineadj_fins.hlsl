// legalis: -entry main -stage geometry
// lineadj input expanding silhouette fins into a TriangleStream with RestartStrip.

struct GSIn
{
    float4 pos : SV_Position;
    float3 normal : NORMAL;
};

struct GSOut
{
    float4 pos : SV_Position;
    float2 uv : TEXCOORD0;
};

[maxvertexcount(4)]
void main(lineadj GSIn v[4], inout TriangleStream<GSOut> stream)
{
    float3 e = v[2].pos.xyz - v[1].pos.xyz;
    float facing = dot(v[0].normal, v[3].normal);
    if (facing > 0.0f)
        return;
    float4 up = float4(0, 0.05f, 0, 0);
    GSOut o;
    o.pos = v[1].pos; o.uv = float2(0, 0); stream.Append(o);
    o.pos = v[2].pos; o.uv = float2(1, 0); stream.Append(o);
    o.pos = v[1].pos + up; o.uv = float2(0, 1); stream.Append(o);
    o.pos = v[2].pos + up + float4(e * 0.0f, 0); o.uv = float2(1, 1); stream.Append(o);
    stream.RestartStrip();
}
