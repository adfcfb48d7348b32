//! The preprocessor: directives, conditional compilation and macro
//! expansion, from the raw tokens of one file to the tokens the parser reads.
//!
//! One pass over the raw tokens: a `#` first on its logical line starts a
//! directive; other tokens in active regions are checked for lexer errors
//! and expanded (`expand`). Inactive regions are skipped without looking at
//! anything but conditional directives. Nothing recurses on the input's
//! shape except argument pre-expansion and `#if` parentheses, both limited,
//! so deep nesting gives a diagnostic, never a stack overflow.

mod expand;
mod expr;
mod lines;
mod macros;
mod state;

use crate::codes;
use crate::lexer::{self, Token, TokenKind};
use expand::{Mode, SourceCursor};
use legalis_ir::Span;
use legalis_ir::diag::{Diagnostic, Severity};
use macros::is_lex_error;
use state::{Ctx, Origin, PTok, gap_before};

/// What the parser reads.
#[derive(Debug)]
pub struct Preprocessed {
    /// Active tokens with macros expanded, ending in one `Eof`.
    pub tokens: Vec<Token>,
    /// The text that token `text` spans index: the source, then define text.
    pub text: String,
    /// The preprocessor's diagnostics: `E15xxx`, and the lexer's `E10xxx`
    /// for tokens in active regions.
    pub diagnostics: Vec<Diagnostic>,
}

/// Macros every file sees, before the command-line ones.
const PREDEFINED: [(&str, &str); 3] = [
    ("__HLSL_VERSION", "2021"),
    ("__SLANG__", "1"),
    ("__LEGALIS__", "1"),
];

/// Pragmas that are fine to ignore: they only tune warnings, messages or
/// editor folding, or say what a single-file compiler does anyway.
const HARMLESS_PRAGMAS: [&str; 7] = [
    "once",
    "warning",
    "message",
    "region",
    "endregion",
    "dxc",
    "clang",
];

/// How many unterminated conditionals get their own diagnostic at the end
/// of the file; a runaway nest would otherwise bury everything else.
const MAX_UNTERMINATED_REPORTS: usize = 16;

/// Preprocesses `source` as if `#define NAME VALUE` for each of `defines`
/// preceded it.
pub fn preprocess(source: &str, defines: &[(String, String)]) -> Preprocessed {
    // Editors on Windows start files with a byte-order mark; it is not text.
    let bom = if source.starts_with('\u{feff}') { 3 } else { 0 };
    let raw = lexer::lex_raw(&source[bom..], bom as u32);
    let line_start = lines::line_starts(source, &raw);
    let mut pp = Preprocessor {
        source,
        raw: &raw,
        line_start: &line_start,
        ctx: Ctx::new(source),
        conds: Vec::new(),
        out: Vec::with_capacity(raw.len() + 1),
    };
    for (name, value) in PREDEFINED {
        pp.define_outside(name, value, Origin::Builtin);
    }
    for (name, value) in defines {
        pp.define_outside(name, value, Origin::CommandLine);
    }
    pp.run();
    let end = source.len() as u32;
    pp.out.push(Token {
        kind: TokenKind::Eof,
        span: Span::new(end, end),
        text: Span::new(end, end),
    });
    Preprocessed {
        tokens: pp.out,
        text: pp.ctx.text,
        diagnostics: pp.ctx.diags,
    }
}

/// Where an open conditional is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CondState {
    /// The current branch is active.
    Taking,
    /// No branch taken yet; a later `#elif`/`#else` may be.
    Seeking,
    /// A branch was taken; the rest are skipped.
    Done,
    /// The whole conditional is inside an inactive region.
    Skipped,
}

#[derive(Debug)]
struct Cond<'s> {
    /// `if`, `ifdef` or `ifndef`, for messages.
    keyword: &'s str,
    open: Span,
    state: CondState,
    else_span: Option<Span>,
}

#[derive(Debug)]
struct Preprocessor<'s> {
    source: &'s str,
    raw: &'s [Token],
    line_start: &'s [bool],
    ctx: Ctx,
    conds: Vec<Cond<'s>>,
    out: Vec<Token>,
}

/// One directive line: `#`, its name token, and the tokens after the name.
#[derive(Clone, Copy, Debug)]
struct Line<'s> {
    /// `#name`, where most directive diagnostics point.
    span: Span,
    name: &'s str,
    args: &'s [Token],
}

impl<'s> Preprocessor<'s> {
    fn run(&mut self) {
        let mut i = 0;
        while let Some(&tok) = self.raw.get(i) {
            i = if tok.kind == TokenKind::Hash && self.line_start[i] {
                self.directive(i)
            } else if !self.active() {
                self.skip_inactive(i)
            } else {
                self.text_token(i)
            };
        }
        self.close_conditionals();
    }

    fn active(&self) -> bool {
        self.conds
            .last()
            .is_none_or(|c| c.state == CondState::Taking)
    }

    fn skip_inactive(&self, mut i: usize) -> usize {
        while let Some(tok) = self.raw.get(i) {
            if tok.kind == TokenKind::Hash && self.line_start[i] {
                break;
            }
            i += 1;
        }
        i
    }

    /// Handles the active token at `i`; returns the index after what it used.
    fn text_token(&mut self, i: usize) -> usize {
        let tok = self.raw[i];
        if is_lex_error(tok.kind) {
            self.ctx.lex_error(&tok);
            return i + 1;
        }
        let Some(id) = self.ctx.lookup(&tok) else {
            self.out.push(tok);
            return i + 1;
        };
        let mut cursor = SourceCursor::new(self.raw, self.line_start, i + 1);
        expand::expand_use_in_text(&mut self.ctx, &mut cursor, tok, id, &mut self.out);
        cursor.pos
    }

    /// Handles the directive whose `#` is at `i`; returns the index of the
    /// first token after its line.
    fn directive(&mut self, i: usize) -> usize {
        let mut end = i + 1;
        while end < self.raw.len() && !self.line_start[end] {
            end += 1;
        }
        // A `#` alone is the null directive.
        let Some(name_tok) = self.raw.get(i + 1).filter(|_| i + 1 < end) else {
            return end;
        };
        let line = Line {
            span: self.raw[i].span.join(name_tok.span),
            name: self.source.get(name_tok.span.range()).unwrap_or(""),
            args: &self.raw[i + 2..end],
        };
        match (name_tok.kind, line.name) {
            (TokenKind::Ident, "if" | "ifdef" | "ifndef") => self.open_if(line),
            (TokenKind::Ident, "elif") => self.elif(line),
            (TokenKind::Ident, "else") => self.else_(line),
            (TokenKind::Ident, "endif") => self.endif(line),
            _ if !self.active() => {}
            (TokenKind::Ident, "define") => self.define(line),
            (TokenKind::Ident, "undef") => self.undef(line),
            (TokenKind::Ident, "error") => self.message(line, Severity::Error),
            (TokenKind::Ident, "warning") => self.message(line, Severity::Warning),
            (TokenKind::Ident, "pragma") => self.pragma(line),
            (TokenKind::Ident, "line") => self.line_directive(line),
            // GNU line markers (`# 12 "file.hlsl"`), as `#line`.
            (TokenKind::IntLit, _) => self.line_directive(Line {
                args: &self.raw[i + 1..end],
                ..line
            }),
            (TokenKind::Ident, "include") => {
                let span = line.span.join(self.raw[end - 1].span);
                let message = "#include is not supported: Legalis compiles one file";
                self.ctx.error(codes::PP_INCLUDE_UNSUPPORTED, message, span);
            }
            _ => {
                let message = format!("unknown preprocessor directive `#{}`", line.name);
                self.ctx
                    .error(codes::PP_UNKNOWN_DIRECTIVE, message, line.span);
            }
        }
        end
    }

    fn open_if(&mut self, line: Line<'s>) {
        let state = if !self.active() {
            CondState::Skipped
        } else if self.condition(line) {
            CondState::Taking
        } else {
            CondState::Seeking
        };
        self.conds.push(Cond {
            keyword: line.name,
            open: line.span,
            state,
            else_span: None,
        });
    }

    /// The value of the condition of an `#if`, `#ifdef`, `#ifndef` or
    /// `#elif` in an active position; false after reporting when malformed.
    fn condition(&mut self, line: Line<'_>) -> bool {
        let keyword = line.name;
        if keyword == "ifdef" || keyword == "ifndef" {
            let Some(name) = line.args.first().filter(|t| t.kind == TokenKind::Ident) else {
                let message = format!("`#{keyword}` needs a macro name");
                self.ctx
                    .error(codes::PP_MALFORMED_DIRECTIVE, message, line.span);
                return false;
            };
            let defined = self.ctx.macros.is_defined(self.ctx.spelling(name));
            return defined == (keyword == "ifdef");
        }
        let mut toks = Vec::with_capacity(line.args.len());
        let mut prev = None;
        for tok in line.args {
            if is_lex_error(tok.kind) {
                self.ctx.lex_error(tok);
            } else {
                toks.push(PTok::new(*tok, gap_before(prev, tok)));
            }
            prev = Some(tok);
        }
        let expanded = expand::expand_line(&mut self.ctx, toks, Mode::Condition);
        if self.ctx.exhausted() {
            return false;
        }
        let end = line.args.last().map_or(line.span, |t| t.span);
        let end = Span::new(end.end, end.end);
        match expr::evaluate(&expanded, &self.ctx.text, keyword, end) {
            Ok(value) => value != 0,
            Err(diag) => {
                self.ctx.report(diag);
                false
            }
        }
    }

    fn elif(&mut self, line: Line<'_>) {
        let Some(top) = self.conds.last() else {
            let message = "`#elif` without `#if`";
            self.ctx
                .error(codes::PP_STRAY_CONDITIONAL, message, line.span);
            return;
        };
        let (state, else_span) = (top.state, top.else_span);
        let next = if let Some(else_span) = else_span {
            self.report_after_else(line, else_span);
            stop_taking(state)
        } else if state == CondState::Seeking {
            if self.condition(line) {
                CondState::Taking
            } else {
                CondState::Seeking
            }
        } else {
            stop_taking(state)
        };
        if let Some(top) = self.conds.last_mut() {
            top.state = next;
        }
    }

    fn else_(&mut self, line: Line<'_>) {
        let Some(top) = self.conds.last_mut() else {
            let message = "`#else` without `#if`";
            self.ctx
                .error(codes::PP_STRAY_CONDITIONAL, message, line.span);
            return;
        };
        if let Some(first) = top.else_span {
            top.state = stop_taking(top.state);
            self.report_after_else(line, first);
            return;
        }
        top.else_span = Some(line.span);
        top.state = match top.state {
            CondState::Seeking => CondState::Taking,
            state => stop_taking(state),
        };
    }

    /// `#elif` or `#else` after the `#else` at `else_span`.
    fn report_after_else(&mut self, line: Line<'_>, else_span: Span) {
        let message = format!("`#{}` after `#else`", line.name);
        let diag = Diagnostic::error(codes::PP_STRAY_CONDITIONAL, message, line.span)
            .with_label(else_span, "the `#else`");
        self.ctx.report(diag);
    }

    fn endif(&mut self, line: Line<'_>) {
        if self.conds.pop().is_none() {
            let message = "`#endif` without `#if`";
            self.ctx
                .error(codes::PP_STRAY_CONDITIONAL, message, line.span);
        }
    }

    fn close_conditionals(&mut self) {
        let open = std::mem::take(&mut self.conds);
        for (k, cond) in open.iter().enumerate().take(MAX_UNTERMINATED_REPORTS) {
            let message = format!("`#{}` without `#endif`", cond.keyword);
            let mut diag =
                Diagnostic::error(codes::PP_UNTERMINATED_CONDITIONAL, message, cond.open);
            let more = open.len().saturating_sub(MAX_UNTERMINATED_REPORTS);
            if k + 1 == MAX_UNTERMINATED_REPORTS && more > 0 {
                diag = diag.with_note(format!(
                    "{more} more conditionals inside it are unterminated too"
                ));
            }
            self.ctx.report(diag);
        }
    }

    fn define(&mut self, line: Line<'_>) {
        macros::define(&mut self.ctx, line.args, Origin::Source, line.span);
    }

    /// Defines a predefined or command-line macro; its text goes after the
    /// source so that its tokens have somewhere to point.
    fn define_outside(&mut self, name: &str, value: &str, origin: Origin) {
        let piece = format!("{name} {value}");
        let base = self.ctx.append(&piece);
        let toks = lexer::lex_raw(&piece, base);
        let reported = self.ctx.diags.len();
        let directive = toks.first().map_or(Span::new(base, base), |t| t.span);
        macros::define(&mut self.ctx, &toks, origin, directive);
        for diag in &mut self.ctx.diags[reported..] {
            diag.notes
                .push(format!("in the command-line define `{name}={value}`"));
        }
    }

    fn undef(&mut self, line: Line<'_>) {
        match line.args.first().filter(|t| t.kind == TokenKind::Ident) {
            Some(name) => {
                let name = self.ctx.spelling(name).to_owned();
                self.ctx.macros.remove(&name);
            }
            None => {
                let message = "`#undef` needs a macro name";
                self.ctx
                    .error(codes::PP_MALFORMED_DIRECTIVE, message, line.span);
            }
        }
    }

    /// `#error` and `#warning`: the rest of the line is the message.
    fn message(&mut self, line: Line<'_>, severity: Severity) {
        let text = match (line.args.first(), line.args.last()) {
            (Some(first), Some(last)) => self
                .source
                .get(first.span.start as usize..last.span.end as usize)
                .unwrap_or(""),
            _ => "",
        };
        let text = text
            .replace("\\\r\n", "")
            .replace("\\\n", "")
            .split_ascii_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let diag = if severity == Severity::Error {
            let message = format!("#error: {text}");
            Diagnostic::error(codes::PP_ERROR_DIRECTIVE, message, line.span)
        } else {
            let message = format!("#warning: {text}");
            Diagnostic::warning(codes::PP_WARNING_DIRECTIVE, message, line.span)
        };
        self.ctx.report(diag);
    }

    fn pragma(&mut self, line: Line<'_>) {
        let Some(name_tok) = line.args.first() else {
            return;
        };
        let name = self.ctx.spelling(name_tok);
        if HARMLESS_PRAGMAS.contains(&name) {
            return;
        }
        let message = if name == "pack_matrix" {
            "`#pragma pack_matrix` has no effect: Legalis does not change the default matrix layout"
                .to_owned()
        } else {
            format!("unknown `#pragma {name}` is ignored")
        };
        let diag = Diagnostic::warning(codes::PP_UNKNOWN_PRAGMA, message, name_tok.span);
        self.ctx.report(diag);
    }

    /// `#line N "file"` is accepted and has no effect: diagnostics always
    /// point into the one source file.
    fn line_directive(&mut self, line: Line<'_>) {
        let number_ok = line.args.first().is_some_and(|t| {
            t.kind == TokenKind::IntLit
                && crate::literal::int_literal_value(self.ctx.spelling(t)).is_some()
        });
        let file_ok = line
            .args
            .get(1)
            .is_none_or(|t| t.kind == TokenKind::StringLit);
        if !(number_ok && file_ok) {
            let message = "`#line` expects a line number and an optional file name";
            self.ctx
                .error(codes::PP_MALFORMED_DIRECTIVE, message, line.span);
        }
    }
}

/// The state after the active branch of a conditional ends.
fn stop_taking(state: CondState) -> CondState {
    match state {
        CondState::Skipped => CondState::Skipped,
        _ => CondState::Done,
    }
}
