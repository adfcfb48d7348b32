// expect: no matching function for call to 'ldexp'
// `ldexp`'s exponent is an int, not a float.
#include <metal_stdlib>
using namespace metal;

fragment float4 main0(float4 pos [[position]]) {
    return float4(ldexp(pos.x, 2.0));
}
