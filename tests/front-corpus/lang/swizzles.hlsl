// legalis: -entry main -stage fragment
// Swizzle reads and writes in both alphabets, on scalars, vectors and outputs.

Texture2D<float4> gColor : register(t0);
SamplerState gSampler : register(s0);

float4 main(float4 pos : SV_Position, float2 uv : TEXCOORD0) : SV_Target
{
    float4 c = gColor.Sample(gSampler, uv);
    float4 o = 0;
    o.rgb = c.bgr;
    o.a = c.r;
    o.xy += c.zw;
    o.zw = o.yx * 2.0f;
    o.rg = o.gr;
    float s = 0.5f;
    float3 splat = s.xxx;
    float2 fromScalar = s.rr;
    float4 rep = c.xxyy + c.wwww + c.rgba.abgr;
    float3 n = rep.xyz.zyx.xxy;
    o.r *= splat.y;
    o.ga -= fromScalar;
    o.xyz = normalize(n + 1.0f).xyz;
    float2 p = pos.xy;
    p.yx = p;
    o.xw += p;
    o.rgb = saturate(o.rgb);
    return o.rgba;
}
