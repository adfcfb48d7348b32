//! Signatures of the free intrinsic functions (`dot`, `lerp`, `TraceRay`
//! ...): which arguments they take, how arguments convert, what they return.
//!
//! Rules are grouped by shape (component-wise float maps, reductions, bit
//! operations, stage intrinsics) rather than listed per overload, so one
//! rule serves every scalar/vector/matrix size HLSL allows.

use legalis_ir as ir;
use legalis_ir::{Handle, Intrinsic as I, Scalar, ScalarKind, Span, Type, TypeInner};

use super::Checker;
use super::convert::{Value, common_scalar};
use super::types::Shape;
use crate::{ast, codes};

/// How one argument is passed.
#[derive(Clone, Copy, Debug)]
pub enum Arg {
    /// Converted implicitly to this type.
    In(Handle<Type>),
    /// Must be a writable place of exactly this type.
    Out(Handle<Type>),
    /// Must be a writable place; any type the rule checked itself.
    OutAny,
    /// Passed as is (the rule checked it).
    Any,
}

/// A resolved intrinsic signature.
#[derive(Debug)]
pub struct Signature {
    pub args: Vec<Arg>,
    pub result: Option<Handle<Type>>,
}

impl Checker<'_> {
    pub fn lower_intrinsic_call(&mut self, fun: I, args: &[ast::Expr], span: Span) -> Value {
        let values: Vec<Value> = args
            .iter()
            .map(|a| {
                let v = self.lower_value(a);
                self.deref_if_handle(v, a.span)
            })
            .collect();
        self.lower_intrinsic_values(fun, values, args, span)
    }

    /// Checks already-lowered arguments against `fun`'s rule and builds the call.
    pub fn lower_intrinsic_values(
        &mut self,
        fun: I,
        values: Vec<Value>,
        args: &[ast::Expr],
        span: Span,
    ) -> Value {
        if values.iter().any(|v| v.ty == Some(self.error_ty)) {
            return self.error_value(span);
        }
        let types: Vec<Handle<Type>> = values
            .iter()
            .map(|v| v.ty.unwrap_or(self.error_ty))
            .collect();
        let spans: Vec<Span> = args.iter().map(|a| a.span).collect();
        if fun == I::WorkgroupUniformLoad
            && let Some(v) = values.first()
            && !self.is_groupshared_place(v.expr)
        {
            self.error(
                codes::NO_MATCHING_OVERLOAD,
                "the argument of `workgroupUniformLoad` must be a `groupshared` variable or part of one",
                spans.first().copied().unwrap_or(span),
            );
            return self.error_value(span);
        }
        match self.intrinsic_signature(fun, &types) {
            Ok(sig) if self.per_row(fun, &sig) => {
                self.apply_per_row(fun, sig, values, &spans, span)
            }
            Ok(sig) => self.apply_signature(fun, sig, values, &spans, span),
            Err(message) => {
                let arg_types: Vec<String> = types.iter().map(|&t| self.type_name(t)).collect();
                self.error(
                    codes::NO_MATCHING_OVERLOAD,
                    format!(
                        "no overload of `{}` takes ({}): {message}",
                        fun.name(),
                        arg_types.join(", ")
                    ),
                    span,
                );
                self.error_value(span)
            }
        }
    }

    /// Whether `expr` is a `groupshared` global or a struct member or array
    /// element of one (WGSL takes no pointer to a vector's component).
    fn is_groupshared_place(&self, expr: Handle<ir::Expression>) -> bool {
        let exprs = self.exprs_ref();
        let mut e = expr;
        loop {
            match &exprs[e] {
                ir::Expression::Member { base, .. } | ir::Expression::Index { base, .. }
                    if exprs.ty(*base).is_some_and(|t| {
                        matches!(
                            self.inner(t),
                            TypeInner::Struct { .. } | TypeInner::Array { .. }
                        )
                    }) =>
                {
                    e = *base
                }
                ir::Expression::Global(g) => {
                    return self.module.globals[*g].space == ir::AddressSpace::Workgroup;
                }
                _ => return false,
            }
        }
    }

    /// Whether `fun` with signature `sig` is a component-wise function of a
    /// matrix (`sin(m)`, `ddx(m)`, `clamp(m, 0, 1)`): no target has those on
    /// matrices, so the call is made once per row ([`Self::apply_per_row`]).
    fn per_row(&self, fun: I, sig: &Signature) -> bool {
        !matches!(fun, I::Mul | I::Transpose)
            && sig
                .result
                .is_some_and(|r| matches!(self.inner(r), TypeInner::Matrix { .. }))
            && sig.args.iter().all(|a| matches!(a, Arg::In(_)))
            && sig.args.iter().any(
                |a| matches!(a, Arg::In(t) if matches!(self.inner(*t), TypeInner::Matrix { .. })),
            )
    }

    /// A component-wise call on matrices as a matrix of its rows: each row
    /// is the call on the arguments' rows (scalars as they are), so `sin(m)`
    /// is `float2x2(sin(m[0]), sin(m[1]))`. An argument is read once per
    /// row, so one with an effect (a call, an assignment) is refused.
    fn apply_per_row(
        &mut self,
        fun: I,
        sig: Signature,
        values: Vec<Value>,
        spans: &[Span],
        span: Span,
    ) -> Value {
        let Some(result) = sig.result else {
            return self.error_value(span);
        };
        let TypeInner::Matrix {
            rows,
            columns,
            scalar,
        } = *self.inner(result)
        else {
            return self.error_value(span);
        };
        let row_ty = self.numeric_ty(scalar, Shape::vector(columns));
        let mut args = Vec::with_capacity(values.len());
        for (i, (v, mode)) in values.into_iter().zip(&sig.args).enumerate() {
            let arg_span = spans.get(i).copied().unwrap_or(span);
            let Arg::In(mut ty) = *mode else {
                return self.error_value(span);
            };
            // A scalar beside matrices is splat to a row, not a matrix.
            if v.ty
                .is_some_and(|t| matches!(self.inner(t), TypeInner::Scalar(_)))
            {
                ty = row_ty;
            }
            let expr = self.coerce(v, ty, arg_span);
            if !self.effect_free(expr) {
                self.error(
                    codes::NO_MATCHING_OVERLOAD,
                    format!(
                        "`{}` of a matrix is computed row by row, which reads this argument \
                         once per row: assign it to a local first",
                        fun.name()
                    ),
                    arg_span,
                );
                return self.error_value(span);
            }
            args.push((expr, ty));
        }
        let int = self.numeric_ty(Scalar::I32, Shape::Scalar);
        let mut components = Vec::with_capacity(usize::from(rows));
        for r in 0..rows {
            let mut row_args = Vec::with_capacity(args.len());
            for &(expr, ty) in &args {
                let expr = if r == 0 { expr } else { self.copy_expr(expr) };
                let row = match self.inner(ty) {
                    TypeInner::Matrix { .. } => {
                        let index = self
                            .append(
                                ir::Expression::Literal(ir::Literal::Int(i64::from(r))),
                                Some(int),
                                span,
                            )
                            .expr;
                        self.append(
                            ir::Expression::Index { base: expr, index },
                            Some(row_ty),
                            span,
                        )
                        .expr
                    }
                    _ => expr,
                };
                row_args.push(row);
            }
            components.push(
                self.append(
                    ir::Expression::Intrinsic {
                        fun,
                        args: row_args,
                    },
                    Some(row_ty),
                    span,
                )
                .expr,
            );
        }
        self.append(ir::Expression::Construct { components }, Some(result), span)
    }

    /// Whether evaluating `expr` twice is the same as once: no call,
    /// assignment or increment in it, and of the built-in functions only
    /// HLSL's lower-case math (`abs`, `sin`, `ddx`, `asfloat` ...), not
    /// `clip`, the interlock or a method.
    fn effect_free(&self, expr: Handle<ir::Expression>) -> bool {
        let exprs = self.exprs_ref();
        let children_free =
            |e: &ir::Expression| e.children().into_iter().all(|c| self.effect_free(c));
        match &exprs[expr] {
            ir::Expression::Call { .. }
            | ir::Expression::Assign { .. }
            | ir::Expression::IncDec { .. } => false,
            ir::Expression::Intrinsic { fun, .. } => {
                let math = fun.name().starts_with(|c: char| c.is_ascii_lowercase())
                    && !fun.is_method()
                    && !matches!(
                        fun,
                        I::Clip
                            | I::BeginInvocationInterlock
                            | I::EndInvocationInterlock
                            | I::WorkgroupUniformLoad
                    );
                math && children_free(&exprs[expr])
            }
            e => children_free(e),
        }
    }

    /// Converts arguments as the signature says and appends the call.
    pub fn apply_signature(
        &mut self,
        fun: I,
        sig: Signature,
        values: Vec<Value>,
        spans: &[Span],
        span: Span,
    ) -> Value {
        let mut args = Vec::with_capacity(values.len());
        for (i, (v, mode)) in values.into_iter().zip(sig.args).enumerate() {
            let arg_span = spans.get(i).copied().unwrap_or(span);
            let expr = match mode {
                Arg::In(ty) => self.coerce(v, ty, arg_span),
                Arg::Out(ty) => {
                    self.require_place(v.expr, arg_span);
                    if v.ty != Some(ty) {
                        let (a, b) = (
                            self.type_name(v.ty.unwrap_or(self.error_ty)),
                            self.type_name(ty),
                        );
                        self.error(
                            codes::TYPE_MISMATCH,
                            format!("`out` argument must be `{b}`, found `{a}`"),
                            arg_span,
                        );
                    }
                    v.expr
                }
                Arg::OutAny => {
                    self.require_place(v.expr, arg_span);
                    v.expr
                }
                Arg::Any => v.expr,
            };
            args.push(expr);
        }
        self.append(ir::Expression::Intrinsic { fun, args }, sig.result, span)
    }

    fn intrinsic_signature(&mut self, fun: I, types: &[Handle<Type>]) -> Result<Signature, String> {
        if let Some(sig) = self.math_signature(fun, types)? {
            return Ok(sig);
        }
        if let Some(sig) = self.optix_signature(fun, types)? {
            return Ok(sig);
        }
        if let Some(sig) = self.sync_and_wave_signature(fun, types)? {
            return Ok(sig);
        }
        if let Some(sig) = self.stage_signature(fun, types)? {
            return Ok(sig);
        }
        if let Some(sig) = self.hit_object_signature(fun, types)? {
            return Ok(sig);
        }
        Err("not callable as a free function".to_string())
    }

    fn arity(types: &[Handle<Type>], n: usize) -> Result<(), String> {
        if types.len() == n {
            Ok(())
        } else {
            Err(format!("expected {n} argument(s), found {}", types.len()))
        }
    }

    fn numeric_or_err(&self, ty: Handle<Type>) -> Result<(Scalar, Shape), String> {
        self.numeric(ty)
            .ok_or_else(|| format!("`{}` is not a number", self.type_name(ty)))
    }

    /// The common type of component-wise arguments; `float_only` turns
    /// integer elements into `float`.
    fn common_type(
        &mut self,
        types: &[Handle<Type>],
        float_only: bool,
    ) -> Result<Handle<Type>, String> {
        let mut acc: Option<(Scalar, Shape)> = None;
        for &t in types {
            let (s, sh) = self.numeric_or_err(t)?;
            acc = Some(match acc {
                None => (s, sh),
                Some((a, ash)) => {
                    let shape = match (ash, sh) {
                        (x, y) if x == y => x,
                        (Shape::Scalar, y) => y,
                        (x, Shape::Scalar) => x,
                        (Shape::Vector(n), Shape::Vector(m)) => Shape::Vector(n.min(m)),
                        _ => return Err("arguments have incompatible shapes".to_string()),
                    };
                    (if a == s { a } else { common_scalar(a, s) }, shape)
                }
            });
        }
        let (mut s, shape) = acc.ok_or("expected arguments")?;
        if float_only && s.kind != ScalarKind::Float {
            s = Scalar::F32;
        }
        if s == Scalar::BOOL && !float_only {
            s = Scalar::I32;
        }
        Ok(self.numeric_ty(s, shape))
    }

    /// Component-wise: all arguments take the common type; result is it too
    /// (or `result` with that shape).
    fn map_rule(
        &mut self,
        types: &[Handle<Type>],
        n: usize,
        float_only: bool,
    ) -> Result<Signature, String> {
        Self::arity(types, n)?;
        let ty = self.common_type(types, float_only)?;
        Ok(Signature {
            args: vec![Arg::In(ty); n],
            result: Some(ty),
        })
    }

    fn with_result_scalar(&mut self, sig: Signature, scalar: Scalar) -> Signature {
        let result = sig.result.map(|t| self.with_scalar(t, scalar));
        Signature {
            args: sig.args,
            result,
        }
    }

    fn reduce_rule(
        &mut self,
        types: &[Handle<Type>],
        n: usize,
        float_only: bool,
    ) -> Result<Signature, String> {
        let sig = self.map_rule(types, n, float_only)?;
        let result = sig
            .result
            .and_then(|t| self.numeric(t))
            .map(|(s, _)| self.scalar_ty(s));
        Ok(Signature {
            args: sig.args,
            result,
        })
    }

    fn math_signature(
        &mut self,
        fun: I,
        types: &[Handle<Type>],
    ) -> Result<Option<Signature>, String> {
        let sig = match fun {
            I::Acos
            | I::Asin
            | I::Atan
            | I::Ceil
            | I::Cos
            | I::Cosh
            | I::Degrees
            | I::Exp
            | I::Exp2
            | I::Floor
            | I::Frac
            | I::Log
            | I::Log10
            | I::Log2
            | I::Radians
            | I::Rcp
            | I::Round
            | I::Rsqrt
            | I::Saturate
            | I::Sin
            | I::Sinh
            | I::Sqrt
            | I::Tan
            | I::Tanh
            | I::Trunc
            | I::Ddx
            | I::DdxCoarse
            | I::DdxFine
            | I::Ddy
            | I::DdyCoarse
            | I::DdyFine
            | I::Fwidth
            | I::Normalize
            | I::Noise => {
                let sig = self.map_rule(types, 1, true)?;
                if fun == I::Noise {
                    self.reduce_rule(types, 1, true)?
                } else {
                    sig
                }
            }
            I::Abs => self.map_rule(types, 1, false)?,
            I::Sign => {
                let sig = self.map_rule(types, 1, false)?;
                self.with_result_scalar(sig, Scalar::I32)
            }
            I::Atan2 | I::Fmod | I::Pow | I::Step | I::Ldexp | I::Reflect => {
                self.map_rule(types, 2, true)?
            }
            I::Min | I::Max => self.map_rule(types, 2, false)?,
            I::Clamp | I::Mad => self.map_rule(types, 3, false)?,
            I::Lerp | I::SmoothStep | I::FaceForward => self.map_rule(types, 3, true)?,
            I::Fma => {
                let sig = self.map_rule(types, 3, true)?;
                let args = sig
                    .args
                    .iter()
                    .map(|_| Arg::In(self.with_scalar_of(sig.result, Scalar::F64)))
                    .collect();
                Signature {
                    args,
                    result: Some(self.with_scalar_of(sig.result, Scalar::F64)),
                }
            }
            I::Refract => {
                Self::arity(types, 3)?;
                let v = self.common_type(&types[..2], true)?;
                let (s, _) = self.numeric_or_err(v)?;
                let eta = self.scalar_ty(s);
                Signature {
                    args: vec![Arg::In(v), Arg::In(v), Arg::In(eta)],
                    result: Some(v),
                }
            }
            I::Dot => self.reduce_rule(types, 2, false)?,
            I::Length => self.reduce_rule(types, 1, true)?,
            I::Distance => self.reduce_rule(types, 2, true)?,
            I::Any | I::All => {
                Self::arity(types, 1)?;
                self.numeric_or_err(types[0])?;
                Signature {
                    args: vec![Arg::Any],
                    result: Some(self.bool_ty()),
                }
            }
            I::IsNan | I::IsInf | I::IsFinite => {
                let sig = self.map_rule(types, 1, true)?;
                self.with_result_scalar(sig, Scalar::BOOL)
            }
            I::Clip => {
                let sig = self.map_rule(types, 1, true)?;
                Signature {
                    args: sig.args,
                    result: None,
                }
            }
            I::Cross => {
                Self::arity(types, 2)?;
                let ty = self.common_type(types, true)?;
                match self.numeric(ty) {
                    Some((_, Shape::Vector(3))) => Signature {
                        args: vec![Arg::In(ty); 2],
                        result: Some(ty),
                    },
                    _ => return Err("`cross` takes two 3-component vectors".into()),
                }
            }
            I::Determinant | I::Transpose => {
                Self::arity(types, 1)?;
                let (s, shape) = self.numeric_or_err(types[0])?;
                let Shape::Matrix { rows, columns } = shape else {
                    return Err("expected a matrix".into());
                };
                if fun == I::Determinant {
                    if rows != columns {
                        return Err("`determinant` needs a square matrix".into());
                    }
                    let s = if s.kind == ScalarKind::Float {
                        s
                    } else {
                        Scalar::F32
                    };
                    let m = self.numeric_ty(s, shape);
                    Signature {
                        args: vec![Arg::In(m)],
                        result: Some(self.scalar_ty(s)),
                    }
                } else {
                    let t = self.numeric_ty(
                        s,
                        Shape::Matrix {
                            rows: columns,
                            columns: rows,
                        },
                    );
                    Signature {
                        args: vec![Arg::Any],
                        result: Some(t),
                    }
                }
            }
            I::Mul => self.mul_signature(types)?,
            I::CountBits | I::ReverseBits | I::FirstBitHigh | I::FirstBitLow => {
                Self::arity(types, 1)?;
                let (s, shape) = self.numeric_or_err(types[0])?;
                let arg_scalar = match s.kind {
                    ScalarKind::Sint | ScalarKind::Uint => s,
                    _ => Scalar::U32,
                };
                let arg = self.numeric_ty(arg_scalar, shape);
                let result_scalar = match fun {
                    I::CountBits => Scalar::U32,
                    _ => arg_scalar,
                };
                Signature {
                    args: vec![Arg::In(arg)],
                    result: Some(self.numeric_ty(result_scalar, shape)),
                }
            }
            I::AsUint | I::AsInt | I::AsFloat | I::AsFloat16 | I::AsInt16 | I::AsUint16 => {
                return self.bitcast_signature(fun, types).map(Some);
            }
            I::AsDouble => {
                Self::arity(types, 2)?;
                let u = self.common_type(types, false)?;
                let (_, shape) = self.numeric_or_err(u)?;
                let arg = self.numeric_ty(Scalar::U32, shape);
                Signature {
                    args: vec![Arg::In(arg); 2],
                    result: Some(self.numeric_ty(Scalar::F64, shape)),
                }
            }
            I::F32ToF16 | I::F16ToF32 => {
                Self::arity(types, 1)?;
                let (_, shape) = self.numeric_or_err(types[0])?;
                let (from, to) = if fun == I::F32ToF16 {
                    (Scalar::F32, Scalar::U32)
                } else {
                    (Scalar::U32, Scalar::F32)
                };
                let arg = self.numeric_ty(from, shape);
                Signature {
                    args: vec![Arg::In(arg)],
                    result: Some(self.numeric_ty(to, shape)),
                }
            }
            I::SinCos => {
                Self::arity(types, 3)?;
                let ty = self.common_type(&types[..1], true)?;
                Signature {
                    args: vec![Arg::In(ty), Arg::Out(ty), Arg::Out(ty)],
                    result: None,
                }
            }
            I::Modf | I::Frexp => {
                Self::arity(types, 2)?;
                let ty = self.common_type(&types[..1], true)?;
                Signature {
                    args: vec![Arg::In(ty), Arg::Out(ty)],
                    result: Some(ty),
                }
            }
            I::Lit => {
                Self::arity(types, 3)?;
                let f = self.scalar_ty(Scalar::F32);
                let f4 = self.numeric_ty(Scalar::F32, Shape::Vector(4));
                Signature {
                    args: vec![Arg::In(f); 3],
                    result: Some(f4),
                }
            }
            I::Dst => {
                Self::arity(types, 2)?;
                let f4 = self.numeric_ty(Scalar::F32, Shape::Vector(4));
                Signature {
                    args: vec![Arg::In(f4); 2],
                    result: Some(f4),
                }
            }
            I::Msad4 => {
                Self::arity(types, 3)?;
                let u = self.scalar_ty(Scalar::U32);
                let u2 = self.numeric_ty(Scalar::U32, Shape::Vector(2));
                let u4 = self.numeric_ty(Scalar::U32, Shape::Vector(4));
                Signature {
                    args: vec![Arg::In(u), Arg::In(u2), Arg::In(u4)],
                    result: Some(u4),
                }
            }
            _ => return Ok(None),
        };
        Ok(Some(sig))
    }

    fn with_scalar_of(&mut self, ty: Option<Handle<Type>>, scalar: Scalar) -> Handle<Type> {
        match ty {
            Some(t) => self.with_scalar(t, scalar),
            None => self.scalar_ty(scalar),
        }
    }

    /// `asuint`/`asint`/`asfloat` and the 16-bit forms reinterpret bits of
    /// same-width elements; `asuint(double, out uint, out uint)` splits one.
    fn bitcast_signature(&mut self, fun: I, types: &[Handle<Type>]) -> Result<Signature, String> {
        if fun == I::AsUint && types.len() == 3 {
            let d = self.scalar_ty(Scalar::F64);
            let u = self.scalar_ty(Scalar::U32);
            return Ok(Signature {
                args: vec![Arg::In(d), Arg::Out(u), Arg::Out(u)],
                result: None,
            });
        }
        Self::arity(types, 1)?;
        let (s, shape) = self.numeric_or_err(types[0])?;
        let to = match fun {
            I::AsUint => Scalar::U32,
            I::AsInt => Scalar::I32,
            I::AsFloat => Scalar::F32,
            I::AsFloat16 => Scalar::F16,
            I::AsInt16 => Scalar::I16,
            _ => Scalar::U16,
        };
        if s.width != to.width || s.kind == ScalarKind::Bool {
            return Err(format!(
                "`{}` needs {}-bit numeric elements",
                fun.name(),
                to.width * 8
            ));
        }
        Ok(Signature {
            args: vec![Arg::Any],
            result: Some(self.numeric_ty(to, shape)),
        })
    }

    /// `mul(a, b)`: scalar scaling, dot product, row-vector × matrix,
    /// matrix × column-vector, matrix product.
    fn mul_signature(&mut self, types: &[Handle<Type>]) -> Result<Signature, String> {
        Self::arity(types, 2)?;
        let (sa, a) = self.numeric_or_err(types[0])?;
        let (sb, b) = self.numeric_or_err(types[1])?;
        let s = common_scalar(sa, sb);
        let result = match (a, b) {
            (Shape::Scalar, x) | (x, Shape::Scalar) => x,
            (Shape::Vector(n), Shape::Vector(m)) if n == m => Shape::Scalar,
            (Shape::Vector(n), Shape::Matrix { rows, columns }) if n == rows => {
                Shape::vector(columns)
            }
            (Shape::Matrix { rows, columns }, Shape::Vector(n)) if n == columns => {
                Shape::vector(rows)
            }
            (Shape::Matrix { rows, columns: k1 }, Shape::Matrix { rows: k2, columns })
                if k1 == k2 =>
            {
                if rows == 1 && columns == 1 {
                    Shape::Scalar
                } else {
                    Shape::Matrix { rows, columns }
                }
            }
            _ => return Err("the inner dimensions do not agree".into()),
        };
        let ta = self.numeric_ty(s, a);
        let tb = self.numeric_ty(s, b);
        Ok(Signature {
            args: vec![Arg::In(ta), Arg::In(tb)],
            result: Some(self.numeric_ty(s, result)),
        })
    }

    fn sync_and_wave_signature(
        &mut self,
        fun: I,
        types: &[Handle<Type>],
    ) -> Result<Option<Signature>, String> {
        let uint = self.scalar_ty(Scalar::U32);
        let sig = match fun {
            I::AllMemoryBarrier
            | I::AllMemoryBarrierWithGroupSync
            | I::DeviceMemoryBarrier
            | I::DeviceMemoryBarrierWithGroupSync
            | I::GroupMemoryBarrier
            | I::GroupMemoryBarrierWithGroupSync => {
                Self::arity(types, 0)?;
                Signature {
                    args: Vec::new(),
                    result: None,
                }
            }
            I::InterlockedAdd
            | I::InterlockedAnd
            | I::InterlockedOr
            | I::InterlockedXor
            | I::InterlockedMin
            | I::InterlockedMax
            | I::InterlockedExchange => {
                if types.len() != 2 && types.len() != 3 {
                    return Err(format!("expected 2 or 3 arguments, found {}", types.len()));
                }
                let dest = self.atomic_dest(types[0])?;
                let mut args = vec![Arg::OutAny, Arg::In(dest)];
                if types.len() == 3 {
                    args.push(Arg::Out(dest));
                }
                Signature { args, result: None }
            }
            I::InterlockedCompareExchange => {
                Self::arity(types, 4)?;
                let dest = self.atomic_dest(types[0])?;
                Signature {
                    args: vec![Arg::OutAny, Arg::In(dest), Arg::In(dest), Arg::Out(dest)],
                    result: None,
                }
            }
            I::InterlockedCompareStore => {
                Self::arity(types, 3)?;
                let dest = self.atomic_dest(types[0])?;
                Signature {
                    args: vec![Arg::OutAny, Arg::In(dest), Arg::In(dest)],
                    result: None,
                }
            }
            I::NonUniformResourceIndex => {
                Self::arity(types, 1)?;
                match self.numeric(types[0]) {
                    Some((s, Shape::Scalar))
                        if matches!(s.kind, ScalarKind::Sint | ScalarKind::Uint) =>
                    {
                        Signature {
                            args: vec![Arg::Any],
                            result: Some(types[0]),
                        }
                    }
                    _ => return Err("the index must be an integer scalar".into()),
                }
            }
            I::BeginInvocationInterlock | I::EndInvocationInterlock => {
                Self::arity(types, 0)?;
                Signature {
                    args: Vec::new(),
                    result: None,
                }
            }
            I::WorkgroupUniformLoad => {
                Self::arity(types, 1)?;
                Signature {
                    args: vec![Arg::Any],
                    result: Some(types[0]),
                }
            }
            I::QuadAny | I::QuadAll => {
                Self::arity(types, 1)?;
                let b = self.bool_ty();
                Signature {
                    args: vec![Arg::In(b)],
                    result: Some(b),
                }
            }
            I::WaveGetLaneCount
            | I::WaveGetLaneIndex
            | I::WaveGetWaveIndex
            | I::WaveGetNumWaves => {
                Self::arity(types, 0)?;
                Signature {
                    args: Vec::new(),
                    result: Some(uint),
                }
            }
            I::WaveIsFirstLane => {
                Self::arity(types, 0)?;
                Signature {
                    args: Vec::new(),
                    result: Some(self.bool_ty()),
                }
            }
            I::WaveActiveAnyTrue
            | I::WaveActiveAllTrue
            | I::WaveActiveBallot
            | I::WaveActiveCountBits
            | I::WavePrefixCountBits => {
                Self::arity(types, 1)?;
                let b = self.bool_ty();
                let result = match fun {
                    I::WaveActiveAnyTrue | I::WaveActiveAllTrue => b,
                    I::WaveActiveBallot => self.numeric_ty(Scalar::U32, Shape::Vector(4)),
                    _ => uint,
                };
                Signature {
                    args: vec![Arg::In(b)],
                    result: Some(result),
                }
            }
            I::WaveActiveSum
            | I::WaveActiveProduct
            | I::WaveActiveMin
            | I::WaveActiveMax
            | I::WavePrefixSum
            | I::WavePrefixProduct
            | I::WaveReadLaneFirst
            | I::QuadReadAcrossX
            | I::QuadReadAcrossY
            | I::QuadReadAcrossDiagonal => {
                Self::arity(types, 1)?;
                self.numeric_or_err(types[0])?;
                Signature {
                    args: vec![Arg::Any],
                    result: Some(types[0]),
                }
            }
            I::WaveActiveBitAnd | I::WaveActiveBitOr | I::WaveActiveBitXor => {
                Self::arity(types, 1)?;
                let (s, _) = self.numeric_or_err(types[0])?;
                if !matches!(s.kind, ScalarKind::Sint | ScalarKind::Uint) {
                    return Err("expected integer elements".into());
                }
                Signature {
                    args: vec![Arg::Any],
                    result: Some(types[0]),
                }
            }
            I::WaveActiveAllEqual => {
                Self::arity(types, 1)?;
                let (_, shape) = self.numeric_or_err(types[0])?;
                Signature {
                    args: vec![Arg::Any],
                    result: Some(self.numeric_ty(Scalar::BOOL, shape)),
                }
            }
            I::WaveReadLaneAt | I::QuadReadLaneAt => {
                Self::arity(types, 2)?;
                self.numeric_or_err(types[0])?;
                Signature {
                    args: vec![Arg::Any, Arg::In(uint)],
                    result: Some(types[0]),
                }
            }
            _ => return Ok(None),
        };
        Ok(Some(sig))
    }

    /// The destination of an atomic: a 32- or 64-bit integer.
    fn atomic_dest(&self, ty: Handle<Type>) -> Result<Handle<Type>, String> {
        match *self.inner(ty) {
            TypeInner::Scalar(s)
                if matches!(s.kind, ScalarKind::Sint | ScalarKind::Uint) && s.width >= 4 =>
            {
                Ok(ty)
            }
            _ => Err("the destination must be an `int` or `uint` variable".into()),
        }
    }

    fn stage_signature(
        &mut self,
        fun: I,
        types: &[Handle<Type>],
    ) -> Result<Option<Signature>, String> {
        let uint = self.scalar_ty(Scalar::U32);
        let float = self.scalar_ty(Scalar::F32);
        let uint3 = self.numeric_ty(Scalar::U32, Shape::Vector(3));
        let float3 = self.numeric_ty(Scalar::F32, Shape::Vector(3));
        let none = |result| Signature {
            args: Vec::new(),
            result,
        };
        let sig = match fun {
            I::GetAttributeAtVertex | I::EvaluateAttributeAtSample => {
                Self::arity(types, 2)?;
                Signature {
                    args: vec![Arg::Any, Arg::In(uint)],
                    result: Some(types[0]),
                }
            }
            I::EvaluateAttributeAtCentroid => {
                Self::arity(types, 1)?;
                Signature {
                    args: vec![Arg::Any],
                    result: Some(types[0]),
                }
            }
            I::EvaluateAttributeSnapped => {
                Self::arity(types, 2)?;
                let int2 = self.numeric_ty(Scalar::I32, Shape::Vector(2));
                Signature {
                    args: vec![Arg::Any, Arg::In(int2)],
                    result: Some(types[0]),
                }
            }
            I::GetRenderTargetSampleCount => {
                Self::arity(types, 0)?;
                none(Some(uint))
            }
            I::GetRenderTargetSamplePosition => {
                Self::arity(types, 1)?;
                let int = self.scalar_ty(Scalar::I32);
                let float2 = self.numeric_ty(Scalar::F32, Shape::Vector(2));
                Signature {
                    args: vec![Arg::In(int)],
                    result: Some(float2),
                }
            }
            I::SetMeshOutputCounts => {
                Self::arity(types, 2)?;
                Signature {
                    args: vec![Arg::In(uint); 2],
                    result: None,
                }
            }
            I::DispatchMesh => {
                Self::arity(types, 4)?;
                self.require_struct(types[3], "the payload")?;
                Signature {
                    args: vec![Arg::In(uint), Arg::In(uint), Arg::In(uint), Arg::Any],
                    result: None,
                }
            }
            I::TraceRay => {
                self.check_trace_args(types, 8)?;
                let mut args = vec![Arg::Any];
                args.extend([Arg::In(uint); 5]);
                args.extend([Arg::Any, Arg::OutAny]);
                Signature { args, result: None }
            }
            I::TraceMotionRay => {
                self.check_trace_args(types, 9)?;
                let mut args = vec![Arg::Any];
                args.extend([Arg::In(uint); 5]);
                args.extend([Arg::Any, Arg::In(float), Arg::OutAny]);
                Signature { args, result: None }
            }
            I::CallShader => {
                Self::arity(types, 2)?;
                self.require_struct(types[1], "the callable data")?;
                Signature {
                    args: vec![Arg::In(uint), Arg::OutAny],
                    result: None,
                }
            }
            I::ReportHit => {
                Self::arity(types, 3)?;
                self.require_struct(types[2], "the hit attributes")?;
                Signature {
                    args: vec![Arg::In(float), Arg::In(uint), Arg::Any],
                    result: Some(self.bool_ty()),
                }
            }
            I::IgnoreHit | I::AcceptHitAndEndSearch => {
                Self::arity(types, 0)?;
                none(None)
            }
            I::DispatchRaysIndex | I::DispatchRaysDimensions => {
                Self::arity(types, 0)?;
                none(Some(uint3))
            }
            I::WorldRayOrigin
            | I::WorldRayDirection
            | I::ObjectRayOrigin
            | I::ObjectRayDirection => {
                Self::arity(types, 0)?;
                none(Some(float3))
            }
            I::RayTMin | I::RayTCurrent | I::RayCurrentTime => {
                Self::arity(types, 0)?;
                none(Some(float))
            }
            I::RayFlags
            | I::HitKind
            | I::InstanceIndex
            | I::InstanceId
            | I::PrimitiveIndex
            | I::GeometryIndex => {
                Self::arity(types, 0)?;
                none(Some(uint))
            }
            I::ObjectToWorld3x4 | I::WorldToObject3x4 | I::ObjectToWorld | I::WorldToObject => {
                Self::arity(types, 0)?;
                none(Some(self.numeric_ty(
                    Scalar::F32,
                    Shape::Matrix {
                        rows: 3,
                        columns: 4,
                    },
                )))
            }
            I::ObjectToWorld4x3 | I::WorldToObject4x3 => {
                Self::arity(types, 0)?;
                none(Some(self.numeric_ty(
                    Scalar::F32,
                    Shape::Matrix {
                        rows: 4,
                        columns: 3,
                    },
                )))
            }
            _ => return Ok(None),
        };
        Ok(Some(sig))
    }

    /// The arguments `TraceRay` (`count` 8) and `TraceMotionRay` (9, the
    /// time before the payload) share: the acceleration structure first,
    /// the `RayDesc` seventh, the payload struct last.
    fn check_trace_args(&self, types: &[Handle<Type>], count: usize) -> Result<(), String> {
        Self::arity(types, count)?;
        if !matches!(self.inner(types[0]), TypeInner::AccelerationStructure) {
            return Err("argument 1 must be a `RaytracingAccelerationStructure`".into());
        }
        if self
            .module
            .types
            .try_get(types[6])
            .and_then(|t| t.name.as_deref())
            != Some("RayDesc")
        {
            return Err("argument 7 must be a `RayDesc`".into());
        }
        self.require_struct(types[count - 1], "the payload")
    }

    fn require_struct(&self, ty: Handle<Type>, what: &str) -> Result<(), String> {
        match self.inner(ty) {
            TypeInner::Struct { .. } => Ok(()),
            _ => Err(format!(
                "{what} must be a struct, found `{}`",
                self.type_name(ty)
            )),
        }
    }
}
