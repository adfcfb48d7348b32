//! Diagnostic codes of the emitters (`E56xxx`), and the one function that
//! turns a writer's typed error into its code.

/// A construct the GLSL writer does not support (yet).
pub const GLSL_UNSUPPORTED: u32 = 56001;
/// The module handed to the GLSL writer was not legalized for it
/// (internal): a bug in Legalis, never expected from any input.
pub const GLSL_NOT_LEGALIZED: u32 = 56002;

/// A construct the SPIR-V writer does not support (yet).
pub const SPIRV_UNSUPPORTED: u32 = 56101;
/// The module handed to the SPIR-V writer was not legalized for it
/// (internal): a bug in Legalis, never expected from any input.
pub const SPIRV_NOT_LEGALIZED: u32 = 56102;
/// The SPIR-V builder refused an instruction (internal): a bug in Legalis,
/// never expected from any input.
pub const SPIRV_INTERNAL: u32 = 56103;

/// A construct the WGSL writer cannot express in WGSL (or not yet); the
/// span is the construct.
pub const WGSL_UNSUPPORTED: u32 = 56201;
/// The module handed to the WGSL writer was not legalized for it
/// (internal): a bug in Legalis, never expected from any input.
pub const WGSL_NOT_LEGALIZED: u32 = 56202;

/// A construct the MSL writer cannot express in MSL (or not yet); the span
/// is the construct.
pub const METAL_UNSUPPORTED: u32 = 56301;
/// The module handed to the MSL writer was not legalized for it
/// (internal): a bug in Legalis, never expected from any input.
pub const METAL_NOT_LEGALIZED: u32 = 56302;

/// A construct the CUDA writer cannot express in CUDA (or not yet); the
/// span is the construct.
pub const CUDA_UNSUPPORTED: u32 = 56401;
/// The module handed to the CUDA writer was not legalized for it
/// (internal): a bug in Legalis, never expected from any input.
pub const CUDA_NOT_LEGALIZED: u32 = 56402;

/// Metal structured-buffer elements whose natural MSL layout (`float3` 16
/// bytes) differs from the metal-device rule (`packed_float3`, 12): the
/// writer does not spell packed element types yet; the span is the member
/// (or the buffer) whose offset or size differs.
pub const METAL_DEVICE_LAYOUT: u32 = 47001;
/// A reference C++ cannot bind into a column-major matrix the host shares
/// (`lg::column_major`): a row or the whole matrix as an `out`/`inout`
/// argument or incremented; the span is the operand.
pub const CUDA_COLUMN_MAJOR: u32 = 47002;

/// The code of a CUDA writer error.
pub fn of_cuda(error: &crate::cuda::Error) -> u32 {
    match error {
        crate::cuda::Error::Unsupported { .. } => CUDA_UNSUPPORTED,
        crate::cuda::Error::Layout { .. } => CUDA_COLUMN_MAJOR,
        crate::cuda::Error::NotLegalized { .. } | crate::cuda::Error::NoSuchEntryPoint { .. } => {
            CUDA_NOT_LEGALIZED
        }
    }
}

/// The code of an MSL writer error.
pub fn of_metal(error: &crate::metal::Error) -> u32 {
    match error {
        crate::metal::Error::Unsupported { .. } => METAL_UNSUPPORTED,
        crate::metal::Error::Layout { .. } => METAL_DEVICE_LAYOUT,
        crate::metal::Error::NotLegalized { .. } | crate::metal::Error::NoSuchEntryPoint { .. } => {
            METAL_NOT_LEGALIZED
        }
    }
}

/// The code of a WGSL writer error.
pub fn of_wgsl(error: &crate::wgsl::Error) -> u32 {
    match error {
        crate::wgsl::Error::Unsupported { .. } => WGSL_UNSUPPORTED,
        crate::wgsl::Error::NotLegalized { .. } | crate::wgsl::Error::NoSuchEntryPoint { .. } => {
            WGSL_NOT_LEGALIZED
        }
    }
}

/// The code of a SPIR-V writer error.
pub fn of_spirv(error: &crate::spirv::Error) -> u32 {
    match error {
        crate::spirv::Error::Unsupported { .. } => SPIRV_UNSUPPORTED,
        crate::spirv::Error::NotLegalized { .. } | crate::spirv::Error::NoSuchEntryPoint { .. } => {
            SPIRV_NOT_LEGALIZED
        }
        crate::spirv::Error::Internal { .. } => SPIRV_INTERNAL,
    }
}

/// The code of a GLSL writer error.
pub fn of(error: &crate::glsl::Error) -> u32 {
    match error {
        crate::glsl::Error::Unsupported { .. } => GLSL_UNSUPPORTED,
        crate::glsl::Error::NotLegalized { .. } | crate::glsl::Error::NoSuchEntryPoint { .. } => {
            GLSL_NOT_LEGALIZED
        }
    }
}
