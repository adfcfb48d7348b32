// legalis: -entry main -stage vertex
// Several cbuffer spellings seen in the wild, in one file.

struct LightData
{
    float4 position;
    float4 color;
};

// Plain cbuffer with members used unqualified.
cbuffer FrameConstants : register(b0)
{
    float4x4 viewProjection;
    float time;
};

// cbuffer wrapping a single struct member.
cbuffer LightConstants : register(b1)
{
    LightData mainLight;
};

// ConstantBuffer<T> template.
ConstantBuffer<LightData> fillLight : register(b2);

// Structured buffer of per-material colours.
StructuredBuffer<float4> materialColors : register(t0);

struct VSIn
{
    float3 pos : POSITION;
    float3 normal : NORMAL;
    uint material : TEXCOORD0;
};

struct VSOut
{
    float4 pos : SV_Position;
    float4 color : COLOR0;
};

VSOut main(VSIn v)
{
    VSOut o;
    float3 p = v.pos + float3(0, sin(time) * 0.01, 0);
    o.pos = mul(viewProjection, float4(p, 1));
    float3 l1 = normalize(mainLight.position.xyz - p);
    float3 l2 = normalize(fillLight.position.xyz - p);
    float3 lit = mainLight.color.rgb * saturate(dot(v.normal, l1)) + fillLight.color.rgb * saturate(dot(v.normal, l2));
    o.color = float4(materialColors[v.material & 15].rgb * lit, 1);
    return o;
}
