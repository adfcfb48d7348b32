// legalis: -entry main -stage fragment
// SV_Depth inside an output struct with SV_Target arrays of outputs, SV_InnerCoverage, SV_SampleIndex-driven per-sample shading.

struct PSOut
{
    float4 color0 : SV_Target0;
    float4 color1 : SV_Target1;
    float depth : SV_Depth;
};

PSOut main(float4 pos : SV_Position, sample float2 uv : TEXCOORD0, uint inner : SV_InnerCoverage, uint si : SV_SampleIndex)
{
    PSOut o;
    o.color0 = float4(uv, (float)si * 0.25f, 1.0f);
    o.color1 = inner != 0 ? float4(1, 1, 1, 1) : float4(0, 0, 0, 1);
    o.depth = saturate(pos.z + 0.001f);
    return o;
}
