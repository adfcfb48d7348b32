// legalis: -entry main -stage pixel
// Control-flow forms: do/while, switch fall-through, [flatten], [branch], comma in for, early return.

cbuffer CF : register(b0)
{
    int mode;
    int iterations;
    float threshold;
};

float4 main(float4 pos : SV_Position, float2 uv : TEXCOORD0) : SV_Target
{
    float2 z = 0;
    float2 c = uv * 3.0 - float2(2.0, 1.5);
    int i = 0;
    do
    {
        z = float2(z.x * z.x - z.y * z.y, 2.0 * z.x * z.y) + c;
        ++i;
    } while (i < iterations && dot(z, z) < 4.0);

    float t = float(i) / max(iterations, 1);
    float3 col = 0;
    switch (mode)
    {
    case 0:
    case 1:
        col = float3(t, t * t, sqrt(t));
        break;
    case 2:
        col = float3(1.0 - t, 0.5, t);
        // fall through into the brightening case
    case 3:
        col *= 1.5;
        break;
    default:
        col = t.xxx;
        break;
    }

    float acc = 0;
    for (int a = 0, b = 10; a < b; ++a, --b)
        acc += float(a * b);

    [flatten]
    if (t > threshold)
        col = saturate(col + 0.1);

    [branch]
    if (acc < 0)
        return float4(1, 0, 1, 1);

    while (col.r > 1.0)
        col.r -= 1.0;
    return float4(col, 1);
}
