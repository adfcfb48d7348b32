//! HLSL intrinsics as GLSL: renamed built-ins, index math, texture and
//! image functions, atomics, barriers and subgroup operations.
//!
//! Intrinsics of stages whose legalizer comes later (ray tracing, mesh,
//! geometry streams, per-vertex attributes) return `Error::Unsupported`.

use legalis_ir as ir;
use legalis_ir::{Expression, Handle, Intrinsic as I, ScalarKind, TextureDim, TypeInner};

use super::writer::{Ctx, Result, Writer, unsupported};

/// Intrinsics that are one GLSL function of the same arguments, with the
/// subgroup extension they need. A data table, hence its length.
fn direct(fun: I) -> Option<(&'static str, Option<&'static str>)> {
    let basic = Some("GL_KHR_shader_subgroup_basic");
    let vote = Some("GL_KHR_shader_subgroup_vote");
    let arith = Some("GL_KHR_shader_subgroup_arithmetic");
    let quad = Some("GL_KHR_shader_subgroup_quad");
    Some(match fun {
        I::Abs => ("abs", None),
        I::Acos => ("acos", None),
        I::Asin => ("asin", None),
        I::Atan => ("atan", None),
        I::Atan2 => ("atan", None),
        I::Ceil => ("ceil", None),
        I::Clamp => ("clamp", None),
        I::Cos => ("cos", None),
        I::Cosh => ("cosh", None),
        I::Cross => ("cross", None),
        I::Ddx => ("dFdx", None),
        I::DdxCoarse => ("dFdxCoarse", None),
        I::DdxFine => ("dFdxFine", None),
        I::Ddy => ("dFdy", None),
        I::DdyCoarse => ("dFdyCoarse", None),
        I::DdyFine => ("dFdyFine", None),
        I::Degrees => ("degrees", None),
        I::Determinant => ("determinant", None),
        I::Distance => ("distance", None),
        I::Exp => ("exp", None),
        I::Exp2 => ("exp2", None),
        I::FaceForward => ("faceforward", None),
        I::Floor => ("floor", None),
        I::Fma => ("fma", None),
        I::Frac => ("fract", None),
        I::Fwidth => ("fwidth", None),
        I::IsInf => ("isinf", None),
        I::IsNan => ("isnan", None),
        I::Length => ("length", None),
        I::Lerp => ("mix", None),
        I::Log => ("log", None),
        I::Log2 => ("log2", None),
        I::Max => ("max", None),
        I::Min => ("min", None),
        I::Modf => ("modf", None),
        I::Normalize => ("normalize", None),
        I::Pow => ("pow", None),
        I::Radians => ("radians", None),
        I::Reflect => ("reflect", None),
        I::Refract => ("refract", None),
        I::ReverseBits => ("bitfieldReverse", None),
        I::Round => ("roundEven", None),
        I::Rsqrt => ("inversesqrt", None),
        I::Sin => ("sin", None),
        I::Sinh => ("sinh", None),
        I::SmoothStep => ("smoothstep", None),
        I::Sqrt => ("sqrt", None),
        I::Step => ("step", None),
        I::Tan => ("tan", None),
        I::Tanh => ("tanh", None),
        I::Transpose => ("transpose", None),
        I::Trunc => ("trunc", None),
        I::WaveActiveAnyTrue => ("subgroupAny", vote),
        I::WaveActiveAllTrue => ("subgroupAll", vote),
        I::WaveActiveAllEqual => ("subgroupAllEqual", vote),
        I::WaveActiveBallot => ("subgroupBallot", Some("GL_KHR_shader_subgroup_ballot")),
        I::WaveReadLaneFirst => (
            "subgroupBroadcastFirst",
            Some("GL_KHR_shader_subgroup_ballot"),
        ),
        I::WaveReadLaneAt => ("subgroupShuffle", Some("GL_KHR_shader_subgroup_shuffle")),
        I::WaveActiveSum => ("subgroupAdd", arith),
        I::WaveActiveProduct => ("subgroupMul", arith),
        I::WaveActiveMin => ("subgroupMin", arith),
        I::WaveActiveMax => ("subgroupMax", arith),
        I::WaveActiveBitAnd => ("subgroupAnd", arith),
        I::WaveActiveBitOr => ("subgroupOr", arith),
        I::WaveActiveBitXor => ("subgroupXor", arith),
        I::WavePrefixSum => ("subgroupExclusiveAdd", arith),
        I::WavePrefixProduct => ("subgroupExclusiveMul", arith),
        I::QuadReadAcrossX => ("subgroupQuadSwapHorizontal", quad),
        I::QuadReadAcrossY => ("subgroupQuadSwapVertical", quad),
        I::QuadReadAcrossDiagonal => ("subgroupQuadSwapDiagonal", quad),
        I::QuadReadLaneAt => ("subgroupQuadBroadcast", quad),
        I::WaveIsFirstLane => ("subgroupElect", basic),
        _ => return None,
    })
}

impl Writer<'_> {
    pub fn intrinsic(
        &mut self,
        ctx: &Ctx,
        e: Handle<Expression>,
        fun: I,
        args: &[Handle<Expression>],
    ) -> Result<String> {
        let span = ctx.exprs.span(e);
        let mut a = Vec::new();
        for &x in args {
            a.push(self.expr(ctx, x)?);
        }
        if let Some((name, ext)) = direct(fun) {
            if let Some(ext) = ext {
                self.require(ext);
            }
            return Ok(format!("{name}({})", a.join(", ")));
        }
        let arg_ty = |w: &Self, i: usize| {
            args.get(i)
                .and_then(|&x| ctx.exprs.ty(x))
                .map(|t| w.inner(t).clone())
        };
        let kind = arg_ty(self, 0).and_then(|t| t.scalar()).map(|s| s.kind);
        let ty = ctx.exprs.ty(e);
        let tname = match ty {
            Some(t) => self.type_name(t, span)?,
            None => "void".into(),
        };
        match fun {
            I::Mul => self.mul(ctx, args, &a, span),
            I::Saturate => Ok(format!("clamp({}, {tname}(0), {tname}(1))", a[0])),
            I::Rcp => Ok(format!("({tname}(1) / {})", a[0])),
            I::Mad => Ok(format!("(({} * {}) + {})", a[0], a[1], a[2])),
            I::Log10 => Ok(format!("(log2({}) * {tname}(0.30102999566398120))", a[0])),
            I::Sign => Ok(format!("{tname}(sign({}))", a[0])),
            I::CountBits => Ok(format!("{tname}(bitCount({}))", a[0])),
            I::FirstBitHigh => Ok(format!("{tname}(findMSB({}))", a[0])),
            I::FirstBitLow => Ok(format!("{tname}(findLSB({}))", a[0])),
            I::Fmod => {
                let t = ty.unwrap_or(
                    self.module
                        .types
                        .iter()
                        .next()
                        .map(|(h, _)| h)
                        .unwrap_or(Handle::from_index(0)),
                );
                let name = self.truncating_mod_helper(t, ScalarKind::Float, span)?;
                Ok(format!("{name}({}, {})", a[0], a[1]))
            }
            I::Ldexp => Ok(format!("({} * exp2({}))", a[0], a[1])),
            I::Dot if kind != Some(ScalarKind::Float) => {
                unsupported("`dot` on integer vectors", span)
            }
            I::Dot => Ok(format!("dot({}, {})", a[0], a[1])),
            I::Any | I::All => self.any_all(fun, ctx, args[0], &a[0]),
            I::IsFinite => self.is_finite(ctx, args[0], &a[0]),
            I::AsUint | I::AsInt | I::AsFloat => Ok(self.bitcast(fun, kind, &tname, &a[0])),
            I::F32ToF16 => self.half_helper(ctx, e, args[0], true),
            I::F16ToF32 => self.half_helper(ctx, e, args[0], false),
            I::WaveGetLaneCount => self.subgroup_var("gl_SubgroupSize"),
            I::WaveGetLaneIndex => self.subgroup_var("gl_SubgroupInvocationID"),
            I::WaveActiveCountBits | I::WavePrefixCountBits => {
                self.require("GL_KHR_shader_subgroup_ballot");
                let f = if fun == I::WaveActiveCountBits {
                    "subgroupBallotBitCount"
                } else {
                    "subgroupBallotExclusiveBitCount"
                };
                Ok(format!("{f}(subgroupBallot({}))", a[0]))
            }
            I::EvaluateAttributeAtCentroid | I::EvaluateAttributeAtSample => {
                let f = if fun == I::EvaluateAttributeAtCentroid {
                    "interpolateAtCentroid"
                } else {
                    "interpolateAtSample"
                };
                let rest: Vec<String> = a[1..].iter().map(|x| format!("int({x})")).collect();
                let mut all = vec![a[0].clone()];
                all.extend(rest);
                Ok(format!("{f}({})", all.join(", ")))
            }
            _ if fun.is_method() => self.method(ctx, e, fun, args, &a),
            _ => unsupported(format!("the intrinsic `{}`", fun.name()), span),
        }
    }

    fn subgroup_var(&mut self, name: &str) -> Result<String> {
        self.require("GL_KHR_shader_subgroup_basic");
        Ok(name.to_string())
    }

    fn bitcast(&self, fun: I, from: Option<ScalarKind>, to: &str, x: &str) -> String {
        let f = match (fun, from) {
            (I::AsUint, Some(ScalarKind::Float)) => "floatBitsToUint",
            (I::AsInt, Some(ScalarKind::Float)) => "floatBitsToInt",
            (I::AsFloat, Some(ScalarKind::Uint)) => "uintBitsToFloat",
            (I::AsFloat, Some(ScalarKind::Sint)) => "intBitsToFloat",
            _ => return format!("{to}({x})"),
        };
        format!("{f}({x})")
    }

    /// HLSL `mul(a, b)` under the transposed matrix convention (see
    /// `writer.rs`): `(b * a)`, `dot` for two vectors, `*` with scalars.
    fn mul(
        &mut self,
        ctx: &Ctx,
        args: &[Handle<Expression>],
        a: &[String],
        span: ir::Span,
    ) -> Result<String> {
        let shape = |w: &Self, i: usize| ctx.exprs.ty(args[i]).map(|t| w.inner(t).clone());
        match (shape(self, 0), shape(self, 1)) {
            (Some(TypeInner::Vector { .. }), Some(TypeInner::Vector { .. })) => {
                Ok(format!("dot({}, {})", a[0], a[1]))
            }
            (Some(TypeInner::Scalar(_)), _) | (_, Some(TypeInner::Scalar(_))) => {
                Ok(format!("({} * {})", a[0], a[1]))
            }
            (Some(_), Some(_)) => Ok(format!("({} * {})", a[1], a[0])),
            _ => unsupported("this `mul`", span),
        }
    }

    fn any_all(&mut self, fun: I, ctx: &Ctx, arg: Handle<Expression>, x: &str) -> Result<String> {
        let ty = self.expr_ty(ctx, arg)?;
        let f = if fun == I::Any { "any" } else { "all" };
        match self.inner(ty).clone() {
            TypeInner::Vector { scalar, .. } if scalar.kind == ScalarKind::Bool => {
                Ok(format!("{f}({x})"))
            }
            TypeInner::Vector { size, .. } => Ok(format!("{f}(bvec{size}({x}))")),
            TypeInner::Scalar(_) => Ok(format!("bool({x})")),
            _ => unsupported(format!("`{f}` on matrices"), ctx.exprs.span(arg)),
        }
    }

    fn is_finite(&mut self, ctx: &Ctx, arg: Handle<Expression>, x: &str) -> Result<String> {
        let ty = self.expr_ty(ctx, arg)?;
        let span = ctx.exprs.span(arg);
        let t = self.type_name(ty, span)?;
        let (ret, not) = match self.inner(ty) {
            TypeInner::Vector { size, .. } => (format!("bvec{size}"), "not"),
            _ => ("bool".to_string(), "!"),
        };
        let name = format!("_hlsl_isfinite_{t}");
        let or = if not == "!" {
            "(isinf(x) || isnan(x))".to_string()
        } else {
            format!(
                "{ret}(uvec{}(isinf(x)) | uvec{}(isnan(x)))",
                &ret[4..],
                &ret[4..]
            )
        };
        self.helpers
            .entry(name.clone())
            .or_insert_with(|| format!("{ret} {name}({t} x)\n{{\n    return {not}({or});\n}}\n"));
        Ok(format!("{name}({x})"))
    }

    /// `f32tof16`/`f16tof32` per component through `packHalf2x16`.
    fn half_helper(
        &mut self,
        ctx: &Ctx,
        e: Handle<Expression>,
        arg: Handle<Expression>,
        to_half: bool,
    ) -> Result<String> {
        let span = ctx.exprs.span(e);
        let from = self.expr_ty(ctx, arg)?;
        let to = self.expr_ty(ctx, e)?;
        let (ft, tt) = (self.type_name(from, span)?, self.type_name(to, span)?);
        let n = super::expr::scalar_count(self.inner(from));
        let one = |c: &str| {
            if to_half {
                format!("(packHalf2x16(vec2(x{c}, 0.0)) & 0xFFFFu)")
            } else {
                format!("unpackHalf2x16(x{c}).x")
            }
        };
        let parts: Vec<String> = if n == 1 {
            vec![one("")]
        } else {
            (0..n).map(|i| one(&format!("[{i}]"))).collect()
        };
        let name = format!(
            "_hlsl_{}_{ft}",
            if to_half { "f32tof16" } else { "f16tof32" }
        );
        self.helpers.entry(name.clone()).or_insert_with(|| {
            format!(
                "{tt} {name}({ft} x)\n{{\n    return {tt}({});\n}}\n",
                parts.join(", ")
            )
        });
        Ok(format!("{name}({})", self.expr(ctx, arg)?))
    }

    /// Intrinsics printed as statements: barriers, atomics, `clip`,
    /// `sincos`, `GetDimensions`, stores to byte-address buffers.
    pub fn intrinsic_stmt(
        &mut self,
        ctx: &Ctx,
        e: Handle<Expression>,
        fun: I,
        args: &[Handle<Expression>],
    ) -> Result<String> {
        let span = ctx.exprs.span(e);
        let barrier = match fun {
            I::GroupMemoryBarrier => Some("memoryBarrierShared()"),
            I::GroupMemoryBarrierWithGroupSync => Some("memoryBarrierShared(); barrier()"),
            I::DeviceMemoryBarrier => Some("memoryBarrierBuffer(); memoryBarrierImage()"),
            I::DeviceMemoryBarrierWithGroupSync => {
                Some("memoryBarrierBuffer(); memoryBarrierImage(); barrier()")
            }
            I::AllMemoryBarrier => Some("memoryBarrier()"),
            I::AllMemoryBarrierWithGroupSync => Some("memoryBarrier(); barrier()"),
            _ => None,
        };
        if let Some(b) = barrier {
            return Ok(b.to_string());
        }
        match fun {
            I::InterlockedAdd
            | I::InterlockedAnd
            | I::InterlockedOr
            | I::InterlockedXor
            | I::InterlockedMin
            | I::InterlockedMax
            | I::InterlockedExchange
            | I::InterlockedCompareExchange
            | I::InterlockedCompareStore => self.atomic(ctx, fun, args),
            I::Clip => {
                let ty = self.expr_ty(ctx, args[0])?;
                let x = self.expr(ctx, args[0])?;
                let t = self.type_name(ty, span)?;
                Ok(match self.inner(ty) {
                    TypeInner::Vector { .. } => format!("if (any(lessThan({x}, {t}(0)))) discard"),
                    _ => format!("if ({x} < {t}(0)) discard"),
                })
            }
            I::SinCos => {
                if !self.is_pure(ctx, args[0]) {
                    return unsupported("`sincos` of an expression with side effects", span);
                }
                let x = self.expr(ctx, args[0])?;
                Ok(format!(
                    "{} = sin({x}); {} = cos({x})",
                    self.expr(ctx, args[1])?,
                    self.expr(ctx, args[2])?
                ))
            }
            I::GetDimensions => self.get_dimensions(ctx, e, args),
            I::Store | I::Store2 | I::Store3 | I::Store4 => self.byte_store(ctx, e, fun, args),
            _ => self.expr(ctx, e),
        }
    }

    fn atomic(&mut self, ctx: &Ctx, fun: I, args: &[Handle<Expression>]) -> Result<String> {
        let name = match fun {
            I::InterlockedAdd => "Add",
            I::InterlockedAnd => "And",
            I::InterlockedOr => "Or",
            I::InterlockedXor => "Xor",
            I::InterlockedMin => "Min",
            I::InterlockedMax => "Max",
            I::InterlockedExchange => "Exchange",
            _ => "CompSwap",
        };
        let (call_args, original) = match fun {
            I::InterlockedCompareExchange => (&args[1..3], args.get(3)),
            I::InterlockedCompareStore => (&args[1..3], None),
            _ => (&args[1..2], args.get(2)),
        };
        let mut vals = Vec::new();
        for &v in call_args {
            vals.push(self.expr(ctx, v)?);
        }
        let call = match self.image_element(ctx, args[0]) {
            Some((img, coord)) => {
                let c = self.expr(ctx, coord)?;
                let ty = self.expr_ty(ctx, coord)?;
                let c = match self.inner(ty) {
                    TypeInner::Vector { size, .. } => format!("ivec{size}({c})"),
                    _ => format!("int({c})"),
                };
                format!(
                    "imageAtomic{name}({}, {c}, {})",
                    self.expr(ctx, img)?,
                    vals.join(", ")
                )
            }
            None => format!(
                "atomic{name}({}, {})",
                self.expr(ctx, args[0])?,
                vals.join(", ")
            ),
        };
        match original {
            Some(&o) => Ok(format!("{} = {call}", self.expr(ctx, o)?)),
            None => Ok(call),
        }
    }
}

impl Writer<'_> {
    /// Texture and buffer methods; the object is `args[0]`.
    fn method(
        &mut self,
        ctx: &Ctx,
        e: Handle<Expression>,
        fun: I,
        args: &[Handle<Expression>],
        a: &[String],
    ) -> Result<String> {
        let span = ctx.exprs.span(e);
        let obj_ty = self.expr_ty(ctx, args[0])?;
        match self.inner(obj_ty).clone() {
            TypeInner::Texture {
                dim,
                arrayed,
                multisampled,
                texel,
                access: ir::ResourceAccess::Read,
                ..
            } => {
                let tex = TexInfo {
                    dim,
                    arrayed,
                    texel,
                };
                if multisampled && fun == I::Load {
                    self.require("GL_EXT_samplerless_texture_functions");
                    let fetch = format!("texelFetch({}, {}, {})", a[0], a[1], a[2]);
                    return self.narrow_texel_pub(texel, fetch, span);
                }
                self.texture_method(ctx, e, fun, &tex, args, a)
            }
            TypeInner::Buffer {
                kind: ir::BufferKind::ByteAddress,
                ..
            } if matches!(fun, I::Load | I::Load2 | I::Load3 | I::Load4) => {
                let n = match fun {
                    I::Load => 1,
                    I::Load2 => 2,
                    I::Load3 => 3,
                    _ => 4,
                };
                if n > 1 && !self.is_pure(ctx, args[1]) {
                    return unsupported(
                        "a multi-word `Load` at an address with side effects",
                        span,
                    );
                }
                let words: Vec<String> = (0..n)
                    .map(|i| format!("{}.data[(({}) >> 2u) + {i}u]", a[0], a[1]))
                    .collect();
                Ok(if n == 1 {
                    words[0].clone()
                } else {
                    format!("uvec{n}({})", words.join(", "))
                })
            }
            TypeInner::Buffer {
                kind: ir::BufferKind::Structured,
                ..
            }
            | TypeInner::Buffer {
                kind: ir::BufferKind::Typed,
                ..
            }
            | TypeInner::Texture { .. }
                if fun == I::Load =>
            {
                self.resource_element(ctx, args[0], args[1])
            }
            _ => unsupported(format!("the method `{}` here", fun.name()), span),
        }
    }

    fn narrow_texel_pub(
        &mut self,
        texel: Handle<ir::Type>,
        v: String,
        span: ir::Span,
    ) -> Result<String> {
        let n = super::expr::scalar_count(self.inner(texel));
        let swz = ["", ".x", ".xy", ".xyz", ""][n.min(4) as usize];
        match self.inner(texel).scalar() {
            Some(s) if s.width == 4 => Ok(format!("{v}{swz}")),
            _ => Ok(format!("{}({v}{swz})", self.type_name(texel, span)?)),
        }
    }

    fn sampler_of(&self, tex: &TexInfo, shadow: bool) -> Result<String> {
        let d = match tex.dim {
            TextureDim::D1 => "1D",
            TextureDim::D2 => "2D",
            TextureDim::D3 => "3D",
            TextureDim::Cube => "Cube",
        };
        let p = match self.inner(tex.texel).scalar().map(|s| s.kind) {
            Some(ScalarKind::Sint) => "i",
            Some(ScalarKind::Uint) => "u",
            _ => "",
        };
        Ok(format!(
            "{}sampler{d}{}{}",
            if shadow { "" } else { p },
            if tex.arrayed { "Array" } else { "" },
            if shadow { "Shadow" } else { "" }
        ))
    }

    fn texture_method(
        &mut self,
        ctx: &Ctx,
        e: Handle<Expression>,
        fun: I,
        tex: &TexInfo,
        args: &[Handle<Expression>],
        a: &[String],
    ) -> Result<String> {
        let span = ctx.exprs.span(e);
        let shadow = matches!(
            fun,
            I::SampleCmp
                | I::SampleCmpLevelZero
                | I::SampleCmpLevel
                | I::GatherCmp
                | I::GatherCmpRed
        );
        let comb = |w: &Self| -> Result<String> {
            Ok(format!(
                "{}({}, {})",
                w.sampler_of(tex, shadow)?,
                a[0],
                a[1]
            ))
        };
        let off = |i: usize| a.get(i).cloned();
        let value = match fun {
            I::Sample => match (off(3), a.len()) {
                (_, 5) => return unsupported("`Sample` with a LOD clamp", span),
                (Some(o), _) => format!("textureOffset({}, {}, {o})", comb(self)?, a[2]),
                (None, _) => format!("texture({}, {})", comb(self)?, a[2]),
            },
            I::SampleBias => match off(4) {
                Some(o) => format!("textureOffset({}, {}, {o}, {})", comb(self)?, a[2], a[3]),
                None => format!("texture({}, {}, {})", comb(self)?, a[2], a[3]),
            },
            I::SampleLevel => match off(4) {
                Some(o) => format!("textureLodOffset({}, {}, {}, {o})", comb(self)?, a[2], a[3]),
                None => format!("textureLod({}, {}, {})", comb(self)?, a[2], a[3]),
            },
            I::SampleGrad => match off(5) {
                Some(o) => format!(
                    "textureGradOffset({}, {}, {}, {}, {o})",
                    comb(self)?,
                    a[2],
                    a[3],
                    a[4]
                ),
                None => format!("textureGrad({}, {}, {}, {})", comb(self)?, a[2], a[3], a[4]),
            },
            I::SampleCmp | I::SampleCmpLevelZero => return self.sample_cmp(ctx, fun, tex, args, a),
            I::Gather | I::GatherRed | I::GatherGreen | I::GatherBlue | I::GatherAlpha => {
                let comp = match fun {
                    I::GatherGreen => 1,
                    I::GatherBlue => 2,
                    I::GatherAlpha => 3,
                    _ => 0,
                };
                return Ok(match off(3) {
                    Some(o) => format!(
                        "textureGatherOffset({}, {}, {o}, {comp})",
                        comb(self)?,
                        a[2]
                    ),
                    None => format!("textureGather({}, {}, {comp})", comb(self)?, a[2]),
                });
            }
            I::GatherCmp | I::GatherCmpRed => {
                return Ok(match off(4) {
                    Some(o) => format!(
                        "textureGatherOffset({}, {}, {}, {o})",
                        comb(self)?,
                        a[2],
                        a[3]
                    ),
                    None => format!("textureGather({}, {}, {})", comb(self)?, a[2], a[3]),
                });
            }
            I::CalculateLevelOfDetail => {
                return Ok(format!("textureQueryLod({}, {}).y", comb(self)?, a[2]));
            }
            I::CalculateLevelOfDetailUnclamped => {
                return Ok(format!("textureQueryLod({}, {}).x", comb(self)?, a[2]));
            }
            I::Load => return self.texture_load(ctx, e, tex, args, a),
            _ => return unsupported(format!("the texture method `{}`", fun.name()), span),
        };
        self.narrow_texel_pub(tex.texel, value, span)
    }

    /// Shadow lookups: the reference value joins the coordinate.
    fn sample_cmp(
        &mut self,
        ctx: &Ctx,
        fun: I,
        tex: &TexInfo,
        args: &[Handle<Expression>],
        a: &[String],
    ) -> Result<String> {
        let span = ctx.exprs.span(args[0]);
        let s = format!("{}({}, {})", self.sampler_of(tex, true)?, a[0], a[1]);
        let coords = match tex.dim {
            TextureDim::D1 => 1,
            TextureDim::D2 => 2,
            _ => 3,
        } + tex.arrayed as usize;
        if coords >= 4 {
            return unsupported("comparison sampling of cube arrays", span);
        }
        let coord = match coords {
            1 => format!("vec3({}, 0.0, {})", a[2], a[3]),
            n => format!("vec{}({}, {})", n + 1, a[2], a[3]),
        };
        let lod_zero = fun == I::SampleCmpLevelZero;
        let offset = a.get(4);
        match (lod_zero, offset) {
            (false, None) => Ok(format!("texture({s}, {coord})")),
            (false, Some(o)) => Ok(format!("textureOffset({s}, {coord}, {o})")),
            (true, None) if !tex.arrayed && tex.dim != TextureDim::Cube => {
                Ok(format!("textureLod({s}, {coord}, 0.0)"))
            }
            (true, Some(o)) if !tex.arrayed && tex.dim != TextureDim::Cube => {
                Ok(format!("textureLodOffset({s}, {coord}, 0.0, {o})"))
            }
            (true, None) => {
                // No core `textureLod` for array/cube shadows: zero gradients pick level 0.
                let g = match tex.dim {
                    TextureDim::Cube => "vec3(0.0)",
                    _ => "vec2(0.0)",
                };
                Ok(format!("textureGrad({s}, {coord}, {g}, {g})"))
            }
            (true, Some(_)) => unsupported("`SampleCmpLevelZero` with an offset on arrays", span),
        }
    }

    /// `Load(int3(xy, mip))`: GLSL takes the mip level separately.
    fn texture_load(
        &mut self,
        ctx: &Ctx,
        e: Handle<Expression>,
        tex: &TexInfo,
        args: &[Handle<Expression>],
        a: &[String],
    ) -> Result<String> {
        let span = ctx.exprs.span(e);
        if !self.is_pure(ctx, args[1]) {
            return unsupported("`Load` at a coordinate with side effects", span);
        }
        if tex.dim == TextureDim::Cube {
            return unsupported("`Load` on a cube texture", span);
        }
        self.require("GL_EXT_samplerless_texture_functions");
        let n = match tex.dim {
            TextureDim::D1 => 1,
            TextureDim::D2 => 2,
            _ => 3,
        } + tex.arrayed as usize;
        let (c, mip) = match n {
            1 => (format!("({}).x", a[1]), format!("({}).y", a[1])),
            2 => (format!("({}).xy", a[1]), format!("({}).z", a[1])),
            _ => (format!("({}).xyz", a[1]), format!("({}).w", a[1])),
        };
        let fetch = match a.get(2) {
            Some(o) => format!("texelFetchOffset({}, {c}, {mip}, {o})", a[0]),
            None => format!("texelFetch({}, {c}, {mip})", a[0]),
        };
        self.narrow_texel_pub(tex.texel, fetch, span)
    }

    /// `GetDimensions(...)`: each `out` argument gets its component of
    /// `textureSize`/`imageSize`/`length()`, converted to its own type.
    fn get_dimensions(
        &mut self,
        ctx: &Ctx,
        e: Handle<Expression>,
        args: &[Handle<Expression>],
    ) -> Result<String> {
        let span = ctx.exprs.span(e);
        let obj = self.expr(ctx, args[0])?;
        let ty = self.expr_ty(ctx, args[0])?;
        let (mut values, first_out) = match self.inner(ty).clone() {
            TypeInner::Texture {
                dim,
                arrayed,
                multisampled,
                access,
                ..
            } => {
                let n = match dim {
                    TextureDim::D1 => 1,
                    TextureDim::D2 | TextureDim::Cube => 2,
                    TextureDim::D3 => 3,
                } + arrayed as usize;
                let comps: Vec<&str> = ["x", "y", "z"][..n].to_vec();
                let sampled = access == ir::ResourceAccess::Read && !multisampled;
                let with_mip = sampled && args.len() == n + 3;
                let size = if access != ir::ResourceAccess::Read {
                    format!("imageSize({obj})")
                } else {
                    self.require("GL_EXT_samplerless_texture_functions");
                    if multisampled {
                        format!("textureSize({obj})")
                    } else if with_mip {
                        format!("textureSize({obj}, int({}))", self.expr(ctx, args[1])?)
                    } else {
                        format!("textureSize({obj}, 0)")
                    }
                };
                let mut v: Vec<String> = comps
                    .iter()
                    .map(|c| {
                        if n == 1 {
                            size.clone()
                        } else {
                            format!("{size}.{c}")
                        }
                    })
                    .collect();
                if multisampled {
                    v.push(format!("textureSamples({obj})"));
                }
                if with_mip {
                    v.push(format!("textureQueryLevels({obj})"));
                }
                (v, if with_mip { 2 } else { 1 })
            }
            TypeInner::Buffer {
                kind: ir::BufferKind::ByteAddress,
                ..
            } => (vec![format!("({obj}.data.length() * 4)")], 1),
            TypeInner::Buffer {
                kind: ir::BufferKind::Structured,
                ..
            } => {
                return unsupported(
                    "`GetDimensions` of a structured buffer (needs the std430 stride)",
                    span,
                );
            }
            TypeInner::Buffer {
                kind: ir::BufferKind::Typed,
                access,
                ..
            } => {
                if access == ir::ResourceAccess::Read {
                    self.require("GL_EXT_samplerless_texture_functions");
                    (vec![format!("textureSize({obj})")], 1)
                } else {
                    (vec![format!("imageSize({obj})")], 1)
                }
            }
            _ => return unsupported("`GetDimensions` of this resource", span),
        };
        let mut stmts = Vec::new();
        for (i, &out) in args[first_out..].iter().enumerate() {
            let t = self.expr_ty(ctx, out)?;
            let t = self.type_name(t, span)?;
            let last = values.len() - 1;
            let v = std::mem::take(&mut values[i.min(last)]);
            stmts.push(format!("{} = {t}({v})", self.expr(ctx, out)?));
        }
        Ok(stmts.join("; "))
    }

    fn byte_store(
        &mut self,
        ctx: &Ctx,
        e: Handle<Expression>,
        fun: I,
        args: &[Handle<Expression>],
    ) -> Result<String> {
        let span = ctx.exprs.span(e);
        let n = match fun {
            I::Store => 1,
            I::Store2 => 2,
            I::Store3 => 3,
            _ => 4,
        };
        if n > 1 && (!self.is_pure(ctx, args[1]) || !self.is_pure(ctx, args[2])) {
            return unsupported(
                "a multi-word `Store` with side effects in its operands",
                span,
            );
        }
        let (b, addr, v) = (
            self.expr(ctx, args[0])?,
            self.expr(ctx, args[1])?,
            self.expr(ctx, args[2])?,
        );
        let stmts: Vec<String> = (0..n)
            .map(|i| {
                let comp = if n == 1 {
                    String::new()
                } else {
                    format!(".{}", ["x", "y", "z", "w"][i])
                };
                format!("{b}.data[(({addr}) >> 2u) + {i}u] = ({v}){comp}")
            })
            .collect();
        Ok(stmts.join("; "))
    }
}

struct TexInfo {
    dim: TextureDim,
    arrayed: bool,
    texel: Handle<ir::Type>,
}
