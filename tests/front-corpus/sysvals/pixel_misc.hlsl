// legalis: -entry main -stage fragment
// SV_PrimitiveID in a pixel shader, multiple render targets with a gap, [earlydepthstencil], clip().

struct PSOut
{
    float4 albedo : SV_Target0;
    float4 normal : SV_Target1;
    uint id : SV_Target3;
};

[earlydepthstencil]
PSOut main(float4 pos : SV_Position, float3 n : NORMAL, uint prim : SV_PrimitiveID, float alpha : TEXCOORD0)
{
    clip(alpha - 0.5f);
    PSOut o;
    o.albedo = float4(1, 1, 1, alpha);
    o.normal = float4(normalize(n) * 0.5f + 0.5f, 0.0f);
    o.id = prim;
    return o;
}
