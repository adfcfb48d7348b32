//! Top-level items: structs, functions, global variables, `cbuffer` and
//! `tbuffer` blocks, enums and type aliases, and the Slang constructs that
//! are recognised only to be rejected with `E20003`.

use legalis_ir::Span;

use crate::{
    ast::{
        Attribute, Block, BufferBlock, EnumDecl, FunctionDecl, GenericParam, GenericParamKind,
        Ident, InterfaceDecl, Item, Modifier, ModifierKind, NamespaceDecl, Param, SourceFile,
        StructDecl, TypeAlias, TypeExpr, VarDecl,
    },
    codes,
    lexer::TokenKind,
};

use super::{Parser, SyncLevel};

/// Keywords that start an item but never a struct or buffer member.
fn ends_member_list(word: &str) -> bool {
    matches!(
        word,
        "cbuffer" | "tbuffer" | "enum" | "interface" | "extension"
    ) || unsupported_item_keyword(word).is_some()
}

/// Item keywords of Slang that Legalis does not support, with how the
/// diagnostic names them.
pub(super) fn unsupported_item_keyword(word: &str) -> Option<&'static str> {
    let what = match word {
        "import" => "`import` declaration",
        "__include" => "`__include` declaration",
        "implementing" => "`implementing` declaration",
        _ => return None,
    };
    Some(what)
}

impl<'a> Parser<'a> {
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
                TokenKind::LBrace | TokenKind::RBrace => {
                    self.stray_brace();
                    continue;
                }
                _ => {}
            }
            let start = self.pos;
            self.item(&mut items);
            if self.bailing {
                self.skip_bailed_item(start);
            } else if self.pos == start {
                self.skip_junk();
            }
        }
        SourceFile { items }
    }

    /// `namespace N { items }`.
    fn namespace_decl(&mut self, start: Span) -> Option<NamespaceDecl> {
        self.bump();
        let name = self.ident("namespace name")?;
        if !self.eat(TokenKind::LBrace) {
            self.error_expected("`{`");
            return None;
        }
        if !self.enter() {
            return None;
        }
        let mut items = Vec::new();
        loop {
            match self.kind() {
                TokenKind::Eof => {
                    self.error_expected("`}`");
                    break;
                }
                TokenKind::RBrace => {
                    self.bump();
                    break;
                }
                TokenKind::Semi => {
                    self.bump();
                    continue;
                }
                _ => {}
            }
            let before = self.pos;
            self.item(&mut items);
            if self.bailing {
                break;
            }
            if self.pos == before {
                self.skip_junk();
            }
            self.resync(SyncLevel::Stmt);
        }
        self.leave();
        Some(NamespaceDecl {
            name,
            items,
            span: self.span_from(start),
        })
    }

    /// A brace between items: reported, unless an earlier error explains
    /// it (a broken item whose braces came apart), and skipped with its
    /// group; what follows a lone brace is skipped up to the next item.
    fn stray_brace(&mut self) {
        if self.diagnostics.is_empty() {
            self.error_expected("declaration");
        }
        self.recovering = true;
        if !self.skip_group() {
            self.skip_junk();
        }
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
        if word == "__generic" {
            self.generic_prefix(items);
            return;
        }
        if self.at_extern_struct() {
            self.extern_struct(attributes, start, items);
            return;
        }
        if self.at_glsl_item() {
            self.glsl_item(attributes, start, items);
            return;
        }
        if self.at_func() {
            items.extend(self.func_decl(attributes, start).map(Item::Function));
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
            "namespace" => items.extend(self.namespace_decl(start).map(Item::Namespace)),
            "typedef" => items.push(Item::TypeAlias(self.typedef())),
            "typealias" => items.push(Item::TypeAlias(self.typealias())),
            "enum" => items.extend(self.enum_decl().map(Item::Enum)),
            "extension" => {
                items.extend(self.extension_decl(attributes, start).map(Item::Extension))
            }
            "interface" => {
                items.extend(self.interface_decl(attributes, start).map(Item::Interface))
            }
            _ => self.decl_or_function(attributes, start, items),
        }
    }

    /// A global variable or a function: both start `modifiers type name`.
    pub(super) fn decl_or_function(
        &mut self,
        attributes: Vec<Attribute>,
        start: Span,
        items: &mut Vec<Item>,
    ) {
        let (modifiers, ty) = self.decl_head();
        if ty.name.is_empty() {
            return;
        }
        let Some(name) = self.ident("name") else {
            return;
        };
        if self.at(TokenKind::Lt) {
            let name_text = self.token_text(self.prev);
            let Some((generics, added)) = self.generic_params() else {
                self.skip_construct();
                return;
            };
            // A generic function's name reads explicit arguments after it
            // (`f<float, 3>(x)`), as a generic type's does.
            self.type_names.insert(name_text);
            if !self.at(TokenKind::LParen) {
                self.error_expected("`(`");
                self.forget_type_names(added);
                return;
            }
            let function = self.function(attributes, modifiers, ty, name, generics, start);
            self.forget_type_names(added);
            items.push(Item::Function(function));
            return;
        }
        if self.at(TokenKind::LParen) {
            let function = self.function(attributes, modifiers, ty, name, Vec::new(), start);
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
        mut generics: Vec<GenericParam>,
        start: Span,
    ) -> FunctionDecl {
        let params = self.params();
        self.where_clauses(&mut generics);
        let return_annotations = self.annotations();
        self.where_clauses(&mut generics);
        let body = if self.at(TokenKind::LBrace) {
            Some(self.block())
        } else if self.eat(TokenKind::Semi) {
            None
        } else {
            self.error_expected("`{` or `;`");
            self.body_without_brace()
        };
        FunctionDecl {
            attributes,
            modifiers,
            return_type,
            name,
            generics,
            params,
            return_annotations,
            body,
            span: self.span_from(start),
        }
    }

    /// After a complete function head, statements without the `{`: read
    /// them as the body (up to a `}`), so they are not taken for items.
    fn body_without_brace(&mut self) -> Option<Block> {
        let starts_statement = self.at_declaration()
            || self
                .nth_word(0)
                .is_some_and(|w| matches!(w, "return" | "if" | "for" | "while" | "do" | "switch"));
        if !starts_statement {
            return None;
        }
        let start = self.peek().span;
        let mut stmts = Vec::new();
        self.statement_list(&mut stmts, |_| false);
        self.eat(TokenKind::RBrace);
        Some(Block {
            stmts,
            span: self.span_from(start),
        })
    }

    /// `( params )` at the cursor; `(void)` is an empty list.
    fn params(&mut self) -> Vec<Param> {
        let open = self.pos;
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
            // The closing `)` resynchronises a broken list: the body is
            // still read.
            if !self.param_list_continues(open) {
                return params;
            }
        }
    }

    pub(super) fn param(&mut self) -> Param {
        let start = self.peek().span;
        let attributes = self.attributes();
        // `constexpr`: a parameter whose argument must be a compile-time
        // constant (Slang); the checker specialises the function per
        // constant (`check/constexpr.rs`).
        let constexpr = self
            .at_word("constexpr")
            .then(|| self.bump().span)
            .map(|span| Modifier {
                kind: ModifierKind::ConstExpr,
                span,
            });
        let (mut modifiers, ty) = self.decl_head();
        modifiers.extend(constexpr);
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
        let keyword = self.bump();
        if self.at(TokenKind::LBrace) {
            // `struct { ... } field;`: an anonymous struct gets a name no
            // user can write (`__` is reserved), unique by position.
            let name = Ident {
                name: format!("__anonymous_struct_{}", self.pos),
                span: keyword.span,
            };
            return self.struct_body(name, attributes, start, structs);
        }
        let Some(name) = self.ident("struct name") else {
            // Read the body anyway, so that its fields are not taken for
            // items; without a name it declares nothing.
            if self.at(TokenKind::LBrace) {
                self.member_list(&mut Vec::new(), None);
            }
            return None;
        };
        self.declare_type_name();
        let (mut generics, added) = if self.at(TokenKind::Lt) {
            let Some(found) = self.generic_params() else {
                self.skip_construct();
                return None;
            };
            found
        } else {
            (Vec::new(), Vec::new())
        };
        let var = self.struct_rest(name, attributes, start, &mut generics, structs);
        self.forget_type_names(added);
        var
    }

    /// A struct after its name and generic parameters: conformances,
    /// `where` clauses and the body.
    fn struct_rest(
        &mut self,
        name: Ident,
        attributes: Vec<Attribute>,
        start: Span,
        generics: &mut Vec<GenericParam>,
        structs: &mut Vec<StructDecl>,
    ) -> Option<VarDecl> {
        let conformances = self.conformance_list()?;
        self.where_clauses(generics);
        if self.eat(TokenKind::Semi) {
            // A forward declaration only declares the name.
            return None;
        }
        if !self.at(TokenKind::LBrace) {
            self.error_expected("`{`");
            return None;
        }
        let var = self.struct_body(name, attributes, start, structs);
        if let Some(last) = structs.last_mut() {
            last.conformances = conformances;
            last.generics = std::mem::take(generics);
        }
        var
    }

    /// `<T, U : IFoo, let N : int, int M>` at the cursor, through the `>`.
    /// The type parameters' names are made type names (so the body reads
    /// `T x;` as a declaration) and returned, to be forgotten once the
    /// declaration ends; `None` after a malformed list.
    fn generic_params(&mut self) -> Option<(Vec<GenericParam>, Vec<&'a str>)> {
        self.bump();
        let mut params = Vec::new();
        let mut added = Vec::new();
        if self.at(TokenKind::Gt) {
            self.error_expected("a generic parameter");
            return None;
        }
        loop {
            let start = self.peek().span;
            let kind = if self.eat_word("let") {
                let Some(name) = self.ident("generic parameter name") else {
                    self.forget_type_names(added);
                    return None;
                };
                if !self.expect(TokenKind::Colon, "`:` and the parameter's type") {
                    self.forget_type_names(added);
                    return None;
                }
                let ty = self.type_expr();
                (name, GenericParamKind::Value { ty })
            } else if self.at(TokenKind::Ident) && self.nth_kind(1) == TokenKind::Ident {
                // `int N`: a value parameter with its type first.
                let ty = self.type_expr();
                let Some(name) = self.ident("generic parameter name") else {
                    self.forget_type_names(added);
                    return None;
                };
                (name, GenericParamKind::Value { ty })
            } else {
                let Some(name) = self.ident("generic parameter name") else {
                    self.forget_type_names(added);
                    return None;
                };
                let text = self.token_text(self.prev);
                if self.type_names.insert(text) {
                    added.push(text);
                }
                let mut constraints = Vec::new();
                if self.eat(TokenKind::Colon) {
                    constraints.push(self.type_expr());
                }
                (name, GenericParamKind::Type { constraints })
            };
            if self.at(TokenKind::Eq) {
                let span = self.peek().span;
                self.unsupported("a default generic argument", span);
                self.forget_type_names(added);
                return None;
            }
            params.push(GenericParam {
                name: kind.0,
                kind: kind.1,
                span: self.span_from(start),
            });
            if self.eat(TokenKind::Comma) {
                continue;
            }
            if self.eat(TokenKind::Gt) {
                return Some((params, added));
            }
            self.error_expected("`,` or `>`");
            self.forget_type_names(added);
            return None;
        }
    }

    /// `__generic<T : IFoo, let N : int>` before a struct or a function:
    /// the parameters are the next item's, as if written after its name.
    fn generic_prefix(&mut self, items: &mut Vec<Item>) {
        let keyword = self.bump();
        if !self.at(TokenKind::Lt) {
            self.error_expected("`<`");
            self.skip_construct();
            return;
        }
        let Some((generics, added)) = self.generic_params() else {
            self.skip_construct();
            return;
        };
        let mut inner = Vec::new();
        let outer = self.prefix_where.replace(Vec::new());
        self.item(&mut inner);
        let clauses = std::mem::replace(&mut self.prefix_where, outer).unwrap_or_default();
        self.forget_type_names(added);
        let mut generics = generics;
        for (name, constraint) in clauses {
            self.add_constraint(&mut generics, name, constraint);
        }
        let target = inner.iter_mut().rev().find_map(|item| match item {
            Item::Struct(s) => Some(&mut s.generics),
            Item::Function(f) => Some(&mut f.generics),
            _ => None,
        });
        match target {
            Some(target) if target.is_empty() => *target = generics,
            _ if self.diagnostics.is_empty() => self.error(
                codes::PARSE_EXPECTED,
                "`__generic<...>` must come before a struct or a function that has no \
                 generic parameters of its own"
                    .to_string(),
                keyword.span,
            ),
            _ => {}
        }
        items.extend(inner);
    }

    /// `where T : IFoo` clauses (any number): each adds a constraint to a
    /// type parameter of `generics`.
    fn where_clauses(&mut self, generics: &mut [GenericParam]) {
        while self.at_word("where") && self.nth_kind(1) == TokenKind::Ident {
            self.bump();
            let Some(name) = self.ident("generic parameter name") else {
                return;
            };
            if !self.expect(TokenKind::Colon, "`:`") {
                return;
            }
            let constraint = self.type_expr();
            match &mut self.prefix_where {
                // The prefix's parameters, known once the item is read.
                Some(clauses) if generics.is_empty() => clauses.push((name, constraint)),
                _ => self.add_constraint(generics, name, constraint),
            }
        }
    }

    /// Adds a `where` clause's constraint to the type parameter it names.
    fn add_constraint(&mut self, generics: &mut [GenericParam], name: Ident, constraint: TypeExpr) {
        let param = generics.iter_mut().find(|g| g.name.name == name.name);
        match param.map(|p| &mut p.kind) {
            Some(GenericParamKind::Type { constraints }) => constraints.push(constraint),
            _ => self.error(
                codes::PARSE_EXPECTED,
                format!(
                    "`where {}`: `{}` is not a type parameter of this declaration",
                    name.name, name.name
                ),
                name.span,
            ),
        }
    }

    /// Removes type names [`Parser::generic_params`] added, once the
    /// declaration they belong to ends.
    fn forget_type_names(&mut self, added: Vec<&'a str>) {
        for name in added {
            self.type_names.remove(name);
        }
    }

    /// `: IFoo, IBar` after a struct or interface name (none without `:`);
    /// the checker decides whether each names an interface.
    fn conformance_list(&mut self) -> Option<Vec<TypeExpr>> {
        let mut list = Vec::new();
        if !self.eat(TokenKind::Colon) {
            return Some(list);
        }
        loop {
            let name = self.ident("interface name")?;
            list.push(TypeExpr {
                name: name.name,
                args: Vec::new(),
                modifiers: Vec::new(),
                span: name.span,
            });
            if self.at(TokenKind::Lt) {
                let span = self.peek().span;
                self.unsupported("a generic interface as a base", span);
                self.skip_construct();
                return None;
            }
            if !self.eat(TokenKind::Comma) {
                return Some(list);
            }
        }
    }

    /// `interface IFoo : IBase { requirements }`: method prototypes only.
    fn interface_decl(&mut self, attributes: Vec<Attribute>, start: Span) -> Option<InterfaceDecl> {
        self.bump();
        let name = self.ident("interface name")?;
        self.declare_type_name();
        if self.at(TokenKind::Lt) {
            self.unsupported("generic interface", name.span);
            self.skip_construct();
            return None;
        }
        let bases = self.conformance_list()?;
        if !self.at(TokenKind::LBrace) {
            self.error_expected("`{`");
            return None;
        }
        let mut methods = Vec::new();
        let mut structs = Vec::new();
        let fields = self.member_list(&mut structs, Some(&mut methods));
        for field in &fields {
            self.unsupported(
                "a field in an interface (it declares methods only)",
                field.span,
            );
        }
        for nested in &structs {
            self.unsupported("a struct declared in an interface", nested.name.span);
        }
        for method in &methods {
            if let Some(body) = &method.body {
                self.unsupported(
                    "a method body in an interface (a default implementation)",
                    body.span,
                );
            }
        }
        self.eat(TokenKind::Semi);
        Some(InterfaceDecl {
            attributes,
            name,
            bases,
            methods,
            span: self.span_from(start),
        })
    }

    /// `extension S : IFoo { methods }`: methods only. A generic target
    /// (`extension Pair<T>`) is `E20003`.
    fn extension_decl(&mut self, attributes: Vec<Attribute>, start: Span) -> Option<StructDecl> {
        self.bump();
        let name = self.ident("type name")?;
        if self.at(TokenKind::Lt) {
            let span = self.peek().span;
            self.unsupported("an extension of a generic struct", span);
            self.skip_construct();
            return None;
        }
        let conformances = self.conformance_list()?;
        if !self.at(TokenKind::LBrace) {
            self.error_expected("`{`");
            return None;
        }
        let mut methods = Vec::new();
        let mut structs = Vec::new();
        let outer_aliases = std::mem::take(&mut self.struct_aliases);
        let fields = self.member_list(&mut structs, Some(&mut methods));
        for field in &fields {
            self.unsupported("a field in an extension (it adds methods only)", field.span);
        }
        let aliases = std::mem::replace(&mut self.struct_aliases, outer_aliases);
        for alias in &aliases {
            self.unsupported("a type alias in an extension", alias.span);
        }
        for nested in &structs {
            self.unsupported("a struct declared in an extension", nested.name.span);
        }
        self.eat(TokenKind::Semi);
        Some(StructDecl {
            attributes,
            name,
            fields: Vec::new(),
            methods,
            conformances,
            generics: Vec::new(),
            aliases: Vec::new(),
            span: self.span_from(start),
        })
    }

    /// `{ members }` and the declarators after it, for a struct named `name`.
    fn struct_body(
        &mut self,
        name: Ident,
        attributes: Vec<Attribute>,
        start: Span,
        structs: &mut Vec<StructDecl>,
    ) -> Option<VarDecl> {
        let mut methods = Vec::new();
        let outer_aliases = std::mem::take(&mut self.struct_aliases);
        let fields = self.member_list(structs, Some(&mut methods));
        let aliases = std::mem::replace(&mut self.struct_aliases, outer_aliases);
        let span = self.span_from(start);
        let ty = TypeExpr {
            name: name.name.clone(),
            args: Vec::new(),
            modifiers: Vec::new(),
            span: name.span,
        };
        structs.push(StructDecl {
            attributes: attributes.clone(),
            name,
            fields,
            methods,
            conformances: Vec::new(),
            generics: Vec::new(),
            aliases,
            span,
        });
        self.vars_after_struct(attributes, ty, start)
    }

    /// `s, t[2];` after a struct's `}`. The `;` after a struct is optional,
    /// so a name starts declarators only when what follows it fits one
    /// (`struct S {...} S make() {...}` declares a function, not `S`).
    fn vars_after_struct(
        &mut self,
        attributes: Vec<Attribute>,
        ty: TypeExpr,
        start: Span,
    ) -> Option<VarDecl> {
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
    pub(super) fn declare_type_name(&mut self) {
        let name = self.token_text(self.prev);
        self.type_names.insert(name);
    }

    /// `{ fields }` of a struct or buffer; nested structs go to `structs`.
    /// Member functions go to `methods`; where there is none (a `cbuffer`)
    /// they are reported as unsupported.
    pub(super) fn member_list(
        &mut self,
        structs: &mut Vec<StructDecl>,
        mut methods: Option<&mut Vec<FunctionDecl>>,
    ) -> Vec<VarDecl> {
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
            if self.nth_word(0).is_some_and(ends_member_list) {
                // A keyword only an item can start with: the `}` is missing.
                // End the body here so the item is read as one.
                break;
            }
            let before = self.pos;
            self.member(&mut fields, structs, methods.as_deref_mut());
            if self.pos == before && !self.bailing {
                self.skip_junk();
            }
        }
        if !self.eat(TokenKind::RBrace) {
            self.error_expected("`}`");
        }
        fields
    }

    fn member(
        &mut self,
        fields: &mut Vec<VarDecl>,
        structs: &mut Vec<StructDecl>,
        mut methods: Option<&mut Vec<FunctionDecl>>,
    ) {
        let start = self.peek().span;
        let attributes = self.attributes();
        match self.nth_word(0) {
            Some("struct") => {
                fields.extend(self.struct_decl(attributes, start, structs));
                return;
            }
            Some("__generic") if methods.is_some() && self.nth_kind(1) == TokenKind::Lt => {
                self.generic_member(fields, structs, methods);
                return;
            }
            Some("__init") if methods.is_some() && self.nth_kind(1) == TokenKind::LParen => {
                // A constructor: a member function named `__init` returning
                // `void` here; the checker gives it the struct as its result.
                let tok = self.bump();
                let name = self.ident_of(tok);
                let void = TypeExpr {
                    name: "void".into(),
                    args: Vec::new(),
                    modifiers: Vec::new(),
                    span: name.span,
                };
                let function = self.function(attributes, Vec::new(), void, name, Vec::new(), start);
                if let Some(methods) = methods {
                    methods.push(function);
                }
                return;
            }
            Some(word @ ("typedef" | "typealias")) if methods.is_some() => {
                // A type alias member (Slang): `S.Name` / `S::Name` outside,
                // the bare name inside.
                let alias = if word == "typedef" {
                    self.typedef()
                } else {
                    self.typealias()
                };
                self.struct_aliases.push(alias);
                return;
            }
            Some(
                word @ ("__init" | "property" | "__subscript" | "typedef" | "typealias"
                | "associatedtype" | "__generic"),
            ) => {
                let what = match word {
                    "__init" => "struct constructor (`__init`)",
                    "__generic" => "`__generic` in a buffer block",
                    "property" => "`property` member",
                    "__subscript" => "`__subscript` member",
                    "associatedtype" => "`associatedtype` requirement",
                    _ => "type alias in a buffer block",
                };
                let span = self.peek().span;
                self.unsupported(what, span);
                self.skip_construct();
                return;
            }
            _ => {}
        }
        if let Some(methods) = methods.as_deref_mut()
            && self.at_func()
        {
            methods.extend(self.func_decl(attributes, start));
            return;
        }
        let (modifiers, ty) = self.decl_head();
        if ty.name.is_empty() {
            return;
        }
        let Some(name) = self.ident("field name") else {
            return;
        };
        match (self.kind(), methods) {
            (TokenKind::LParen, Some(methods)) => {
                let function = self.function(attributes, modifiers, ty, name, Vec::new(), start);
                methods.push(function);
                return;
            }
            (TokenKind::Lt, Some(methods)) => {
                let Some((generics, added)) = self.generic_params() else {
                    self.skip_construct();
                    return;
                };
                if self.at(TokenKind::LParen) {
                    let function = self.function(attributes, modifiers, ty, name, generics, start);
                    methods.push(function);
                } else {
                    self.error_expected("`(`");
                }
                self.forget_type_names(added);
                return;
            }
            (TokenKind::LParen | TokenKind::Lt, None) => {
                self.unsupported("member function in a buffer block", name.span);
                self.skip_construct();
                return;
            }
            _ => {}
        }
        fields.push(self.var_decl_rest(attributes, modifiers, ty, name, start));
    }

    /// `__generic<T> U method(...)` in a struct: the parameters are the
    /// method's, as if written after its name.
    fn generic_member(
        &mut self,
        fields: &mut Vec<VarDecl>,
        structs: &mut Vec<StructDecl>,
        methods: Option<&mut Vec<FunctionDecl>>,
    ) {
        let keyword = self.bump();
        let Some((generics, added)) = self.generic_params() else {
            self.skip_construct();
            return;
        };
        let Some(methods) = methods else {
            self.forget_type_names(added);
            return;
        };
        let before = methods.len();
        let fields_before = fields.len();
        self.member(fields, structs, Some(methods));
        self.forget_type_names(added);
        let added_one = methods.len() > before;
        match methods.last_mut() {
            Some(m) if added_one && m.generics.is_empty() => m.generics = generics,
            _ if self.diagnostics.is_empty() || fields.len() > fields_before => self.error(
                codes::PARSE_EXPECTED,
                "`__generic<...>` in a struct must come before a method that has no generic \
                 parameters of its own"
                    .to_string(),
                keyword.span,
            ),
            _ => {}
        }
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
        let fields = self.member_list(structs, None);
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
        self.alias_rest(start, name, ty)
    }

    /// `typealias Name = type;`
    pub(super) fn typealias(&mut self) -> TypeAlias {
        let start = self.bump().span;
        let name = self.alias_name();
        self.expect(TokenKind::Eq, "`=`");
        let ty = self.type_expr();
        self.alias_rest(start, name, ty)
    }

    /// Array dimensions and `;` after an alias's name and type.
    fn alias_rest(&mut self, start: Span, name: Ident, ty: TypeExpr) -> TypeAlias {
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
