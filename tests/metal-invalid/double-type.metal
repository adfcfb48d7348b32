// expect: use of type 'double' requires
// Metal has no `double`.
#include <metal_stdlib>
using namespace metal;

kernel void main0(device float* out [[buffer(0)]]) {
    double d = 1.0;
    out[0] = float(d);
}
