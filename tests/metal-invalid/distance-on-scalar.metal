// expect: no matching function for call to 'distance'
// `distance` takes vectors, not scalars.
#include <metal_stdlib>
using namespace metal;

fragment float4 main0(float4 pos [[position]]) {
    return float4(distance(pos.x, pos.y));
}
