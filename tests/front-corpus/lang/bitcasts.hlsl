// legalis: -entry main -stage compute
// asuint/asfloat/asint round trips and f32tof16/f16tof32 packing.

StructuredBuffer<float4> gIn : register(t0);
RWByteAddressBuffer gOut : register(u0);

uint packHalf2(float2 v)
{
    return f32tof16(v.x) | (f32tof16(v.y) << 16);
}

float2 unpackHalf2(uint p)
{
    return float2(f16tof32(p & 0xFFFF), f16tof32(p >> 16));
}

float flipSign(float x)
{
    return asfloat(asuint(x) ^ 0x80000000u);
}

int floatOrderKey(float x)
{
    int i = asint(x);
    return i >= 0 ? i : i ^ 0x7FFFFFFF;
}

[numthreads(32, 1, 1)]
void main(uint3 tid : SV_DispatchThreadID)
{
    float4 v = gIn[tid.x];
    uint4 bits = asuint(v);
    float4 back = asfloat(bits);
    int2 ibits = asint(v.xy);
    float2 fromInt = asfloat(ibits);
    uint packed = packHalf2(back.xy + fromInt);
    float2 unpacked = unpackHalf2(packed);
    uint3 h3 = f32tof16(v.xyz);
    float3 f3 = f16tof32(h3);
    float neg = flipSign(f3.z + unpacked.x);
    uint key = (uint)floatOrderKey(neg);
    gOut.Store4(tid.x * 16, uint4(packed, key, asuint(neg), h3.x));
}
