// legalis: -entry main -stage fragment
// Texture2DMS<float4, 4> Load with a sample index, standard 4x sample positions, custom resolve.

Texture2DMS<float4, 4> gColorMS : register(t0);
Texture2DMS<float> gDepthMS : register(t1);

static const float2 kSamplePos4[4] = { float2(-0.125f, -0.375f), float2(0.375f, -0.125f), float2(-0.375f, 0.125f), float2(0.125f, 0.375f) };

float4 main(float4 pos : SV_Position) : SV_Target
{
    int2 p = int2(pos.xy);
    float4 sum = 0;
    float wsum = 0;
    [unroll]
    for (int s = 0; s < 4; s++)
    {
        float4 c = gColorMS.Load(p, s);
        float z = gDepthMS.Load(p, s);
        float2 off = kSamplePos4[s];
        float w = 1.0f / (1.0f + dot(c.rgb, 0.333f)) * (1.0f - length(off));
        sum += c * w;
        wsum += w;
        sum.a = max(sum.a, z);
    }
    float4 offsetLoad = gColorMS.Load(p, 0, int2(1, 0));
    return sum / max(wsum, 1e-4f) + offsetLoad * 0.0f;
}
