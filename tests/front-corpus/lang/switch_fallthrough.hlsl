// legalis: -entry main -stage compute
// switch with fall-through, default in the middle, nested switch, enum-like constants.

#define OP_ADD 0
#define OP_SUB 1
#define OP_MUL 2
#define OP_DIV 3
#define OP_NOP 7

StructuredBuffer<uint4> gProgram : register(t0);
RWStructuredBuffer<float> gResult : register(u0);

float run(uint4 ins, float acc)
{
    switch (ins.x)
    {
    case OP_ADD:
        acc += (float)ins.y;
        break;
    case OP_SUB:
        acc -= (float)ins.y;
        break;
    default:
        acc = acc;
        break;
    case OP_MUL:
    case OP_MUL + 10:
        acc *= (float)ins.y;
        break;
    case OP_DIV:
        if (ins.y == 0)
            break;
        acc /= (float)ins.y;
        break;
    case OP_NOP:
        break;
    }
    return acc;
}

int classify(int v)
{
    int r = 0;
    switch (v & 3)
    {
    case 0:
        r += 1;
        [[fallthrough]];
    case 1:
        r += 2;
        [[fallthrough]];
    case 2:
        switch (v >> 2)
        {
        case 0: r += 10; break;
        case 1: r += 20; break;
        default: r += 30; break;
        }
        break;
    default:
        r = -1;
    }
    return r;
}

[numthreads(64, 1, 1)]
void main(uint3 tid : SV_DispatchThreadID)
{
    float acc = 0.0f;
    for (uint i = 0; i < 16; ++i)
        acc = run(gProgram[tid.x * 16 + i], acc);
    gResult[tid.x] = acc + (float)classify((int)tid.x);
}
