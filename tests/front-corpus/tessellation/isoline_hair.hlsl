// legalis: -entry HairHS -stage hull
// legalis: -entry HairDS -stage domain
// Isoline tessellation for hair strands.

cbuffer HairCB : register(b0)
{
    float4x4 viewProj;
    float density;
    float detail;
};

struct StrandCP
{
    float3 pos : POSITION;
    float width : TEXCOORD0;
};

struct IsoPatch
{
    float lineFactors[2] : SV_TessFactor;
};

IsoPatch HairConstants(InputPatch<StrandCP, 4> ip)
{
    IsoPatch o;
    o.lineFactors[0] = density;
    o.lineFactors[1] = detail;
    return o;
}

[domain("isoline")]
[partitioning("integer")]
[outputtopology("line")]
[outputcontrolpoints(4)]
[patchconstantfunc("HairConstants")]
StrandCP HairHS(InputPatch<StrandCP, 4> ip, uint id : SV_OutputControlPointID)
{
    return ip[id];
}

float3 CatmullRom(float3 p0, float3 p1, float3 p2, float3 p3, float t)
{
    float t2 = t * t;
    float t3 = t2 * t;
    return 0.5 * ((2.0 * p1) + (-p0 + p2) * t + (2.0 * p0 - 5.0 * p1 + 4.0 * p2 - p3) * t2 + (-p0 + 3.0 * p1 - 3.0 * p2 + p3) * t3);
}

struct HairDSOut
{
    float4 pos : SV_Position;
    float width : TEXCOORD0;
    float strand : TEXCOORD1;
};

[domain("isoline")]
HairDSOut HairDS(IsoPatch pc, float2 uv : SV_DomainLocation, const OutputPatch<StrandCP, 4> cps)
{
    HairDSOut o;
    float3 p = CatmullRom(cps[0].pos, cps[1].pos, cps[2].pos, cps[3].pos, uv.x);
    p.x += uv.y * 0.01;
    o.pos = mul(viewProj, float4(p, 1.0));
    o.width = lerp(cps[1].width, cps[2].width, uv.x);
    o.strand = uv.y;
    return o;
}
