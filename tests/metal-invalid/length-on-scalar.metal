// expect: no matching function for call to 'length'
// `length` takes a vector, not a scalar.
#include <metal_stdlib>
using namespace metal;

fragment float4 main0(float4 pos [[position]]) {
    return float4(length(pos.x));
}
