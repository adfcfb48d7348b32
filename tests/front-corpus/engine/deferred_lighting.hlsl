// legalis: -entry FullscreenVS -stage vertex
// legalis: -entry LightingPS -stage pixel
// Fullscreen triangle from SV_VertexID and a deferred lighting resolve.

static const float PI = 3.14159265f;

cbuffer LightingCB : register(b0)
{
    float4x4 invViewProj;
    float3 cameraPos;
    uint debugMode;
    float3 lightDir;
    float lightIntensity;
    float3 lightColor;
    float ambientIntensity;
};

Texture2D<float4> gAlbedo : register(t0);
Texture2D<float2> gNormal : register(t1);
Texture2D<float4> gMaterial : register(t2);
Texture2D<float> gDepth : register(t3);
Texture2D<float> gSSAO : register(t4);
SamplerState pointClamp : register(s0);

struct FullscreenOut
{
    float4 position : SV_Position;
    float2 uv : TEXCOORD0;
};

FullscreenOut FullscreenVS(uint vertexId : SV_VertexID)
{
    FullscreenOut o;
    o.uv = float2((vertexId << 1) & 2, vertexId & 2);
    o.position = float4(o.uv * float2(2.0, -2.0) + float2(-1.0, 1.0), 0.0, 1.0);
    return o;
}

float3 DecodeNormalOct(float2 e)
{
    e = e * 2.0 - 1.0;
    float3 n = float3(e.xy, 1.0 - abs(e.x) - abs(e.y));
    float t = saturate(-n.z);
    n.xy += select(n.xy >= 0.0, -t, t);
    return normalize(n);
}

float3 ReconstructWorldPos(float2 uv, float depth)
{
    float4 clip = float4(uv * float2(2.0, -2.0) + float2(-1.0, 1.0), depth, 1.0);
    float4 world = mul(invViewProj, clip);
    return world.xyz / world.w;
}

float3 Shade(float3 albedo, float3 N, float3 V, float roughness, float metallic)
{
    float3 L = normalize(-lightDir);
    float3 H = normalize(L + V);
    float NdotL = saturate(dot(N, L));
    float NdotH = saturate(dot(N, H));
    float a = roughness * roughness;
    float d = NdotH * NdotH * (a * a - 1.0) + 1.0;
    float D = (a * a) / (PI * d * d);
    float3 F0 = lerp(0.04.xxx, albedo, metallic);
    float3 F = F0 + (1.0 - F0) * pow(1.0 - saturate(dot(H, V)), 5.0);
    float3 diffuse = (1.0 - F) * (1.0 - metallic) * albedo / PI;
    return (diffuse + D * F * 0.25) * lightColor * lightIntensity * NdotL;
}

float4 LightingPS(FullscreenOut input) : SV_Target
{
    int3 coord = int3(input.position.xy, 0);
    float depth = gDepth.Load(coord);
    if (depth >= 1.0)
        return float4(0, 0, 0, 0);

    float4 albedo = gAlbedo.Load(coord);
    float3 N = DecodeNormalOct(gNormal.Load(coord));
    float4 mat = gMaterial.Load(coord);
    float ao = gSSAO.SampleLevel(pointClamp, input.uv, 0);

    float3 P = ReconstructWorldPos(input.uv, depth);
    float3 V = normalize(cameraPos - P);

    float3 color = Shade(albedo.rgb, N, V, max(mat.x, 0.05), mat.y);
    color += albedo.rgb * ambientIntensity * ao;

    switch (debugMode)
    {
    case 1:
        return float4(N * 0.5 + 0.5, 1);
    case 2:
        return float4(ao.xxx, 1);
    case 3:
        return float4(frac(P), 1);
    default:
        break;
    }
    return float4(color, 1.0);
}
