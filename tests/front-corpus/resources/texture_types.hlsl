// legalis: -entry main -stage fragment
// Texture2DArray, TextureCubeArray, Texture3D, Texture1D, Texture1DArray sampled several ways.

Texture1D<float4> gRamp : register(t0);
Texture1DArray<float4> gRamps : register(t1);
Texture2DArray<float4> gLayers : register(t2);
TextureCube<float4> gEnv : register(t3);
TextureCubeArray<float4> gProbes : register(t4);
Texture3D<float4> gVolume : register(t5);
SamplerState gLinear : register(s0);
SamplerState gPoint : register(s1);

float4 main(float4 pos : SV_Position, float3 uvw : TEXCOORD0, float3 dir : TEXCOORD1, nointerpolation uint layer : TEXCOORD2) : SV_Target
{
    float4 r = gRamp.Sample(gLinear, uvw.x);
    float4 rs = gRamps.Sample(gLinear, float2(uvw.x, (float)layer));
    float4 l = gLayers.Sample(gLinear, float3(uvw.xy, (float)layer));
    float4 e = gEnv.Sample(gLinear, dir);
    float4 p = gProbes.Sample(gLinear, float4(dir, (float)layer));
    float4 v = gVolume.Sample(gLinear, uvw);
    float4 vl = gVolume.SampleLevel(gPoint, uvw, 2.0f);
    float4 ll = gLayers.Load(int4((int2)pos.xy, (int)layer, 0));
    float4 v3 = gVolume.Load(int4(1, 2, 3, 0));
    float4 pl = gProbes.SampleLevel(gLinear, float4(dir, 1.0f), 3.0f);
    return (r + rs + l + e + p + v + vl + ll + v3 + pl) * 0.1f;
}
