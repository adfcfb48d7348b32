// legalis: -entry main -stage vertex
// Linear blend skinning with a bone palette in a cbuffer.

#define MAX_BONES 128
#define WEIGHTS_PER_VERTEX 4

cbuffer PerFrame : register(b0)
{
    float4x4 ViewProjection;
    float3 EyePosition;
    float Time;
};

cbuffer Skeleton : register(b1)
{
    float4x4 World;
    float4x3 Bones[MAX_BONES];
};

struct SkinnedVertex
{
    float3 Position : POSITION;
    float3 Normal : NORMAL;
    float4 Tangent : TANGENT;
    float2 TexCoord : TEXCOORD0;
    uint4 Indices : BLENDINDICES0;
    float4 Weights : BLENDWEIGHT0;
};

struct VertexOut
{
    float4 PositionPS : SV_Position;
    float3 PositionWS : TEXCOORD1;
    float3 NormalWS : TEXCOORD2;
    float4 TangentWS : TEXCOORD3;
    float2 TexCoord : TEXCOORD0;
};

float4x3 BlendBones(uint4 indices, float4 weights)
{
    float4x3 skinning = 0;
    [unroll]
    for (int i = 0; i < WEIGHTS_PER_VERTEX; i++)
    {
        skinning += Bones[indices[i]] * weights[i];
    }
    return skinning;
}

VertexOut main(SkinnedVertex vin)
{
    VertexOut vout;
    float4x3 skin = BlendBones(vin.Indices, vin.Weights);

    float3 skinnedPos = mul(float4(vin.Position, 1), skin);
    float3 skinnedNormal = mul(vin.Normal, (float3x3)skin);
    float3 skinnedTangent = mul(vin.Tangent.xyz, (float3x3)skin);

    float4 worldPos = mul(World, float4(skinnedPos, 1));
    vout.PositionWS = worldPos.xyz;
    vout.PositionPS = mul(ViewProjection, worldPos);
    vout.NormalWS = normalize(mul((float3x3)World, skinnedNormal));
    vout.TangentWS = float4(normalize(mul((float3x3)World, skinnedTangent)), vin.Tangent.w);
    vout.TexCoord = vin.TexCoord;
    return vout;
}
