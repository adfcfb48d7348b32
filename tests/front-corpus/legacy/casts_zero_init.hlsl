// legalis: -entry main -stage vertex
// Struct zero-initialisation by cast, C-style casts between vectors/matrices/structs-of-scalars; truncating vector casts are left out (the reference rejects them).

struct Output
{
    float4 pos : SV_Position;
    float4 col : COLOR0;
    float2 uv : TEXCOORD0;
};

cbuffer CB : register(b0)
{
    float4x4 gM;
    int4 gI;
};

Output main(float4 p : POSITION, float4 c : COLOR0)
{
    Output o = (Output)0;
    float3 p3 = p.xyz;
    float2 p2 = p3.xy;
    int4 ic = (int4)(c * 255.0f);
    uint4 uc = (uint4)ic;
    float4 back = (float4)uc / 255.0f;
    float3x3 m3 = (float3x3)gM;
    float2x2 m2 = (float2x2)m3;
    float s = (float)gI.x;
    bool b = (bool)gI.y;
    half4 h = (half4)back;
    o.pos = mul(gM, float4(mul(m3, p3), 1.0f));
    o.col = (float4)h * (b ? 1.0f : 0.5f);
    o.uv = mul(m2, p2) + s * 0.0f;
    return o;
}
