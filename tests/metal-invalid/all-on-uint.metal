// expect: no matching function for call to 'all'
// `all` takes a boolean vector, not an unsigned one.
#include <metal_stdlib>
using namespace metal;

kernel void main0(device uint* out [[buffer(0)]], uint3 id [[thread_position_in_grid]]) {
    out[0] = all(id) ? 1u : 0u;
}
