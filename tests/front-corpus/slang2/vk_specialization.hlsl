// legalis: -entry main -stage compute
// Vulkan-flavoured HLSL: [[vk::constant_id]] specialization constants, [[vk::push_constant]], [[vk::binding]] with sets, image formats.

[[vk::constant_id(0)]] const int kRadius = 4;
[[vk::constant_id(1)]] const float kSigma = 2.0f;
[[vk::constant_id(2)]] const bool kHorizontal = true;

struct Push
{
    uint2 size;
    float strength;
};

[[vk::push_constant]] Push gPush;

[[vk::binding(0, 1)]] Texture2D<float4> gSrc;
[[vk::binding(1, 1)]] SamplerState gSamp;
[[vk::binding(2, 1)]] [[vk::image_format("rgba16f")]] RWTexture2D<float4> gDst;

[numthreads(16, 16, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    if (any(id.xy >= gPush.size))
        return;
    float2 texel = 1.0f / float2(gPush.size);
    float2 uv = (float2(id.xy) + 0.5f) * texel;
    float2 dir = kHorizontal ? float2(texel.x, 0) : float2(0, texel.y);
    float4 sum = 0;
    float wsum = 0;
    for (int i = -kRadius; i <= kRadius; i++)
    {
        float w = exp(-(float)(i * i) / (2.0f * kSigma * kSigma));
        sum += gSrc.SampleLevel(gSamp, uv + dir * (float)i, 0) * w;
        wsum += w;
    }
    gDst[id.xy] = lerp(gSrc[id.xy], sum / wsum, gPush.strength);
}
