// legalis: -entry main -stage pixel
// Texture Gather, CalculateLevelOfDetail, offsets and GetDimensions with mip count.

Texture2D<float> DepthTex : register(t0);
Texture2D<float4> ColorTex : register(t1);
SamplerState PointClamp : register(s0);
SamplerState Trilinear : register(s1);

float4 main(float4 pos : SV_Position, float2 uv : TEXCOORD0) : SV_Target
{
    float4 depths = DepthTex.Gather(PointClamp, uv);
    float4 reds = ColorTex.GatherRed(PointClamp, uv, int2(1, 0));
    float lod = ColorTex.CalculateLevelOfDetail(Trilinear, uv);
    uint w, h, mips;
    ColorTex.GetDimensions(0, w, h, mips);
    float4 c = ColorTex.SampleLevel(Trilinear, uv, min(lod, mips - 1.0));
    float4 offsetSample = ColorTex.Sample(Trilinear, uv, int2(-1, 1));
    float4 grad = ColorTex.SampleGrad(Trilinear, uv, ddx(uv), ddy(uv));
    float edge = max(max(depths.x, depths.y), max(depths.z, depths.w)) - min(min(depths.x, depths.y), min(depths.z, depths.w));
    return lerp(c, (offsetSample + grad) * 0.5, saturate(edge * 10.0)) + reds * 0.0;
}
