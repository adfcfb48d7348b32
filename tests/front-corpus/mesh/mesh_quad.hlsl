// legalis: -entry main -stage mesh
// Minimal mesh shader emitting a fullscreen quad with per-primitive colour.

struct MeshVertex
{
    float4 position : SV_Position;
    float2 uv : TEXCOORD0;
};

struct MeshPrimitive
{
    float4 color : COLOR0;
    uint layer : SV_RenderTargetArrayIndex;
};

static const float2 kPositions[4] = { float2(-1, -1), float2(1, -1), float2(-1, 1), float2(1, 1) };

[outputtopology("triangle")]
[numthreads(4, 1, 1)]
void main(uint tid : SV_GroupThreadID,
          out vertices MeshVertex verts[4],
          out indices uint3 tris[2],
          out primitives MeshPrimitive prims[2])
{
    SetMeshOutputCounts(4, 2);
    verts[tid].position = float4(kPositions[tid], 0.0, 1.0);
    verts[tid].uv = kPositions[tid] * 0.5 + 0.5;
    if (tid < 2)
    {
        tris[tid] = tid == 0 ? uint3(0, 1, 2) : uint3(2, 1, 3);
        prims[tid].color = tid == 0 ? float4(1, 0, 0, 1) : float4(0, 0, 1, 1);
        prims[tid].layer = 0;
    }
}
