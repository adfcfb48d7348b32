// expect: no matching function for call to 'bump'
// A `thread` reference bound to a member of a `constant` buffer.
#include <metal_stdlib>
using namespace metal;

struct Params {
    float4 tint;
};

static void bump(thread float4& v) {
    v += 1.0;
}

fragment float4 main0(constant Params& params [[buffer(0)]]) {
    bump(params.tint);
    return params.tint;
}
