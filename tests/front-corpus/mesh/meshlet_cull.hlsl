// legalis: -entry ASMain -stage amplification
// legalis: -entry MSMain -stage mesh
// legalis: -entry PSMain -stage pixel
// Meshlet pipeline: amplification-shader cone/frustum culling, mesh shader output.

#define AS_GROUP_SIZE 32
#define MAX_VERTS 64
#define MAX_PRIMS 124

struct Meshlet
{
    uint vertexOffset;
    uint vertexCount;
    uint primitiveOffset;
    uint primitiveCount;
};

struct CullData
{
    float4 boundingSphere;
    uint normalCone;
    float apexOffset;
};

struct Vertex
{
    float3 position;
    float3 normal;
};

cbuffer Constants : register(b0)
{
    float4x4 World;
    float4x4 ViewProj;
    float4 Planes[6];
    float3 ViewPosition;
    uint MeshletCount;
    float Scale;
    uint DrawMeshlets;
};

StructuredBuffer<Vertex> Vertices : register(t0);
StructuredBuffer<Meshlet> Meshlets : register(t1);
ByteAddressBuffer UniqueVertexIndices : register(t2);
StructuredBuffer<uint> PrimitiveIndices : register(t3);
StructuredBuffer<CullData> MeshletCullData : register(t4);

struct Payload
{
    uint MeshletIndices[AS_GROUP_SIZE];
};

groupshared Payload s_Payload;

float4 UnpackCone(uint packed)
{
    float4 v;
    v.x = float((packed >> 0) & 0xFF);
    v.y = float((packed >> 8) & 0xFF);
    v.z = float((packed >> 16) & 0xFF);
    v.w = float((packed >> 24) & 0xFF);
    v = v / 255.0;
    v.xyz = v.xyz * 2.0 - 1.0;
    return v;
}

bool IsVisible(CullData c)
{
    float4 center = mul(World, float4(c.boundingSphere.xyz, 1));
    float radius = c.boundingSphere.w * Scale;
    for (int i = 0; i < 6; ++i)
    {
        if (dot(center, Planes[i]) < -radius)
            return false;
    }
    float4 cone = UnpackCone(c.normalCone);
    if (cone.w >= 1.0)
        return true;
    float3 axis = normalize(mul((float3x3)World, cone.xyz));
    float3 apex = center.xyz - axis * c.apexOffset * Scale;
    float3 view = normalize(ViewPosition - apex);
    return dot(view, -axis) <= cone.w;
}

[numthreads(AS_GROUP_SIZE, 1, 1)]
void ASMain(uint gtid : SV_GroupThreadID, uint dtid : SV_DispatchThreadID, uint gid : SV_GroupID)
{
    bool visible = false;
    if (dtid < MeshletCount)
        visible = IsVisible(MeshletCullData[dtid]);
    if (visible)
    {
        uint index = WavePrefixCountBits(visible);
        s_Payload.MeshletIndices[index] = dtid;
    }
    uint visibleCount = WaveActiveCountBits(visible);
    DispatchMesh(visibleCount, 1, 1, s_Payload);
}

struct VertexOut
{
    float4 PositionHS : SV_Position;
    float3 PositionVS : POSITION0;
    float3 Normal : NORMAL0;
    uint MeshletIndex : COLOR0;
};

struct PrimitiveOut
{
    uint PrimitiveId : SV_PrimitiveID;
    bool Culled : SV_CullPrimitive;
};

uint3 UnpackPrimitive(uint primitive)
{
    return uint3(primitive & 0x3FF, (primitive >> 10) & 0x3FF, (primitive >> 20) & 0x3FF);
}

uint GetVertexIndex(Meshlet m, uint localIndex)
{
    localIndex = m.vertexOffset + localIndex;
    return UniqueVertexIndices.Load(localIndex * 4);
}

[numthreads(128, 1, 1)]
[outputtopology("triangle")]
void MSMain(
    uint gtid : SV_GroupThreadID,
    uint gid : SV_GroupID,
    in payload Payload payload,
    out indices uint3 tris[MAX_PRIMS],
    out vertices VertexOut verts[MAX_VERTS],
    out primitives PrimitiveOut prims[MAX_PRIMS])
{
    uint meshletIndex = payload.MeshletIndices[gid];
    Meshlet m = Meshlets[meshletIndex];
    SetMeshOutputCounts(m.vertexCount, m.primitiveCount);

    if (gtid < m.primitiveCount)
    {
        tris[gtid] = UnpackPrimitive(PrimitiveIndices[m.primitiveOffset + gtid]);
        prims[gtid].PrimitiveId = m.primitiveOffset + gtid;
        prims[gtid].Culled = false;
    }

    if (gtid < m.vertexCount)
    {
        uint vertexIndex = GetVertexIndex(m, gtid);
        Vertex v = Vertices[vertexIndex];
        VertexOut vout;
        float4 wp = mul(World, float4(v.position, 1));
        vout.PositionVS = wp.xyz - ViewPosition;
        vout.PositionHS = mul(ViewProj, wp);
        vout.Normal = mul((float3x3)World, v.normal);
        vout.MeshletIndex = meshletIndex;
        verts[gtid] = vout;
    }
}

float4 PSMain(VertexOut input, uint primId : SV_PrimitiveID) : SV_TARGET
{
    float ambient = 0.2;
    float3 lightDir = -normalize(float3(1, -1, 1));
    float3 diffuseColor;
    if (DrawMeshlets != 0)
    {
        uint idx = input.MeshletIndex;
        diffuseColor = float3(float(idx & 1), float(idx & 3) / 4, float(idx & 7) / 8);
    }
    else
    {
        diffuseColor = float3(0.8, 0.8, 0.8);
    }
    float3 n = normalize(input.Normal);
    float cosAngle = saturate(dot(n, lightDir));
    float3 viewDir = -normalize(input.PositionVS);
    float3 h = normalize(lightDir + viewDir);
    float spec = pow(saturate(dot(n, h)), 32.0);
    return float4(diffuseColor * (cosAngle + ambient) + spec * 0.25, 1);
}
