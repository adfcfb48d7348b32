//! GLSL declarations at module scope, read for `-allow-glsl` (the checker
//! rejects them without the option): `layout(...)` qualifier lists,
//! storage blocks (`buffer Name { fields } instance;`) and
//! `layout(...) in;`.

use legalis_ir::Span;

use crate::{
    ast::{Attribute, GlslBufferBlock, GlslLayoutIn, Item, LayoutQualifier},
    lexer::TokenKind,
};

use super::Parser;

impl Parser<'_> {
    /// Whether the cursor is at a GLSL item: `layout(` or `buffer Name {`
    /// (`buffer` alone is an ordinary name).
    pub(super) fn at_glsl_item(&self) -> bool {
        match self.nth_word(0) {
            Some("layout") => self.nth_kind(1) == TokenKind::LParen,
            Some("buffer") => {
                self.nth_kind(1) == TokenKind::Ident && self.nth_kind(2) == TokenKind::LBrace
            }
            _ => false,
        }
    }

    /// A GLSL item (see [`Parser::at_glsl_item`]).
    pub(super) fn glsl_item(
        &mut self,
        attributes: Vec<Attribute>,
        start: Span,
        items: &mut Vec<Item>,
    ) {
        let layout = if self.at_word("layout") {
            self.bump();
            self.layout_qualifiers()
        } else {
            Vec::new()
        };
        if !attributes.is_empty() {
            self.unsupported("an attribute on a GLSL declaration", attributes[0].span);
        }
        if self.at_word("in") && self.nth_kind(1) == TokenKind::Semi {
            self.bump();
            self.bump();
            items.push(Item::GlslLayoutIn(GlslLayoutIn {
                layout,
                span: self.span_from(start),
            }));
            return;
        }
        if self.at_word("buffer")
            && self.nth_kind(1) == TokenKind::Ident
            && self.nth_kind(2) == TokenKind::LBrace
        {
            self.bump();
            let Some(name) = self.ident("block name") else {
                return;
            };
            let mut structs = Vec::new();
            let fields = self.member_list(&mut structs, None);
            for s in &structs {
                self.unsupported("a struct declared inside a buffer block", s.name.span);
            }
            let instance = if self.at(TokenKind::Ident) {
                let tok = self.bump();
                Some(self.ident_of(tok))
            } else {
                None
            };
            if self.at(TokenKind::LBracket) {
                let span = self.peek().span;
                self.unsupported("an array of buffer blocks", span);
                self.skip_construct();
                return;
            }
            self.expect(TokenKind::Semi, "`;`");
            items.push(Item::GlslBuffer(GlslBufferBlock {
                layout,
                name,
                fields,
                instance,
                span: self.span_from(start),
            }));
            return;
        }
        let span = self.span_from(start);
        self.unsupported(
            "a `layout(...)` qualifier other than on a `buffer` block or `in;`",
            span,
        );
        self.skip_construct();
    }

    /// `(name, name = value, ...)` after `layout`.
    fn layout_qualifiers(&mut self) -> Vec<LayoutQualifier> {
        let open = self.pos;
        let mut out = Vec::new();
        self.bump();
        while self.at(TokenKind::Ident) {
            let start = self.peek().span;
            let tok = self.bump();
            let name = self.ident_of(tok);
            let value = self.eat(TokenKind::Eq).then(|| self.ternary_expr());
            out.push(LayoutQualifier {
                name,
                value,
                span: self.span_from(start),
            });
            if !self.eat(TokenKind::Comma) {
                break;
            }
        }
        self.expect_close(TokenKind::RParen, "`,` or `)`", open);
        out
    }
}
