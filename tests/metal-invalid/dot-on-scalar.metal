// expect: no matching function for call to 'dot'
// `dot` takes vectors, not scalars.
#include <metal_stdlib>
using namespace metal;

fragment float4 main0(float4 pos [[position]]) {
    return float4(dot(pos.x, pos.y));
}
