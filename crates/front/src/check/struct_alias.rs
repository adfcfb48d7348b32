//! Type alias members of structs (Slang): `struct S<T, let N : int> {
//! typealias VecT = vector<T, N>; VecT v; }`. Inside the struct (its
//! fields, its methods) the bare name is the type; outside, `S<float,
//! 3>.VecT` or `S<float, 3>::VecT` (`S::VecT` for a struct that is not
//! generic). A generic struct's aliases are resolved per instance, with
//! its parameters bound.

use legalis_ir::{Handle, Span, Type};

use super::{Checker, TypeSymbol};
use crate::{ast, codes};

impl Checker<'_> {
    /// Declares the aliases of `decl`, whose type is named `qualified`:
    /// under their bare names in the current scope (when it is not the
    /// module's) and as `qualified::Name` at module scope.
    pub(super) fn declare_struct_aliases(&mut self, decl: &ast::StructDecl, qualified: &str) {
        for alias in &decl.aliases {
            let base = self.resolve_type(&alias.ty);
            let ty = self.apply_array_dims(base, &alias.array_dims, None);
            let key = format!("{qualified}::{}", alias.name.name);
            if self.type_scopes[0].contains_key(&key) {
                self.error(
                    codes::REDEFINITION,
                    format!("type `{}` is already defined", alias.name.name),
                    alias.name.span,
                );
                continue;
            }
            self.type_scopes[0].insert(key, TypeSymbol::Type(ty));
            if self.type_scopes.len() > 1 {
                self.declare_type(&alias.name, TypeSymbol::Type(ty));
            }
        }
    }

    /// Declares the aliases of `decl` (named `qualified`, declared
    /// already) under their bare names in the current scope: a generic
    /// struct instance's method signatures see them.
    pub(super) fn bind_struct_aliases(&mut self, decl: &ast::StructDecl, qualified: &str) {
        for alias in &decl.aliases {
            let key = format!("{qualified}::{}", alias.name.name);
            if let Some(found) = self.type_scopes[0].get(&key).copied() {
                self.declare_type(&alias.name, found);
            }
        }
    }

    /// `S<float, 3>.VecT`: the alias `member` of the struct `owner`.
    pub(super) fn resolve_member_type(
        &mut self,
        owner: &ast::TypeExpr,
        member: &str,
        span: Span,
    ) -> Option<Handle<Type>> {
        let ty = self.resolve_type(owner);
        if ty == self.error_ty {
            return None;
        }
        if let Some(name) = self.module.types[ty].name.clone()
            && let Some(TypeSymbol::Type(found)) = self.type_scopes[0]
                .get(&format!("{name}::{member}"))
                .copied()
        {
            return Some(found);
        }
        let owner_name = self.type_name(ty);
        self.error(
            codes::UNDEFINED_TYPE,
            format!("`{owner_name}` has no type member `{member}`"),
            span,
        );
        None
    }
}
