//! Macro expansion: rescanning, argument collection, substitution, `#` and
//! `##`.
//!
//! Expansions live on an explicit stack of frames (heap, not call stack), so
//! a chain of ten thousand macros costs ten thousand frames and no recursion.
//! A macro is disabled while its frame is on the stack, and an identifier
//! read while its macro is disabled is painted (`PTok::no_expand`) for good,
//! which is C's hide-set rule in the form clang uses. Only argument
//! pre-expansion recurses, and its depth is limited.

use super::macros::{Macro, is_lex_error};
use super::state::{Ctx, PTok, gap_before};
use crate::codes;
use crate::lexer::{Token, TokenKind};
use legalis_ir::Span;
use std::rc::Rc;

/// How deep macro invocations may nest inside macro arguments.
const MAX_ARGUMENT_NESTING: u32 = 128;

/// What the expanded tokens are for: `#if` lines also evaluate `defined`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Mode {
    Text,
    Condition,
}

/// The raw tokens of the file from some point on, up to the next directive:
/// a macro use in the text may take its arguments from there.
#[derive(Debug)]
pub(super) struct SourceCursor<'s> {
    toks: &'s [Token],
    line_start: &'s [bool],
    pub pos: usize,
}

impl<'s> SourceCursor<'s> {
    pub fn new(toks: &'s [Token], line_start: &'s [bool], pos: usize) -> Self {
        SourceCursor {
            toks,
            line_start,
            pos,
        }
    }

    fn peek(&self) -> Option<Token> {
        let tok = *self.toks.get(self.pos)?;
        let directive = tok.kind == TokenKind::Hash && self.line_start.get(self.pos) == Some(&true);
        (!directive).then_some(tok)
    }

    fn next(&mut self) -> Option<PTok> {
        let tok = self.peek()?;
        let prev = self.pos.checked_sub(1).and_then(|p| self.toks.get(p));
        self.pos += 1;
        Some(PTok::new(tok, gap_before(prev, &tok)))
    }
}

#[derive(Debug)]
struct Frame {
    toks: FrameToks,
    pos: usize,
    /// The macro this frame expands; `None` for the input of a line run.
    mac: Option<u32>,
    /// `space_before` for the first token: that of the macro name.
    lead_space: bool,
}

/// An object-like macro's frame shares its ready-made body; other frames
/// own their freshly substituted tokens.
#[derive(Debug)]
enum FrameToks {
    Shared(Rc<[PTok]>),
    Owned(Vec<PTok>),
}

impl std::ops::Deref for FrameToks {
    type Target = [PTok];

    fn deref(&self) -> &[PTok] {
        match self {
            FrameToks::Shared(toks) => toks,
            FrameToks::Owned(toks) => toks,
        }
    }
}

#[derive(Debug)]
struct Expander<'c, 'a, 's> {
    ctx: &'c mut Ctx,
    frames: Vec<Frame>,
    /// How many frames at the bottom are input rather than expansions.
    base_len: usize,
    source: Option<&'a mut SourceCursor<'s>>,
    mode: Mode,
    /// An outermost run points its output at macro uses; a nested one
    /// (argument pre-expansion) leaves that to the run it feeds.
    outermost: bool,
}

/// Expands the macro `id` that `name` (the token before `cursor`) names,
/// taking arguments from the file as needed, and appends the result to `out`.
pub(super) fn expand_use_in_text(
    ctx: &mut Ctx,
    cursor: &mut SourceCursor<'_>,
    name: Token,
    id: u32,
    out: &mut Vec<Token>,
) {
    ctx.begin_use(Some(name.span));
    let mut ex = Expander {
        ctx,
        frames: Vec::new(),
        base_len: 0,
        source: Some(cursor),
        mode: Mode::Text,
        outermost: true,
    };
    let mut expanded = Vec::new();
    let name = PTok::new(name, true);
    if ex.begin(name, id) {
        ex.drive(&mut expanded);
    } else {
        expanded.push(name);
    }
    // A cut-off expansion is reported; half of it would only add noise.
    if !ctx.exhausted() {
        out.extend(expanded.iter().map(|p| p.tok));
    }
    ctx.end_use();
}

/// Expands every macro use in one directive line.
pub(super) fn expand_line(ctx: &mut Ctx, toks: Vec<PTok>, mode: Mode) -> Vec<PTok> {
    ctx.begin_use(None);
    let out = run_list(ctx, toks, mode, true);
    ctx.end_use();
    out
}

fn run_list(ctx: &mut Ctx, toks: Vec<PTok>, mode: Mode, outermost: bool) -> Vec<PTok> {
    let mut out = Vec::with_capacity(toks.len());
    let lead_space = toks.first().is_some_and(|t| t.space_before);
    let mut ex = Expander {
        ctx,
        frames: vec![Frame {
            toks: FrameToks::Owned(toks),
            pos: 0,
            mac: None,
            lead_space,
        }],
        base_len: 1,
        source: None,
        mode,
        outermost,
    };
    ex.drive(&mut out);
    out
}

/// Fully expands one macro argument on its own, as C does before
/// substituting it.
fn expand_argument(ctx: &mut Ctx, toks: &[PTok], mode: Mode) -> Vec<PTok> {
    let expandable = toks.iter().any(|t| {
        !t.no_expand
            && (ctx.lookup(&t.tok).is_some()
                || (mode == Mode::Condition && ctx.spelling(&t.tok) == "defined"))
    });
    if !expandable {
        return toks.to_vec();
    }
    if ctx.depth >= MAX_ARGUMENT_NESTING {
        ctx.exhaust("macro invocations nested too deeply in macro arguments");
        return Vec::new();
    }
    ctx.depth += 1;
    let out = run_list(ctx, toks.to_vec(), mode, false);
    ctx.depth -= 1;
    out
}

impl Expander<'_, '_, '_> {
    fn drive(&mut self, out: &mut Vec<PTok>) {
        while !self.ctx.exhausted() {
            let Some((tok, from_base)) = self.pull(false) else {
                break;
            };
            self.handle(tok, from_base, out);
        }
        while !self.frames.is_empty() {
            self.pop();
        }
    }

    fn handle(&mut self, mut tok: PTok, from_base: bool, out: &mut Vec<PTok>) {
        if tok.tok.kind == TokenKind::Ident {
            if self.mode == Mode::Condition && self.ctx.spelling(&tok.tok) == "defined" {
                self.defined(tok, from_base, out);
                return;
            }
            if !tok.no_expand
                && let Some(id) = self.ctx.lookup(&tok.tok)
            {
                if self.ctx.macros.is_active(id) {
                    tok.no_expand = true;
                } else {
                    if from_base && self.outermost {
                        self.ctx.use_span = Some(tok.tok.span);
                    }
                    if self.begin(tok, id) {
                        return;
                    }
                }
            }
        }
        if !from_base && self.outermost {
            tok.tok.span = self.ctx.map_span(tok.tok.span);
        }
        out.push(tok);
    }

    /// Starts expanding macro `id`; false when it is function-like and no
    /// `(` follows, so `name` stays an identifier.
    fn begin(&mut self, name: PTok, id: u32) -> bool {
        let Some(mac) = self.ctx.macros.get(id) else {
            return false;
        };
        if mac.params.is_none() {
            if self.ctx.charge(1 + mac.ready.len()) {
                let toks = FrameToks::Shared(mac.ready.clone());
                self.push(toks, id, name.space_before);
            }
            return true;
        }
        if !self.peek_is_lparen() {
            return false;
        }
        let Some((args, close)) = self.collect_args(&mac, name) else {
            return true;
        };
        let Some(args) = self.check_arg_count(&mac, args, name.tok.span.join(close)) else {
            return true;
        };
        let toks = substitute(self.ctx, &mac, &args, self.mode);
        if self.ctx.charge(1 + toks.len()) {
            self.push(FrameToks::Owned(toks), id, name.space_before);
        }
        true
    }

    fn push(&mut self, toks: FrameToks, id: u32, lead_space: bool) {
        self.ctx.macros.set_active(id, true);
        self.frames.push(Frame {
            toks,
            pos: 0,
            mac: Some(id),
            lead_space,
        });
    }

    fn pop(&mut self) {
        if let Some(frame) = self.frames.pop()
            && let Some(id) = frame.mac
        {
            self.ctx.macros.set_active(id, false);
        }
    }

    /// The next token and whether it came from the input (rather than from
    /// an expansion). Reads on into the file only when `from_file` is set:
    /// an argument list or its `(` may continue there, but the expansion
    /// itself ends with its frames.
    fn pull(&mut self, from_file: bool) -> Option<(PTok, bool)> {
        loop {
            let from_base = self.frames.len() <= self.base_len;
            if let Some(frame) = self.frames.last_mut() {
                if let Some(&tok) = frame.toks.get(frame.pos) {
                    let lead = frame.pos == 0;
                    frame.pos += 1;
                    let space_before = if lead {
                        frame.lead_space
                    } else {
                        tok.space_before
                    };
                    return Some((
                        PTok {
                            space_before,
                            ..tok
                        },
                        from_base,
                    ));
                }
                if from_base {
                    return None;
                }
                self.pop();
                continue;
            }
            if !from_file {
                return None;
            }
            let tok = self.source.as_mut()?.next()?;
            // Whatever is read from the file belongs to the invocation.
            if self.outermost {
                self.ctx.use_span = self.ctx.use_span.map(|u| u.join(tok.tok.span));
            }
            if is_lex_error(tok.tok.kind) {
                self.ctx.lex_error(&tok.tok);
                continue;
            }
            return Some((tok, true));
        }
    }

    fn peek_is_lparen(&mut self) -> bool {
        loop {
            match self.frames.last() {
                Some(frame) => match frame.toks.get(frame.pos) {
                    Some(tok) => return tok.tok.kind == TokenKind::LParen,
                    None if self.frames.len() > self.base_len => self.pop(),
                    None => return false,
                },
                None => {
                    let next = self.source.as_ref().and_then(|s| s.peek());
                    return next.is_some_and(|t| t.kind == TokenKind::LParen);
                }
            }
        }
    }

    /// Reads `( args )`, splitting at top-level commas; also returns the
    /// span of the `)`.
    fn collect_args(&mut self, mac: &Macro, name: PTok) -> Option<(Vec<Vec<PTok>>, Span)> {
        let param_count = mac.params.as_ref().map_or(0, |p| p.len());
        self.pull(true);
        let mut args = vec![Vec::new()];
        let mut depth = 0u32;
        loop {
            let Some((mut tok, from_base)) = self.pull(true) else {
                let message = format!("unterminated argument list invoking macro `{}`", mac.name);
                self.ctx
                    .error(codes::PP_MACRO_ARGUMENTS, message, name.tok.span);
                return None;
            };
            if from_base && self.outermost {
                self.ctx.use_span = self.ctx.use_span.map(|u| u.join(tok.tok.span));
            }
            if !self.ctx.charge(1) {
                return None;
            }
            match tok.tok.kind {
                TokenKind::LParen => depth += 1,
                TokenKind::RParen if depth == 0 => return Some((args, tok.tok.span)),
                TokenKind::RParen => depth -= 1,
                TokenKind::Comma if depth == 0 && !(mac.variadic && args.len() == param_count) => {
                    args.push(Vec::new());
                    continue;
                }
                TokenKind::Ident if !tok.no_expand => {
                    // Read while its macro is expanding: painted, as C's
                    // hide sets would have it.
                    tok.no_expand = self
                        .ctx
                        .lookup(&tok.tok)
                        .is_some_and(|id| self.ctx.macros.is_active(id));
                }
                _ => {}
            }
            if let Some(arg) = args.last_mut() {
                arg.push(tok);
            }
        }
    }

    fn check_arg_count(
        &mut self,
        mac: &Macro,
        mut args: Vec<Vec<PTok>>,
        invocation: Span,
    ) -> Option<Vec<Vec<PTok>>> {
        let expected = mac.params.as_ref().map_or(0, |p| p.len());
        if expected == 0 && args.len() == 1 && args[0].is_empty() {
            args.clear();
        }
        if mac.variadic && args.len() + 1 == expected {
            args.push(Vec::new());
        }
        if args.len() == expected {
            return Some(args);
        }
        let (at_least, named) = if mac.variadic {
            ("at least ", expected - 1)
        } else {
            ("", expected)
        };
        let plural = if named == 1 { "" } else { "s" };
        let message = format!(
            "macro `{}` takes {at_least}{named} argument{plural}, but {} were given",
            mac.name,
            args.len()
        );
        self.ctx
            .error(codes::PP_MACRO_ARGUMENTS, message, invocation);
        None
    }

    /// `defined X` / `defined(X)` in an `#if` line becomes `1` or `0`.
    fn defined(&mut self, keyword: PTok, from_base: bool, out: &mut Vec<PTok>) {
        let mut span = keyword.tok.span;
        let mut operand = self.pull(false).map(|(t, _)| t.tok);
        let parenthesized = operand.is_some_and(|t| t.kind == TokenKind::LParen);
        if parenthesized {
            operand = self.pull(false).map(|(t, _)| t.tok);
        }
        let name = operand.filter(|t| t.kind == TokenKind::Ident);
        if let Some(name) = name {
            span = span.join(name.span);
        }
        if parenthesized && name.is_some() {
            match self.pull(false) {
                Some((close, _)) if close.tok.kind == TokenKind::RParen => {
                    span = span.join(close.tok.span);
                }
                _ => operand = None,
            }
        }
        let value = match (name, operand) {
            (Some(name), Some(_)) => self.ctx.macros.is_defined(self.ctx.spelling(&name)),
            _ => {
                let message = "`defined` must be followed by a macro name, as in `defined(NAME)`";
                self.ctx.error(codes::PP_BAD_EXPRESSION, message, span);
                false
            }
        };
        if !from_base && self.outermost {
            span = self.ctx.map_span(span);
        }
        let text = if value { self.ctx.one } else { self.ctx.zero };
        out.push(PTok {
            tok: Token {
                kind: TokenKind::IntLit,
                span,
                text,
            },
            no_expand: true,
            space_before: keyword.space_before,
        });
    }
}

/// The replacement of `mac` for `args`: parameters replaced by their
/// expanded arguments (raw next to `##`), `#` and `##` applied.
pub(super) fn substitute(ctx: &mut Ctx, mac: &Macro, args: &[Vec<PTok>], mode: Mode) -> Vec<PTok> {
    let body = &mac.body;
    let mut expanded: Vec<Option<Vec<PTok>>> = vec![None; args.len()];
    let mut out = Vec::with_capacity(body.len());
    // Whether the last operand was an empty argument: C's placemarker, which
    // a following `##` must not paste into the token before it.
    let mut last_empty = false;
    let mut i = 0;
    while let Some(item) = body.get(i) {
        let pastes_next = body
            .get(i + 1)
            .is_some_and(|b| b.tok.kind == TokenKind::HashHash);
        if item.tok.kind == TokenKind::HashHash {
            let (operand, used) = paste_operand(ctx, mac, args, i + 1);
            i += 1 + used;
            if operand.is_empty() {
                continue;
            }
            if last_empty || out.is_empty() {
                out.extend_from_slice(&operand);
            } else {
                paste_into(ctx, &mut out, &operand, item.tok.span);
            }
            last_empty = false;
            continue;
        }
        if let Some(string) = stringize_at(ctx, mac, args, i) {
            out.push(string);
            last_empty = false;
            i += 2;
            continue;
        }
        match item
            .param
            .and_then(|p| args.get(p as usize).map(|a| (p as usize, a)))
        {
            Some((_, arg)) if pastes_next => {
                extend_with_argument(&mut out, arg, item.space_before);
                last_empty = arg.is_empty();
            }
            Some((p, arg)) => {
                let arg = expanded[p].get_or_insert_with(|| expand_argument(ctx, arg, mode));
                extend_with_argument(&mut out, arg, item.space_before);
                last_empty = false;
            }
            None => {
                out.push(PTok::new(item.tok, item.space_before));
                last_empty = false;
            }
        }
        i += 1;
    }
    out
}

/// Appends an argument where parameter was: its first token is spaced like
/// the parameter.
fn extend_with_argument(out: &mut Vec<PTok>, arg: &[PTok], space_before: bool) {
    let start = out.len();
    out.extend_from_slice(arg);
    if let Some(first) = out.get_mut(start) {
        first.space_before = space_before;
    }
}

/// The right operand of a `##` at body index `i`: a parameter's raw
/// argument, a stringized parameter, or one token; also how many body
/// tokens it used.
fn paste_operand(ctx: &mut Ctx, mac: &Macro, args: &[Vec<PTok>], i: usize) -> (Vec<PTok>, usize) {
    if let Some(string) = stringize_at(ctx, mac, args, i) {
        return (vec![string], 2);
    }
    match mac.body.get(i) {
        Some(b) => match b.param.and_then(|p| args.get(p as usize)) {
            Some(arg) => (arg.clone(), 1),
            None => (vec![PTok::new(b.tok, b.space_before)], 1),
        },
        None => (Vec::new(), 0),
    }
}

/// `#param` at body index `i` of a function-like macro, as a string literal.
fn stringize_at(ctx: &mut Ctx, mac: &Macro, args: &[Vec<PTok>], i: usize) -> Option<PTok> {
    mac.params.as_ref()?;
    let hash = mac.body.get(i).filter(|b| b.tok.kind == TokenKind::Hash)?;
    let arg = args.get(mac.body.get(i + 1)?.param? as usize)?;
    let mut string = String::from("\"");
    for (k, t) in arg.iter().enumerate() {
        if k > 0 && t.space_before {
            string.push(' ');
        }
        let spelling = ctx.spelling(&t.tok);
        if t.tok.kind == TokenKind::StringLit {
            for c in spelling.chars() {
                if c == '"' || c == '\\' {
                    string.push('\\');
                }
                string.push(c);
            }
        } else {
            string.push_str(spelling);
        }
    }
    string.push('"');
    let text = ctx.intern(&string);
    Some(PTok::new(
        Token {
            kind: TokenKind::StringLit,
            span: hash.tok.span,
            text,
        },
        hash.space_before,
    ))
}

/// Pastes the last token of `out` and the first of `operand` into one token
/// and appends the rest; reports (and keeps both tokens) when the two do not
/// spell one token.
fn paste_into(ctx: &mut Ctx, out: &mut Vec<PTok>, operand: &[PTok], paste_span: Span) {
    let (Some(left), Some((right, rest))) = (out.pop(), operand.split_first()) else {
        return;
    };
    let joined = format!("{}{}", ctx.spelling(&left.tok), ctx.spelling(&right.tok));
    match ctx.paste_kind(&joined) {
        Some(kind) => {
            let text = ctx.intern(&joined);
            // The `##` is in the definition, so the pasted token points at
            // the use once the expansion is mapped.
            out.push(PTok::new(
                Token {
                    kind,
                    span: paste_span,
                    text,
                },
                left.space_before,
            ));
        }
        None => {
            let message = format!(
                "pasting `{}` and `{}` does not give a valid token",
                ctx.spelling(&left.tok),
                ctx.spelling(&right.tok)
            );
            ctx.error(codes::PP_UNSUPPORTED_OPERATOR, message, paste_span);
            out.push(left);
            out.push(*right);
        }
    }
    out.extend_from_slice(rest);
}
