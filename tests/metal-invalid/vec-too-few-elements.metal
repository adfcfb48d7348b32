// expect: too few elements in vector initialization
// `vec<T, 4>(a, b, c)`: three values do not make a vector of four.
#include <metal_stdlib>
using namespace metal;

template <typename T>
inline vec<T, 4> pad(vec<T, 4> x) {
    return vec<T, 4>(x.x, x.y, x.z);
}

fragment float4 main0(float4 c [[user(c)]]) {
    return pad(c);
}
