// legalis: -entry main -stage mesh
// Mesh shader with per-primitive SV_CullPrimitive, SV_PrimitiveID and a layer index, plus groupshared.

struct Vertex
{
    float4 pos : SV_Position;
    float2 uv : TEXCOORD0;
};

struct Primitive
{
    bool cull : SV_CullPrimitive;
    uint id : SV_PrimitiveID;
    uint layer : SV_RenderTargetArrayIndex;
    float4 color : COLOR0;
};

StructuredBuffer<float4> gPositions : register(t0);
StructuredBuffer<uint3> gTriangles : register(t1);

groupshared float4 gsClip[64];

[outputtopology("triangle")]
[numthreads(64, 1, 1)]
void main(uint gtid : SV_GroupThreadID, uint gid : SV_GroupID,
    out vertices Vertex verts[64],
    out indices uint3 tris[124],
    out primitives Primitive prims[124])
{
    SetMeshOutputCounts(64, 124);
    float4 p = gPositions[gid * 64 + gtid];
    gsClip[gtid] = p;
    verts[gtid].pos = p;
    verts[gtid].uv = p.xy * 0.5f + 0.5f;
    GroupMemoryBarrierWithGroupSync();
    for (uint t = gtid; t < 124; t += 64)
    {
        uint3 tri = gTriangles[gid * 124 + t] % 64;
        tris[t] = tri;
        float4 a = gsClip[tri.x];
        float4 b = gsClip[tri.y];
        float4 c = gsClip[tri.z];
        float2 e0 = b.xy / b.w - a.xy / a.w;
        float2 e1 = c.xy / c.w - a.xy / a.w;
        bool backface = (e0.x * e1.y - e0.y * e1.x) < 0.0f;
        prims[t].cull = backface || (a.w < 0 && b.w < 0 && c.w < 0);
        prims[t].id = gid * 124 + t;
        prims[t].layer = 0;
        prims[t].color = float4(frac(float(t) * 0.618f), 0.5f, 0.5f, 1.0f);
    }
}
