// legalis: -entry HS -stage hull
// legalis: -entry DS -stage domain
// Quad-domain terrain patches with heightmap displacement.

cbuffer PatchCB : register(b0)
{
    float4x4 gViewProj;
    float3 gEyePos;
    float gHeightScale;
    float gMinTess;
    float gMaxTess;
    float gMinDist;
    float gMaxDist;
};

Texture2D<float> gHeightMap : register(t0);
SamplerState gHeightSampler : register(s0);

struct HullIn
{
    float3 PosW : POSITION;
    float2 Tex : TEXCOORD0;
};

struct HullOut
{
    float3 PosW : POSITION;
    float2 Tex : TEXCOORD0;
};

struct QuadPatchTess
{
    float EdgeTess[4] : SV_TessFactor;
    float InsideTess[2] : SV_InsideTessFactor;
};

struct DomainOut
{
    float4 PosH : SV_POSITION;
    float3 PosW : POSITION;
    float2 Tex : TEXCOORD0;
};

float CalcTessFactor(float3 p)
{
    float d = distance(p, gEyePos);
    float s = saturate((d - gMinDist) / (gMaxDist - gMinDist));
    return pow(2, lerp(gMaxTess, gMinTess, s));
}

QuadPatchTess ConstantHS(InputPatch<HullIn, 4> patch)
{
    QuadPatchTess pt;
    float3 e0 = 0.5f * (patch[0].PosW + patch[2].PosW);
    float3 e1 = 0.5f * (patch[0].PosW + patch[1].PosW);
    float3 e2 = 0.5f * (patch[1].PosW + patch[3].PosW);
    float3 e3 = 0.5f * (patch[2].PosW + patch[3].PosW);
    float3 c = 0.25f * (patch[0].PosW + patch[1].PosW + patch[2].PosW + patch[3].PosW);
    pt.EdgeTess[0] = CalcTessFactor(e0);
    pt.EdgeTess[1] = CalcTessFactor(e1);
    pt.EdgeTess[2] = CalcTessFactor(e2);
    pt.EdgeTess[3] = CalcTessFactor(e3);
    pt.InsideTess[0] = CalcTessFactor(c);
    pt.InsideTess[1] = pt.InsideTess[0];
    return pt;
}

[domain("quad")]
[partitioning("fractional_even")]
[outputtopology("triangle_cw")]
[outputcontrolpoints(4)]
[patchconstantfunc("ConstantHS")]
[maxtessfactor(64.0f)]
HullOut HS(InputPatch<HullIn, 4> p, uint i : SV_OutputControlPointID, uint patchId : SV_PrimitiveID)
{
    HullOut hout;
    hout.PosW = p[i].PosW;
    hout.Tex = p[i].Tex;
    return hout;
}

[domain("quad")]
DomainOut DS(QuadPatchTess patchTess, float2 uv : SV_DomainLocation, const OutputPatch<HullOut, 4> quad)
{
    DomainOut dout;
    dout.PosW = lerp(lerp(quad[0].PosW, quad[1].PosW, uv.x), lerp(quad[2].PosW, quad[3].PosW, uv.x), uv.y);
    dout.Tex = lerp(lerp(quad[0].Tex, quad[1].Tex, uv.x), lerp(quad[2].Tex, quad[3].Tex, uv.x), uv.y);
    dout.PosW.y = gHeightMap.SampleLevel(gHeightSampler, dout.Tex, 0).r * gHeightScale;
    dout.PosH = mul(gViewProj, float4(dout.PosW, 1.0f));
    return dout;
}
