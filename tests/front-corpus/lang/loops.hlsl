// legalis: -entry main -stage compute
// do/while with continue, for with comma expressions, nested loops with plain break, loop attributes.

RWStructuredBuffer<uint> gOut : register(u0);
StructuredBuffer<uint> gData : register(t0);

uint collatzSteps(uint n)
{
    uint steps = 0;
    do
    {
        if (n <= 1)
            break;
        steps++;
        if ((n & 1) == 0)
        {
            n >>= 1;
            continue;
        }
        n = 3 * n + 1;
    } while (steps < 1000);
    return steps;
}

uint findPair(uint target)
{
    uint found = 0xFFFFFFFFu;
    for (uint i = 0; i < 8; i++)
    {
        bool done = false;
        for (uint j = i + 1; j < 8; j++)
        {
            if (gData[i] + gData[j] == target)
            {
                found = (i << 16) | j;
                done = true;
                break;
            }
        }
        if (done)
            break;
    }
    return found;
}

[numthreads(64, 1, 1)]
void main(uint3 tid : SV_DispatchThreadID)
{
    uint sum = 0;
    int i, j;
    for (i = 0, j = 10; i < j; i++, j--)
        sum += (uint)(i * j);

    [unroll]
    for (int k = 0; k < 4; ++k)
        sum += gData[k];

    [loop]
    for (uint m = 0; m < tid.x; m += 2)
    {
        if (m == 6)
            continue;
        sum ^= m;
    }

    uint w = tid.x;
    while (w != 0)
    {
        sum += w & 1;
        w >>= 1;
    }

    [fastopt]
    for (;;)
    {
        if (sum > 100)
            break;
        sum += 7;
    }

    gOut[tid.x] = sum + collatzSteps(tid.x + 1) + findPair(tid.x);
}
