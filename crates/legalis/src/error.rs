//! [`Error`]: a compilation that reported errors, as a Rust error value.

use legalis_ir::diag::Diagnostic;

use crate::{Compiled, Linked, Request, ShaderStage, render};

/// A compilation that reported at least one error.
///
/// `Display` renders every diagnostic (warnings too) as the command line
/// does, without colour; [`Error::diagnostics`] gives them as data.
///
/// ```
/// let request = legalis::Request::builder("bad.slang", "float4 f( { }")
///     .target(legalis::Target::Glsl)
///     .build();
/// let error = legalis::try_compile(&request).unwrap_err();
/// assert!(error.diagnostics().iter().any(|d| d.is_error()));
/// assert!(error.to_string().contains("bad.slang:1:"));
/// ```
#[derive(Debug)]
pub struct Error {
    path: String,
    source_text: String,
    diagnostics: Vec<Diagnostic>,
}

impl Error {
    /// The error of `request`'s compilation, whose diagnostics index
    /// `source_text`.
    fn new(request: &Request, source_text: String, diagnostics: Vec<Diagnostic>) -> Error {
        Error {
            path: request.path.clone(),
            source_text,
            diagnostics,
        }
    }

    /// Every diagnostic of the compilation, errors and warnings, in the
    /// order they were reported.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// The diagnostics, owned.
    pub fn into_diagnostics(self) -> Vec<Diagnostic> {
        self.diagnostics
    }

    /// The source text the diagnostics' spans index (for [`render`]).
    pub fn source_text(&self) -> &str {
        &self.source_text
    }

    /// The name the request gave the source.
    pub fn path(&self) -> &str {
        &self.path
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = render::render_human(&self.path, &self.source_text, &self.diagnostics, false);
        f.write_str(text.trim_end())
    }
}

impl std::error::Error for Error {}

/// [`compile`](crate::compile) as a `Result`: the compilation when no
/// diagnostic is an error (its warnings stay in [`Compiled::diagnostics`]),
/// otherwise every diagnostic as an [`Error`].
///
/// ```
/// # fn main() -> Result<(), legalis::Error> {
/// let source = "[shader(\"fragment\")] float4 main() : SV_Target { return 1; }";
/// let request = legalis::Request::builder("one.slang", source)
///     .target(legalis::Target::Wgsl)
///     .build();
/// let compiled = legalis::try_compile(&request)?;
/// let wgsl = compiled.output.as_ref().and_then(|o| o.text()).unwrap();
/// assert!(wgsl.contains("@fragment"));
/// # Ok(())
/// # }
/// ```
pub fn try_compile(request: &Request) -> Result<Compiled, Error> {
    let compiled = crate::compile(request);
    if !compiled.has_errors() {
        return Ok(compiled);
    }
    Err(Error::new(
        request,
        compiled.source_text,
        compiled.diagnostics,
    ))
}

/// [`link_entries`](crate::link_entries) as a `Result`: the linked
/// pipeline when no diagnostic is an error, otherwise every diagnostic as
/// an [`Error`].
pub fn try_link(
    request: &Request,
    entries: &[(String, Option<ShaderStage>)],
) -> Result<Linked, Error> {
    let linked = crate::link_entries(request, entries);
    if !linked.has_errors() {
        return Ok(linked);
    }
    Err(Error::new(request, linked.source_text, linked.diagnostics))
}
