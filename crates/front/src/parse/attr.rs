//! Attributes: `[name]`, `[name(args)]`, `[ns::name(args)]` and the
//! double-bracket form `[[vk::binding(0, 1)]]` (or `[[vk_binding(0, 1)]]`,
//! the same attribute), on items, parameters and statements. They are kept generic (a name and argument expressions); the
//! checker gives them meaning.

use crate::{ast::Attribute, lexer::TokenKind};

use super::Parser;

impl Parser<'_> {
    /// Every attribute list at the cursor, in order.
    pub(super) fn attributes(&mut self) -> Vec<Attribute> {
        let mut attributes = Vec::new();
        while self.at(TokenKind::LBracket) {
            let double = self.nth_kind(1) == TokenKind::LBracket;
            let outer = self.pos;
            self.bump();
            if double {
                self.bump();
            }
            while let Some(attribute) = self.attribute() {
                attributes.push(attribute);
                if !self.eat(TokenKind::Comma) {
                    break;
                }
            }
            let inner = if double { outer + 1 } else { outer };
            self.expect_close(TokenKind::RBracket, "`]`", inner);
            if double {
                self.expect_close(TokenKind::RBracket, "`]`", outer);
            }
        }
        attributes
    }

    fn attribute(&mut self) -> Option<Attribute> {
        let start = self.peek().span;
        let first = self.ident("attribute name")?;
        let mut name = first.name;
        while self.at(TokenKind::ColonColon) && self.nth_kind(1) == TokenKind::Ident {
            self.bump();
            let part = self.bump();
            name.push_str("::");
            name.push_str(self.token_text(part));
        }
        // `vk_binding` is the reference's own spelling of `vk::binding`
        // (it reads every `vk::X` as `vk_X`): one name for both.
        if let Some(rest) = name.strip_prefix("vk_")
            && !rest.is_empty()
        {
            name = format!("vk::{rest}");
        }
        let args = if self.at(TokenKind::LParen) {
            self.call_args()
        } else {
            Vec::new()
        };
        Some(Attribute {
            name,
            args,
            span: self.span_from(start),
        })
    }
}
