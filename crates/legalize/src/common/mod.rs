//! What the legalizers share: the entry point lookup, the verifier's
//! report and the drivers around each family's `legalize_one` (here), the leaf walk over an entry point's signature
//! (`leaves.rs`, WGSL and Metal), the wrapper around the source entry
//! function with the IR builder it and Metal's in-place rewrite (B21) use
//! (`wrap.rs`), and the last step of every legalizer but CUDA's: resource
//! arguments read as the globals they are bound to
//! (`resource_arguments.rs`).

pub(crate) mod builder;
pub(crate) mod leaves;
pub(crate) mod link;
pub mod plan;
pub(crate) mod resource_arguments;
pub(crate) mod wrap;

/// Entry point `entry_point` of `module`, or the legalizer's "no entry
/// point" error `code` when there is none.
pub(crate) fn entry_point(
    module: &legalis_ir::Module,
    entry_point: usize,
    code: u32,
) -> Result<&legalis_ir::EntryPoint, Vec<legalis_ir::diag::Diagnostic>> {
    module.entry_points.get(entry_point).ok_or_else(|| {
        let message = "no entry point to legalize: pass `-entry NAME -stage STAGE` or add `[shader(\"...\")]`";
        vec![legalis_ir::diag::Diagnostic::error(
            code,
            message,
            legalis_ir::Span::UNDEFINED,
        )]
    })
}

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

/// The errors of a legalizer.
type Errors = Vec<legalis_ir::diag::Diagnostic>;

/// `legalized`, one family's result for entry point `entry_point` of
/// `module` alone, once `verify` (the family's verifier) passes on its
/// module (`out`): every family's `legalize`.
pub(crate) fn verified<L>(
    module: &legalis_ir::Module,
    entry_point: usize,
    legalized: Result<L, Errors>,
    out: impl FnOnce(&L) -> &legalis_ir::Module,
    verify: fn(&legalis_ir::Module, legalis_ir::Span) -> Result<(), Errors>,
) -> Result<L, Errors> {
    let legalized = legalized?;
    verify(out(&legalized), module.entry_points[entry_point].span)?;
    Ok(legalized)
}

/// `legalized`, one family's result for one entry point alone, its
/// resource arguments read as their globals (`out`, its module): every
/// family's `legalize_unverified` but CUDA's.
pub(crate) fn inlined<L>(
    legalized: Result<L, Errors>,
    out: impl FnOnce(&mut L) -> &mut legalis_ir::Module,
) -> Result<L, Errors> {
    let mut legalized = legalized?;
    resource_arguments::inline_resource_arguments(out(&mut legalized));
    Ok(legalized)
}

/// Every entry point of `module` legalized by `one` (a family's
/// `legalize_one` keeping the other entry points, as module and plan)
/// into one module, resource arguments read as their globals: every
/// family's `legalize_all_unverified`.
pub(crate) fn all<P>(
    module: &legalis_ir::Module,
    one: impl FnMut(&legalis_ir::Module, usize) -> Result<(legalis_ir::Module, P), Errors>,
) -> Result<(legalis_ir::Module, Vec<P>), Errors> {
    let (mut module, plans) = legalis_ir::legalize_each(module, one)?;
    resource_arguments::inline_resource_arguments(&mut module);
    Ok((module, plans))
}
