// legalis: -entry VSMain -stage vertex
// legalis: -entry PSMain -stage pixel
// Deferred G-buffer fill with four render targets and octahedral normals.

cbuffer CameraCB : register(b0)
{
    row_major float4x4 viewProjection;
    row_major float4x4 prevViewProjection;
    float2 jitter;
    float2 prevJitter;
};

cbuffer ObjectCB : register(b1)
{
    row_major float4x4 world;
    row_major float4x4 prevWorld;
    uint objectId;
    float3 tint;
};

Texture2D albedoTex : register(t0);
Texture2D normalTex : register(t1);
Texture2D<float2> roughMetalTex : register(t2);
SamplerState anisoWrap : register(s0);

struct VertexInput
{
    float3 pos : POSITION;
    float3 nrm : NORMAL;
    float4 tan : TANGENT;
    float2 uv : TEXCOORD0;
};

struct VertexOutput
{
    float4 svPos : SV_Position;
    float4 currClip : TEXCOORD1;
    float4 prevClip : TEXCOORD2;
    float3 nrm : NORMAL;
    float4 tan : TANGENT;
    float2 uv : TEXCOORD0;
};

struct GBufferOutput
{
    float4 albedo : SV_Target0;
    float2 normal : SV_Target1;
    float4 material : SV_Target2;
    float2 velocity : SV_Target3;
};

VertexOutput VSMain(VertexInput vin)
{
    VertexOutput vout;
    float4 wp = mul(float4(vin.pos, 1.0), world);
    float4 pwp = mul(float4(vin.pos, 1.0), prevWorld);
    vout.currClip = mul(wp, viewProjection);
    vout.prevClip = mul(pwp, prevViewProjection);
    vout.svPos = vout.currClip;
    vout.nrm = mul(vin.nrm, (float3x3)world);
    vout.tan = float4(mul(vin.tan.xyz, (float3x3)world), vin.tan.w);
    vout.uv = vin.uv;
    return vout;
}

float2 OctWrap(float2 v)
{
    return (1.0 - abs(v.yx)) * select(v.xy >= 0.0, 1.0, -1.0);
}

float2 EncodeNormalOct(float3 n)
{
    n /= (abs(n.x) + abs(n.y) + abs(n.z));
    n.xy = n.z >= 0.0 ? n.xy : OctWrap(n.xy);
    return n.xy * 0.5 + 0.5;
}

GBufferOutput PSMain(VertexOutput pin, bool isFrontFace : SV_IsFrontFace)
{
    float3 N = normalize(pin.nrm) * (isFrontFace ? 1.0 : -1.0);
    float3 T = normalize(pin.tan.xyz);
    float3 B = cross(N, T) * pin.tan.w;
    float3 tn = normalTex.Sample(anisoWrap, pin.uv).xyz * 2.0 - 1.0;
    float3 worldN = normalize(mul(tn, float3x3(T, B, N)));

    float2 rm = roughMetalTex.Sample(anisoWrap, pin.uv);

    float2 curr = pin.currClip.xy / pin.currClip.w - jitter;
    float2 prev = pin.prevClip.xy / pin.prevClip.w - prevJitter;

    GBufferOutput o;
    o.albedo = float4(albedoTex.Sample(anisoWrap, pin.uv).rgb * tint, 1.0);
    o.normal = EncodeNormalOct(worldN);
    o.material = float4(rm.x, rm.y, 0.0, float(objectId & 0xFF) / 255.0);
    o.velocity = (curr - prev) * float2(0.5, -0.5);
    return o;
}
