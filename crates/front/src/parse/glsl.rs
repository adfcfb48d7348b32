//! GLSL declarations at module scope, read for `-allow-glsl` (the checker
//! rejects them without the option): `layout(...)` qualifier lists,
//! storage blocks (`buffer Name { fields } instance;`) and
//! `layout(...) in;`; and `layout(...)` before any other declaration, which
//! Slang reads without the option, as the `vk::` attributes it stands for.

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
        // `layout(binding = 1, set = 2) Texture2D t;`: the qualifiers Slang
        // reads on any declaration, as the attributes that mean the same.
        let mut attributes = attributes;
        attributes.extend(self.layout_attributes(layout));
        self.decl_or_function(attributes, start, items);
    }

    /// The attributes `layout(...)` qualifiers on a declaration stand for:
    /// `binding = N` (with `set = M`) is `[[vk::binding(N, M)]]`,
    /// `location = N` `[[vk::location(N)]]`, `push_constant`,
    /// `shaderRecordNV` and `shaderRecordEXT` the `vk::` attributes of those
    /// names; any other qualifier is unsupported.
    fn layout_attributes(&mut self, layout: Vec<LayoutQualifier>) -> Vec<Attribute> {
        let mut out = Vec::new();
        let mut binding: Option<LayoutQualifier> = None;
        let mut set: Option<LayoutQualifier> = None;
        for q in layout {
            let attribute = |name: &str, q: LayoutQualifier| Attribute {
                name: name.to_string(),
                args: q.value.into_iter().collect(),
                span: q.span,
            };
            match (q.name.name.as_str(), q.value.is_some()) {
                ("binding", true) => binding = Some(q),
                ("set", true) => set = Some(q),
                ("location", true) => out.push(attribute("vk::location", q)),
                ("push_constant", false) => out.push(attribute("vk::push_constant", q)),
                ("shaderRecordNV", false) => out.push(attribute("vk::shader_record_nv", q)),
                ("shaderRecordEXT", false) => out.push(attribute("vk::shader_record_ext", q)),
                _ => {
                    let what = format!("the layout qualifier `{}` on a declaration", q.name.name);
                    self.unsupported(&what, q.span);
                }
            }
        }
        match (binding, set) {
            (Some(b), set) => {
                let span = b.span;
                let mut args: Vec<_> = b.value.into_iter().collect();
                args.extend(set.and_then(|s| s.value));
                out.push(Attribute {
                    name: "vk::binding".to_string(),
                    args,
                    span,
                });
            }
            (None, Some(s)) => {
                self.unsupported("`layout(set = N)` without `binding = N`", s.span);
            }
            (None, None) => {}
        }
        out
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
