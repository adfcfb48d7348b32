// legalis: -entry main -stage pixel
// Visibility-buffer style shading with SV_Barycentrics and SV_PrimitiveID.

StructuredBuffer<float3> Colors : register(t0);

float4 main(float4 pos : SV_Position, float3 bary : SV_Barycentrics, uint prim : SV_PrimitiveID) : SV_Target
{
    float3 c0 = Colors[prim * 3 + 0];
    float3 c1 = Colors[prim * 3 + 1];
    float3 c2 = Colors[prim * 3 + 2];
    float3 c = c0 * bary.x + c1 * bary.y + c2 * bary.z;
    float edge = min(bary.x, min(bary.y, bary.z));
    return float4(c * smoothstep(0.0, 0.02, edge), 1);
}
