//! The GLSL/SPIR-V builtins of a mesh shader that no system value names:
//! the primitive indices (`out indices uint3 tris[N]`, B10), whose builtin
//! follows the entry point's output topology.

use legalis_ir::OutputTopology;

/// A mesh shader's primitive-indices builtin.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PrimitiveIndices {
    /// The GLSL builtin array (`gl_PrimitiveTriangleIndicesEXT`).
    pub glsl_name: &'static str,
    /// Its SPIR-V `BuiltIn` decoration (`PrimitiveTriangleIndicesEXT`).
    pub spirv_builtin: &'static str,
}

/// The primitive-indices builtin of a mesh shader whose output topology
/// is `topology` (triangles when it names none).
pub fn primitive_indices(topology: Option<OutputTopology>) -> PrimitiveIndices {
    let (glsl_name, spirv_builtin) = match topology {
        Some(OutputTopology::Line) => ("gl_PrimitiveLineIndicesEXT", "PrimitiveLineIndicesEXT"),
        Some(OutputTopology::Point) => ("gl_PrimitivePointIndicesEXT", "PrimitivePointIndicesEXT"),
        Some(
            OutputTopology::Triangle | OutputTopology::TriangleCw | OutputTopology::TriangleCcw,
        )
        | None => (
            "gl_PrimitiveTriangleIndicesEXT",
            "PrimitiveTriangleIndicesEXT",
        ),
    };
    PrimitiveIndices {
        glsl_name,
        spirv_builtin,
    }
}
