//! Diagnostic codes the table hands to legalizers (`E4999x`, and the
//! WGSL column's `E55202`).

/// The system value exists but this stage/direction cannot use it
/// (`SV_DispatchThreadID` on a vertex input ...).
pub const NOT_IN_STAGE: u32 = 49990;
/// The target has no way to express the system value yet.
pub const NOT_SUPPORTED_YET: u32 = 49991;
/// WGSL cannot express the system value (B23); the reference's own code
/// and message (`system value semantic 'sv_clipdistance' is not supported
/// for the current target.`).
pub const WGSL_UNSUPPORTED_SYSTEM_VALUE: u32 = 55202;
