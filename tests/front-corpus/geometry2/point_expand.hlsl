// legalis: -entry main -stage geometry
// point input expanded to a LineStream cross plus scalar (non-array) per-vertex input forms.

struct VSOut
{
    float4 pos : SV_Position;
    float size : PSIZE;
    float4 color : COLOR0;
};

struct GSOut
{
    float4 pos : SV_Position;
    float4 color : COLOR0;
};

[maxvertexcount(4)]
void main(point VSOut v[1], inout LineStream<GSOut> lines)
{
    float s = v[0].size;
    GSOut o;
    o.color = v[0].color;
    o.pos = v[0].pos + float4(-s, 0, 0, 0); lines.Append(o);
    o.pos = v[0].pos + float4(s, 0, 0, 0); lines.Append(o);
    lines.RestartStrip();
    o.pos = v[0].pos + float4(0, -s, 0, 0); lines.Append(o);
    o.pos = v[0].pos + float4(0, s, 0, 0); lines.Append(o);
}
