//! Expressions, stores and expression statements.
//!
//! Every compound expression is parenthesised, so HLSL and GLSL precedence
//! never have to agree. Where HLSL and GLSL operators differ in meaning
//! (`*` on matrices, `%` on signed ints and floats, comparisons of vectors,
//! splatting a scalar to a matrix) the writer prints the HLSL meaning.

use legalis_ir as ir;
use legalis_ir::{BinaryOp, Expression, Handle, Literal, ScalarKind, TypeInner};

use super::writer::{Ctx, Result, Writer, unsupported};

impl Writer<'_> {
    pub fn expr(&mut self, ctx: &Ctx, e: Handle<Expression>) -> Result<String> {
        let span = ctx.exprs.span(e);
        match &ctx.exprs[e] {
            Expression::Literal(lit) => {
                let ty = self.expr_ty(ctx, e)?;
                self.literal(*lit, ty, span)
            }
            Expression::Global(g) => self.global_ref(*g, span),
            Expression::Local(l) => match ctx.locals.get(l) {
                Some(n) => Ok(n.clone()),
                None => unsupported("a local variable outside its function", span),
            },
            Expression::Param(i) => match ctx.params.get(*i as usize) {
                Some(n) => Ok(n.clone()),
                None => unsupported("a parameter outside its function", span),
            },
            Expression::Member { base, index } => self.member(ctx, *base, *index),
            Expression::Index { base, index } => self.index(ctx, *base, *index),
            Expression::Swizzle { base, components } => self.swizzle(ctx, *base, components),
            Expression::Unary { op, expr } => self.unary(ctx, *op, *expr),
            Expression::Binary { op, left, right } => self.binary(ctx, e, *op, *left, *right),
            Expression::Select {
                condition,
                accept,
                reject,
            } => {
                let c_ty = self.expr_ty(ctx, *condition)?;
                let (c, a, r) = (
                    self.expr(ctx, *condition)?,
                    self.expr(ctx, *accept)?,
                    self.expr(ctx, *reject)?,
                );
                if matches!(self.inner(c_ty), TypeInner::Vector { .. }) {
                    // HLSL selects per component and evaluates both sides.
                    Ok(format!("mix({r}, {a}, {c})"))
                } else {
                    Ok(format!("({c} ? {a} : {r})"))
                }
            }
            Expression::Convert { expr } => self.convert(ctx, e, *expr),
            Expression::Construct { components } => self.construct(ctx, e, components),
            Expression::Call { function, args } => {
                let mut list = Vec::new();
                for a in args {
                    list.push(self.expr(ctx, *a)?);
                }
                Ok(format!(
                    "{}({})",
                    self.function_names[function],
                    list.join(", ")
                ))
            }
            Expression::Intrinsic { fun, args } => self.intrinsic(ctx, e, *fun, args),
            Expression::Assign { target, value } => {
                if self.image_element(ctx, *target).is_some() {
                    return unsupported("assignment to a texel used as a value", span);
                }
                Ok(format!(
                    "({} = {})",
                    self.expr(ctx, *target)?,
                    self.expr(ctx, *value)?
                ))
            }
            Expression::IncDec { op, target } => {
                if self.image_element(ctx, *target).is_some() {
                    return unsupported("`++`/`--` on a texel", span);
                }
                let t = self.expr(ctx, *target)?;
                Ok(match op {
                    ir::IncDecOp::PreIncrement => format!("(++{t})"),
                    ir::IncDecOp::PreDecrement => format!("(--{t})"),
                    ir::IncDecOp::PostIncrement => format!("({t}++)"),
                    ir::IncDecOp::PostDecrement => format!("({t}--)"),
                })
            }
        }
    }

    fn global_ref(&mut self, g: Handle<ir::GlobalVariable>, span: ir::Span) -> Result<String> {
        let var = &self.module.globals[g];
        let Some(name) = self.global_names.get(&g).cloned() else {
            return unsupported("a global the writer did not collect", span);
        };
        if let Some(ir::Binding::BuiltIn(b)) = var.io.as_ref().and_then(|io| io.binding.as_ref())
            && let (Some(i), false) = (
                b.array_index,
                matches!(self.inner(var.ty), TypeInner::Array { .. }),
            )
        {
            return Ok(format!("{name}[{i}]"));
        }
        if var.space == ir::AddressSpace::Uniform && !self.inner(var.ty).is_resource() {
            return Ok(format!("_globals.{name}"));
        }
        Ok(name)
    }

    pub fn literal(
        &mut self,
        lit: Literal,
        ty: Handle<ir::Type>,
        span: ir::Span,
    ) -> Result<String> {
        let scalar = self.inner(ty).scalar().unwrap_or(ir::Scalar::I32);
        let text = match lit {
            Literal::Bool(b) => return Ok(b.to_string()),
            Literal::Int(i) if scalar.width == 4 && i == i32::MIN as i64 => {
                "(-2147483647 - 1)".into()
            }
            Literal::Int(i) if scalar.width == 8 => format!("{i}l"),
            Literal::Int(i) => i.to_string(),
            Literal::Uint(u) if scalar.width == 8 => format!("{u}ul"),
            Literal::Uint(u) => format!("{u}u"),
            Literal::Float(f) => float_text(f, scalar.width),
        };
        if scalar.width < 4 || matches!(self.inner(ty), TypeInner::Vector { .. }) {
            let t = self.type_name(ty, span)?;
            return Ok(format!("{t}({text})"));
        }
        Ok(text)
    }

    fn member(&mut self, ctx: &Ctx, base: Handle<Expression>, index: u32) -> Result<String> {
        let base_ty = self.expr_ty(ctx, base)?;
        let b = self.expr(ctx, base)?;
        match self.inner(base_ty) {
            TypeInner::Struct { .. } => Ok(format!("{b}.{}", self.member_name(base_ty, index))),
            TypeInner::ConstantBuffer { inner } => {
                if !matches!(ctx.exprs[base], Expression::Global(_)) {
                    return unsupported(
                        "constant buffers other than globals",
                        ctx.exprs.span(base),
                    );
                }
                Ok(format!("{b}.{}", self.member_name(*inner, index)))
            }
            _ => unsupported("this member access", ctx.exprs.span(base)),
        }
    }

    fn index(
        &mut self,
        ctx: &Ctx,
        base: Handle<Expression>,
        index: Handle<Expression>,
    ) -> Result<String> {
        let base_ty = self.expr_ty(ctx, base)?;
        match self.inner(base_ty) {
            TypeInner::Array { .. } | TypeInner::Vector { .. } | TypeInner::Matrix { .. } => Ok(
                format!("{}[{}]", self.expr(ctx, base)?, self.expr(ctx, index)?),
            ),
            TypeInner::Buffer { .. } | TypeInner::Texture { .. } => {
                self.resource_element(ctx, base, index)
            }
            _ => unsupported("indexing this value", ctx.exprs.span(base)),
        }
    }

    fn swizzle(
        &mut self,
        ctx: &Ctx,
        base: Handle<Expression>,
        components: &[u8],
    ) -> Result<String> {
        let base_ty = self.expr_ty(ctx, base)?;
        let b = self.expr(ctx, base)?;
        if let TypeInner::Scalar(s) = *self.inner(base_ty) {
            // GLSL 450 has no scalar swizzles; `.xx` of a scalar is a splat.
            return match components.len() {
                1 => Ok(b),
                n => {
                    let prefix = self.type_name(base_ty, ctx.exprs.span(base))?;
                    let _ = s;
                    Ok(format!("{}vec{n}({b})", vec_prefix_of(&prefix)))
                }
            };
        }
        let letters: String = components
            .iter()
            .map(|&c| b"xyzw"[c as usize & 3] as char)
            .collect();
        Ok(format!("{b}.{letters}"))
    }

    fn unary(&mut self, ctx: &Ctx, op: ir::UnaryOp, expr: Handle<Expression>) -> Result<String> {
        let ty = self.expr_ty(ctx, expr)?;
        let x = self.expr(ctx, expr)?;
        Ok(match op {
            ir::UnaryOp::Negate => format!("(-{x})"),
            ir::UnaryOp::LogicalNot if matches!(self.inner(ty), TypeInner::Vector { .. }) => {
                format!("not({x})")
            }
            ir::UnaryOp::LogicalNot => format!("(!{x})"),
            ir::UnaryOp::BitwiseNot => format!("(~{x})"),
        })
    }

    fn binary(
        &mut self,
        ctx: &Ctx,
        e: Handle<Expression>,
        op: BinaryOp,
        left: Handle<Expression>,
        right: Handle<Expression>,
    ) -> Result<String> {
        let span = ctx.exprs.span(e);
        let lty = self.expr_ty(ctx, left)?;
        let rty = self.expr_ty(ctx, right)?;
        let (l, r) = (self.expr(ctx, left)?, self.expr(ctx, right)?);
        let linner = self.inner(lty);
        let is_vec = matches!(linner, TypeInner::Vector { .. });
        let is_mat = matches!(linner, TypeInner::Matrix { .. })
            || matches!(self.inner(rty), TypeInner::Matrix { .. });
        let scalar = linner.scalar().unwrap_or(ir::Scalar::I32);
        if is_mat
            && (op.is_comparison()
                || !matches!(
                    op,
                    BinaryOp::Add | BinaryOp::Subtract | BinaryOp::Multiply | BinaryOp::Divide
                ))
        {
            return unsupported(format!("`{}` on matrices", op.symbol()), span);
        }
        if op.is_comparison() && is_vec {
            let f = match op {
                BinaryOp::Equal => "equal",
                BinaryOp::NotEqual => "notEqual",
                BinaryOp::Less => "lessThan",
                BinaryOp::LessEqual => "lessThanEqual",
                BinaryOp::Greater => "greaterThan",
                _ => "greaterThanEqual",
            };
            return Ok(format!("{f}({l}, {r})"));
        }
        match op {
            // HLSL `*` on matrices is per component.
            BinaryOp::Multiply if is_mat => Ok(format!("matrixCompMult({l}, {r})")),
            BinaryOp::Modulo
                if scalar.kind == ScalarKind::Float || scalar.kind == ScalarKind::Sint =>
            {
                let ty = self.expr_ty(ctx, e)?;
                let name = self.truncating_mod_helper(ty, scalar.kind, span)?;
                Ok(format!("{name}({l}, {r})"))
            }
            BinaryOp::LogicalAnd | BinaryOp::LogicalOr if is_vec => {
                let n = match linner {
                    TypeInner::Vector { size, .. } => *size,
                    _ => 1,
                };
                let sym = if op == BinaryOp::LogicalAnd { "&" } else { "|" };
                Ok(format!("bvec{n}(uvec{n}({l}) {sym} uvec{n}({r}))"))
            }
            BinaryOp::BitwiseAnd | BinaryOp::BitwiseOr | BinaryOp::BitwiseXor
                if scalar.kind == ScalarKind::Bool =>
            {
                let t = self.type_name(lty, span)?;
                let u = if is_vec {
                    format!("u{t}").replacen("ub", "u", 1)
                } else {
                    "uint".into()
                };
                Ok(format!("{t}({u}({l}) {} {u}({r}))", op.symbol()))
            }
            BinaryOp::LogicalAnd | BinaryOp::LogicalOr if scalar.kind == ScalarKind::Bool => {
                Ok(format!("({l} {} {r})", op.symbol()))
            }
            _ => Ok(format!("({l} {} {r})", op.symbol())),
        }
    }

    /// HLSL `%` and `fmod` truncate (the result takes the dividend's sign);
    /// GLSL `mod` floors and `%` on negative ints is undefined.
    pub fn truncating_mod_helper(
        &mut self,
        ty: Handle<ir::Type>,
        kind: ScalarKind,
        span: ir::Span,
    ) -> Result<String> {
        let t = self.type_name(ty, span)?;
        let name = format!("_hlsl_mod_{t}");
        let body = if kind == ScalarKind::Float {
            "return a - b * trunc(a / b);"
        } else {
            "return a - b * (a / b);"
        };
        self.helpers
            .entry(name.clone())
            .or_insert_with(|| format!("{t} {name}({t} a, {t} b)\n{{\n    {body}\n}}\n"));
        Ok(name)
    }

    fn convert(
        &mut self,
        ctx: &Ctx,
        e: Handle<Expression>,
        from: Handle<Expression>,
    ) -> Result<String> {
        let span = ctx.exprs.span(e);
        let to_ty = self.expr_ty(ctx, e)?;
        let from_ty = self.expr_ty(ctx, from)?;
        let x = self.expr(ctx, from)?;
        let t = self.type_name(to_ty, span)?;
        match (self.inner(from_ty), self.inner(to_ty)) {
            (
                TypeInner::Scalar(_),
                TypeInner::Matrix {
                    rows,
                    columns,
                    scalar,
                },
            ) => {
                // GLSL `mat3(s)` is a diagonal; HLSL splats to every element.
                let (rows, columns, scalar) = (*rows, *columns, *scalar);
                let name = format!("_hlsl_splat_{t}");
                let st = self.scalar_name(scalar, span)?;
                let col = format!("{}vec{columns}(s)", vec_prefix_of(&st));
                let cols = vec![col; rows as usize].join(", ");
                self.helpers.entry(name.clone()).or_insert_with(|| {
                    format!("{t} {name}({st} s)\n{{\n    return {t}({cols});\n}}\n")
                });
                Ok(format!("{name}({st}({x}))"))
            }
            (a, b) if a.is_numeric() && b.is_numeric() => {
                if matches!(a, TypeInner::Matrix { .. }) != matches!(b, TypeInner::Matrix { .. }) {
                    return unsupported("conversions between matrices and vectors", span);
                }
                Ok(format!("{t}({x})"))
            }
            _ if from_ty == to_ty => Ok(x),
            _ => unsupported("this conversion", span),
        }
    }

    fn construct(
        &mut self,
        ctx: &Ctx,
        e: Handle<Expression>,
        components: &[Handle<Expression>],
    ) -> Result<String> {
        let span = ctx.exprs.span(e);
        let ty = self.expr_ty(ctx, e)?;
        let mut queue: Vec<Handle<Expression>> = components.to_vec();
        queue.reverse();
        let text = self.build(ctx, ty, &mut queue, span)?;
        if !queue.is_empty() {
            return unsupported("this initializer list shape", span);
        }
        Ok(text)
    }

    /// Builds a value of `ty` from the front of `queue` (reversed), taking a
    /// component whole when its type matches and regrouping flattened
    /// scalars into arrays and structs as HLSL initializer lists allow.
    fn build(
        &mut self,
        ctx: &Ctx,
        ty: Handle<ir::Type>,
        queue: &mut Vec<Handle<Expression>>,
        span: ir::Span,
    ) -> Result<String> {
        let t = self.type_name(ty, span)?;
        let Some(&next) = queue.last() else {
            return unsupported("an initializer list with too few elements", span);
        };
        if self.expr_ty(ctx, next)? == ty {
            queue.pop();
            return self.expr(ctx, next);
        }
        let parts: Vec<Handle<ir::Type>> = match self.inner(ty) {
            TypeInner::Array {
                base,
                size: ir::ArraySize::Constant(n),
            } => vec![*base; *n as usize],
            TypeInner::Struct { members } => members.iter().map(|m| m.ty).collect(),
            TypeInner::Vector { .. } | TypeInner::Matrix { .. } => {
                let want = scalar_count(self.inner(ty));
                let mut args = Vec::new();
                let mut have = 0;
                while have < want {
                    let Some(c) = queue.pop() else {
                        return unsupported("an initializer list with too few elements", span);
                    };
                    have += scalar_count(self.inner(self.expr_ty(ctx, c)?));
                    args.push(self.expr(ctx, c)?);
                }
                return Ok(format!("{t}({})", args.join(", ")));
            }
            TypeInner::Scalar(_) => {
                let c = queue.pop().unwrap_or(next);
                return Ok(format!("{t}({})", self.expr(ctx, c)?));
            }
            _ => return unsupported("constructing this type", span),
        };
        let mut args = Vec::new();
        for p in parts {
            args.push(self.build(ctx, p, queue, span)?);
        }
        Ok(format!("{t}({})", args.join(", ")))
    }

    pub fn store(
        &mut self,
        ctx: &Ctx,
        target: Handle<Expression>,
        value: Handle<Expression>,
    ) -> Result<String> {
        if let Some((base, index)) = self.image_element(ctx, target) {
            return self.image_store(ctx, base, index, value);
        }
        if let Expression::Swizzle { base, .. } = ctx.exprs[target]
            && self.image_element(ctx, base).is_some()
        {
            return unsupported("writing part of a texel", ctx.exprs.span(target));
        }
        Ok(format!(
            "{} = {}",
            self.expr(ctx, target)?,
            self.expr(ctx, value)?
        ))
    }

    pub fn expr_stmt(&mut self, ctx: &Ctx, e: Handle<Expression>) -> Result<String> {
        match &ctx.exprs[e] {
            Expression::Intrinsic { fun, args } => self.intrinsic_stmt(ctx, e, *fun, args),
            Expression::Assign { target, value } => self.store(ctx, *target, *value),
            _ => self.expr(ctx, e),
        }
    }

    /// Whether printing `e` twice is the same as printing it once.
    pub fn is_pure(&self, ctx: &Ctx, e: Handle<Expression>) -> bool {
        let mut all = Vec::new();
        super::writer::collect_subtree(ctx.exprs, e, &mut all);
        all.iter().all(|&x| {
            !matches!(
                ctx.exprs[x],
                Expression::Call { .. }
                    | Expression::Assign { .. }
                    | Expression::IncDec { .. }
                    | Expression::Intrinsic { .. }
            )
        })
    }
}

/// `vec`, `ivec`, `f16vec` ... prefix for a scalar type name.
pub(super) fn vec_prefix_of(scalar: &str) -> &'static str {
    match scalar {
        "bool" => "b",
        "int" => "i",
        "uint" => "u",
        "double" => "d",
        "int8_t" => "i8",
        "uint8_t" => "u8",
        "int16_t" => "i16",
        "uint16_t" => "u16",
        "int64_t" => "i64",
        "uint64_t" => "u64",
        "float16_t" => "f16",
        _ => "",
    }
}

pub(super) fn scalar_count(inner: &TypeInner) -> u32 {
    match *inner {
        TypeInner::Vector { size, .. } => size as u32,
        TypeInner::Matrix { rows, columns, .. } => rows as u32 * columns as u32,
        _ => 1,
    }
}

fn float_text(f: f64, width: u8) -> String {
    let suffix = if width == 8 { "lf" } else { "" };
    if f.is_nan() {
        return "(0.0 / 0.0)".into();
    }
    if f.is_infinite() {
        return if f > 0.0 {
            "(1.0 / 0.0)".into()
        } else {
            "(-1.0 / 0.0)".into()
        };
    }
    let mut s = format!("{f:?}");
    if !s.contains(['.', 'e', 'E']) {
        s.push_str(".0");
    }
    format!("{s}{suffix}")
}
