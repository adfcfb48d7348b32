//! Macro definitions: the table, and reading a `#define` line (or a
//! command-line define) into a [`Macro`].

use super::expand;
use super::state::{Ctx, FxBuild, Origin, PTok, gap_before};
use crate::codes;
use crate::lexer::{Token, TokenKind};
use legalis_ir::Span;
use legalis_ir::diag::Diagnostic;
use std::collections::HashMap;
use std::rc::Rc;

/// A body token, with the index of the parameter it names (function-like
/// macros only).
#[derive(Clone, Copy, Debug)]
pub(super) struct BodyTok {
    pub tok: Token,
    pub param: Option<u32>,
    pub space_before: bool,
}

#[derive(Debug)]
pub(super) struct Macro {
    pub name: Box<str>,
    /// `None` for object-like macros. A variadic macro's last parameter is
    /// `__VA_ARGS__`.
    pub params: Option<Box<[Box<str>]>>,
    pub variadic: bool,
    pub body: Box<[BodyTok]>,
    /// Object-like macros: the replacement with `##` already applied, which
    /// is the same at every use.
    pub ready: Rc<[PTok]>,
    /// The definition, for "previous definition" labels; `None` for builtin
    /// and command-line macros.
    pub def_span: Option<Span>,
}

/// Macros by name. Ids stay valid after `#undef` so that the "currently
/// expanding" counts never dangle.
#[derive(Debug, Default)]
pub(super) struct MacroTable {
    by_name: HashMap<Box<str>, u32, FxBuild>,
    defs: Vec<Rc<Macro>>,
    /// Per id: how many expansions of the macro are in progress.
    active: Vec<u32>,
    /// A filter in front of `by_name`, for every identifier of the source:
    /// the first bytes (bit `b % 128`) and the lengths (bit `min(len, 63)`)
    /// of every name ever defined. A name whose first byte or length was
    /// never seen is no macro, without hashing it.
    first_bytes: u128,
    lengths: u64,
}

impl MacroTable {
    pub fn id(&self, name: &str) -> Option<u32> {
        let first = name.as_bytes().first()?;
        if self.first_bytes & (1 << (first % 128)) == 0
            || self.lengths & (1 << name.len().min(63)) == 0
        {
            return None;
        }
        self.by_name.get(name).copied()
    }

    pub fn is_defined(&self, name: &str) -> bool {
        self.by_name.contains_key(name)
    }

    pub fn get(&self, id: u32) -> Option<Rc<Macro>> {
        self.defs.get(id as usize).cloned()
    }

    pub fn current(&self, name: &str) -> Option<&Rc<Macro>> {
        self.defs.get(*self.by_name.get(name)? as usize)
    }

    pub fn insert(&mut self, mac: Macro) {
        if let Some(first) = mac.name.as_bytes().first() {
            self.first_bytes |= 1 << (first % 128);
        }
        self.lengths |= 1 << mac.name.len().min(63);
        let id = self.defs.len() as u32;
        self.by_name.insert(mac.name.clone(), id);
        self.defs.push(Rc::new(mac));
        self.active.push(0);
    }

    pub fn remove(&mut self, name: &str) {
        self.by_name.remove(name);
    }

    pub fn is_active(&self, id: u32) -> bool {
        self.active.get(id as usize).is_some_and(|&n| n > 0)
    }

    pub fn set_active(&mut self, id: u32, entering: bool) {
        if let Some(n) = self.active.get_mut(id as usize) {
            *n = if entering {
                n.saturating_add(1)
            } else {
                n.saturating_sub(1)
            };
        }
    }
}

/// Reads the tokens after `#define` (`NAME`, parameters, body) and records
/// the macro, reporting a malformed definition instead.
pub(super) fn define(ctx: &mut Ctx, toks: &[Token], origin: Origin, directive: Span) {
    let Some(name_tok) = toks.first() else {
        ctx.error(
            codes::PP_MALFORMED_DIRECTIVE,
            "`#define` needs a macro name",
            directive,
        );
        return;
    };
    let name = ctx.spelling(name_tok).to_owned();
    if name_tok.kind != TokenKind::Ident || name == "defined" {
        let message = format!("`{name}` cannot be a macro name");
        ctx.error(codes::PP_MALFORMED_DIRECTIVE, message, name_tok.span);
        return;
    }
    let mut rest = &toks[1..];
    let function_like = rest
        .first()
        .is_some_and(|t| t.kind == TokenKind::LParen && t.span.start == name_tok.span.end);
    let (params, variadic) = if function_like {
        match parse_params(ctx, rest) {
            Ok(list) => {
                rest = &rest[list.len..];
                (Some(list.names), list.variadic)
            }
            Err(span) => {
                let message = format!("malformed parameter list for macro `{name}`");
                ctx.error(codes::PP_MALFORMED_DIRECTIVE, message, span);
                return;
            }
        }
    } else {
        (None, false)
    };
    let Some(body) = read_body(ctx, rest, params.as_deref()) else {
        return;
    };
    let mut mac = Macro {
        name: name.into(),
        params,
        variadic,
        body,
        ready: Rc::from(Vec::new()),
        def_span: (origin == Origin::Source).then(|| directive.join(name_tok.span)),
    };
    if mac.params.is_none() {
        mac.ready = expand::substitute(ctx, &mac, &[], expand::Mode::Text).into();
    }
    if origin == Origin::Source {
        warn_if_redefined(ctx, &mac, name_tok.span);
    }
    ctx.macros.insert(mac);
}

#[derive(Debug)]
struct ParamList {
    names: Box<[Box<str>]>,
    variadic: bool,
    /// Tokens read, parentheses included.
    len: usize,
}

/// Parses `(a, b, ...)`; the error is where it went wrong.
fn parse_params(ctx: &Ctx, toks: &[Token]) -> Result<ParamList, Span> {
    let mut params: Vec<Box<str>> = Vec::new();
    let mut variadic = false;
    let mut i = 1;
    let err_at = |i: usize| {
        toks.get(i)
            .or(toks.last())
            .map_or(Span::default(), |t| t.span)
    };
    let done = |names: Vec<Box<str>>, variadic, len| ParamList {
        names: names.into(),
        variadic,
        len,
    };
    if toks.get(1).is_some_and(|t| t.kind == TokenKind::RParen) {
        return Ok(done(params, false, 2));
    }
    loop {
        let tok = toks.get(i).ok_or_else(|| err_at(i))?;
        if is_ellipsis(&toks[i..]) {
            variadic = true;
            params.push("__VA_ARGS__".into());
            i += 3;
        } else if tok.kind == TokenKind::Ident {
            let name = ctx.spelling(tok);
            if params.iter().any(|p| &**p == name) || name == "__VA_ARGS__" {
                return Err(tok.span);
            }
            params.push(name.into());
            i += 1;
        } else {
            return Err(tok.span);
        }
        match toks.get(i).map(|t| t.kind) {
            Some(TokenKind::RParen) => return Ok(done(params, variadic, i + 1)),
            Some(TokenKind::Comma) if !variadic => i += 1,
            _ => return Err(err_at(i)),
        }
    }
}

/// `...` lexes as three `.` tokens; they must touch.
fn is_ellipsis(toks: &[Token]) -> bool {
    match toks {
        [a, b, c, ..] => {
            [a, b, c].iter().all(|t| t.kind == TokenKind::Dot)
                && a.span.end == b.span.start
                && b.span.end == c.span.start
        }
        _ => false,
    }
}

/// The body with parameter references resolved; `None` (after reporting)
/// when `#` or `##` is misplaced.
fn read_body(ctx: &mut Ctx, toks: &[Token], params: Option<&[Box<str>]>) -> Option<Box<[BodyTok]>> {
    let mut body: Vec<BodyTok> = Vec::with_capacity(toks.len());
    for (i, tok) in toks.iter().enumerate() {
        if is_lex_error(tok.kind) {
            ctx.lex_error(tok);
            continue;
        }
        let param = params
            .filter(|_| tok.kind == TokenKind::Ident)
            .and_then(|params| params.iter().position(|p| **p == *ctx.spelling(tok)))
            .map(|index| index as u32);
        let space_before =
            !body.is_empty() && gap_before(i.checked_sub(1).and_then(|p| toks.get(p)), tok);
        body.push(BodyTok {
            tok: *tok,
            param,
            space_before,
        });
    }
    let misplaced_paste = [body.first(), body.last()]
        .into_iter()
        .flatten()
        .find(|b| b.tok.kind == TokenKind::HashHash);
    if let Some(b) = misplaced_paste {
        let message = "`##` cannot appear at either end of a macro body";
        ctx.error(codes::PP_UNSUPPORTED_OPERATOR, message, b.tok.span);
        return None;
    }
    if params.is_some() {
        let stray_hash = body.iter().enumerate().find(|(i, b)| {
            b.tok.kind == TokenKind::Hash && body.get(i + 1).is_none_or(|next| next.param.is_none())
        });
        if let Some((_, b)) = stray_hash {
            let message = "`#` in a function-like macro must be followed by a parameter";
            ctx.error(codes::PP_UNSUPPORTED_OPERATOR, message, b.tok.span);
            return None;
        }
    }
    Some(body.into())
}

pub(super) fn is_lex_error(kind: TokenKind) -> bool {
    matches!(
        kind,
        TokenKind::Unknown | TokenKind::UnterminatedComment | TokenKind::UnterminatedString
    )
}

/// C allows redefining a macro only with the same definition; a different
/// one is almost always a mistake, so it gets `E15005` (a warning: the new
/// definition wins).
fn warn_if_redefined(ctx: &mut Ctx, mac: &Macro, name_span: Span) {
    let Some(old) = ctx.macros.current(&mac.name) else {
        return;
    };
    let same = old.params == mac.params
        && old.variadic == mac.variadic
        && old.body.len() == mac.body.len()
        && old.body.iter().zip(mac.body.iter()).all(|(a, b)| {
            a.tok.kind == b.tok.kind
                && a.param == b.param
                && ctx.spelling(&a.tok) == ctx.spelling(&b.tok)
        });
    if same {
        return;
    }
    let previous = old.def_span;
    let mut diag = Diagnostic::warning(
        codes::PP_MACRO_REDEFINED,
        format!("macro `{}` redefined", mac.name),
        name_span,
    );
    diag = match previous {
        Some(span) => diag.with_label(span, "previous definition"),
        None => diag.with_note("the previous definition is predefined or from the command line"),
    };
    ctx.report(diag);
}
