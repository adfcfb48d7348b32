// legalis: -entry main -stage pixel
// Impostor sphere: ray-sphere in the pixel shader, writes SV_Depth and two targets.

cbuffer ImpostorCB : register(b0)
{
    float4x4 proj;
    float3 lightDirVS;
};

struct PSIn
{
    float4 pos : SV_Position;
    float3 centerVS : TEXCOORD0;
    float radius : TEXCOORD1;
    float3 rayDirVS : TEXCOORD2;
    nointerpolation float4 color : COLOR0;
};

struct PSOut
{
    float4 color : SV_Target0;
    float4 normal : SV_Target1;
    float depth : SV_Depth;
};

PSOut main(PSIn i)
{
    float3 d = normalize(i.rayDirVS);
    float b = dot(d, i.centerVS);
    float c = dot(i.centerVS, i.centerVS) - i.radius * i.radius;
    float disc = b * b - c;
    if (disc < 0)
        discard;
    float t = b - sqrt(disc);
    float3 hit = d * t;
    float3 n = normalize(hit - i.centerVS);
    float4 clip = mul(proj, float4(hit, 1));
    PSOut o;
    o.color = float4(i.color.rgb * saturate(dot(n, -lightDirVS)), 1);
    o.normal = float4(n * 0.5 + 0.5, 0);
    o.depth = clip.z / clip.w;
    return o;
}
