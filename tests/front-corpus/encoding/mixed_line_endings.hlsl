// legalis: -entry main -stage compute
// Mixed line endings: LF, CRLF and a lone CR in one file (copy-pasted from several sources).

RWStructuredBuffer<uint> gOut : register(u0);

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint v = id.x * 2u;    v += 1u;
    gOut[id.x] = v;
}
