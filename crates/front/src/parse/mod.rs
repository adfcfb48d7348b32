//! placeholder: the parser.
use crate::{ast, lexer::Token};
use legalis_ir::diag::Diagnostic;

pub fn parse(tokens: &[Token], text: &str, diagnostics: &mut Vec<Diagnostic>) -> ast::SourceFile {
    let _ = (tokens, text, diagnostics);
    ast::SourceFile::default()
}
