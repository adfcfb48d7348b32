//! Top-level items: structs, functions, global variables, `cbuffer` and
//! `tbuffer` blocks, enums and type aliases, and the Slang constructs that
//! are recognised only to be rejected with `E20003`.

use legalis_ir::Span;

use crate::{
    ast::{
        Attribute, BufferBlock, EnumDecl, FunctionDecl, Ident, Item, Modifier, Param, SourceFile,
        StructDecl, TypeAlias, TypeExpr, VarDecl,
    },
    lexer::TokenKind,
};

use super::{Parser, SyncLevel};

/// Item keywords of Slang that Legalis does not support, with how the
/// diagnostic names them.
pub(super) fn unsupported_item_keyword(word: &str) -> Option<&'static str> {
    let what = match word {
        "interface" => "`interface` declaration",
        "extension" => "`extension` declaration",
        "__generic" => "`__generic` declaration",
        "import" => "`import` declaration",
        "__include" => "`__include` declaration",
        "implementing" => "`implementing` declaration",
        "namespace" => "`namespace` declaration",
        _ => return None,
    };
    Some(what)
}

impl Parser<'_> {
    pub(super) fn source_file(&mut self) -> SourceFile {
        let mut items = Vec::new();
        loop {
            self.resync(SyncLevel::Item);
            match self.kind() {
                TokenKind::Eof => break,
                TokenKind::Semi => {
                    // Slang and DXC accept stray `;` between items.
                    self.bump();
                    continue;
                }
                _ => {}
            }
            let start = self.pos;
            self.item(&mut items);
            if self.bailing {
                self.skip_bailed_item(start);
            } else if self.pos == start {
                self.bump();
            }
        }
        SourceFile { items }
    }

    fn item(&mut self, items: &mut Vec<Item>) {
        let start = self.peek().span;
        let attributes = self.attributes();
        let Some(word) = self.nth_word(0) else {
            self.error_expected("declaration");
            return;
        };
        if let Some(what) = unsupported_item_keyword(word) {
            let span = self.peek().span;
            self.unsupported(what, span);
            self.skip_construct();
            return;
        }
        match word {
            "struct" => {
                let mut structs = Vec::new();
                let var = self.struct_decl(attributes, start, &mut structs);
                items.extend(structs.into_iter().map(Item::Struct));
                items.extend(var.map(Item::Var));
            }
            "cbuffer" | "tbuffer" => {
                let mut structs = Vec::new();
                let buffer = self.buffer_block(attributes, start, &mut structs);
                items.extend(structs.into_iter().map(Item::Struct));
                items.extend(buffer.map(Item::Buffer));
            }
            "typedef" => items.push(Item::TypeAlias(self.typedef())),
            "typealias" => items.push(Item::TypeAlias(self.typealias())),
            "enum" => items.extend(self.enum_decl().map(Item::Enum)),
            _ => self.decl_or_function(attributes, start, items),
        }
    }

    /// A global variable or a function: both start `modifiers type name`.
    fn decl_or_function(&mut self, attributes: Vec<Attribute>, start: Span, items: &mut Vec<Item>) {
        let (modifiers, ty) = self.decl_head();
        if ty.name.is_empty() {
            return;
        }
        let Some(name) = self.ident("name") else {
            return;
        };
        if self.at(TokenKind::Lt) {
            self.unsupported("generic function", name.span);
            self.skip_construct();
            return;
        }
        if self.at(TokenKind::LParen) {
            let function = self.function(attributes, modifiers, ty, name, start);
            items.push(Item::Function(function));
        } else {
            let var = self.var_decl_rest(attributes, modifiers, ty, name, start);
            items.push(Item::Var(var));
        }
    }

    fn function(
        &mut self,
        attributes: Vec<Attribute>,
        modifiers: Vec<Modifier>,
        return_type: TypeExpr,
        name: Ident,
        start: Span,
    ) -> FunctionDecl {
        let params = self.params();
        let return_annotations = self.annotations();
        let body = if self.at(TokenKind::LBrace) {
            Some(self.block())
        } else {
            if !self.eat(TokenKind::Semi) {
                self.error_expected("`{` or `;`");
            }
            None
        };
        FunctionDecl {
            attributes,
            modifiers,
            return_type,
            name,
            params,
            return_annotations,
            body,
            span: self.span_from(start),
        }
    }

    /// `( params )` at the cursor; `(void)` is an empty list.
    fn params(&mut self) -> Vec<Param> {
        self.bump();
        let mut params = Vec::new();
        if self.eat(TokenKind::RParen) {
            return params;
        }
        if self.at_word("void") && self.nth_kind(1) == TokenKind::RParen {
            self.bump();
            self.bump();
            return params;
        }
        loop {
            params.push(self.param());
            if self.eat(TokenKind::Comma) {
                continue;
            }
            if !self.eat(TokenKind::RParen) {
                self.error_expected("`,` or `)`");
                // The closing `)` resynchronises: the body is still read.
                if self.skip_to_close(TokenKind::LParen, TokenKind::RParen) {
                    self.recovering = false;
                }
            }
            return params;
        }
    }

    fn param(&mut self) -> Param {
        let start = self.peek().span;
        let attributes = self.attributes();
        let (modifiers, ty) = self.decl_head();
        let name = if matches!(self.kind(), TokenKind::Comma | TokenKind::RParen) {
            // Unnamed, as in a prototype `float f(float);`.
            self.missing_ident()
        } else {
            self.ident("parameter name")
                .unwrap_or_else(|| self.missing_ident())
        };
        let declarator = self.declarator_rest(name);
        Param {
            attributes,
            modifiers,
            ty,
            declarator,
            span: self.span_from(start),
        }
    }

    /// `struct Name { members }` at the cursor. The struct and any nested
    /// ones go to `structs`, innermost first; a variable declared after the
    /// closing brace (`struct S { ... } s;`) is returned.
    pub(super) fn struct_decl(
        &mut self,
        attributes: Vec<Attribute>,
        start: Span,
        structs: &mut Vec<StructDecl>,
    ) -> Option<VarDecl> {
        self.bump();
        let name = self.ident("struct name")?;
        self.declare_type_name();
        if self.at(TokenKind::Lt) {
            self.unsupported("generic struct", name.span);
            self.skip_construct();
            return None;
        }
        if self.at(TokenKind::Colon) {
            let span = self.peek().span;
            self.unsupported("struct inheritance", span);
            while !matches!(
                self.kind(),
                TokenKind::LBrace | TokenKind::Semi | TokenKind::RBrace | TokenKind::Eof
            ) {
                self.bump();
            }
        }
        if self.eat(TokenKind::Semi) {
            // A forward declaration only declares the name.
            return None;
        }
        if !self.at(TokenKind::LBrace) {
            self.error_expected("`{`");
            return None;
        }
        let fields = self.member_list(structs);
        let span = self.span_from(start);
        let ty = TypeExpr {
            name: name.name.clone(),
            args: Vec::new(),
            modifiers: Vec::new(),
            span: name.span,
        };
        structs.push(StructDecl { name, fields, span });
        let declares_var = self.at(TokenKind::Ident)
            && matches!(
                self.nth_kind(1),
                TokenKind::Semi
                    | TokenKind::Comma
                    | TokenKind::Eq
                    | TokenKind::LBracket
                    | TokenKind::Colon
            );
        if !declares_var {
            self.eat(TokenKind::Semi);
            return None;
        }
        let var_name = self.ident("name")?;
        Some(self.var_decl_rest(attributes, Vec::new(), ty, var_name, start))
    }

    /// Records the identifier just consumed as a type name.
    fn declare_type_name(&mut self) {
        let name = self.token_text(self.prev);
        self.type_names.insert(name);
    }

    /// `{ fields }` of a struct or buffer; nested structs go to `structs`.
    fn member_list(&mut self, structs: &mut Vec<StructDecl>) -> Vec<VarDecl> {
        self.bump();
        let mut fields = Vec::new();
        loop {
            self.resync(SyncLevel::Stmt);
            match self.kind() {
                TokenKind::RBrace | TokenKind::Eof => break,
                TokenKind::Semi => {
                    self.bump();
                    continue;
                }
                _ => {}
            }
            let before = self.pos;
            self.member(&mut fields, structs);
            if self.pos == before && !self.bailing {
                self.bump();
            }
        }
        if !self.eat(TokenKind::RBrace) {
            self.error_expected("`}`");
        }
        fields
    }

    fn member(&mut self, fields: &mut Vec<VarDecl>, structs: &mut Vec<StructDecl>) {
        let start = self.peek().span;
        let attributes = self.attributes();
        match self.nth_word(0) {
            Some("struct") => {
                fields.extend(self.struct_decl(attributes, start, structs));
                return;
            }
            Some(word @ ("__init" | "property" | "__subscript" | "typedef" | "typealias")) => {
                let what = match word {
                    "__init" => "struct constructor (`__init`)",
                    "property" => "`property` member",
                    "__subscript" => "`__subscript` member",
                    _ => "type alias in a struct",
                };
                let span = self.peek().span;
                self.unsupported(what, span);
                self.skip_construct();
                return;
            }
            _ => {}
        }
        let (modifiers, ty) = self.decl_head();
        if ty.name.is_empty() {
            return;
        }
        let Some(name) = self.ident("field name") else {
            return;
        };
        if matches!(self.kind(), TokenKind::LParen | TokenKind::Lt) {
            self.unsupported("member function", name.span);
            self.skip_construct();
            return;
        }
        fields.push(self.var_decl_rest(attributes, modifiers, ty, name, start));
    }

    /// `cbuffer Name : register(b0) { fields }` (or `tbuffer`).
    fn buffer_block(
        &mut self,
        attributes: Vec<Attribute>,
        start: Span,
        structs: &mut Vec<StructDecl>,
    ) -> Option<BufferBlock> {
        let keyword = self.bump();
        let is_tbuffer = self.token_text(keyword) == "tbuffer";
        let name = self.ident("buffer name")?;
        let annotations = self.annotations();
        if !self.at(TokenKind::LBrace) {
            self.error_expected("`{`");
            return None;
        }
        let fields = self.member_list(structs);
        Some(BufferBlock {
            attributes,
            is_tbuffer,
            name,
            annotations,
            fields,
            span: self.span_from(start),
        })
    }

    /// `enum [class] Name [: type] { A, B = 3, C }`.
    fn enum_decl(&mut self) -> Option<EnumDecl> {
        let start = self.bump().span;
        let scoped = self.eat_word("class") || self.eat_word("struct");
        let name = self.ident("enum name")?;
        self.declare_type_name();
        let base = self.eat(TokenKind::Colon).then(|| self.type_expr());
        if !self.at(TokenKind::LBrace) {
            self.error_expected("`{`");
            return None;
        }
        self.bump();
        let mut members = Vec::new();
        while !matches!(self.kind(), TokenKind::RBrace | TokenKind::Eof) {
            let Some(member) = self.ident("enumerator name") else {
                break;
            };
            let value = self.eat(TokenKind::Eq).then(|| self.ternary_expr());
            members.push((member, value));
            if !self.eat(TokenKind::Comma) {
                break;
            }
        }
        if !self.eat(TokenKind::RBrace) {
            self.error_expected("`,` or `}`");
        }
        Some(EnumDecl {
            name,
            scoped,
            base,
            members,
            span: self.span_from(start),
        })
    }

    /// `typedef type Name[dims];`
    pub(super) fn typedef(&mut self) -> TypeAlias {
        let start = self.bump().span;
        let ty = self.type_expr();
        let name = self.alias_name();
        let array_dims = self.array_dims();
        self.expect(TokenKind::Semi, "`;`");
        TypeAlias {
            name,
            ty,
            array_dims,
            span: self.span_from(start),
        }
    }

    /// `typealias Name = type;`
    fn typealias(&mut self) -> TypeAlias {
        let start = self.bump().span;
        let name = self.alias_name();
        self.expect(TokenKind::Eq, "`=`");
        let ty = self.type_expr();
        let array_dims = self.array_dims();
        self.expect(TokenKind::Semi, "`;`");
        TypeAlias {
            name,
            ty,
            array_dims,
            span: self.span_from(start),
        }
    }

    fn alias_name(&mut self) -> Ident {
        match self.ident("type name") {
            Some(name) => {
                self.declare_type_name();
                name
            }
            None => self.missing_ident(),
        }
    }
}
