//! Statements and blocks, and the statement-list loop that resynchronises
//! after errors.

use legalis_ir::Span;

use crate::{
    ast::{Attribute, Block, Stmt, StmtKind, StructDecl, SwitchCase},
    lexer::TokenKind,
};

use super::{Parser, SyncLevel, types::is_always_modifier};

impl Parser<'_> {
    /// `{ statements }` at the cursor (which must be at `{`).
    pub(super) fn block(&mut self) -> Block {
        let start = self.bump().span;
        let mut stmts = Vec::new();
        self.statement_list(&mut stmts, |_| false);
        if !self.eat(TokenKind::RBrace) {
            self.error_expected("`}`");
        }
        Block {
            stmts,
            span: self.span_from(start),
        }
    }

    /// Statements up to `}`, end of file, or a token `stop` accepts;
    /// resynchronises after each statement that had an error.
    pub(super) fn statement_list(&mut self, stmts: &mut Vec<Stmt>, stop: impl Fn(&Self) -> bool) {
        loop {
            self.resync(SyncLevel::Stmt);
            if matches!(self.kind(), TokenKind::RBrace | TokenKind::Eof) || stop(self) {
                return;
            }
            if self.at_function_definition() {
                // HLSL has no local functions: the enclosing body lacks its
                // `}`. End it here so the function is read as an item.
                self.error_expected("`}`");
                return;
            }
            let before = self.pos;
            self.block_item(stmts);
            if self.pos == before && !self.bailing {
                // Nothing consumed: the statement reported an error at this
                // token; step over it so the loop always moves.
                self.skip_junk();
            }
        }
    }

    /// One statement of a block. A `struct` declaration followed by
    /// declarators adds two statements, both in the block's scope.
    fn block_item(&mut self, stmts: &mut Vec<Stmt>) {
        if self.at_word("struct") {
            let start = self.peek().span;
            self.struct_stmts(Vec::new(), start, stmts);
        } else {
            let stmt = self.statement();
            stmts.push(stmt);
        }
    }

    pub(super) fn statement(&mut self) -> Stmt {
        let start = self.peek().span;
        if !self.enter() {
            return error_stmt(start);
        }
        let attributes = if self.at(TokenKind::LBracket) {
            self.attributes()
        } else {
            Vec::new()
        };
        let kind = self.statement_kind(&attributes, start);
        self.leave();
        Stmt {
            attributes,
            kind,
            span: self.span_from(start),
        }
    }

    fn statement_kind(&mut self, attributes: &[Attribute], start: Span) -> StmtKind {
        match self.kind() {
            TokenKind::LBrace => return StmtKind::Block(self.block()),
            TokenKind::Semi => {
                self.bump();
                return StmtKind::Empty;
            }
            TokenKind::Ident => {}
            _ => return self.expr_stmt(),
        }
        let word = self.nth_word(0).unwrap_or_default();
        match word {
            "if" => self.if_stmt(),
            "for" => self.for_stmt(),
            "while" => self.while_stmt(),
            "do" => self.do_while_stmt(),
            "switch" => self.switch_stmt(),
            "break" => self.keyword_stmt(StmtKind::Break),
            "continue" => self.keyword_stmt(StmtKind::Continue),
            "discard" => self.keyword_stmt(StmtKind::Discard),
            "return" => self.return_stmt(),
            "typedef" => StmtKind::TypeAlias(self.typedef()),
            "struct" => {
                let mut stmts = Vec::new();
                self.struct_stmts(attributes.to_vec(), start, &mut stmts);
                // Only a lone sub-statement (`if (c) struct S {} s;`) gets
                // here; its declarations share the statement's scope.
                match stmts.len() {
                    1 => stmts.pop().map_or(StmtKind::Error, |s| s.kind),
                    _ => StmtKind::Block(Block {
                        stmts,
                        span: self.span_from(start),
                    }),
                }
            }
            "else" | "case" | "default" => {
                self.error_expected("statement");
                StmtKind::Error
            }
            "let" | "var" if self.nth_kind(1) == TokenKind::Ident => {
                StmtKind::Var(self.slang_binding(attributes.to_vec(), start))
            }
            _ if self.at_declaration() => StmtKind::Var(self.var_decl(attributes.to_vec(), start)),
            _ => self.expr_stmt(),
        }
    }

    /// Whether a function definition starts here: attributes, a declaration
    /// head, a parameter list, then `{` or `:`.
    fn at_function_definition(&self) -> bool {
        let mut i = 0;
        while self.nth_kind(i) == TokenKind::LBracket {
            match self.matching_offset(i) {
                Some(close) => i = close + 1,
                None => return false,
            }
        }
        let Some(name) = self.scan_decl_name(i) else {
            return false;
        };
        if self.nth_kind(name + 1) != TokenKind::LParen {
            return false;
        }
        self.matching_offset(name + 1).is_some_and(|close| {
            matches!(
                self.nth_kind(close + 1),
                TokenKind::LBrace | TokenKind::Colon
            )
        })
    }

    /// Whether a local declaration starts here: a modifier, or a type
    /// followed by a name.
    pub(super) fn at_declaration(&self) -> bool {
        self.nth_word(0)
            .is_some_and(|word| is_always_modifier(word) || self.scan_decl_head(0))
    }

    fn expr_stmt(&mut self) -> StmtKind {
        let expr = self.expr();
        self.expect(TokenKind::Semi, "`;`");
        StmtKind::Expr(expr)
    }

    fn keyword_stmt(&mut self, kind: StmtKind) -> StmtKind {
        self.bump();
        self.expect(TokenKind::Semi, "`;`");
        kind
    }

    fn return_stmt(&mut self) -> StmtKind {
        self.bump();
        if self.eat(TokenKind::Semi) {
            return StmtKind::Return(None);
        }
        let value = self.expr();
        self.expect(TokenKind::Semi, "`;`");
        StmtKind::Return(Some(value))
    }

    /// `( expression )` after `if`, `while`, `switch`.
    fn paren_cond(&mut self) -> crate::ast::Expr {
        let open = self.pos;
        self.expect(TokenKind::LParen, "`(`");
        let cond = self.nested_expr();
        self.expect_close(TokenKind::RParen, "`)`", open);
        cond
    }

    fn if_stmt(&mut self) -> StmtKind {
        self.bump();
        if self.at(TokenKind::LParen) && self.nth_word(1) == Some("let") {
            return self.if_let_stmt();
        }
        let cond = self.paren_cond();
        let then = Box::new(self.statement());
        let els = self.eat_word("else").then(|| Box::new(self.statement()));
        StmtKind::If { cond, then, els }
    }

    /// `if (let name = value) stmt [else stmt]` (Slang), the cursor at `(`.
    fn if_let_stmt(&mut self) -> StmtKind {
        let open = self.pos;
        self.expect(TokenKind::LParen, "`(`");
        self.bump(); // `let`
        let name = self.ident("a name");
        self.expect(TokenKind::Eq, "`=`");
        let value = self.nested_expr();
        self.expect_close(TokenKind::RParen, "`)`", open);
        let then = Box::new(self.statement());
        let els = self.eat_word("else").then(|| Box::new(self.statement()));
        match name {
            Some(name) => StmtKind::IfLet {
                name,
                value,
                then,
                els,
            },
            None => StmtKind::Error,
        }
    }

    fn for_stmt(&mut self) -> StmtKind {
        self.bump();
        let open = self.pos;
        self.expect(TokenKind::LParen, "`(`");
        let init = if self.eat(TokenKind::Semi) {
            None
        } else {
            let start = self.peek().span;
            let slang_binding = matches!(self.nth_word(0), Some("let" | "var"))
                && self.nth_kind(1) == TokenKind::Ident;
            let kind = if slang_binding {
                StmtKind::Var(self.slang_binding(Vec::new(), start))
            } else if self.at_declaration() {
                StmtKind::Var(self.var_decl(Vec::new(), start))
            } else {
                self.expr_stmt()
            };
            Some(Box::new(Stmt {
                attributes: Vec::new(),
                kind,
                span: self.span_from(start),
            }))
        };
        let cond = (!self.at(TokenKind::Semi)).then(|| self.nested_expr());
        self.expect(TokenKind::Semi, "`;`");
        let update = (!self.at(TokenKind::RParen)).then(|| self.nested_expr());
        self.expect_close(TokenKind::RParen, "`)`", open);
        let body = Box::new(self.statement());
        StmtKind::For {
            init,
            cond: cond.map(Box::new),
            update: update.map(Box::new),
            body,
        }
    }

    fn while_stmt(&mut self) -> StmtKind {
        self.bump();
        let cond = self.paren_cond();
        let body = Box::new(self.statement());
        StmtKind::While { cond, body }
    }

    fn do_while_stmt(&mut self) -> StmtKind {
        self.bump();
        let body = Box::new(self.statement());
        if !self.eat_word("while") {
            self.error_expected("`while`");
        }
        let cond = self.paren_cond();
        self.expect(TokenKind::Semi, "`;`");
        StmtKind::DoWhile { body, cond }
    }

    fn switch_stmt(&mut self) -> StmtKind {
        self.bump();
        let selector = self.paren_cond();
        let mut cases = Vec::new();
        if !self.eat(TokenKind::LBrace) {
            self.error_expected("`{`");
            let label_at = |p: &Self, n| matches!(p.nth_word(n), Some("case" | "default"));
            if self.nth_kind(1) == TokenKind::LBrace || label_at(self, 1) {
                // One stray token before the body.
                self.skip_junk();
            }
            self.eat(TokenKind::LBrace);
            if !label_at(self, 0) {
                return StmtKind::Switch { selector, cases };
            }
            // The labels show the body is here, with or without its `{`.
        }
        self.switch_cases(&mut cases);
        if !self.eat(TokenKind::RBrace) {
            self.error_expected("`}`");
        }
        StmtKind::Switch { selector, cases }
    }

    fn switch_cases(&mut self, cases: &mut Vec<SwitchCase>) {
        let at_label = |p: &Self| p.at_word("case") || p.at_word("default");
        loop {
            self.resync(SyncLevel::Stmt);
            if matches!(self.kind(), TokenKind::RBrace | TokenKind::Eof) {
                return;
            }
            if !at_label(self) {
                // Code before the first label can never run: report it once
                // and skip to a label.
                self.error_expected("`case` or `default`");
                while !at_label(self) && !matches!(self.kind(), TokenKind::RBrace | TokenKind::Eof)
                {
                    if !self.skip_group() {
                        self.bump();
                    }
                }
                self.recovering = false;
                continue;
            }
            let start = self.peek().span;
            let mut labels = Vec::new();
            while at_label(self) {
                let is_case = self.at_word("case");
                self.bump();
                labels.push(is_case.then(|| self.ternary_expr()));
                self.expect(TokenKind::Colon, "`:`");
            }
            let mut body = Vec::new();
            self.statement_list(&mut body, at_label);
            cases.push(SwitchCase {
                labels,
                body,
                span: self.span_from(start),
            });
        }
    }

    /// A struct declared in a function body, with nested structs first and
    /// a variable declaration after it when declarators follow.
    fn struct_stmts(&mut self, attributes: Vec<Attribute>, start: Span, stmts: &mut Vec<Stmt>) {
        let mut structs: Vec<StructDecl> = Vec::new();
        let var = self.struct_decl(attributes, start, &mut structs);
        for decl in structs {
            let span = decl.span;
            stmts.push(Stmt {
                attributes: Vec::new(),
                kind: StmtKind::Struct(decl),
                span,
            });
        }
        if let Some(var) = var {
            let span = var.span;
            stmts.push(Stmt {
                attributes: Vec::new(),
                kind: StmtKind::Var(var),
                span,
            });
        }
    }
}

impl Parser<'_> {
    /// Slang's `let x = e;` (immutable) and `var x [: T] [= e];`. Without a
    /// type, the type is the initializer's: the declaration's type is the
    /// placeholder [`crate::ast::INFERRED_TYPE`].
    fn slang_binding(&mut self, attributes: Vec<Attribute>, start: Span) -> crate::ast::VarDecl {
        let keyword = self.bump();
        let is_let = self.token_text(keyword) == "let";
        let name = self.ident("name").unwrap_or_else(|| self.missing_ident());
        let ty = if self.eat(TokenKind::Colon) {
            self.type_expr()
        } else {
            crate::ast::TypeExpr {
                name: crate::ast::INFERRED_TYPE.to_string(),
                args: Vec::new(),
                modifiers: Vec::new(),
                span: keyword.span,
            }
        };
        let mut declarator = self.declarator_rest(name);
        if declarator.init.is_none() && self.eat(TokenKind::Eq) {
            declarator.init = Some(self.initializer());
        }
        self.expect(TokenKind::Semi, "`;`");
        let modifiers = if is_let {
            vec![crate::ast::Modifier {
                kind: crate::ast::ModifierKind::Const,
                span: keyword.span,
            }]
        } else {
            Vec::new()
        };
        crate::ast::VarDecl {
            attributes,
            modifiers,
            ty,
            declarators: vec![declarator],
            span: self.span_from(start),
        }
    }
}

fn error_stmt(at: Span) -> Stmt {
    Stmt {
        attributes: Vec::new(),
        kind: StmtKind::Error,
        span: Span::new(at.start, at.start),
    }
}
