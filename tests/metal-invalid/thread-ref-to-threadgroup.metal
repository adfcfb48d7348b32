// expect: no matching function for call to 'bump'
// A `thread` reference bound to a `threadgroup` variable.
#include <metal_stdlib>
using namespace metal;

static void bump(thread float& v) {
    v += 1.0;
}

kernel void main0(uint i [[thread_position_in_grid]]) {
    threadgroup float shared[64];
    bump(shared[i]);
}
