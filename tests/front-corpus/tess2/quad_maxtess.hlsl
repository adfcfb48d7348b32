// legalis: -entry HSMain -stage hull
// legalis: -entry DSMain -stage domain
// Quad domain with [maxtessfactor], fractional_odd partitioning, edge and inside factors arrays.

cbuffer Tess : register(b0)
{
    float4x4 gViewProj;
    float3 gEye;
    float gDetail;
};

Texture2D<float> gHeight : register(t0);
SamplerState gSamp : register(s0);

struct CP
{
    float3 pos : POSITION;
    float2 uv : TEXCOORD0;
};

struct PatchConst
{
    float edges[4] : SV_TessFactor;
    float inside[2] : SV_InsideTessFactor;
    float3 center : CENTER;
};

float edgeFactor(float3 a, float3 b)
{
    float d = distance((a + b) * 0.5f, gEye);
    return clamp(gDetail * length(a - b) / d, 1.0f, 64.0f);
}

PatchConst PatchMain(InputPatch<CP, 4> p)
{
    PatchConst o;
    o.edges[0] = edgeFactor(p[0].pos, p[3].pos);
    o.edges[1] = edgeFactor(p[0].pos, p[1].pos);
    o.edges[2] = edgeFactor(p[1].pos, p[2].pos);
    o.edges[3] = edgeFactor(p[2].pos, p[3].pos);
    o.inside[0] = max(o.edges[1], o.edges[3]);
    o.inside[1] = max(o.edges[0], o.edges[2]);
    o.center = (p[0].pos + p[1].pos + p[2].pos + p[3].pos) * 0.25f;
    return o;
}

[domain("quad")]
[partitioning("fractional_odd")]
[outputtopology("triangle_cw")]
[outputcontrolpoints(4)]
[patchconstantfunc("PatchMain")]
[maxtessfactor(64.0f)]
CP HSMain(InputPatch<CP, 4> p, uint i : SV_OutputControlPointID, uint prim : SV_PrimitiveID)
{
    return p[i];
}

struct DSOut
{
    float4 pos : SV_Position;
    float2 uv : TEXCOORD0;
};

[domain("quad")]
DSOut DSMain(PatchConst pc, float2 uv : SV_DomainLocation, const OutputPatch<CP, 4> p)
{
    DSOut o;
    float3 a = lerp(p[0].pos, p[1].pos, uv.x);
    float3 b = lerp(p[3].pos, p[2].pos, uv.x);
    float3 pos = lerp(a, b, uv.y);
    float2 ta = lerp(p[0].uv, p[1].uv, uv.x);
    float2 tb = lerp(p[3].uv, p[2].uv, uv.x);
    o.uv = lerp(ta, tb, uv.y);
    pos.y += gHeight.SampleLevel(gSamp, o.uv, 0) + pc.center.y * 0.0f;
    o.pos = mul(gViewProj, float4(pos, 1.0f));
    return o;
}
