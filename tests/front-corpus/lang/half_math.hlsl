// legalis: -entry main -stage fragment
// half and 16-bit integer arithmetic mixed with float.

Texture2D<half4> gTex : register(t0);
SamplerState gSamp : register(s0);

half3 tint(half3 c, half2 k)
{
    return c * k.x + (half3)0.1;
}

half luminance(half3 c)
{
    return dot(c, half3(0.2126h, 0.7152h, 0.0722h));
}

float4 main(float2 uv : TEXCOORD0) : SV_Target
{
    half4 c = gTex.Sample(gSamp, uv);
    half l = luminance(c.rgb);
    half3 boosted = c.rgb * (half)1.5 + l;
    half3 t = tint((half3)boosted, half2(0.75, 0.25));
    int16_t2 count = int16_t2(3, 1);
    uint16_t2 mask = 0xF;
    float16_t f16 = (float16_t)l;
    half3x3 hm = half3x3(1, 0, 0, 0, 1, 0, 0, 0, 1);
    half3 rotated = mul(hm, boosted);
    float3 result = (float3)t + (float3)rotated * (float)count.x * 0.1f + (float)(mask.y & 3u) + (float)f16;
    return float4(result, (float)c.a);
}
