//! What the fuzz targets (`fuzz/`, run with `cargo fuzz`) and the
//! fuzz-regression test check for one input: Legalis compiles it (to
//! `target`, or front end only) without a panic and without an internal
//! error, the diagnostics that mean a bug in Legalis rather than in the
//! shader.

use crate::{Request, Target, compile};

/// Whether a code is an internal error: the one list,
/// [`crate::codes::INTERNAL`], of the codes `docs/diagnostics.md` calls "a
/// bug in Legalis".
pub use crate::codes::is_internal;

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
