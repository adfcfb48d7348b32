// legalis: -entry main -stage pixel
// Hemisphere SSAO with a kernel in a cbuffer and a tiled noise texture.

#define KERNEL_SIZE 32

cbuffer SSAOParams : register(b0)
{
    float4x4 projection;
    float4x4 invProjection;
    float4 samples[KERNEL_SIZE];
    float2 noiseScale;
    float radius;
    float bias;
};

Texture2D<float> depthTex : register(t0);
Texture2D<float4> normalTex : register(t1);
Texture2D<float4> noiseTex : register(t2);
SamplerState pointClamp : register(s0);
SamplerState pointWrap : register(s1);

float3 ViewPosFromDepth(float2 uv)
{
    float z = depthTex.SampleLevel(pointClamp, uv, 0);
    float4 clip = float4(uv.x * 2.0 - 1.0, (1.0 - uv.y) * 2.0 - 1.0, z, 1.0);
    float4 view = mul(invProjection, clip);
    return view.xyz / view.w;
}

float main(float4 svpos : SV_Position, float2 uv : TEXCOORD0) : SV_Target
{
    float3 fragPos = ViewPosFromDepth(uv);
    float3 normal = normalize(normalTex.Sample(pointClamp, uv).xyz * 2.0 - 1.0);
    float3 randomVec = normalize(noiseTex.Sample(pointWrap, uv * noiseScale).xyz * 2.0 - 1.0);

    float3 tangent = normalize(randomVec - normal * dot(randomVec, normal));
    float3 bitangent = cross(normal, tangent);
    float3x3 TBN = float3x3(tangent, bitangent, normal);

    float occlusion = 0.0;
    [loop]
    for (int i = 0; i < KERNEL_SIZE; ++i)
    {
        float3 samplePos = mul(samples[i].xyz, TBN);
        samplePos = fragPos + samplePos * radius;

        float4 offset = float4(samplePos, 1.0);
        offset = mul(projection, offset);
        offset.xyz /= offset.w;
        offset.xy = offset.xy * float2(0.5, -0.5) + 0.5;

        float sampleDepth = ViewPosFromDepth(offset.xy).z;
        float rangeCheck = smoothstep(0.0, 1.0, radius / abs(fragPos.z - sampleDepth));
        occlusion += (sampleDepth >= samplePos.z + bias ? 1.0 : 0.0) * rangeCheck;
    }
    return 1.0 - (occlusion / KERNEL_SIZE);
}
