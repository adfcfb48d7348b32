//! Slang's `is` and `as`, resolved statically: generics are specialised
//! before bodies are checked, so both sides' types are known. `value is T`
//! is the constant `true` when `value`'s type is `T` and `false`
//! otherwise; the left side may name a type (`V is Vertex` in a function
//! generic over `V`). `value as T` is an `Optional<T>`: the value when its
//! type is `T`, `none` otherwise.

use legalis_ir as ir;
use legalis_ir::{Handle, Span, Type};

use super::convert::Value;
use super::{Checker, TypeSymbol};
use crate::{ast, codes};

impl Checker<'_> {
    pub(super) fn lower_type_test(
        &mut self,
        value: &ast::Expr,
        texpr: &ast::TypeExpr,
        cast: bool,
        span: Span,
    ) -> Value {
        let target = self.resolve_type(texpr);
        if let Some(left) = self.type_operand(value) {
            if cast {
                self.error(
                    codes::TYPE_MISMATCH,
                    "`as` converts a value: its left side names a type",
                    value.span,
                );
                return self.error_value(span);
            }
            if left == self.error_ty || target == self.error_ty {
                return self.error_value(span);
            }
            return self.bool_value(left == target, span);
        }
        let v = self.lower_value(value);
        let Some(from) = v.ty else {
            self.error(
                codes::TYPE_MISMATCH,
                format!(
                    "`{}` needs a value on its left",
                    if cast { "as" } else { "is" }
                ),
                value.span,
            );
            return self.error_value(span);
        };
        if from == self.error_ty || target == self.error_ty {
            return self.error_value(span);
        }
        // A value of interface type: decided by its tag (`dyn_dispatch.rs`).
        if let Some(tested) = self.dyn_type_test(v, target, cast, span) {
            return tested;
        }
        if !cast {
            return self.bool_value(from == target, span);
        }
        let optional = self.optional_type(target);
        let source = if from == target {
            v
        } else {
            self.none_value(span)
        };
        match self.coerce_to_optional(source, optional, span) {
            Some(expr) => Value {
                expr,
                ty: Some(optional),
            },
            None => self.error_value(span),
        }
    }

    /// The value of the condition `cond`, lowered to `condition`, when it
    /// is an `is` test: known before the branches are checked, so the one
    /// not taken need not be.
    pub(super) fn static_type_test(
        &self,
        cond: &ast::Expr,
        condition: Handle<ir::Expression>,
    ) -> Option<bool> {
        if !matches!(cond.kind, ast::ExprKind::TypeTest { cast: false, .. }) {
            return None;
        }
        match self.exprs_ref()[condition] {
            ir::Expression::Literal(ir::Literal::Bool(b)) => Some(b),
            _ => None,
        }
    }

    /// The type the left side of `is` names, when it names one rather than
    /// a value.
    fn type_operand(&mut self, value: &ast::Expr) -> Option<Handle<Type>> {
        match &value.kind {
            ast::ExprKind::TypeRef(t) => Some(self.resolve_type(t)),
            ast::ExprKind::Name(path)
                if path.len() == 1
                    && self.lookup_value(&path[0].name).is_none()
                    && matches!(self.lookup_type(&path[0].name), Some(TypeSymbol::Type(_))) =>
            {
                let t = ast::TypeExpr {
                    name: path[0].name.clone(),
                    args: Vec::new(),
                    modifiers: Vec::new(),
                    span: value.span,
                };
                Some(self.resolve_type(&t))
            }
            _ => None,
        }
    }

    /// `reinterpret<T>(v)`: `v` itself when its type is `T` (a generic
    /// parameter specialised to it); between different types, which Slang
    /// packs through an `AnyValue`, `E30091`.
    pub(super) fn lower_reinterpret(
        &mut self,
        texpr: &ast::TypeExpr,
        args: &[ast::Expr],
        span: Span,
    ) -> Value {
        let [ast::GenericArg::Type(target)] = texpr.args.as_slice() else {
            self.error(
                codes::BAD_GENERIC_ARGUMENTS,
                "`reinterpret<T>` takes one type argument",
                texpr.span,
            );
            return self.error_value(span);
        };
        let target = self.resolve_type(target);
        let [value] = args else {
            self.error(
                codes::NO_MATCHING_OVERLOAD,
                "`reinterpret<T>` takes one argument",
                span,
            );
            return self.error_value(span);
        };
        let v = self.lower_value(value);
        let Some(from) = v.ty else {
            return self.error_value(span);
        };
        if from == self.error_ty || target == self.error_ty {
            return self.error_value(span);
        }
        if from != target {
            let (from, to) = (self.type_name(from), self.type_name(target));
            self.error(
                codes::REINTERPRET_TYPES,
                format!(
                    "`reinterpret<{to}>` of a `{from}`: Legalis reinterprets a value only as its own \
                     type (a generic parameter specialised to it)"
                ),
                span,
            );
            return self.error_value(span);
        }
        v
    }

    fn bool_value(&mut self, b: bool, span: Span) -> Value {
        let ty = self.bool_ty();
        self.append(
            ir::Expression::Literal(ir::Literal::Bool(b)),
            Some(ty),
            span,
        )
    }
}
