//! Diagnostic codes the facade itself emits, before or after the front end.
//!
//! `E00xxx` is the facade's range: problems with files and bytes rather than
//! with shader source. Same format as `legalis_front::codes`, so the test that
//! keeps `docs/diagnostics.md` honest reads both files.

/// The input file cannot be read (missing, a directory, no permission).
pub const CANNOT_READ_FILE: u32 = 1;
/// The input file is not valid UTF-8.
pub const INVALID_UTF8: u32 = 2;
/// An output (`-o` or standard output) cannot be written.
pub const CANNOT_WRITE_OUTPUT: u32 = 3;
/// The file has several entry points and a target that holds one (GLSL)
/// was asked for without `-entry`.
pub const AMBIGUOUS_ENTRY_POINT: u32 = 4;
/// The target is known but this build does not generate code for it yet.
pub const TARGET_NOT_IMPLEMENTED: u32 = 5;
/// Under `-emit-spirv-via-glsl`, glslang rejected the GLSL Legalis wrote
/// (internal): a bug in Legalis, never expected from any input.
pub const GLSLANG_REJECTED: u32 = 6;
/// Cross-stage linking named an entry point the file does not have.
pub const UNKNOWN_ENTRY_POINT: u32 = 7;
/// A linked pipeline written as SPIR-V binaries (one per stage) without
/// `-o FOLDER` to put them in.
pub const SPIRV_PIPELINE_NEEDS_FOLDER: u32 = 8;
/// `-target wgsl-spirv-asm`: naga could not read back or write as SPIR-V
/// the WGSL Legalis wrote (a construct its SPIR-V writer lacks).
pub const WGSL_TO_SPIRV: u32 = 9;
/// (warning) A buffer-layout option (`-fvk-use-scalar-layout`,
/// `-fvk-use-c-layout`) given for a target it does not lay out.
pub const OPTION_WITHOUT_EFFECT: u32 = 10;
/// A request that needs glslang or SPIRV-Tools (`-emit-spirv-via-glsl`,
/// `-target wgsl-spirv-asm`) in a build without the `cpp-tools` feature;
/// the message names the feature.
pub const FEATURE_NOT_BUILT: u32 = 20;
/// `passes::legalize_and_write` was given an IR module the IR verifier
/// refuses.
pub const INVALID_MODULE: u32 = 11;
/// Several `-entry` that are the stages of one graphics pipeline, linked
/// for a target that has no graphics stages (`cuda`); the message names the
/// target.
pub const LINK_UNSUPPORTED_TARGET: u32 = 12;
/// (warning) A domain shader written as GLSL (or through GLSL) whose
/// spacing or winding neither its own `[partitioning]`/`[outputtopology]`
/// nor a linked hull states: GLSL states them in the evaluation shader
/// only, so glslang's defaults (`equal_spacing`, `ccw`) apply.
pub const TESSELLATOR_DEFAULTS: u32 = 13;

/// Every internal error of every codes file: the codes whose doc comment
/// says `(internal)`, a bug in Legalis that no input may produce (the
/// rows of `docs/diagnostics.md` that say so). The fuzz targets and the
/// tests that ask "is this an internal error" read this list;
/// `tests/diagnostics_doc.rs` keeps it equal to the marked codes.
pub static INTERNAL: &[u32] = &[
    GLSLANG_REJECTED,
    legalis_legalize::codes::INTERNAL_VERIFY,
    legalis_legalize::codes::WGSL_INTERNAL_VERIFY,
    legalis_legalize::codes::METAL_INTERNAL_VERIFY,
    legalis_legalize::codes::CUDA_INTERNAL_VERIFY,
    legalis_emit::codes::GLSL_NOT_LEGALIZED,
    legalis_emit::codes::SPIRV_NOT_LEGALIZED,
    legalis_emit::codes::SPIRV_INTERNAL,
    legalis_emit::codes::WGSL_NOT_LEGALIZED,
    legalis_emit::codes::METAL_NOT_LEGALIZED,
    legalis_emit::codes::CUDA_NOT_LEGALIZED,
];

/// Whether `code` is an internal error (in [`INTERNAL`]).
pub fn is_internal(code: u32) -> bool {
    INTERNAL.contains(&code)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The internal errors the first list missed, and refusals that are
    /// not internal.
    #[test]
    fn internal_errors_of_every_stage_are_internal_and_refusals_are_not() {
        for code in [6, 49000, 55200, 55300, 55400, 56002, 56102, 56103, 56402] {
            assert!(is_internal(code), "E{code:05} is internal");
        }
        for code in [1, 5, 49999, 55204, 55304, 56001, 56401, 47001] {
            assert!(!is_internal(code), "E{code:05} is a refusal");
        }
    }
}
