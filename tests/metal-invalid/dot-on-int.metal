// expect: no matching function for call to 'dot'
// `dot` is for floating-point vectors only.
#include <metal_stdlib>
using namespace metal;

kernel void main0(device int* out [[buffer(0)]], device int3* in [[buffer(1)]]) {
    out[0] = dot(in[0], in[1]);
}
