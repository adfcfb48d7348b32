//! What the WGSL and Metal legalizers share: the leaf walk over an entry
//! point's signature (`leaves.rs`), and the wrapper around the source
//! entry function with the IR builder it and Metal's in-place rewrite
//! (B21) use (`wrap.rs`).

pub(crate) mod leaves;
pub(crate) mod wrap;

/// The IR verifier on a legalized module (`verify_legalized`: no semantic
/// left on the entry point): a pass that left it invalid is the internal
/// error `code`, reported at the entry point (`span`).
pub(crate) fn verify(
    module: &legalis_ir::Module,
    span: legalis_ir::Span,
    code: u32,
) -> Result<(), Vec<legalis_ir::diag::Diagnostic>> {
    report(legalis_ir::verify::verify_legalized(module), span, code)
}

/// The verifier's errors `result` as the one internal error `code`,
/// reported at the entry point (`span`).
pub(crate) fn report(
    result: Result<(), Vec<legalis_ir::verify::VerifyError>>,
    span: legalis_ir::Span,
    code: u32,
) -> Result<(), Vec<legalis_ir::diag::Diagnostic>> {
    result.map_err(|errors| {
        let text: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        let message = format!(
            "internal error: the legalized module is invalid: {}",
            text.join("; ")
        );
        vec![legalis_ir::diag::Diagnostic::error(code, message, span)]
    })
}
