// legalis: -entry main -stage fragment
// Enum values qualified with `::` (the reference rejects unqualified ones): case labels, comparisons, array sizes.

enum BlendMode
{
    BLEND_OPAQUE,
    BLEND_ALPHA,
    BLEND_ADD,
    BLEND_MULTIPLY,
    BLEND_COUNT
};

static const float kBlendAlpha[(int)BlendMode::BLEND_COUNT] = { 1.0f, 0.5f, 0.25f, 0.75f };

cbuffer Material : register(b0)
{
    uint gBlendMode;
    float4 gColor;
};

float4 main(float4 dst : COLOR0) : SV_Target
{
    float4 src = gColor;
    float4 r;
    switch ((BlendMode)gBlendMode)
    {
    case BlendMode::BLEND_OPAQUE:
        r = src;
        break;
    case BlendMode::BLEND_ALPHA:
        r = lerp(dst, src, src.a);
        break;
    case BlendMode::BLEND_ADD:
        r = dst + src;
        break;
    case BlendMode::BLEND_MULTIPLY:
        r = dst * src;
        break;
    default:
        r = float4(1, 0, 1, 1);
        break;
    }
    if (gBlendMode == (uint)BlendMode::BLEND_ADD)
        r.a = 1.0f;
    return r * kBlendAlpha[min(gBlendMode, (uint)BlendMode::BLEND_COUNT - 1)];
}
