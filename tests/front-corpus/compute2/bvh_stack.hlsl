// legalis: -entry main -stage compute
// Software BVH traversal with a local fixed-size stack array, early-outs and nested loops.

struct Node
{
    float3 lo;
    uint leftOrFirst;
    float3 hi;
    uint count;
};

struct Tri
{
    float3 v0;
    float3 e1;
    float3 e2;
};

StructuredBuffer<Node> gNodes : register(t0);
StructuredBuffer<Tri> gTris : register(t1);
StructuredBuffer<float4> gRays : register(t2);
RWStructuredBuffer<float> gHits : register(u0);

bool slab(float3 o, float3 invD, float3 lo, float3 hi, float tMax)
{
    float3 t0 = (lo - o) * invD;
    float3 t1 = (hi - o) * invD;
    float3 tmin = min(t0, t1);
    float3 tmax = max(t0, t1);
    float enter = max(max(tmin.x, tmin.y), tmin.z);
    float exit = min(min(tmax.x, tmax.y), tmax.z);
    return enter <= exit && exit > 0.0f && enter < tMax;
}

float intersectTri(float3 o, float3 d, Tri t)
{
    float3 p = cross(d, t.e2);
    float det = dot(t.e1, p);
    if (abs(det) < 1e-8f)
        return -1.0f;
    float inv = 1.0f / det;
    float3 s = o - t.v0;
    float u = dot(s, p) * inv;
    if (u < 0.0f || u > 1.0f)
        return -1.0f;
    float3 q = cross(s, t.e1);
    float v = dot(d, q) * inv;
    if (v < 0.0f || u + v > 1.0f)
        return -1.0f;
    return dot(t.e2, q) * inv;
}

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float3 o = gRays[id.x * 2].xyz;
    float3 d = gRays[id.x * 2 + 1].xyz;
    float3 invD = 1.0f / d;
    uint stack[32];
    int sp = 0;
    stack[sp++] = 0;
    float best = 1e30f;
    uint iterations = 0;
    while (sp > 0 && iterations < 4096)
    {
        iterations++;
        Node n = gNodes[stack[--sp]];
        if (!slab(o, invD, n.lo, n.hi, best))
            continue;
        if (n.count > 0)
        {
            for (uint i = 0; i < n.count; i++)
            {
                float t = intersectTri(o, d, gTris[n.leftOrFirst + i]);
                if (t > 0.0f && t < best)
                    best = t;
            }
        }
        else if (sp < 30)
        {
            stack[sp++] = n.leftOrFirst;
            stack[sp++] = n.leftOrFirst + 1;
        }
    }
    gHits[id.x] = best;
}
