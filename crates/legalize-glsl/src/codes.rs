//! Diagnostic codes of the GLSL/SPIR-V legalizer (`E49xxx`); the table's
//! own codes (`E49990`, `E49991`) live in `legalis_sysval::codes`, and
//! cross-stage linking's (`E498xx`) in `legalis_ir::codes`.

pub use legalis_sysval::codes::{NOT_IN_STAGE, NOT_SUPPORTED_YET};

/// Cross-stage linking (`E49801`-`E49803`), every target's: its codes live
/// with the check, in `legalis_ir::codes`.
pub use legalis_ir::codes::{LINK_MISMATCH, LINK_STAGES, LINK_UNWRITTEN};

/// An `SV_*` semantic that is not a system value (B5).
pub const UNKNOWN_SYSTEM_VALUE: u32 = 49999;
/// A stage the GLSL legalizer does not handle yet.
pub const UNSUPPORTED_STAGE: u32 = 49992;
/// Two varyings claim the same location, or two declarations reach one
/// element of an arrayed builtin (`gl_ClipDistance[1]`).
pub const LOCATION_CONFLICT: u32 = 49993;
/// A varying of a shape the legalizer does not handle yet (arrays of
/// structs, opaque types).
pub const UNSUPPORTED_SHAPE: u32 = 49994;
/// A compute parameter without a system-value semantic.
pub const USER_VARYING_IN_COMPUTE: u32 = 49995;
/// `GetAttributeAtVertex` on something other than an input varying of the
/// fragment entry point (B13).
pub const NOT_PER_VERTEX_INPUT: u32 = 49997;
/// An entry-point attribute value Vulkan has no equivalent for
/// (`[partitioning("pow2")]`).
pub const NO_TARGET_EQUIVALENT: u32 = 49989;
/// `-entry`/`-stage` chose no entry point of the module.
pub const NO_ENTRY_POINT: u32 = 49996;
/// The legalized module failed the IR verifier (internal): a bug in Legalis.
pub const INTERNAL_VERIFY: u32 = 49000;
/// A malformed `[StreamOutput]` declaration: bad syntax, an unknown
/// semantic, a mask the output does not have, two streams in one slot.
pub const BAD_STREAM_OUTPUT: u32 = 49101;
/// A `[StreamOutput]` declaration past a limit: more than 64 components
/// per stream vertex, a slot outside 0..=3, a stride over 2048 bytes or
/// smaller than the slot's declarations.
pub const STREAM_OUTPUT_LIMIT: u32 = 49102;
/// Clip and cull distances past the eight elements Vulkan guarantees
/// (`maxClipDistances`, `maxCullDistances`, `maxCombinedClipAndCullDistances`).
pub const DISTANCE_LIMIT: u32 = 49998;
/// A parameter or result a ray-tracing entry point cannot have: a varying
/// parameter of a raygeneration or intersection shader, a second
/// hit-attribute parameter, a uniform parameter, a result, or a location
/// on a payload parameter merged with others (B11).
pub const RAY_TRACING_PARAMETER: u32 = 49103;
/// Two `ReportHit` calls of one intersection shader with different
/// attribute types (a shader has one hit-attribute variable).
pub const HIT_ATTRIBUTE_TYPES: u32 = 49104;
/// `ReportHit` where its attributes cannot be stored first: a loop condition.
pub const REPORT_HIT_PLACEMENT: u32 = 49105;
