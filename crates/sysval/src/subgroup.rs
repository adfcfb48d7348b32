//! The GLSL/SPIR-V builtins the wave intrinsics that read one read
//! (`WaveGetLaneCount()` is `gl_SubgroupSize`, SPIR-V `SubgroupSize`):
//! like the ray-tracing ones ([`crate::ray_builtin`]) they are keyed by
//! intrinsic, as no semantic names them. Both the GLSL and the SPIR-V
//! writer read them from here.

use legalis_ir::Intrinsic as I;

/// A subgroup builtin variable a wave intrinsic reads (a `uint` input).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SubgroupBuiltin {
    /// The GLSL builtin variable (`gl_SubgroupSize`).
    pub glsl_name: &'static str,
    /// Its SPIR-V `BuiltIn` decoration (`SubgroupSize`).
    pub spirv_builtin: &'static str,
}

/// The subgroup builtin wave intrinsic `fun` reads; `None` for every
/// other intrinsic. A data table.
pub fn subgroup_builtin(fun: I) -> Option<SubgroupBuiltin> {
    let (glsl_name, spirv_builtin) = match fun {
        I::WaveGetLaneCount => ("gl_SubgroupSize", "SubgroupSize"),
        I::WaveGetLaneIndex => ("gl_SubgroupInvocationID", "SubgroupLocalInvocationId"),
        // Vulkan has these two in the compute-like stages only.
        I::WaveGetWaveIndex => ("gl_SubgroupID", "SubgroupId"),
        I::WaveGetNumWaves => ("gl_NumSubgroups", "NumSubgroups"),
        _ => return None,
    };
    Some(SubgroupBuiltin {
        glsl_name,
        spirv_builtin,
    })
}
