// Vectors built in templates from several values, with the type spelled as
// `vec`'s template (`vec<T, 4>(a, b, c, d)`), and swizzles of them.
#include <metal_stdlib>
using namespace metal;

template <typename T>
inline vec<T, 4> reversed(vec<T, 4> x) {
    return vec<T, 4>(x.w, x.z, x.y, x.x);
}

template <typename T>
inline vec<T, 4> widen(vec<T, 2> x, T z) {
    return vec<T, 4>(x, z, T(1));
}

fragment float4 main0(texture2d<float> tex [[texture(0)]], sampler s [[sampler(0)]],
                      float2 uv [[user(uv)]]) {
    float4 c = reversed(tex.sample(s, uv));
    half4 h = widen(half2(c.xy), half(0.5));
    return c + float4(h) + vec<float, 4>(uv, uv);
}
