// legalis: -entry main -stage fragment
// Kommentare auf Deutsch, 日本語のコメント, комментарии, emoji 🎨, math ∑∫√ — only in comments.

/* Ünïcödé in a block comment: «guillemets», “quotes”, ‘apostrophes’, and a non-breaking space here: . */

Texture2D gTex : register(t0); // Textur für die Farbe
SamplerState gSamp : register(s0); // サンプラー

float4 main(float2 uv : TEXCOORD0) : SV_Target // Ausgabe
{
    // Gamma-Korrektur: c^(1/2.2) ≈ sqrt(c)
    float4 c = gTex.Sample(gSamp, uv);
    c.rgb = pow(abs(c.rgb), 1.0f / 2.2f); // 色補正
    return c; // готово ✓
}
