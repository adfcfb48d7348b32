// legalis: -entry main -stage compute
// Typed buffers and less common texture types.

Buffer<float4> PositionsIn : register(t0);
Texture1D<float4> GradientRamp : register(t1);
Texture3D<float> DensityVolume : register(t2);
RWBuffer<float4> PositionsOut : register(u0);
RWTexture3D<float4> VolumeOut : register(u1);
SamplerState LinearClamp : register(s0);

cbuffer Params : register(b0)
{
    uint count;
    float dt;
    uint3 volumeSize;
};

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    if (id.x >= count)
        return;
    float4 p = PositionsIn[id.x];
    float3 uvw = saturate(p.xyz * 0.5 + 0.5);
    float density = DensityVolume.SampleLevel(LinearClamp, uvw, 0);
    float4 tint = GradientRamp.SampleLevel(LinearClamp, density, 0);
    p.xyz += float3(0, -density, 0) * dt;
    PositionsOut[id.x] = p;
    uint3 cell = uint3(uvw * (volumeSize - 1));
    VolumeOut[cell] = tint;
}
