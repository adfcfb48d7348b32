// Depth textures (scalar sample and read, compare, gather), matrix
// algebra, half precision and helper functions taking each address space.
#include <metal_stdlib>
using namespace metal;

struct Light {
    float4x4 view_proj;
    half3 color;
};

static float pcf(depth2d<float> shadow, sampler cmp, float3 p) {
    float lit = shadow.sample_compare(cmp, p.xy, p.z);
    lit += shadow.sample_compare(cmp, p.xy, p.z, int2(1, 1));
    float4 four = shadow.gather(cmp, p.xy);
    return lit * 0.5 + dot(four, float4(0.125));
}

static float2x2 rotate2(float a) {
    return float2x2(float2(cos(a), sin(a)), float2(-sin(a), cos(a)));
}

fragment half4 main0(float4 pos [[position]], constant Light* lights [[buffer(0)]],
                     depth2d<float> shadow [[texture(0)]],
                     depthcube<float> cube_shadow [[texture(1)]], sampler cmp [[sampler(0)]]) {
    constant Light& light = lights[0];
    float4 clip = light.view_proj * float4(pos.xyz, 1.0);
    float4x4 t = transpose(light.view_proj) * light.view_proj;
    float depth = shadow.sample(cmp, clip.xy);
    depth += shadow.read(uint2(pos.xy));
    depth += cube_shadow.sample_compare(cmp, clip.xyz, 0.5);
    float2 r = rotate2(depth) * clip.xy;
    float3 n = cross(float3(r, 1.0), float3(0.0, 1.0, 0.0));
    float shade = pcf(shadow, cmp, clip.xyz) * determinant(t) + length(n);
    return half4(light.color * half(shade), 1.0h);
}
