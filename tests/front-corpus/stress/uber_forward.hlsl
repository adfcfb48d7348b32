// legalis: -entry VSMain -stage vertex
// legalis: -entry PSMain -stage fragment
// legalis: -entry VSMain -stage vertex -D USE_SKINNING=1 -D USE_NORMAL_MAP=1
// legalis: -entry PSMain -stage fragment -D USE_NORMAL_MAP=1 -D USE_SHADOWS=1 -D SHADOW_CASCADES=4
// legalis: -entry PSMain -stage fragment -D USE_NORMAL_MAP=1 -D USE_ALPHA_TEST -D USE_EMISSIVE=1 -D USE_FOG=2
// legalis: -entry PSMain -stage fragment -D USE_SHADOWS=1 -D SHADOW_CASCADES=2 -D DEBUG_VIEW=3
// legalis: -entry PSMain -stage fragment -D USE_CLEARCOAT -D USE_IBL=1 -D MAX_LIGHTS=32
// An engine-style forward über-shader: every feature behind a define, compiled in several permutations.

//------------------------------------------------------------------------------
// Permutation defaults
//------------------------------------------------------------------------------
#ifndef USE_SKINNING
#define USE_SKINNING 0
#endif
#ifndef USE_NORMAL_MAP
#define USE_NORMAL_MAP 0
#endif
#ifndef USE_SHADOWS
#define USE_SHADOWS 0
#endif
#ifndef SHADOW_CASCADES
#define SHADOW_CASCADES 1
#endif
#ifndef USE_EMISSIVE
#define USE_EMISSIVE 0
#endif
#ifndef USE_FOG
#define USE_FOG 0
#endif
#ifndef DEBUG_VIEW
#define DEBUG_VIEW 0
#endif
#ifndef USE_IBL
#define USE_IBL 0
#endif
#ifndef MAX_LIGHTS
#define MAX_LIGHTS 8
#endif

#if SHADOW_CASCADES > 4
#error "at most four cascades"
#endif

#if defined(USE_ALPHA_TEST) && USE_EMISSIVE
#define ALPHA_CUTOFF 0.33f
#elif defined(USE_ALPHA_TEST)
#define ALPHA_CUTOFF 0.5f
#endif

#define PI 3.14159265359f
#define INV_PI (1.0f / PI)
#define SATURATE_DOT(a, b) saturate(dot(a, b))
#define POW5(x) ((x) * (x) * (x) * (x) * (x))

//------------------------------------------------------------------------------
// Resources
//------------------------------------------------------------------------------
struct LightData
{
    float3 position;
    float range;
    float3 color;
    float intensity;
    float3 direction;
    float spotCos;
    uint type;
    uint shadowIndex;
    float2 pad;
};

cbuffer FrameConstants : register(b0)
{
    float4x4 gView;
    float4x4 gProj;
    float4x4 gViewProj;
    float3 gCameraPos;
    float gTime;
    float3 gAmbient;
    uint gLightCount;
    float4 gFogParams;
    float4 gFogColor;
};

cbuffer ObjectConstants : register(b1)
{
    float4x4 gWorld;
    float4x4 gWorldInvTranspose;
    float4 gBaseColor;
    float gRoughness;
    float gMetallic;
    float gEmissiveStrength;
    float gClearcoat;
};

#if USE_SHADOWS
cbuffer ShadowConstants : register(b2)
{
    float4x4 gShadowVP[SHADOW_CASCADES];
    float4 gCascadeSplits;
    float2 gShadowTexel;
    float gShadowBias;
};
Texture2DArray<float> gShadowMap : register(t8);
SamplerComparisonState gShadowSampler : register(s2);
#endif

StructuredBuffer<LightData> gLights : register(t0);
Texture2D<float4> gAlbedoTex : register(t1);
#if USE_NORMAL_MAP
Texture2D<float4> gNormalTex : register(t2);
#endif
Texture2D<float4> gOrmTex : register(t3);
#if USE_EMISSIVE
Texture2D<float4> gEmissiveTex : register(t4);
#endif
#if USE_IBL
TextureCube<float4> gIrradiance : register(t5);
TextureCube<float4> gSpecularEnv : register(t6);
Texture2D<float2> gBrdfLut : register(t7);
#endif
#if USE_SKINNING
StructuredBuffer<float4x4> gBones : register(t9);
#endif
SamplerState gLinearWrap : register(s0);
SamplerState gLinearClamp : register(s1);

//------------------------------------------------------------------------------
// Vertex stage
//------------------------------------------------------------------------------
struct VSInput
{
    float3 position : POSITION;
    float3 normal : NORMAL;
    float2 uv : TEXCOORD0;
#if USE_NORMAL_MAP
    float4 tangent : TANGENT;
#endif
#if USE_SKINNING
    uint4 boneIds : BLENDINDICES;
    float4 boneWeights : BLENDWEIGHT;
#endif
};

struct VSOutput
{
    float4 position : SV_Position;
    float3 worldPos : POSITION;
    float3 normal : NORMAL;
    float2 uv : TEXCOORD0;
#if USE_NORMAL_MAP
    float4 tangent : TANGENT;
#endif
    float viewDepth : TEXCOORD1;
};

#if USE_SKINNING
float4x4 skinMatrix(uint4 ids, float4 weights)
{
    float4x4 m = gBones[ids.x] * weights.x;
    m += gBones[ids.y] * weights.y;
    m += gBones[ids.z] * weights.z;
    m += gBones[ids.w] * weights.w;
    return m;
}
#endif

VSOutput VSMain(VSInput input)
{
    VSOutput o;
    float4 localPos = float4(input.position, 1.0f);
    float3 localNormal = input.normal;
#if USE_SKINNING
    float4x4 skin = skinMatrix(input.boneIds, input.boneWeights);
    localPos = mul(skin, localPos);
    localNormal = mul((float3x3)skin, localNormal);
#endif
    float4 world = mul(gWorld, localPos);
    o.worldPos = world.xyz;
    o.position = mul(gViewProj, world);
    o.normal = normalize(mul((float3x3)gWorldInvTranspose, localNormal));
    o.uv = input.uv;
#if USE_NORMAL_MAP
    o.tangent = float4(normalize(mul((float3x3)gWorld, input.tangent.xyz)), input.tangent.w);
#endif
    o.viewDepth = mul(gView, world).z;
    return o;
}

//------------------------------------------------------------------------------
// BRDF helpers
//------------------------------------------------------------------------------
float D_GGX(float NoH, float a)
{
    float a2 = a * a;
    float f = (NoH * a2 - NoH) * NoH + 1.0f;
    return a2 / (PI * f * f);
}

float V_SmithGGXCorrelated(float NoV, float NoL, float a)
{
    float a2 = a * a;
    float gv = NoL * sqrt(NoV * NoV * (1.0f - a2) + a2);
    float gl = NoV * sqrt(NoL * NoL * (1.0f - a2) + a2);
    return 0.5f / (gv + gl + 1e-5f);
}

float3 F_Schlick(float3 f0, float VoH)
{
    return f0 + (1.0f - f0) * POW5(1.0f - VoH);
}

float3 evaluateLight(LightData light, float3 P, float3 N, float3 V, float3 albedo, float roughness, float metallic, out float3 Lout)
{
    float3 L;
    float atten = 1.0f;
    [branch]
    if (light.type == 0)
    {
        L = -light.direction;
    }
    else
    {
        float3 toLight = light.position - P;
        float dist2 = dot(toLight, toLight);
        L = toLight * rsqrt(dist2);
        float r = saturate(1.0f - POW5(sqrt(dist2) / light.range));
        atten = r * r / (dist2 + 1.0f);
        if (light.type == 2)
        {
            float cd = dot(-L, light.direction);
            atten *= saturate((cd - light.spotCos) / (1.0f - light.spotCos));
        }
    }
    Lout = L;
    float3 H = normalize(V + L);
    float NoL = SATURATE_DOT(N, L);
    float NoV = abs(dot(N, V)) + 1e-5f;
    float NoH = SATURATE_DOT(N, H);
    float VoH = SATURATE_DOT(V, H);
    float a = roughness * roughness;
    float3 f0 = lerp(0.04f.xxx, albedo, metallic);
    float3 F = F_Schlick(f0, VoH);
    float3 spec = D_GGX(NoH, a) * V_SmithGGXCorrelated(NoV, NoL, a) * F;
    float3 diff = (1.0f - F) * (1.0f - metallic) * albedo * INV_PI;
    return (diff + spec) * light.color * light.intensity * atten * NoL;
}

#if USE_SHADOWS
uint selectCascade(float depth)
{
    uint c = 0;
    [unroll]
    for (uint i = 0; i < SHADOW_CASCADES - 1; i++)
    {
        if (depth > gCascadeSplits[i])
            c = i + 1;
    }
    return c;
}

float sampleShadow(float3 P, float depth)
{
    uint cascade = selectCascade(depth);
    float4 sp = mul(gShadowVP[cascade], float4(P, 1.0f));
    sp.xyz /= sp.w;
    float2 uv = sp.xy * float2(0.5f, -0.5f) + 0.5f;
    float sum = 0.0f;
    [unroll]
    for (int y = -1; y <= 1; y++)
    {
        [unroll]
        for (int x = -1; x <= 1; x++)
        {
            float2 o = float2(x, y) * gShadowTexel;
            sum += gShadowMap.SampleCmpLevelZero(gShadowSampler, float3(uv + o, (float)cascade), sp.z - gShadowBias);
        }
    }
    return sum / 9.0f;
}
#endif

#if USE_NORMAL_MAP
float3 perturbNormal(VSOutput i)
{
    float3 tn = gNormalTex.Sample(gLinearWrap, i.uv).xyz * 2.0f - 1.0f;
    float3 N = normalize(i.normal);
    float3 T = normalize(i.tangent.xyz - N * dot(N, i.tangent.xyz));
    float3 B = cross(N, T) * i.tangent.w;
    float3x3 tbn = float3x3(T, B, N);
    return normalize(mul(tn, tbn));
}
#endif

float3 applyFog(float3 c, float dist, float height)
{
#if USE_FOG == 1
    return lerp(gFogColor.rgb, c, exp(-gFogParams.x * dist));
#elif USE_FOG == 2
    float f = gFogParams.x * exp(-gFogParams.y * height) * (1.0f - exp(-dist * gFogParams.z)) / max(gFogParams.y, 1e-4f);
    return lerp(c, gFogColor.rgb, saturate(f));
#else
    return c;
#endif
}

//------------------------------------------------------------------------------
// Pixel stage
//------------------------------------------------------------------------------
float4 PSMain(VSOutput input, bool frontFace : SV_IsFrontFace) : SV_Target0
{
    float4 albedo = gAlbedoTex.Sample(gLinearWrap, input.uv) * gBaseColor;
#ifdef ALPHA_CUTOFF
    clip(albedo.a - ALPHA_CUTOFF);
#endif
#if USE_NORMAL_MAP
    float3 N = perturbNormal(input);
#else
    float3 N = normalize(input.normal);
#endif
    N = frontFace ? N : -N;
    float3 orm = gOrmTex.Sample(gLinearWrap, input.uv).rgb;
    float roughness = clamp(orm.g * gRoughness, 0.045f, 1.0f);
    float metallic = orm.b * gMetallic;
    float3 V = normalize(gCameraPos - input.worldPos);

    float3 color = gAmbient * albedo.rgb * orm.r;
    uint count = min(gLightCount, (uint)MAX_LIGHTS);
    [loop]
    for (uint li = 0; li < count; li++)
    {
        LightData light = gLights[li];
        float3 L;
        float3 contrib = evaluateLight(light, input.worldPos, N, V, albedo.rgb, roughness, metallic, L);
#if USE_SHADOWS
        if (light.shadowIndex != 0xFFFFFFFFu)
            contrib *= sampleShadow(input.worldPos, input.viewDepth);
#endif
        color += contrib;
    }

#if USE_IBL
    float3 R = reflect(-V, N);
    float NoV = saturate(dot(N, V));
    float2 brdf = gBrdfLut.SampleLevel(gLinearClamp, float2(NoV, roughness), 0);
    float3 f0 = lerp(0.04f.xxx, albedo.rgb, metallic);
    float3 irr = gIrradiance.Sample(gLinearClamp, N).rgb;
    float3 pre = gSpecularEnv.SampleLevel(gLinearClamp, R, roughness * 6.0f).rgb;
    color += irr * albedo.rgb * (1.0f - metallic) + pre * (f0 * brdf.x + brdf.y);
#endif

#ifdef USE_CLEARCOAT
    {
        float3 H = normalize(V + N);
        float Fc = 0.04f + 0.96f * POW5(1.0f - saturate(dot(V, H)));
        color = color * (1.0f - Fc * gClearcoat) + Fc * gClearcoat;
    }
#endif

#if USE_EMISSIVE
    color += gEmissiveTex.Sample(gLinearWrap, input.uv).rgb * gEmissiveStrength;
#endif

    color = applyFog(color, distance(gCameraPos, input.worldPos), input.worldPos.y);

#if DEBUG_VIEW == 1
    color = N * 0.5f + 0.5f;
#elif DEBUG_VIEW == 2
    color = float3(roughness, metallic, 0.0f);
#elif DEBUG_VIEW == 3 && USE_SHADOWS
    color = float3(sampleShadow(input.worldPos, input.viewDepth).xx, (float)selectCascade(input.viewDepth) / SHADOW_CASCADES);
#endif

    return float4(color, albedo.a);
}
