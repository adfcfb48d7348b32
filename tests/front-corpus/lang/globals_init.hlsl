// legalis: -entry main -stage vertex
// legalis-rejects: E30001 sizeof is not supported yet
// Global static arrays of structs with nested braces, 2D arrays, array of vectors, const folding.

struct Bone
{
    float3 offset;
    float scale;
    int parent;
};

struct Pose
{
    Bone bones[3];
    float weight;
};

static const Pose kPoses[2] =
{
    { { { float3(0, 0, 0), 1.0f, -1 }, { float3(0, 1, 0), 1.0f, 0 }, { float3(0, 2, 0), 0.5f, 1 } }, 1.0f },
    { { { float3(0, 0, 0), 1.0f, -1 }, { float3(1, 0, 0), 1.0f, 0 }, { float3(2, 0, 0), 0.5f, 1 } }, 0.0f },
};

static const float2 kCorners[4] = { float2(-1, -1), float2(1, -1), float2(-1, 1), float2(1, 1) };

static const int kGrid[2][3] = { { 1, 2, 3 }, { 4, 5, 6 } };

static const uint kCount = sizeof(kCorners) / sizeof(kCorners[0]);

static const float kFlat[] = { 0.1f, 0.2f, 0.3f, 0.4f, 0.5f };

struct VSOut
{
    float4 pos : SV_Position;
    float4 col : COLOR0;
};

VSOut main(uint vid : SV_VertexID, uint iid : SV_InstanceID)
{
    VSOut o;
    Pose p = kPoses[iid & 1];
    float3 offset = 0;
    for (int i = 0; i < 3; i++)
        offset += p.bones[i].offset * p.bones[i].scale;
    float2 corner = kCorners[vid % 4];
    o.pos = float4(corner * 0.5f + offset.xy * p.weight, 0.0f, 1.0f);
    o.col = float4((float)kGrid[vid & 1][vid % 3] / 6.0f, kFlat[vid % 5], (float)kCount, 1.0f);
    return o;
}
