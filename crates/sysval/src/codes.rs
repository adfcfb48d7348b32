//! Diagnostic codes the table hands to legalizers (`E4999x`).

/// The system value exists but this stage/direction cannot use it
/// (`SV_DispatchThreadID` on a vertex input ...).
pub const NOT_IN_STAGE: u32 = 49990;
/// The target has no way to express the system value yet.
pub const NOT_SUPPORTED_YET: u32 = 49991;
