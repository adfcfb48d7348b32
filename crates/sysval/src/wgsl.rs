//! The WGSL column: which `@builtin(...)` a system value is, with the
//! builtin's WGSL type, or that it is an ordinary `@location` varying, or
//! that WGSL cannot express it (`E55202`, B23).
//!
//! The builtins are the core WGSL set and one of WebGPU's standard
//! `enable` extensions: `position`, `front_facing`, `frag_depth`, `sample_index`, `sample_mask`,
//! `vertex_index`, `instance_index`, `local_invocation_id`,
//! `local_invocation_index`, `global_invocation_id`, `workgroup_id` and
//! `num_workgroups` (which no HLSL system value names, so no row reaches
//! it), and a vertex shader's `clip_distances` (`enable clip_distances;`,
//! issue 29): one `array<f32, N>` that the legalizer packs every
//! `SV_ClipDistanceN` output into, as D3D packs its registers. The other
//! rows follow the reference compiler: what it refuses for WGSL (cull
//! distances and clip distances read by a fragment shader, which WGSL
//! cannot express, primitive id, conservative depth, stencil export,
//! point size, layer and viewport, view and draw indices, wave lanes) is
//! refused here with its code and message, at the declaration.
//! `primitive_index` exists behind a WGSL `enable` extension; it stays
//! refused like the reference refuses it until a test proves a portable
//! mapping.
//!
//! Conversions are not rows: the legalizer converts whenever the declared
//! type differs from the builtin's (`int` vertex ids from `u32`, a `uint2`
//! dispatch id from `vec3<u32>`).

use legalis_ir::{ShaderStage as S, SystemValue as SV};

use crate::{BuiltinType, Direction};

/// The code of every system value WGSL cannot express (B23), the
/// reference's own.
pub const UNSUPPORTED_SYSTEM_VALUE: u32 = crate::codes::WGSL_UNSUPPORTED_SYSTEM_VALUE;
/// The system value exists but this stage/direction cannot use it; the
/// front end's check (`E49990`) normally reports it first.
pub const NOT_IN_STAGE: u32 = crate::codes::NOT_IN_STAGE;

/// A WGSL builtin value: its attribute name and its WGSL type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WgslBuiltin {
    /// The name inside `@builtin(...)`.
    pub name: &'static str,
    /// The builtin's WGSL type; the legalizer converts a value declared
    /// with another.
    pub ty: BuiltinType,
}

/// How a system value reaches a WGSL entry point: the answer of [`wgsl`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WgslMapping {
    /// A `@builtin(...)` value.
    BuiltIn(WgslBuiltin),
    /// An ordinary varying at a location. With `by_index` the semantic
    /// index is the location (`SV_Target3` → `@location(3)`).
    Location {
        /// The semantic index is the location; when `false` the legalizer
        /// assigns one as for any user varying.
        by_index: bool,
    },
    /// WGSL cannot express it here.
    Unsupported {
        /// [`UNSUPPORTED_SYSTEM_VALUE`] (`E55202`) or, for a system value
        /// this stage or direction cannot use, [`NOT_IN_STAGE`] (`E49990`).
        code: u32,
    },
}

const fn builtin(name: &'static str, ty: BuiltinType) -> WgslMapping {
    WgslMapping::BuiltIn(WgslBuiltin { name, ty })
}

const UNSUPPORTED: WgslMapping = WgslMapping::Unsupported {
    code: UNSUPPORTED_SYSTEM_VALUE,
};
const NOT_HERE: WgslMapping = WgslMapping::Unsupported { code: NOT_IN_STAGE };

/// The message of [`UNSUPPORTED_SYSTEM_VALUE`], as the reference words it:
/// the semantic's canonical name lowercased, without its index.
pub fn unsupported_message(sv: SV) -> String {
    format!(
        "system value semantic '{}' is not supported for the current target.",
        sv.name().to_ascii_lowercase()
    )
}

/// The WGSL row for `sv` read or written by a `stage` entry point.
pub fn wgsl(sv: SV, stage: S, dir: Direction) -> WgslMapping {
    use Direction::{Input as In, Output as Out};
    if !matches!(stage, S::Vertex | S::Fragment | S::Compute) {
        // WGSL has these three stages only.
        return UNSUPPORTED;
    }
    match sv {
        SV::Position => match (stage, dir) {
            // A vertex shader's `SV_Position` input is an ordinary attribute.
            (S::Vertex, In) => WgslMapping::Location { by_index: false },
            (S::Vertex, Out) | (S::Fragment, In) => builtin("position", BuiltinType::FLOAT4),
            _ => NOT_HERE,
        },
        SV::Target => match (stage, dir) {
            (S::Fragment, Out) => WgslMapping::Location { by_index: true },
            _ => NOT_HERE,
        },
        SV::Depth => match (stage, dir) {
            (S::Fragment, Out) => builtin("frag_depth", BuiltinType::FLOAT),
            _ => NOT_HERE,
        },
        // B22: HLSL's 32-bit coverage is WGSL's scalar `u32` sample mask,
        // both ways.
        SV::Coverage => match stage {
            S::Fragment => builtin("sample_mask", BuiltinType::UINT),
            _ => NOT_HERE,
        },
        SV::IsFrontFace => match (stage, dir) {
            (S::Fragment, In) => builtin("front_facing", BuiltinType::BOOL),
            _ => NOT_HERE,
        },
        SV::SampleIndex => match (stage, dir) {
            (S::Fragment, In) => builtin("sample_index", BuiltinType::UINT),
            _ => NOT_HERE,
        },
        // WGSL's `vertex_index` counts from the draw's first vertex (there
        // is no base-vertex builtin to subtract, unlike GLSL's B6), as the
        // reference maps it.
        SV::VertexId | SV::VulkanVertexId => match (stage, dir) {
            (S::Vertex, In) => builtin("vertex_index", BuiltinType::UINT),
            _ => NOT_HERE,
        },
        SV::InstanceId | SV::VulkanInstanceId => match (stage, dir) {
            (S::Vertex, In) => builtin("instance_index", BuiltinType::UINT),
            _ => NOT_HERE,
        },
        SV::DispatchThreadId => compute_input(stage, dir, "global_invocation_id"),
        SV::GroupId => compute_input(stage, dir, "workgroup_id"),
        SV::GroupThreadId => compute_input(stage, dir, "local_invocation_id"),
        SV::GroupIndex => match (stage, dir) {
            (S::Compute, In) => builtin("local_invocation_index", BuiltinType::UINT),
            _ => NOT_HERE,
        },
        // Every `SV_ClipDistanceN` output of a vertex shader is elements
        // of this one array, the legalizer sizes it.
        SV::ClipDistance if (stage, dir) == (S::Vertex, Out) => {
            builtin("clip_distances", BuiltinType::DISTANCES)
        }
        SV::DepthGreaterEqual
        | SV::DepthLessEqual
        | SV::InnerCoverage
        | SV::StencilRef
        | SV::PrimitiveId
        | SV::StartVertexLocation
        | SV::StartInstanceLocation
        | SV::DrawIndex
        | SV::DeviceIndex
        | SV::ViewId
        | SV::ClipDistance
        | SV::CullDistance
        | SV::RenderTargetArrayIndex
        | SV::ViewportArrayIndex
        | SV::Barycentrics
        | SV::ShadingRate
        | SV::CullPrimitive
        | SV::PointSize
        | SV::PointCoord
        | SV::VulkanSamplePosition
        | SV::FragInvocationCount
        | SV::FragSize
        | SV::GsInstanceId
        | SV::OutputControlPointId
        | SV::DomainLocation
        | SV::TessFactor
        | SV::InsideTessFactor
        | SV::WaveLaneIndex
        | SV::WaveLaneCount
        | SV::WaveIndex
        | SV::QuadLaneIndex => UNSUPPORTED,
    }
}

fn compute_input(stage: S, dir: Direction, name: &'static str) -> WgslMapping {
    match (stage, dir) {
        (S::Compute, Direction::Input) => builtin(name, BuiltinType::UINT3),
        _ => NOT_HERE,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const STAGES: [S; 3] = [S::Vertex, S::Fragment, S::Compute];

    fn builtins_of(stage: S, dir: Direction) -> Vec<(SV, &'static str)> {
        SV::ALL
            .into_iter()
            .filter_map(|sv| match wgsl(sv, stage, dir) {
                WgslMapping::BuiltIn(b) => Some((sv, b.name)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn vertex_table() {
        assert_eq!(
            builtins_of(S::Vertex, Direction::Input),
            [
                (SV::VertexId, "vertex_index"),
                (SV::InstanceId, "instance_index"),
                (SV::VulkanVertexId, "vertex_index"),
                (SV::VulkanInstanceId, "instance_index"),
            ]
        );
        assert_eq!(
            builtins_of(S::Vertex, Direction::Output),
            [
                (SV::Position, "position"),
                (SV::ClipDistance, "clip_distances")
            ]
        );
        assert_eq!(
            wgsl(SV::Position, S::Vertex, Direction::Input),
            WgslMapping::Location { by_index: false }
        );
    }

    #[test]
    fn fragment_table() {
        assert_eq!(
            builtins_of(S::Fragment, Direction::Input),
            [
                (SV::Position, "position"),
                (SV::Coverage, "sample_mask"),
                (SV::IsFrontFace, "front_facing"),
                (SV::SampleIndex, "sample_index"),
            ]
        );
        assert_eq!(
            builtins_of(S::Fragment, Direction::Output),
            [(SV::Depth, "frag_depth"), (SV::Coverage, "sample_mask")]
        );
        assert_eq!(
            wgsl(SV::Target, S::Fragment, Direction::Output),
            WgslMapping::Location { by_index: true }
        );
    }

    #[test]
    fn compute_table() {
        assert_eq!(
            builtins_of(S::Compute, Direction::Input),
            [
                (SV::DispatchThreadId, "global_invocation_id"),
                (SV::GroupId, "workgroup_id"),
                (SV::GroupThreadId, "local_invocation_id"),
                (SV::GroupIndex, "local_invocation_index"),
            ]
        );
        assert!(builtins_of(S::Compute, Direction::Output).is_empty());
    }

    #[test]
    fn builtin_types_follow_wgsl() {
        let ty = |sv, stage, dir| match wgsl(sv, stage, dir) {
            WgslMapping::BuiltIn(b) => b.ty,
            other => panic!("{sv:?}: {other:?}"),
        };
        assert_eq!(
            ty(SV::Position, S::Fragment, Direction::Input),
            BuiltinType::FLOAT4
        );
        assert_eq!(
            ty(SV::Coverage, S::Fragment, Direction::Output),
            BuiltinType::UINT
        );
        assert_eq!(
            ty(SV::IsFrontFace, S::Fragment, Direction::Input),
            BuiltinType::BOOL
        );
        assert_eq!(
            ty(SV::GroupId, S::Compute, Direction::Input),
            BuiltinType::UINT3
        );
    }

    #[test]
    fn every_other_cell_is_a_coded_refusal() {
        let mut unsupported = 0;
        let mut not_here = 0;
        for sv in SV::ALL {
            for stage in STAGES {
                for dir in [Direction::Input, Direction::Output] {
                    match wgsl(sv, stage, dir) {
                        WgslMapping::Unsupported {
                            code: UNSUPPORTED_SYSTEM_VALUE,
                        } => unsupported += 1,
                        WgslMapping::Unsupported { code: NOT_IN_STAGE } => not_here += 1,
                        WgslMapping::Unsupported { code } => panic!("{sv:?}: code {code}"),
                        _ => {}
                    }
                }
            }
        }
        // 31 system values WGSL cannot express, in 3 stages, both ways,
        // but for a vertex shader's clip distances.
        assert_eq!(unsupported, 31 * 6 - 1);
        // 14 it can, in the 17 cells where they mean something.
        assert_eq!(not_here, 14 * 6 - 17);
    }

    #[test]
    fn other_stages_are_refused_and_the_message_is_the_references() {
        assert_eq!(
            wgsl(SV::Position, S::Geometry, Direction::Output),
            UNSUPPORTED
        );
        assert_eq!(
            unsupported_message(SV::ClipDistance),
            "system value semantic 'sv_clipdistance' is not supported for the current target."
        );
    }
}
