// expect: no matching function for call to 'bump'
// A `thread` reference bound to an element of a `device` buffer.
#include <metal_stdlib>
using namespace metal;

static void bump(thread float4& v) {
    v += 1.0;
}

kernel void main0(device float4* buf [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    bump(buf[i]);
}
