//! The CUDA column: a system value a CUDA kernel can read is a C++
//! expression over `threadIdx`, `blockIdx` and `blockDim` (the compute
//! ids); everything else is `E55402`, at the declaration. OptiX programs
//! read their launch index, ray and hit values through intrinsics
//! (`DispatchRaysIndex()` → `optixGetLaunchIndex()`), never through
//! semantics, so no system value is a row of a ray-tracing stage; CUDA has
//! no graphics stages at all.
//!
//! The expressions have the prelude's `lg::uint3` or `uint32_t` type;
//! the legalizer converts to the declared type (a `uint2` group id takes
//! `.xy`).

use legalis_ir::{ShaderStage as S, SystemValue as SV};

use crate::{BuiltinType, Direction};

/// The code of every system value CUDA cannot express.
pub const UNSUPPORTED_SYSTEM_VALUE: u32 = crate::codes::CUDA_UNSUPPORTED_SYSTEM_VALUE;

/// A value a kernel computes: its CUDA expression and type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CudaBuiltin {
    /// A C++ expression over `threadIdx`, `blockIdx` and `blockDim` that
    /// computes the value (`lg::uint3(blockIdx.x, blockIdx.y, blockIdx.z)`).
    pub expression: &'static str,
    /// The expression's type: `lg::uint3` ([`BuiltinType::UINT3`]) or
    /// `uint32_t` ([`BuiltinType::UINT`]).
    pub ty: BuiltinType,
}

/// How a system value reaches a CUDA entry point: the answer of [`cuda`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CudaMapping {
    /// Computed by this expression (the compute ids of a kernel's inputs).
    BuiltIn(CudaBuiltin),
    /// CUDA cannot express it.
    Unsupported {
        /// Always [`UNSUPPORTED_SYSTEM_VALUE`] (`E55402`).
        code: u32,
    },
}

const fn builtin(expression: &'static str, ty: BuiltinType) -> CudaMapping {
    CudaMapping::BuiltIn(CudaBuiltin { expression, ty })
}

const UNSUPPORTED: CudaMapping = CudaMapping::Unsupported {
    code: UNSUPPORTED_SYSTEM_VALUE,
};

/// `SV_DispatchThreadID`: the global thread id.
const DISPATCH_THREAD_ID: &str = "lg::uint3(blockIdx.x * blockDim.x + threadIdx.x, \
     blockIdx.y * blockDim.y + threadIdx.y, blockIdx.z * blockDim.z + threadIdx.z)";
/// `SV_GroupID`: the block's id in the grid.
const GROUP_ID: &str = "lg::uint3(blockIdx.x, blockIdx.y, blockIdx.z)";
/// `SV_GroupThreadID`: the thread's id in its block.
const GROUP_THREAD_ID: &str = "lg::uint3(threadIdx.x, threadIdx.y, threadIdx.z)";
/// `SV_GroupIndex`: the flattened thread id in its block.
const GROUP_INDEX: &str = "((threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x)";

/// Whether CUDA/OptiX has entry points of `stage`: kernels (compute) and
/// the six OptiX program kinds.
pub fn has_stage(stage: S) -> bool {
    matches!(
        stage,
        S::Compute
            | S::RayGeneration
            | S::Intersection
            | S::AnyHit
            | S::ClosestHit
            | S::Miss
            | S::Callable
    )
}

/// The message of [`UNSUPPORTED_SYSTEM_VALUE`].
pub fn unsupported_message(sv: SV, stage: S) -> String {
    if has_stage(stage) {
        format!(
            "`{}` cannot be expressed in CUDA: a {} entry point reads only \
             SV_DispatchThreadID, SV_GroupID, SV_GroupThreadID and SV_GroupIndex (compute)",
            sv.name(),
            stage.name()
        )
    } else {
        format!(
            "`{}` cannot be expressed in CUDA: CUDA has no {} stage",
            sv.name(),
            stage.name()
        )
    }
}

/// The CUDA row for `sv` read or written by a `stage` entry point.
pub fn cuda(sv: SV, stage: S, dir: Direction) -> CudaMapping {
    if stage != S::Compute || dir != Direction::Input {
        return UNSUPPORTED;
    }
    match sv {
        SV::DispatchThreadId => builtin(DISPATCH_THREAD_ID, BuiltinType::UINT3),
        SV::GroupId => builtin(GROUP_ID, BuiltinType::UINT3),
        SV::GroupThreadId => builtin(GROUP_THREAD_ID, BuiltinType::UINT3),
        SV::GroupIndex => builtin(GROUP_INDEX, BuiltinType::UINT),
        SV::Position
        | SV::Target
        | SV::Depth
        | SV::DepthGreaterEqual
        | SV::DepthLessEqual
        | SV::Coverage
        | SV::InnerCoverage
        | SV::StencilRef
        | SV::IsFrontFace
        | SV::SampleIndex
        | SV::PrimitiveId
        | SV::VertexId
        | SV::InstanceId
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
        | SV::QuadLaneIndex => UNSUPPORTED,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compute_ids_are_expressions_and_the_rest_is_refused() {
        let rows: Vec<SV> = SV::ALL
            .into_iter()
            .filter(|&sv| {
                matches!(
                    cuda(sv, S::Compute, Direction::Input),
                    CudaMapping::BuiltIn(_)
                )
            })
            .collect();
        assert_eq!(
            rows,
            [
                SV::DispatchThreadId,
                SV::GroupId,
                SV::GroupThreadId,
                SV::GroupIndex
            ]
        );
        for stage in [S::Vertex, S::Fragment, S::RayGeneration, S::ClosestHit] {
            assert_eq!(
                cuda(SV::DispatchThreadId, stage, Direction::Input),
                UNSUPPORTED
            );
        }
        assert!(unsupported_message(SV::Position, S::Vertex).contains("no vertex stage"));
    }
}
