//! The pieces every declaration shares: modifiers, declarators with array
//! dimensions, `:` annotations (semantics, `register`, `packoffset`) and
//! initializers.

use legalis_ir::Span;

use crate::{
    ast::{Attribute, Declarator, Expr, ExprKind, Modifier, PostAnnotation, TypeExpr, VarDecl},
    codes,
    lexer::TokenKind,
};

use super::{
    Parser,
    types::{ModifierClass, is_type_modifier, modifier_kind, prepend_type_modifiers},
};

impl Parser<'_> {
    /// Reads modifier words; contextual ones only when a type and a name
    /// follow. Returns the declaration's modifiers and, separately, those
    /// that belong to the type (`unorm`, `row_major` ...).
    fn modifiers(&mut self) -> (Vec<Modifier>, Vec<Modifier>) {
        let mut decl = Vec::new();
        let mut ty = Vec::new();
        while let Some((kind, class)) = self.nth_word(0).and_then(modifier_kind) {
            if class == ModifierClass::Contextual && !self.scan_decl_head(1) {
                break;
            }
            let tok = self.bump();
            let modifier = Modifier {
                kind,
                span: tok.span,
            };
            if is_type_modifier(kind) {
                ty.push(modifier);
            } else {
                decl.push(modifier);
            }
        }
        (decl, ty)
    }

    /// Modifiers and the type of a declaration.
    pub(super) fn decl_head(&mut self) -> (Vec<Modifier>, TypeExpr) {
        let (modifiers, type_modifiers) = self.modifiers();
        let mut ty = self.type_expr();
        prepend_type_modifiers(&mut ty, type_modifiers);
        (modifiers, ty)
    }

    /// The rest of a variable declaration once its first name is read:
    /// dimensions, annotations, initializer, further declarators, `;`.
    pub(super) fn var_decl_rest(
        &mut self,
        attributes: Vec<Attribute>,
        modifiers: Vec<Modifier>,
        ty: TypeExpr,
        first_name: crate::ast::Ident,
        start: Span,
    ) -> VarDecl {
        let mut declarators = vec![self.declarator_rest(first_name)];
        while self.eat(TokenKind::Comma) {
            let declarator = self.declarator();
            declarators.push(declarator);
        }
        self.expect(TokenKind::Semi, "`;`");
        VarDecl {
            attributes,
            modifiers,
            ty,
            declarators,
            span: self.span_from(start),
        }
    }

    /// A whole variable declaration after its attributes:
    /// `modifiers type a, b[2] = {...};`.
    pub(super) fn var_decl(&mut self, attributes: Vec<Attribute>, start: Span) -> VarDecl {
        let (modifiers, ty) = self.decl_head();
        let name = self.ident("name").unwrap_or_else(|| self.missing_ident());
        self.var_decl_rest(attributes, modifiers, ty, name, start)
    }

    pub(super) fn declarator(&mut self) -> Declarator {
        let name = self.ident("name").unwrap_or_else(|| self.missing_ident());
        self.declarator_rest(name)
    }

    pub(super) fn declarator_rest(&mut self, name: crate::ast::Ident) -> Declarator {
        let start = name.span;
        let array_dims = self.array_dims();
        let annotations = self.annotations();
        let init = self.eat(TokenKind::Eq).then(|| self.initializer());
        Declarator {
            name,
            array_dims,
            annotations,
            init,
            span: self.span_from(start),
        }
    }

    /// `[4][]`: one entry per pair of brackets, `None` when empty.
    pub(super) fn array_dims(&mut self) -> Vec<Option<Expr>> {
        let mut dims = Vec::new();
        while self.eat(TokenKind::LBracket) {
            if self.eat(TokenKind::RBracket) {
                dims.push(None);
                continue;
            }
            let open = self.pos - 1;
            let size = self.nested_expr();
            self.expect_close(TokenKind::RBracket, "`]`", open);
            dims.push(Some(size));
        }
        dims
    }

    /// `= value` or `= { ... }`.
    pub(super) fn initializer(&mut self) -> Expr {
        if self.at(TokenKind::LBrace) {
            self.init_list()
        } else {
            self.assign_expr()
        }
    }

    pub(super) fn init_list(&mut self) -> Expr {
        let start = self.peek().span;
        if !self.enter() {
            return Expr::new(ExprKind::Error, start);
        }
        let open = self.pos;
        self.bump();
        let saved = std::mem::replace(&mut self.gt_closes, false);
        let mut elements = Vec::new();
        let mut height = 0;
        while !matches!(self.kind(), TokenKind::RBrace | TokenKind::Eof) {
            elements.push(self.initializer());
            height = self.height.max(height);
            if !self.eat(TokenKind::Comma) {
                break;
            }
        }
        if !self.eat(TokenKind::RBrace) {
            self.error_expected("`,` or `}`");
            self.close_group(open);
        }
        self.gt_closes = saved;
        self.leave();
        self.set_height(height + 1);
        Expr::new(ExprKind::InitList(elements), self.span_from(start))
    }

    // ---- annotations

    /// `: SEMANTIC`, `: register(...)`, `: packoffset(...)`, any number.
    pub(super) fn annotations(&mut self) -> Vec<PostAnnotation> {
        let mut annotations = Vec::new();
        while self.eat(TokenKind::Colon) {
            let Some(word) = self.nth_word(0) else {
                self.error_expected("semantic");
                break;
            };
            let call = self.nth_kind(1) == TokenKind::LParen;
            let annotation = match word {
                "register" if call => self.register(),
                "packoffset" if call => self.packoffset(),
                "read" | "write" if call => self.payload_access(word == "write"),
                _ => {
                    let tok = self.bump();
                    Some(PostAnnotation::Semantic(self.ident_of(tok)))
                }
            };
            annotations.extend(annotation);
        }
        annotations
    }

    /// `register(t0)` / `register(t0, space1)`; `None` after an `E20005`.
    fn register(&mut self) -> Option<PostAnnotation> {
        let start = self.bump().span;
        let open = self.pos;
        self.bump();
        let slot = self.peek();
        let class_index = (slot.kind == TokenKind::Ident)
            .then(|| split_register(self.token_text(slot)))
            .flatten();
        let Some((class, index)) = class_index else {
            return self.bad_register(slot.span, "a register such as `t0` or `b1`", open);
        };
        self.bump();
        let mut space = None;
        if self.eat(TokenKind::Comma) {
            let tok = self.peek();
            let number = (tok.kind == TokenKind::Ident)
                .then(|| self.token_text(tok).strip_prefix("space"))
                .flatten()
                .and_then(parse_decimal_u32);
            let Some(number) = number else {
                return self.bad_register(tok.span, "a register space such as `space1`", open);
            };
            self.bump();
            space = Some(number);
        }
        if !self.at(TokenKind::RParen) {
            return self.bad_register(self.peek().span, "`)`", open);
        }
        self.bump();
        Some(PostAnnotation::Register {
            class,
            index,
            space,
            span: self.span_from(start),
        })
    }

    /// `packoffset(c4)` / `packoffset(c0.y)`; `None` after an `E20005`.
    fn packoffset(&mut self) -> Option<PostAnnotation> {
        let start = self.bump().span;
        let open = self.pos;
        self.bump();
        let reg = self.peek();
        let reg_text = self.token_text(reg);
        let valid_reg = reg.kind == TokenKind::Ident
            && reg_text
                .strip_prefix('c')
                .and_then(parse_decimal_u32)
                .is_some();
        if !valid_reg {
            return self.bad_register(reg.span, "a constant register such as `c4`", open);
        }
        self.bump();
        let mut text = reg_text.to_string();
        if self.eat(TokenKind::Dot) {
            let comp = self.peek();
            let comp_text = self.token_text(comp);
            if comp.kind != TokenKind::Ident || !matches!(comp_text, "x" | "y" | "z" | "w") {
                return self.bad_register(comp.span, "a component `x`, `y`, `z` or `w`", open);
            }
            self.bump();
            text.push('.');
            text.push_str(comp_text);
        }
        if !self.at(TokenKind::RParen) {
            return self.bad_register(self.peek().span, "`)`", open);
        }
        self.bump();
        Some(PostAnnotation::PackOffset {
            text,
            span: self.span_from(start),
        })
    }

    /// `read(caller, closesthit)` / `write(miss)`: a ray-payload access
    /// qualifier. An unknown stage name is `E20006` at the name; `None`
    /// after a malformed list.
    fn payload_access(&mut self, write: bool) -> Option<PostAnnotation> {
        let start = self.bump().span;
        let open = self.pos;
        self.bump();
        let mut stages = Vec::new();
        if !self.eat(TokenKind::RParen) {
            loop {
                let tok = self.peek();
                if tok.kind != TokenKind::Ident {
                    self.error_expected("a stage name");
                    self.close_group(open);
                    return None;
                }
                self.bump();
                let stage = self.ident_of(tok);
                if !matches!(
                    stage.name.as_str(),
                    "anyhit" | "closesthit" | "miss" | "caller"
                ) {
                    self.error(
                        codes::PARSE_BAD_PAYLOAD_STAGE,
                        format!(
                            "invalid stage name `{}` in a ray-payload access qualifier; \
                             the stages are `anyhit`, `closesthit`, `miss` and `caller`",
                            stage.name
                        ),
                        stage.span,
                    );
                }
                stages.push(stage);
                if self.eat(TokenKind::Comma) {
                    continue;
                }
                if !self.eat(TokenKind::RParen) {
                    self.error_expected("`,` or `)`");
                    self.close_group(open);
                    return None;
                }
                break;
            }
        }
        Some(PostAnnotation::PayloadAccess {
            write,
            stages,
            span: self.span_from(start),
        })
    }

    /// Reports a malformed `register`/`packoffset` argument and skips past
    /// the `)` that closes the `(` at token `open`.
    fn bad_register(&mut self, span: Span, expected: &str, open: usize) -> Option<PostAnnotation> {
        let found = self.describe(self.peek());
        self.error(
            codes::PARSE_BAD_REGISTER,
            format!("malformed register annotation: expected {expected}, found {found}"),
            span,
        );
        self.close_group(open);
        None
    }
}

/// `t0` → `('t', 0)`; the class letter is lower-cased.
fn split_register(text: &str) -> Option<(char, u32)> {
    let mut chars = text.chars();
    let class = chars.next().filter(char::is_ascii_alphabetic)?;
    let index = parse_decimal_u32(chars.as_str())?;
    Some((class.to_ascii_lowercase(), index))
}

fn parse_decimal_u32(digits: &str) -> Option<u32> {
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}
