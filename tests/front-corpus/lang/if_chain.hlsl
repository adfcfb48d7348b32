// legalis: -entry main -stage fragment
// A 34-branch if / else if chain, as found in debug-view selectors.

cbuffer DebugCB : register(b0)
{
    uint gDebugMode;
    float gDebugScale;
};

float4 main(float4 pos : SV_Position, float3 n : NORMAL, float2 uv : TEXCOORD0) : SV_Target
{
    float4 c = float4(0, 0, 0, 1);
    if (gDebugMode == 0u)
    {
        c.rgb = n * 0.5f + 0.5f;
    }
    else if (gDebugMode == 1u)
    {
        c.rg = uv;
    }
    else if (gDebugMode == 2u)
    {
        c.rgb = pos.zzz;
    }
    else if (gDebugMode == 3u)
    {
        c.r = frac(uv.x * 8.0f);
    }
    else if (gDebugMode == 4u)
    {
        c.g = frac(uv.y * 8.0f);
    }
    else if (gDebugMode == 5u)
    {
        c.rgb = abs(n);
    }
    else if (gDebugMode == 6u)
    {
        c.rgb = n.zyx;
    }
    else if (gDebugMode == 7u)
    {
        c.rgb = float3(uv, 0.5f);
    }
    else if (gDebugMode == 8u)
    {
        c.rgb = ddx(pos.z) * 100.0f;
    }
    else if (gDebugMode == 9u)
    {
        c.rgb = ddy(pos.z) * 100.0f;
    }
    else if (gDebugMode == 10u)
    {
        c.rgb = fwidth(uv).xyx;
    }
    else if (gDebugMode == 11u)
    {
        c.rgb = length(n).xxx;
    }
    else if (gDebugMode == 12u)
    {
        c.rgb = saturate(n);
    }
    else if (gDebugMode == 13u)
    {
        c.rgb = step(0.5f, uv).xyx;
    }
    else if (gDebugMode == 14u)
    {
        c.rgb = smoothstep(0.0f, 1.0f, uv.yxy);
    }
    else if (gDebugMode == 15u)
    {
        c.rgb = sin(uv.x * 6.28f).xxx;
    }
    else if (gDebugMode == 16u)
    {
        c.rgb = cos(uv.y * 6.28f).xxx;
    }
    else if (gDebugMode == 17u)
    {
        c.rgb = float3(1, 0, 0);
    }
    else if (gDebugMode == 18u)
    {
        c.rgb = float3(0, 1, 0);
    }
    else if (gDebugMode == 19u)
    {
        c.rgb = float3(0, 0, 1);
    }
    else if (gDebugMode == 20u)
    {
        c.rgb = float3(1, 1, 0);
    }
    else if (gDebugMode == 21u)
    {
        c.rgb = float3(0, 1, 1);
    }
    else if (gDebugMode == 22u)
    {
        c.rgb = float3(1, 0, 1);
    }
    else if (gDebugMode == 23u)
    {
        c.rgb = pow(saturate(n), 2.2f);
    }
    else if (gDebugMode == 24u)
    {
        c.rgb = exp2(-abs(n));
    }
    else if (gDebugMode == 25u)
    {
        c.rgb = log2(1.0f + abs(n));
    }
    else if (gDebugMode == 26u)
    {
        c.rgb = sqrt(abs(n));
    }
    else if (gDebugMode == 27u)
    {
        c.rgb = rsqrt(1.0f + abs(n));
    }
    else if (gDebugMode == 28u)
    {
        c.rgb = floor(uv * 4.0f).xyx / 4.0f;
    }
    else if (gDebugMode == 29u)
    {
        c.rgb = ceil(uv * 4.0f).xyx / 4.0f;
    }
    else if (gDebugMode == 30u)
    {
        c.rgb = round(n);
    }
    else if (gDebugMode == 31u)
    {
        c.rgb = trunc(n * 3.0f) / 3.0f;
    }
    else if (gDebugMode == 32u)
    {
        c.rgb = sign(n);
    }
    else
    {
        c.rgb = 1.0f;
    }
    c.rgb *= gDebugScale;
    return c;
}
