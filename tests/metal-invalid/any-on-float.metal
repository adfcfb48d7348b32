// expect: no matching function for call to 'any'
// `any` takes a boolean vector, not a float vector.
#include <metal_stdlib>
using namespace metal;

fragment float4 main0(float4 pos [[position]]) {
    if (any(pos)) {
        discard_fragment();
    }
    return pos;
}
