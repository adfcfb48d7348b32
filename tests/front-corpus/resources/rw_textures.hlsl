// legalis: -entry main -stage compute
// RWTexture3D, RWTexture2DArray, RWTexture1D, typed UAV loads and stores, globallycoherent, unorm.

RWTexture3D<float4> gVolume : register(u0);
RWTexture2DArray<float2> gSlices : register(u1);
RWTexture1D<uint> gLine : register(u2);
RWTexture2D<unorm float4> gLdr : register(u3);
RWTexture2D<snorm float2> gVectors : register(u4);
globallycoherent RWTexture2D<uint> gFlags : register(u5);
Texture3D<float4> gSrc : register(t0);

[numthreads(4, 4, 4)]
void main(uint3 id : SV_DispatchThreadID)
{
    float4 v = gSrc.Load(int4(id, 0));
    gVolume[id] = v * 0.5f + gVolume[id] * 0.5f;
    gSlices[uint3(id.xy, id.z)] = v.xy;
    gLine[id.x] = (uint)(v.w * 255.0f);
    gLdr[id.xy] = saturate(v);
    gVectors[id.xy] = clamp(v.zw, -1.0f, 1.0f);
    uint old;
    InterlockedOr(gFlags[id.xy], 1u << id.z, old);
    float4 back = gVolume.Load(int3(id));
    gVolume[id].w = back.w;
}
