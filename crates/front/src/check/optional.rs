//! Slang's `Optional<T>` and `Conditional<T, c>`, resolved statically
//! wherever the value is known.
//!
//! `Optional<T>` is a struct `{ T value; bool hasValue; }` (named
//! `Optional<T>`); a `T` converts to it implicitly (with a value), and so
//! does `none` (without one). `o == none` and `o != none` read `hasValue`.
//!
//! `Conditional<T, c>` is a `T` when the constant `c` is true and nothing at
//! all when it is false: a field, parameter or local of it is left out (an
//! entry point's varying vanishes from the interface), a result of it makes
//! the function `void`. `.get()` gives an `Optional<T>` (with the value, or
//! `none`), `.set(v)` and `=` store (or do nothing).
//!
//! `if (let x = e)` binds `x` to the value of an `Optional<T>`. When the
//! optional is known (`none`, `Conditional.get()`, a `T` converted), the
//! branch that cannot run is checked and dropped; otherwise the optional goes
//! to a temporary and `hasValue` picks the branch.

use legalis_ir as ir;
use legalis_ir::{FastHashMap, FastHashSet, Handle, Span, Type, TypeInner};

use super::consteval::ConstValue;
use super::convert::Value;
use super::{Checker, ValueSymbol};
use crate::{ast, codes};

/// What the checker knows of optionals and conditionals.
#[derive(Debug, Default)]
pub struct OptionalState {
    /// `Optional<T>` struct to its `T`.
    inner_of: FastHashMap<Handle<Type>, Handle<Type>>,
    /// `T` to its `Optional<T>` struct.
    optional_of: FastHashMap<Handle<Type>, Handle<Type>>,
    /// The type of `none` before it converts to an optional.
    none_ty: Option<Handle<Type>>,
    /// Fields declared `Conditional<T, true>`: `(struct, field index)`.
    present_fields: FastHashSet<(Handle<Type>, u32)>,
    /// Fields declared `Conditional<T, false>`, left out: `(struct, name)`
    /// to `T`.
    absent_fields: FastHashMap<(Handle<Type>, String), Handle<Type>>,
    /// The conditional fields of the structs being declared (a field's
    /// type may declare another), until their types exist.
    pending: Vec<PendingFields>,
    /// In the function being lowered: parameters and locals declared
    /// `Conditional<T, true>`.
    present_params: FastHashSet<u32>,
    present_locals: FastHashSet<Handle<ir::LocalVariable>>,
    /// Expressions that stand for a left-out conditional (a known-`none`
    /// optional).
    absent_exprs: FastHashSet<Handle<ir::Expression>>,
    /// Expressions that stand for an optional known to hold them (a
    /// present conditional's `get()`): the expression is the `T`.
    some_exprs: FastHashSet<Handle<ir::Expression>>,
    /// The function's result is a `Conditional<T, false>`: `return v;`
    /// evaluates `v` and returns nothing.
    absent_result: bool,
}

/// The conditional fields of one struct being declared: present ones by
/// member index, left-out ones by name with their `T`.
#[derive(Debug, Default)]
struct PendingFields {
    present: Vec<u32>,
    absent: Vec<(String, Handle<Type>)>,
}

impl Checker<'_> {
    /// Whether `texpr` names Slang's built-in `name` (not a user type).
    fn names_builtin(&self, texpr: &ast::TypeExpr, name: &str) -> bool {
        texpr.name == name && self.lookup_type(name).is_none()
    }

    /// `Some(c)` when `texpr` is `Conditional<T, c>` with a constant `c`;
    /// reports nothing.
    pub fn conditional_present(&self, texpr: &ast::TypeExpr) -> Option<bool> {
        if !self.names_builtin(texpr, "Conditional") {
            return None;
        }
        let [_, flag] = texpr.args.as_slice() else {
            return None;
        };
        let value = match flag {
            ast::GenericArg::Value(e) => self.try_const_eval(e).ok()?,
            ast::GenericArg::Type(t) => {
                let path = [ast::Ident {
                    name: t.name.clone(),
                    span: t.span,
                }];
                self.try_const_eval(&ast::Expr::new(ast::ExprKind::Name(path.to_vec()), t.span))
                    .ok()?
            }
        };
        match value {
            ConstValue::Bool(b) => Some(b),
            other => other.as_i64().map(|n| n != 0),
        }
    }

    /// A `Conditional<T, c>` type: `Some((T, c))`, errors reported (then
    /// `(error, true)`); `None` for any other type.
    pub fn conditional_type(&mut self, texpr: &ast::TypeExpr) -> Option<(Handle<Type>, bool)> {
        if !self.names_builtin(texpr, "Conditional") {
            return None;
        }
        let [inner, flag] = texpr.args.as_slice() else {
            self.error(
                codes::BAD_GENERIC_ARGUMENTS,
                format!(
                    "`Conditional` takes 2 generic arguments (a type and a `bool`), found {}",
                    texpr.args.len()
                ),
                texpr.span,
            );
            return Some((self.error_ty, true));
        };
        let flag = match flag {
            ast::GenericArg::Value(e) => e.clone(),
            ast::GenericArg::Type(t) => ast::Expr::new(
                ast::ExprKind::Name(vec![ast::Ident {
                    name: t.name.clone(),
                    span: t.span,
                }]),
                t.span,
            ),
        };
        let present = match self.const_eval(&flag) {
            Some(ConstValue::Bool(b)) => b,
            Some(other) => match other.as_i64() {
                Some(n) => n != 0,
                None => {
                    self.error(
                        codes::BAD_GENERIC_ARGUMENTS,
                        format!("the condition of `Conditional` must be a `bool`, found {other}"),
                        flag.span,
                    );
                    return Some((self.error_ty, true));
                }
            },
            None => return Some((self.error_ty, true)),
        };
        let ty = match inner {
            ast::GenericArg::Type(t) => self.resolve_type(t),
            ast::GenericArg::Value(e) => {
                self.error(
                    codes::BAD_GENERIC_ARGUMENTS,
                    "the first argument of `Conditional` must be a type",
                    e.span,
                );
                self.error_ty
            }
        };
        Some((ty, present))
    }

    /// `Optional<T>` and `Conditional<T, c>` where any type may be written:
    /// `None` for other types. A `Conditional<T, false>` has no
    /// representation there (only a field, parameter, result or local may
    /// be left out).
    pub fn resolve_optional_types(&mut self, texpr: &ast::TypeExpr) -> Option<Handle<Type>> {
        if self.names_builtin(texpr, "Optional") {
            let [ast::GenericArg::Type(inner)] = texpr.args.as_slice() else {
                self.error(
                    codes::BAD_GENERIC_ARGUMENTS,
                    format!(
                        "`Optional` takes 1 generic argument (a type), found {}",
                        texpr.args.len()
                    ),
                    texpr.span,
                );
                return Some(self.error_ty);
            };
            let inner = self.resolve_type(inner);
            return Some(self.optional_type(inner));
        }
        let (ty, present) = self.conditional_type(texpr)?;
        if !present {
            self.error(
                codes::ABSENT_CONDITIONAL,
                "a `Conditional<T, false>` is only allowed as the type of a field, a \
                 parameter, a result or a local variable",
                texpr.span,
            );
            return Some(self.error_ty);
        }
        Some(ty)
    }

    /// The struct `Optional<T>`.
    pub fn optional_type(&mut self, inner: Handle<Type>) -> Handle<Type> {
        if inner == self.error_ty {
            return inner;
        }
        if let Some(&ty) = self.optional.optional_of.get(&inner) {
            return ty;
        }
        let bool_ty = self.bool_ty();
        let member = |name: &str, ty| ir::StructMember {
            name: name.into(),
            ty,
            io: ir::IoAttrs::default(),
            matrix_layout: None,
            span: Span::UNDEFINED,
        };
        let name = format!("Optional<{}>", self.type_name(inner));
        let ty = self.module.types.insert(
            Type {
                name: Some(name),
                inner: TypeInner::Struct {
                    members: vec![member("value", inner), member("hasValue", bool_ty)],
                },
            },
            Span::UNDEFINED,
        );
        self.optional.optional_of.insert(inner, ty);
        self.optional.inner_of.insert(ty, inner);
        ty
    }

    /// The `T` of an `Optional<T>` type.
    pub fn optional_inner(&self, ty: Handle<Type>) -> Option<Handle<Type>> {
        self.optional.inner_of.get(&ty).copied()
    }

    /// Whether `ty` is the type of a bare `none`.
    pub fn is_none_type(&self, ty: Handle<Type>) -> bool {
        self.optional.none_ty == Some(ty)
    }

    /// `none`: a value only an optional (or a comparison with one) takes.
    pub fn none_value(&mut self, span: Span) -> Value {
        let ty = match self.optional.none_ty {
            Some(ty) => ty,
            None => {
                let ty = self.module.types.insert(
                    Type {
                        name: Some("none".into()),
                        inner: TypeInner::Struct {
                            members: Vec::new(),
                        },
                    },
                    Span::UNDEFINED,
                );
                self.optional.none_ty = Some(ty);
                ty
            }
        };
        // The expression itself is a `bool` (the IR has no `none`); only
        // the checker's value carries the `none` type, and a conversion or
        // comparison replaces it before anything uses it.
        let bool_ty = self.bool_ty();
        let expr = self.exprs().append(
            ir::Expression::Literal(ir::Literal::Bool(false)),
            Some(bool_ty),
            span,
        );
        Value { expr, ty: Some(ty) }
    }

    /// `Optional<T>` built from `value` (a `T`) and a known `has_value`.
    fn make_optional(
        &mut self,
        inner: Handle<Type>,
        value: Handle<ir::Expression>,
        has_value: bool,
        span: Span,
    ) -> Value {
        let ty = self.optional_type(inner);
        let bool_ty = self.bool_ty();
        let flag = self.append(
            ir::Expression::Literal(ir::Literal::Bool(has_value)),
            Some(bool_ty),
            span,
        );
        self.append(
            ir::Expression::Construct {
                components: vec![value, flag.expr],
            },
            Some(ty),
            span,
        )
    }

    /// An `Optional<T>` without a value, or `None` when `T` has no zero
    /// value (a resource) to fill it with.
    fn empty_optional(&mut self, inner: Handle<Type>, span: Span) -> Option<Value> {
        let zero = self.zero_value(inner, span)?;
        Some(self.make_optional(inner, zero, false, span))
    }

    /// The conversion of `value` to the optional type `to`, when `to` is
    /// one: `none` or a `T`.
    pub fn coerce_to_optional(
        &mut self,
        value: Value,
        to: Handle<Type>,
        span: Span,
    ) -> Option<Handle<ir::Expression>> {
        let inner = self.optional_inner(to)?;
        let from = value.ty?;
        if from == to {
            return Some(self.materialize_optional(value, span).expr);
        }
        if self.is_none_type(from) {
            return match self.empty_optional(inner, span) {
                Some(v) => Some(v.expr),
                None => {
                    let name = self.type_name(inner);
                    self.error(
                        codes::NOT_OPTIONAL,
                        format!("`none` of `Optional<{name}>`: `{name}` has no value to stand in"),
                        span,
                    );
                    Some(value.expr)
                }
            };
        }
        // Only what converts to `T` converts to `Optional<T>`.
        self.conversion_cost(from, inner)?;
        let v = self.coerce(value, inner, span);
        Some(self.make_optional(inner, v, true, span).expr)
    }

    /// The cost of converting `from` to the optional type `to` (`none`, or
    /// what converts to its `T`).
    pub fn optional_conversion_cost(&self, from: Handle<Type>, to: Handle<Type>) -> Option<u32> {
        let inner = self.optional_inner(to)?;
        if self.is_none_type(from) {
            return Some(super::convert::COST_PROMOTION);
        }
        self.conversion_cost(from, inner)
            .map(|c| c + super::convert::COST_PROMOTION)
    }

    /// `o == none`, `o != none` (either side): `hasValue`, known or read.
    pub fn optional_comparison(
        &mut self,
        op: ast::BinaryOp,
        left: Value,
        right: Value,
        span: Span,
    ) -> Option<Value> {
        let eq = match op {
            ast::BinaryOp::Eq => true,
            ast::BinaryOp::Ne => false,
            _ => return None,
        };
        let (l, r) = (left.ty?, right.ty?);
        let optional = if self.is_none_type(r) && self.optional_inner(l).is_some() {
            left
        } else if self.is_none_type(l) && self.optional_inner(r).is_some() {
            right
        } else if self.is_none_type(l) && self.is_none_type(r) {
            let bool_ty = self.bool_ty();
            return Some(self.append(
                ir::Expression::Literal(ir::Literal::Bool(eq)),
                Some(bool_ty),
                span,
            ));
        } else {
            return None;
        };
        let bool_ty = self.bool_ty();
        let has_value = match self.known_optional(optional.expr) {
            Some(known) => {
                self.append(
                    ir::Expression::Literal(ir::Literal::Bool(known.is_some() != eq)),
                    Some(bool_ty),
                    span,
                )
                .expr
            }
            None => {
                let has = self
                    .append(
                        ir::Expression::Member {
                            base: optional.expr,
                            index: 1,
                        },
                        Some(bool_ty),
                        span,
                    )
                    .expr;
                if !eq {
                    return Some(Value {
                        expr: has,
                        ty: Some(bool_ty),
                    });
                }
                self.append(
                    ir::Expression::Unary {
                        op: ir::UnaryOp::LogicalNot,
                        expr: has,
                    },
                    Some(bool_ty),
                    span,
                )
                .expr
            }
        };
        Some(Value {
            expr: has_value,
            ty: Some(bool_ty),
        })
    }

    /// What is known of an optional expression: `Some(Some(value))` when it
    /// certainly holds `value`, `Some(None)` when it certainly holds none,
    /// `None` when only running it tells.
    fn known_optional(
        &self,
        expr: Handle<ir::Expression>,
    ) -> Option<Option<Handle<ir::Expression>>> {
        if self.optional.some_exprs.contains(&expr) {
            Some(Some(expr))
        } else if self.optional.absent_exprs.contains(&expr) {
            Some(None)
        } else {
            None
        }
    }

    /// A known optional (a conditional's `get()`, a left-out conditional)
    /// as an `Optional<T>` value of the IR, where one is needed; any other
    /// value as it is. Known ones are values of the IR only when used, so
    /// a folded `if (let ...)` leaves no optional behind.
    pub fn materialize_optional(&mut self, value: Value, span: Span) -> Value {
        let Some(inner) = value.ty.and_then(|t| self.optional_inner(t)) else {
            return value;
        };
        match self.known_optional(value.expr) {
            Some(Some(held)) => self.make_optional(inner, held, true, span),
            Some(None) => match self.empty_optional(inner, span) {
                Some(v) => v,
                None => {
                    let name = self.type_name(inner);
                    self.error(
                        codes::NOT_OPTIONAL,
                        format!("an empty `Optional<{name}>`: `{name}` has no value to stand in"),
                        span,
                    );
                    value
                }
            },
            None => value,
        }
    }

    /// Records the conditional fields `struct_members` found; `ty` is the
    /// struct they belong to.
    pub fn claim_conditional_fields(&mut self, ty: Handle<Type>) {
        let pending = self.optional.pending.pop().unwrap_or_default();
        for index in pending.present {
            self.optional.present_fields.insert((ty, index));
        }
        for (name, inner) in pending.absent {
            self.optional.absent_fields.insert((ty, name), inner);
        }
    }

    /// `struct_members` starts on a struct.
    pub fn begin_conditional_fields(&mut self) {
        self.optional.pending.push(PendingFields::default());
    }

    /// A field of the struct being declared is `Conditional<T, c>`:
    /// `index` is its place among the members when present.
    pub fn note_conditional_field(&mut self, name: &str, inner: Handle<Type>, index: Option<u32>) {
        let Some(pending) = self.optional.pending.last_mut() else {
            return;
        };
        match index {
            Some(i) => pending.present.push(i),
            None => pending.absent.push((name.to_string(), inner)),
        }
    }

    /// The left-out `Conditional<T, false>` fields of struct `ty`.
    pub fn absent_fields_of(&self, ty: Handle<Type>) -> Vec<(String, Handle<Type>)> {
        let mut fields: Vec<(String, Handle<Type>)> = self
            .optional
            .absent_fields
            .iter()
            .filter(|((owner, _), _)| *owner == ty)
            .map(|((_, name), inner)| (name.clone(), *inner))
            .collect();
        fields.sort();
        fields
    }

    /// Field `name` of struct `ty`, left out as `Conditional<T, false>`.
    pub fn absent_field(&mut self, ty: Handle<Type>, name: &str, span: Span) -> Option<Value> {
        let inner = *self.optional.absent_fields.get(&(ty, name.to_string()))?;
        Some(self.absent_value(inner, span))
    }

    /// A left-out conditional as a value: an `Optional<T>` without one.
    pub fn absent_value(&mut self, inner: Handle<Type>, span: Span) -> Value {
        // A marker, not a value of the IR: `materialize_optional` makes
        // the empty optional where one is used.
        let ty = self.optional_type(inner);
        let bool_ty = self.bool_ty();
        let expr = self.exprs().append(
            ir::Expression::Literal(ir::Literal::Bool(false)),
            Some(bool_ty),
            span,
        );
        self.optional.absent_exprs.insert(expr);
        Value { expr, ty: Some(ty) }
    }

    /// Starts a function: no conditional parameters or locals yet.
    pub fn reset_conditionals(&mut self, absent_result: bool) {
        self.optional.present_params.clear();
        self.optional.present_locals.clear();
        self.optional.absent_exprs.clear();
        self.optional.some_exprs.clear();
        self.optional.absent_result = absent_result;
    }

    pub fn note_present_param(&mut self, index: u32) {
        self.optional.present_params.insert(index);
    }

    pub fn note_present_local(&mut self, local: Handle<ir::LocalVariable>) {
        self.optional.present_locals.insert(local);
    }

    /// Whether the function being lowered returns a left-out conditional.
    pub fn result_is_absent(&self) -> bool {
        self.optional.absent_result
    }

    /// Whether `expr` is a place declared `Conditional<T, true>`.
    fn is_present_conditional(&self, expr: Handle<ir::Expression>) -> bool {
        let arena = self.exprs_ref();
        match arena[expr] {
            ir::Expression::Param(i) => self.optional.present_params.contains(&i),
            ir::Expression::Local(l) => self.optional.present_locals.contains(&l),
            ir::Expression::Member { base, index } => arena
                .ty(base)
                .is_some_and(|t| self.optional.present_fields.contains(&(t, index))),
            _ => false,
        }
    }

    /// Whether `expr` stands for a left-out conditional.
    pub fn is_absent_conditional(&self, expr: Handle<ir::Expression>) -> bool {
        self.optional.absent_exprs.contains(&expr)
    }

    /// `c.get()` on a conditional `obj`; `None` when `obj` is not one or
    /// the method is not `get`. (`set` is a statement: `conditional_set`.)
    pub fn conditional_method(
        &mut self,
        obj: Value,
        method: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Value> {
        let absent = self.is_absent_conditional(obj.expr);
        if !absent && !self.is_present_conditional(obj.expr) {
            return None;
        }
        match method.name.as_str() {
            "get" => {
                if let Some(extra) = args.first() {
                    self.error(
                        codes::WRONG_ARGUMENT_COUNT,
                        "`get` takes no arguments",
                        extra.span,
                    );
                }
                if absent {
                    return Some(obj);
                }
                // Known to hold `obj`: made an `Optional<T>` of the IR
                // only where one is used (`materialize_optional`).
                let inner = obj.ty.unwrap_or(self.error_ty);
                let ty = self.optional_type(inner);
                self.optional.some_exprs.insert(obj.expr);
                Some(Value {
                    expr: obj.expr,
                    ty: Some(ty),
                })
            }
            "set" => {
                self.error(
                    codes::NOT_OPTIONAL,
                    "`set` of a `Conditional` stores a value; call it as a statement",
                    method.span,
                );
                Some(self.error_value(span))
            }
            _ => None,
        }
    }

    /// `c.set(v);` or `c = v;` as a statement, when `target` is a
    /// conditional: a store, or (left out) `v` evaluated and dropped.
    /// Returns `false`, having lowered nothing, when `target` is not one.
    pub fn conditional_store(
        &mut self,
        target: &ast::Expr,
        value: &ast::Expr,
        via_set: bool,
        span: Span,
        out: &mut ir::Block,
    ) -> bool {
        // Only names and fields can be conditionals.
        if !matches!(
            target.kind,
            ast::ExprKind::Name(_) | ast::ExprKind::Member { .. }
        ) {
            return false;
        }
        if via_set && !self.could_be_conditional(target) {
            return false;
        }
        if !via_set && !self.could_be_absent(target) {
            return false;
        }
        let t = self.lower_value(target);
        if self.is_absent_conditional(t.expr) {
            let inner =
                t.ty.and_then(|ty| self.optional_inner(ty))
                    .unwrap_or(self.error_ty);
            let v = self.lower_initializer(value, inner);
            if !self.is_pure(v) {
                out.push(ir::Statement::Expr(v), span);
            }
            return true;
        }
        if !via_set || !self.is_present_conditional(t.expr) {
            // A `set` on something else: the ordinary method call reports it.
            if via_set {
                return false;
            }
            let ty = t.ty.unwrap_or(self.error_ty);
            self.require_place(t.expr, target.span);
            let v = self.lower_initializer(value, ty);
            out.push(
                ir::Statement::Store {
                    target: t.expr,
                    value: v,
                },
                span,
            );
            return true;
        }
        self.require_place(t.expr, target.span);
        let ty = t.ty.unwrap_or(self.error_ty);
        let v = self.lower_initializer(value, ty);
        out.push(
            ir::Statement::Store {
                target: t.expr,
                value: v,
            },
            span,
        );
        true
    }

    /// Whether a store to `target` might be to a left-out conditional (so
    /// the target must be lowered first to know).
    fn could_be_absent(&self, target: &ast::Expr) -> bool {
        match &target.kind {
            ast::ExprKind::Name(path) => matches!(
                self.lookup_value_path(path),
                Some(ValueSymbol::AbsentConditional { .. })
            ),
            ast::ExprKind::Member { member, .. } => self
                .optional
                .absent_fields
                .keys()
                .any(|(_, name)| *name == member.name),
            _ => false,
        }
    }

    /// Whether `target.set(v)` might be a conditional's `set`.
    fn could_be_conditional(&self, target: &ast::Expr) -> bool {
        match &target.kind {
            ast::ExprKind::Name(path) => matches!(
                self.lookup_value_path(path),
                Some(
                    ValueSymbol::AbsentConditional { .. }
                        | ValueSymbol::Local { .. }
                        | ValueSymbol::Param { .. }
                        | ValueSymbol::ThisField { .. }
                )
            ),
            ast::ExprKind::Member { .. } => true,
            _ => false,
        }
    }

    /// Whether evaluating `expr` has no effect (so a dropped value need
    /// not be kept).
    fn is_pure(&self, expr: Handle<ir::Expression>) -> bool {
        let arena = self.exprs_ref();
        match &arena[expr] {
            ir::Expression::Literal(_)
            | ir::Expression::Local(_)
            | ir::Expression::Param(_)
            | ir::Expression::Global(_) => true,
            ir::Expression::Member { base, .. } | ir::Expression::Convert { expr: base } => {
                self.is_pure(*base)
            }
            ir::Expression::Construct { components } => components.iter().all(|c| self.is_pure(*c)),
            _ => false,
        }
    }

    /// `return v;` in a function whose result is a left-out conditional:
    /// `v` is evaluated (when that does anything) and nothing returned.
    pub fn drop_returned_value(&mut self, value: &ast::Expr, out: &mut ir::Block) {
        let v = self.lower_value(value);
        if !self.is_pure(v.expr) {
            out.push(ir::Statement::Expr(v.expr), value.span);
        }
    }

    /// `if (let name = value) then else els`.
    pub fn lower_if_let(
        &mut self,
        name: &ast::Ident,
        value: &ast::Expr,
        branches: (&ast::Stmt, Option<&ast::Stmt>),
        span: Span,
        out: &mut ir::Block,
    ) {
        let (then, els) = branches;
        let v = self.lower_value(value);
        let ty = v.ty.unwrap_or(self.error_ty);
        let inner = if self.is_none_type(ty) {
            None
        } else {
            match self.optional_inner(ty) {
                Some(inner) => Some(inner),
                None => {
                    if ty != self.error_ty {
                        let found = self.type_name(ty);
                        self.error(
                            codes::NOT_OPTIONAL,
                            format!(
                                "`if (let ...)` needs an `Optional<T>` (or a `Conditional`'s \
                                 `get()`), found `{found}`"
                            ),
                            value.span,
                        );
                    }
                    Some(self.error_ty)
                }
            }
        };
        let known = if self.is_none_type(ty) {
            Some(None)
        } else {
            self.known_optional(v.expr)
        };
        let inner = inner.unwrap_or(self.error_ty);
        match known {
            Some(Some(held)) => {
                // Known to hold a value: `{ T name = value; then }`.
                let mut block = ir::Block::default();
                self.push_scope();
                self.bind_let(name, inner, Some(held), &mut block);
                let body = self.lower_scoped(then);
                block.push(ir::Statement::Block(body), then.span);
                self.pop_scope();
                out.push(ir::Statement::Block(block), span);
            }
            Some(None) => {
                // Known to hold none: `then` is checked, and dropped.
                let mut dropped = ir::Block::default();
                self.push_scope();
                self.bind_let(name, inner, None, &mut dropped);
                let _ = self.lower_scoped(then);
                self.pop_scope();
                if let Some(els) = els {
                    let body = self.lower_scoped(els);
                    out.push(ir::Statement::Block(body), els.span);
                }
            }
            None => {
                // `{ Optional<T> tmp = value; if (tmp.hasValue) { T name =
                // tmp.value; then } else els }`
                let mut block = ir::Block::default();
                let Some(ctx) = &mut self.ctx else { return };
                let tmp = ctx.func.locals.append(
                    ir::LocalVariable {
                        name: format!("{}_optional", name.name),
                        ty,
                        is_static: false,
                        is_const: false,
                    },
                    name.span,
                );
                block.push(
                    ir::Statement::Declare {
                        local: tmp,
                        init: Some(v.expr),
                    },
                    value.span,
                );
                let bool_ty = self.bool_ty();
                let read = self.append(ir::Expression::Local(tmp), Some(ty), span);
                let condition = self.append(
                    ir::Expression::Member {
                        base: read.expr,
                        index: 1,
                    },
                    Some(bool_ty),
                    value.span,
                );
                let read = self.append(ir::Expression::Local(tmp), Some(ty), span);
                let held = self.append(
                    ir::Expression::Member {
                        base: read.expr,
                        index: 0,
                    },
                    Some(inner),
                    value.span,
                );
                let mut accept = ir::Block::default();
                self.push_scope();
                self.bind_let(name, inner, Some(held.expr), &mut accept);
                let body = self.lower_scoped(then);
                accept.push(ir::Statement::Block(body), then.span);
                self.pop_scope();
                let reject = els.map(|e| self.lower_scoped(e)).unwrap_or_default();
                block.push(
                    ir::Statement::If {
                        condition: condition.expr,
                        accept: Box::new(accept),
                        reject: Box::new(reject),
                    },
                    span,
                );
                out.push(ir::Statement::Block(block), span);
            }
        }
    }

    /// Declares the `let` of an `if (let ...)`.
    fn bind_let(
        &mut self,
        name: &ast::Ident,
        ty: Handle<Type>,
        init: Option<Handle<ir::Expression>>,
        out: &mut ir::Block,
    ) {
        let Some(ctx) = &mut self.ctx else { return };
        let local = ctx.func.locals.append(
            ir::LocalVariable {
                name: name.name.clone(),
                ty,
                is_static: false,
                is_const: true,
            },
            name.span,
        );
        out.push(ir::Statement::Declare { local, init }, name.span);
        self.declare_value(
            name,
            ValueSymbol::Local {
                handle: local,
                constant: None,
            },
        );
    }

    /// Declares a parameter or local left out as `Conditional<T, false>`.
    pub fn declare_absent(&mut self, name: &ast::Ident, inner: Handle<Type>) {
        self.declare_value(name, ValueSymbol::AbsentConditional { inner });
    }

    /// The parameters of `decl` that are there: all but the
    /// `Conditional<T, false>` ones.
    pub fn kept_params<'d>(&self, decl: &'d ast::FunctionDecl) -> Vec<&'d ast::Param> {
        decl.params
            .iter()
            .filter(|p| self.conditional_present(&p.ty) != Some(false))
            .collect()
    }

    /// Declares the parameters of the function being lowered (IR
    /// parameters from `first` on); a `Conditional<T, false>` one is
    /// declared left out, a `Conditional<T, true>` one noted.
    pub fn declare_params(&mut self, decl: &ast::FunctionDecl, first: u32) {
        let absent_result = self.conditional_present(&decl.return_type) == Some(false);
        self.reset_conditionals(absent_result);
        let mut index = first;
        for param in &decl.params {
            match self.conditional_type(&param.ty) {
                Some((inner, false)) => {
                    self.declare_absent(&param.declarator.name, inner);
                    continue;
                }
                Some((_, true)) => self.note_present_param(index),
                None => {}
            }
            self.declare_value(&param.declarator.name, ValueSymbol::Param { index });
            index += 1;
        }
    }

    /// `Conditional<T, false> a = v, b;`: names that hold nothing; an
    /// initializer is checked (and kept only for its effects).
    pub fn lower_absent_locals(
        &mut self,
        decl: &ast::VarDecl,
        inner: Handle<Type>,
        out: &mut ir::Block,
    ) {
        for d in &decl.declarators {
            if let Some(init) = &d.init {
                let v = self.lower_initializer(init, inner);
                if !self.is_pure(v) {
                    out.push(ir::Statement::Expr(v), init.span);
                }
            }
            self.declare_absent(&d.name, inner);
        }
    }
}
