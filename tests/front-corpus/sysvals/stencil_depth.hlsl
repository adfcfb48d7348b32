// legalis: -entry psStencil -stage fragment
// legalis: -entry psDepthGE -stage fragment
// legalis: -entry psDepthLE -stage fragment
// SV_StencilRef export, SV_DepthGreaterEqual / SV_DepthLessEqual conservative depth.

Texture2D<uint2> gStencilSrc : register(t0);
Texture2D<float> gDepthSrc : register(t1);

uint psStencil(float4 pos : SV_Position) : SV_StencilRef
{
    return gStencilSrc.Load(int3(pos.xy, 0)).y & 0xFF;
}

float psDepthGE(float4 pos : SV_Position, out float4 color : SV_Target0) : SV_DepthGreaterEqual
{
    color = float4(1, 0, 0, 1);
    return max(pos.z, gDepthSrc.Load(int3(pos.xy, 0)));
}

void psDepthLE(float4 pos : SV_Position, out float depth : SV_DepthLessEqual, out float4 color : SV_Target)
{
    depth = min(pos.z, 0.5f);
    color = pos;
}
