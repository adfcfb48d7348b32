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
/// The file has several entry points and a target was asked for without
/// `-entry`.
pub const AMBIGUOUS_ENTRY_POINT: u32 = 4;
/// The target is known but this build does not generate code for it yet.
pub const TARGET_NOT_IMPLEMENTED: u32 = 5;
/// Under `-emit-spirv-via-glsl`, glslang rejected the GLSL Legalis wrote:
/// a bug in Legalis, never expected from any input.
pub const GLSLANG_REJECTED: u32 = 6;
/// Cross-stage linking named an entry point the file does not have.
pub const UNKNOWN_ENTRY_POINT: u32 = 7;
