// legalis: -entry main -stage fragment
// Saved by a Windows editor: CRLF line endings everywhere, including inside a continued macro.

#define BLEND(a, b, t) \
    lerp(a, b, t)

Texture2D gTex : register(t0);
SamplerState gSamp : register(s0);

/* a block comment
   spanning CRLF lines */
float4 main(float2 uv : TEXCOORD0) : SV_Target
{
    float4 c = gTex.Sample(gSamp, uv);
#ifdef NOT_DEFINED
    c = 0;
#else
    c.rgb = BLEND(c.rgb, c.bgr, 0.25f);
#endif
    return c;
}
