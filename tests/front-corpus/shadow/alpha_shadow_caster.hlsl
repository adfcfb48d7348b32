// legalis: -entry VS -stage vertex
// legalis: -entry PS -stage pixel
// Alpha-tested shadow caster: depth-only pass with clip().

cbuffer Transform : register(b0)
{
    float4x4 lightMVP;
    float alphaRef;
};

Texture2D<float4> Diffuse : register(t0);
SamplerState PointWrap : register(s0);

struct V2P
{
    float4 pos : SV_POSITION;
    float2 uv : TEXCOORD0;
};

V2P VS(float3 pos : POSITION, float2 uv : TEXCOORD0)
{
    V2P o;
    o.pos = mul(lightMVP, float4(pos, 1));
    o.uv = uv;
    return o;
}

void PS(V2P input)
{
    clip(Diffuse.Sample(PointWrap, input.uv).a - alphaRef);
}
