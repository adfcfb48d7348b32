// legalis: -entry main -stage fragment
// SV_Barycentrics, EvaluateAttributeAtSample / AtCentroid / Snapped, SV_SampleIndex, SV_Coverage, SV_IsFrontFace.

struct PSIn
{
    float4 pos : SV_Position;
    float3 color : COLOR0;
    float2 uv : TEXCOORD0;
    centroid float2 uvCentroid : TEXCOORD1;
    noperspective float2 screen : TEXCOORD2;
};

struct PSOut
{
    float4 color : SV_Target0;
    uint coverage : SV_Coverage;
};

PSOut main(PSIn i, float3 bary : SV_Barycentrics, uint sampleIdx : SV_SampleIndex, uint inCoverage : SV_Coverage, bool front : SV_IsFrontFace)
{
    PSOut o;
    float2 atSample = EvaluateAttributeAtSample(i.uv, sampleIdx);
    float2 atCentroid = EvaluateAttributeAtCentroid(i.uv);
    float2 snapped = EvaluateAttributeSnapped(i.uv, int2(1, -1));
    float edge = min(bary.x, min(bary.y, bary.z));
    float wire = 1.0f - smoothstep(0.0f, fwidth(edge) * 1.5f, edge);
    o.color = float4(i.color * (front ? 1.0f : 0.5f) + wire, 1.0f);
    o.color.rg += (atSample - atCentroid + snapped - i.uvCentroid + i.screen) * 0.0f;
    o.coverage = inCoverage & 0x5;
    return o;
}
