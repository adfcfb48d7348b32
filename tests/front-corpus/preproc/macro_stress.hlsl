// legalis: -entry main -stage compute
// Macros generating statements, unrolled bodies via repeated expansion, and shadowing of names.

#define REPEAT4(X) X(0) X(1) X(2) X(3)
#define REPEAT16(X) REPEAT4(X) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15)
#define ACCUM(i) sum += gData[base + i] * (float)(i + 1);
#define SWAP(T, a, b) { T tmp_ = a; a = b; b = tmp_; }
#define MIN_MAX(a, b) if ((a) > (b)) SWAP(float, a, b)
#define ARRAY_LEN 16
#define IDX(x, y) ((y) * ARRAY_LEN + (x))

StructuredBuffer<float> gData : register(t0);
RWStructuredBuffer<float4> gOut : register(u0);

[numthreads(16, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint base = id.x * ARRAY_LEN;
    float sum = 0.0f;
    REPEAT16(ACCUM)
    float a = gData[IDX(0, id.x)];
    float b = gData[IDX(1, id.x)];
    float c = gData[IDX(2, id.x)];
    MIN_MAX(a, b)
    MIN_MAX(b, c)
    MIN_MAX(a, b)
    gOut[id.x] = float4(sum, a, b, c);
}
