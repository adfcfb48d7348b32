// expect: no matching member function for call to 'sample'
// `texturecube::sample` takes no offset.
#include <metal_stdlib>
using namespace metal;

fragment float4 main0(texturecube<float> env [[texture(0)]], sampler s [[sampler(0)]],
                      float4 pos [[position]]) {
    return env.sample(s, pos.xyz, int3(1, 0, 0));
}
