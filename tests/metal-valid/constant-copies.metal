// Structs and arrays copied out of `constant` memory (a constant buffer and
// program-scope constants), a class with a member function for each address
// space, called on each.
#include <metal_stdlib>
using namespace metal;

struct Light {
    float4 color;
    float3 direction;
    float intensity;
};

struct Lights {
    Light lights[4];
    uint count;
};

template <typename T, size_t N>
struct Table {
    T items[N];
    thread T& operator[](size_t i) thread { return items[i]; }
    const thread T& operator[](size_t i) const thread { return items[i]; }
    device T& operator[](size_t i) device { return items[i]; }
    const device T& operator[](size_t i) const device { return items[i]; }
    const constant T& operator[](size_t i) const constant { return items[i]; }
    threadgroup T& operator[](size_t i) threadgroup { return items[i]; }
    const threadgroup T& operator[](size_t i) const threadgroup { return items[i]; }
};

constant Table<float, 4> weights = { { 0.1, 0.2, 0.3, 0.4 } };
constant Light fallback = { float4(1.0), float3(0.0, 0.0, 1.0), 1.0 };

static float3 shade(Light light, float3 normal) {
    return light.color.rgb * light.intensity * max(dot(normal, -light.direction), 0.0);
}

struct Out {
    float4 color [[color(0)]];
};

fragment Out main0(constant Lights& lights [[buffer(0)]], device Light* history [[buffer(1)]],
                   float3 normal [[user(normal)]]) {
    Out out = {};
    Light first = lights.lights[0];
    Lights all = lights;
    Table<float, 4> w = weights;
    Light backup = fallback;
    history[0] = lights.lights[1];
    history[1] = fallback;
    float3 sum = shade(first, normal) * w[0] + shade(backup, normal) * weights[1];
    for (uint i = 1; i < all.count; ++i) {
        sum += shade(all.lights[i], normal);
    }
    out.color = float4(sum, 1.0);
    return out;
}
