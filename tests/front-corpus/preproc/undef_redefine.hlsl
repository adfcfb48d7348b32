// legalis: -entry main -stage vertex
// #undef and re-#define, macros expanding to other macros, object-like macros used as types.

#define REAL float
#define REAL3 float3
#define SCALE 2.0f
#define DOUBLE_SCALE (SCALE * 2.0f)

#undef SCALE
#define SCALE 3.0f

#define VEC(n) float##n
#define MATRIX_TYPE float4x4

cbuffer CB : register(b0)
{
    MATRIX_TYPE gMvp;
};

#ifdef SCALE
static const REAL kScale = DOUBLE_SCALE;
#endif

#undef REAL
#define REAL half

float4 main(REAL3 pos : POSITION) : SV_Position
{
    REAL h = (REAL)0.5;
    VEC(4) p = VEC(4)(pos * kScale, 1.0f);
    p.x += (float)h;
    return mul(p, gMvp);
}
