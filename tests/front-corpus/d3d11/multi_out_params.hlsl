// legalis: -entry VSMain -stage vertex
// legalis: -entry PSMain -stage pixel
// Entry points with many loose in/out parameters instead of structs.

cbuffer Globals : register(b0)
{
    row_major float4x4 WVP;
    row_major float4x4 W;
    float4 FogParams;
    float4 FogColor;
};

Texture2D Tex0 : register(t0);
SamplerState Samp0 : register(s0);

void VSMain(in float3 inPos : POSITION,
            in float2 inUV : TEXCOORD0,
            in float4 inColor : COLOR0,
            out float4 outPos : SV_Position,
            out float2 outUV : TEXCOORD0,
            out float4 outColor : COLOR0,
            out float outFog : FOG)
{
    outPos = mul(float4(inPos, 1), WVP);
    float3 wp = mul(float4(inPos, 1), W).xyz;
    outUV = inUV;
    outColor = inColor;
    outFog = saturate((FogParams.y - length(wp)) * FogParams.z);
}

void PSMain(in float4 pos : SV_Position,
            in float2 uv : TEXCOORD0,
            in float4 color : COLOR0,
            in float fog : FOG,
            out float4 result : SV_Target0)
{
    float4 c = Tex0.Sample(Samp0, uv) * color;
    result = float4(lerp(FogColor.rgb, c.rgb, fog), c.a);
}
