//! HLSL intrinsics: `GLSL.std.450` math, core SPIR-V operations (dot,
//! transpose, derivatives, bit counts, bitcasts), `mul` under the matrix
//! convention of `mod.rs`, atomics on memory and on texels, barriers,
//! subgroup (wave and quad) operations, `clip`, `sincos`, `modf`, and the
//! buffer and texture methods.
//!
//! Intrinsics of stages whose legalizer comes later (ray tracing, mesh,
//! geometry streams, per-vertex attributes) return `Error::Unsupported`.

use legalis_ir as ir;
use legalis_ir::{Expression, Handle, Intrinsic as I, Literal, ScalarKind, Span, TypeInner};
use rspirv::dr::Operand;
use spirv::{Capability, GroupOperation, Op, StorageClass, Word};
use std::str::FromStr as _;

use super::convert::Shape;
use super::expr::Place;
use super::writer::{Layout, Result, Writer, unsupported};

/// Float intrinsics that are one `GLSL.std.450` instruction of the same
/// arguments. A data table.
fn glsl_float(fun: I) -> Option<&'static str> {
    Some(match fun {
        I::Acos => "Acos",
        I::Asin => "Asin",
        I::Atan => "Atan",
        I::Atan2 => "Atan2",
        I::Ceil => "Ceil",
        I::Cos => "Cos",
        I::Cosh => "Cosh",
        I::Cross => "Cross",
        I::Degrees => "Degrees",
        I::Determinant => "Determinant",
        I::Distance => "Distance",
        I::Exp => "Exp",
        I::Exp2 => "Exp2",
        I::FaceForward => "FaceForward",
        I::Floor => "Floor",
        I::Fma => "Fma",
        I::Frac => "Fract",
        I::Length => "Length",
        I::Lerp => "FMix",
        I::Log => "Log",
        I::Log2 => "Log2",
        I::Normalize => "Normalize",
        I::Pow => "Pow",
        I::Radians => "Radians",
        I::Reflect => "Reflect",
        I::Refract => "Refract",
        I::Round => "RoundEven",
        I::Rsqrt => "InverseSqrt",
        I::Sin => "Sin",
        I::Sinh => "Sinh",
        I::SmoothStep => "SmoothStep",
        I::Sqrt => "Sqrt",
        I::Step => "Step",
        I::Tan => "Tan",
        I::Tanh => "Tanh",
        I::Trunc => "Trunc",
        _ => return None,
    })
}

/// Intrinsics that are one core instruction of the same arguments.
fn core_op(fun: I) -> Option<Op> {
    Some(match fun {
        I::Transpose => Op::Transpose,
        I::IsNan => Op::IsNan,
        I::IsInf => Op::IsInf,
        I::Ddx => Op::DPdx,
        I::Ddy => Op::DPdy,
        I::DdxCoarse => Op::DPdxCoarse,
        I::DdyCoarse => Op::DPdyCoarse,
        I::DdxFine => Op::DPdxFine,
        I::DdyFine => Op::DPdyFine,
        I::Fwidth => Op::Fwidth,
        I::ReverseBits => Op::BitReverse,
        I::CountBits => Op::BitCount,
        I::Fmod => Op::FRem,
        _ => return None,
    })
}

impl Writer<'_> {
    /// Argument values converted to the shape of the result (scalar
    /// arguments of vector functions are splatted).
    fn args_as(&mut self, args: &[Handle<Expression>], to: Option<Shape>) -> Result<Vec<Word>> {
        let mut out = Vec::new();
        for &a in args {
            let v = self.value(a)?;
            let ty = self.expr_ty(a)?;
            match (self.shape(ty), to) {
                (Some(from), Some(to)) if from.columns == to.columns => {
                    out.push(self.convert_num(v, from, to, self.span(a))?)
                }
                _ => out.push(v),
            }
        }
        Ok(out)
    }

    pub fn intrinsic(
        &mut self,
        e: Handle<Expression>,
        fun: I,
        args: &[Handle<Expression>],
    ) -> Result<Word> {
        let span = self.span(e);
        if fun.is_hit_object() {
            return self.hit_object_intrinsic(e, fun, args);
        }
        if fun.is_ray_query_method() {
            return self.ray_query_intrinsic(e, fun, args);
        }
        if fun.is_method() {
            return self.method(e, fun, args);
        }
        if let Some(v) = self.ray_intrinsic(e, fun, args)? {
            return Ok(v);
        }
        if let Some(v) = self.statement_intrinsic(e, fun, args)? {
            return Ok(v);
        }
        let ty = self.expr_ty(e)?;
        let ty_id = self.ty(ty, Layout::Plain)?;
        let shape = self.shape(ty);
        let kind = args
            .first()
            .and_then(|&a| self.fs.exprs.ty(a))
            .and_then(|t| self.inner(t).scalar())
            .map(|s| s.kind);
        if matches!(
            fun,
            I::Ddx | I::Ddy | I::DdxCoarse | I::DdyCoarse | I::DdxFine | I::DdyFine | I::Fwidth
        ) && !self.has_derivatives()
        {
            return unsupported(
                format!(
                    "`{}` outside fragment shaders and compute shaders with derivative groups",
                    fun.name()
                ),
                span,
            );
        }
        if matches!(fun, I::DdxCoarse | I::DdyCoarse | I::DdxFine | I::DdyFine) {
            self.capability(Capability::DerivativeControl);
        }
        let elementwise = !matches!(
            fun,
            I::Length
                | I::Distance
                | I::Determinant
                | I::Transpose
                | I::IsNan
                | I::IsInf
                | I::CountBits
                | I::ReverseBits
        );
        if let Some(name) = glsl_float(fun) {
            let a = self.args_as(args, shape.filter(|_| elementwise))?;
            return self.ext(ty_id, name, &a);
        }
        if let Some(op) = core_op(fun) {
            let a = self.args_as(args, shape.filter(|_| elementwise))?;
            return self.op(op, ty_id, &a);
        }
        match fun {
            I::Abs | I::Min | I::Max | I::Clamp | I::Sign => self.signed_math(e, fun, args, kind),
            I::Mul => self.mul(e, args),
            I::Dot => self.dot(e, args, kind),
            I::Saturate => {
                let x = self.args_as(args, shape)?;
                let (zero, one) = (
                    self.splat_const(ty, Literal::Float(0.0))?,
                    self.splat_const(ty, Literal::Float(1.0))?,
                );
                self.ext(ty_id, "FClamp", &[x[0], zero, one])
            }
            I::Rcp => {
                let x = self.args_as(args, shape)?;
                let one = self.splat_const(ty, Literal::Float(1.0))?;
                self.op(Op::FDiv, ty_id, &[one, x[0]])
            }
            I::Mad => {
                let a = self.args_as(args, shape)?;
                let float = kind == Some(ScalarKind::Float);
                let m = self.op(
                    if float { Op::FMul } else { Op::IMul },
                    ty_id,
                    &[a[0], a[1]],
                )?;
                self.op(if float { Op::FAdd } else { Op::IAdd }, ty_id, &[m, a[2]])
            }
            I::Log10 => {
                let x = self.args_as(args, shape)?;
                let l = self.ext(ty_id, "Log2", &x)?;
                let k = self.splat_const(ty, Literal::Float(std::f64::consts::LOG10_2))?;
                self.op(Op::FMul, ty_id, &[l, k])
            }
            I::Ldexp => {
                let a = self.args_as(args, shape)?;
                let p = self.ext(ty_id, "Exp2", &[a[1]])?;
                self.op(Op::FMul, ty_id, &[a[0], p])
            }
            I::FirstBitHigh | I::FirstBitLow => {
                let name = match (fun, kind) {
                    (I::FirstBitLow, _) => "FindILsb",
                    (_, Some(ScalarKind::Sint)) => "FindSMsb",
                    _ => "FindUMsb",
                };
                let a = self.args_as(args, None)?;
                self.ext(ty_id, name, &a)
            }
            I::Any | I::All => self.any_all(e, fun, args[0]),
            I::IsFinite => {
                let a = self.args_as(args, None)?;
                let inf = self.op(Op::IsInf, ty_id, &a)?;
                let nan = self.op(Op::IsNan, ty_id, &a)?;
                let either = self.op(Op::LogicalOr, ty_id, &[inf, nan])?;
                self.op(Op::LogicalNot, ty_id, &[either])
            }
            I::AsUint | I::AsInt | I::AsFloat => {
                let from = self.expr_ty(args[0])?;
                let v = self.value(args[0])?;
                if from == ty {
                    return Ok(v);
                }
                if self.inner(from).scalar().map(|s| s.width)
                    != self.inner(ty).scalar().map(|s| s.width)
                {
                    return unsupported(format!("`{}` between widths", fun.name()), span);
                }
                self.op(Op::Bitcast, ty_id, &[v])
            }
            I::F32ToF16 | I::F16ToF32 => self.half_convert(e, fun, args[0]),
            I::Modf => {
                let x = self.args_as(&args[..1], shape)?;
                let st = self.b.type_struct([ty_id, ty_id]);
                let both = self.ext(st, "ModfStruct", &x)?;
                let whole = self.extract(ty_id, both, &[1])?;
                let place = self.place(args[1])?;
                self.store(&place, whole)?;
                self.extract(ty_id, both, &[0])
            }
            I::EvaluateAttributeAtCentroid | I::EvaluateAttributeAtSample => {
                let Place::Mem(p) = self.place(args[0])? else {
                    return unsupported("interpolating this value", span);
                };
                if p.class != StorageClass::Input {
                    return unsupported("interpolating a value that is not a stage input", span);
                }
                self.capability(Capability::InterpolationFunction);
                let ptr = self.materialize(&p)?;
                if fun == I::EvaluateAttributeAtCentroid {
                    self.ext(ty_id, "InterpolateAtCentroid", &[ptr])
                } else {
                    let s = self.args_as(
                        &args[1..2],
                        Some(Shape {
                            scalar: ir::Scalar::I32,
                            size: 0,
                            columns: 0,
                        }),
                    )?;
                    self.ext(ty_id, "InterpolateAtSample", &[ptr, s[0]])
                }
            }
            I::GetAttributeAtVertex => unsupported(crate::GET_ATTRIBUTE_AT_VERTEX, span),
            I::NonUniformResourceIndex => {
                // A copy of the index, decorated `NonUniform`; the access
                // chains, loads and images reached through it are too
                // (`nonuniform_op`).
                let v = self.value(args[0])?;
                let copy = self.op(Op::CopyObject, ty_id, &[v])?;
                self.mark_nonuniform(copy);
                Ok(copy)
            }
            I::WorkgroupUniformLoad => {
                // A barrier, the load, a barrier: the load sees every write
                // before the call and none after it, so the whole workgroup
                // reads one value (what naga writes for WGSL's function).
                let Place::Mem(p) = self.place(args[0])? else {
                    return unsupported("`workgroupUniformLoad` of this value", span);
                };
                self.workgroup_sync()?;
                let v = self.load(&p)?;
                self.workgroup_sync()?;
                Ok(v)
            }
            _ => self.wave(e, fun, args),
        }
    }

    /// `dot`: `OpDot` of floating vectors; the product of scalars; the
    /// summed products of integer vectors, which `OpDot` does not take.
    fn dot(
        &mut self,
        e: Handle<Expression>,
        args: &[Handle<Expression>],
        kind: Option<ScalarKind>,
    ) -> Result<Word> {
        let ty_id = self.ty(self.expr_ty(e)?, Layout::Plain)?;
        let arg_ty = self.expr_ty(args[0])?;
        let a = self.args_as(args, None)?;
        let float = kind == Some(ScalarKind::Float);
        let (mul, add) = if float {
            (Op::FMul, Op::FAdd)
        } else {
            (Op::IMul, Op::IAdd)
        };
        match *self.inner(arg_ty) {
            TypeInner::Vector { .. } if float => self.op(Op::Dot, ty_id, &a),
            TypeInner::Vector { size, .. } => {
                let vector = self.ty(arg_ty, Layout::Plain)?;
                let products = self.op(mul, vector, &a)?;
                let mut sum = self.extract(ty_id, products, &[0])?;
                for i in 1..u32::from(size) {
                    let term = self.extract(ty_id, products, &[i])?;
                    sum = self.op(add, ty_id, &[sum, term])?;
                }
                Ok(sum)
            }
            TypeInner::Scalar(_) => self.op(mul, ty_id, &a),
            _ => unsupported("`dot` of this type", self.span(e)),
        }
    }

    fn signed_math(
        &mut self,
        e: Handle<Expression>,
        fun: I,
        args: &[Handle<Expression>],
        kind: Option<ScalarKind>,
    ) -> Result<Word> {
        let ty = self.expr_ty(e)?;
        let ty_id = self.ty(ty, Layout::Plain)?;
        let arg_ty = self.expr_ty(args[0])?;
        let target = if fun == I::Sign {
            self.shape(arg_ty)
        } else {
            self.shape(ty)
        };
        let a = self.args_as(args, target)?;
        let k = match kind {
            Some(ScalarKind::Float) => 'F',
            Some(ScalarKind::Sint) => 'S',
            Some(ScalarKind::Uint) => 'U',
            _ => return unsupported(format!("`{}` on this type", fun.name()), self.span(e)),
        };
        let name = match (fun, k) {
            (I::Abs, 'U') => return Ok(a[0]),
            (I::Abs, k) => format!("{k}Abs"),
            // The sign of an unsigned value: `min(x, 1)`.
            (I::Sign, 'U') => "UMin".to_string(),
            (I::Sign, k) => format!("{k}Sign"),
            (I::Min, k) => format!("{k}Min"),
            (I::Max, k) => format!("{k}Max"),
            (_, k) => format!("{k}Clamp"),
        };
        if fun != I::Sign {
            return self.ext(ty_id, &name, &a);
        }
        // HLSL `sign` returns `int`s.
        let Some(from) = self.shape(arg_ty) else {
            return unsupported("`sign` of this type", self.span(e));
        };
        let from_id = self.shape_ty(from);
        let mut a = a;
        if k == 'U' {
            a.push(self.splat_const(arg_ty, ir::Literal::Uint(1))?);
        }
        let s = self.ext(from_id, &name, &a)?;
        let Some(to) = self.shape(ty) else {
            return unsupported("`sign` of this type", self.span(e));
        };
        self.convert_num(s, from, to, self.span(e))
    }

    /// HLSL `mul(a, b)` with HLSL rows as SPIR-V columns: `b * a`.
    fn mul(&mut self, e: Handle<Expression>, args: &[Handle<Expression>]) -> Result<Word> {
        let ty = self.expr_ty(e)?;
        let ty_id = self.ty(ty, Layout::Plain)?;
        let (at, bt) = (self.expr_ty(args[0])?, self.expr_ty(args[1])?);
        let (a, b) = (self.value(args[0])?, self.value(args[1])?);
        let float = self.inner(ty).scalar().map(|s| s.kind) == Some(ScalarKind::Float);
        match (self.inner(at).clone(), self.inner(bt).clone()) {
            (TypeInner::Vector { .. }, TypeInner::Vector { .. }) if float => {
                self.op(Op::Dot, ty_id, &[a, b])
            }
            (TypeInner::Matrix { .. }, TypeInner::Vector { .. }) => {
                self.op(Op::VectorTimesMatrix, ty_id, &[b, a])
            }
            (TypeInner::Vector { .. }, TypeInner::Matrix { .. }) => {
                self.op(Op::MatrixTimesVector, ty_id, &[b, a])
            }
            (TypeInner::Matrix { .. }, TypeInner::Matrix { .. }) => {
                self.op(Op::MatrixTimesMatrix, ty_id, &[b, a])
            }
            (TypeInner::Matrix { .. }, TypeInner::Scalar(_)) => {
                self.op(Op::MatrixTimesScalar, ty_id, &[a, b])
            }
            (TypeInner::Scalar(_), TypeInner::Matrix { .. }) => {
                self.op(Op::MatrixTimesScalar, ty_id, &[b, a])
            }
            (
                TypeInner::Scalar(_) | TypeInner::Vector { .. },
                TypeInner::Scalar(_) | TypeInner::Vector { .. },
            ) => {
                let Some(s) = self.shape(ty) else {
                    return unsupported("this `mul`", self.span(e));
                };
                let (sa, sb) = (self.shape(at), self.shape(bt));
                let span = self.span(e);
                let a = self.convert_num(a, sa.unwrap_or(s), s, span)?;
                let b = self.convert_num(b, sb.unwrap_or(s), s, span)?;
                self.op(if float { Op::FMul } else { Op::IMul }, ty_id, &[a, b])
            }
            _ => unsupported("this `mul`", self.span(e)),
        }
    }

    fn any_all(&mut self, e: Handle<Expression>, fun: I, arg: Handle<Expression>) -> Result<Word> {
        let ty = self.expr_ty(arg)?;
        let span = self.span(e);
        let Some(s) = self.shape(ty).filter(|s| s.columns == 0) else {
            return unsupported(format!("`{}` on matrices", fun.name()), span);
        };
        let v = self.value(arg)?;
        let b = self.convert_num(
            v,
            s,
            Shape {
                scalar: ir::Scalar::BOOL,
                ..s
            },
            span,
        )?;
        if s.size == 0 {
            return Ok(b);
        }
        let bool_ty = self.bool_type(0);
        self.op(if fun == I::Any { Op::Any } else { Op::All }, bool_ty, &[b])
    }

    /// `f32tof16`/`f16tof32` per component through `PackHalf2x16`.
    fn half_convert(
        &mut self,
        e: Handle<Expression>,
        fun: I,
        arg: Handle<Expression>,
    ) -> Result<Word> {
        let span = self.span(e);
        let ty = self.expr_ty(e)?;
        let from_ty = self.expr_ty(arg)?;
        let (Some(to), Some(from)) = (self.shape(ty), self.shape(from_ty)) else {
            return unsupported(format!("`{}` of this type", fun.name()), span);
        };
        let v = self.value(arg)?;
        let n = from.size.max(1);
        let (f32_ty, u32_ty, v2) = (self.float_type(0), self.uint_type(), self.float_type(2));
        let mut parts = Vec::new();
        for i in 0..u32::from(n) {
            let one = Shape { size: 0, ..from };
            let one_ty = self.shape_ty(one);
            let x = if from.size == 0 {
                v
            } else {
                self.extract(one_ty, v, &[i])?
            };
            let part = if fun == I::F32ToF16 {
                let x = self.convert_num(
                    x,
                    one,
                    Shape {
                        scalar: ir::Scalar::F32,
                        ..one
                    },
                    span,
                )?;
                let zero = self.scalar_const(ir::Scalar::F32, Literal::Float(0.0));
                let pair = self.op(Op::CompositeConstruct, v2, &[x, zero])?;
                let packed = self.ext(u32_ty, "PackHalf2x16", &[pair])?;
                let mask = self.uint(0xFFFF);
                self.op(Op::BitwiseAnd, u32_ty, &[packed, mask])?
            } else {
                let x = self.convert_num(
                    x,
                    one,
                    Shape {
                        scalar: ir::Scalar::U32,
                        ..one
                    },
                    span,
                )?;
                let pair = self.ext(v2, "UnpackHalf2x16", &[x])?;
                self.extract(f32_ty, pair, &[0])?
            };
            parts.push(part);
        }
        let scalar = if fun == I::F32ToF16 {
            ir::Scalar::U32
        } else {
            ir::Scalar::F32
        };
        let got = Shape { scalar, ..from };
        let got_ty = self.shape_ty(got);
        let v = if from.size == 0 {
            parts[0]
        } else {
            self.op(Op::CompositeConstruct, got_ty, &parts)?
        };
        self.convert_num(v, got, to, span)
    }

    /// Intrinsics with effects: barriers, atomics, `clip`, `sincos`,
    /// `GetDimensions`, byte-address stores. `Some(0)` once handled (they
    /// have no value); `None` for every other intrinsic.
    fn statement_intrinsic(
        &mut self,
        e: Handle<Expression>,
        fun: I,
        args: &[Handle<Expression>],
    ) -> Result<Option<Word>> {
        use spirv::MemorySemantics as M;
        let acq_rel = M::ACQUIRE_RELEASE;
        let device = acq_rel | M::UNIFORM_MEMORY | M::IMAGE_MEMORY;
        let barrier = match fun {
            I::GroupMemoryBarrier => Some((false, 2, acq_rel | M::WORKGROUP_MEMORY)),
            I::GroupMemoryBarrierWithGroupSync => Some((true, 2, acq_rel | M::WORKGROUP_MEMORY)),
            I::DeviceMemoryBarrier => Some((false, 1, device)),
            I::DeviceMemoryBarrierWithGroupSync => Some((true, 1, device)),
            I::AllMemoryBarrier => Some((false, 1, device | M::WORKGROUP_MEMORY)),
            I::AllMemoryBarrierWithGroupSync => Some((true, 1, device | M::WORKGROUP_MEMORY)),
            _ => None,
        };
        if let Some((sync, scope, semantics)) = barrier {
            let (workgroup, scope, semantics) =
                (self.uint(2), self.uint(scope), self.uint(semantics.bits()));
            if sync {
                self.op_with(
                    Op::ControlBarrier,
                    None,
                    vec![
                        Operand::IdRef(workgroup),
                        Operand::IdRef(scope),
                        Operand::IdRef(semantics),
                    ],
                )?;
            } else {
                self.op_with(
                    Op::MemoryBarrier,
                    None,
                    vec![Operand::IdRef(scope), Operand::IdRef(semantics)],
                )?;
            }
            return Ok(Some(0));
        }
        match fun {
            // B10: the counts; the task payload the legalizer made of
            // `DispatchMesh`'s last argument, and the group counts.
            I::SetMeshOutputCounts | I::DispatchMesh
                if self.entry.stage
                    != match fun {
                        I::SetMeshOutputCounts => ir::ShaderStage::Mesh,
                        _ => ir::ShaderStage::Amplification,
                    } =>
            {
                return unsupported(
                    format!("`{}` outside its legalized stage", fun.name()),
                    self.span(e),
                );
            }
            I::SetMeshOutputCounts => {
                let (v, p) = (self.value(args[0])?, self.value(args[1])?);
                self.b.set_mesh_outputs_ext(v, p)?;
            }
            I::DispatchMesh => {
                let counts = [
                    self.value(args[0])?,
                    self.value(args[1])?,
                    self.value(args[2])?,
                ];
                let payload = match self.place(args[3])? {
                    super::expr::Place::Mem(p)
                        if p.indices.is_empty()
                            && p.class == StorageClass::TaskPayloadWorkgroupEXT =>
                    {
                        p.root
                    }
                    _ => return unsupported("a task payload that is not a global", self.span(e)),
                };
                self.b.emit_mesh_tasks_ext(counts, Some(payload))?;
            }
            _ if let Some((op, false)) = fun.atomic() => self.atomic(e, op, args)?,
            I::Clip => self.clip(e, args[0])?,
            I::BeginInvocationInterlock | I::EndInvocationInterlock => {
                // Nothing here: the entry function holds the interlock
                // around the whole shader (`entry_interlock`).
                if self.entry.stage != ir::ShaderStage::Fragment {
                    return unsupported(
                        format!("`{}` outside fragment shaders", fun.name()),
                        self.span(e),
                    );
                }
            }
            I::SinCos => {
                let ty = self.expr_ty(args[0])?;
                let ty_id = self.ty(ty, Layout::Plain)?;
                let x = self.value(args[0])?;
                let (s, c) = (self.ext(ty_id, "Sin", &[x])?, self.ext(ty_id, "Cos", &[x])?);
                for (target, v) in [(args[1], s), (args[2], c)] {
                    let place = self.place(target)?;
                    self.store(&place, v)?;
                }
            }
            _ => return Ok(None),
        }
        Ok(Some(0))
    }

    /// `clip(x)`: discard when any component is negative.
    fn clip(&mut self, e: Handle<Expression>, arg: Handle<Expression>) -> Result<()> {
        if self.entry.stage != ir::ShaderStage::Fragment {
            return unsupported("`clip` outside fragment shaders", self.span(e));
        }
        let ty = self.expr_ty(arg)?;
        let Some(s) = self.shape(ty) else {
            return unsupported("`clip` of this type", self.span(e));
        };
        let x = self.value(arg)?;
        let zero = self.splat_const(ty, Literal::Float(0.0))?;
        let bools = self.bool_type(s.size);
        let lt = self.op(Op::FOrdLessThan, bools, &[x, zero])?;
        let bool_ty = self.bool_type(0);
        let c = if s.size > 0 {
            self.op(Op::Any, bool_ty, &[lt])?
        } else {
            lt
        };
        let (kill, merge) = (self.b.id(), self.b.id());
        self.b
            .selection_merge(merge, spirv::SelectionControl::NONE)?;
        self.b.branch_conditional(c, kill, merge, [])?;
        self.begin(kill)?;
        self.b.kill()?;
        self.begin(merge)
    }

    fn atomic(
        &mut self,
        e: Handle<Expression>,
        op: ir::AtomicOp,
        args: &[Handle<Expression>],
    ) -> Result<()> {
        let span = self.span(e);
        let (ptr, scalar, scope) = match self.place(args[0])? {
            Place::Mem(p) => {
                let Some(s) = self
                    .inner(p.ty)
                    .scalar()
                    .filter(|s| s.width == 4 && s.kind != ScalarKind::Float)
                else {
                    return unsupported("atomics on this type", span);
                };
                let scope = if p.class == StorageClass::Workgroup {
                    2
                } else {
                    1
                };
                (self.materialize(&p)?, s, scope)
            }
            Place::Texel { image, coord } => {
                let info = self.image_info(image.ty, span)?;
                let Some(s) = self
                    .inner(info.texel)
                    .scalar()
                    .filter(|s| s.width == 4 && s.kind != ScalarKind::Float)
                else {
                    return unsupported("atomics on this texel type", span);
                };
                let elem = self.numeric(s, 0, 0, Layout::Plain);
                let ptr_ty = self.pointer(elem, StorageClass::Image);
                let img = self.materialize(&image)?;
                let zero = self.uint(0);
                (
                    self.op(Op::ImageTexelPointer, ptr_ty, &[img, coord, zero])?,
                    s,
                    1,
                )
            }
            Place::Swizzle(..) => return unsupported("atomics on a swizzle", span),
        };
        let ty = self.numeric(scalar, 0, 0, Layout::Plain);
        let one = Shape {
            scalar,
            size: 0,
            columns: 0,
        };
        let (scope, relaxed) = (self.uint(scope), self.uint(0));
        let signed = scalar.kind == ScalarKind::Sint;
        let (op, operands, original) = match op {
            ir::AtomicOp::CompareExchange | ir::AtomicOp::CompareStore => {
                let a = self.args_as(&args[1..3], Some(one))?;
                let original = if op == ir::AtomicOp::CompareExchange {
                    args.get(3)
                } else {
                    None
                };
                (
                    Op::AtomicCompareExchange,
                    vec![ptr, scope, relaxed, relaxed, a[1], a[0]],
                    original,
                )
            }
            _ => {
                let a = self.args_as(&args[1..2], Some(one))?;
                let op = match op {
                    ir::AtomicOp::Add => Op::AtomicIAdd,
                    ir::AtomicOp::And => Op::AtomicAnd,
                    ir::AtomicOp::Or => Op::AtomicOr,
                    ir::AtomicOp::Xor => Op::AtomicXor,
                    ir::AtomicOp::Min if signed => Op::AtomicSMin,
                    ir::AtomicOp::Min => Op::AtomicUMin,
                    ir::AtomicOp::Max if signed => Op::AtomicSMax,
                    ir::AtomicOp::Max => Op::AtomicUMax,
                    _ => Op::AtomicExchange,
                };
                (op, vec![ptr, scope, relaxed, a[0]], args.get(2))
            }
        };
        let old = self.op(op, ty, &operands)?;
        if let Some(&o) = original {
            let oty = self.expr_ty(o)?;
            let Some(os) = self.shape(oty) else {
                return unsupported("this `original` argument", span);
            };
            let v = self.convert_num(old, one, os, span)?;
            let place = self.place(o)?;
            self.store(&place, v)?;
        }
        Ok(())
    }

    /// Methods of textures and buffers; the object is `args[0]`.
    fn method(
        &mut self,
        e: Handle<Expression>,
        fun: I,
        args: &[Handle<Expression>],
    ) -> Result<Word> {
        let span = self.span(e);
        let obj_ty = self.expr_ty(args[0])?;
        match (self.inner(obj_ty).clone(), fun) {
            (TypeInner::SubpassInput { .. }, I::SubpassLoad) => self.subpass_load(e, args),
            (
                TypeInner::Buffer {
                    kind: ir::BufferKind::ByteAddress,
                    ..
                },
                I::Load | I::Load2 | I::Load3 | I::Load4,
            ) => {
                let n = match fun {
                    I::Load => 1,
                    I::Load2 => 2,
                    I::Load3 => 3,
                    _ => 4,
                };
                self.byte_load(args, n)
            }
            (
                TypeInner::Buffer {
                    kind: ir::BufferKind::ByteAddress,
                    access,
                    ..
                },
                I::Store | I::Store2 | I::Store3 | I::Store4,
            ) => {
                if access == ir::ResourceAccess::Read {
                    return unsupported("stores to a read-only buffer", span);
                }
                let n = match fun {
                    I::Store => 1,
                    I::Store2 => 2,
                    I::Store3 => 3,
                    _ => 4,
                };
                self.byte_store(args, n)?;
                Ok(0)
            }
            (
                TypeInner::Buffer {
                    kind: ir::BufferKind::Structured,
                    ..
                },
                I::Load,
            ) => {
                let exprs = self.fs.exprs;
                let _ = exprs;
                let Place::Mem(mut p) = self.place(args[0])? else {
                    return unsupported("this buffer", span);
                };
                let zero = self.uint(0);
                let i = self.value(args[1])?;
                p.indices.extend([zero, i]);
                p.ty = self.expr_ty(e)?;
                self.load(&p)
            }
            (_, I::GetDimensions) => {
                self.get_dimensions(e, args)?;
                Ok(0)
            }
            (
                TypeInner::Texture(_)
                | TypeInner::Buffer {
                    kind: ir::BufferKind::Typed,
                    ..
                },
                I::Load,
            ) => self.texture_load(e, args),
            (
                TypeInner::Texture(ir::Texture {
                    access: ir::ResourceAccess::Read,
                    ..
                }),
                _,
            ) => self.sample(e, fun, args),
            _ => unsupported(format!("the method `{}` here", fun.name()), span),
        }
    }

    /// `GetDimensions(...)`: each `out` argument gets its component of the
    /// size query (then levels or samples), converted to its own type.
    fn get_dimensions(&mut self, e: Handle<Expression>, args: &[Handle<Expression>]) -> Result<()> {
        let span = self.span(e);
        let obj_ty = self.expr_ty(args[0])?;
        let uint = self.uint_type();
        let (values, first_out): (Vec<(Word, Shape)>, usize) = match self.inner(obj_ty).clone() {
            TypeInner::Buffer {
                kind: kind @ (ir::BufferKind::ByteAddress | ir::BufferKind::Structured),
                element,
                ..
            } => {
                let Place::Mem(p) = self.place(args[0])? else {
                    return unsupported("this buffer", span);
                };
                let ptr = self.materialize(&p)?;
                let len = self.op_with(
                    Op::ArrayLength,
                    Some(uint),
                    vec![Operand::IdRef(ptr), Operand::LiteralBit32(0)],
                )?;
                let stride = match (kind, element) {
                    (ir::BufferKind::Structured, Some(el)) => {
                        self.array_stride(el, Layout::Std430, None)?
                    }
                    _ => 4,
                };
                let u = Shape {
                    scalar: ir::Scalar::U32,
                    size: 0,
                    columns: 0,
                };
                if kind == ir::BufferKind::ByteAddress {
                    let four = self.uint(4);
                    (vec![(self.op(Op::IMul, uint, &[len, four])?, u)], 1)
                } else {
                    (vec![(len, u), (self.uint(stride), u)], 1)
                }
            }
            _ => self.image_dimensions(args)?,
        };
        for (i, &out) in args[first_out..].iter().enumerate() {
            let Some(&(v, s)) = values.get(i) else {
                return unsupported("this `GetDimensions` overload", span);
            };
            let oty = self.expr_ty(out)?;
            let Some(os) = self.shape(oty) else {
                return unsupported("this `GetDimensions` argument", span);
            };
            let v = self.convert_num(v, s, os, span)?;
            let place = self.place(out)?;
            self.store(&place, v)?;
        }
        Ok(())
    }

    fn image_dimensions(
        &mut self,
        args: &[Handle<Expression>],
    ) -> Result<(Vec<(Word, Shape)>, usize)> {
        self.capability(Capability::ImageQuery);
        let (img, info) = self.image_value(args[0])?;
        let n = info.size_components();
        let int = Shape {
            scalar: ir::Scalar::I32,
            size: 0,
            columns: 0,
        };
        let size_shape = Shape {
            size: if n == 1 { 0 } else { n },
            ..int
        };
        let size_ty = self.shape_ty(size_shape);
        let sampled = !info.storage && !info.multisampled && info.dim.is_some();
        let with_mip = sampled && args.len() == n as usize + 3;
        let size = if sampled {
            let lod = if with_mip {
                let l = self.args_as(&args[1..2], Some(int))?;
                l[0]
            } else {
                self.int(0)
            };
            self.op(Op::ImageQuerySizeLod, size_ty, &[img, lod])?
        } else {
            self.op(Op::ImageQuerySize, size_ty, &[img])?
        };
        let int_ty = self.int_type();
        let mut values = Vec::new();
        for i in 0..u32::from(n) {
            let c = if n == 1 {
                size
            } else {
                self.extract(int_ty, size, &[i])?
            };
            values.push((c, int));
        }
        if info.multisampled {
            values.push((self.op(Op::ImageQuerySamples, int_ty, &[img])?, int));
        }
        if with_mip {
            values.push((self.op(Op::ImageQueryLevels, int_ty, &[img])?, int));
        }
        Ok((values, if with_mip { 2 } else { 1 }))
    }

    /// Wave and quad intrinsics as `OpGroupNonUniform*` (SPIR-V 1.3).
    fn wave(&mut self, e: Handle<Expression>, fun: I, args: &[Handle<Expression>]) -> Result<Word> {
        let span = self.span(e);
        let Some(ty) = self.fs.exprs.ty(e) else {
            return unsupported(format!("the intrinsic `{}`", fun.name()), span);
        };
        let ty_id = self.ty(ty, Layout::Plain)?;
        let kind = args
            .first()
            .and_then(|&a| self.fs.exprs.ty(a))
            .and_then(|t| self.inner(t).scalar())
            .map(|s| s.kind);
        let arith = |f: Op, s: Op, u: Op| match kind {
            Some(ScalarKind::Float) => f,
            Some(ScalarKind::Sint) => s,
            _ => u,
        };
        use Capability as C;
        let (op, cap, group): (Op, Capability, Option<GroupOperation>) = match fun {
            I::WaveGetLaneCount | I::WaveGetLaneIndex => {
                return self.subgroup_builtin(ty_id, fun, span);
            }
            I::WaveGetWaveIndex | I::WaveGetNumWaves => {
                // Vulkan allows `SubgroupId` and `NumSubgroups` in the
                // compute-like stages only.
                if !self.entry.stage.has_workgroups() {
                    return unsupported(
                        format!(
                            "`{}` outside compute, mesh and amplification shaders",
                            fun.name()
                        ),
                        span,
                    );
                }
                return self.subgroup_builtin(ty_id, fun, span);
            }
            I::QuadAny | I::QuadAll => {
                // SPV_KHR_quad_control; the entry point's quad-derivative
                // and reconvergence modes come from its attributes.
                self.require_version(1, 3);
                self.capability(C::QuadControlKHR);
                self.extensions.insert("SPV_KHR_quad_control");
                let op = if fun == I::QuadAny {
                    Op::GroupNonUniformQuadAnyKHR
                } else {
                    Op::GroupNonUniformQuadAllKHR
                };
                let v = self.value(args[0])?;
                return self.op(op, ty_id, &[v]);
            }
            I::WaveIsFirstLane => (Op::GroupNonUniformElect, C::GroupNonUniform, None),
            I::WaveActiveAnyTrue => (Op::GroupNonUniformAny, C::GroupNonUniformVote, None),
            I::WaveActiveAllTrue => (Op::GroupNonUniformAll, C::GroupNonUniformVote, None),
            I::WaveActiveAllEqual => (Op::GroupNonUniformAllEqual, C::GroupNonUniformVote, None),
            I::WaveActiveBallot => (Op::GroupNonUniformBallot, C::GroupNonUniformBallot, None),
            I::WaveReadLaneFirst => (
                Op::GroupNonUniformBroadcastFirst,
                C::GroupNonUniformBallot,
                None,
            ),
            I::WaveReadLaneAt => (Op::GroupNonUniformShuffle, C::GroupNonUniformShuffle, None),
            I::WaveActiveCountBits | I::WavePrefixCountBits => {
                let g = if fun == I::WaveActiveCountBits {
                    GroupOperation::Reduce
                } else {
                    GroupOperation::ExclusiveScan
                };
                (
                    Op::GroupNonUniformBallotBitCount,
                    C::GroupNonUniformBallot,
                    Some(g),
                )
            }
            I::WaveActiveSum => (
                arith(
                    Op::GroupNonUniformFAdd,
                    Op::GroupNonUniformIAdd,
                    Op::GroupNonUniformIAdd,
                ),
                C::GroupNonUniformArithmetic,
                Some(GroupOperation::Reduce),
            ),
            I::WaveActiveProduct => (
                arith(
                    Op::GroupNonUniformFMul,
                    Op::GroupNonUniformIMul,
                    Op::GroupNonUniformIMul,
                ),
                C::GroupNonUniformArithmetic,
                Some(GroupOperation::Reduce),
            ),
            I::WaveActiveMin => (
                arith(
                    Op::GroupNonUniformFMin,
                    Op::GroupNonUniformSMin,
                    Op::GroupNonUniformUMin,
                ),
                C::GroupNonUniformArithmetic,
                Some(GroupOperation::Reduce),
            ),
            I::WaveActiveMax => (
                arith(
                    Op::GroupNonUniformFMax,
                    Op::GroupNonUniformSMax,
                    Op::GroupNonUniformUMax,
                ),
                C::GroupNonUniformArithmetic,
                Some(GroupOperation::Reduce),
            ),
            I::WaveActiveBitAnd => (
                Op::GroupNonUniformBitwiseAnd,
                C::GroupNonUniformArithmetic,
                Some(GroupOperation::Reduce),
            ),
            I::WaveActiveBitOr => (
                Op::GroupNonUniformBitwiseOr,
                C::GroupNonUniformArithmetic,
                Some(GroupOperation::Reduce),
            ),
            I::WaveActiveBitXor => (
                Op::GroupNonUniformBitwiseXor,
                C::GroupNonUniformArithmetic,
                Some(GroupOperation::Reduce),
            ),
            I::WavePrefixSum => (
                arith(
                    Op::GroupNonUniformFAdd,
                    Op::GroupNonUniformIAdd,
                    Op::GroupNonUniformIAdd,
                ),
                C::GroupNonUniformArithmetic,
                Some(GroupOperation::ExclusiveScan),
            ),
            I::WavePrefixProduct => (
                arith(
                    Op::GroupNonUniformFMul,
                    Op::GroupNonUniformIMul,
                    Op::GroupNonUniformIMul,
                ),
                C::GroupNonUniformArithmetic,
                Some(GroupOperation::ExclusiveScan),
            ),
            I::QuadReadAcrossX | I::QuadReadAcrossY | I::QuadReadAcrossDiagonal => {
                (Op::GroupNonUniformQuadSwap, C::GroupNonUniformQuad, None)
            }
            I::QuadReadLaneAt => (
                Op::GroupNonUniformQuadBroadcast,
                C::GroupNonUniformQuad,
                None,
            ),
            _ => return unsupported(format!("the intrinsic `{}`", fun.name()), span),
        };
        self.require_version(1, 3);
        self.capability(C::GroupNonUniform);
        self.capability(cap);
        let subgroup = self.uint(3);
        let mut ops = vec![Operand::IdRef(subgroup)];
        if let Some(g) = group {
            ops.push(Operand::GroupOperation(g));
        }
        let mut vals = self.args_as(args, None)?;
        if op == Op::GroupNonUniformBallotBitCount {
            let uvec4 = self.numeric(ir::Scalar::U32, 4, 0, Layout::Plain);
            let ballot = self.op_with(
                Op::GroupNonUniformBallot,
                Some(uvec4),
                vec![Operand::IdRef(subgroup), Operand::IdRef(vals[0])],
            )?;
            vals = vec![ballot];
        }
        if fun == I::QuadReadLaneAt {
            // Before SPIR-V 1.5 the lane must be a constant.
            match self.const_value(args[1]) {
                Some(c) => vals[1] = c,
                None => self.require_version(1, 5),
            }
        }
        match fun {
            I::QuadReadAcrossX => vals.push(self.uint(0)),
            I::QuadReadAcrossY => vals.push(self.uint(1)),
            I::QuadReadAcrossDiagonal => vals.push(self.uint(2)),
            _ => {}
        }
        ops.extend(vals.into_iter().map(Operand::IdRef));
        self.op_with(op, Some(ty_id), ops)
    }

    /// The subgroup builtin input wave intrinsic `fun` reads (the
    /// system-value table's row), declared on first use.
    fn subgroup_builtin(&mut self, ty: Word, fun: I, span: Span) -> Result<Word> {
        let Some(row) = legalis_sysval::subgroup_builtin(fun) else {
            return unsupported(format!("`{}` as a subgroup builtin", fun.name()), span);
        };
        let Ok(builtin) = spirv::BuiltIn::from_str(row.spirv_builtin) else {
            return unsupported(format!("the builtin {}", row.spirv_builtin), span);
        };
        self.require_version(1, 3);
        self.capability(Capability::GroupNonUniform);
        let name = row.spirv_builtin;
        let var = match self.extra_builtins.get(name) {
            Some(&v) => v,
            None => {
                let uint = self.uint_type();
                let ptr = self.pointer(uint, StorageClass::Input);
                let id = self.b.variable(ptr, None, StorageClass::Input, None);
                self.decorate(id, spirv::Decoration::BuiltIn, [Operand::BuiltIn(builtin)]);
                if self.entry.stage == ir::ShaderStage::Fragment {
                    self.decorate(id, spirv::Decoration::Flat, []);
                }
                if self.options.debug_names {
                    self.b.name(id, format!("gl_{name}"));
                }
                self.used_vars.push((id, StorageClass::Input));
                self.extra_builtins.insert(name, id);
                id
            }
        };
        self.op(Op::Load, ty, &[var])
    }
}

impl Writer<'_> {
    /// Whether the entry point being written may take derivatives: a
    /// fragment shader, or a compute shader with derivative groups
    /// (`SPV_KHR_compute_shader_derivatives`).
    pub(super) fn has_derivatives(&self) -> bool {
        match self.entry.stage {
            ir::ShaderStage::Fragment => true,
            ir::ShaderStage::Compute => self.entry.attributes.derivative_group.is_some(),
            _ => false,
        }
    }

    /// An intrinsic evaluated for its effect; its value, if any, is dropped.
    pub fn intrinsic_stmt(
        &mut self,
        e: Handle<Expression>,
        fun: I,
        args: &[Handle<Expression>],
    ) -> Result<()> {
        self.intrinsic(e, fun, args).map(|_| ())
    }
}

impl Writer<'_> {
    /// `OpControlBarrier` of the workgroup ordering workgroup memory
    /// (`GroupMemoryBarrierWithGroupSync`).
    fn workgroup_sync(&mut self) -> Result<()> {
        use spirv::MemorySemantics as M;
        let semantics = (M::ACQUIRE_RELEASE | M::WORKGROUP_MEMORY).bits();
        let (workgroup, semantics) = (self.uint(2), self.uint(semantics));
        self.op_with(
            Op::ControlBarrier,
            None,
            vec![
                Operand::IdRef(workgroup),
                Operand::IdRef(workgroup),
                Operand::IdRef(semantics),
            ],
        )?;
        Ok(())
    }

    /// Decorates `id` `NonUniform` (once) and remembers it.
    fn mark_nonuniform(&mut self, id: Word) {
        if self.nonuniform.insert(id) {
            self.decorate(id, spirv::Decoration::NonUniform, []);
            self.capability(Capability::ShaderNonUniform);
            self.extensions.insert("SPV_EXT_descriptor_indexing");
        }
    }

    /// After instruction `op` made `id` from `ids`: an access chain with a
    /// `NonUniform` index, a load through a `NonUniform` pointer, and an
    /// image, sampled image or texel pointer made of a `NonUniform`
    /// resource are `NonUniform` too (Vulkan wants the decoration on the
    /// resource an access uses). A `NonUniform` index into an array of
    /// resources also needs that kind's array-indexing capability.
    pub(super) fn nonuniform_op(&mut self, op: Op, id: Word, ids: &[Word]) {
        let from = match op {
            Op::AccessChain => ids.get(1..).unwrap_or_default(),
            Op::Load | Op::Image | Op::SampledImage | Op::ImageTexelPointer | Op::CopyObject => {
                ids.get(..1).unwrap_or_default()
            }
            _ => return,
        };
        let extra = if op == Op::SampledImage {
            ids.get(1)
        } else {
            None
        };
        if !from
            .iter()
            .chain(extra)
            .any(|i| self.nonuniform.contains(i))
        {
            return;
        }
        if op == Op::AccessChain
            && let Some(&root) = ids.first()
            && let Some(cap) = self.array_nonuniform_capability(root)
        {
            self.capability(cap);
        }
        self.mark_nonuniform(id);
    }

    /// The capability a `NonUniform` index into the resource array
    /// variable `root` needs, by the kind of its elements.
    fn array_nonuniform_capability(&self, root: Word) -> Option<Capability> {
        use ir::{BufferKind, ResourceAccess as A, TypeInner as T};
        let g = self
            .globals
            .iter()
            .find(|(_, p)| p.root == root && p.indices.is_empty())
            .map(|(g, _)| *g)?;
        let T::Array { base, .. } = *self.inner(self.module.globals[g].ty) else {
            return None;
        };
        Some(match *self.inner(base) {
            T::Texture(ir::Texture {
                access: A::Read, ..
            })
            | T::Sampler { .. } => Capability::SampledImageArrayNonUniformIndexing,
            T::Texture(_) => Capability::StorageImageArrayNonUniformIndexing,
            T::Buffer {
                kind: BufferKind::Typed,
                access: A::Read,
                ..
            } => Capability::UniformTexelBufferArrayNonUniformIndexing,
            T::Buffer {
                kind: BufferKind::Typed,
                ..
            } => Capability::StorageTexelBufferArrayNonUniformIndexing,
            T::Buffer { .. } => Capability::StorageBufferArrayNonUniformIndexing,
            T::ConstantBuffer { .. } | T::TextureBuffer { .. } => {
                Capability::UniformBufferArrayNonUniformIndexing
            }
            _ => return None,
        })
    }

    /// `OpBeginInvocationInterlockEXT` at the top of the entry function
    /// (`begin`), `OpEndInvocationInterlockEXT` before its returns, when
    /// the entry point calls `beginInvocationInterlock`. SPIR-V allows the
    /// two only in the entry point's own function, once each, and the
    /// legalized entry function is a wrapper around the source's: the
    /// interlock covers the whole shader, a superset of the source's
    /// critical section, so every access the source orders stays ordered.
    pub(super) fn entry_interlock(&mut self, begin: bool) -> Result<()> {
        let in_entry = self
            .fs
            .func
            .is_some_and(|f| std::ptr::eq(f, &self.module.functions[self.entry.function]));
        if !in_entry || !self.entry.attributes.pixel_interlock {
            return Ok(());
        }
        self.capability(Capability::FragmentShaderPixelInterlockEXT);
        self.extensions.insert("SPV_EXT_fragment_shader_interlock");
        let op = if begin {
            Op::BeginInvocationInterlockEXT
        } else {
            Op::EndInvocationInterlockEXT
        };
        self.op_with(op, None, Vec::new())?;
        Ok(())
    }

    /// The execution modes of the entry point's control attributes (quad
    /// control, maximal reconvergence, fragment shader interlock), with
    /// their capabilities and extensions.
    pub(super) fn control_modes(&mut self, main_id: Word) {
        use spirv::ExecutionMode as M;
        let attrs = &self.entry.attributes;
        if self.entry.stage == ir::ShaderStage::Compute
            && let Some(group) = attrs.derivative_group
        {
            let (capability, mode) = match group {
                ir::DerivativeGroup::Quads => (
                    Capability::ComputeDerivativeGroupQuadsKHR,
                    M::DerivativeGroupQuadsKHR,
                ),
                ir::DerivativeGroup::Linear => (
                    Capability::ComputeDerivativeGroupLinearKHR,
                    M::DerivativeGroupLinearKHR,
                ),
            };
            self.capability(capability);
            self.extensions.insert("SPV_KHR_compute_shader_derivatives");
            self.b.execution_mode(main_id, mode, []);
        }
        let (quad, full, reconverges, interlock) = (
            attrs.quad_derivatives,
            attrs.require_full_quads,
            attrs.maximally_reconverges,
            attrs.pixel_interlock,
        );
        if quad || full {
            self.capability(Capability::QuadControlKHR);
            self.extensions.insert("SPV_KHR_quad_control");
        }
        if reconverges {
            self.extensions.insert("SPV_KHR_maximal_reconvergence");
            self.b
                .execution_mode(main_id, M::MaximallyReconvergesKHR, []);
        }
        if quad {
            self.b.execution_mode(main_id, M::QuadDerivativesKHR, []);
        }
        if full {
            self.b.execution_mode(main_id, M::RequireFullQuadsKHR, []);
        }
        if interlock {
            self.capability(Capability::FragmentShaderPixelInterlockEXT);
            self.extensions.insert("SPV_EXT_fragment_shader_interlock");
            self.b
                .execution_mode(main_id, M::PixelInterlockOrderedEXT, []);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_subgroup_row_names_a_spirv_builtin() {
        let mut rows = 0;
        for &fun in I::ALL {
            if let Some(row) = legalis_sysval::subgroup_builtin(fun) {
                assert!(
                    spirv::BuiltIn::from_str(row.spirv_builtin).is_ok(),
                    "{fun:?}: {}",
                    row.spirv_builtin
                );
                rows += 1;
            }
        }
        assert_eq!(rows, 4);
    }
}
