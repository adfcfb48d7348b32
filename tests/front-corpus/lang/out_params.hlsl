// legalis: -entry main -stage compute
// out arrays, inout structs, out vectors, static locals and static arrays of structs.

struct Accum
{
    float sum;
    float minV;
    float maxV;
    uint count;
};

struct Tap
{
    int2 offset;
    float weight;
};

static const Tap kTaps[5] =
{
    { int2(0, 0), 0.4f },
    { int2(1, 0), 0.15f },
    { int2(-1, 0), 0.15f },
    { int2(0, 1), 0.15f },
    { int2(0, -1), 0.15f },
};

static float gScratch[4] = { 0.0f, 1.0f, 2.0f, 3.0f };

Texture2D<float> gIn : register(t0);
RWTexture2D<float4> gOut : register(u0);

void gather(int2 p, out float vals[5], out float total)
{
    total = 0.0f;
    for (int i = 0; i < 5; i++)
    {
        vals[i] = gIn.Load(int3(p + kTaps[i].offset, 0)) * kTaps[i].weight;
        total += vals[i];
    }
}

void add(inout Accum a, float v)
{
    a.sum += v;
    a.minV = min(a.minV, v);
    a.maxV = max(a.maxV, v);
    a.count++;
}

void splitColor(float4 c, out float3 rgb, out float alpha)
{
    rgb = c.rgb;
    alpha = c.a;
}

uint nextId()
{
    static uint counter = 0;
    counter += 1;
    return counter;
}

[numthreads(8, 8, 1)]
void main(uint3 tid : SV_DispatchThreadID)
{
    float vals[5];
    float total;
    gather(int2(tid.xy), vals, total);
    Accum a = { 0.0f, 1e30f, -1e30f, 0u };
    for (int i = 0; i < 5; i++)
        add(a, vals[i]);
    float3 rgb;
    float alpha;
    splitColor(float4(a.sum, a.minV, a.maxV, total), rgb, alpha);
    gScratch[tid.x & 3] += alpha;
    uint id = nextId();
    gOut[tid.xy] = float4(rgb, gScratch[(tid.y + id) & 3] + (float)a.count);
}
