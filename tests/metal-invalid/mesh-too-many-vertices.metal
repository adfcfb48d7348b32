// expect: mesh: at most 256 vertices
// A mesh function outputs at most 256 vertices.
#include <metal_stdlib>
using namespace metal;

struct V {
    float4 position [[position]];
};

[[mesh]] void main0(metal::mesh<V, void, 300, 100, metal::topology::triangle> m) {
    m.set_primitive_count(0);
}
