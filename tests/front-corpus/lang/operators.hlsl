// legalis: -entry main -stage fragment
// legalis-rejects: E20003 the comma operator inside an expression is not supported yet
// Operator coverage: precedence, compound assignment of every kind, comma, ternary chains, ++/--.

cbuffer C : register(b0)
{
    int4 gI;
    uint4 gU;
    float4 gF;
};

float4 main(float2 uv : TEXCOORD0) : SV_Target
{
    int a = gI.x, b = gI.y, c = gI.z;
    uint u = gU.x;
    a += b; a -= c; a *= 3; a /= 2; a %= 5;
    u <<= 2; u >>= 1; u &= 0xFF; u |= 0x100; u ^= 0x3;
    int pre = ++a;
    int post = b++;
    --c;
    c--;
    int prec = a + b * c - (a << 1) % 7 & 0xF | b ^ c;
    bool logic = a < b && b <= c || !(c > a) && a != b;
    int tern = a > 0 ? 1 : a < 0 ? -1 : 0;
    float f = gF.x;
    f = (f += 1.0f) * 2.0f;
    float g = (f, gF.y);
    float neg = -f + +g;
    int bitnot = ~a;
    float4 v = gF;
    v *= 2.0f;
    v /= float4(1, 2, 3, 4);
    v += uv.xyxy;
    v -= 0.5f;
    float4 vm = fmod(v, 3.0f);
    int4 iv = gI % 4;
    return float4(vm.x + (float)(pre + post + prec + tern + bitnot + iv.w), logic ? 1.0f : 0.0f, neg, (float)u);
}
