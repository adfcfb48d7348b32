// legalis: -entry CullTriangles -stage compute
// Per-triangle backface / small-primitive culling writing a compacted index buffer.

cbuffer Constants : register(b0)
{
    float4x4 mvp;
    uint triangleCount;
    uint indexOffset;
    float2 viewportSize;
};

ByteAddressBuffer VertexBuffer : register(t0);
ByteAddressBuffer IndexBuffer : register(t1);
RWByteAddressBuffer OutIndices : register(u0);
RWByteAddressBuffer OutArgs : register(u1);

static const uint VERTEX_STRIDE = 32;

float3 LoadPosition(uint vertexIndex)
{
    uint3 bits = VertexBuffer.Load3(vertexIndex * VERTEX_STRIDE);
    return asfloat(bits);
}

bool IsCulled(float4 v0, float4 v1, float4 v2)
{
    if (v0.w <= 0 || v1.w <= 0 || v2.w <= 0)
        return false;
    float3x3 m = float3x3(v0.xyw, v1.xyw, v2.xyw);
    if (determinant(m) >= 0)
        return true;
    float2 p0 = (v0.xy / v0.w * 0.5 + 0.5) * viewportSize;
    float2 p1 = (v1.xy / v1.w * 0.5 + 0.5) * viewportSize;
    float2 p2 = (v2.xy / v2.w * 0.5 + 0.5) * viewportSize;
    float2 bmin = min(p0, min(p1, p2));
    float2 bmax = max(p0, max(p1, p2));
    return any(round(bmin) == round(bmax));
}

[numthreads(128, 1, 1)]
void CullTriangles(uint3 dtid : SV_DispatchThreadID)
{
    uint tri = dtid.x;
    if (tri >= triangleCount)
        return;
    uint3 idx = IndexBuffer.Load3((indexOffset + tri * 3) * 4);
    float4 c0 = mul(mvp, float4(LoadPosition(idx.x), 1));
    float4 c1 = mul(mvp, float4(LoadPosition(idx.y), 1));
    float4 c2 = mul(mvp, float4(LoadPosition(idx.z), 1));
    bool keep = !IsCulled(c0, c1, c2);

    uint count = WaveActiveCountBits(keep);
    uint base;
    if (WaveIsFirstLane())
        OutArgs.InterlockedAdd(0, count * 3, base);
    base = WaveReadLaneFirst(base);
    if (keep)
    {
        uint slot = base + WavePrefixCountBits(keep) * 3;
        OutIndices.Store3(slot * 4, idx);
    }
}
