// legalis: -entry BlurH -stage compute
// Horizontal Gaussian blur with a groupshared tile and apron.

#define GROUP_SIZE 256
#define RADIUS 8
#define CACHE_SIZE (GROUP_SIZE + 2 * RADIUS)

cbuffer BlurCB : register(b0)
{
    float weights[RADIUS + 1];
};

Texture2D<float4> Input : register(t0);
RWTexture2D<float4> Output : register(u0);

groupshared float4 gCache[CACHE_SIZE];

[numthreads(GROUP_SIZE, 1, 1)]
void BlurH(uint3 groupThreadID : SV_GroupThreadID, uint3 dispatchThreadID : SV_DispatchThreadID)
{
    uint width, height;
    Input.GetDimensions(width, height);

    if (groupThreadID.x < RADIUS)
    {
        int x = max(int(dispatchThreadID.x) - RADIUS, 0);
        gCache[groupThreadID.x] = Input[int2(x, dispatchThreadID.y)];
    }
    if (groupThreadID.x >= GROUP_SIZE - RADIUS)
    {
        int x = min(int(dispatchThreadID.x) + RADIUS, int(width) - 1);
        gCache[groupThreadID.x + 2 * RADIUS] = Input[int2(x, dispatchThreadID.y)];
    }
    gCache[groupThreadID.x + RADIUS] = Input[min(dispatchThreadID.xy, uint2(width, height) - 1)];

    GroupMemoryBarrierWithGroupSync();

    float4 blurColor = float4(0, 0, 0, 0);
    [unroll]
    for (int i = -RADIUS; i <= RADIUS; ++i)
    {
        int k = groupThreadID.x + RADIUS + i;
        blurColor += weights[abs(i)] * gCache[k];
    }
    Output[dispatchThreadID.xy] = blurColor;
}
