// legalis: -entry vsMain -stage vertex
// legalis: -entry psMain -stage fragment
// SV_ClipDistance0 / SV_CullDistance0 as float arrays, read back in the pixel shader.

cbuffer Planes : register(b0)
{
    float4x4 gMvp;
    float4 gPlanes[3];
};

struct VSOut
{
    float4 pos : SV_Position;
    float clip[3] : SV_ClipDistance0;
    float cull[2] : SV_CullDistance0;
};

VSOut vsMain(float3 p : POSITION)
{
    VSOut o;
    o.pos = mul(gMvp, float4(p, 1.0f));
    [unroll]
    for (int i = 0; i < 3; i++)
        o.clip[i] = dot(float4(p, 1.0f), gPlanes[i]);
    o.cull[0] = o.pos.w - 0.01f;
    o.cull[1] = 1000.0f - o.pos.w;
    return o;
}

float4 psMain(VSOut i) : SV_Target
{
    float m = min(min(i.clip[0], i.clip[1]), i.clip[2]);
    return float4(saturate(m), i.cull[0], i.cull[1], 1.0f);
}
