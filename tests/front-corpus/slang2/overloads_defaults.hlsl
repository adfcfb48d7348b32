// legalis: -entry main -stage fragment
// Overloads by parameter type and count, default parameter values, const/in/uniform parameter modifiers, inline.

float luma(float3 c) { return dot(c, float3(0.2126f, 0.7152f, 0.0722f)); }
float luma(float4 c) { return luma(c.rgb) * c.a; }
float luma(half3 c) { return (float)dot(c, half3(0.3h, 0.6h, 0.1h)); }

int pick(int a) { return a; }
uint pick(uint a) { return a * 2u; }
float pick(float a) { return a * 3.0f; }

float3 tonemap(float3 c, float exposure = 1.0f, float whitePoint = 4.0f)
{
    c *= exposure;
    return c * (1.0f + c / (whitePoint * whitePoint)) / (1.0f + c);
}

inline float sq(const float x) { return x * x; }

float4 main(float4 color : COLOR0, uniform float gExposure, in float2 uv : TEXCOORD0) : SV_Target
{
    float a = luma(color.rgb);
    float b = luma(color);
    float c = luma((half3)color.rgb);
    float p = (float)pick(3) + (float)pick(3u) + pick(3.0f);
    float3 t0 = tonemap(color.rgb);
    float3 t1 = tonemap(color.rgb, gExposure);
    float3 t2 = tonemap(color.rgb, gExposure, 8.0f);
    precise float s = sq(uv.x) + sq(uv.y);
    return float4((t0 + t1 + t2) / 3.0f, a + b + c + p * 0.0f + s);
}
