// legalis: -entry main -stage compute
// Rarely used type spellings: 1-wide vectors, generic vector/matrix forms.

RWStructuredBuffer<float4> gOut : register(u0);

float1 scale1(float1 v) { return v * 2.0f; }

float2x3 rows(float3 v) { return float2x3(v, v * 2.0f); }

vector<int, 2> twice(vector<int, 2> v) { return v * 2; }

matrix<half, 3, 3> halfIdentity()
{
    return matrix<half, 3, 3>(1, 0, 0, 0, 1, 0, 0, 0, 1);
}

[numthreads(64, 1, 1)]
void main(uint3 tid : SV_DispatchThreadID)
{
    float1 a = 3.0f;
    float1 b = scale1(a);
    float2x3 r = rows(float3(1, 2, 3));
    float3x2 col = transpose(r);
    vector<int, 2> v = twice(int2(tid.xy));
    vector<float, 4> w = vector<float, 4>(1, 2, 3, 4);
    matrix<float, 2, 3> m23 = { 1, 2, 3, 4, 5, 6 };
    matrix<half, 3, 3> h = halfIdentity();
    int1 i1 = int1(5);
    uint2x2 um = uint2x2(1, 2, 3, 4);
    bool1 flag = b.x > 1.0f;
    float s = b.x + r._m02 + col._m10 + (float)v.y + w.w + m23._m12 + (float)h._m22 + (float)i1.x + (float)um._m11;
    gOut[tid.x] = flag.x ? float4(s, 0, 0, 1) : 0;
}
