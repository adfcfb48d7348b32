//! placeholder: the preprocessor.
use crate::lexer::Token;
use legalis_ir::diag::Diagnostic;

#[derive(Debug)]
pub struct Preprocessed {
    /// Active tokens with macros expanded, ending in one `Eof`.
    pub tokens: Vec<Token>,
    /// The text that token `text` spans index: the source, then define text.
    pub text: String,
    pub diagnostics: Vec<Diagnostic>,
}

pub fn preprocess(source: &str, defines: &[(String, String)]) -> Preprocessed {
    let _ = defines;
    let mut tokens = crate::lexer::lex_raw(source, 0);
    let end = source.len() as u32;
    tokens.push(Token {
        kind: crate::lexer::TokenKind::Eof,
        span: legalis_ir::Span::new(end, end),
        text: legalis_ir::Span::new(end, end),
    });
    Preprocessed {
        tokens,
        text: source.to_string(),
        diagnostics: Vec::new(),
    }
}
