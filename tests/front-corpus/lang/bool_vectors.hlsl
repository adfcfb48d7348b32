// legalis: -entry main -stage fragment
// bool vectors built from comparisons, combined and reduced with any/all.

cbuffer Params : register(b0)
{
    float4 boundsMin;
    float4 boundsMax;
    int4 enabledMask;
};

float4 main(float4 p : TEXCOORD0) : SV_Target
{
    bool4 above = p >= boundsMin;
    bool4 below = p <= boundsMax;
    bool4 inside = and(above, below);
    bool3 nz = bool3(p.xyz);
    bool2 flags = bool2(true, false);
    bool4 enabled = enabledMask != 0;
    bool4 mixed = or(inside, !enabled);
    if (!all(mixed))
        discard;
    bool anyNeg = any(p < 0.0f);
    bool allPos = all(p.xyz > 0.0f);
    float4 asFloat = (float4)inside;
    int3 asInt = (int3)nz;
    float r = anyNeg ? 1.0f : 0.0f;
    float g = allPos ? 1.0f : 0.0f;
    float b = (flags.x && !flags.y) ? 1.0f : 0.0f;
    return float4(r, g, b, dot(asFloat, 1.0f) + (float)(asInt.x + asInt.y + asInt.z));
}
