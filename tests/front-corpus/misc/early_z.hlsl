// legalis: -entry main -stage pixel
// [earlydepthstencil] with a UAV write (fragment counting for overdraw visualisation).

RWTexture2D<uint> OverdrawCounter : register(u1);

cbuffer ColorCB : register(b0)
{
    float4 tint;
};

[earlydepthstencil]
float4 main(float4 pos : SV_Position, float3 normal : NORMAL) : SV_Target
{
    uint previous;
    InterlockedAdd(OverdrawCounter[uint2(pos.xy)], 1, previous);
    return tint * (0.5 + 0.5 * normalize(normal).y);
}
