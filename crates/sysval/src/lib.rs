//! THE system-value table, as data.
//!
//! One question, answered per target column: how does system value `sv`
//! read (`Direction::Input`) or written (`Direction::Output`) by an entry
//! point of `stage` reach the target? The answer is a row ([`GlslMapping`]
//! for the GLSL/SPIR-V family, [`WgslMapping`] for WGSL, [`MetalMapping`]
//! for Metal, [`CudaMapping`] for CUDA) or `Unsupported` with a diagnostic code. The builtins
//! the ray-tracing intrinsics read (`DispatchRaysIndex()`), which no semantic names, are rows of
//! their own keyed by intrinsic ([`ray_builtin`], GLSL and SPIR-V), and so are the subgroup
//! builtins the wave intrinsics read ([`subgroup_builtin`]), and a mesh shader's primitive
//! indices ([`primitive_indices`]). The HLSL column
//! ([`declared_types`]) says which types a user may declare each value with. The matches are
//! exhaustive with no `_` arm over [`SystemValue`](legalis_ir::SystemValue), so a new system value
//! does not compile until every column decides.
//!
//! Legalizers, front-end checks and generated docs all read this table;
//! nothing else spells a builtin.
//!
//! ```
//! use legalis_ir::{ShaderStage, SystemValue};
//! use legalis_sysval::{Direction, GlslMapping, WgslMapping};
//!
//! // A vertex shader's `SV_Position` output is GLSL's `gl_Position` ...
//! let GlslMapping::BuiltIn(row) =
//!     legalis_sysval::glsl(SystemValue::Position, ShaderStage::Vertex, Direction::Output)
//! else {
//!     panic!("a builtin");
//! };
//! assert_eq!(row.glsl_name, "gl_Position");
//! assert_eq!(row.spirv_builtin, "Position");
//! // ... and WGSL's `@builtin(position)`.
//! assert!(matches!(
//!     legalis_sysval::wgsl(SystemValue::Position, ShaderStage::Vertex, Direction::Output),
//!     WgslMapping::BuiltIn(_)
//! ));
//! ```

#![warn(missing_docs)]

pub mod cuda;
mod glsl;
mod hlsl;
mod mesh;
pub mod metal;
mod ray;
mod subgroup;
pub mod wgsl;

pub use cuda::{CudaBuiltin, CudaMapping, cuda};
pub use glsl::{Access, Alternate, ArrayIndex, GlslBuiltin, GlslMapping, Rebase, glsl};
pub use hlsl::{DeclaredTypes, Shape, declared_types, spell, tess_factor_shape, writes_depth};
pub use mesh::{PrimitiveIndices, primitive_indices};
pub use metal::{MetalBuiltin, MetalMapping, metal};
pub use ray::{RayBuiltin, ray_builtin};
pub use subgroup::{SubgroupBuiltin, subgroup_builtin};
pub use wgsl::{WgslBuiltin, WgslMapping, wgsl};

use legalis_ir::{Scalar, ScalarKind};

/// Whether the entry point reads or writes the value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// The entry point reads the value (a parameter or an input member).
    Input,
    /// The entry point writes the value (its result or an `out` parameter).
    Output,
}

impl Direction {
    /// `input` or `output`, for messages.
    pub fn name(self) -> &'static str {
        match self {
            Direction::Input => "input",
            Direction::Output => "output",
        }
    }
}

/// The type a target builtin has, independent of how the user declared it;
/// legalizers convert between the two.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BuiltinType {
    /// One scalar.
    Scalar(Scalar),
    /// A vector of this many components (2 to 4).
    Vector(Scalar, u8),
    /// An array of scalars; `None` is unsized (`gl_ClipDistance[]`).
    Array(Scalar, Option<u32>),
}

impl BuiltinType {
    /// A 32-bit `float`.
    pub const FLOAT: BuiltinType = BuiltinType::Scalar(Scalar::F32);
    /// A `float4` (`vec4`, `vec4<f32>`).
    pub const FLOAT4: BuiltinType = BuiltinType::Vector(Scalar::F32, 4);
    /// A 32-bit signed `int`.
    pub const INT: BuiltinType = BuiltinType::Scalar(Scalar::I32);
    /// A 32-bit `uint`.
    pub const UINT: BuiltinType = BuiltinType::Scalar(Scalar::U32);
    /// A `uint3` (`uvec3`, `vec3<u32>`), as compute ids are.
    pub const UINT3: BuiltinType = BuiltinType::Vector(Scalar::U32, 3);
    /// A `bool`.
    pub const BOOL: BuiltinType = BuiltinType::Scalar(Scalar::BOOL);
    /// Clip or cull distances: one array of `float`s that the legalizer
    /// sizes from the distances the entry point declares.
    pub const DISTANCES: BuiltinType = BuiltinType::Array(Scalar::F32, None);

    /// The kind of its scalars (of the elements, for a vector or array).
    pub fn scalar_kind(self) -> ScalarKind {
        match self {
            BuiltinType::Scalar(s) | BuiltinType::Vector(s, _) | BuiltinType::Array(s, _) => s.kind,
        }
    }
}

pub mod codes;
