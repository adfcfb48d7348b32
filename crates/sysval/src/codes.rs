//! Diagnostic codes the table hands to legalizers (`E4999x`, and the
//! WGSL column's `E55202`, Metal's `E55302`, CUDA's `E55402`).

/// The system value exists but this stage/direction cannot use it
/// (`SV_DispatchThreadID` on a vertex input ...).
pub const NOT_IN_STAGE: u32 = 49990;
/// The target has no way to express the system value yet.
pub const NOT_SUPPORTED_YET: u32 = 49991;
/// WGSL cannot express the system value (B23); the reference's own code
/// and message (`system value semantic 'sv_clipdistance' is not supported
/// for the current target.`).
pub const WGSL_UNSUPPORTED_SYSTEM_VALUE: u32 = 55202;
/// Metal cannot express the system value (`SV_ClipDistance`,
/// `SV_CullDistance`, `SV_InnerCoverage` ...), or the stage is one Metal
/// does not have; at the declaration, never dropped.
pub const METAL_UNSUPPORTED_SYSTEM_VALUE: u32 = 55302;
/// CUDA cannot express the system value: a CUDA kernel reads only the
/// compute ids, and OptiX programs read theirs through intrinsics; at the
/// declaration.
pub const CUDA_UNSUPPORTED_SYSTEM_VALUE: u32 = 55402;
