// legalis: -entry main -stage fragment
// legalis: -entry main -stage fragment -D QUALITY=3
// legalis: -entry main -stage fragment -D QUALITY=1 -D USE_FOG
// legalis: -entry main -stage fragment -D QUALITY=4 -D USE_FOG=1 -D PLATFORM_MOBILE
// #if with defined(), &&, ||, comparisons and arithmetic; nested #ifdef; #elif chains.

#ifndef QUALITY
#define QUALITY 2
#endif

#if defined(QUALITY) && QUALITY > 2
#define TAP_COUNT 8
#elif QUALITY == 2 || (QUALITY * 2 == 4)
#define TAP_COUNT 4
#else
#define TAP_COUNT 1
#endif

#if !defined(PLATFORM_MOBILE) && (TAP_COUNT >= 4)
#define USE_HQ_FILTER 1
#else
#define USE_HQ_FILTER 0
#endif

#if defined USE_FOG
#ifdef PLATFORM_MOBILE
#define FOG_DENSITY 0.02f
#else
#if QUALITY >= 3
#define FOG_DENSITY 0.01f
#else
#define FOG_DENSITY 0.015f
#endif
#endif
#endif

#if (1 << 3) != 8 || 10 / 3 != 3 || 10 % 3 != 1 || -1 >= 0 || ~0 != -1
#error "preprocessor arithmetic is broken"
#endif

Texture2D gTex : register(t0);
SamplerState gSamp : register(s0);

float4 main(float4 pos : SV_Position, float2 uv : TEXCOORD0) : SV_Target
{
    float4 acc = 0;
    [unroll]
    for (int i = 0; i < TAP_COUNT; i++)
        acc += gTex.Sample(gSamp, uv + float2(i, 0) * 0.001f);
    acc /= TAP_COUNT;
#if USE_HQ_FILTER
    acc = saturate(acc * 1.05f);
#endif
#ifdef FOG_DENSITY
    acc.rgb = lerp(float3(0.5f, 0.6f, 0.7f), acc.rgb, exp(-FOG_DENSITY * pos.w));
#endif
    return acc;
}
