//! Diagnostic codes of the checks the IR crate holds for every target:
//! cross-stage linking ([`crate::link`], `E498xx`, in the GLSL/SPIR-V
//! legalizer's range where linking began; `legalis_legalize::codes`
//! re-exports them).

/// Cross-stage linking: an input no earlier stage of the pipeline writes.
pub const LINK_UNWRITTEN: u32 = 49801;
/// Cross-stage linking: the two sides of a varying or of the task payload
/// disagree (type, per-patch-ness, interpolation, and on WGSL sampling).
pub const LINK_MISMATCH: u32 = 49802;
/// Cross-stage linking: the entry points are not stages of one pipeline.
pub const LINK_STAGES: u32 = 49803;
