// legalis: -entry VSMain -stage vertex
// legalis: -entry PSMain -stage pixel
// Root constants in a cbuffer plus a scene ConstantBuffer<T> in another space.

struct SceneConstants
{
    float4x4 viewProj;
    float4 cameraPos;
    float4 ambient;
    float4 sunDirection;
    float4 sunColor;
};

cbuffer DrawConstants : register(b0)
{
    uint g_objectIndex;
    uint g_materialIndex;
    uint g_flags;
    float g_alphaCutoff;
};

ConstantBuffer<SceneConstants> g_scene : register(b1, space0);

struct ObjectData
{
    float4x4 world;
    float4x4 worldInvTranspose;
};

struct MaterialData
{
    float4 baseColor;
    uint albedoIndex;
    uint normalIndex;
    float roughness;
    float metallic;
};

StructuredBuffer<ObjectData> g_objects : register(t0, space1);
StructuredBuffer<MaterialData> g_materials : register(t1, space1);
Texture2D g_textures[] : register(t0, space2);
SamplerState g_linearWrap : register(s0);

struct VSIn
{
    float3 position : POSITION;
    float3 normal : NORMAL;
    float2 uv : TEXCOORD0;
};

struct VSOut
{
    float4 position : SV_Position;
    float3 worldPos : WORLDPOS;
    float3 normal : NORMAL;
    float2 uv : TEXCOORD0;
};

VSOut VSMain(VSIn input)
{
    ObjectData obj = g_objects[g_objectIndex];
    VSOut output;
    float4 wp = mul(obj.world, float4(input.position, 1.0f));
    output.worldPos = wp.xyz;
    output.position = mul(g_scene.viewProj, wp);
    output.normal = normalize(mul((float3x3)obj.worldInvTranspose, input.normal));
    output.uv = input.uv;
    return output;
}

float4 PSMain(VSOut input) : SV_Target
{
    MaterialData mat = g_materials[g_materialIndex];
    float4 albedo = g_textures[NonUniformResourceIndex(mat.albedoIndex)].Sample(g_linearWrap, input.uv) * mat.baseColor;
    if ((g_flags & 1u) != 0 && albedo.a < g_alphaCutoff)
    {
        discard;
    }
    float3 n = normalize(input.normal);
    float ndl = saturate(dot(n, -g_scene.sunDirection.xyz));
    float3 color = albedo.rgb * (g_scene.ambient.rgb + g_scene.sunColor.rgb * ndl);
    return float4(color, albedo.a);
}
