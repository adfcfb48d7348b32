//! Checks of expressions: handles, types, member and swizzle shapes, calls,
//! places, and that every expression has at most one parent.
//!
//! Each expression is checked on its own by iterating the arena (so even an
//! unreachable one with a bad handle is caught); tree shape is checked by
//! walking from the roots that statements and initializers use.

use super::{ErrorKind, NotPlaceReason, PlaceContext, Report, Site};
use crate::print::{struct_members, type_name};
use crate::{
    Expression, ExpressionArena, Function, Handle, Literal, Module, ParamDirection, ScalarKind,
    Type, TypeInner,
};

pub(super) struct ExprContext<'a> {
    pub(super) module: &'a Module,
    pub(super) exprs: &'a ExpressionArena,
    /// The function owning the arena; `None` for global initializers.
    pub(super) function: Option<(Handle<Function>, &'a Function)>,
}

/// Whether a root may be a call of a `void` function.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum RootKind {
    Value,
    /// An expression statement, evaluated only for its effect.
    Effect,
}

impl<'a> ExprContext<'a> {
    pub(super) fn check_all(&self, report: &mut Report) {
        let mut children = Vec::new();
        for (handle, expr) in self.exprs.iter() {
            let mut found = Vec::new();
            self.check_type(handle, expr, &mut found);
            self.check_expression(expr, &mut found, &mut children);
            let span = self.exprs.span(handle);
            for kind in found {
                report.push(Site::Expression(handle), kind, span);
            }
        }
    }

    /// The type of `expr`, if it has one that resolves.
    pub(super) fn type_of(&self, expr: Handle<Expression>) -> Option<(Handle<Type>, &'a Type)> {
        let ty = self.exprs.ty(expr)?;
        Some((ty, self.module.types.try_get(ty)?))
    }

    /// A call of an existing function that has no result.
    fn calls_void(&self, expr: &Expression) -> bool {
        match expr {
            Expression::Call { function, .. } => self
                .module
                .functions
                .try_get(*function)
                .is_some_and(|f| f.result.is_none()),
            _ => false,
        }
    }

    /// A call that yields nothing: of a function without result, or of an
    /// intrinsic left untyped (the front end owns intrinsic signatures, so an
    /// untyped one is taken to return `void`: barriers, `Append`, `Store`).
    pub(super) fn is_void_value(&self, expr: Handle<Expression>) -> bool {
        self.exprs.contains(expr)
            && match &self.exprs[expr] {
                Expression::Intrinsic { .. } => self.exprs.ty(expr).is_none(),
                other => self.calls_void(other),
            }
    }

    fn check_type(
        &self,
        handle: Handle<Expression>,
        expr: &Expression,
        found: &mut Vec<ErrorKind>,
    ) {
        // Whether a missing type may mean "returns nothing".
        let maybe_void = match expr {
            Expression::Call { function, .. } => {
                self.calls_void(expr) || !self.module.functions.contains(*function)
            }
            Expression::Intrinsic { .. } => true,
            _ => false,
        };
        match self.exprs.ty(handle) {
            None if !maybe_void => found.push(ErrorKind::MissingType),
            None => {}
            Some(ty) if !self.module.types.contains(ty) => found.push(ErrorKind::BadType(ty)),
            Some(_) if self.calls_void(expr) => found.push(ErrorKind::VoidCallTyped),
            Some(ty) => {
                if let Expression::Literal(literal) = expr {
                    self.check_literal(*literal, ty, found);
                }
            }
        }
    }

    fn check_literal(&self, literal: Literal, ty: Handle<Type>, found: &mut Vec<ErrorKind>) {
        let (name, kind) = match literal {
            Literal::Bool(_) => ("bool", ScalarKind::Bool),
            Literal::Int(_) => ("signed integer", ScalarKind::Sint),
            Literal::Uint(_) => ("unsigned integer", ScalarKind::Uint),
            Literal::Float(_) => ("float", ScalarKind::Float),
        };
        let matches = matches!(self.module.types.try_get(ty),
            Some(Type { inner: TypeInner::Scalar(s), .. }) if s.kind == kind);
        if !matches {
            let ty = type_name(self.module, ty);
            found.push(ErrorKind::LiteralType { literal: name, ty });
        }
    }

    /// `children` is scratch space, reused across expressions.
    fn check_expression(
        &self,
        expr: &Expression,
        found: &mut Vec<ErrorKind>,
        children: &mut Vec<Handle<Expression>>,
    ) {
        children.clear();
        push_children(expr, children);
        for &child in children.iter() {
            if !self.exprs.contains(child) {
                found.push(ErrorKind::BadExpression(child));
            } else if self.is_void_value(child) {
                found.push(ErrorKind::VoidValue(child));
            }
        }
        match expr {
            Expression::Global(global) if !self.module.globals.contains(*global) => {
                found.push(ErrorKind::BadGlobal(*global));
            }
            Expression::Local(local) => match self.function {
                None => found.push(ErrorKind::OutsideFunction("local variable")),
                Some((_, func)) if !func.locals.contains(*local) => {
                    found.push(ErrorKind::BadLocal(*local));
                }
                Some(_) => {}
            },
            Expression::Param(index) => match self.function {
                None => found.push(ErrorKind::OutsideFunction("parameter")),
                Some((_, func)) if *index as usize >= func.params.len() => {
                    let count = func.params.len();
                    found.push(ErrorKind::ParamOutOfRange {
                        index: *index,
                        count,
                    });
                }
                Some(_) => {}
            },
            Expression::Member { base, index } => self.check_member(*base, *index, found),
            Expression::Swizzle { base, components } => {
                self.check_swizzle(*base, components, found);
            }
            Expression::Call { function, args } => self.check_call(*function, args, found),
            Expression::Intrinsic { fun, args } if fun.is_method() && args.is_empty() => {
                found.push(ErrorKind::MethodWithoutObject(*fun));
            }
            Expression::Assign { target, .. } => {
                self.check_place(*target, PlaceContext::Assign, found);
            }
            Expression::IncDec { target, .. } => {
                self.check_place(*target, PlaceContext::IncDec, found);
            }
            _ => {}
        }
    }

    fn check_member(&self, base: Handle<Expression>, index: u32, found: &mut Vec<ErrorKind>) {
        let Some((ty, _)) = self.type_of(base) else {
            return;
        };
        match struct_members(self.module, ty) {
            Some(members) if index as usize >= members.len() => {
                found.push(ErrorKind::MemberOutOfRange {
                    index,
                    count: members.len(),
                    ty: type_name(self.module, ty),
                });
            }
            Some(_) => {}
            None => found.push(ErrorKind::MemberOfNonStruct {
                ty: type_name(self.module, ty),
            }),
        }
    }

    fn check_swizzle(
        &self,
        base: Handle<Expression>,
        components: &[u8],
        found: &mut Vec<ErrorKind>,
    ) {
        if !(1..=4).contains(&components.len()) {
            found.push(ErrorKind::SwizzleLength(components.len()));
        }
        let base_size = match self.type_of(base) {
            None => None,
            Some((
                _,
                Type {
                    inner: TypeInner::Vector { size, .. },
                    ..
                },
            )) => Some(*size),
            Some((
                _,
                Type {
                    inner: TypeInner::Scalar(_),
                    ..
                },
            )) => Some(1),
            Some((ty, _)) => {
                let ty = type_name(self.module, ty);
                found.push(ErrorKind::SwizzleOfNonVector { ty });
                None
            }
        };
        // One report per swizzle: `.xxxxxx` on a broken base is one mistake.
        if let Some(&component) = components.iter().find(|&&c| c > 3) {
            found.push(ErrorKind::SwizzleComponent(component));
        } else if let Some(size) = base_size
            && let Some(&component) = components.iter().find(|&&c| c >= size)
            && let Some((ty, _)) = self.type_of(base)
        {
            let ty = type_name(self.module, ty);
            found.push(ErrorKind::SwizzleBeyondBase { component, ty });
        }
    }

    fn check_call(
        &self,
        callee: Handle<Function>,
        args: &[Handle<Expression>],
        found: &mut Vec<ErrorKind>,
    ) {
        let Some(func) = self.module.functions.try_get(callee) else {
            found.push(ErrorKind::BadFunction(callee));
            return;
        };
        if let Some((caller, _)) = self.function
            && callee >= caller
        {
            let callee = func.name.clone();
            found.push(ErrorKind::CalleeNotBefore { callee });
        }
        if args.len() != func.params.len() {
            found.push(ErrorKind::ArgumentCount {
                callee: func.name.clone(),
                expected: func.params.len(),
                found: args.len(),
            });
        }
        for (index, (param, &arg)) in func.params.iter().zip(args).enumerate() {
            if param.direction != ParamDirection::In {
                self.check_place(arg, PlaceContext::OutArgument(index), found);
            }
        }
    }

    fn check_place(
        &self,
        target: Handle<Expression>,
        context: PlaceContext,
        found: &mut Vec<ErrorKind>,
    ) {
        if let Some(reason) = self.place_problem(target) {
            found.push(ErrorKind::NotAPlace { context, reason });
        }
    }

    /// Why `expr` does not denote writable storage, or `None` if it does (or
    /// if it is too broken to tell; its handles are reported elsewhere).
    pub(super) fn place_problem(&self, expr: Handle<Expression>) -> Option<NotPlaceReason> {
        let mut current = expr;
        // A forged cycle of bases cannot loop more often than there are expressions.
        for _ in 0..=self.exprs.len() {
            if !self.exprs.contains(current) {
                return None;
            }
            current = match &self.exprs[current] {
                Expression::Global(global) => return self.global_place(*global),
                Expression::Local(local) => return self.local_place(*local),
                // What a pointer points to is writable device memory.
                Expression::Param(_) | Expression::Deref { .. } => return None,
                Expression::Member { base, .. } => match self.type_of(*base) {
                    Some((ty, t))
                        if matches!(
                            t.inner,
                            TypeInner::ConstantBuffer { .. } | TypeInner::TextureBuffer { .. }
                        ) =>
                    {
                        return Some(NotPlaceReason::ReadOnly(type_name(self.module, ty)));
                    }
                    _ => *base,
                },
                Expression::Index { base, .. } => match self.indexed_storage(*base) {
                    Indexed::Writable => return None,
                    Indexed::ReadOnly(ty) => return Some(NotPlaceReason::ReadOnly(ty)),
                    Indexed::Value => *base,
                },
                Expression::Swizzle { base, components } => {
                    let repeats = components
                        .iter()
                        .enumerate()
                        .any(|(i, c)| components[..i].contains(c));
                    if repeats {
                        return Some(NotPlaceReason::RepeatedSwizzle);
                    }
                    *base
                }
                other => return Some(NotPlaceReason::Value(kind_name(other))),
            };
        }
        None
    }

    fn global_place(&self, global: Handle<crate::GlobalVariable>) -> Option<NotPlaceReason> {
        match self.module.globals.try_get(global) {
            Some(g) if g.space == crate::AddressSpace::Constant => {
                Some(NotPlaceReason::ConstantGlobal(g.name.clone()))
            }
            Some(g) if g.space == crate::AddressSpace::Input => {
                Some(NotPlaceReason::StageInput(g.name.clone()))
            }
            _ => None,
        }
    }

    fn local_place(&self, local: Handle<crate::LocalVariable>) -> Option<NotPlaceReason> {
        let (_, func) = self.function?;
        match func.locals.try_get(local) {
            Some(var) if var.is_const => Some(NotPlaceReason::ConstLocal(var.name.clone())),
            _ => None,
        }
    }

    /// What indexing into `base` yields: resources decide by their access,
    /// mesh outputs are written through, values follow their own base.
    fn indexed_storage(&self, base: Handle<Expression>) -> Indexed {
        let Some((ty, t)) = self.type_of(base) else {
            return Indexed::Value;
        };
        match &t.inner {
            TypeInner::Texture(crate::Texture { access, .. })
            | TypeInner::Buffer { access, .. } => {
                if *access == crate::ResourceAccess::Read {
                    Indexed::ReadOnly(type_name(self.module, ty))
                } else {
                    Indexed::Writable
                }
            }
            TypeInner::Patch { .. } => Indexed::ReadOnly(type_name(self.module, ty)),
            TypeInner::MeshOutput { .. } => Indexed::Writable,
            _ => Indexed::Value,
        }
    }
}

enum Indexed {
    Writable,
    ReadOnly(String),
    Value,
}

fn kind_name(expr: &Expression) -> &'static str {
    match expr {
        Expression::Literal(_) => "literal",
        Expression::Global(_) | Expression::Local(_) | Expression::Param(_) => "variable",
        Expression::Member { .. } => "member access",
        Expression::Index { .. } => "index",
        Expression::Deref { .. } => "dereference",
        Expression::Swizzle { .. } => "swizzle",
        Expression::Unary { .. } => "unary expression",
        Expression::Binary { .. } => "binary expression",
        Expression::Select { .. } => "select",
        Expression::Convert { .. } => "conversion",
        Expression::Construct { .. } => "constructor",
        Expression::Call { .. } => "call",
        Expression::Intrinsic { .. } => "intrinsic call",
        Expression::Assign { .. } => "assignment",
        Expression::IncDec { .. } => "increment/decrement",
    }
}

/// The operands of `expr`, in source order.
fn push_children(expr: &Expression, out: &mut Vec<Handle<Expression>>) {
    match expr {
        Expression::Literal(_)
        | Expression::Global(_)
        | Expression::Local(_)
        | Expression::Param(_) => {}
        Expression::Member { base, .. } | Expression::Swizzle { base, .. } => out.push(*base),
        Expression::Index { base, index } => out.extend([*base, *index]),
        Expression::Deref { pointer, index } => {
            out.push(*pointer);
            out.extend(*index);
        }
        Expression::Unary { expr, .. } | Expression::Convert { expr } => out.push(*expr),
        Expression::Binary { left, right, .. } => out.extend([*left, *right]),
        Expression::Select {
            condition,
            accept,
            reject,
        } => out.extend([*condition, *accept, *reject]),
        Expression::Construct { components: list }
        | Expression::Call { args: list, .. }
        | Expression::Intrinsic { args: list, .. } => out.extend(list.iter().copied()),
        Expression::Assign { target, value } => out.extend([*target, *value]),
        Expression::IncDec { target, .. } => out.push(*target),
    }
}

/// How many parents each expression has, filled by walking from the roots.
pub(super) struct Uses {
    count: Vec<u8>,
    /// Work lists kept between roots, so marking allocates nothing.
    stack: Vec<Handle<Expression>>,
    children: Vec<Handle<Expression>>,
}

impl Uses {
    pub(super) fn new(len: usize) -> Self {
        Uses {
            count: vec![0; len],
            stack: Vec::new(),
            children: Vec::new(),
        }
    }

    /// Checks a root used by a statement or initializer (`site` names it,
    /// made only when there is something to report), then marks its whole
    /// tree, reporting every expression reached a second time.
    pub(super) fn root(
        &mut self,
        ctx: &ExprContext,
        root: Handle<Expression>,
        kind: RootKind,
        (site, span): (&dyn Fn() -> Site, crate::Span),
        report: &mut Report,
    ) {
        if !ctx.exprs.contains(root) {
            report.push(site(), ErrorKind::BadExpression(root), span);
            return;
        }
        if kind == RootKind::Value && ctx.is_void_value(root) {
            report.push(site(), ErrorKind::VoidValue(root), ctx.exprs.span(root));
        }
        self.stack.clear();
        self.stack.push(root);
        while let Some(expr) = self.stack.pop() {
            let Some(count) = self.count.get_mut(expr.index()) else {
                continue;
            };
            *count = count.saturating_add(1);
            if *count == 2 {
                report.push(
                    Site::Expression(expr),
                    ErrorKind::Reused,
                    ctx.exprs.span(expr),
                );
            }
            if *count == 1 {
                self.children.clear();
                push_children(&ctx.exprs[expr], &mut self.children);
                self.stack.extend(self.children.iter().copied());
            }
        }
    }
}
