// expect: with const-qualified type
// `constant` memory cannot be written.
#include <metal_stdlib>
using namespace metal;

struct Params {
    float scale;
};

kernel void main0(constant Params& params [[buffer(0)]]) {
    params.scale = 2.0;
}
