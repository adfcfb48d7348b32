//! placeholder: the checker.
use crate::{Options, ast};
use legalis_ir as ir;
use legalis_ir::diag::Diagnostic;

pub fn check(
    file: &ast::SourceFile,
    options: &Options,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<ir::Module> {
    let _ = (file, options, diagnostics);
    Some(ir::Module::default())
}
