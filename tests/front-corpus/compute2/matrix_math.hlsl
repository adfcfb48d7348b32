// legalis: -entry main -stage compute
// Matrix utilities: determinant, inverse by cofactors, transpose, outer product, matrix-scalar ops, arrays of matrices.

StructuredBuffer<float4x4> gIn : register(t0);
RWStructuredBuffer<float4x4> gOut : register(u0);

float3x3 inverse3(float3x3 m)
{
    float3 a = m[0], b = m[1], c = m[2];
    float3 r0 = cross(b, c);
    float3 r1 = cross(c, a);
    float3 r2 = cross(a, b);
    float invDet = 1.0f / dot(r2, c);
    return transpose(float3x3(r0, r1, r2)) * invDet;
}

float3x3 outer(float3 a, float3 b)
{
    return float3x3(a * b.x, a * b.y, a * b.z);
}

float4x4 compose(float3 t, float3x3 r, float s)
{
    float4x4 m = 0;
    m._11_12_13 = r[0] * s;
    m._21_22_23 = r[1] * s;
    m._31_32_33 = r[2] * s;
    m._14_24_34 = t;
    m._44 = 1.0f;
    return m;
}

[numthreads(32, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float4x4 m = gIn[id.x];
    float3x3 upper = (float3x3)m;
    float det = determinant(upper);
    float det4 = determinant(m);
    float3x3 inv = abs(det) > 1e-6f ? inverse3(upper) : upper;
    float3x3 sym = (upper + transpose(upper)) * 0.5f;
    float3x3 o = outer(upper[0], upper[1]);
    float3x3 stack[3] = { inv, sym, o };
    float3x3 acc = stack[0];
    for (int i = 1; i < 3; i++)
        acc = mul(acc, stack[i]);
    float2x2 small = float2x2(m._11, m._12, m._21, m._22);
    small *= 2.0f;
    small += float2x2(1, 0, 0, 1);
    float4x4 r = compose(m[3].xyz, acc, det4 + small._11);
    gOut[id.x] = r;
}
