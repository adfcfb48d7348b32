// legalis: -entry main -stage mesh
// Mesh shader with line topology, uint2 indices, 3D thread ids and vertex-only outputs.

struct V
{
    float4 pos : SV_Position;
    float4 color : COLOR0;
};

cbuffer Grid : register(b0)
{
    float4x4 gViewProj;
    float gSpacing;
};

[outputtopology("line")]
[numthreads(4, 4, 2)]
void main(uint3 tid : SV_GroupThreadID, uint3 gid : SV_GroupID, uint flat : SV_GroupIndex,
    out vertices V verts[32], out indices uint2 lines[32])
{
    SetMeshOutputCounts(32, 16);
    float3 p = float3(tid) * gSpacing + float3(gid) * gSpacing * 4.0f;
    verts[flat].pos = mul(gViewProj, float4(p, 1.0f));
    verts[flat].color = float4(float3(tid) / 4.0f, 1.0f);
    if (flat < 16)
        lines[flat] = uint2(flat * 2, flat * 2 + 1);
}
