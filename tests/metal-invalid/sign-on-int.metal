// expect: no matching function for call to 'sign'
// `sign` is for floating-point values only.
#include <metal_stdlib>
using namespace metal;

kernel void main0(device int4* buf [[buffer(0)]]) {
    buf[0] = sign(buf[1]);
}
