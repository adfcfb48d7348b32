// legalis: -entry main -stage vertex
// Matrix element access: _m00, _11, multi-element swizzles, double indexing, arrays of matrices.

cbuffer Transforms : register(b0)
{
    float4x4 world;
    float4x4 viewProj;
    float3x3 normalMat;
    float4x4 palette[8];
    row_major float3x4 rowMajor;
    column_major float4x3 colMajor;
};

struct VSIn
{
    float3 pos : POSITION;
    float3 nrm : NORMAL;
    uint4 bones : BLENDINDICES;
};

struct VSOut
{
    float4 pos : SV_Position;
    float3 nrm : NORMAL;
    float4 dbg : TEXCOORD0;
};

VSOut main(VSIn v)
{
    VSOut o;
    float4x4 m = palette[v.bones.x];
    m._m00 += 0.0f;
    m._14 = world._14;
    float2 diag = m._11_22;
    float4 trans = world._m30_m31_m32_m33;
    float e = m[1][2] + world[3].w + palette[v.bones.y][2][1];
    m[0] = float4(m[0].xyz, 0.0f);
    m[2][3] = e * 0.0f;
    float3x3 n = normalMat;
    n._m01_m10 = n._m10_m01;
    float4 wp = mul(float4(v.pos, 1.0f), mul(m, world));
    o.pos = mul(wp, viewProj);
    o.nrm = mul(v.nrm, n);
    float3 r = mul(rowMajor, float4(v.pos, 1.0f));
    float3 c = mul(float4(v.pos, 1.0f), colMajor);
    o.dbg = float4(diag, trans.x + r.x + c.y, e);
    return o;
}
