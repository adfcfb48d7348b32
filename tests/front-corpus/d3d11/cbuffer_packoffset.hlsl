// legalis: -entry VS -stage vertex
// cbuffer with explicit packoffset placement, as FXC-era code does.

cbuffer cbPerObject : register(b0)
{
    float4x4 mWorldViewProj : packoffset(c0);
    float4x4 mWorld : packoffset(c4);
    float4 vObjectColor : packoffset(c8);
    float fTime : packoffset(c9.x);
    float fWobble : packoffset(c9.y);
};

struct VS_INPUT
{
    float3 Position : POSITION;
    float3 Normal : NORMAL;
};

struct VS_OUTPUT
{
    float4 Position : SV_POSITION;
    float4 Color : COLOR0;
};

VS_OUTPUT VS(VS_INPUT In)
{
    VS_OUTPUT Out;
    float3 p = In.Position + In.Normal * sin(fTime * 3.0 + In.Position.y) * fWobble;
    Out.Position = mul(float4(p, 1.0), mWorldViewProj);
    float3 n = mul(In.Normal, (float3x3)mWorld);
    Out.Color = vObjectColor * (0.5 + 0.5 * n.y);
    return Out;
}
