// legalis: -entry main -stage closesthit
// Vulkan-style closest hit with [[vk::binding]] and a shader record.

struct ReflectionPayload
{
    float3 color;
    float distance;
    float3 normal;
    float reflector;
};

struct ShaderRecord
{
    uint materialOffset;
    uint vertexStride;
};

[[vk::shader_record_ext]] ConstantBuffer<ShaderRecord> record;
[[vk::binding(3, 0)]] ByteAddressBuffer vertexData;
[[vk::binding(4, 0)]] ByteAddressBuffer indexData;

[shader("closesthit")]
void main(inout ReflectionPayload p, in BuiltInTriangleIntersectionAttributes attribs)
{
    uint3 idx = indexData.Load3(PrimitiveIndex() * 12);
    float3 n0 = asfloat(vertexData.Load3(idx.x * record.vertexStride + 12));
    float3 n1 = asfloat(vertexData.Load3(idx.y * record.vertexStride + 12));
    float3 n2 = asfloat(vertexData.Load3(idx.z * record.vertexStride + 12));
    float3 bary = float3(1.0f - attribs.barycentrics.x - attribs.barycentrics.y, attribs.barycentrics.x, attribs.barycentrics.y);
    float3 n = normalize(n0 * bary.x + n1 * bary.y + n2 * bary.z);
    p.normal = normalize(mul(ObjectToWorld3x4(), float4(n, 0)).xyz);
    p.color = float3(0.7, 0.7, 0.7) * saturate(dot(p.normal, float3(0, 1, 0)));
    p.distance = RayTCurrent();
    p.reflector = HitKind() == HIT_KIND_TRIANGLE_FRONT_FACE ? 1.0 : 0.0;
}
