//! Expressions: a Pratt loop over C precedence for binary, assignment,
//! ternary and comma operators; prefix operators, casts, primaries and
//! postfix operators below it.
//!
//! Every call of [`Parser::expr_bp`] and every prefix operator or cast
//! counts one nesting level, so right-nested chains (`a = b = c ...`),
//! parentheses and unary chains are all bounded. Left-nested chains
//! (`a + b + c`, `a[0][1]`) are built by loops and do not nest the parser.

use legalis_ir::Span;

use crate::{
    ast::{BinaryOp, Expr, ExprKind, UnaryOp},
    codes,
    lexer::{Token, TokenKind},
};

use super::{Parser, number::int_problem};

/// Binding powers, loosest first.
const COMMA: u8 = 1;
const ASSIGN: u8 = 2;
const TERNARY: u8 = 3;
/// `is` and `as`, with the relational operators.
const TYPE_TEST: u8 = 10;

/// What an infix token does.
#[derive(Clone, Copy)]
enum Infix {
    Comma,
    Assign(Option<BinaryOp>),
    Ternary,
    Binary(BinaryOp, u8),
    /// Slang's `value is Type` (`false`) and `value as Type` (`true`).
    TypeTest(bool),
}

impl Infix {
    fn binding_power(self) -> u8 {
        match self {
            Infix::Comma => COMMA,
            Infix::Assign(_) => ASSIGN,
            Infix::Ternary => TERNARY,
            Infix::Binary(_, bp) => bp,
            Infix::TypeTest(_) => TYPE_TEST,
        }
    }
}

fn binary_op(kind: TokenKind) -> Option<(BinaryOp, u8)> {
    use BinaryOp as B;
    let found = match kind {
        TokenKind::PipePipe => (B::Or, 4),
        TokenKind::AmpAmp => (B::And, 5),
        TokenKind::Pipe => (B::BitOr, 6),
        TokenKind::Caret => (B::BitXor, 7),
        TokenKind::Amp => (B::BitAnd, 8),
        TokenKind::EqEq => (B::Eq, 9),
        TokenKind::Ne => (B::Ne, 9),
        TokenKind::Lt => (B::Lt, 10),
        TokenKind::Gt => (B::Gt, 10),
        TokenKind::Le => (B::Le, 10),
        TokenKind::Ge => (B::Ge, 10),
        TokenKind::Shl => (B::Shl, 11),
        TokenKind::Shr => (B::Shr, 11),
        TokenKind::Plus => (B::Add, 12),
        TokenKind::Minus => (B::Sub, 12),
        TokenKind::Star => (B::Mul, 13),
        TokenKind::Slash => (B::Div, 13),
        TokenKind::Percent => (B::Rem, 13),
        _ => return None,
    };
    Some(found)
}

fn compound_assign_op(kind: TokenKind) -> Option<Option<BinaryOp>> {
    use BinaryOp as B;
    let op = match kind {
        TokenKind::Eq => None,
        TokenKind::PlusEq => Some(B::Add),
        TokenKind::MinusEq => Some(B::Sub),
        TokenKind::StarEq => Some(B::Mul),
        TokenKind::SlashEq => Some(B::Div),
        TokenKind::PercentEq => Some(B::Rem),
        TokenKind::ShlEq => Some(B::Shl),
        TokenKind::ShrEq => Some(B::Shr),
        TokenKind::AmpEq => Some(B::BitAnd),
        TokenKind::PipeEq => Some(B::BitOr),
        TokenKind::CaretEq => Some(B::BitXor),
        _ => return None,
    };
    Some(op)
}

fn prefix_op(kind: TokenKind) -> Option<UnaryOp> {
    let op = match kind {
        TokenKind::Minus => UnaryOp::Neg,
        TokenKind::Plus => UnaryOp::Plus,
        TokenKind::Bang => UnaryOp::Not,
        TokenKind::Tilde => UnaryOp::BitNot,
        TokenKind::PlusPlus => UnaryOp::PreInc,
        TokenKind::MinusMinus => UnaryOp::PreDec,
        TokenKind::Star => UnaryOp::Deref,
        _ => return None,
    };
    Some(op)
}

/// Whether a token can begin a unary expression (decides `(T)` casts).
fn starts_unary(tok: Token) -> bool {
    matches!(
        tok.kind,
        TokenKind::Ident
            | TokenKind::IntLit
            | TokenKind::FloatLit
            | TokenKind::LParen
            | TokenKind::Minus
            | TokenKind::Plus
            | TokenKind::Bang
            | TokenKind::Tilde
            | TokenKind::PlusPlus
            | TokenKind::MinusMinus
    )
}

fn boxed(expr: Expr) -> Box<Expr> {
    Box::new(expr)
}

impl Parser<'_> {
    /// A full expression, comma operator included.
    pub(super) fn expr(&mut self) -> Expr {
        self.expr_bp(COMMA)
    }

    /// An expression without a top-level comma (arguments, initializers).
    pub(super) fn assign_expr(&mut self) -> Expr {
        self.expr_bp(ASSIGN)
    }

    /// A conditional expression: no assignment, no comma (case labels,
    /// generic value arguments).
    pub(super) fn ternary_expr(&mut self) -> Expr {
        self.expr_bp(TERNARY)
    }

    /// A full expression inside brackets or parentheses, where `>` compares
    /// again even within generic arguments.
    pub(super) fn nested_expr(&mut self) -> Expr {
        let saved = std::mem::replace(&mut self.gt_closes, false);
        let expr = self.expr();
        self.gt_closes = saved;
        expr
    }

    fn expr_bp(&mut self, min_bp: u8) -> Expr {
        if !self.enter() {
            return Expr::new(ExprKind::Error, self.peek().span);
        }
        let expr = self.expr_bp_inner(min_bp);
        self.leave();
        expr
    }

    fn infix(&self, kind: TokenKind) -> Option<Infix> {
        if self.gt_closes
            && matches!(
                kind,
                TokenKind::Gt | TokenKind::Shr | TokenKind::Ge | TokenKind::ShrEq
            )
        {
            return None;
        }
        match kind {
            TokenKind::Comma => Some(Infix::Comma),
            TokenKind::Question => Some(Infix::Ternary),
            _ => compound_assign_op(kind)
                .map(Infix::Assign)
                .or_else(|| binary_op(kind).map(|(op, bp)| Infix::Binary(op, bp))),
        }
    }

    fn expr_bp_inner(&mut self, min_bp: u8) -> Expr {
        let mut lhs = self.unary();
        while let Some(infix) = self.infix(self.kind()).or_else(|| self.type_test_ahead()) {
            if infix.binding_power() < min_bp {
                break;
            }
            self.bump();
            let start = lhs.span;
            let lhs_height = self.height;
            let kind = match infix {
                Infix::Comma => {
                    let right = self.expr_bp(COMMA + 1);
                    ExprKind::Binary {
                        op: BinaryOp::Comma,
                        left: boxed(lhs),
                        right: boxed(right),
                    }
                }
                Infix::Binary(op, bp) => {
                    let right = self.expr_bp(bp + 1);
                    ExprKind::Binary {
                        op,
                        left: boxed(lhs),
                        right: boxed(right),
                    }
                }
                Infix::Assign(op) => {
                    let value = self.expr_bp(ASSIGN);
                    ExprKind::Assign {
                        op,
                        target: boxed(lhs),
                        value: boxed(value),
                    }
                }
                Infix::Ternary => self.ternary_rest(lhs),
                Infix::TypeTest(cast) => ExprKind::TypeTest {
                    value: boxed(lhs),
                    ty: Box::new(self.type_expr()),
                    cast,
                },
            };
            self.set_height(lhs_height.max(self.height) + 1);
            lhs = Expr::new(kind, self.span_from(start));
        }
        lhs
    }

    /// `is Type` or `as Type` at the cursor (the word and a name after it).
    fn type_test_ahead(&self) -> Option<Infix> {
        let cast = match self.nth_word(0)? {
            "is" => false,
            "as" => true,
            _ => return None,
        };
        (self.nth_kind(1) == TokenKind::Ident).then_some(Infix::TypeTest(cast))
    }

    /// After `cond ?`: the branches.
    /// Leaves the height of the taller branch.
    fn ternary_rest(&mut self, cond: Expr) -> ExprKind {
        let then = self.nested_expr();
        let then_height = self.height;
        self.expect(TokenKind::Colon, "`:`");
        let els = self.expr_bp(TERNARY);
        self.height = self.height.max(then_height);
        ExprKind::Ternary {
            cond: boxed(cond),
            then: boxed(then),
            els: boxed(els),
        }
    }

    /// Prefix operators and casts, then a primary with its postfix operators.
    fn unary(&mut self) -> Expr {
        let tok = self.peek();
        if let Some(op) = prefix_op(tok.kind) {
            if !self.enter() {
                return Expr::new(ExprKind::Error, tok.span);
            }
            self.bump();
            let operand = self.unary();
            self.leave();
            self.set_height(self.height + 1);
            let kind = ExprKind::Unary {
                op,
                expr: boxed(operand),
            };
            return Expr::new(kind, self.span_from(tok.span));
        }
        if tok.kind == TokenKind::LParen && self.cast_ahead() {
            return self.cast();
        }
        let primary = self.primary();
        if primary.kind == ExprKind::Error {
            // Nothing to apply postfix operators to; reading `[` or `(` as
            // one here would turn one mistake into a chain of them.
            return primary;
        }
        self.postfix(primary)
    }

    /// At `(`: whether `(Type)` or `(Type[n])` follows, then something that
    /// can begin an operand. `(name)` followed by a name or a literal can
    /// only be a cast, so there the name need not be a known type.
    fn cast_ahead(&self) -> bool {
        let Some(word) = self.nth_word(1) else {
            return false;
        };
        if self.nth_kind(2) == TokenKind::RParen
            && matches!(
                self.nth_kind(3),
                TokenKind::Ident | TokenKind::IntLit | TokenKind::FloatLit
            )
        {
            return true;
        }
        let typelike = self.is_type_name(word)
            || matches!(
                word,
                "const" | "unorm" | "snorm" | "row_major" | "column_major"
            );
        if !typelike {
            return false;
        }
        let Some(mut end) = self.scan_type(1) else {
            return false;
        };
        while self.nth_kind(end) == TokenKind::LBracket {
            let Some(next) = self.scan_brackets(end) else {
                return false;
            };
            end = next;
        }
        self.nth_kind(end) == TokenKind::RParen && starts_unary(self.nth(end + 1))
    }

    fn cast(&mut self) -> Expr {
        let start = self.peek().span;
        if !self.enter() {
            return Expr::new(ExprKind::Error, start);
        }
        let open = self.pos;
        self.bump();
        let saved = std::mem::replace(&mut self.gt_closes, false);
        let ty = self.type_expr();
        let array_dims = self.array_dims();
        self.gt_closes = saved;
        self.expect_close(TokenKind::RParen, "`)`", open);
        let operand = self.unary();
        self.leave();
        self.set_height(self.height + 1);
        let kind = ExprKind::Cast {
            ty: Box::new(ty),
            array_dims,
            expr: boxed(operand),
        };
        Expr::new(kind, self.span_from(start))
    }

    /// A literal, name, generic type or parenthesised expression; a leaf
    /// has height 1.
    fn primary(&mut self) -> Expr {
        let tok = self.peek();
        self.height = 1;
        match tok.kind {
            TokenKind::IntLit => {
                self.bump();
                self.int_literal(tok)
            }
            TokenKind::FloatLit => {
                self.bump();
                self.float_literal(tok)
            }
            TokenKind::StringLit => {
                self.bump();
                let value = unescape_string(self.token_text(tok));
                Expr::new(ExprKind::String(value), tok.span)
            }
            // `x = {a, b};`, `return {a, {b}};`: the checker types it from
            // where it goes.
            TokenKind::LBrace => self.init_list(),
            TokenKind::LParen => {
                let open = self.pos;
                self.bump();
                let mut inner = self.nested_expr();
                self.expect_close(TokenKind::RParen, "`)`", open);
                // The tree has no parenthesis node; the span keeps them so
                // that an operator with this operand spans its whole text.
                inner.span = self.span_from(tok.span);
                inner
            }
            TokenKind::Ident => self.name_or_type(tok),
            _ => {
                self.error_expected("expression");
                Expr::new(ExprKind::Error, Span::new(tok.span.start, tok.span.start))
            }
        }
    }

    /// `true`, `false`, `a`, `E::A`, or a generic type used as a callee
    /// (`vector<float, 3>(...)`).
    fn name_or_type(&mut self, tok: Token) -> Expr {
        let word = self.token_text(tok);
        match word {
            "true" | "false" => {
                self.bump();
                return Expr::new(ExprKind::Bool(word == "true"), tok.span);
            }
            _ => {}
        }
        // `reinterpret<T>(v)` (Slang): a built-in generic function.
        let builtin_generic = word == "reinterpret"
            && self.nth_kind(1) == TokenKind::Lt
            && self
                .scan_angles(1)
                .is_some_and(|end| self.nth_kind(end) == TokenKind::LParen);
        if builtin_generic
            || self.nth_kind(1) == TokenKind::Lt
                && self.is_type_name(word)
                && self.scan_type(0).is_some()
        {
            let ty = self.type_expr();
            let span = ty.span;
            return Expr::new(ExprKind::TypeRef(Box::new(ty)), span);
        }
        self.bump();
        let mut path = vec![self.ident_of(tok)];
        while self.at(TokenKind::ColonColon) && self.nth_kind(1) == TokenKind::Ident {
            self.bump();
            let part = self.bump();
            path.push(self.ident_of(part));
        }
        Expr::new(ExprKind::Name(path), self.span_from(tok.span))
    }

    /// Member access, method calls, indexing, calls, `++`/`--`, in a loop.
    fn postfix(&mut self, mut expr: Expr) -> Expr {
        loop {
            if self.at(TokenKind::Minus) && self.nth_kind(1) == TokenKind::Gt {
                expr = self.arrow(expr);
                continue;
            }
            if !matches!(
                self.kind(),
                TokenKind::Dot
                    | TokenKind::LBracket
                    | TokenKind::LParen
                    | TokenKind::PlusPlus
                    | TokenKind::MinusMinus
            ) {
                break;
            }
            let start = expr.span;
            let height = self.height;
            // Operands inside the operator (index, arguments) set their own
            // height; the new node stands on the taller of them and `expr`.
            self.height = 0;
            let kind = self.postfix_op(expr);
            self.set_height(height.max(self.height) + 1);
            expr = Expr::new(kind, self.span_from(start));
        }
        expr
    }

    /// `p->f` at `-` `>`: the member `f` of `*p`.
    fn arrow(&mut self, base: Expr) -> Expr {
        let start = base.span;
        self.bump();
        self.bump();
        let deref = ExprKind::Unary {
            op: UnaryOp::Deref,
            expr: boxed(base),
        };
        let base = Expr::new(deref, self.span_from(start));
        let kind = match self.ident("member name") {
            Some(member) => ExprKind::Member {
                base: boxed(base),
                member,
            },
            None => ExprKind::Error,
        };
        self.set_height(self.height + 2);
        Expr::new(kind, self.span_from(start))
    }

    /// One postfix operator applied to `base`, at the operator's token.
    fn postfix_op(&mut self, base: Expr) -> ExprKind {
        let base = boxed(base);
        match self.bump().kind {
            TokenKind::Dot => {
                let Some(member) = self.ident("member name") else {
                    return ExprKind::Error;
                };
                // `obj.method<T>(args)`: explicit generic arguments, when
                // a balanced `<...>` is followed by `(`.
                let type_args = if self.at(TokenKind::Lt) && self.scan_method_type_args() {
                    self.bump();
                    self.generic_args()
                } else {
                    Vec::new()
                };
                if self.at(TokenKind::LParen) {
                    let args = self.call_args();
                    ExprKind::MethodCall {
                        object: base,
                        method: member,
                        type_args,
                        args,
                    }
                } else {
                    ExprKind::Member { base, member }
                }
            }
            TokenKind::LBracket => {
                let open = self.pos - 1;
                let index = boxed(self.nested_expr());
                self.expect_close(TokenKind::RBracket, "`]`", open);
                ExprKind::Index { base, index }
            }
            TokenKind::LParen => {
                let args = self.call_args_rest();
                ExprKind::Call { callee: base, args }
            }
            TokenKind::PlusPlus => ExprKind::Unary {
                op: UnaryOp::PostInc,
                expr: base,
            },
            _ => ExprKind::Unary {
                op: UnaryOp::PostDec,
                expr: base,
            },
        }
    }

    /// Whether the `<` at the cursor opens explicit generic arguments of a
    /// method call: types separated by `,`, then `>` and `(`. Anything
    /// else (`v.x < a && b > (c)`) is a comparison.
    fn scan_method_type_args(&self) -> bool {
        let mut i = 1;
        loop {
            let Some(end) = self.scan_type(i) else {
                return false;
            };
            match self.nth_kind(end) {
                TokenKind::Comma => i = end + 1,
                TokenKind::Gt => return self.nth_kind(end + 1) == TokenKind::LParen,
                _ => return false,
            }
        }
    }

    /// `( args )` at the cursor; leaves the height of the tallest argument.
    pub(super) fn call_args(&mut self) -> Vec<Expr> {
        self.bump();
        self.call_args_rest()
    }

    /// Arguments after the `(`, through the `)`.
    fn call_args_rest(&mut self) -> Vec<Expr> {
        let open = self.pos - 1;
        let saved = std::mem::replace(&mut self.gt_closes, false);
        let mut args = Vec::new();
        let mut height = 0;
        if !self.eat(TokenKind::RParen) {
            loop {
                args.push(self.assign_expr());
                height = height.max(self.height);
                if self.eat(TokenKind::Comma) {
                    continue;
                }
                if !self.eat(TokenKind::RParen) {
                    self.error_expected("`,` or `)`");
                    self.close_group(open);
                }
                break;
            }
        }
        self.height = height;
        self.gt_closes = saved;
        args
    }

    fn int_literal(&mut self, tok: Token) -> Expr {
        let text = self.token_text(tok);
        match crate::literal::int_literal_value(text) {
            Some((value, suffix)) => Expr::new(ExprKind::Int { value, suffix }, tok.span),
            None => {
                let problem = int_problem(text);
                self.error(
                    codes::LEX_BAD_NUMBER,
                    format!("integer literal `{text}` {problem}"),
                    tok.span,
                );
                Expr::new(ExprKind::Error, tok.span)
            }
        }
    }

    fn float_literal(&mut self, tok: Token) -> Expr {
        let text = self.token_text(tok);
        match crate::literal::float_literal_value(text) {
            Some((value, suffix)) => Expr::new(ExprKind::Float { value, suffix }, tok.span),
            None => {
                self.error(
                    codes::LEX_BAD_NUMBER,
                    format!("float literal `{text}` is out of range or malformed"),
                    tok.span,
                );
                Expr::new(ExprKind::Error, tok.span)
            }
        }
    }
}

/// The value of a string literal: quotes removed, `\"`, `\\`, `\n`, `\t`
/// and `\0` unescaped; other escapes keep the escaped character.
fn unescape_string(text: &str) -> String {
    let inner = text
        .strip_prefix('"')
        .map(|t| t.strip_suffix('"').unwrap_or(t))
        .unwrap_or(text);
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('0') => out.push('\0'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}
