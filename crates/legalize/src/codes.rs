//! Diagnostic codes of the legalizers: `E49xxx` for GLSL/SPIR-V (the
//! unprefixed names), `E552xx` for WGSL, `E553xx` for Metal, `E554xx` for
//! CUDA. The system-value table's own codes (`E49990`, `E49991`, `E55202`,
//! `E55302`, `E55402`) live in `legalis_sysval::codes`, and cross-stage
//! linking's (`E498xx`) in `legalis_ir::codes`.

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
/// A `[[vk::index(n)]]` dual-source blending index on something other
/// than a fragment output, past 1, or 1 at a location other than 0.
pub const BLEND_INDEX: u32 = 49106;
/// A value whose type nests structs deeper than GLSL and SPIR-V take
/// (SPIR-V's 255 levels), a buffer's or `_Globals` block counted.
pub const STRUCT_NESTING_LIMIT: u32 = 49107;
/// A varying whose locations run past the last one SPIR-V can number
/// (4294967295): `[[vk::location(n)]]` near the top of the range on an
/// array, a matrix or a 64-bit vector.
pub const LOCATION_LIMIT: u32 = 49108;
/// A struct (or a buffer's or `_Globals` block) with more members than
/// GLSL and SPIR-V take (SPIR-V's 16383).
pub const STRUCT_MEMBER_LIMIT: u32 = 49109;
/// A function with more parameters than GLSL and SPIR-V take (SPIR-V's
/// 255).
pub const PARAMETER_LIMIT: u32 = 49110;

pub use legalis_sysval::codes::{
    CUDA_UNSUPPORTED_SYSTEM_VALUE, METAL_UNSUPPORTED_SYSTEM_VALUE, WGSL_UNSUPPORTED_SYSTEM_VALUE,
};

/// A stage WGSL does not have (WGSL has vertex, fragment and compute).
pub const WGSL_UNSUPPORTED_STAGE: u32 = 55201;
/// Two WGSL varyings claim one location in one direction; a label marks
/// the other one.
pub const WGSL_LOCATION_CONFLICT: u32 = 55203;
/// A varying of a shape WGSL cannot pass at a location (a matrix, an
/// array, a `bool`, a 16-bit integer, a 64-bit type, an opaque type);
/// WGSL user varyings are 32-bit numeric and `f16` scalars and vectors.
pub const WGSL_UNSUPPORTED_SHAPE: u32 = 55204;
/// A compute entry-point parameter without a system-value semantic.
pub const WGSL_USER_VARYING_IN_COMPUTE: u32 = 55205;
/// A vertex entry point that writes no `SV_Position`: WGSL requires a
/// vertex shader to output `@builtin(position)`.
pub const WGSL_VERTEX_WITHOUT_POSITION: u32 = 55206;
/// An `SV_` semantic that names no system value (as `E49999` on GLSL).
pub const WGSL_UNKNOWN_SYSTEM_VALUE: u32 = 55207;
/// A target was asked for but no entry point was chosen.
pub const WGSL_NO_ENTRY_POINT: u32 = 55208;
/// A `[[vk::index(n)]]` dual-source blending index WGSL cannot write (as
/// `E49106`), or dual-source blending beside other fragment outputs at a
/// location, or with two different types: WGSL's `@blend_src` takes
/// exactly two outputs of one type at `@location(0)`.
pub const WGSL_BLEND_INDEX: u32 = 55209;
/// Clip distances WGSL's one `clip_distances` array cannot hold: two
/// declarations of one `SV_ClipDistanceN` register, or more than eight
/// distances in all (as `E49993`/`E49998` on GLSL).
pub const WGSL_CLIP_DISTANCES: u32 = 55210;
/// A value whose WGSL type is larger than the 2147483647 bytes WGSL
/// takes (naga's limit on any type's size).
pub const WGSL_TYPE_TOO_LARGE: u32 = 55211;
/// The legalized module failed the IR verifier (internal): a bug in
/// Legalis, never expected from any input.
pub const WGSL_INTERNAL_VERIFY: u32 = 55200;

/// The Metal-legalized module failed the IR verifier (internal): a bug in
/// Legalis, never expected from any input.
pub const METAL_INTERNAL_VERIFY: u32 = 55300;
/// A stage Metal does not have (geometry, hull, domain, ray tracing).
pub const METAL_UNSUPPORTED_STAGE: u32 = 55301;
/// Two Metal varyings claim one location in one direction; a label marks
/// the other one.
pub const METAL_LOCATION_CONFLICT: u32 = 55303;
/// A Metal varying of a shape Metal cannot pass across stages (a matrix,
/// an array, a `bool`, a 64-bit type, an opaque type).
pub const METAL_UNSUPPORTED_SHAPE: u32 = 55304;
/// A compute entry-point parameter without a system-value semantic.
pub const METAL_USER_VARYING_IN_COMPUTE: u32 = 55305;
/// An `SV_` semantic that names no system value (as `E49999` on GLSL).
pub const METAL_UNKNOWN_SYSTEM_VALUE: u32 = 55307;
/// Metal was asked for but no entry point was chosen.
pub const METAL_NO_ENTRY_POINT: u32 = 55308;
/// A Metal mesh output used as its thread-local copy cannot take: the
/// array passed on, or an element (or part of one) written other than by
/// an assignment statement, where the copy could not mark it written.
/// Metal's `set_vertex`/`set_primitive`/`set_index` write whole elements
/// only (B21, issue 29).
pub const METAL_MESH_OUTPUT_ACCESS: u32 = 55309;
/// `SetMeshOutputCounts` or `DispatchMesh` called outside the entry
/// function: on Metal only the entry function holds the mesh object and
/// the payload and grid parameters (B21).
pub const METAL_MESH_CALL_IN_HELPER: u32 = 55310;
/// A Metal vertex function with outputs but no `SV_Position` among them:
/// a vertex function that returns something returns `[[position]]`.
pub const METAL_VERTEX_WITHOUT_POSITION: u32 = 55311;
/// A Metal mesh function's outputs past what `metal::mesh` holds: 256
/// vertices, 512 primitives.
pub const METAL_MESH_TOO_LARGE: u32 = 55312;
/// A `[[vk::index(n)]]` dual-source blending index Metal cannot write
/// (as `E49106`).
pub const METAL_BLEND_INDEX: u32 = 55313;
/// Clip distances Metal's one `[[clip_distance]]` array cannot hold (as
/// `E55210` on WGSL).
pub const METAL_CLIP_DISTANCES: u32 = 55314;

/// The CUDA-legalized module failed the IR verifier (internal): a bug in
/// Legalis, never expected from any input.
pub const CUDA_INTERNAL_VERIFY: u32 = 55400;
/// A stage CUDA does not have (the graphics stages).
pub const CUDA_UNSUPPORTED_STAGE: u32 = 55401;
/// D8: OptiX hit attributes over 8 slots (32 bytes), at the hit
/// program's parameter or the `ReportHit` call.
pub const CUDA_ATTRIBUTES_TOO_LARGE: u32 = 55403;
/// A payload or hit-attribute value with no bits to pack in registers (a
/// resource, an unsized array).
pub const CUDA_UNPACKABLE: u32 = 55404;
/// A kernel parameter that is not a system-value input.
pub const CUDA_KERNEL_PARAMETER: u32 = 55405;
/// An `SV_` semantic that names no system value.
pub const CUDA_UNKNOWN_SYSTEM_VALUE: u32 = 55407;
/// CUDA was asked for but no entry point was chosen.
pub const CUDA_NO_ENTRY_POINT: u32 = 55408;
/// An OptiX program parameter of the wrong kind or number.
pub const CUDA_RAY_TRACING_PARAMETER: u32 = 55409;
