//! Expressions: names, literals, operators, member access, swizzles,
//! indexing and casts, lowered to IR with their types.

use legalis_ir as ir;
use legalis_ir::{Handle, Scalar, ScalarKind, Span, Type, TypeInner};

use super::consteval::path_text;
use super::convert::{Value, common_scalar};
use super::types::Shape;
use super::{Checker, TypeSymbol, ValueSymbol};
use crate::{ast, codes};

/// Deepest expression tree the checker lowers.
pub const MAX_EXPR_DEPTH: u32 = 256;

/// Whether an expression can be assigned to, and if not, why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    Writable,
    ReadOnly(&'static str),
    /// A value that is not stored anywhere (a literal, a call result ...).
    Value,
}

impl Checker<'_> {
    pub fn append(&mut self, expr: ir::Expression, ty: Option<Handle<Type>>, span: Span) -> Value {
        let handle = self.exprs().append(expr, ty, span);
        Value { expr: handle, ty }
    }

    /// A placeholder value after an error.
    /// `this`: parameter 0 of a member function, or the local a
    /// constructor builds.
    fn this_expression(&self) -> ir::Expression {
        match self.ctx.as_ref().and_then(|c| c.this_local) {
            Some(local) => ir::Expression::Local(local),
            None => ir::Expression::Param(0),
        }
    }

    pub fn error_value(&mut self, span: Span) -> Value {
        let ty = self.error_ty;
        self.append(ir::Expression::Literal(ir::Literal::Int(0)), Some(ty), span)
    }

    /// Lowers an expression that must produce a value.
    pub fn lower_value(&mut self, e: &ast::Expr) -> Value {
        let v = self.lower_expr(e);
        if v.ty.is_none() {
            self.error(
                codes::TYPE_MISMATCH,
                "this call returns `void` and has no value",
                e.span,
            );
            return self.error_value(e.span);
        }
        v
    }

    /// Lowers `e` and converts it to `ty`; initializer lists are allowed.
    pub fn lower_initializer(&mut self, e: &ast::Expr, ty: Handle<Type>) -> Handle<ir::Expression> {
        if let ast::ExprKind::InitList(items) = &e.kind {
            return self.lower_init_list(items, ty, e.span);
        }
        let v = self.lower_value(e);
        self.coerce(v, ty, e.span)
    }

    /// A condition: a scalar converted to `bool`.
    pub fn lower_condition(&mut self, e: &ast::Expr) -> Handle<ir::Expression> {
        let v = self.lower_value(e);
        let ty = v.ty.unwrap_or(self.error_ty);
        match self.numeric(ty) {
            Some((s, Shape::Scalar)) if s == Scalar::BOOL => v.expr,
            Some((_, Shape::Scalar)) => {
                let b = self.bool_ty();
                self.convert_to(v, b, e.span).expr
            }
            _ if ty == self.error_ty => v.expr,
            _ => {
                let name = self.type_name(ty);
                self.error(
                    codes::BAD_CONDITION,
                    format!("a condition must be a scalar, found `{name}`"),
                    e.span,
                );
                v.expr
            }
        }
    }

    pub fn lower_expr(&mut self, e: &ast::Expr) -> Value {
        // Long operator chains (`a + b + ... `) are flat in the parser but deep
        // here; bound the recursion so no input can exhaust the stack.
        if self.expr_depth >= MAX_EXPR_DEPTH {
            if !self.depth_reported {
                self.depth_reported = true;
                self.error(
                    codes::PARSE_DEPTH_LIMIT,
                    format!("expression is nested deeper than {MAX_EXPR_DEPTH} levels"),
                    e.span,
                );
            }
            return self.error_value(e.span);
        }
        self.expr_depth += 1;
        let v = self.lower_expr_inner(e);
        self.expr_depth -= 1;
        v
    }

    fn lower_expr_inner(&mut self, e: &ast::Expr) -> Value {
        use ast::ExprKind as K;
        match &e.kind {
            K::TypeTest { value, ty, cast } => self.lower_type_test(value, ty, *cast, e.span),
            K::Int { value, suffix } => self.lower_int_literal(*value, *suffix, e.span),
            K::Float { value, suffix } => {
                let scalar = match suffix {
                    ast::FloatSuffix::H => Scalar::F16,
                    ast::FloatSuffix::L => Scalar::F64,
                    _ => Scalar::F32,
                };
                let ty = self.scalar_ty(scalar);
                self.append(
                    ir::Expression::Literal(ir::Literal::Float(*value)),
                    Some(ty),
                    e.span,
                )
            }
            K::Bool(b) => {
                let ty = self.bool_ty();
                self.append(
                    ir::Expression::Literal(ir::Literal::Bool(*b)),
                    Some(ty),
                    e.span,
                )
            }
            K::String(_) => {
                self.error(
                    codes::TYPE_MISMATCH,
                    "string literals are only allowed in attribute arguments",
                    e.span,
                );
                self.error_value(e.span)
            }
            K::Name(path) => self.lower_name(path, e.span),
            K::Unary { op, expr } => self.lower_unary(*op, expr, e.span),
            K::Binary {
                op: ast::BinaryOp::Comma,
                left,
                right,
            } => {
                self.error(
                    codes::PARSE_UNSUPPORTED,
                    "the comma operator is only supported in expression statements and `for` updates",
                    e.span,
                );
                let _ = (left, right);
                self.error_value(e.span)
            }
            K::Binary { op, left, right } => {
                let l = self.lower_value(left);
                let r = self.lower_value(right);
                self.lower_binary(*op, l, r, (left.span, right.span), e.span)
            }
            K::Assign { op, target, value } => {
                let (target, value) = self.lower_assignment(*op, target, value, e.span);
                let ty = self.exprs_ref().ty(target);
                self.append(ir::Expression::Assign { target, value }, ty, e.span)
            }
            K::Ternary { cond, then, els } => self.lower_ternary(cond, then, els, e.span),
            K::Cast {
                ty,
                array_dims,
                expr,
            } => {
                let base = self.resolve_type(ty);
                let target = self.apply_array_dims(base, array_dims, None);
                self.lower_cast(expr, target, e.span)
            }
            // `HitObject::TraceRay(...)`: a static function of the
            // built-in type.
            K::Call { callee, args } => match &callee.kind {
                K::Name(path) if path.len() == 2 && path[0].name == "HitObject" => {
                    self.lower_hit_object_static(&path[1], args, e.span)
                }
                _ => self.lower_call(callee, args, e.span),
            },
            K::TypeRef(t) => {
                self.error(
                    codes::TYPE_MISMATCH,
                    format!("type `{}` used as a value", t.name),
                    e.span,
                );
                self.error_value(e.span)
            }
            K::MethodCall {
                object,
                method,
                type_args,
                args,
            } => self.lower_method_call_with(object, method, type_args, args, e.span),
            K::Member { base, member } => self.lower_member(base, member, e.span),
            K::Index { base, index } => self.lower_index(base, index, e.span),
            K::InitList(_) => {
                self.error(
                    codes::BAD_INITIALIZER,
                    "an initializer list needs its type from where it goes: a variable's initializer, the value of `=` or a `return`",
                    e.span,
                );
                self.error_value(e.span)
            }
            K::Error => self.error_value(e.span),
        }
    }

    fn lower_int_literal(&mut self, value: u64, suffix: ast::IntSuffix, span: Span) -> Value {
        use ast::IntSuffix as S;
        let (scalar, lit) = match suffix {
            S::U if value <= u32::MAX as u64 => (Scalar::U32, ir::Literal::Uint(value)),
            S::U | S::UL | S::ULL => (Scalar::U64, ir::Literal::Uint(value)),
            S::L | S::LL if value <= i64::MAX as u64 => {
                (Scalar::I64, ir::Literal::Int(value as i64))
            }
            S::L | S::LL => (Scalar::U64, ir::Literal::Uint(value)),
            S::None if value <= i32::MAX as u64 => (Scalar::I32, ir::Literal::Int(value as i64)),
            // Like C: a decimal that does not fit `int` takes the next type that fits.
            S::None if value <= u32::MAX as u64 => (Scalar::U32, ir::Literal::Uint(value)),
            S::None if value <= i64::MAX as u64 => (Scalar::I64, ir::Literal::Int(value as i64)),
            S::None => (Scalar::U64, ir::Literal::Uint(value)),
        };
        let ty = self.scalar_ty(scalar);
        self.append(ir::Expression::Literal(lit), Some(ty), span)
    }

    fn lower_name(&mut self, path: &[ast::Ident], span: Span) -> Value {
        let Some(symbol) = self.lookup_value_path(path) else {
            if let [one] = path
                && one.name == "none"
            {
                // Slang's `none`: an optional without a value.
                return self.none_value(span);
            }
            let text = path_text(path);
            if path.len() == 1 && self.lookup_type(&text).is_some() {
                self.error(
                    codes::TYPE_MISMATCH,
                    format!("type `{text}` used as a value"),
                    span,
                );
            } else {
                self.error(
                    codes::UNDEFINED_NAME,
                    format!("undefined name `{text}`"),
                    span,
                );
            }
            return self.error_value(span);
        };
        match path {
            // Most names are one identifier: no joined copy.
            [one] => self.symbol_value(symbol, &one.name, span),
            _ => self.symbol_value(symbol, &path_text(path), span),
        }
    }

    pub fn symbol_value(&mut self, symbol: ValueSymbol, name: &str, span: Span) -> Value {
        match symbol {
            ValueSymbol::Global { handle, .. } => {
                let ty = self.module.globals[handle].ty;
                self.append(ir::Expression::Global(handle), Some(ty), span)
            }
            ValueSymbol::CbufferMember { global, index } => {
                let block_ty = self.module.globals[global].ty;
                let base = self.append(ir::Expression::Global(global), Some(block_ty), span);
                let ty = self.member_type(block_ty, index).unwrap_or(self.error_ty);
                self.append(
                    ir::Expression::Member {
                        base: base.expr,
                        index,
                    },
                    Some(ty),
                    span,
                )
            }
            ValueSymbol::Local { handle, .. } => {
                let ty = match &self.ctx {
                    Some(ctx) => ctx.func.locals[handle].ty,
                    None => self.error_ty,
                };
                self.append(ir::Expression::Local(handle), Some(ty), span)
            }
            ValueSymbol::Param { index } => {
                let ty = match &self.ctx {
                    Some(ctx) => ctx.func.params[index as usize].ty,
                    None => self.error_ty,
                };
                let param = self.append(ir::Expression::Param(index), Some(ty), span);
                match *self.inner(ty) {
                    // `ConstantBuffer<float> c`: `c` reads the wrapped value.
                    TypeInner::ConstantBuffer { inner }
                        if self.value_buffers.contains_key(&inner) =>
                    {
                        let value_ty = self.member_type(ty, 0).unwrap_or(self.error_ty);
                        self.append(
                            ir::Expression::Member {
                                base: param.expr,
                                index: 0,
                            },
                            Some(value_ty),
                            span,
                        )
                    }
                    _ => param,
                }
            }
            ValueSymbol::EnumMember { ty, value } => {
                let literal = match self.inner(ty) {
                    TypeInner::Scalar(s) if s.kind == ScalarKind::Uint => {
                        ir::Literal::Uint(value as u64)
                    }
                    _ => ir::Literal::Int(value),
                };
                self.append(ir::Expression::Literal(literal), Some(ty), span)
            }
            ValueSymbol::This => {
                let ty = self
                    .ctx
                    .as_ref()
                    .and_then(|c| c.this_ty)
                    .unwrap_or(self.error_ty);
                let this = self.this_expression();
                self.append(this, Some(ty), span)
            }
            ValueSymbol::ThisField { index } => {
                let this_ty = self
                    .ctx
                    .as_ref()
                    .and_then(|c| c.this_ty)
                    .unwrap_or(self.error_ty);
                let this = self.this_expression();
                let this = self.append(this, Some(this_ty), span);
                let ty = self.member_type(this_ty, index).unwrap_or(self.error_ty);
                self.append(
                    ir::Expression::Member {
                        base: this.expr,
                        index,
                    },
                    Some(ty),
                    span,
                )
            }
            ValueSymbol::GlslBlock { global, field } => self.glsl_block_value(global, field, span),
            ValueSymbol::AbsentConditional { inner } => self.absent_value(inner, span),
            ValueSymbol::Functions(_) => {
                self.error(
                    codes::TYPE_MISMATCH,
                    format!("function `{name}` used as a value; call it"),
                    span,
                );
                self.error_value(span)
            }
        }
    }

    /// The type of field `index` of a struct or of a constant buffer's struct.
    pub fn member_type(&self, ty: Handle<Type>, index: u32) -> Option<Handle<Type>> {
        match self.inner(ty) {
            TypeInner::Struct { members } => members.get(index as usize).map(|m| m.ty),
            TypeInner::ConstantBuffer { inner } | TypeInner::TextureBuffer { inner } => {
                self.member_type(*inner, index)
            }
            _ => None,
        }
    }

    fn lower_unary(&mut self, op: ast::UnaryOp, operand: &ast::Expr, span: Span) -> Value {
        use ast::UnaryOp as U;
        let inc_dec = match op {
            U::PreInc => Some(ir::IncDecOp::PreIncrement),
            U::PreDec => Some(ir::IncDecOp::PreDecrement),
            U::PostInc => Some(ir::IncDecOp::PostIncrement),
            U::PostDec => Some(ir::IncDecOp::PostDecrement),
            _ => None,
        };
        let v = self.lower_value(operand);
        let ty = v.ty.unwrap_or(self.error_ty);
        if ty == self.error_ty {
            return v;
        }
        if op == U::Deref {
            return self.deref(v, None, span);
        }
        let Some((scalar, _)) = self.numeric(ty) else {
            let name = self.type_name(ty);
            self.error(
                codes::BAD_OPERANDS,
                format!("operator cannot be applied to `{name}`"),
                span,
            );
            return self.error_value(span);
        };
        if let Some(op) = inc_dec {
            self.require_place(v.expr, operand.span);
            if scalar.kind == ScalarKind::Bool {
                self.error(
                    codes::BAD_OPERANDS,
                    "`++`/`--` cannot be applied to `bool`",
                    span,
                );
            }
            return self.append(
                ir::Expression::IncDec { op, target: v.expr },
                Some(ty),
                span,
            );
        }
        match op {
            U::Plus => v,
            U::Neg => {
                let v = if scalar.kind == ScalarKind::Bool {
                    let int_ty = self.with_scalar(ty, Scalar::I32);
                    self.convert_to(v, int_ty, span)
                } else {
                    v
                };
                self.append(
                    ir::Expression::Unary {
                        op: ir::UnaryOp::Negate,
                        expr: v.expr,
                    },
                    v.ty,
                    span,
                )
            }
            U::Not => {
                let bool_ty = self.with_scalar(ty, Scalar::BOOL);
                let v = self.convert_to(v, bool_ty, span);
                self.append(
                    ir::Expression::Unary {
                        op: ir::UnaryOp::LogicalNot,
                        expr: v.expr,
                    },
                    Some(bool_ty),
                    span,
                )
            }
            U::BitNot => {
                if !matches!(scalar.kind, ScalarKind::Sint | ScalarKind::Uint) {
                    let name = self.type_name(ty);
                    self.error(
                        codes::BAD_OPERANDS,
                        format!("`~` needs an integer operand, found `{name}`"),
                        span,
                    );
                    return self.error_value(span);
                }
                self.append(
                    ir::Expression::Unary {
                        op: ir::UnaryOp::BitwiseNot,
                        expr: v.expr,
                    },
                    Some(ty),
                    span,
                )
            }
            _ => v,
        }
    }

    /// Types and lowers `l op r` with HLSL promotion.
    pub fn lower_binary(
        &mut self,
        op: ast::BinaryOp,
        l: Value,
        r: Value,
        spans: (Span, Span),
        span: Span,
    ) -> Value {
        use ast::BinaryOp as B;
        let (lt, rt) = (l.ty.unwrap_or(self.error_ty), r.ty.unwrap_or(self.error_ty));
        if lt == self.error_ty || rt == self.error_ty {
            return self.error_value(span);
        }
        if let Some(v) = self.optional_comparison(op, l, r, span) {
            return v;
        }
        let (Some((ls, lshape)), Some((rs, rshape))) = (self.numeric(lt), self.numeric(rt)) else {
            let (a, b) = (self.type_name(lt), self.type_name(rt));
            self.error(
                codes::BAD_OPERANDS,
                format!(
                    "operator `{}` cannot be applied to `{a}` and `{b}`",
                    binary_symbol(op)
                ),
                span,
            );
            return self.error_value(span);
        };
        let Some(shape) = self.common_shape(lshape, rshape, span) else {
            let (a, b) = (self.type_name(lt), self.type_name(rt));
            self.error(
                codes::BAD_OPERANDS,
                format!(
                    "operator `{}` cannot combine `{a}` and `{b}`",
                    binary_symbol(op)
                ),
                span,
            );
            return self.error_value(span);
        };
        let ir_op = ir_binary(op);
        let (operand_scalar, result_scalar) = match op {
            B::And | B::Or => (Scalar::BOOL, Scalar::BOOL),
            B::Lt | B::Le | B::Gt | B::Ge | B::Eq | B::Ne => {
                let s = if ls == Scalar::BOOL && rs == Scalar::BOOL {
                    Scalar::BOOL
                } else {
                    common_scalar(ls, rs)
                };
                (s, Scalar::BOOL)
            }
            B::BitAnd | B::BitOr | B::BitXor if ls == Scalar::BOOL && rs == Scalar::BOOL => {
                (Scalar::BOOL, Scalar::BOOL)
            }
            B::BitAnd | B::BitOr | B::BitXor | B::Shl | B::Shr => {
                let s = common_scalar(ls, rs);
                if s.kind == ScalarKind::Float {
                    let (a, b) = (self.type_name(lt), self.type_name(rt));
                    self.error(
                        codes::BAD_OPERANDS,
                        format!(
                            "operator `{}` needs integer operands, found `{a}` and `{b}`",
                            binary_symbol(op)
                        ),
                        span,
                    );
                    return self.error_value(span);
                }
                // Shifts keep the left operand's type.
                let s = if matches!(op, B::Shl | B::Shr) && ls != Scalar::BOOL {
                    ls
                } else {
                    s
                };
                (s, s)
            }
            _ => {
                let s = common_scalar(ls, rs);
                (s, s)
            }
        };
        let operand_ty = self.numeric_ty(operand_scalar, shape);
        let right_ty = if matches!(op, B::Shl | B::Shr) {
            let rs = if rs.kind == ScalarKind::Float || rs == Scalar::BOOL {
                Scalar::I32
            } else {
                rs
            };
            self.numeric_ty(rs, shape)
        } else {
            operand_ty
        };
        let result_ty = self.numeric_ty(result_scalar, shape);
        let left = self.convert_to(l, operand_ty, spans.0);
        let right = self.convert_to(r, right_ty, spans.1);
        self.append(
            ir::Expression::Binary {
                op: ir_op,
                left: left.expr,
                right: right.expr,
            },
            Some(result_ty),
            span,
        )
    }

    /// Lowers the target and the converted value of `target op= value`.
    pub fn lower_assignment(
        &mut self,
        op: Option<ast::BinaryOp>,
        target: &ast::Expr,
        value: &ast::Expr,
        span: Span,
    ) -> (Handle<ir::Expression>, Handle<ir::Expression>) {
        let t = self.lower_value(target);
        self.require_place(t.expr, target.span);
        let target_ty = t.ty.unwrap_or(self.error_ty);
        let value = match op {
            None => self.lower_initializer(value, target_ty),
            Some(op) => {
                // `a op= b` is `a = a op b`: lower the target a second time as
                // the left operand, so each IR expression has one parent.
                let again = self.lower_value(target);
                let v = self.lower_value(value);
                let combined = self.lower_binary(op, again, v, (target.span, value.span), span);
                self.coerce(combined, target_ty, span)
            }
        };
        (t.expr, value)
    }

    pub fn lower_ternary(
        &mut self,
        cond: &ast::Expr,
        then: &ast::Expr,
        els: &ast::Expr,
        span: Span,
    ) -> Value {
        let c = self.lower_value(cond);
        let a = self.lower_value(then);
        let b = self.lower_value(els);
        let (at, bt) = (a.ty.unwrap_or(self.error_ty), b.ty.unwrap_or(self.error_ty));
        let ct = c.ty.unwrap_or(self.error_ty);
        if at == self.error_ty || bt == self.error_ty || ct == self.error_ty {
            return self.error_value(span);
        }
        let result_ty = if at == bt {
            at
        } else {
            match (self.numeric(at), self.numeric(bt)) {
                (Some((sa, sha)), Some((sb, shb))) => match self.common_shape(sha, shb, span) {
                    Some(shape) => {
                        let s = if sa == sb { sa } else { common_scalar(sa, sb) };
                        self.numeric_ty(s, shape)
                    }
                    None => at,
                },
                _ => {
                    let (x, y) = (self.type_name(at), self.type_name(bt));
                    self.error(
                        codes::TYPE_MISMATCH,
                        format!("the branches of `?:` have different types `{x}` and `{y}`"),
                        span,
                    );
                    return self.error_value(span);
                }
            }
        };
        // A vector condition selects per component.
        let cond_ty = match (self.numeric(ct), self.numeric(result_ty)) {
            (Some((_, Shape::Vector(n))), Some((_, Shape::Vector(m)))) if n == m => {
                self.numeric_ty(Scalar::BOOL, Shape::Vector(n))
            }
            _ => self.bool_ty(),
        };
        let condition = self.coerce(c, cond_ty, cond.span);
        let accept = self.coerce(a, result_ty, then.span);
        let reject = self.coerce(b, result_ty, els.span);
        self.append(
            ir::Expression::Select {
                condition,
                accept,
                reject,
            },
            Some(result_ty),
            span,
        )
    }

    /// `(T)x`: any numeric conversion, splat or truncation; `(S)0` zero-fills a struct.
    fn lower_cast(&mut self, operand: &ast::Expr, target: Handle<Type>, span: Span) -> Value {
        if target == self.error_ty {
            self.lower_expr(operand);
            return self.error_value(span);
        }
        if let ast::ExprKind::InitList(items) = &operand.kind {
            let expr = self.lower_init_list(items, target, span);
            return Value {
                expr,
                ty: Some(target),
            };
        }
        let v = self.lower_value(operand);
        let from = v.ty.unwrap_or(self.error_ty);
        if from == target || from == self.error_ty {
            return Value {
                expr: v.expr,
                ty: Some(target),
            };
        }
        if let Some(converted) = self.handle_conversion(v, target, span) {
            return converted;
        }
        if let Some(cast) = self.pointer_cast(v, from, target, span) {
            return cast;
        }
        // `(IShape)circle`: a value of interface type (`dyn_dispatch.rs`).
        if let Some(expr) = self.coerce_to_dyn(v, target, span) {
            return Value {
                expr,
                ty: Some(target),
            };
        }
        match (self.numeric(from), self.numeric(target)) {
            (Some((_, fs)), Some((_, ts))) => {
                let ok = fs.converts_explicitly_to(ts);
                if ok {
                    return self.convert_to(v, target, span);
                }
            }
            (Some((_, Shape::Scalar)), None) if self.is_zero_literal(operand) => {
                if let Some(expr) = self.zero_value(target, span) {
                    return Value {
                        expr,
                        ty: Some(target),
                    };
                }
            }
            _ => {}
        }
        let (a, b) = (self.type_name(from), self.type_name(target));
        self.error(
            codes::INVALID_CAST,
            format!("cannot cast `{a}` to `{b}`"),
            span,
        );
        self.error_value(span)
    }

    /// `(T*)p`, `(T*)address` and `(uint64_t)p`: a cast between pointers,
    /// or between a pointer and a 64-bit integer. `None` when neither side
    /// is a pointer.
    fn pointer_cast(
        &mut self,
        v: Value,
        from: Handle<Type>,
        target: Handle<Type>,
        span: Span,
    ) -> Option<Value> {
        let is_pointer = |t: &TypeInner| matches!(t, TypeInner::Pointer { .. });
        let is_address = |t: &TypeInner| {
            matches!(t, TypeInner::Scalar(s) if s.width == 8
                && matches!(s.kind, ScalarKind::Uint | ScalarKind::Sint))
        };
        let (f, t) = (self.inner(from), self.inner(target));
        if !is_pointer(f) && !is_pointer(t) {
            return None;
        }
        if (is_pointer(f) || is_address(f)) && (is_pointer(t) || is_address(t)) {
            return Some(self.append(ir::Expression::Convert { expr: v.expr }, Some(target), span));
        }
        let (a, b) = (self.type_name(from), self.type_name(target));
        self.error(
            codes::BAD_POINTER,
            format!(
                "cannot cast `{a}` to `{b}`: a pointer casts only to another pointer or a \
                 64-bit integer"
            ),
            span,
        );
        Some(self.error_value(span))
    }

    fn is_zero_literal(&self, e: &ast::Expr) -> bool {
        matches!(self.try_const_eval(e), Ok(v) if v.as_f64() == 0.0)
    }

    /// A zero value of any plain-data type, built from literals.
    pub fn zero_value(&mut self, ty: Handle<Type>, span: Span) -> Option<Handle<ir::Expression>> {
        match self.inner(ty).clone() {
            TypeInner::Scalar(s) => {
                let lit = match s.kind {
                    ScalarKind::Bool => ir::Literal::Bool(false),
                    ScalarKind::Sint => ir::Literal::Int(0),
                    ScalarKind::Uint => ir::Literal::Uint(0),
                    ScalarKind::Float => ir::Literal::Float(0.0),
                };
                Some(
                    self.append(ir::Expression::Literal(lit), Some(ty), span)
                        .expr,
                )
            }
            TypeInner::Vector { scalar, .. } | TypeInner::Matrix { scalar, .. } => {
                let s = self.scalar_ty(scalar);
                let zero = self.zero_value(s, span)?;
                Some(
                    self.append(ir::Expression::Convert { expr: zero }, Some(ty), span)
                        .expr,
                )
            }
            TypeInner::Array {
                base,
                size: ir::ArraySize::Constant(n),
            } => {
                let mut components = Vec::with_capacity(n as usize);
                for _ in 0..n {
                    components.push(self.zero_value(base, span)?);
                }
                Some(
                    self.append(ir::Expression::Construct { components }, Some(ty), span)
                        .expr,
                )
            }
            TypeInner::Struct { members } => {
                let mut components = Vec::with_capacity(members.len());
                for m in members {
                    components.push(self.zero_value(m.ty, span)?);
                }
                Some(
                    self.append(ir::Expression::Construct { components }, Some(ty), span)
                        .expr,
                )
            }
            _ => None,
        }
    }

    /// Where an assignment writes: must be a writable place.
    pub fn require_place(&mut self, expr: Handle<ir::Expression>, span: Span) {
        if self.exprs_ref().ty(expr) == Some(self.error_ty) {
            return;
        }
        match self.place(expr) {
            Place::Writable => {}
            Place::ReadOnly(why) => {
                self.error(
                    codes::NOT_ASSIGNABLE,
                    format!("cannot assign to {why}"),
                    span,
                );
            }
            Place::Value => {
                self.error(
                    codes::NOT_ASSIGNABLE,
                    "cannot assign to this expression: it is not a variable",
                    span,
                );
            }
        }
    }

    pub fn place(&self, expr: Handle<ir::Expression>) -> Place {
        let exprs = self.exprs_ref();
        match &exprs[expr] {
            ir::Expression::Global(g) => match self.module.globals[*g].space {
                ir::AddressSpace::Private
                | ir::AddressSpace::Workgroup
                | ir::AddressSpace::TaskPayload
                | ir::AddressSpace::Output
                | ir::AddressSpace::RayTracing(_) => Place::Writable,
                ir::AddressSpace::Input => Place::ReadOnly("a stage input"),
                ir::AddressSpace::Constant => Place::ReadOnly("a constant"),
                ir::AddressSpace::Uniform => Place::ReadOnly("a uniform (read-only) variable"),
            },
            ir::Expression::Local(l) => match &self.ctx {
                Some(ctx) if ctx.func.locals[*l].is_const => Place::ReadOnly("a `const` variable"),
                _ => Place::Writable,
            },
            ir::Expression::Param(i)
                if self
                    .ctx
                    .as_ref()
                    .is_some_and(|ctx| ctx.constexpr_params.contains(i)) =>
            {
                Place::ReadOnly("a `constexpr` parameter")
            }
            ir::Expression::Param(_) | ir::Expression::Deref { .. } => Place::Writable,
            ir::Expression::Member { base, .. } => {
                let base_ty = exprs.ty(*base);
                if let Some(TypeInner::ConstantBuffer { .. } | TypeInner::TextureBuffer { .. }) =
                    base_ty.map(|t| self.inner(t))
                {
                    return Place::ReadOnly("a constant-buffer member");
                }
                self.place(*base)
            }
            ir::Expression::Swizzle { base, components } => {
                let mut seen = [false; 4];
                for &c in components {
                    if seen[(c & 3) as usize] {
                        return Place::ReadOnly("a swizzle that repeats a component");
                    }
                    seen[(c & 3) as usize] = true;
                }
                self.place(*base)
            }
            ir::Expression::Index { base, .. } => {
                let Some(base_ty) = exprs.ty(*base) else {
                    return Place::Value;
                };
                match self.inner(base_ty) {
                    TypeInner::Array { .. }
                    | TypeInner::Vector { .. }
                    | TypeInner::Matrix { .. } => self.place(*base),
                    TypeInner::Texture(ir::Texture { access, .. })
                    | TypeInner::Buffer { access, .. } => {
                        if *access == ir::ResourceAccess::Read {
                            Place::ReadOnly("an element of a read-only resource")
                        } else {
                            Place::Writable
                        }
                    }
                    TypeInner::MeshOutput { .. } => Place::Writable,
                    TypeInner::Patch {
                        kind: ir::PatchKind::Input,
                        ..
                    } => Place::ReadOnly("an input patch"),
                    TypeInner::Patch { .. } => Place::ReadOnly("an output patch"),
                    _ => Place::Value,
                }
            }
            _ => Place::Value,
        }
    }

    /// `*p` (`index` `None`) or `p[i]`: the place a pointer points to.
    fn deref(&mut self, pointer: Value, index: Option<Value>, span: Span) -> Value {
        let ty = pointer.ty.unwrap_or(self.error_ty);
        let base = match self.inner(ty) {
            TypeInner::Pointer { base: Some(base) } => *base,
            TypeInner::Pointer { base: None } => {
                self.error(
                    codes::BAD_POINTER,
                    "a `void*` cannot be dereferenced; cast it to a typed pointer first",
                    span,
                );
                return self.error_value(span);
            }
            _ => {
                let name = self.type_name(ty);
                self.error(
                    codes::BAD_POINTER,
                    format!("`*` and `->` need a pointer, found `{name}`"),
                    span,
                );
                return self.error_value(span);
            }
        };
        let index = index.map(|i| self.index_operand(i, 1, span));
        self.append(
            ir::Expression::Deref {
                pointer: pointer.expr,
                index,
            },
            Some(base),
            span,
        )
    }

    fn lower_member(&mut self, base: &ast::Expr, member: &ast::Ident, span: Span) -> Value {
        // `Enum.Member`
        if let ast::ExprKind::Name(path) = &base.kind
            && path.len() == 1
            && self.lookup_value(&path[0].name).is_none()
            && let Some(TypeSymbol::Enum(_)) = self.lookup_type(&path[0].name)
        {
            let full = [path[0].clone(), member.clone()];
            return self.lower_name(&full, span);
        }
        let mut b = self.lower_value(base);
        b = self.materialize_optional(b, span);
        b = self.deref_if_handle(b, base.span);
        let mut ty = b.ty.unwrap_or(self.error_ty);
        if ty == self.error_ty {
            return self.error_value(span);
        }
        // Slang reads `p.f` through a pointer as `p->f`.
        if let TypeInner::Pointer { .. } = self.inner(ty) {
            b = self.deref(b, None, base.span);
            ty = b.ty.unwrap_or(self.error_ty);
            if ty == self.error_ty {
                return self.error_value(span);
            }
        }
        let struct_ty = match self.inner(ty) {
            TypeInner::Struct { .. } => Some(ty),
            TypeInner::ConstantBuffer { inner } | TypeInner::TextureBuffer { inner } => {
                Some(*inner)
            }
            _ => None,
        };
        if let Some(st) = struct_ty {
            if let Some(index) = self.member_index(st, &member.name)
                && let TypeInner::Struct { members } = self.inner(st)
            {
                let field_ty = members[index as usize].ty;
                return self.append(
                    ir::Expression::Member {
                        base: b.expr,
                        index,
                    },
                    Some(field_ty),
                    span,
                );
            }
            if let Some(absent) = self.absent_field(st, &member.name, span) {
                // A `Conditional<T, false>` field, left out.
                return absent;
            }
            let name = self.type_name(st);
            self.error(
                codes::NO_SUCH_MEMBER,
                format!("`{name}` has no member `{}`", member.name),
                member.span,
            );
            return self.error_value(span);
        }
        match self.numeric(ty) {
            Some((scalar, Shape::Scalar | Shape::Vector(_))) => {
                self.lower_swizzle(b, scalar, member, span)
            }
            Some((scalar, Shape::Matrix { rows, columns })) => {
                self.lower_matrix_swizzle(b, scalar, (rows, columns), member, span)
            }
            None => {
                let name = self.type_name(ty);
                self.error(
                    codes::NO_SUCH_MEMBER,
                    format!("`{name}` has no member `{}`", member.name),
                    member.span,
                );
                self.error_value(span)
            }
        }
    }

    fn lower_swizzle(
        &mut self,
        base: Value,
        scalar: Scalar,
        member: &ast::Ident,
        span: Span,
    ) -> Value {
        let size = match self.numeric(base.ty.unwrap_or(self.error_ty)) {
            Some((_, Shape::Vector(n))) => n,
            _ => 1,
        };
        match parse_swizzle(&member.name, size) {
            Ok(components) => {
                let n = components.len() as u8;
                let shape = if n == 1 {
                    Shape::Scalar
                } else {
                    Shape::Vector(n)
                };
                let ty = self.numeric_ty(scalar, shape);
                self.append(
                    ir::Expression::Swizzle {
                        base: base.expr,
                        components,
                    },
                    Some(ty),
                    span,
                )
            }
            Err(message) => {
                self.error(codes::INVALID_SWIZZLE, message, member.span);
                self.error_value(span)
            }
        }
    }

    /// `m._m01_m10` and `m._12`: read-only; lowered to element reads.
    fn lower_matrix_swizzle(
        &mut self,
        base: Value,
        scalar: Scalar,
        (rows, columns): (u8, u8),
        member: &ast::Ident,
        span: Span,
    ) -> Value {
        let Some(elements) = parse_matrix_swizzle(&member.name, rows, columns) else {
            self.error(
                codes::INVALID_SWIZZLE,
                format!(
                    "`{}` is not a valid matrix element selector for a {rows}x{columns} matrix",
                    member.name
                ),
                member.span,
            );
            return self.error_value(span);
        };
        let scalar_ty = self.scalar_ty(scalar);
        let row_ty = self.numeric_ty(scalar, Shape::vector(columns));
        let int_ty = self.scalar_ty(Scalar::I32);
        let mut parts = Vec::new();
        for (i, (r, c)) in elements.iter().enumerate() {
            // The base expression is reused only for the first element; the
            // rest re-read it through a fresh copy of the same tree.
            let base_expr = if i == 0 {
                base.expr
            } else {
                self.copy_expr(base.expr)
            };
            let ri = self.append(
                ir::Expression::Literal(ir::Literal::Int(*r as i64)),
                Some(int_ty),
                span,
            );
            let row = self.append(
                ir::Expression::Index {
                    base: base_expr,
                    index: ri.expr,
                },
                Some(row_ty),
                span,
            );
            let elem = if columns == 1 {
                row
            } else {
                self.append(
                    ir::Expression::Swizzle {
                        base: row.expr,
                        components: vec![*c],
                    },
                    Some(scalar_ty),
                    span,
                )
            };
            parts.push(elem.expr);
        }
        if parts.len() == 1 {
            return Value {
                expr: parts[0],
                ty: Some(scalar_ty),
            };
        }
        let ty = self.numeric_ty(scalar, Shape::Vector(parts.len() as u8));
        self.append(
            ir::Expression::Construct { components: parts },
            Some(ty),
            span,
        )
    }

    /// Deep-copies an expression tree within the current arena, so that a
    /// value can be read twice while every expression keeps one parent.
    pub fn copy_expr(&mut self, expr: Handle<ir::Expression>) -> Handle<ir::Expression> {
        let (node, ty, span) = {
            let exprs = self.exprs_ref();
            (exprs[expr].clone(), exprs.ty(expr), exprs.span(expr))
        };
        let node = node.map_children(|child| self.copy_expr(child));
        self.exprs().append(node, ty, span)
    }

    fn lower_index(&mut self, base: &ast::Expr, index: &ast::Expr, span: Span) -> Value {
        let b = self.lower_value(base);
        let b = self.deref_if_handle(b, base.span);
        let i = self.lower_value(index);
        let bt = b.ty.unwrap_or(self.error_ty);
        let it = i.ty.unwrap_or(self.error_ty);
        if bt == self.error_ty || it == self.error_ty {
            return self.error_value(span);
        }
        if let TypeInner::Pointer { .. } = self.inner(bt) {
            return self.deref(b, Some(i), span);
        }
        let (elem, coord_dims) = match self.inner(bt).clone() {
            TypeInner::Array { base, .. } => (base, 1),
            TypeInner::Vector { scalar, .. } => (self.scalar_ty(scalar), 1),
            TypeInner::Matrix {
                columns, scalar, ..
            } => {
                let shape = Shape::vector(columns);
                (self.numeric_ty(scalar, shape), 1)
            }
            TypeInner::Texture(ir::Texture {
                dim,
                arrayed,
                texel,
                multisampled: false,
                ..
            }) => (texel, coord_count(dim) + arrayed as u8),
            TypeInner::Buffer {
                kind: ir::BufferKind::Typed | ir::BufferKind::Structured,
                element: Some(e),
                ..
            } => (e, 1),
            TypeInner::Patch { element, .. } | TypeInner::MeshOutput { element, .. } => {
                (element, 1)
            }
            _ => {
                let name = self.type_name(bt);
                self.error(
                    codes::NOT_INDEXABLE,
                    format!("`{name}` cannot be indexed"),
                    base.span,
                );
                return self.error_value(span);
            }
        };
        let index_expr = self.index_operand(i, coord_dims, index.span);
        self.append(
            ir::Expression::Index {
                base: b.expr,
                index: index_expr,
            },
            Some(elem),
            span,
        )
    }

    /// An index: an integer scalar, or for textures an integer vector of
    /// `dims` components. Floats and bools convert to `int`/`uint`.
    pub fn index_operand(&mut self, i: Value, dims: u8, span: Span) -> Handle<ir::Expression> {
        let it = i.ty.unwrap_or(self.error_ty);
        let shape = if dims == 1 {
            Shape::Scalar
        } else {
            Shape::Vector(dims)
        };
        match self.numeric(it) {
            Some((s, sh))
                if sh == shape && matches!(s.kind, ScalarKind::Sint | ScalarKind::Uint) =>
            {
                i.expr
            }
            Some((s, _)) => {
                let scalar = if s.kind == ScalarKind::Uint {
                    s
                } else {
                    Scalar::U32
                };
                let target = self.numeric_ty(scalar, shape);
                self.coerce(i, target, span)
            }
            None => {
                let name = self.type_name(it);
                self.error(
                    codes::TYPE_MISMATCH,
                    format!("an index must be an integer, found `{name}`"),
                    span,
                );
                i.expr
            }
        }
    }
}

/// Coordinate components of a texture dimension.
pub fn coord_count(dim: ir::TextureDim) -> u8 {
    match dim {
        ir::TextureDim::D1 => 1,
        ir::TextureDim::D2 => 2,
        ir::TextureDim::D3 | ir::TextureDim::Cube => 3,
    }
}

/// `xyzw` or `rgba` (never mixed), 1 to 4 components within `size`.
pub fn parse_swizzle(text: &str, size: u8) -> Result<Vec<u8>, String> {
    if text.is_empty() || text.len() > 4 {
        return Err(format!("invalid swizzle `{text}`: 1 to 4 components"));
    }
    let xyzw = text.bytes().all(|b| b"xyzw".contains(&b));
    let rgba = text.bytes().all(|b| b"rgba".contains(&b));
    if !xyzw && !rgba {
        let mixed = text.bytes().all(|b| b"xyzwrgba".contains(&b));
        return Err(if mixed {
            format!("invalid swizzle `{text}`: `xyzw` and `rgba` components cannot be mixed")
        } else {
            format!("no member `{text}`: a vector has only swizzles of `xyzw` or `rgba`")
        });
    }
    let set: &[u8] = if xyzw { b"xyzw" } else { b"rgba" };
    let mut out = Vec::with_capacity(text.len());
    for b in text.bytes() {
        let c = set.iter().position(|&s| s == b).unwrap_or(0) as u8;
        if c >= size {
            let kind = if size == 1 {
                "a scalar".to_string()
            } else {
                format!("a {size}-component vector")
            };
            return Err(format!(
                "invalid swizzle `{text}`: component `{}` is out of range for {kind}",
                b as char
            ));
        }
        out.push(c);
    }
    Ok(out)
}

/// `_m00_m11` (zero-based) or `_11_22` (one-based) matrix element selectors.
pub fn parse_matrix_swizzle(text: &str, rows: u8, columns: u8) -> Option<Vec<(u8, u8)>> {
    let mut out = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        rest = rest.strip_prefix('_')?;
        let (zero_based, digits) = match rest.strip_prefix('m') {
            Some(r) => (true, r),
            None => (false, rest),
        };
        let bytes = digits.as_bytes();
        if bytes.len() < 2 {
            return None;
        }
        let (r, c) = (bytes[0].wrapping_sub(b'0'), bytes[1].wrapping_sub(b'0'));
        let (r, c) = if zero_based {
            (r, c)
        } else {
            (r.wrapping_sub(1), c.wrapping_sub(1))
        };
        if r >= rows || c >= columns {
            return None;
        }
        out.push((r, c));
        rest = &digits[2..];
    }
    (!out.is_empty() && out.len() <= 4).then_some(out)
}

fn ir_binary(op: ast::BinaryOp) -> ir::BinaryOp {
    use ast::BinaryOp as B;
    use ir::BinaryOp as I;
    match op {
        B::Add => I::Add,
        B::Sub => I::Subtract,
        B::Mul => I::Multiply,
        B::Div => I::Divide,
        B::Rem => I::Modulo,
        B::Shl => I::ShiftLeft,
        B::Shr => I::ShiftRight,
        B::Lt => I::Less,
        B::Le => I::LessEqual,
        B::Gt => I::Greater,
        B::Ge => I::GreaterEqual,
        B::Eq => I::Equal,
        B::Ne => I::NotEqual,
        B::BitAnd => I::BitwiseAnd,
        B::BitXor => I::BitwiseXor,
        B::BitOr => I::BitwiseOr,
        B::And => I::LogicalAnd,
        B::Or | B::Comma => I::LogicalOr,
    }
}

pub fn binary_symbol(op: ast::BinaryOp) -> &'static str {
    match op {
        ast::BinaryOp::Comma => ",",
        other => ir_binary(other).symbol(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swizzles() {
        assert_eq!(parse_swizzle("xyz", 4), Ok(vec![0, 1, 2]));
        assert_eq!(parse_swizzle("bgra", 4), Ok(vec![2, 1, 0, 3]));
        assert_eq!(parse_swizzle("xxx", 1), Ok(vec![0, 0, 0]));
        assert!(
            parse_swizzle("xg", 4)
                .unwrap_err()
                .contains("cannot be mixed")
        );
        assert!(parse_swizzle("z", 2).unwrap_err().contains("out of range"));
        assert!(parse_swizzle("xyzwx", 4).is_err());
    }

    #[test]
    fn matrix_selectors() {
        assert_eq!(
            parse_matrix_swizzle("_m00_m12", 3, 3),
            Some(vec![(0, 0), (1, 2)])
        );
        assert_eq!(
            parse_matrix_swizzle("_11_44", 4, 4),
            Some(vec![(0, 0), (3, 3)])
        );
        assert_eq!(parse_matrix_swizzle("_m33", 3, 3), None);
        assert_eq!(parse_matrix_swizzle("_m0", 3, 3), None);
    }
}
