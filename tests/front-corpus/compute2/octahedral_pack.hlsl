// legalis: -entry main -stage compute
// Packing helpers: octahedral normals, unorm/snorm 8-bit packing, R11G11B10-style float packing, sRGB.

StructuredBuffer<float4> gNormals : register(t0);
RWByteAddressBuffer gPacked : register(u0);

float2 octWrap(float2 v)
{
    return (1.0f - abs(v.yx)) * select(v.xy >= 0.0f, 1.0f, -1.0f);
}

float2 encodeOct(float3 n)
{
    n /= abs(n.x) + abs(n.y) + abs(n.z);
    n.xy = n.z >= 0.0f ? n.xy : octWrap(n.xy);
    return n.xy * 0.5f + 0.5f;
}

float3 decodeOct(float2 f)
{
    f = f * 2.0f - 1.0f;
    float3 n = float3(f.x, f.y, 1.0f - abs(f.x) - abs(f.y));
    float t = saturate(-n.z);
    n.xy += select(n.xy >= 0.0f, -t, t);
    return normalize(n);
}

uint packUnorm4x8(float4 v)
{
    uint4 u = (uint4)round(saturate(v) * 255.0f);
    return u.x | (u.y << 8) | (u.z << 16) | (u.w << 24);
}

float4 unpackUnorm4x8(uint p)
{
    return float4(p & 0xFF, (p >> 8) & 0xFF, (p >> 16) & 0xFF, p >> 24) / 255.0f;
}

uint packSnorm2x16(float2 v)
{
    int2 i = (int2)round(clamp(v, -1.0f, 1.0f) * 32767.0f);
    return (uint)(i.x & 0xFFFF) | ((uint)i.y << 16);
}

float3 linearToSrgb(float3 c)
{
    float3 lo = c * 12.92f;
    float3 hi = 1.055f * pow(abs(c), 1.0f / 2.4f) - 0.055f;
    return select(c <= 0.0031308f, lo, hi);
}

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float4 n = gNormals[id.x];
    float2 oct = encodeOct(normalize(n.xyz));
    float3 back = decodeOct(oct);
    uint a = packUnorm4x8(float4(linearToSrgb(back * 0.5f + 0.5f), n.w));
    uint b = packSnorm2x16(oct * 2.0f - 1.0f);
    float4 check = unpackUnorm4x8(a);
    gPacked.Store3(id.x * 12, uint3(a, b, asuint(check.w)));
}
