//! The Legalis front end: source text to a checked [`legalis_ir::Module`].
//!
//! `pp` (preprocessor over `lexer` tokens) → `parse` (recursive descent to
//! [`ast`]) → `check` (names, types, overloads, HLSL conversions, lowering to
//! IR). Every stage reports problems as coded [`Diagnostic`]s and keeps going
//! where it can; nothing here panics on any input.
//!
//! [`compile`] is the entry point: source text and [`Options`] in, an
//! [`Output`] (the module, when there were no errors, and every
//! diagnostic) out.
//!
//! ```
//! let source = r#"
//! [shader("fragment")]
//! float4 main(float2 uv : TEXCOORD0) : SV_Target { return float4(uv, 0, 1); }
//! "#;
//! let output = legalis_front::compile(source, &legalis_front::Options::default());
//! assert!(output.diagnostics.is_empty());
//! let module = output.module.expect("no errors");
//! let entry = &module.entry_points[0];
//! assert_eq!(entry.name, "main");
//! assert_eq!(entry.stage, legalis_ir::ShaderStage::Fragment);
//!
//! // Errors are coded diagnostics, and then there is no module.
//! let output = legalis_front::compile("float4 f( {", &Default::default());
//! assert!(output.module.is_none());
//! assert!(output.diagnostics.iter().any(|d| d.is_error()));
//! ```

#![warn(missing_docs)]

pub mod ast;
mod check;
pub mod codes;
pub mod lexer;
pub mod literal;
pub mod parse;
pub mod pp;

use legalis_ir as ir;
use legalis_ir::diag::Diagnostic;

/// What the caller asks of the front end.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Entry point to check and record; `None` means every function that
    /// carries a `[shader("...")]` attribute.
    pub entry: Option<String>,
    /// Stage of `entry`; overrides its `[shader]` attribute.
    pub stage: Option<ir::ShaderStage>,
    /// Command-line macro definitions (`-D NAME=VALUE`).
    pub defines: Vec<(String, String)>,
    /// `-allow-glsl`: GLSL type names (`vec4`, `sampler2D` ...) and a few
    /// GLSL functions (`texelFetch`, `mix` ...) read as their HLSL
    /// counterparts (`check/glsl.rs`).
    pub allow_glsl: bool,
    /// `-conformance TYPE:IFACE[=N]`: the tag of `TYPE` in a value of
    /// interface type `IFACE` (`check/dyn_dispatch.rs`).
    pub conformances: Vec<Conformance>,
}

/// One `-conformance TYPE:IFACE[=N]`: conforming struct `ty` of interface
/// `interface` takes tag `id` in a value of the interface type.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Conformance {
    /// The conforming struct's name (`TYPE`).
    pub ty: String,
    /// The interface's name (`IFACE`).
    pub interface: String,
    /// The tag (`N`); `None` lets the struct take the lowest free tag,
    /// in declaration order.
    pub id: Option<u32>,
}

/// The result of a front-end run: a module when there were no errors, and
/// every diagnostic (errors and warnings) in source order.
#[derive(Debug)]
pub struct Output {
    /// The checked module: one entry point per `[shader(...)]` function
    /// (or the one [`Options::entry`] names); `None` when any diagnostic is
    /// an error.
    pub module: Option<ir::Module>,
    /// Every error and warning, sorted by where its primary span starts.
    pub diagnostics: Vec<Diagnostic>,
}

/// Preprocesses, parses and checks `source`, lowering it to IR.
pub fn compile(source: &str, options: &Options) -> Output {
    compile_then(source, options, drop)
}

/// [`compile`], handing the syntax tree to `dispose` once the module is
/// built instead of dropping it in place: freeing a large tree takes a
/// while, and a caller with another thread can do it there.
pub fn compile_then(
    source: &str,
    options: &Options,
    dispose: impl FnOnce(ast::SourceFile),
) -> Output {
    let (file, mut diagnostics) = parse_source(source, &options.defines);
    let module = check::check(&file, options, &mut diagnostics);
    dispose(file);
    diagnostics.sort_by_key(|d| d.primary_span().start);
    let has_errors = diagnostics.iter().any(Diagnostic::is_error);
    Output {
        module: if has_errors { None } else { module },
        diagnostics,
    }
}

/// Preprocesses and parses `source` into a syntax tree, without checking.
pub fn parse_source(
    source: &str,
    defines: &[(String, String)],
) -> (ast::SourceFile, Vec<Diagnostic>) {
    let pre = pp::preprocess(source, defines);
    let mut diagnostics = pre.diagnostics;
    let file = parse::parse(&pre.tokens, &pre.text, &mut diagnostics);
    (file, diagnostics)
}
