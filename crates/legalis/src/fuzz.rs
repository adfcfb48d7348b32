//! What the fuzz targets (`fuzz/`, run with `cargo fuzz`) and the
//! fuzz-regression test check for one input: Legalis compiles it (to
//! `target`, or front end only) without a panic and without an internal
//! error, the diagnostics that mean a bug in Legalis rather than in the
//! shader.

use crate::{Request, Target, compile};

/// The codes of internal errors: a legalized module the IR verifier
/// rejects, or a writer handed a module it cannot write. No input may
/// produce one (`docs/diagnostics.md` says "a bug in Legalis").
pub const INTERNAL_CODES: [u32; 8] = [49000, 55200, 55300, 56002, 56102, 56103, 56202, 56302];

/// Whether `code` is an internal error.
pub fn is_internal(code: u32) -> bool {
    INTERNAL_CODES.contains(&code)
}

/// Compiles `source` for `target` and panics on an internal error (a panic
/// inside the compiler propagates as it is). The entry point is the file's
/// only `[shader("...")]` function; with several, the facade refuses with a
/// code, which is fine.
pub fn pipeline(source: &[u8], target: Option<Target>) {
    let compiled = compile(&Request {
        path: "fuzz.slang".into(),
        source: source.to_vec(),
        target,
        ..Request::default()
    });
    if let Some(internal) = compiled.diagnostics.iter().find(|d| is_internal(d.code)) {
        panic!(
            "internal error {}: {}\n--- source ---\n{}",
            internal.code_str(),
            internal.message,
            compiled.source_text
        );
    }
}
