//! Slang's declaration syntax for functions: `func name(p: T, out q: U)
//! -> R : SEMANTIC { body }`, read into the same [`FunctionDecl`] the
//! C-style syntax gives (a missing `->` result is `void`). Parameters are
//! `[modifiers] name : type [semantic] [= default]`.

use legalis_ir::Span;

use crate::{
    ast::{Attribute, FunctionDecl, Modifier, Param, TypeExpr},
    lexer::TokenKind,
};

use super::Parser;
use super::types::{ModifierClass, modifier_kind};

impl Parser<'_> {
    /// Whether a `func` declaration starts at the cursor (after modifiers
    /// such as `static` or `public`).
    pub(super) fn at_func(&self) -> bool {
        let mut i = 0;
        while self.nth_word(i).and_then(modifier_kind).is_some() {
            i += 1;
        }
        self.nth_word(i) == Some("func") && self.nth_kind(i + 1) == TokenKind::Ident
    }

    /// `[modifiers] func name(params) [-> type] [: annotations] { body }`
    /// at the cursor, with the attributes read before it.
    pub(super) fn func_decl(
        &mut self,
        attributes: Vec<Attribute>,
        start: Span,
    ) -> Option<FunctionDecl> {
        let mut modifiers = Vec::new();
        while let Some((kind, _)) = self.nth_word(0).and_then(modifier_kind) {
            let token = self.bump();
            modifiers.push(Modifier {
                kind,
                span: token.span,
            });
        }
        let keyword = self.bump();
        let name = self.ident("function name")?;
        if self.at(TokenKind::Lt) {
            self.unsupported("generic function", name.span);
            self.skip_construct();
            return None;
        }
        if !self.at(TokenKind::LParen) {
            self.error_expected("`(`");
            return None;
        }
        let params = self.func_params();
        let return_type = if self.at(TokenKind::Minus) && self.nth_kind(1) == TokenKind::Gt {
            self.bump();
            self.bump();
            self.type_expr()
        } else {
            TypeExpr {
                name: "void".into(),
                args: Vec::new(),
                modifiers: Vec::new(),
                span: keyword.span,
            }
        };
        let return_annotations = self.annotations();
        let body = if self.at(TokenKind::LBrace) {
            Some(self.block())
        } else if self.eat(TokenKind::Semi) {
            None
        } else {
            self.error_expected("`{` or `;`");
            None
        };
        Some(FunctionDecl {
            attributes,
            modifiers,
            return_type,
            name,
            generics: Vec::new(),
            params,
            return_annotations,
            body,
            span: self.span_from(start),
        })
    }

    /// Whether the parameter at the cursor is written `[modifiers] name:
    /// type`, not C-style (a parameter with attributes is read C-style).
    fn at_func_param(&self) -> bool {
        let mut i = 0;
        while self.nth_kind(i + 1) != TokenKind::Colon
            && self.nth_word(i).and_then(modifier_kind).is_some()
        {
            i += 1;
        }
        self.nth_kind(i) == TokenKind::Ident && self.nth_kind(i + 1) == TokenKind::Colon
    }

    /// `(name: type, ...)` of a `func` (C-style parameters too).
    fn func_params(&mut self) -> Vec<Param> {
        let open = self.pos;
        self.bump();
        let mut params = Vec::new();
        if self.eat(TokenKind::RParen) {
            return params;
        }
        loop {
            // Slang also takes C-style parameters in a `func`.
            let param = if self.at_func_param() {
                self.func_param()
            } else {
                self.param()
            };
            params.push(param);
            if !self.param_list_continues(open) {
                return params;
            }
        }
    }

    /// After a parameter: whether another follows (a `,` and no `)`);
    /// at the list's end (`)`, or `,)`: Slang accepts a comma after the
    /// last parameter) `false`; anything else is reported, and the list
    /// resynchronises at its closing `)` (`open`).
    pub(super) fn param_list_continues(&mut self, open: usize) -> bool {
        if self.eat(TokenKind::Comma) {
            return !self.eat(TokenKind::RParen);
        }
        if !self.eat(TokenKind::RParen) {
            self.error_expected("`,` or `)`");
            if self.close_group(open) {
                self.recovering = false;
            }
        }
        false
    }

    /// `[modifiers] name : type [semantic] [= default]`.
    fn func_param(&mut self) -> Param {
        let start = self.peek().span;
        let attributes = self.attributes();
        // A modifier is a word followed by more than `:` (the
        // parameter's own name is followed by `:`).
        let mut modifiers = Vec::new();
        while self.nth_kind(1) != TokenKind::Colon
            && let Some((kind, class)) = self.nth_word(0).and_then(modifier_kind)
            && (class == ModifierClass::Always || self.nth_kind(1) == TokenKind::Ident)
        {
            let token = self.bump();
            modifiers.push(Modifier {
                kind,
                span: token.span,
            });
        }
        let name = self
            .ident("parameter name")
            .unwrap_or_else(|| self.missing_ident());
        // `at_func_param` saw the `:`.
        self.bump();
        let ty = self.type_expr();
        let declarator = self.declarator_rest(name);
        Param {
            attributes,
            modifiers,
            ty,
            declarator,
            span: self.span_from(start),
        }
    }
}
