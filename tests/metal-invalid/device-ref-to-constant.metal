// expect: no matching function for call to 'store'
// A `device` reference bound to an element of a program-scope `constant`
// array: constant memory is not device memory, and cannot be written.
#include <metal_stdlib>
using namespace metal;

constant float4 palette[2] = { float4(1.0), float4(0.5) };

static void store(device float4& dst, float4 v) {
    dst = v;
}

kernel void main0(uint i [[thread_position_in_grid]]) {
    store(palette[i & 1], float4(0.0));
}
