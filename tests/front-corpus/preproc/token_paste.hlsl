// legalis: -entry main -stage compute
// Token pasting (##) and stringizing-free macro tricks used to declare resources.

#define DECLARE_TEX(name, slot) Texture2D<float4> name : register(t##slot)
#define DECLARE_UAV(name, slot) RWTexture2D<float4> name : register(u##slot)
#define CONCAT(a, b) a##b
#define FIELD(n) float CONCAT(field, n)

DECLARE_TEX(gInputA, 0);
DECLARE_TEX(gInputB, 1);
DECLARE_UAV(gOutput, 0);

struct Packed
{
    FIELD(0);
    FIELD(1);
    FIELD(2);
};

[numthreads(8, 8, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    Packed p;
    p.field0 = gInputA[id.xy].x;
    p.field1 = gInputB[id.xy].y;
    p.field2 = CONCAT(p.field, 0) + CONCAT(p.field, 1);
    gOutput[id.xy] = float4(p.field0, p.field1, p.field2, 1.0f);
}
