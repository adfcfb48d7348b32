// legalis: -entry GSWire -stage geometry
// legalis: -entry PSWire -stage pixel
// Solid-wireframe: the GS computes edge distances, the PS blends the lines.

cbuffer WireCB : register(b0)
{
    float2 viewportSize;
    float lineWidth;
    float pad;
    float4 lineColor;
    float4 fillColor;
};

struct VSOutput
{
    float4 position : SV_Position;
    float3 normal : NORMAL;
};

struct GSOutput
{
    float4 position : SV_Position;
    float3 normal : NORMAL;
    noperspective float3 edgeDist : TEXCOORD0;
    nointerpolation uint primId : TEXCOORD1;
};

float2 ToScreen(float4 clip)
{
    return clip.xy / clip.w * viewportSize * 0.5;
}

[maxvertexcount(3)]
void GSWire(triangle VSOutput tri[3], uint primId : SV_PrimitiveID, inout TriangleStream<GSOutput> stream)
{
    float2 p0 = ToScreen(tri[0].position);
    float2 p1 = ToScreen(tri[1].position);
    float2 p2 = ToScreen(tri[2].position);
    float2 e0 = p2 - p1;
    float2 e1 = p2 - p0;
    float2 e2 = p1 - p0;
    float area = abs(e1.x * e2.y - e1.y * e2.x);

    float3 dists[3] = {
        float3(area / length(e0), 0, 0),
        float3(0, area / length(e1), 0),
        float3(0, 0, area / length(e2))
    };

    [unroll]
    for (int i = 0; i < 3; ++i)
    {
        GSOutput o;
        o.position = tri[i].position;
        o.normal = tri[i].normal;
        o.edgeDist = dists[i];
        o.primId = primId;
        stream.Append(o);
    }
}

float4 PSWire(GSOutput input) : SV_Target
{
    float d = min(input.edgeDist.x, min(input.edgeDist.y, input.edgeDist.z));
    float t = exp2(-2.0 * d * d / (lineWidth * lineWidth));
    float shade = 0.4 + 0.6 * saturate(normalize(input.normal).z);
    return lerp(fillColor * shade, lineColor, t);
}
