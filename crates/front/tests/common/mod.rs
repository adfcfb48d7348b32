//! What the front end's integration tests share: compiling a shader that
//! must check cleanly (and pass the IR verifier), and one that must fail
//! with exactly one coded error at a span. Each test file uses what it
//! needs.

#![allow(dead_code)]

use legalis_front::{Options, compile};
use legalis_ir as ir;

/// The module of `src`, which must have no errors and verify.
#[track_caller]
pub fn ok(src: &str) -> ir::Module {
    ok_with(src, &Options::default())
}

/// The module of `src` compiled with `options`, which must have no
/// errors and verify.
#[track_caller]
pub fn ok_with(src: &str, options: &Options) -> ir::Module {
    let out = compile(src, options);
    let errors: Vec<String> = out
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| format!("{} {}", d.code_str(), d.message))
        .collect();
    assert!(
        errors.is_empty(),
        "unexpected errors:\n{}",
        errors.join("\n")
    );
    let module = out.module.expect("a module");
    if let Err(errors) = ir::verify::verify(&module) {
        panic!("the verifier rejected the module: {errors:?}");
    }
    module
}

/// Exactly one error, with `code`, its message containing `message`, its
/// span covering `text`.
#[track_caller]
pub fn error(src: &str, code: &str, message: &str, text: &str) {
    let out = compile(src, &Options::default());
    let errors: Vec<_> = out.diagnostics.iter().filter(|d| d.is_error()).collect();
    assert_eq!(errors.len(), 1, "{:?}", out.diagnostics);
    let d = errors[0];
    assert_eq!(d.code_str(), code, "{}", d.message);
    assert!(d.message.contains(message), "{}", d.message);
    let span = d.primary_span();
    assert_eq!(src.get(span.range()), Some(text));
}
