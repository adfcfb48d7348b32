//! State shared by directive handling and macro expansion: the text buffer
//! tokens point into, the macro table, the diagnostics, and the expansion
//! budget that keeps pathological inputs fast.

use super::macros::{MacroTable, is_lex_error};
use crate::codes;
use crate::lexer::{self, Token, TokenKind};
use legalis_ir::Span;
use legalis_ir::diag::Diagnostic;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Work (tokens produced or moved) one outermost macro use may cost before
/// it is cut off with `E15011`; real shaders stay orders of magnitude below.
const USE_WORK_LIMIT: u32 = 1 << 18;
/// Work the whole file may spend on expansion; past it macros stop expanding,
/// so a file full of exponential macros still finishes in milliseconds.
const FILE_WORK_LIMIT: u64 = 1 << 22;

/// A token during expansion.
#[derive(Clone, Copy, Debug)]
pub(super) struct PTok {
    pub tok: Token,
    /// The C "painted blue" mark: the token named a macro while that macro
    /// was being expanded, so it must never expand, even after it leaves
    /// that expansion.
    pub no_expand: bool,
    /// Whether white space came before the token where it was written (for
    /// the first token of an expansion or an argument: before the macro name
    /// or parameter it replaces). Only `#` reads it.
    pub space_before: bool,
}

impl PTok {
    pub fn new(tok: Token, space_before: bool) -> Self {
        PTok {
            tok,
            no_expand: false,
            space_before,
        }
    }
}

/// Whether raw token `tok` is separated from the raw token before it.
pub(super) fn gap_before(prev: Option<&Token>, tok: &Token) -> bool {
    prev.is_none_or(|p| p.span.end != tok.span.start)
}

/// Where a definition comes from; only source definitions have spans a
/// diagnostic may point at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Origin {
    Builtin,
    CommandLine,
    Source,
}

/// A small fast hasher for identifier keys (the standard SipHash costs more
/// than the rest of the per-token work).
#[derive(Default, Debug)]
pub(super) struct FxHasher(u64);

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

pub(super) type FxBuild = BuildHasherDefault<FxHasher>;

#[derive(Debug, Default)]
struct Budget {
    use_work: u32,
    file_work: u64,
    use_exhausted: bool,
    file_exhausted: bool,
}

#[derive(Debug)]
pub(super) struct Ctx {
    pub source_len: u32,
    /// The source, then appended text: define bodies, pasted and
    /// stringized tokens.
    pub text: String,
    pub macros: MacroTable,
    pub diags: Vec<Diagnostic>,
    /// The outermost macro use being expanded. Tokens and diagnostics from
    /// inside the expansion point here, unless they were written inside it.
    pub use_span: Option<Span>,
    /// Nesting of argument pre-expansions, which recurse.
    pub depth: u32,
    budget: Budget,
    interned: HashMap<Box<str>, Span, FxBuild>,
    /// What each spelling ever pasted lexes as (`None`: not one token), so
    /// a paste repeated at every use lexes once.
    paste_kinds: HashMap<Box<str>, Option<TokenKind>, FxBuild>,
    /// Text of the `0` and `1` that `defined X` becomes.
    pub zero: Span,
    pub one: Span,
}

impl Ctx {
    pub fn new(source: &str) -> Self {
        let mut ctx = Ctx {
            source_len: source.len() as u32,
            text: String::with_capacity(source.len() + 256),
            macros: MacroTable::default(),
            diags: Vec::new(),
            use_span: None,
            depth: 0,
            budget: Budget::default(),
            interned: HashMap::default(),
            paste_kinds: HashMap::default(),
            zero: Span::default(),
            one: Span::default(),
        };
        ctx.text.push_str(source);
        ctx.zero = ctx.intern("0");
        ctx.one = ctx.intern("1");
        ctx
    }

    pub fn spelling(&self, tok: &Token) -> &str {
        self.text.get(tok.text.range()).unwrap_or("")
    }

    /// Appends `piece` on a line of its own and returns its offset.
    pub fn append(&mut self, piece: &str) -> u32 {
        self.text.push('\n');
        let base = self.text.len() as u32;
        self.text.push_str(piece);
        base
    }

    /// Text for a synthesised token, shared between identical spellings so
    /// a paste repeated by a loop of expansions does not grow the buffer.
    pub fn intern(&mut self, piece: &str) -> Span {
        if let Some(&span) = self.interned.get(piece) {
            return span;
        }
        let base = self.append(piece);
        let span = Span::new(base, base + piece.len() as u32);
        self.interned.insert(piece.into(), span);
        span
    }

    /// The kind of the one token `joined` spells, if it spells one.
    pub fn paste_kind(&mut self, joined: &str) -> Option<TokenKind> {
        if let Some(&kind) = self.paste_kinds.get(joined) {
            return kind;
        }
        let kind = match lexer::lex_raw(joined, 0).as_slice() {
            [one] if one.span.range() == (0..joined.len()) && !is_lex_error(one.kind) => {
                Some(one.kind)
            }
            _ => None,
        };
        self.paste_kinds.insert(joined.into(), kind);
        kind
    }

    /// The macro an identifier token names, unless expansion is switched off.
    pub fn lookup(&self, tok: &Token) -> Option<u32> {
        if tok.kind != TokenKind::Ident || self.budget.file_exhausted {
            return None;
        }
        self.macros.id(self.spelling(tok))
    }

    /// Where a token that came out of the current expansion points.
    pub fn map_span(&self, span: Span) -> Span {
        match self.use_span {
            Some(u) if !(span.start >= u.start && span.end <= u.end) => u,
            _ => span,
        }
    }

    /// A span fit for a diagnostic: inside the source, and at the macro use
    /// for anything inside an expansion that was not written at the use.
    pub fn diag_span(&self, span: Span) -> Span {
        let span = self.map_span(span);
        if span.end > self.source_len || span.start > span.end {
            Span::new(0, 0)
        } else {
            span
        }
    }

    pub fn report(&mut self, mut diag: Diagnostic) {
        for label in &mut diag.labels {
            label.span = self.diag_span(label.span);
        }
        self.diags.push(diag);
    }

    pub fn error(&mut self, code: u32, message: impl Into<String>, span: Span) {
        self.report(Diagnostic::error(code, message, span));
    }

    /// Reports a token the lexer could not make sense of.
    pub fn lex_error(&mut self, tok: &Token) {
        let span = tok.span;
        match tok.kind {
            TokenKind::Unknown => {
                let message = format!("unknown character `{}`", self.spelling(tok));
                self.error(codes::LEX_UNKNOWN_CHARACTER, message, span);
            }
            TokenKind::UnterminatedComment => {
                // The token runs to the end of the file; the opening is what matters.
                let open = Span::new(span.start, span.end.min(span.start.saturating_add(2)));
                self.error(
                    codes::LEX_UNTERMINATED_COMMENT,
                    "unterminated block comment",
                    open,
                );
            }
            TokenKind::UnterminatedString => {
                self.error(
                    codes::LEX_UNTERMINATED_STRING,
                    "unterminated string literal",
                    span,
                );
            }
            _ => {}
        }
    }

    /// Starts the budget of one outermost expansion (a macro use in the text,
    /// or one directive line).
    pub fn begin_use(&mut self, use_span: Option<Span>) {
        self.use_span = use_span;
        self.budget.use_work = 0;
        self.budget.use_exhausted = false;
    }

    pub fn end_use(&mut self) {
        self.use_span = None;
    }

    /// Charges `work` to the budget; false (after reporting once) when the
    /// current expansion must stop.
    pub fn charge(&mut self, work: usize) -> bool {
        if self.budget.use_exhausted {
            return false;
        }
        let work = u32::try_from(work).unwrap_or(u32::MAX);
        self.budget.use_work = self.budget.use_work.saturating_add(work);
        self.budget.file_work = self.budget.file_work.saturating_add(u64::from(work));
        if self.budget.file_work > FILE_WORK_LIMIT {
            self.budget.file_exhausted = true;
            self.exhaust(
                "macro expansion exceeds the limit for one file; macros are no longer expanded",
            );
        } else if self.budget.use_work > USE_WORK_LIMIT {
            self.exhaust("macro expansion exceeds the expansion limit");
        }
        !self.budget.use_exhausted
    }

    /// Stops the current expansion with `E15011` at the macro use.
    pub fn exhaust(&mut self, message: &str) {
        if !self.budget.use_exhausted {
            self.budget.use_exhausted = true;
            let span = self.use_span.unwrap_or_default();
            self.error(codes::PP_EXPANSION_LIMIT, message, span);
        }
    }

    pub fn exhausted(&self) -> bool {
        self.budget.use_exhausted
    }
}
