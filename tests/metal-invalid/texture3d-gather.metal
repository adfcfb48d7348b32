// expect: no member named 'gather'
// 3D textures cannot gather.
#include <metal_stdlib>
using namespace metal;

fragment float4 main0(texture3d<float> volume [[texture(0)]], sampler s [[sampler(0)]],
                      float4 pos [[position]]) {
    return volume.gather(s, pos.xyz);
}
