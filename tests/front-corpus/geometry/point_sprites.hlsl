// legalis: -entry VS -stage vertex
// legalis: -entry GS -stage geometry
// legalis: -entry PS -stage pixel
// Point sprites expanded to camera-facing quads in a geometry shader.

cbuffer PerFrame : register(b0)
{
    float4x4 View;
    float4x4 Projection;
    float2 SpriteSize;
    float Time;
};

Texture2D SpriteTexture : register(t0);
SamplerState SpriteSampler : register(s0);

struct VSInput
{
    float3 Position : POSITION;
    float4 Color : COLOR0;
    float Size : PSIZE;
};

struct GSInput
{
    float4 ViewPos : POSITION;
    float4 Color : COLOR0;
    float Size : PSIZE;
};

struct PSInput
{
    float4 Position : SV_POSITION;
    float4 Color : COLOR0;
    float2 TexCoord : TEXCOORD0;
};

GSInput VS(VSInput input)
{
    GSInput o;
    o.ViewPos = mul(View, float4(input.Position, 1.0));
    o.Color = input.Color;
    o.Size = input.Size;
    return o;
}

static const float2 QuadOffsets[4] =
{
    float2(-1.0, 1.0),
    float2(1.0, 1.0),
    float2(-1.0, -1.0),
    float2(1.0, -1.0)
};

[maxvertexcount(4)]
void GS(point GSInput input[1], inout TriangleStream<PSInput> stream)
{
    float2 halfSize = SpriteSize * input[0].Size * 0.5;
    [unroll]
    for (int i = 0; i < 4; ++i)
    {
        PSInput v;
        float4 corner = input[0].ViewPos + float4(QuadOffsets[i] * halfSize, 0.0, 0.0);
        v.Position = mul(Projection, corner);
        v.Color = input[0].Color;
        v.TexCoord = QuadOffsets[i] * float2(0.5, -0.5) + 0.5;
        stream.Append(v);
    }
    stream.RestartStrip();
}

float4 PS(PSInput input) : SV_TARGET
{
    return SpriteTexture.Sample(SpriteSampler, input.TexCoord) * input.Color;
}
