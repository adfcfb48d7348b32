// legalis: -entry VSMain -stage vertex
// legalis: -entry PSMain -stage pixel
// Engine-style forward PBR: helpers, macros, feature toggles, normal mapping.

#define USE_NORMAL_MAP 1
#define USE_EMISSIVE 1
// #define USE_CLEARCOAT
#define MAX_POINT_LIGHTS 8
#define SQR(x) ((x) * (x))
#define SATURATE_DOT(a, b) saturate(dot((a), (b)))
#define MATERIAL_FLAG(flags, bit) (((flags) >> (bit)) & 1u)

static const float PI = 3.14159265359f;
static const float INV_PI = 0.31830988618f;
static const float EPSILON = 1e-5f;
static const float3 DIELECTRIC_F0 = float3(0.04f, 0.04f, 0.04f);

struct PointLight
{
    float3 position;
    float radius;
    float3 color;
    float intensity;
};

cbuffer FrameCB : register(b0)
{
    float4x4 g_ViewProj;
    float3 g_CameraPos;
    float g_Time;
    float3 g_SunDir;
    float g_SunIntensity;
    float3 g_SunColor;
    uint g_NumPointLights;
    PointLight g_PointLights[MAX_POINT_LIGHTS];
};

cbuffer ObjectCB : register(b1)
{
    float4x4 g_World;
    float4x4 g_WorldIT;
    float4 g_BaseColorFactor;
    float g_MetallicFactor;
    float g_RoughnessFactor;
    float g_OcclusionStrength;
    uint g_MaterialFlags;
    float3 g_EmissiveFactor;
    float g_NormalScale;
};

Texture2D g_BaseColorMap : register(t0);
Texture2D g_NormalMap : register(t1);
Texture2D g_MetalRoughMap : register(t2);
Texture2D g_OcclusionMap : register(t3);
Texture2D g_EmissiveMap : register(t4);
TextureCube g_IrradianceMap : register(t5);
TextureCube g_PrefilteredMap : register(t6);
Texture2D<float2> g_BrdfLut : register(t7);
SamplerState g_LinearWrap : register(s0);
SamplerState g_LinearClamp : register(s1);

struct VSInput
{
    float3 position : POSITION;
    float3 normal : NORMAL;
    float4 tangent : TANGENT;
    float2 uv0 : TEXCOORD0;
    float2 uv1 : TEXCOORD1;
    float4 color : COLOR0;
};

struct VSOutput
{
    float4 position : SV_Position;
    float3 worldPos : POSITION1;
    float3 normal : NORMAL;
    float3 tangent : TANGENT;
    float3 bitangent : BINORMAL;
    float2 uv0 : TEXCOORD0;
    float2 uv1 : TEXCOORD1;
    float4 color : COLOR0;
};

VSOutput VSMain(VSInput input)
{
    VSOutput output;
    float4 worldPos = mul(g_World, float4(input.position, 1.0f));
    output.worldPos = worldPos.xyz;
    output.position = mul(g_ViewProj, worldPos);

    float3 n = normalize(mul((float3x3)g_WorldIT, input.normal));
    float3 t = normalize(mul((float3x3)g_World, input.tangent.xyz));
    t = normalize(t - dot(t, n) * n);
    float3 b = cross(n, t) * input.tangent.w;

    output.normal = n;
    output.tangent = t;
    output.bitangent = b;
    output.uv0 = input.uv0;
    output.uv1 = input.uv1;
    output.color = input.color;
    return output;
}

// ---------------------------------------------------------------------------
// BRDF helpers
// ---------------------------------------------------------------------------

float D_GGX(float NdotH, float roughness)
{
    float a = SQR(roughness);
    float a2 = SQR(a);
    float denom = SQR(NdotH) * (a2 - 1.0f) + 1.0f;
    return a2 / (PI * SQR(denom) + EPSILON);
}

float V_SmithGGXCorrelated(float NdotV, float NdotL, float roughness)
{
    float a2 = SQR(SQR(roughness));
    float ggxV = NdotL * sqrt(NdotV * NdotV * (1.0f - a2) + a2);
    float ggxL = NdotV * sqrt(NdotL * NdotL * (1.0f - a2) + a2);
    return 0.5f / max(ggxV + ggxL, EPSILON);
}

float3 F_Schlick(float3 f0, float VdotH)
{
    float f = pow(1.0f - VdotH, 5.0f);
    return f0 + (1.0f - f0) * f;
}

float3 F_SchlickRoughness(float3 f0, float NdotV, float roughness)
{
    float3 oneMinusR = max((1.0f - roughness).xxx, f0);
    return f0 + (oneMinusR - f0) * pow(1.0f - NdotV, 5.0f);
}

float3 Diffuse_Lambert(float3 diffuseColor)
{
    return diffuseColor * INV_PI;
}

float DistanceAttenuation(float distance, float radius)
{
    float d2 = distance * distance;
    float r4 = SQR(SQR(distance / radius));
    float falloff = saturate(1.0f - r4);
    return SQR(falloff) / (d2 + 1.0f);
}

struct SurfaceData
{
    float3 albedo;
    float3 normal;
    float metallic;
    float roughness;
    float occlusion;
    float3 emissive;
    float alpha;
};

float3 EvaluateLight(SurfaceData s, float3 V, float3 L, float3 radiance)
{
    float3 H = normalize(V + L);
    float NdotL = SATURATE_DOT(s.normal, L);
    float NdotV = max(dot(s.normal, V), 1e-4f);
    float NdotH = SATURATE_DOT(s.normal, H);
    float VdotH = SATURATE_DOT(V, H);

    float3 f0 = lerp(DIELECTRIC_F0, s.albedo, s.metallic);
    float3 F = F_Schlick(f0, VdotH);
    float D = D_GGX(NdotH, s.roughness);
    float Vis = V_SmithGGXCorrelated(NdotV, NdotL, s.roughness);

    float3 kd = (1.0f - F) * (1.0f - s.metallic);
    float3 diffuse = kd * Diffuse_Lambert(s.albedo);
    float3 specular = D * Vis * F;
    return (diffuse + specular) * radiance * NdotL;
}

float3 EvaluateIBL(SurfaceData s, float3 V)
{
    float NdotV = max(dot(s.normal, V), 1e-4f);
    float3 f0 = lerp(DIELECTRIC_F0, s.albedo, s.metallic);
    float3 F = F_SchlickRoughness(f0, NdotV, s.roughness);
    float3 kd = (1.0f - F) * (1.0f - s.metallic);

    float3 irradiance = g_IrradianceMap.Sample(g_LinearWrap, s.normal).rgb;
    float3 diffuse = irradiance * s.albedo * kd;

    float3 R = reflect(-V, s.normal);
    uint width, height, levels;
    g_PrefilteredMap.GetDimensions(0, width, height, levels);
    float lod = s.roughness * float(levels - 1);
    float3 prefiltered = g_PrefilteredMap.SampleLevel(g_LinearWrap, R, lod).rgb;
    float2 brdf = g_BrdfLut.SampleLevel(g_LinearClamp, float2(NdotV, s.roughness), 0);
    float3 specular = prefiltered * (F * brdf.x + brdf.y);
    return (diffuse + specular) * s.occlusion;
}

float3 GetNormal(VSOutput input)
{
    float3 N = normalize(input.normal);
#if USE_NORMAL_MAP
    if (MATERIAL_FLAG(g_MaterialFlags, 1) != 0)
    {
        float3 T = normalize(input.tangent);
        float3 B = normalize(input.bitangent);
        float3x3 TBN = float3x3(T, B, N);
        float3 tn = g_NormalMap.Sample(g_LinearWrap, input.uv0).xyz * 2.0f - 1.0f;
        tn.xy *= g_NormalScale;
        N = normalize(mul(tn, TBN));
    }
#endif
    return N;
}

float3 ACESFilm(float3 x)
{
    const float a = 2.51f;
    const float b = 0.03f;
    const float c = 2.43f;
    const float d = 0.59f;
    const float e = 0.14f;
    return saturate((x * (a * x + b)) / (x * (c * x + d) + e));
}

float4 PSMain(VSOutput input) : SV_Target
{
    SurfaceData s;
    float4 baseColor = g_BaseColorMap.Sample(g_LinearWrap, input.uv0) * g_BaseColorFactor * input.color;
    s.albedo = baseColor.rgb;
    s.alpha = baseColor.a;

    float4 mr = g_MetalRoughMap.Sample(g_LinearWrap, input.uv0);
    s.metallic = mr.b * g_MetallicFactor;
    s.roughness = clamp(mr.g * g_RoughnessFactor, 0.04f, 1.0f);
    s.occlusion = lerp(1.0f, g_OcclusionMap.Sample(g_LinearWrap, input.uv1).r, g_OcclusionStrength);
    s.normal = GetNormal(input);
#if USE_EMISSIVE
    s.emissive = g_EmissiveMap.Sample(g_LinearWrap, input.uv0).rgb * g_EmissiveFactor;
#else
    s.emissive = 0;
#endif

    float3 V = normalize(g_CameraPos - input.worldPos);
    float3 color = EvaluateLight(s, V, normalize(-g_SunDir), g_SunColor * g_SunIntensity);

    [loop]
    for (uint i = 0; i < min(g_NumPointLights, MAX_POINT_LIGHTS); ++i)
    {
        PointLight light = g_PointLights[i];
        float3 toLight = light.position - input.worldPos;
        float dist = length(toLight);
        if (dist > light.radius)
            continue;
        float atten = DistanceAttenuation(dist, light.radius);
        color += EvaluateLight(s, V, toLight / dist, light.color * light.intensity * atten);
    }

    color += EvaluateIBL(s, V);
    color += s.emissive;

#ifdef USE_CLEARCOAT
    color *= 0.5f;
#endif

    color = ACESFilm(color);
    color = pow(color, 1.0f / 2.2f);
    return float4(color, s.alpha);
}
