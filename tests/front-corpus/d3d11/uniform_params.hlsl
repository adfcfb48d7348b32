// legalis: -entry VSLit -stage vertex
// legalis: -entry PSLit -stage pixel
// D3D9-heritage shader: globals outside cbuffers, uniform entry-point parameters, out params.

float4x4 g_mWorld;
float4x4 g_mWorldViewProjection;
float3 g_vLightDir = float3(0, -1, 0);
float4 g_vMaterialDiffuse;
float4 g_vAmbient;

Texture2D g_txDiffuse;
SamplerState g_samLinear;

void VSLit(float4 vPos : POSITION,
           float3 vNormal : NORMAL,
           float2 vTexCoord0 : TEXCOORD0,
           out float4 oPos : SV_POSITION,
           out float4 oDiffuse : COLOR0,
           out float2 oTexCoord0 : TEXCOORD0)
{
    oPos = mul(vPos, g_mWorldViewProjection);
    float3 vNormalWorld = normalize(mul(vNormal, (float3x3)g_mWorld));
    oDiffuse.rgb = g_vMaterialDiffuse.rgb * max(0, dot(vNormalWorld, -g_vLightDir)) + g_vAmbient.rgb;
    oDiffuse.a = 1.0f;
    oTexCoord0 = vTexCoord0;
}

float4 PSLit(float4 Diffuse : COLOR0, float2 TexCoord : TEXCOORD0, uniform bool bTexture) : SV_Target
{
    if (bTexture)
        return g_txDiffuse.Sample(g_samLinear, TexCoord) * Diffuse;
    return Diffuse;
}
