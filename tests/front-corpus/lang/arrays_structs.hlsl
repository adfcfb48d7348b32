// legalis: -entry main -stage compute
// Array copies, arrays of arrays passed to functions, struct assignment, struct ternaries, static const struct.

struct Range
{
    float lo;
    float hi;
};

static const Range kUnit = { 0.0f, 1.0f };

RWStructuredBuffer<float4> gOut : register(u0);

float sum3x2(float a[3][2])
{
    float s = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 2; j++)
            s += a[i][j];
    return s;
}

Range widen(Range r, float by)
{
    Range o = r;
    o.lo -= by;
    o.hi += by;
    return o;
}

[numthreads(32, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float grid[3][2] = { { 1, 2 }, { 3, 4 }, { 5, 6 } };
    float copy[3][2] = grid;
    copy[1][1] = (float)id.x;
    float row[2] = copy[2];
    Range a = kUnit;
    Range b = widen(a, 0.5f);
    Range c = id.x > 16 ? a : b;
    Range list[2] = { a, c };
    list[1] = list[0];
    int big = -2147483647 - 1;
    uint top = 1u << 31;
    while (true)
    {
        if (top < 2u)
            break;
        top >>= 4;
    }
    for (;;)
        break;
    gOut[id.x] = float4(sum3x2(grid) + sum3x2(copy), row[0] + row[1], c.hi - c.lo + list[1].hi, (float)(big & 1) + (float)top);
}
