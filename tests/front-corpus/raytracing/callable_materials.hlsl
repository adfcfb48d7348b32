// legalis: -entry RayGenCallable -stage raygeneration
// legalis: -entry CheckerMaterial -stage callable
// legalis: -entry MarbleMaterial -stage callable
// Material evaluation through callable shaders.

struct MaterialCallData
{
    float3 position;
    float3 normal;
    float3 outColor;
};

cbuffer CallableCB : register(b0)
{
    float3 cameraPos;
    uint materialShaderIndex;
    float checkerScale;
    float marbleScale;
};

RWTexture2D<float4> RenderTarget : register(u0);

[shader("raygeneration")]
void RayGenCallable()
{
    uint2 idx = DispatchRaysIndex().xy;
    float2 uv = (float2(idx) + 0.5) / float2(DispatchRaysDimensions().xy);
    MaterialCallData data;
    data.position = float3(uv * 10.0, 0.0);
    data.normal = float3(0, 0, 1);
    data.outColor = 0;
    CallShader(materialShaderIndex, data);
    RenderTarget[idx] = float4(data.outColor, 1);
}

[shader("callable")]
void CheckerMaterial(inout MaterialCallData data)
{
    int3 cell = int3(floor(data.position * checkerScale));
    bool odd = ((cell.x + cell.y + cell.z) & 1) != 0;
    data.outColor = odd ? float3(0.9, 0.9, 0.9) : float3(0.1, 0.1, 0.1);
}

float Noise3(float3 p)
{
    return frac(sin(dot(p, float3(12.9898, 78.233, 37.719))) * 43758.5453);
}

[shader("callable")]
void MarbleMaterial(inout MaterialCallData data)
{
    float n = 0.0;
    float amp = 0.5;
    float3 p = data.position * marbleScale;
    for (int i = 0; i < 4; ++i)
    {
        n += amp * Noise3(p);
        p *= 2.0;
        amp *= 0.5;
    }
    float v = 0.5 + 0.5 * sin(data.position.x * marbleScale + n * 6.0);
    data.outColor = lerp(float3(0.2, 0.2, 0.25), float3(0.95, 0.95, 0.9), v);
}
