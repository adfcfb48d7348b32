// expect: declaration does not declare anything
// A stage-in member named after a Metal keyword (`thread`) declares nothing.
#include <metal_stdlib>
using namespace metal;

struct VertexIn {
    float4 thread [[attribute(0)]];
};

vertex float4 main0(VertexIn in [[stage_in]]) {
    return float4(0.0);
}
