// expect: member reference base type 'float' is not a structure or union
// `depth2d::read` returns a scalar: it has no `.x`.
#include <metal_stdlib>
using namespace metal;

fragment float4 main0(depth2d<float> depth [[texture(0)]], float4 pos [[position]]) {
    return float4(depth.read(uint2(pos.xy)).x);
}
