// legalis: -entry TaskMain -stage amplification
// legalis: -entry MeshMain -stage mesh
// Debug line rendering: each task group launches one mesh group per visible box.

struct Box
{
    float3 center;
    float pad0;
    float3 extents;
    uint color;
};

cbuffer DebugCB : register(b0)
{
    float4x4 viewProj;
    uint boxCount;
};

StructuredBuffer<Box> Boxes : register(t0);

struct TaskPayload
{
    uint boxIndex[32];
    uint count;
};

groupshared TaskPayload payloadData;

[numthreads(32, 1, 1)]
void TaskMain(uint dtid : SV_DispatchThreadID, uint gtid : SV_GroupThreadID)
{
    if (gtid == 0)
        payloadData.count = 0;
    GroupMemoryBarrierWithGroupSync();
    if (dtid < boxCount)
    {
        uint slot;
        InterlockedAdd(payloadData.count, 1, slot);
        payloadData.boxIndex[slot] = dtid;
    }
    GroupMemoryBarrierWithGroupSync();
    DispatchMesh(payloadData.count, 1, 1, payloadData);
}

struct LineVert
{
    float4 pos : SV_Position;
    nointerpolation float4 color : COLOR0;
};

float4 UnpackColor(uint c)
{
    return float4(c & 0xFF, (c >> 8) & 0xFF, (c >> 16) & 0xFF, (c >> 24) & 0xFF) / 255.0;
}

[outputtopology("line")]
[numthreads(12, 1, 1)]
void MeshMain(uint gtid : SV_GroupThreadID, uint gid : SV_GroupID,
              in payload TaskPayload tp,
              out vertices LineVert verts[8],
              out indices uint2 lines[12])
{
    Box b = Boxes[tp.boxIndex[gid]];
    SetMeshOutputCounts(8, 12);
    if (gtid < 8)
    {
        float3 corner = float3((gtid & 1) ? 1 : -1, (gtid & 2) ? 1 : -1, (gtid & 4) ? 1 : -1);
        verts[gtid].pos = mul(viewProj, float4(b.center + corner * b.extents, 1));
        verts[gtid].color = UnpackColor(b.color);
    }
    const uint2 edges[12] = {
        uint2(0, 1), uint2(2, 3), uint2(4, 5), uint2(6, 7),
        uint2(0, 2), uint2(1, 3), uint2(4, 6), uint2(5, 7),
        uint2(0, 4), uint2(1, 5), uint2(2, 6), uint2(3, 7)
    };
    lines[gtid] = edges[gtid];
}
