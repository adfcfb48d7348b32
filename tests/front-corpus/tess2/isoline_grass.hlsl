// legalis: -entry HSMain -stage hull
// legalis: -entry DSMain -stage domain
// Isoline domain: two tess factors (density, detail), integer partitioning, line output.

struct CP
{
    float4 rootAndHeight : POSITION;
};

struct IsoConst
{
    float factors[2] : SV_TessFactor;
};

IsoConst PatchMain(InputPatch<CP, 1> p)
{
    IsoConst o;
    o.factors[0] = 16.0f;
    o.factors[1] = 8.0f;
    return o;
}

[domain("isoline")]
[partitioning("integer")]
[outputtopology("line")]
[outputcontrolpoints(1)]
[patchconstantfunc("PatchMain")]
[maxtessfactor(32)]
CP HSMain(InputPatch<CP, 1> p, uint i : SV_OutputControlPointID)
{
    CP o;
    o.rootAndHeight = p[0].rootAndHeight;
    return o;
}

[domain("isoline")]
float4 DSMain(IsoConst c, float2 t : SV_DomainLocation, const OutputPatch<CP, 1> p) : SV_Position
{
    float3 root = p[0].rootAndHeight.xyz;
    float h = p[0].rootAndHeight.w;
    float blade = t.y * c.factors[0];
    float3 pos = root + float3(blade * 0.1f, t.x * h, sin(t.x * 3.0f) * 0.05f);
    return float4(pos, 1.0f);
}
