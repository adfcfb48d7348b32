//! Expressions, stores and expression statements.
//!
//! Every compound expression is parenthesised, so HLSL and GLSL precedence
//! never have to agree. Where HLSL and GLSL operators differ in meaning
//! (`*` on matrices, `%` on signed ints and floats, comparisons of vectors,
//! splatting a scalar to a matrix) the writer prints the HLSL meaning.

use legalis_ir as ir;
use legalis_ir::{BinaryOp, Expression, Handle, Literal, ScalarKind, TypeInner};

use super::names::helper_name;
use super::resources::TexelUpdate;
use super::types::matrix_as_rows;
use super::writer::{Ctx, Result, Writer, unsupported};

/// The shape of a numeric operand, for printing operators on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Shape {
    Scalar,
    Vector(u8),
    /// HLSL rows and columns.
    Matrix(u8, u8),
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Operand {
    pub shape: Shape,
    pub scalar: ir::Scalar,
}

impl Operand {
    /// The shape of one HLSL row of a matrix operand (GLSL `m[i]`); other
    /// operands are used whole in every row.
    fn row(self) -> Operand {
        match self.shape {
            Shape::Matrix(_, columns) => Operand {
                shape: Shape::Vector(columns),
                scalar: self.scalar,
            },
            _ => self,
        }
    }
}

impl Writer<'_> {
    /// Writes `e` into `out`, the same text [`Writer::expr`] returns. The
    /// shapes that make up most statements (names, struct members, plain
    /// scalar and vector operators) stream without a string of their own;
    /// the rest are printed by `expr` and appended.
    pub fn write_expr(&mut self, ctx: &Ctx, e: Handle<Expression>, out: &mut String) -> Result<()> {
        match &ctx.exprs[e] {
            Expression::Local(l) => {
                if let Some(n) = ctx.locals.get(l) {
                    out.push_str(n);
                    return Ok(());
                }
            }
            Expression::Param(i) => {
                if let Some(n) = ctx.params.get(*i as usize) {
                    out.push_str(n);
                    return Ok(());
                }
            }
            Expression::Member { base, index } => {
                let base_ty = self.expr_ty(ctx, *base)?;
                if let TypeInner::Struct { members } = self.inner(base_ty)
                    && let Some(member) = members.get(*index as usize)
                {
                    self.write_expr(ctx, *base, out)?;
                    out.push('.');
                    super::names::sanitize_into(&member.name, out);
                    return Ok(());
                }
            }
            Expression::Binary { op, left, right } => {
                let (lty, rty) = (self.expr_ty(ctx, *left)?, self.expr_ty(ctx, *right)?);
                if let (Some(lo), Some(ro)) = (self.operand(lty), self.operand(rty))
                    && plain_operator(*op, lo, ro)
                {
                    out.push('(');
                    self.write_expr(ctx, *left, out)?;
                    out.push(' ');
                    out.push_str(op.symbol());
                    out.push(' ');
                    self.write_expr(ctx, *right, out)?;
                    out.push(')');
                    return Ok(());
                }
            }
            _ => {}
        }
        let text = self.expr(ctx, e)?;
        out.push_str(&text);
        Ok(())
    }

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
            Expression::Deref { pointer, index } => self.deref(ctx, *pointer, *index),
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
            Expression::Call { function, args } => self.call(ctx, *function, args),
            Expression::Intrinsic { fun, args } => self.intrinsic(ctx, e, *fun, args),
            Expression::Assign { target, value } => {
                if let Some(place) = self.texel_place(ctx, *target) {
                    return self.texel_update(ctx, place, TexelUpdate::Assign(*value), span);
                }
                Ok(format!(
                    "({} = {})",
                    self.expr(ctx, *target)?,
                    self.expr(ctx, *value)?
                ))
            }
            Expression::IncDec { op, target } => {
                if let Some(place) = self.texel_place(ctx, *target) {
                    return self.texel_update(ctx, place, TexelUpdate::IncDec(*op), span);
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

    /// A call of `function`.
    fn call(
        &mut self,
        ctx: &Ctx,
        function: Handle<ir::Function>,
        args: &[Handle<Expression>],
    ) -> Result<String> {
        let mut list = Vec::with_capacity(args.len());
        for a in args {
            list.push(self.expr(ctx, *a)?);
        }
        let name = &self.function_names[&function];
        Ok(format!("{name}({})", list.join(", ")))
    }

    /// The block array (`gl_in`) whose member the builtin global `g` is,
    /// one element per vertex: the legalizer gives such a builtin an array
    /// type and indexes it by vertex.
    fn block_member(&self, g: Handle<ir::GlobalVariable>) -> Option<&'static str> {
        let var = &self.module.globals[g];
        let Some(ir::Binding::BuiltIn(b)) = var.io.as_ref().and_then(|io| io.binding.as_ref())
        else {
            return None;
        };
        let dir = match var.space {
            ir::AddressSpace::Input => legalis_sysval::Direction::Input,
            _ => legalis_sysval::Direction::Output,
        };
        match legalis_sysval::glsl(b.value, self.entry.stage, dir) {
            legalis_sysval::GlslMapping::BuiltIn(row) => row.access.block_array(),
            _ => None,
        }
    }

    pub fn global_ref(&mut self, g: Handle<ir::GlobalVariable>, span: ir::Span) -> Result<String> {
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
        if var.space == ir::AddressSpace::Uniform
            && !self.inner(self.descriptor_array(var.ty).0).is_resource()
        {
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
            TypeInner::ConstantBuffer { inner } | TypeInner::TextureBuffer { inner } => {
                if self.resource_global(ctx, base).is_none() {
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

    /// `*p` and `p[i]`.
    fn deref(
        &mut self,
        ctx: &Ctx,
        pointer: Handle<Expression>,
        _index: Option<Handle<Expression>>,
    ) -> Result<String> {
        unsupported(
            "a pointer into device memory (`T*`) in GLSL",
            ctx.exprs.span(pointer),
        )
    }

    fn index(
        &mut self,
        ctx: &Ctx,
        base: Handle<Expression>,
        index: Handle<Expression>,
    ) -> Result<String> {
        let base_ty = self.expr_ty(ctx, base)?;
        if let Expression::Global(g) = ctx.exprs[base]
            && let Some(block) = self.block_member(g)
        {
            let name = self.global_ref(g, ctx.exprs.span(base))?;
            // An element of an arrayed member: `gl_in[i].gl_ClipDistance[k]`.
            let element = match self.module.globals[g]
                .io
                .as_ref()
                .and_then(|io| io.binding.as_ref())
            {
                Some(ir::Binding::BuiltIn(ir::BuiltIn {
                    array_index: Some(k),
                    ..
                })) => format!("[{k}]"),
                _ => String::new(),
            };
            return Ok(format!(
                "{block}[{}].{name}{element}",
                self.expr(ctx, index)?
            ));
        }
        match self.inner(base_ty) {
            TypeInner::Array { .. } | TypeInner::Vector { .. } | TypeInner::Matrix { .. } => Ok(
                format!("{}[{}]", self.expr(ctx, base)?, self.expr(ctx, index)?),
            ),
            TypeInner::Buffer { .. } | TypeInner::Texture(_) => {
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
        if let TypeInner::Matrix { scalar, .. } = *self.inner(ty)
            && (matrix_as_rows(scalar) || op != ir::UnaryOp::Negate)
        {
            let span = ctx.exprs.span(expr);
            let name = self.matrix_unary_helper(op, ty, span)?;
            return Ok(format!("{name}({x})"));
        }
        Ok(match op {
            ir::UnaryOp::Negate => format!("(-{x})"),
            ir::UnaryOp::LogicalNot if matches!(self.inner(ty), TypeInner::Vector { .. }) => {
                format!("not({x})")
            }
            ir::UnaryOp::LogicalNot => format!("(!{x})"),
            ir::UnaryOp::BitwiseNot => format!("(~{x})"),
        })
    }

    pub fn operand(&self, ty: Handle<ir::Type>) -> Option<Operand> {
        let (shape, scalar) = match *self.inner(ty) {
            TypeInner::Scalar(s) => (Shape::Scalar, s),
            TypeInner::Vector { size, scalar } => (Shape::Vector(size), scalar),
            TypeInner::Matrix {
                rows,
                columns,
                scalar,
            } => (Shape::Matrix(rows, columns), scalar),
            _ => return None,
        };
        Some(Operand { shape, scalar })
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
        let (lty, rty) = (self.expr_ty(ctx, left)?, self.expr_ty(ctx, right)?);
        let (l, r) = (self.expr(ctx, left)?, self.expr(ctx, right)?);
        let (Some(lo), Some(ro)) = (self.operand(lty), self.operand(rty)) else {
            return unsupported(format!("`{}` on these operands", op.symbol()), span);
        };
        let is_mat = |o: Operand| matches!(o.shape, Shape::Matrix(..));
        if !is_mat(lo) && !is_mat(ro) {
            return self.binary_text(op, lo, ro, &l, &r, span);
        }
        let float = |o: Operand| !matrix_as_rows(o.scalar);
        let native = float(lo)
            && float(ro)
            && matches!(
                op,
                BinaryOp::Add | BinaryOp::Subtract | BinaryOp::Multiply | BinaryOp::Divide
            );
        match op {
            // HLSL `*` on two matrices is per component.
            BinaryOp::Multiply if native && is_mat(lo) && is_mat(ro) => {
                Ok(format!("matrixCompMult({l}, {r})"))
            }
            _ if native => Ok(format!("({l} {} {r})", op.symbol())),
            _ => {
                let ty = self.expr_ty(ctx, e)?;
                let name = self.matrix_binary_helper(op, (lty, lo), (rty, ro), ty, span)?;
                Ok(format!("{name}({l}, {r})"))
            }
        }
    }

    /// A scalar or vector operator in HLSL's meaning, on printed operands.
    fn binary_text(
        &mut self,
        op: BinaryOp,
        lo: Operand,
        ro: Operand,
        l: &str,
        r: &str,
        span: ir::Span,
    ) -> Result<String> {
        let size = match (lo.shape, ro.shape) {
            (Shape::Vector(n), _) | (_, Shape::Vector(n)) => Some(n),
            _ => None,
        };
        let scalar = lo.scalar;
        if let (true, Some(_)) = (op.is_comparison(), size) {
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
            BinaryOp::Modulo
                if scalar.kind == ScalarKind::Float || scalar.kind == ScalarKind::Sint =>
            {
                let t = self.vector_name(scalar, size.unwrap_or(1), span)?;
                let name = self.truncating_mod_helper(&t, scalar.kind);
                Ok(format!("{name}({l}, {r})"))
            }
            BinaryOp::LogicalAnd | BinaryOp::LogicalOr if size.is_some() => {
                let n = size.unwrap_or(1);
                let sym = if op == BinaryOp::LogicalAnd { "&" } else { "|" };
                Ok(format!("bvec{n}(uvec{n}({l}) {sym} uvec{n}({r}))"))
            }
            BinaryOp::BitwiseAnd | BinaryOp::BitwiseOr | BinaryOp::BitwiseXor
                if scalar.kind == ScalarKind::Bool =>
            {
                let (t, u) = match size {
                    Some(n) => (format!("bvec{n}"), format!("uvec{n}")),
                    None => ("bool".into(), "uint".into()),
                };
                Ok(format!("{t}({u}({l}) {} {u}({r}))", op.symbol()))
            }
            _ => Ok(format!("({l} {} {r})", op.symbol())),
        }
    }

    /// `float`, `ivec3` ...: the GLSL scalar (`n == 1`) or vector type.
    pub fn vector_name(&mut self, scalar: ir::Scalar, n: u8, span: ir::Span) -> Result<String> {
        let s = self.scalar_name(scalar, span)?;
        Ok(match n {
            1 => s,
            n => format!("{}vec{n}", vec_prefix_of(&s)),
        })
    }

    /// A helper applying `op` row by row: GLSL has no operators on the
    /// arrays that stand for integer and bool matrices, and its `==` on
    /// float matrices is one `bool` where HLSL compares per component.
    fn matrix_binary_helper(
        &mut self,
        op: BinaryOp,
        (lty, lo): (Handle<ir::Type>, Operand),
        (rty, ro): (Handle<ir::Type>, Operand),
        result: Handle<ir::Type>,
        span: ir::Span,
    ) -> Result<String> {
        let ((Shape::Matrix(rows, _), _) | (_, Shape::Matrix(rows, _))) = (lo.shape, ro.shape)
        else {
            return unsupported("this matrix operator", span);
        };
        let (lt, rt, t) = (
            self.type_parts(lty, span)?,
            self.type_parts(rty, span)?,
            self.type_name(result, span)?,
        );
        let name = helper_name(&format!(
            "_hlsl_{}_{}{}_{}{}",
            op_name(op),
            lt.0,
            lt.1,
            rt.0,
            rt.1
        ));
        let mut row_values = Vec::new();
        for i in 0..rows {
            let pick = |o: Operand, v: &str| match o.shape {
                Shape::Matrix(..) => format!("{v}[{i}]"),
                _ => v.to_string(),
            };
            let row =
                self.binary_text(op, lo.row(), ro.row(), &pick(lo, "a"), &pick(ro, "b"), span)?;
            row_values.push(row);
        }
        let body = format!(
            "{t} {name}({} a{}, {} b{})\n{{\n    return {t}({});\n}}\n",
            lt.0,
            lt.1,
            rt.0,
            rt.1,
            row_values.join(", ")
        );
        self.helpers.entry(name.clone()).or_insert(body);
        Ok(name)
    }

    /// `-`, `~` and `!` row by row on matrices GLSL prints as arrays.
    fn matrix_unary_helper(
        &mut self,
        op: ir::UnaryOp,
        ty: Handle<ir::Type>,
        span: ir::Span,
    ) -> Result<String> {
        let TypeInner::Matrix { rows, .. } = *self.inner(ty) else {
            return unsupported("this matrix operator", span);
        };
        let (t, s) = self.type_parts(ty, span)?;
        let (tag, row): (&str, fn(&str) -> String) = match op {
            ir::UnaryOp::Negate => ("neg", |x| format!("-{x}")),
            ir::UnaryOp::BitwiseNot => ("not", |x| format!("~{x}")),
            ir::UnaryOp::LogicalNot => ("lnot", |x| format!("not({x})")),
        };
        let name = helper_name(&format!("_hlsl_{tag}_{t}{s}"));
        let rows: Vec<String> = (0..rows).map(|i| row(&format!("a[{i}]"))).collect();
        let body = format!(
            "{t}{s} {name}({t} a{s})\n{{\n    return {t}{s}({});\n}}\n",
            rows.join(", ")
        );
        self.helpers.entry(name.clone()).or_insert(body);
        Ok(name)
    }

    /// HLSL `%` and `fmod` truncate (the result takes the dividend's sign);
    /// GLSL `mod` floors and `%` on negative ints is undefined.
    pub fn truncating_mod_helper(&mut self, t: &str, kind: ScalarKind) -> String {
        let name = format!("_hlsl_mod_{t}");
        let body = if kind == ScalarKind::Float {
            "return a - b * trunc(a / b);"
        } else {
            "return a - b * (a / b);"
        };
        self.helpers
            .entry(name.clone())
            .or_insert_with(|| format!("{t} {name}({t} a, {t} b)\n{{\n    {body}\n}}\n"));
        name
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
            (TypeInner::Scalar(_), &TypeInner::Matrix { scalar, .. }) => {
                let name = self.splat_helper(to_ty, span)?;
                let st = self.scalar_name(scalar, span)?;
                Ok(format!("{name}({st}({x}))"))
            }
            (&TypeInner::Matrix { scalar: a, .. }, &TypeInner::Matrix { scalar: b, .. })
                if matrix_as_rows(a) || matrix_as_rows(b) =>
            {
                let name = self.matrix_convert_helper(from_ty, to_ty, span)?;
                Ok(format!("{name}({x})"))
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

    /// GLSL `mat3(s)` is a diagonal; HLSL splats to every element.
    fn splat_helper(&mut self, ty: Handle<ir::Type>, span: ir::Span) -> Result<String> {
        let TypeInner::Matrix {
            rows,
            columns,
            scalar,
        } = *self.inner(ty)
        else {
            return unsupported("this splat", span);
        };
        let t = self.type_name(ty, span)?;
        let name = helper_name(&format!("_hlsl_splat_{t}"));
        let st = self.scalar_name(scalar, span)?;
        let col = format!("{}vec{columns}(s)", vec_prefix_of(&st));
        let cols = vec![col; rows as usize].join(", ");
        self.helpers
            .entry(name.clone())
            .or_insert_with(|| format!("{t} {name}({st} s)\n{{\n    return {t}({cols});\n}}\n"));
        Ok(name)
    }

    /// Matrix conversions involving integer or bool matrices, row by row,
    /// keeping the leading rows and columns as HLSL truncation does.
    fn matrix_convert_helper(
        &mut self,
        from: Handle<ir::Type>,
        to: Handle<ir::Type>,
        span: ir::Span,
    ) -> Result<String> {
        let (
            &TypeInner::Matrix {
                columns: from_columns,
                ..
            },
            &TypeInner::Matrix {
                rows,
                columns,
                scalar,
            },
        ) = (self.inner(from), self.inner(to))
        else {
            return unsupported("this matrix conversion", span);
        };
        let t = self.type_name(to, span)?;
        let (ft, fs) = self.type_parts(from, span)?;
        let row_t = self.vector_name(scalar, columns, span)?;
        let swizzle = match columns < from_columns {
            true => format!(".{}", &"xyzw"[..columns as usize]),
            false => String::new(),
        };
        let name = helper_name(&format!("_hlsl_cvt_{ft}{fs}_{t}"));
        let rows: Vec<String> = (0..rows)
            .map(|i| format!("{row_t}(m[{i}]{swizzle})"))
            .collect();
        self.helpers.entry(name.clone()).or_insert_with(|| {
            format!(
                "{t} {name}({ft} m{fs})\n{{\n    return {t}({});\n}}\n",
                rows.join(", ")
            )
        });
        Ok(name)
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
            inner if let Some(parts) = inner.parts() => parts,
            &TypeInner::Matrix {
                rows,
                columns,
                scalar,
            } if matrix_as_rows(scalar) => {
                return self.build_matrix_rows(ctx, (rows, columns, scalar), queue, span);
            }
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

    /// An integer or bool matrix (an array of rows) from scalars and vectors
    /// that each lie within one row; a vector across a row boundary would
    /// have to be printed twice, so it is refused.
    fn build_matrix_rows(
        &mut self,
        ctx: &Ctx,
        (rows, columns, scalar): (u8, u8, ir::Scalar),
        queue: &mut Vec<Handle<Expression>>,
        span: ir::Span,
    ) -> Result<String> {
        let row_t = self.vector_name(scalar, columns, span)?;
        let mut row_texts = Vec::new();
        for _ in 0..rows {
            let mut have = 0;
            let mut parts = Vec::new();
            while have < u32::from(columns) {
                let Some(c) = queue.pop() else {
                    return unsupported("an initializer list with too few elements", span);
                };
                have += scalar_count(self.inner(self.expr_ty(ctx, c)?));
                parts.push(self.expr(ctx, c)?);
            }
            if have != u32::from(columns) {
                return unsupported(
                    "an integer or bool matrix built from a vector that spans two rows",
                    span,
                );
            }
            row_texts.push(format!("{row_t}({})", parts.join(", ")));
        }
        Ok(format!("{row_t}[{rows}]({})", row_texts.join(", ")))
    }

    pub fn store(
        &mut self,
        ctx: &Ctx,
        target: Handle<Expression>,
        value: Handle<Expression>,
    ) -> Result<String> {
        if self.is_hit_object(ctx, target) {
            let target = self.expr(ctx, target)?;
            return self.hit_object_record(ctx, &target, value);
        }
        if let Some((base, index)) = self.image_element(ctx, target) {
            return self.image_store(ctx, base, index, value);
        }
        if let Some(place) = self.texel_place(ctx, target) {
            let span = ctx.exprs.span(target);
            return self.texel_update(ctx, place, TexelUpdate::Assign(value), span);
        }
        Ok(format!(
            "{} = {}",
            self.expr(ctx, target)?,
            self.expr(ctx, value)?
        ))
    }

    /// [`Writer::store`] written into `out`.
    pub fn write_store(
        &mut self,
        ctx: &Ctx,
        target: Handle<Expression>,
        value: Handle<Expression>,
        out: &mut String,
    ) -> Result<()> {
        if self.is_hit_object(ctx, target)
            || self.image_element(ctx, target).is_some()
            || self.texel_place(ctx, target).is_some()
        {
            let text = self.store(ctx, target, value)?;
            out.push_str(&text);
            return Ok(());
        }
        self.write_expr(ctx, target, out)?;
        out.push_str(" = ");
        self.write_expr(ctx, value, out)
    }

    pub fn expr_stmt(&mut self, ctx: &Ctx, e: Handle<Expression>) -> Result<String> {
        match &ctx.exprs[e] {
            Expression::Intrinsic { fun, args } => self.intrinsic_stmt(ctx, e, *fun, args),
            Expression::Assign { target, value } => self.store(ctx, *target, *value),
            _ => self.expr(ctx, e),
        }
    }

    /// Whether printing `e` twice is the same as printing it once:
    /// [`ir::is_pure`], and no intrinsic at all (each intrinsic call is
    /// printed once, its value kept in a temporary where it is needed
    /// twice).
    pub fn is_pure(&self, ctx: &Ctx, e: Handle<Expression>) -> bool {
        ir::is_pure_with(ctx.exprs, e, |_| false)
    }
}

/// Whether `binary_text` prints `op` on these operands as `(l op r)`:
/// neither is a matrix, and HLSL and GLSL agree on the operator's meaning.
fn plain_operator(op: BinaryOp, lo: Operand, ro: Operand) -> bool {
    let is_mat = |o: Operand| matches!(o.shape, Shape::Matrix(..));
    if is_mat(lo) || is_mat(ro) {
        return false;
    }
    let vector = matches!(lo.shape, Shape::Vector(_)) || matches!(ro.shape, Shape::Vector(_));
    let scalar = lo.scalar;
    match op {
        _ if op.is_comparison() && vector => false,
        BinaryOp::Modulo => !(scalar.kind == ScalarKind::Float || scalar.kind == ScalarKind::Sint),
        BinaryOp::LogicalAnd | BinaryOp::LogicalOr => !vector,
        BinaryOp::BitwiseAnd | BinaryOp::BitwiseOr | BinaryOp::BitwiseXor => {
            scalar.kind != ScalarKind::Bool
        }
        _ => true,
    }
}

/// A name fragment for helper names.
fn op_name(op: BinaryOp) -> &'static str {
    match op {
        BinaryOp::Add => "add",
        BinaryOp::Subtract => "sub",
        BinaryOp::Multiply => "mul",
        BinaryOp::Divide => "div",
        BinaryOp::Modulo => "mod",
        BinaryOp::Equal => "eq",
        BinaryOp::NotEqual => "ne",
        BinaryOp::Less => "lt",
        BinaryOp::LessEqual => "le",
        BinaryOp::Greater => "gt",
        BinaryOp::GreaterEqual => "ge",
        BinaryOp::BitwiseAnd => "and",
        BinaryOp::BitwiseOr => "or",
        BinaryOp::BitwiseXor => "xor",
        BinaryOp::ShiftLeft => "shl",
        BinaryOp::ShiftRight => "shr",
        BinaryOp::LogicalAnd => "land",
        BinaryOp::LogicalOr => "lor",
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
    let mut s = crate::float_text::debug_f64(f);
    if !s.contains(['.', 'e', 'E']) {
        s.push_str(".0");
    }
    s.push_str(suffix);
    s
}

#[cfg(test)]
mod tests {
    use super::float_text;

    /// GLSL's spelling on top of `{:?}`: a `.0` where Rust prints none,
    /// `lf` for doubles, and expressions for infinities and NaN.
    #[test]
    fn float_text_spells_glsl_literals() {
        assert_eq!(float_text(2.0, 4), "2.0");
        assert_eq!(float_text(-0.0, 4), "-0.0");
        assert_eq!(float_text(0.5, 8), "0.5lf");
        assert_eq!(float_text(1e300, 4), "1e300");
        assert_eq!(float_text(f64::INFINITY, 4), "(1.0 / 0.0)");
        assert_eq!(float_text(f64::NEG_INFINITY, 4), "(-1.0 / 0.0)");
        assert_eq!(float_text(f64::NAN, 4), "(0.0 / 0.0)");
    }
}
