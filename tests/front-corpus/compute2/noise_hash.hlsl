// legalis: -entry main -stage compute
// Procedural noise: integer hashes, value noise, fbm with a static octave table, uint3/float3 mixing.

RWTexture3D<float> gNoise : register(u0);

static const float kOctaveWeights[6] = { 0.5f, 0.25f, 0.125f, 0.0625f, 0.03125f, 0.015625f };

uint hash3(uint3 v)
{
    v = v * 1664525u + 1013904223u;
    v.x += v.y * v.z;
    v.y += v.z * v.x;
    v.z += v.x * v.y;
    v ^= v >> 16u;
    v.x += v.y * v.z;
    v.y += v.z * v.x;
    v.z += v.x * v.y;
    return v.x ^ v.y ^ v.z;
}

float valueNoise(float3 p)
{
    float3 i = floor(p);
    float3 f = frac(p);
    float3 u = f * f * (3.0f - 2.0f * f);
    uint3 c = (uint3)(int3)i;
    float n000 = (float)(hash3(c) & 0xFFFF) / 65535.0f;
    float n100 = (float)(hash3(c + uint3(1, 0, 0)) & 0xFFFF) / 65535.0f;
    float n010 = (float)(hash3(c + uint3(0, 1, 0)) & 0xFFFF) / 65535.0f;
    float n110 = (float)(hash3(c + uint3(1, 1, 0)) & 0xFFFF) / 65535.0f;
    float n001 = (float)(hash3(c + uint3(0, 0, 1)) & 0xFFFF) / 65535.0f;
    float n101 = (float)(hash3(c + uint3(1, 0, 1)) & 0xFFFF) / 65535.0f;
    float n011 = (float)(hash3(c + uint3(0, 1, 1)) & 0xFFFF) / 65535.0f;
    float n111 = (float)(hash3(c + uint3(1, 1, 1)) & 0xFFFF) / 65535.0f;
    return lerp(lerp(lerp(n000, n100, u.x), lerp(n010, n110, u.x), u.y),
                lerp(lerp(n001, n101, u.x), lerp(n011, n111, u.x), u.y), u.z);
}

[numthreads(4, 4, 4)]
void main(uint3 id : SV_DispatchThreadID)
{
    float3 p = float3(id) * 0.05f;
    float v = 0;
    float freq = 1.0f;
    [unroll]
    for (int o = 0; o < 6; o++)
    {
        v += valueNoise(p * freq) * kOctaveWeights[o];
        freq *= 2.03f;
    }
    gNoise[id] = v;
}
