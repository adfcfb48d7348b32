//! What the legalizers share: the verifier's
//! report (here), what a legalizer returns and the ways to call it,
//! written once around each family's `legalize_one` (`legalized.rs`,
//! public as `legalis_legalize::Family`), the leaf walk over an entry
//! point's signature (`leaves.rs`, WGSL and Metal), the wrapper around the
//! source entry function with the IR builder it and Metal's in-place
//! rewrite (B21) use (`wrap.rs`), and the last step of every legalizer but
//! CUDA's: resource arguments read as the globals they are bound to
//! (`resource_arguments.rs`). Every target numbers locations with
//! `locations.rs`.

pub(crate) mod builder;
pub(crate) mod leaves;
pub(crate) mod legalized;
pub(crate) mod link;
pub(crate) mod locations;
pub mod plan;
pub(crate) mod resource_arguments;
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

/// The type and span of every parameter, result and local of `functions`:
/// where the legalizers' type limits are checked, besides the globals.
pub(crate) fn function_types<'m>(
    functions: impl Iterator<Item = &'m legalis_ir::Function>,
) -> impl Iterator<Item = (legalis_ir::Handle<legalis_ir::Type>, legalis_ir::Span)> {
    functions.flat_map(|f| {
        let params = f.params.iter().map(|p| (p.ty, p.span));
        let result = f.result.iter().map(|r| (r.ty, r.span));
        let locals = f.locals.iter().map(|(h, l)| (l.ty, f.locals.span(h)));
        params.chain(result).chain(locals)
    })
}
