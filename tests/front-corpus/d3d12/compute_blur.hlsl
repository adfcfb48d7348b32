// legalis: -entry CSMain -stage compute
// D3D12-style separable blur with root constants and typed UAV.

cbuffer BlurConstants : register(b0)
{
    uint2 g_size;
    float2 g_invSize;
    int g_radius;
    uint g_horizontal;
};

Texture2D<float4> g_input : register(t0);
RWTexture2D<float4> g_output : register(u0);
SamplerState g_clampSampler : register(s0);

static const float g_weights[5] = { 0.227027, 0.1945946, 0.1216216, 0.054054, 0.016216 };

[numthreads(8, 8, 1)]
void CSMain(uint3 dtid : SV_DispatchThreadID)
{
    if (dtid.x >= g_size.x || dtid.y >= g_size.y)
        return;

    float2 uv = (float2(dtid.xy) + 0.5) * g_invSize;
    float2 dir = g_horizontal != 0 ? float2(g_invSize.x, 0) : float2(0, g_invSize.y);
    float4 sum = g_input.SampleLevel(g_clampSampler, uv, 0) * g_weights[0];
    [unroll]
    for (int i = 1; i < 5; ++i)
    {
        sum += g_input.SampleLevel(g_clampSampler, uv + dir * i, 0) * g_weights[i];
        sum += g_input.SampleLevel(g_clampSampler, uv - dir * i, 0) * g_weights[i];
    }
    g_output[dtid.xy] = sum;
}
