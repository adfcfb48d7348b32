// A vertex and a fragment function: stage-in, matrices from a constant
// buffer, textures and samplers, packed vectors, conversions.
#include <metal_stdlib>
#include <simd/simd.h>
using namespace metal;

struct Uniforms {
    float4x4 mvp;
    float3x3 normal_matrix;
    packed_float3 tint;
    float time;
};

struct VertexIn {
    float3 position [[attribute(0)]];
    float3 normal [[attribute(1)]];
    float2 uv [[attribute(2)]];
};

struct VertexOut {
    float4 position [[position]];
    float3 normal [[user(locn0)]];
    float2 uv [[user(locn1)]];
    float depth [[user(locn2), center_no_perspective]];
};

static float3 shade(thread const float3& n, constant Uniforms& u) {
    float3 tint = u.tint;
    return saturate(dot(normalize(n), float3(0.0, 1.0, 0.0))) * tint;
}

vertex VertexOut vs_main(VertexIn in [[stage_in]], constant Uniforms& u [[buffer(1)]],
                         uint vid [[vertex_id]]) {
    VertexOut out = {};
    out.position = u.mvp * float4(in.position, 1.0);
    out.normal = u.normal_matrix * in.normal;
    out.uv = in.uv + float2(float(vid & 1u), 0.0) * u.time;
    out.depth = out.position.z / out.position.w;
    return out;
}

constexpr sampler linear_clamp(coord::normalized, filter::linear, address::clamp_to_edge,
                               mip_filter::linear);

fragment float4 fs_main(VertexOut in [[stage_in]], constant Uniforms& u [[buffer(1)]],
                        texture2d<float> albedo [[texture(0)]],
                        texture2d_array<half> layers [[texture(1)]],
                        texturecube<float> sky [[texture(2)]], sampler s [[sampler(0)]],
                        bool front [[front_facing]]) {
    float4 base = albedo.sample(s, in.uv, int2(1, 0));
    base += albedo.sample(linear_clamp, in.uv, level(2.0));
    base += albedo.sample(s, in.uv, gradient2d(dfdx(in.uv), dfdy(in.uv)));
    half4 layer = layers.sample(s, in.uv, 3u, bias(0.5));
    float4 env = sky.sample(s, in.normal) + sky.gather(s, in.normal, component::y);
    float3 lit = shade(in.normal, u);
    float4 color = float4(lit, 1.0) * base + float4(layer) + env;
    uint w = albedo.get_width();
    color.xy += float2(float(w), float(albedo.get_height(1)));
    bool4 big = color > float4(1.0);
    if (any(big) && front) {
        color = select(color, float4(1.0), big);
    }
    return mix(color, float4(in.depth), float4(0.25));
}
