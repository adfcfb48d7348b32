// legalis: -entry main -stage fragment
// A 20-level chain of small functions (no recursion), each adding a little work.

Texture2D gTex : register(t0);
SamplerState gSamp : register(s0);

float4 level0(float4 v, float2 uv)
{
    return v + gTex.Sample(gSamp, uv) * 0.01f;
}

float4 level1(float4 v, float2 uv)
{
    float4 t = level0(v * 0.99f, uv + float2(1.0f, 0.0f) * 0.001f);
    return t + (float)1 * 0.0001f;
}

float4 level2(float4 v, float2 uv)
{
    float4 t = level1(v * 0.99f, uv + float2(2.0f, 0.0f) * 0.001f);
    return t + (float)2 * 0.0001f;
}

float4 level3(float4 v, float2 uv)
{
    float4 t = level2(v * 0.99f, uv + float2(3.0f, 0.0f) * 0.001f);
    return t + (float)3 * 0.0001f;
}

float4 level4(float4 v, float2 uv)
{
    float4 t = level3(v * 0.99f, uv + float2(4.0f, 0.0f) * 0.001f);
    return t + (float)4 * 0.0001f;
}

float4 level5(float4 v, float2 uv)
{
    float4 t = level4(v * 0.99f, uv + float2(5.0f, 0.0f) * 0.001f);
    return t + (float)5 * 0.0001f;
}

float4 level6(float4 v, float2 uv)
{
    float4 t = level5(v * 0.99f, uv + float2(6.0f, 0.0f) * 0.001f);
    return t + (float)6 * 0.0001f;
}

float4 level7(float4 v, float2 uv)
{
    float4 t = level6(v * 0.99f, uv + float2(7.0f, 0.0f) * 0.001f);
    return t + (float)7 * 0.0001f;
}

float4 level8(float4 v, float2 uv)
{
    float4 t = level7(v * 0.99f, uv + float2(8.0f, 0.0f) * 0.001f);
    return t + (float)8 * 0.0001f;
}

float4 level9(float4 v, float2 uv)
{
    float4 t = level8(v * 0.99f, uv + float2(9.0f, 0.0f) * 0.001f);
    return t + (float)9 * 0.0001f;
}

float4 level10(float4 v, float2 uv)
{
    float4 t = level9(v * 0.99f, uv + float2(10.0f, 0.0f) * 0.001f);
    return t + (float)10 * 0.0001f;
}

float4 level11(float4 v, float2 uv)
{
    float4 t = level10(v * 0.99f, uv + float2(11.0f, 0.0f) * 0.001f);
    return t + (float)11 * 0.0001f;
}

float4 level12(float4 v, float2 uv)
{
    float4 t = level11(v * 0.99f, uv + float2(12.0f, 0.0f) * 0.001f);
    return t + (float)12 * 0.0001f;
}

float4 level13(float4 v, float2 uv)
{
    float4 t = level12(v * 0.99f, uv + float2(13.0f, 0.0f) * 0.001f);
    return t + (float)13 * 0.0001f;
}

float4 level14(float4 v, float2 uv)
{
    float4 t = level13(v * 0.99f, uv + float2(14.0f, 0.0f) * 0.001f);
    return t + (float)14 * 0.0001f;
}

float4 level15(float4 v, float2 uv)
{
    float4 t = level14(v * 0.99f, uv + float2(15.0f, 0.0f) * 0.001f);
    return t + (float)15 * 0.0001f;
}

float4 level16(float4 v, float2 uv)
{
    float4 t = level15(v * 0.99f, uv + float2(16.0f, 0.0f) * 0.001f);
    return t + (float)16 * 0.0001f;
}

float4 level17(float4 v, float2 uv)
{
    float4 t = level16(v * 0.99f, uv + float2(17.0f, 0.0f) * 0.001f);
    return t + (float)17 * 0.0001f;
}

float4 level18(float4 v, float2 uv)
{
    float4 t = level17(v * 0.99f, uv + float2(18.0f, 0.0f) * 0.001f);
    return t + (float)18 * 0.0001f;
}

float4 level19(float4 v, float2 uv)
{
    float4 t = level18(v * 0.99f, uv + float2(19.0f, 0.0f) * 0.001f);
    return t + (float)19 * 0.0001f;
}

float4 level20(float4 v, float2 uv)
{
    float4 t = level19(v * 0.99f, uv + float2(20.0f, 0.0f) * 0.001f);
    return t + (float)20 * 0.0001f;
}

float4 main(float2 uv : TEXCOORD0) : SV_Target
{
    return level20(float4(uv, 0.0f, 1.0f), uv);
}
