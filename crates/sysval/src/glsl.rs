//! The GLSL/SPIR-V column: builtin names (`gl_Position`), their GLSL types,
//! SPIR-V `BuiltIn` names, extensions and versions they need, and how a
//! value is adapted (vertex/instance rebasing, B6).

use legalis_ir::{ShaderStage as S, SystemValue as SV};

use crate::{BuiltinType, Direction, codes};

/// `gl_VertexIndex - gl_BaseVertex`: the Vulkan index counts from the draw's
/// base; HLSL's `SV_VertexID` counts from zero per draw (B6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rebase {
    /// The builtin subtracted (`gl_BaseVertex`).
    pub base_name: &'static str,
    pub base_spirv: &'static str,
}

/// A GLSL builtin variable and its SPIR-V `BuiltIn` decoration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GlslBuiltin {
    pub glsl_name: &'static str,
    pub spirv_builtin: &'static str,
    pub ty: BuiltinType,
    /// `#extension` the builtin needs at `min_version`, if any.
    pub extension: Option<&'static str>,
    pub min_version: u32,
    pub rebase: Option<Rebase>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GlslMapping {
    BuiltIn(GlslBuiltin),
    /// Not a builtin: an ordinary varying at a location. With `by_index`
    /// the semantic index is the location (`SV_Target3` → location 3).
    Location {
        by_index: bool,
    },
    Unsupported {
        code: u32,
    },
}

const fn builtin(
    glsl_name: &'static str,
    spirv_builtin: &'static str,
    ty: BuiltinType,
) -> GlslMapping {
    GlslMapping::BuiltIn(GlslBuiltin {
        glsl_name,
        spirv_builtin,
        ty,
        extension: None,
        min_version: 450,
        rebase: None,
    })
}

const NOT_IN_STAGE: GlslMapping = GlslMapping::Unsupported {
    code: codes::NOT_IN_STAGE,
};
const NOT_YET: GlslMapping = GlslMapping::Unsupported {
    code: codes::NOT_SUPPORTED_YET,
};

/// The GLSL/SPIR-V row for `sv` read or written by a `stage` entry point.
pub fn glsl(sv: SV, stage: S, dir: Direction) -> GlslMapping {
    use Direction::{Input as In, Output as Out};
    let pre_raster = matches!(
        stage,
        S::Vertex | S::Domain | S::Geometry | S::Hull | S::Mesh
    );
    let compute_like = matches!(stage, S::Compute | S::Mesh | S::Amplification);
    match sv {
        SV::Position => match (stage, dir) {
            (S::Fragment, In) => builtin("gl_FragCoord", "FragCoord", BuiltinType::FLOAT4),
            (_, Out) if pre_raster => builtin("gl_Position", "Position", BuiltinType::FLOAT4),
            // Between pre-rasterization stages (geometry/hull/domain inputs)
            // the position arrives per vertex; those stages come later.
            (S::Vertex, In) => GlslMapping::Location { by_index: false },
            _ => NOT_YET,
        },
        SV::Target => match (stage, dir) {
            (S::Fragment, Out) => GlslMapping::Location { by_index: true },
            _ => NOT_IN_STAGE,
        },
        SV::Depth => match (stage, dir) {
            (S::Fragment, Out) => builtin("gl_FragDepth", "FragDepth", BuiltinType::FLOAT),
            _ => NOT_IN_STAGE,
        },
        SV::IsFrontFace => match (stage, dir) {
            (S::Fragment, In) => builtin("gl_FrontFacing", "FrontFacing", BuiltinType::BOOL),
            _ => NOT_IN_STAGE,
        },
        SV::VertexId => match (stage, dir) {
            (S::Vertex, In) => rebased(
                "gl_VertexIndex",
                "VertexIndex",
                "gl_BaseVertex",
                "BaseVertex",
            ),
            _ => NOT_IN_STAGE,
        },
        SV::InstanceId => match (stage, dir) {
            (S::Vertex, In) => rebased(
                "gl_InstanceIndex",
                "InstanceIndex",
                "gl_BaseInstance",
                "BaseInstance",
            ),
            _ => NOT_YET,
        },
        SV::DispatchThreadId => compute_id(
            compute_like,
            dir,
            "gl_GlobalInvocationID",
            "GlobalInvocationId",
        ),
        SV::GroupId => compute_id(compute_like, dir, "gl_WorkGroupID", "WorkgroupId"),
        SV::GroupThreadId => compute_id(
            compute_like,
            dir,
            "gl_LocalInvocationID",
            "LocalInvocationId",
        ),
        SV::GroupIndex => match dir {
            In if compute_like => builtin(
                "gl_LocalInvocationIndex",
                "LocalInvocationIndex",
                BuiltinType::UINT,
            ),
            _ => NOT_IN_STAGE,
        },
        // The rest of the table (B9–B16) arrives with the whole-table issue;
        // until then each is a coded "not supported yet", never a drop.
        SV::DepthGreaterEqual
        | SV::DepthLessEqual
        | SV::Coverage
        | SV::InnerCoverage
        | SV::StencilRef
        | SV::SampleIndex
        | SV::PrimitiveId
        | SV::VulkanVertexId
        | SV::VulkanInstanceId
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
        | SV::QuadLaneIndex => NOT_YET,
    }
}

fn compute_id(
    compute_like: bool,
    dir: Direction,
    glsl_name: &'static str,
    spirv: &'static str,
) -> GlslMapping {
    match dir {
        Direction::Input if compute_like => builtin(glsl_name, spirv, BuiltinType::UINT3),
        _ => NOT_IN_STAGE,
    }
}

/// `gl_VertexIndex`/`gl_InstanceIndex` with the base subtracted. The bases
/// are core in GLSL 4.60 (SPIR-V `DrawParameters`).
fn rebased(
    glsl_name: &'static str,
    spirv_builtin: &'static str,
    base_name: &'static str,
    base_spirv: &'static str,
) -> GlslMapping {
    GlslMapping::BuiltIn(GlslBuiltin {
        glsl_name,
        spirv_builtin,
        ty: BuiltinType::INT,
        extension: None,
        min_version: 460,
        rebase: Some(Rebase {
            base_name,
            base_spirv,
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_system_value_has_a_decision_for_every_stage_and_direction() {
        for sv in SV::ALL {
            for stage in S::ALL {
                for dir in [Direction::Input, Direction::Output] {
                    match glsl(sv, stage, dir) {
                        GlslMapping::BuiltIn(b) => {
                            assert!(b.glsl_name.starts_with("gl_"), "{sv:?}");
                            assert!(b.min_version >= 450);
                        }
                        GlslMapping::Location { .. } => {}
                        GlslMapping::Unsupported { code } => assert!(code >= 49990),
                    }
                }
            }
        }
    }

    #[test]
    fn rows_of_the_vertical_slice() {
        let row = |sv, stage, dir| match glsl(sv, stage, dir) {
            GlslMapping::BuiltIn(b) => b.glsl_name,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            row(SV::Position, S::Vertex, Direction::Output),
            "gl_Position"
        );
        assert_eq!(
            row(SV::Position, S::Fragment, Direction::Input),
            "gl_FragCoord"
        );
        assert_eq!(
            row(SV::IsFrontFace, S::Fragment, Direction::Input),
            "gl_FrontFacing"
        );
        assert_eq!(
            row(SV::DispatchThreadId, S::Compute, Direction::Input),
            "gl_GlobalInvocationID"
        );
        assert_eq!(
            row(SV::GroupIndex, S::Compute, Direction::Input),
            "gl_LocalInvocationIndex"
        );
        assert_eq!(
            glsl(SV::Target, S::Fragment, Direction::Output),
            GlslMapping::Location { by_index: true }
        );
        assert_eq!(
            glsl(SV::DispatchThreadId, S::Vertex, Direction::Input),
            GlslMapping::Unsupported {
                code: codes::NOT_IN_STAGE
            }
        );
    }
}
