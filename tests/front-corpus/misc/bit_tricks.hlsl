// legalis: -entry main -stage compute
// Bit manipulation and packing intrinsics common in engine code.

StructuredBuffer<uint> Packed : register(t0);
RWStructuredBuffer<float4> Unpacked : register(u0);
RWStructuredBuffer<uint> Codes : register(u1);

uint ExpandBits(uint v)
{
    v = (v * 0x00010001u) & 0xFF0000FFu;
    v = (v * 0x00000101u) & 0x0F00F00Fu;
    v = (v * 0x00000011u) & 0xC30C30C3u;
    v = (v * 0x00000005u) & 0x49249249u;
    return v;
}

uint Morton3D(float3 p)
{
    uint3 q = (uint3)clamp(p * 1024.0, 0.0, 1023.0);
    return ExpandBits(q.x) * 4 + ExpandBits(q.y) * 2 + ExpandBits(q.z);
}

float2 UnpackHalf2(uint v)
{
    return float2(f16tof32(v), f16tof32(v >> 16));
}

[numthreads(128, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint v = Packed[id.x];
    float2 h = UnpackHalf2(v);
    uint lead = firstbithigh(v);
    uint trail = firstbitlow(v);
    uint pop = countbits(v);
    uint rev = reversebits(v);
    float4 r = float4(h, asfloat(rev & 0x3F7FFFFFu), float(lead + trail + pop));
    Unpacked[id.x] = r;
    Codes[id.x] = Morton3D(frac(r.xyz)) ^ (f32tof16(h.x) << 16);
}
