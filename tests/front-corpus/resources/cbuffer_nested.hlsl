// legalis: -entry main -stage vertex
// cbuffer with nested structs, arrays of structs, arrays of vectors, and ConstantBuffer<T> arrays.

struct Light
{
    float3 position;
    float radius;
    float3 color;
    uint flags;
};

struct Camera
{
    float4x4 view;
    float4x4 proj;
    struct
    {
        float nearZ;
        float farZ;
    } clip;
};

struct CameraPlain
{
    float4x4 view;
    float4x4 proj;
    float2 clipRange;
};

cbuffer Frame : register(b0)
{
    CameraPlain gCamera;
    Light gLights[4];
    float4 gSH[9];
    uint gLightCount;
    float3 gPad;
};

struct Instance
{
    float4x4 world;
    float4 tint;
};

ConstantBuffer<Instance> gInstances[8] : register(b1);
ConstantBuffer<Instance> gSingle : register(b9, space1);

struct VSOut
{
    float4 pos : SV_Position;
    float4 color : COLOR0;
};

VSOut main(float3 pos : POSITION, uint inst : SV_InstanceID)
{
    VSOut o;
    Instance i = gInstances[inst & 7];
    float4 wp = mul(i.world, float4(pos, 1.0f));
    o.pos = mul(gCamera.proj, mul(gCamera.view, wp));
    float3 c = gSH[0].rgb;
    for (uint l = 0; l < gLightCount; l++)
    {
        float d = distance(gLights[l].position, wp.xyz);
        c += gLights[l].color * saturate(1.0f - d / gLights[l].radius);
    }
    o.color = float4(c, 1.0f) * i.tint * gSingle.tint;
    o.pos.z = clamp(o.pos.z, gCamera.clipRange.x, gCamera.clipRange.y);
    return o;
}
