// expect: no member named 'sample_compare'
// Only depth textures compare.
#include <metal_stdlib>
using namespace metal;

fragment float4 main0(texture2d<float> color [[texture(0)]], sampler s [[sampler(0)]],
                      float4 pos [[position]]) {
    return float4(color.sample_compare(s, pos.xy, 0.5));
}
