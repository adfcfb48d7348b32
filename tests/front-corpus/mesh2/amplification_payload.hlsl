// legalis: -entry ASMain -stage amplification
// legalis: -entry MSMain -stage mesh
// Amplification shader compacting visible meshlets into a groupshared payload, DispatchMesh, mesh reads payload.

struct Payload
{
    uint meshletIds[32];
    float lodBias;
};

struct Meshlet
{
    float4 sphere;
    uint vertexOffset;
    uint vertexCount;
    uint triangleOffset;
    uint triangleCount;
};

cbuffer View : register(b0)
{
    float4 gFrustum[6];
    float4x4 gViewProj;
    uint gMeshletCount;
};

StructuredBuffer<Meshlet> gMeshlets : register(t0);
StructuredBuffer<float3> gVertices : register(t1);
StructuredBuffer<uint> gPrimIndices : register(t2);

groupshared Payload sPayload;

bool visible(float4 s)
{
    [unroll]
    for (int i = 0; i < 6; i++)
        if (dot(gFrustum[i].xyz, s.xyz) + gFrustum[i].w < -s.w)
            return false;
    return true;
}

[numthreads(32, 1, 1)]
void ASMain(uint gtid : SV_GroupThreadID, uint dtid : SV_DispatchThreadID, uint gid : SV_GroupID)
{
    bool vis = dtid < gMeshletCount && visible(gMeshlets[dtid].sphere);
    if (vis)
    {
        uint slot = WavePrefixCountBits(vis);
        sPayload.meshletIds[slot] = dtid;
    }
    sPayload.lodBias = 0.0f;
    uint count = WaveActiveCountBits(vis);
    DispatchMesh(count, 1, 1, sPayload);
}

struct MSVert
{
    float4 pos : SV_Position;
    nointerpolation uint meshlet : TEXCOORD0;
};

[outputtopology("triangle")]
[numthreads(128, 1, 1)]
void MSMain(uint gtid : SV_GroupThreadID, uint gid : SV_GroupID, in payload Payload pl,
    out vertices MSVert verts[64], out indices uint3 tris[126])
{
    uint id = pl.meshletIds[gid];
    Meshlet m = gMeshlets[id];
    SetMeshOutputCounts(m.vertexCount, m.triangleCount);
    if (gtid < m.vertexCount)
    {
        float3 p = gVertices[m.vertexOffset + gtid];
        verts[gtid].pos = mul(gViewProj, float4(p, 1.0f));
        verts[gtid].meshlet = id;
    }
    if (gtid < m.triangleCount)
    {
        uint packed = gPrimIndices[m.triangleOffset + gtid];
        tris[gtid] = uint3(packed & 0xFF, (packed >> 8) & 0xFF, (packed >> 16) & 0xFF);
    }
}
