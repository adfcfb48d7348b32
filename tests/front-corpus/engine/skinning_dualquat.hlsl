// legalis: -entry VSMain -stage vertex
// Dual-quaternion skinning, bones fetched from a StructuredBuffer.

struct DualQuat
{
    float4 real;
    float4 dual;
};

cbuffer Camera : register(b0)
{
    float4x4 viewProj;
};

cbuffer Instance : register(b1)
{
    float4x4 model;
    uint boneOffset;
};

StructuredBuffer<DualQuat> boneDQ : register(t0);

struct VIn
{
    float3 pos : POSITION;
    float3 normal : NORMAL;
    float2 uv : TEXCOORD;
    int4 joints : BLENDINDICES;
    float4 weights : BLENDWEIGHT;
};

struct VOut
{
    float4 pos : SV_POSITION;
    float3 normal : NORMAL;
    float2 uv : TEXCOORD;
};

float3 QuatRotate(float4 q, float3 v)
{
    return v + 2.0 * cross(q.xyz, cross(q.xyz, v) + q.w * v);
}

float3 DQTransformPoint(DualQuat dq, float3 p)
{
    float3 t = 2.0 * (dq.real.w * dq.dual.xyz - dq.dual.w * dq.real.xyz + cross(dq.real.xyz, dq.dual.xyz));
    return QuatRotate(dq.real, p) + t;
}

DualQuat BlendDQ(int4 joints, float4 weights)
{
    DualQuat d0 = boneDQ[boneOffset + joints.x];
    DualQuat result;
    result.real = d0.real * weights.x;
    result.dual = d0.dual * weights.x;
    for (int k = 1; k < 4; ++k)
    {
        DualQuat dk = boneDQ[boneOffset + joints[k]];
        float w = weights[k];
        if (dot(d0.real, dk.real) < 0.0)
            w = -w;
        result.real += dk.real * w;
        result.dual += dk.dual * w;
    }
    float len = length(result.real);
    result.real /= len;
    result.dual /= len;
    return result;
}

VOut VSMain(VIn v)
{
    DualQuat dq = BlendDQ(v.joints, v.weights);
    float3 p = DQTransformPoint(dq, v.pos);
    float3 n = QuatRotate(dq.real, v.normal);
    VOut o;
    o.pos = mul(viewProj, mul(model, float4(p, 1.0)));
    o.normal = mul((float3x3)model, n);
    o.uv = v.uv;
    return o;
}
