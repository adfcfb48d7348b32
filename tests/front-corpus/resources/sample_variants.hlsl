// legalis: -entry main -stage fragment
// SampleGrad, SampleBias, SampleCmp, SampleCmpLevelZero, Gather*, CalculateLevelOfDetail, offsets.

Texture2D<float4> gTex : register(t0);
Texture2D<float> gShadow : register(t1);
Texture2DArray<float4> gArr : register(t2);
TextureCube<float4> gCube : register(t3);
SamplerState gSamp : register(s0);
SamplerComparisonState gCmp : register(s1);

float4 main(float2 uv : TEXCOORD0, float3 dir : TEXCOORD1, float4 shadowPos : TEXCOORD2) : SV_Target
{
    float2 dx = ddx(uv);
    float2 dy = ddy(uv);
    float4 a = gTex.SampleGrad(gSamp, uv, dx, dy);
    float4 b = gTex.SampleBias(gSamp, uv, -0.5f);
    float4 c = gTex.SampleLevel(gSamp, uv, 1.0f, int2(1, -1));
    float4 d = gTex.Sample(gSamp, uv, int2(2, 0));
    float4 g = gTex.GatherRed(gSamp, uv);
    float4 gg = gTex.GatherGreen(gSamp, uv, int2(1, 1));
    float4 gb = gTex.GatherBlue(gSamp, uv);
    float4 ga = gTex.GatherAlpha(gSamp, uv);
    float4 g0 = gTex.Gather(gSamp, uv);
    float lod = gTex.CalculateLevelOfDetail(gSamp, uv);
    float lodU = gTex.CalculateLevelOfDetailUnclamped(gSamp, uv);
    float s0 = gShadow.SampleCmp(gCmp, shadowPos.xy, shadowPos.z);
    float s1 = gShadow.SampleCmpLevelZero(gCmp, shadowPos.xy, shadowPos.z, int2(1, 0));
    float4 gc = gShadow.GatherCmp(gCmp, shadowPos.xy, shadowPos.z);
    float4 ag = gArr.SampleGrad(gSamp, float3(uv, 1.0f), dx, dy);
    float4 cg = gCube.SampleGrad(gSamp, dir, ddx(dir), ddy(dir));
    float4 cb = gCube.SampleBias(gSamp, dir, 1.0f);
    float4 sum = a + b + c + d + g + gg + gb + ga + g0 + gc + ag + cg + cb;
    return sum * (lod + lodU + s0 + s1);
}
