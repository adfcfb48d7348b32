// legalis: -entry HSMain -stage hull
// legalis: -entry DSMain -stage domain
// Phong tessellation on triangles, fractional_even partitioning, OutputPatch read in the patch-constant function.

struct CP
{
    float3 pos : POSITION;
    float3 nrm : NORMAL;
};

struct TriConst
{
    float edge[3] : SV_TessFactor;
    float inside : SV_InsideTessFactor;
};

TriConst PatchMain(InputPatch<CP, 3> ip, OutputPatch<CP, 3> op)
{
    TriConst c;
    [unroll]
    for (int i = 0; i < 3; i++)
        c.edge[i] = 4.0f + length(op[i].pos - ip[(i + 1) % 3].pos);
    c.inside = (c.edge[0] + c.edge[1] + c.edge[2]) / 3.0f;
    return c;
}

[domain("tri")]
[partitioning("fractional_even")]
[outputtopology("triangle_ccw")]
[outputcontrolpoints(3)]
[patchconstantfunc("PatchMain")]
CP HSMain(InputPatch<CP, 3> ip, uint i : SV_OutputControlPointID)
{
    CP o = ip[i];
    o.nrm = normalize(o.nrm);
    return o;
}

float3 project(float3 p, float3 planeP, float3 n)
{
    return p - dot(p - planeP, n) * n;
}

[domain("tri")]
float4 DSMain(TriConst c, float3 bary : SV_DomainLocation, const OutputPatch<CP, 3> op) : SV_Position
{
    float3 p = bary.x * op[0].pos + bary.y * op[1].pos + bary.z * op[2].pos;
    float3 q = bary.x * project(p, op[0].pos, op[0].nrm) + bary.y * project(p, op[1].pos, op[1].nrm) + bary.z * project(p, op[2].pos, op[2].nrm);
    return float4(lerp(p, q, 0.75f), 1.0f);
}
