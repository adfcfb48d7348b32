// expect: member reference base type 'float' is not a structure or union
// `depth2d::sample` returns a scalar: it has no `.x`.
#include <metal_stdlib>
using namespace metal;

fragment float4 main0(depth2d<float> shadow [[texture(0)]], sampler s [[sampler(0)]],
                      float4 pos [[position]]) {
    return float4(shadow.sample(s, pos.xy).x);
}
