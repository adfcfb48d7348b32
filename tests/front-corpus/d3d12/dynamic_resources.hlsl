// legalis: -entry main -stage compute
// SM 6.6 style heap indexing is avoided; classic descriptor arrays instead.

struct DispatchParams
{
    uint srcIndex;
    uint dstIndex;
    uint2 extent;
    float scale;
};

ConstantBuffer<DispatchParams> params : register(b0, space0);
Texture2D<float4> srcTextures[64] : register(t0, space1);
RWTexture2D<float4> dstTextures[64] : register(u0, space1);

[numthreads(16, 16, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    if (any(id.xy >= params.extent))
        return;
    float4 v = srcTextures[params.srcIndex].Load(int3(id.xy, 0));
    dstTextures[params.dstIndex][id.xy] = v * params.scale;
}
