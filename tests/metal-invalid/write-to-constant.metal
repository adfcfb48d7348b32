// expect: read-only variable is not assignable
// `constant` memory cannot be written.
#include <metal_stdlib>
using namespace metal;

struct Params {
    float scale;
};

kernel void main0(constant Params& params [[buffer(0)]]) {
    params.scale = 2.0;
}
