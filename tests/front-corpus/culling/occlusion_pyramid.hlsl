// legalis: -entry DownsampleDepth -stage compute
// Hi-Z pyramid build: max of 2x2 (plus odd-edge texels).

cbuffer PyramidCB : register(b0)
{
    uint2 srcSize;
    uint2 dstSize;
};

Texture2D<float> SrcDepth : register(t0);
RWTexture2D<float> DstDepth : register(u0);

[numthreads(8, 8, 1)]
void DownsampleDepth(uint3 id : SV_DispatchThreadID)
{
    if (id.x >= dstSize.x || id.y >= dstSize.y)
        return;
    int2 src = int2(id.xy) * 2;
    float4 d;
    d.x = SrcDepth.Load(int3(src, 0));
    d.y = SrcDepth.Load(int3(src + int2(1, 0), 0));
    d.z = SrcDepth.Load(int3(src + int2(0, 1), 0));
    d.w = SrcDepth.Load(int3(src + int2(1, 1), 0));
    float m = max(max(d.x, d.y), max(d.z, d.w));

    bool oddX = (srcSize.x & 1) != 0 && id.x == dstSize.x - 1;
    bool oddY = (srcSize.y & 1) != 0 && id.y == dstSize.y - 1;
    if (oddX)
    {
        m = max(m, SrcDepth.Load(int3(src + int2(2, 0), 0)));
        m = max(m, SrcDepth.Load(int3(src + int2(2, 1), 0)));
    }
    if (oddY)
    {
        m = max(m, SrcDepth.Load(int3(src + int2(0, 2), 0)));
        m = max(m, SrcDepth.Load(int3(src + int2(1, 2), 0)));
    }
    if (oddX && oddY)
        m = max(m, SrcDepth.Load(int3(src + int2(2, 2), 0)));
    DstDepth[id.xy] = m;
}
