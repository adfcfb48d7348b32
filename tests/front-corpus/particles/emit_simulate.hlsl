// legalis: -entry Emit -stage compute
// legalis: -entry Simulate -stage compute
// Particle system: emit from a dead list, simulate, append survivors.

struct Particle
{
    float3 position;
    float age;
    float3 velocity;
    float lifetime;
    float4 color;
    float size;
    uint seed;
    float2 pad;
};

cbuffer EmitterCB : register(b0)
{
    float3 emitterPosition;
    float emitRate;
    float3 emitterVelocity;
    float deltaTime;
    float3 gravity;
    uint emitCount;
    float4 startColor;
    float4 endColor;
    float startSize;
    float endSize;
    float drag;
    uint frameIndex;
};

RWStructuredBuffer<Particle> ParticlePool : register(u0);
ConsumeStructuredBuffer<uint> DeadList : register(u1);
AppendStructuredBuffer<uint> AliveListOut : register(u2);
StructuredBuffer<uint> AliveListIn : register(t0);
AppendStructuredBuffer<uint> DeadListAppend : register(u3);
ByteAddressBuffer Counters : register(t1);
RWByteAddressBuffer DrawArgs : register(u4);

uint WangHash(uint seed)
{
    seed = (seed ^ 61) ^ (seed >> 16);
    seed *= 9;
    seed = seed ^ (seed >> 4);
    seed *= 0x27d4eb2d;
    seed = seed ^ (seed >> 15);
    return seed;
}

float RandomFloat(inout uint state)
{
    state = WangHash(state);
    return float(state) * (1.0 / 4294967296.0);
}

float3 RandomUnitVector(inout uint state)
{
    float z = RandomFloat(state) * 2.0 - 1.0;
    float a = RandomFloat(state) * 6.2831853;
    float r = sqrt(1.0 - z * z);
    return float3(r * cos(a), r * sin(a), z);
}

[numthreads(64, 1, 1)]
void Emit(uint3 id : SV_DispatchThreadID)
{
    uint deadCount = Counters.Load(0);
    if (id.x >= emitCount || id.x >= deadCount)
        return;
    uint index = DeadList.Consume();
    uint rng = WangHash(id.x + frameIndex * 7919);

    Particle p;
    p.position = emitterPosition + RandomUnitVector(rng) * 0.1;
    p.velocity = emitterVelocity + RandomUnitVector(rng) * 2.0;
    p.age = 0.0;
    p.lifetime = lerp(1.0, 3.0, RandomFloat(rng));
    p.color = startColor;
    p.size = startSize;
    p.seed = rng;
    p.pad = 0;
    ParticlePool[index] = p;
    AliveListOut.Append(index);
}

[numthreads(256, 1, 1)]
void Simulate(uint3 id : SV_DispatchThreadID)
{
    uint aliveCount = Counters.Load(4);
    if (id.x >= aliveCount)
        return;
    uint index = AliveListIn[id.x];
    Particle p = ParticlePool[index];
    p.age += deltaTime;
    if (p.age >= p.lifetime)
    {
        DeadListAppend.Append(index);
        return;
    }
    p.velocity += gravity * deltaTime;
    p.velocity *= 1.0 / (1.0 + drag * deltaTime);
    p.position += p.velocity * deltaTime;
    if (p.position.y < 0.0)
    {
        p.position.y = 0.0;
        p.velocity.y = -p.velocity.y * 0.5;
    }
    float t = saturate(p.age / p.lifetime);
    p.color = lerp(startColor, endColor, t);
    p.size = lerp(startSize, endSize, t);
    ParticlePool[index] = p;
    AliveListOut.Append(index);

    uint previous;
    DrawArgs.InterlockedAdd(4, 1, previous);
}
