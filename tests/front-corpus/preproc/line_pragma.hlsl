// legalis: -entry main -stage compute
// #line, #pragma (pack_matrix, once, warning, unknown), empty directive, continued lines.

#pragma once
#pragma pack_matrix(row_major)
#pragma warning(disable : 3571)
#pragma some_vendor_extension
#

#line 100
#define LONG_EXPR(a, b) \
    (a) * 3 + \
    (b) * 5 - \
    1

cbuffer CB : register(b0)
{
    float4x4 gM;
};

RWStructuredBuffer<float4> gOut : register(u0);

#line 200 "virtual_file.hlsl"
[numthreads(32, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    int v = LONG_EXPR((int)id.x, 2);
    gOut[id.x] = mul(float4((float)v, 0, 0, 1), gM);
}
