// expect: cannot initialize a variable of type
// `sign(float4)` is a float4: an int4 needs a conversion.
#include <metal_stdlib>
using namespace metal;

kernel void main0(device float4* in [[buffer(0)]], device int4* out [[buffer(1)]]) {
    int4 s = sign(in[0]);
    out[0] = s;
}
