// legalis: -entry SpriteVS -stage vertex
// legalis: -entry SpritePS -stage pixel
// 2D sprite batcher: packed colours, texture array index, premultiplied alpha.

cbuffer SpriteCB : register(b0)
{
    float4x4 ortho;
    float2 atlasSize;
};

Texture2DArray SpriteAtlas : register(t0);
SamplerState PointClamp : register(s0);

struct SpriteVertex
{
    float2 pos : POSITION;
    float2 uv : TEXCOORD0;
    uint color : COLOR0;
    uint page : BLENDINDICES0;
};

struct SpriteOut
{
    float4 pos : SV_Position;
    float2 uv : TEXCOORD0;
    float4 color : COLOR0;
    nointerpolation uint page : TEXCOORD1;
};

float4 UnpackRGBA8(uint c)
{
    return float4((c >> 0) & 0xFF, (c >> 8) & 0xFF, (c >> 16) & 0xFF, (c >> 24) & 0xFF) * (1.0 / 255.0);
}

SpriteOut SpriteVS(SpriteVertex v)
{
    SpriteOut o;
    o.pos = mul(ortho, float4(v.pos, 0, 1));
    o.uv = v.uv / atlasSize;
    o.color = UnpackRGBA8(v.color);
    o.page = v.page;
    return o;
}

float4 SpritePS(SpriteOut i) : SV_Target
{
    float4 t = SpriteAtlas.Sample(PointClamp, float3(i.uv, i.page));
    t.rgb *= t.a;
    return t * i.color;
}
