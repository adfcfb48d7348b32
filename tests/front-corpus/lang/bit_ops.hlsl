// legalis: -entry main -stage compute
// firstbithigh/firstbitlow/countbits/reversebits, shifts of signed values, constant div/mod.

RWStructuredBuffer<uint4> gOut : register(u0);
StructuredBuffer<int> gIn : register(t0);

uint log2Floor(uint v) { return firstbithigh(v); }

uint mortonEncode2(uint x, uint y)
{
    x &= 0x0000FFFF;
    x = (x ^ (x << 8)) & 0x00FF00FF;
    x = (x ^ (x << 4)) & 0x0F0F0F0F;
    x = (x ^ (x << 2)) & 0x33333333;
    x = (x ^ (x << 1)) & 0x55555555;
    y &= 0x0000FFFF;
    y = (y ^ (y << 8)) & 0x00FF00FF;
    y = (y ^ (y << 4)) & 0x0F0F0F0F;
    y = (y ^ (y << 2)) & 0x33333333;
    y = (y ^ (y << 1)) & 0x55555555;
    return x | (y << 1);
}

[numthreads(64, 1, 1)]
void main(uint3 tid : SV_DispatchThreadID)
{
    int s = gIn[tid.x];
    int arith = s >> 3;
    int left = s << 2;
    uint logical = (uint)s >> 3;
    int hiSigned = firstbithigh(s);
    uint lo = firstbitlow((uint)s);
    uint pop = countbits((uint)s);
    uint rev = reversebits(tid.x);
    uint2 pop2 = countbits(uint2(tid.x, ~tid.x));
    int q = s / 7;
    int r = s % 7;
    uint uq = tid.x / 3u;
    uint ur = tid.x % 16u;
    int negMod = -s % 4;
    uint m = mortonEncode2(tid.x, tid.x >> 1);
    uint notBits = ~m;
    gOut[tid.x] = uint4(
        (uint)(arith + left + hiSigned + q + r + negMod),
        logical ^ lo ^ pop ^ rev,
        pop2.x + pop2.y + uq + ur,
        log2Floor(m | 1u) + notBits);
}
