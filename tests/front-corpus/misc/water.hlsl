// legalis: -entry VSWater -stage vertex
// legalis: -entry PSWater -stage pixel
// Gerstner-wave water with screen-space refraction and Fresnel.

#define NUM_WAVES 4

struct Wave
{
    float2 direction;
    float steepness;
    float wavelength;
};

cbuffer WaterCB : register(b0)
{
    float4x4 viewProj;
    float3 cameraPos;
    float time;
    Wave waves[NUM_WAVES];
    float3 deepColor;
    float refractionStrength;
    float3 shallowColor;
    float fresnelPower;
};

Texture2D SceneColor : register(t0);
Texture2D<float> SceneDepth : register(t1);
Texture2D NormalDetail : register(t2);
SamplerState LinearWrap : register(s0);
SamplerState LinearClamp : register(s1);

struct VSOut
{
    float4 pos : SV_Position;
    float3 worldPos : TEXCOORD0;
    float3 normal : NORMAL;
    float4 screenPos : TEXCOORD1;
};

float3 Gerstner(Wave w, float3 p, inout float3 tangent, inout float3 binormal)
{
    float k = 2.0 * 3.14159265 / w.wavelength;
    float c = sqrt(9.8 / k);
    float2 d = normalize(w.direction);
    float f = k * (dot(d, p.xz) - c * time);
    float a = w.steepness / k;
    tangent += float3(-d.x * d.x * (w.steepness * sin(f)), d.x * (w.steepness * cos(f)), -d.x * d.y * (w.steepness * sin(f)));
    binormal += float3(-d.x * d.y * (w.steepness * sin(f)), d.y * (w.steepness * cos(f)), -d.y * d.y * (w.steepness * sin(f)));
    return float3(d.x * (a * cos(f)), a * sin(f), d.y * (a * cos(f)));
}

VSOut VSWater(float3 pos : POSITION)
{
    float3 tangent = float3(1, 0, 0);
    float3 binormal = float3(0, 0, 1);
    float3 p = pos;
    [unroll]
    for (int i = 0; i < NUM_WAVES; ++i)
        p += Gerstner(waves[i], pos, tangent, binormal);
    VSOut o;
    o.worldPos = p;
    o.normal = normalize(cross(binormal, tangent));
    o.pos = mul(viewProj, float4(p, 1));
    o.screenPos = o.pos;
    return o;
}

float4 PSWater(VSOut i) : SV_Target
{
    float2 detailUV = i.worldPos.xz * 0.1 + time * 0.02;
    float3 detail = NormalDetail.Sample(LinearWrap, detailUV).xzy * 2 - 1;
    float3 n = normalize(i.normal + detail * 0.3);
    float2 screenUV = i.screenPos.xy / i.screenPos.w * float2(0.5, -0.5) + 0.5;
    float2 refractUV = screenUV + n.xz * refractionStrength;
    float3 refracted = SceneColor.Sample(LinearClamp, refractUV).rgb;
    float sceneZ = SceneDepth.Sample(LinearClamp, screenUV);
    float waterDepth = saturate((sceneZ - i.screenPos.z / i.screenPos.w) * 50.0);
    float3 waterColor = lerp(shallowColor, deepColor, waterDepth);
    float3 v = normalize(cameraPos - i.worldPos);
    float fresnel = pow(1.0 - saturate(dot(n, v)), fresnelPower);
    float3 color = lerp(refracted * waterColor, float3(0.6, 0.75, 0.9), fresnel);
    return float4(color, 1);
}
