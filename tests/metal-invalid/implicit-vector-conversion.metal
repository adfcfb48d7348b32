// expect: cannot initialize a variable of type
// Vectors of different element types do not convert implicitly.
#include <metal_stdlib>
using namespace metal;

kernel void main0(device int4* in [[buffer(0)]], device float4* out [[buffer(1)]]) {
    float4 f = in[0];
    out[0] = f;
}
