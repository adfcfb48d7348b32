// legalis: -entry RayGen -stage raygeneration
// legalis: -entry Checker -stage callable
// legalis: -entry Noise -stage callable
// Callable shaders selected by index from a ray-generation shader, with a struct of arrays as parameter.

struct ShadeParams
{
    float2 uv;
    float3 result;
    float weights[4];
};

RWTexture2D<float4> gOut : register(u0);

[shader("raygeneration")]
void RayGen()
{
    uint2 i = DispatchRaysIndex().xy;
    ShadeParams sp;
    sp.uv = float2(i) / float2(DispatchRaysDimensions().xy);
    sp.result = 0;
    sp.weights[0] = 0.1f;
    sp.weights[1] = 0.2f;
    sp.weights[2] = 0.3f;
    sp.weights[3] = 0.4f;
    CallShader((i.x + i.y) & 1, sp);
    gOut[i] = float4(sp.result, 1.0f);
}

[shader("callable")]
void Checker(inout ShadeParams sp)
{
    int2 c = int2(floor(sp.uv * 8.0f));
    sp.result = ((c.x ^ c.y) & 1) ? 1.0f : 0.0f;
}

[shader("callable")]
void Noise(inout ShadeParams sp)
{
    float n = frac(sin(dot(sp.uv, float2(12.9898f, 78.233f))) * 43758.5453f);
    float w = 0;
    for (int k = 0; k < 4; k++)
        w += sp.weights[k];
    sp.result = n * w;
}
