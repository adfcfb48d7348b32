// legalis: -entry main -stage fragment
// HLSL 2021 style: select() instead of vector ternaries, and/or intrinsics, member functions.

struct Fog
{
    float density;
    float3 color;

    float3 apply(float3 c, float dist)
    {
        float f = exp(-density * dist);
        return lerp(color, c, f);
    }
};

cbuffer Scene : register(b0)
{
    Fog gFog;
    float gCutoff;
};

float4 main(float4 pos : SV_Position, float3 col : COLOR0, float dist : TEXCOORD0) : SV_Target
{
    float3 c = gFog.apply(col, dist);
    bool3 bright = c > gCutoff;
    float3 clamped = select(bright, gCutoff.xxx, c);
    float k = select(dist > 100.0f, 0.0f, 1.0f);
    int2 choice = select(bool2(true, false), int2(1, 2), int2(3, 4));
    bool3 both = and(bright, c < 2.0f);
    bool3 either = or(bright, c < 0.0f);
    return float4(clamped * k + (float)choice.x * 0.0f, any(both) || all(either) ? 1.0f : 0.0f);
}
