// legalis: -entry main -stage compute
// 64-bit integer arithmetic: hashing, wide multiply, splitting into halves.

RWStructuredBuffer<uint2> gOut : register(u0);

uint64_t splitmix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

uint2 split(uint64_t v)
{
    return uint2((uint)(v & 0xFFFFFFFFull), (uint)(v >> 32));
}

[numthreads(64, 1, 1)]
void main(uint3 tid : SV_DispatchThreadID)
{
    uint64_t seed = (uint64_t)tid.x << 32 | (uint64_t)tid.y;
    uint64_t h = splitmix64(seed);
    int64_t signedVal = (int64_t)h;
    signedVal = signedVal / 3 - (signedVal % 5);
    uint64_t wide = (uint64_t)tid.x * (uint64_t)0xFFFFFFFFu;
    uint64_t2 pair = uint64_t2(h, wide);
    pair += 1;
    bool bigger = pair.x > pair.y;
    uint2 parts = split(bigger ? pair.x : (uint64_t)signedVal);
    gOut[tid.x] = parts;
}
