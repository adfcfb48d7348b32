// legalis: -entry VSMain -stage vertex
// legalis: -entry HSMain -stage hull
// legalis: -entry DSMain -stage domain
// PN-triangles tessellation with distance-based factors.

cbuffer TessCB : register(b0)
{
    float4x4 viewProj;
    float4x4 world;
    float3 cameraPos;
    float tessMaxFactor;
    float tessMinDistance;
    float tessMaxDistance;
    float2 pad;
};

struct VSIn
{
    float3 pos : POSITION;
    float3 normal : NORMAL;
    float2 uv : TEXCOORD0;
};

struct ControlPoint
{
    float3 worldPos : WORLDPOS;
    float3 normal : NORMAL;
    float2 uv : TEXCOORD0;
};

struct PatchConstants
{
    float edges[3] : SV_TessFactor;
    float inside : SV_InsideTessFactor;
    float3 b210 : POSITION3;
    float3 b120 : POSITION4;
    float3 b021 : POSITION5;
    float3 b012 : POSITION6;
    float3 b102 : POSITION7;
    float3 b201 : POSITION8;
    float3 b111 : CENTER;
};

struct DSOut
{
    float4 pos : SV_Position;
    float3 normal : NORMAL;
    float2 uv : TEXCOORD0;
};

ControlPoint VSMain(VSIn v)
{
    ControlPoint o;
    o.worldPos = mul(world, float4(v.pos, 1.0)).xyz;
    o.normal = normalize(mul((float3x3)world, v.normal));
    o.uv = v.uv;
    return o;
}

float DistanceFactor(float3 p)
{
    float d = distance(p, cameraPos);
    float t = saturate((d - tessMinDistance) / (tessMaxDistance - tessMinDistance));
    return lerp(tessMaxFactor, 1.0, t);
}

float3 ProjectToPlane(float3 p, float3 planePoint, float3 planeNormal)
{
    return p - dot(p - planePoint, planeNormal) * planeNormal;
}

PatchConstants PatchConstantFunc(InputPatch<ControlPoint, 3> patch)
{
    PatchConstants pc;
    pc.edges[0] = DistanceFactor(0.5 * (patch[1].worldPos + patch[2].worldPos));
    pc.edges[1] = DistanceFactor(0.5 * (patch[2].worldPos + patch[0].worldPos));
    pc.edges[2] = DistanceFactor(0.5 * (patch[0].worldPos + patch[1].worldPos));
    pc.inside = (pc.edges[0] + pc.edges[1] + pc.edges[2]) / 3.0;

    float3 p0 = patch[0].worldPos, p1 = patch[1].worldPos, p2 = patch[2].worldPos;
    float3 n0 = patch[0].normal, n1 = patch[1].normal, n2 = patch[2].normal;
    pc.b210 = (2.0 * p0 + p1 - dot(p1 - p0, n0) * n0) / 3.0;
    pc.b120 = (2.0 * p1 + p0 - dot(p0 - p1, n1) * n1) / 3.0;
    pc.b021 = (2.0 * p1 + p2 - dot(p2 - p1, n1) * n1) / 3.0;
    pc.b012 = (2.0 * p2 + p1 - dot(p1 - p2, n2) * n2) / 3.0;
    pc.b102 = (2.0 * p2 + p0 - dot(p0 - p2, n2) * n2) / 3.0;
    pc.b201 = (2.0 * p0 + p2 - dot(p2 - p0, n0) * n0) / 3.0;
    float3 e = (pc.b210 + pc.b120 + pc.b021 + pc.b012 + pc.b102 + pc.b201) / 6.0;
    float3 v = (p0 + p1 + p2) / 3.0;
    pc.b111 = e + (e - v) / 2.0;
    return pc;
}

[domain("tri")]
[partitioning("fractional_odd")]
[outputtopology("triangle_cw")]
[outputcontrolpoints(3)]
[patchconstantfunc("PatchConstantFunc")]
[maxtessfactor(64.0)]
ControlPoint HSMain(InputPatch<ControlPoint, 3> patch, uint i : SV_OutputControlPointID, uint patchId : SV_PrimitiveID)
{
    return patch[i];
}

[domain("tri")]
DSOut DSMain(PatchConstants pc, float3 bary : SV_DomainLocation, const OutputPatch<ControlPoint, 3> patch)
{
    float u = bary.x, v = bary.y, w = bary.z;
    float uu = u * u, vv = v * v, ww = w * w;

    float3 pos = patch[0].worldPos * ww * w + patch[1].worldPos * uu * u + patch[2].worldPos * vv * v
               + pc.b210 * 3.0 * ww * u + pc.b120 * 3.0 * w * uu + pc.b201 * 3.0 * ww * v
               + pc.b021 * 3.0 * uu * v + pc.b102 * 3.0 * w * vv + pc.b012 * 3.0 * u * vv
               + pc.b111 * 6.0 * w * u * v;

    DSOut o;
    o.pos = mul(viewProj, float4(pos, 1.0));
    o.normal = normalize(patch[0].normal * w + patch[1].normal * u + patch[2].normal * v);
    o.uv = patch[0].uv * w + patch[1].uv * u + patch[2].uv * v;
    return o;
}
