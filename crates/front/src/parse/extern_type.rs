//! `extern struct X : IFoo = Default;`: a type a linked module may
//! supply, with the default used when none does. Legalis reads one
//! module, so the default is the type: the declaration is
//! `typealias X = Default;`, and the conformances after `:` are checked on
//! the default as an `extension Default : IFoo {}` would check them.

use legalis_ir::Span;

use crate::{
    ast::{Attribute, Ident, Item, StructDecl, TypeAlias},
    lexer::TokenKind,
};

use super::Parser;

impl Parser<'_> {
    /// Whether the cursor is at `extern struct Name`.
    pub(super) fn at_extern_struct(&self) -> bool {
        self.at_word("extern")
            && self.nth_word(1) == Some("struct")
            && self.nth_kind(2) == TokenKind::Ident
    }

    /// `extern struct Name [: I, J] = Default;` (see the module comment).
    pub(super) fn extern_struct(
        &mut self,
        attributes: Vec<Attribute>,
        start: Span,
        items: &mut Vec<Item>,
    ) {
        if let Some(a) = attributes.first() {
            self.unsupported("an attribute on an `extern struct`", a.span);
        }
        self.bump();
        self.bump();
        let Some(name) = self.ident("struct name") else {
            return;
        };
        self.declare_type_name();
        let mut conformances = Vec::new();
        if self.eat(TokenKind::Colon) {
            loop {
                conformances.push(self.type_expr());
                if !self.eat(TokenKind::Comma) {
                    break;
                }
            }
        }
        if !self.eat(TokenKind::Eq) {
            let span = self.span_from(start);
            self.unsupported(
                "an `extern struct` without a default type (`= Type`), which another module would supply,",
                span,
            );
            self.skip_construct();
            return;
        }
        let ty = self.type_expr();
        self.expect(TokenKind::Semi, "`;`");
        let span = self.span_from(start);
        if !conformances.is_empty() {
            if ty.args.is_empty() {
                items.push(Item::Extension(StructDecl {
                    attributes: Vec::new(),
                    name: Ident {
                        name: ty.name.clone(),
                        span: ty.span,
                    },
                    fields: Vec::new(),
                    methods: Vec::new(),
                    conformances,
                    generics: Vec::new(),
                    aliases: Vec::new(),
                    span,
                }));
            } else {
                self.unsupported(
                    "the conformances of an `extern struct` whose default is a generic type",
                    conformances[0].span,
                );
            }
        }
        items.push(Item::TypeAlias(TypeAlias {
            name,
            ty,
            array_dims: Vec::new(),
            span,
        }));
    }
}
