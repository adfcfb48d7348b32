//! Evaluation of `#if` and `#elif` expressions, after macro expansion and
//! `defined`.
//!
//! Values are `i64` with wrapping arithmetic (C uses `intmax_t`/`uintmax_t`;
//! the unsigned half is not modelled). Identifiers left after expansion are
//! 0, as in C. The right operand of `&&`, `||` and the untaken arm of `?:`
//! are parsed but not evaluated, so `0 && 1 / 0` is fine. Parentheses
//! recurse, with a depth limit instead of a stack overflow.

use super::state::PTok;
use crate::codes;
use crate::lexer::TokenKind;
use crate::literal;
use legalis_ir::Span;
use legalis_ir::diag::Diagnostic;

/// How deep parentheses and `?:` may nest.
const MAX_NESTING: u32 = 256;

/// Evaluates the expanded tokens of a condition. `end` is where "expected a
/// value" points when the line runs out.
pub(super) fn evaluate(
    toks: &[PTok],
    text: &str,
    keyword: &str,
    end: Span,
) -> Result<i64, Diagnostic> {
    if toks.is_empty() {
        return Err(bad(format!("`#{keyword}` needs an expression"), end));
    }
    let mut parser = Parser {
        toks,
        pos: 0,
        text,
        end,
        depth: 0,
    };
    let value = parser.ternary(true)?;
    match parser.peek() {
        Some(tok) => Err(bad(
            format!(
                "unexpected {} in preprocessor expression",
                tok.tok.kind.describe()
            ),
            tok.tok.span,
        )),
        None => Ok(value),
    }
}

fn bad(message: String, span: Span) -> Diagnostic {
    Diagnostic::error(codes::PP_BAD_EXPRESSION, message, span)
}

struct Parser<'a> {
    toks: &'a [PTok],
    pos: usize,
    text: &'a str,
    end: Span,
    depth: u32,
}

/// Binary operators by precedence, loosest first.
fn binary_precedence(kind: TokenKind) -> Option<u8> {
    use TokenKind::*;
    Some(match kind {
        PipePipe => 1,
        AmpAmp => 2,
        Pipe => 3,
        Caret => 4,
        Amp => 5,
        EqEq | Ne => 6,
        Lt | Gt | Le | Ge => 7,
        Shl | Shr => 8,
        Plus | Minus => 9,
        Star | Slash | Percent => 10,
        _ => return None,
    })
}

impl Parser<'_> {
    fn peek(&self) -> Option<&PTok> {
        self.toks.get(self.pos)
    }

    fn peek_kind(&self) -> Option<TokenKind> {
        self.peek().map(|t| t.tok.kind)
    }

    fn eat(&mut self, kind: TokenKind) -> bool {
        let found = self.peek_kind() == Some(kind);
        if found {
            self.pos += 1;
        }
        found
    }

    fn here(&self) -> Span {
        self.peek().map_or(self.end, |t| t.tok.span)
    }

    fn expect(&mut self, kind: TokenKind) -> Result<(), Diagnostic> {
        if self.eat(kind) {
            return Ok(());
        }
        let found = self.peek_kind().map_or("end of line", TokenKind::describe);
        Err(bad(
            format!(
                "expected {} in preprocessor expression, found {found}",
                kind.describe()
            ),
            self.here(),
        ))
    }

    /// `cond ? a : b`, or a binary expression. `live` is false inside an
    /// operand whose value cannot matter.
    fn ternary(&mut self, live: bool) -> Result<i64, Diagnostic> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(bad(
                "preprocessor expression nested too deeply".to_owned(),
                self.here(),
            ));
        }
        let cond = self.binary(1, live)?;
        let value = if self.eat(TokenKind::Question) {
            let then = self.ternary(live && cond != 0)?;
            self.expect(TokenKind::Colon)?;
            let els = self.ternary(live && cond == 0)?;
            if cond != 0 { then } else { els }
        } else {
            cond
        };
        self.depth -= 1;
        Ok(value)
    }

    /// Precedence climbing: recursion depth is bounded by the number of
    /// precedence levels, not by the length of the expression.
    fn binary(&mut self, min_precedence: u8, live: bool) -> Result<i64, Diagnostic> {
        let mut left = self.unary(live)?;
        while let Some(op) = self.peek().copied()
            && let Some(precedence) = binary_precedence(op.tok.kind)
            && precedence >= min_precedence
        {
            self.pos += 1;
            let right_live = match op.tok.kind {
                TokenKind::AmpAmp => live && left != 0,
                TokenKind::PipePipe => live && left == 0,
                _ => live,
            };
            let right = self.binary(precedence + 1, right_live)?;
            left = apply(op.tok.kind, left, right, right_live, op.tok.span)?;
        }
        Ok(left)
    }

    fn unary(&mut self, live: bool) -> Result<i64, Diagnostic> {
        let start = self.pos;
        while matches!(
            self.peek_kind(),
            Some(TokenKind::Bang | TokenKind::Tilde | TokenKind::Minus | TokenKind::Plus)
        ) {
            self.pos += 1;
        }
        let ops = &self.toks[start..self.pos];
        let mut value = self.primary(live)?;
        for op in ops.iter().rev() {
            value = match op.tok.kind {
                TokenKind::Bang => i64::from(value == 0),
                TokenKind::Tilde => !value,
                TokenKind::Minus => value.wrapping_neg(),
                _ => value,
            };
        }
        Ok(value)
    }

    fn primary(&mut self, live: bool) -> Result<i64, Diagnostic> {
        let Some(tok) = self.peek().copied() else {
            return Err(bad(
                "expected a value in preprocessor expression, found end of line".to_owned(),
                self.end,
            ));
        };
        self.pos += 1;
        let spelling = self.text.get(tok.tok.text.range()).unwrap_or("");
        match tok.tok.kind {
            TokenKind::IntLit => match literal::int_literal_value(spelling) {
                // Wrapping into i64 is the documented model.
                Some((value, _)) => Ok(value as i64),
                None => Err(bad(
                    format!("integer literal `{spelling}` is malformed or too large"),
                    tok.tok.span,
                )),
            },
            TokenKind::LParen => {
                let value = self.ternary(live)?;
                self.expect(TokenKind::RParen)?;
                Ok(value)
            }
            TokenKind::Ident if self.peek_kind() == Some(TokenKind::LParen) => Err(bad(
                format!("`{spelling}` is not a function-like macro"),
                tok.tok.span,
            )),
            TokenKind::Ident => Ok(0),
            TokenKind::FloatLit => Err(bad(
                "floating-point literal in preprocessor expression".to_owned(),
                tok.tok.span,
            )),
            kind => Err(bad(
                format!(
                    "expected a value in preprocessor expression, found {}",
                    kind.describe()
                ),
                tok.tok.span,
            )),
        }
    }
}

fn apply(op: TokenKind, a: i64, b: i64, live: bool, span: Span) -> Result<i64, Diagnostic> {
    use TokenKind::*;
    Ok(match op {
        Star => a.wrapping_mul(b),
        Slash | Percent if b == 0 => {
            if live {
                return Err(bad(
                    "division by zero in preprocessor expression".to_owned(),
                    span,
                ));
            }
            0
        }
        Slash => a.wrapping_div(b),
        Percent => a.wrapping_rem(b),
        Plus => a.wrapping_add(b),
        Minus => a.wrapping_sub(b),
        // Counts outside 0..64 are undefined in C; shifting everything out
        // is the least surprising answer.
        Shl => match u32::try_from(b) {
            Ok(n) if n < 64 => a.wrapping_shl(n),
            _ => 0,
        },
        Shr => match u32::try_from(b) {
            Ok(n) if n < 64 => a >> n,
            _ => a >> 63,
        },
        Lt => i64::from(a < b),
        Gt => i64::from(a > b),
        Le => i64::from(a <= b),
        Ge => i64::from(a >= b),
        EqEq => i64::from(a == b),
        Ne => i64::from(a != b),
        Amp => a & b,
        Caret => a ^ b,
        Pipe => a | b,
        AmpAmp => i64::from(a != 0 && b != 0),
        PipePipe => i64::from(a != 0 || b != 0),
        _ => 0,
    })
}
