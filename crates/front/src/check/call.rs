//! Calls: user functions with overload resolution, type constructors
//! (`float4(v, 1)`), and initializer lists (`{1, {2, 3}}`).

use legalis_ir as ir;
use legalis_ir::{Handle, Span, Type, TypeInner};

use super::convert::Value;
use super::types::Shape;
use super::{Checker, TypeSymbol, ValueSymbol};
use crate::{ast, codes};

impl Checker<'_> {
    pub fn lower_call(&mut self, callee: &ast::Expr, args: &[ast::Expr], span: Span) -> Value {
        match &callee.kind {
            ast::ExprKind::TypeRef(t)
                if t.name == "reinterpret"
                    && self.lookup_type(&t.name).is_none()
                    && self.generic_functions(&t.name).is_none() =>
            {
                self.lower_reinterpret(t, args, span)
            }
            ast::ExprKind::TypeRef(t) => {
                // `f<float, 3>(x)`: explicit arguments of a generic function.
                if self.lookup_type(&t.name).is_none()
                    && let Some(templates) = self.generic_functions(&t.name)
                {
                    return self.lower_generic_call(
                        &t.name,
                        &templates,
                        &[],
                        &t.args,
                        None,
                        args,
                        span,
                    );
                }
                let ty = self.resolve_type(t);
                self.lower_constructor(ty, args, span)
            }
            ast::ExprKind::Name(path) => {
                let written = super::consteval::path_text(path);
                // `T::make()` with `T` a generic parameter (or an alias):
                // the static function of the struct it names.
                let name = &match self.static_through_alias(path) {
                    Some(key) => key,
                    None => written,
                };
                if let Some(templates) = self.generic_functions(name) {
                    let plain = match self.lookup_value(name) {
                        Some(ValueSymbol::Functions(list)) => list.clone(),
                        _ => Vec::new(),
                    };
                    let this = self.generic_implicit_this(&templates, callee.span);
                    return self.lower_generic_call(
                        name,
                        &templates,
                        &plain,
                        &[],
                        this,
                        args,
                        span,
                    );
                }
                match self.lookup_value(name).cloned() {
                    Some(ValueSymbol::Functions(candidates)) => {
                        let this = self.implicit_this(&candidates, callee.span);
                        return self.lower_user_call(name, &candidates, this, args, span);
                    }
                    Some(_) => {
                        self.error(
                            codes::TYPE_MISMATCH,
                            format!("`{name}` is not a function"),
                            callee.span,
                        );
                        return self.error_value(span);
                    }
                    None => {}
                }
                // `RaytracingAccelerationStructure(handle)`,
                // `SamplerState(handle)`: a resource type with no type
                // arguments, read from a `DescriptorHandle`.
                let plain_resource = matches!(
                    name.as_str(),
                    "RaytracingAccelerationStructure" | "SamplerState" | "SamplerComparisonState"
                );
                if super::types::numeric_from_name(name).is_some()
                    || self.lookup_type(name).is_some()
                    || plain_resource
                {
                    let t = ast::TypeExpr {
                        name: name.clone(),
                        args: Vec::new(),
                        modifiers: Vec::new(),
                        span: callee.span,
                    };
                    if let Some(TypeSymbol::Enum(_)) = self.lookup_type(name) {
                        // `MyEnum(3)` converts like a cast.
                        let ty = self.resolve_type(&t);
                        return self.lower_constructor(ty, args, span);
                    }
                    let ty = self.resolve_type(&t);
                    return self.lower_constructor(ty, args, span);
                }
                if self.options.allow_glsl
                    && let Some(t) = super::glsl::type_name(name, callee.span)
                {
                    // `vec4(...)`, `ivec2(...)`: a constructor of the HLSL type.
                    let ty = self.resolve_type(&t);
                    return self.lower_constructor(ty, args, span);
                }
                if let Some(fun) = ir::Intrinsic::function_from_name(name) {
                    return self.lower_intrinsic_call(fun, args, span);
                }
                if let ("and" | "or", [left, right]) = (name.as_str(), args) {
                    // HLSL 2021 component-wise logical operators.
                    let op = if name == "and" {
                        ast::BinaryOp::And
                    } else {
                        ast::BinaryOp::Or
                    };
                    let l = self.lower_value(left);
                    let r = self.lower_value(right);
                    return self.lower_binary(op, l, r, (left.span, right.span), span);
                }
                if name == "select" {
                    // HLSL 2021 `select(c, a, b)`: the component-wise `c ? a : b`.
                    if let [cond, then, els] = args {
                        return self.lower_ternary(cond, then, els, span);
                    }
                    self.error(
                        codes::WRONG_ARGUMENT_COUNT,
                        format!("`select` takes 3 arguments, found {}", args.len()),
                        span,
                    );
                    return self.error_value(span);
                }
                if name == "printf" {
                    return self.printf_as_value(callee, span);
                }
                if self.options.allow_glsl
                    && let Some(value) = self.lower_glsl_call(name, args, span)
                {
                    return value;
                }
                self.error(
                    codes::UNDEFINED_NAME,
                    format!("undefined function `{name}`"),
                    callee.span,
                );
                for a in args {
                    self.lower_expr(a);
                }
                self.error_value(span)
            }
            _ => {
                self.error(
                    codes::TYPE_MISMATCH,
                    "this expression cannot be called",
                    callee.span,
                );
                self.error_value(span)
            }
        }
    }

    /// `T::f` where `T` names a struct under another name (a generic
    /// parameter bound to it, a typedef): `S::f`, the key its functions
    /// are declared under, when that key has functions.
    fn static_through_alias(&self, path: &[ast::Ident]) -> Option<String> {
        let (last, prefix) = path.split_last()?;
        if prefix.is_empty() {
            return None;
        }
        let written = super::consteval::path_text(prefix);
        let Some(TypeSymbol::Type(ty)) = self.lookup_type(&written) else {
            return None;
        };
        let type_name = self.module.types.try_get(ty)?.name.as_deref()?;
        if type_name == written {
            return None;
        }
        let key = format!("{type_name}::{}", last.name);
        let known = matches!(self.global_value(&key), Some(ValueSymbol::Functions(_)))
            || self.generic_methods(&key).is_some();
        known.then_some(key)
    }

    /// A call of a user function from the overload set `candidates`;
    /// `this` is the object of a member-function call, passed first.
    pub fn lower_user_call(
        &mut self,
        name: &str,
        candidates: &[usize],
        this: Option<(Value, Span)>,
        args: &[ast::Expr],
        span: Span,
    ) -> Value {
        let mut values: Vec<Value> = Vec::with_capacity(args.len() + 1);
        let mut spans: Vec<Span> = Vec::with_capacity(args.len() + 1);
        if let Some((v, s)) = this {
            values.push(v);
            spans.push(s);
        }
        for a in args {
            values.push(self.lower_value(a));
            spans.push(a.span);
        }
        if values.iter().any(|v| v.ty == Some(self.error_ty)) {
            return self.error_value(span);
        }
        self.call_with_values(name, candidates, this.is_some(), values, &spans, args, span)
    }

    /// Picks the overload of `candidates` the lowered arguments `values`
    /// fit best and calls it; `method` when the first value is `this`
    /// (`args` are the written arguments, `this` not among them).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn call_with_values(
        &mut self,
        name: &str,
        candidates: &[usize],
        method: bool,
        values: Vec<Value>,
        spans: &[Span],
        args: &[ast::Expr],
        span: Span,
    ) -> Value {
        let mut best: Vec<(u32, usize)> = Vec::new();
        for &f in candidates {
            let Some(cost) = self.call_cost(f, &values) else {
                continue;
            };
            match best.first() {
                Some(&(c, _)) if cost > c => {}
                Some(&(c, _)) if cost == c => best.push((cost, f)),
                _ => best = vec![(cost, f)],
            }
        }
        let f = match best.as_slice() {
            [(_, f)] => *f,
            [] => {
                if let Some(fun) = ir::Intrinsic::function_from_name(name)
                    && !method
                {
                    return self.lower_intrinsic_values(fun, values, args, span);
                }
                let arg_types: Vec<String> = values
                    .iter()
                    .map(|v| self.type_name(v.ty.unwrap_or(self.error_ty)))
                    .collect();
                self.error(
                    codes::NO_MATCHING_OVERLOAD,
                    format!(
                        "no overload of `{name}` takes arguments ({})",
                        arg_types.join(", ")
                    ),
                    span,
                );
                return self.error_value(span);
            }
            _ => {
                self.error(
                    codes::AMBIGUOUS_OVERLOAD,
                    format!(
                        "call to `{name}` is ambiguous: {} overloads match equally well",
                        best.len()
                    ),
                    span,
                );
                return self.error_value(span);
            }
        };
        let params = self.funcs[f].params.clone();
        let mut lowered = Vec::with_capacity(params.len());
        for (i, param) in params.iter().enumerate() {
            let expr = match values.get(i) {
                Some(&v) => {
                    if param.constexpr {
                        let e = self.coerce(v, param.ty, spans[i]);
                        self.require_constexpr_arg(e, spans[i]);
                        e
                    } else if param.direction == ir::ParamDirection::In {
                        self.coerce(v, param.ty, spans[i])
                    } else {
                        self.require_place(v.expr, spans[i]);
                        v.expr
                    }
                }
                None => match &param.default {
                    Some(default) => self.lower_initializer(default, param.ty),
                    None => return self.error_value(span),
                },
            };
            lowered.push(expr);
        }
        if let Some(ctx) = &mut self.ctx {
            ctx.calls.push((f, span));
        }
        let result = self.funcs[f].result;
        let function = Handle::from_index(f);
        self.append(
            ir::Expression::Call {
                function,
                args: lowered,
            },
            result,
            span,
        )
    }

    /// Inside a member function, a bare call of a sibling member function
    /// passes the same `this`.
    fn implicit_this(&mut self, candidates: &[usize], span: Span) -> Option<(Value, Span)> {
        let this_ty = self.ctx.as_ref()?.this_ty?;
        if !candidates
            .iter()
            .any(|&f| self.funcs[f].this_ty == Some(this_ty))
        {
            return None;
        }
        let this = self.append(ir::Expression::Param(0), Some(this_ty), span);
        Some((this, span))
    }

    /// Total conversion cost of calling `f` with `values`, or `None`.
    pub(super) fn call_cost(&self, f: usize, values: &[Value]) -> Option<u32> {
        let info = &self.funcs[f];
        let required = info
            .params
            .iter()
            .take_while(|p| p.default.is_none())
            .count();
        if values.len() > info.params.len() || values.len() < required {
            return None;
        }
        let mut total = 0;
        for (v, p) in values.iter().zip(&info.params) {
            let ty = v.ty?;
            total += match p.direction {
                ir::ParamDirection::In => self.conversion_cost(ty, p.ty)?,
                _ if ty == p.ty || ty == self.error_ty => 0,
                _ => return None,
            };
        }
        Some(total)
    }

    /// `T(args)` for numeric `T`: one argument converts (splat, element-wise
    /// or truncation); several arguments must supply exactly `T`'s components.
    pub fn lower_constructor(&mut self, ty: Handle<Type>, args: &[ast::Expr], span: Span) -> Value {
        if ty == self.error_ty {
            for a in args {
                self.lower_expr(a);
            }
            return self.error_value(span);
        }
        // `DescriptorHandle<T>(bits)`, `T(handle)`.
        if let [arg] = args
            && (self.handle_resource(Some(ty)).is_some() || self.inner(ty).is_resource())
        {
            return self.lower_handle_constructor(ty, arg, span);
        }
        if matches!(self.inner(ty), TypeInner::Struct { .. }) {
            // `S(args)`: the constructor (`__init`) of `S` the arguments pick.
            let ctors: Vec<usize> = (0..self.funcs.len())
                .filter(|&f| self.funcs[f].constructs == Some(ty))
                .collect();
            if !ctors.is_empty() {
                let name = format!("{}::__init", self.type_name(ty));
                return self.lower_user_call(&name, &ctors, None, args, span);
            }
            // Slang's member-wise constructor of a struct without `__init`.
            if let Some(v) = self.memberwise_constructor(ty, args, span) {
                return v;
            }
        }
        let Some((scalar, shape)) = self.numeric(ty) else {
            let name = self.type_name(ty);
            self.error(
                codes::TYPE_MISMATCH,
                format!("`{name}` has no constructor; use an initializer list `{{...}}` or a cast"),
                span,
            );
            return self.error_value(span);
        };
        if args.len() == 1 {
            let v = self.lower_value(&args[0]);
            let from = v.ty.unwrap_or(self.error_ty);
            if let Some((_, from_shape)) = self.numeric(from) {
                let fits = from_shape.converts_explicitly_to(shape);
                if fits {
                    return self.convert_to(v, ty, span);
                }
            } else if from == self.error_ty {
                return self.error_value(span);
            }
            let name = self.type_name(from);
            let target = self.type_name(ty);
            self.error(
                codes::TYPE_MISMATCH,
                format!("cannot construct `{target}` from `{name}`"),
                args[0].span,
            );
            return self.error_value(span);
        }
        let components = self.lower_components(args, scalar, shape, span);
        match components {
            Some(components) => {
                self.append(ir::Expression::Construct { components }, Some(ty), span)
            }
            None => self.error_value(span),
        }
    }

    /// Lowers constructor arguments, each converted to `scalar` in its own
    /// shape, and checks that they supply exactly the target's components.
    fn lower_components(
        &mut self,
        args: &[ast::Expr],
        scalar: ir::Scalar,
        shape: Shape,
        span: Span,
    ) -> Option<Vec<Handle<ir::Expression>>> {
        let mut components = Vec::with_capacity(args.len());
        let mut count = 0;
        let mut failed = false;
        for a in args {
            let v = self.lower_value(a);
            let from = v.ty.unwrap_or(self.error_ty);
            match self.numeric(from) {
                Some((_, s)) => {
                    count += s.component_count();
                    let target = self.numeric_ty(scalar, s);
                    components.push(self.convert_to(v, target, a.span).expr);
                }
                None if from == self.error_ty => failed = true,
                None => {
                    let name = self.type_name(from);
                    self.error(
                        codes::TYPE_MISMATCH,
                        format!("a constructor argument must be numeric, found `{name}`"),
                        a.span,
                    );
                    failed = true;
                }
            }
        }
        if failed {
            return None;
        }
        if count != shape.component_count() {
            self.error(
                codes::WRONG_ARGUMENT_COUNT,
                format!(
                    "constructor needs {} components, the arguments supply {count}",
                    shape.component_count()
                ),
                span,
            );
            return None;
        }
        Some(components)
    }

    /// `{...}` for arrays, structs, vectors and matrices. Nested lists match
    /// nested aggregates; a flat list of scalars fills the leaves in order.
    pub fn lower_init_list(
        &mut self,
        items: &[ast::Expr],
        ty: Handle<Type>,
        span: Span,
    ) -> Handle<ir::Expression> {
        if ty == self.error_ty {
            return self.error_value(span).expr;
        }
        // `{}`: the type's default, zero (Slang).
        if items.is_empty()
            && let Some(zero) = self.zero_value(ty, span)
        {
            return zero;
        }
        let elements = self.inner(ty).parts();
        let is_struct = matches!(self.inner(ty), TypeInner::Struct { .. });
        if let Some(elements) = elements {
            if is_struct
                && items.len() < elements.len()
                && !items
                    .iter()
                    .any(|i| matches!(i.kind, ast::ExprKind::InitList(_)))
            {
                // Slang: the first fields from the list, the rest their
                // default value or zero.
                let defaults = self.field_defaults.get(&ty).cloned().unwrap_or_default();
                let mut components = Vec::with_capacity(elements.len());
                for (index, ety) in elements.into_iter().enumerate() {
                    let component = match (
                        items.get(index),
                        defaults.iter().find(|(i, _)| *i as usize == index),
                    ) {
                        (Some(item), _) => self.lower_initializer(item, ety),
                        (None, Some((_, value))) => self.lower_initializer(value, ety),
                        (None, None) => match self.zero_value(ety, span) {
                            Some(zero) => zero,
                            None => {
                                let name = self.type_name(ty);
                                self.error(
                                    codes::BAD_INITIALIZER,
                                    format!(
                                        "initializer list has {} element(s) for the {} fields of `{name}`, and field {index} has no zero value",
                                        items.len(),
                                        components.capacity()
                                    ),
                                    span,
                                );
                                return self.error_value(span).expr;
                            }
                        },
                    };
                    components.push(component);
                }
                return self
                    .append(ir::Expression::Construct { components }, Some(ty), span)
                    .expr;
            }
            if elements.len() == items.len() {
                let components = items
                    .iter()
                    .zip(elements)
                    .map(|(item, ety)| self.lower_initializer(item, ety))
                    .collect();
                return self
                    .append(ir::Expression::Construct { components }, Some(ty), span)
                    .expr;
            }
            let mut leaves = Vec::new();
            flatten_init_list(items, &mut leaves);
            let mut cursor = 0;
            let out = self.fill_from_leaves(&leaves, &mut cursor, ty, span);
            if cursor != leaves.len() || out.is_none() {
                let name = self.type_name(ty);
                self.error(
                    codes::BAD_INITIALIZER,
                    format!(
                        "initializer list has {} element(s), which do not fit `{name}`",
                        items.len()
                    ),
                    span,
                );
                return self.error_value(span).expr;
            }
            return out.unwrap_or_else(|| self.error_value(span).expr);
        }
        if let Some((scalar, shape)) = self.numeric(ty) {
            if items.len() == 1 && !matches!(items[0].kind, ast::ExprKind::InitList(_)) {
                return self.lower_initializer(&items[0], ty);
            }
            if items
                .iter()
                .any(|i| matches!(i.kind, ast::ExprKind::InitList(_)))
            {
                // `float3x3 m = { {1, 0, 0}, {0, 1, 0}, {0, 0, 1} };`
                let mut leaves = Vec::new();
                flatten_init_list(items, &mut leaves);
                let mut cursor = 0;
                let out = self.fill_from_leaves(&leaves, &mut cursor, ty, span);
                return match out {
                    Some(expr) if cursor == leaves.len() => expr,
                    _ => {
                        let name = self.type_name(ty);
                        self.error(
                            codes::BAD_INITIALIZER,
                            format!("initializer list does not fit `{name}`"),
                            span,
                        );
                        self.error_value(span).expr
                    }
                };
            }
            return match self.lower_components(items, scalar, shape, span) {
                Some(components) => {
                    self.append(ir::Expression::Construct { components }, Some(ty), span)
                        .expr
                }
                None => self.error_value(span).expr,
            };
        }
        let name = self.type_name(ty);
        self.error(
            codes::BAD_INITIALIZER,
            format!("`{name}` cannot be initialized with a list"),
            span,
        );
        self.error_value(span).expr
    }

    /// Builds a value of `ty` from scalar leaves, consuming them in order.
    fn fill_from_leaves(
        &mut self,
        leaves: &[&ast::Expr],
        cursor: &mut usize,
        ty: Handle<Type>,
        span: Span,
    ) -> Option<Handle<ir::Expression>> {
        let inner = self.inner(ty).clone();
        let parts: Vec<Handle<Type>> = match inner {
            ref inner if let Some(parts) = inner.parts() => parts,
            _ => {
                let (scalar, shape) = self.numeric(ty)?;
                let n = shape.component_count() as usize;
                let slice = leaves.get(*cursor..*cursor + n)?;
                *cursor += n;
                let scalar_ty = self.scalar_ty(scalar);
                let mut comps = Vec::with_capacity(n);
                for leaf in slice {
                    let v = self.lower_value(leaf);
                    comps.push(self.coerce(v, scalar_ty, leaf.span));
                }
                if n == 1 {
                    return comps.pop();
                }
                return Some(
                    self.append(
                        ir::Expression::Construct { components: comps },
                        Some(ty),
                        span,
                    )
                    .expr,
                );
            }
        };
        let mut components = Vec::with_capacity(parts.len());
        for part in parts {
            components.push(self.fill_from_leaves(leaves, cursor, part, span)?);
        }
        Some(
            self.append(ir::Expression::Construct { components }, Some(ty), span)
                .expr,
        )
    }
}

fn flatten_init_list<'e>(items: &'e [ast::Expr], out: &mut Vec<&'e ast::Expr>) {
    for item in items {
        match &item.kind {
            ast::ExprKind::InitList(inner) => flatten_init_list(inner, out),
            _ => out.push(item),
        }
    }
}
