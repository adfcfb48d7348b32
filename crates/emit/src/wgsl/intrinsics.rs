//! HLSL built-in functions and resource methods as WGSL built-in
//! functions. A function with no WGSL counterpart (wave operations,
//! atomics on plain variables, ray tracing) is [`Error::Unsupported`]
//! naming it.
//!
//! [`Error::Unsupported`]: super::Error::Unsupported

use legalis_ir as ir;
use legalis_ir::{Expression, Handle, Intrinsic as I, ScalarKind, ShaderStage, Span, TypeInner};

use super::expr::FnCtx;
use super::types::{Result, unsupported};
use super::writer::Writer;

/// The WGSL function of the atomic `fun`: free or a `RWByteAddressBuffer`
/// method alike, `atomicAdd` ...; the compare operations have none that
/// cannot fail spuriously.
pub(super) fn atomic_name(fun: I) -> Option<String> {
    let (op, _) = fun.atomic()?;
    (!op.compares()).then(|| format!("atomic{}", op.name()))
}

/// One-to-one renames: same arguments, same order.
fn renamed(fun: I) -> Option<&'static str> {
    Some(match fun {
        _ if fun.is_common_math() => fun.name(),
        I::Atan2 => "atan2",
        I::CountBits => "countOneBits",
        I::Ddx => "dpdx",
        I::DdxCoarse => "dpdxCoarse",
        I::DdxFine => "dpdxFine",
        I::Ddy => "dpdy",
        I::DdyCoarse => "dpdyCoarse",
        I::DdyFine => "dpdyFine",
        I::Degrees => "degrees",
        I::FaceForward => "faceForward",
        I::FirstBitHigh => "firstLeadingBit",
        I::FirstBitLow => "firstTrailingBit",
        I::Fma => "fma",
        I::Frac => "fract",
        I::Fwidth => "fwidth",
        I::Lerp => "mix",
        I::Radians => "radians",
        I::Refract => "refract",
        I::ReverseBits => "reverseBits",
        I::Round => "round",
        I::Rsqrt => "inverseSqrt",
        I::Saturate => "saturate",
        _ => return None,
    })
}

/// Intrinsics that need derivatives: fragment shaders only in WGSL.
fn needs_fragment(fun: I) -> bool {
    matches!(
        fun,
        I::Ddx
            | I::DdxCoarse
            | I::DdxFine
            | I::Ddy
            | I::DdyCoarse
            | I::DdyFine
            | I::Fwidth
            | I::Sample
            | I::SampleBias
            | I::SampleCmp
    )
}

/// The texture a method's object is, as WGSL sees it.
struct Tex {
    dim: ir::TextureDim,
    arrayed: bool,
    multisampled: bool,
    storage: bool,
    depth: bool,
    texel: Handle<ir::Type>,
}

impl Writer<'_> {
    fn args(&self, ctx: &mut FnCtx, args: &[Handle<Expression>]) -> Result<Vec<String>> {
        args.iter().map(|&a| self.expr(ctx, a)).collect()
    }

    fn scalar_of(&self, ctx: &FnCtx, e: Handle<Expression>) -> Option<ir::Scalar> {
        ctx.ty(e).and_then(|t| self.module.types[t].inner.scalar())
    }

    pub(super) fn intrinsic(
        &self,
        ctx: &mut FnCtx,
        fun: I,
        args: &[Handle<Expression>],
        e: Handle<Expression>,
    ) -> Result<String> {
        let span = ctx.span(e);
        let ty = ctx.ty(e);
        if needs_fragment(fun)
            && let Some(stage) = self
                .stages_of(ctx.function)
                .into_iter()
                .find(|&s| s != ShaderStage::Fragment)
        {
            return unsupported(
                format!(
                    "`{}` in a {} shader (WGSL has derivatives and implicit-level sampling in fragment shaders only)",
                    fun.name(),
                    stage.name()
                ),
                span,
            );
        }
        if let Some(name) = renamed(fun) {
            let a = self.args(ctx, args)?;
            return Ok(format!("{name}({})", a.join(", ")));
        }
        let one = |ctx: &mut FnCtx| -> Result<String> {
            match args.first() {
                Some(&a) => self.expr(ctx, a),
                None => unsupported(format!("`{}` without arguments", fun.name()), span),
            }
        };
        Ok(match fun {
            // HLSL's `sign` returns `int`s; WGSL's has the argument's type
            // and no unsigned overload (the sign of an unsigned value is
            // `min(x, 1)`).
            I::Sign => {
                let (Some(result), Some(arg_ty)) = (ty, args.first().and_then(|&a| ctx.ty(a)))
                else {
                    return unsupported("`sign` of an untyped value", span);
                };
                let (result, arg) = (self.spell(result, span)?, self.spell(arg_ty, span)?);
                let v = one(ctx)?;
                let unsigned = self.module.types[arg_ty]
                    .inner
                    .scalar()
                    .is_some_and(|s| s.kind == ScalarKind::Uint);
                if unsigned {
                    format!("{result}(min({v}, {arg}(1)))")
                } else {
                    format!("{result}(sign({v}))")
                }
            }
            // WGSL's `dot` takes vectors only; the dot of scalars is their
            // product.
            I::Dot => {
                let a = self.args(ctx, args)?;
                let scalar = args
                    .first()
                    .and_then(|&x| ctx.ty(x))
                    .is_some_and(|t| matches!(self.module.types[t].inner, TypeInner::Scalar(_)));
                match a.as_slice() {
                    [x, y] if scalar => format!("({x} * {y})"),
                    [x, y] => format!("dot({x}, {y})"),
                    _ => return unsupported("`dot` without two arguments", span),
                }
            }
            // WGSL's `ldexp` takes an integer exponent.
            I::Ldexp => {
                let a = self.args(ctx, args)?;
                let [x, e] = a.as_slice() else {
                    return unsupported("`ldexp` without two arguments", span);
                };
                let exponent = match args.get(1).and_then(|&x| ctx.ty(x)) {
                    Some(t) => match self.module.types[t].inner {
                        TypeInner::Scalar(s) if s.kind == ScalarKind::Sint => e.clone(),
                        TypeInner::Vector { scalar, .. } if scalar.kind == ScalarKind::Sint => {
                            e.clone()
                        }
                        TypeInner::Vector { size, .. } => format!("vec{size}<i32>({e})"),
                        _ => format!("i32({e})"),
                    },
                    None => format!("i32({e})"),
                };
                format!("ldexp({x}, {exponent})")
            }
            I::All | I::Any => {
                let name = if fun == I::All { "all" } else { "any" };
                let arg_ty = args.first().and_then(|&a| ctx.ty(a));
                let v = one(ctx)?;
                match arg_ty.map(|t| self.module.types[t].inner.clone()) {
                    Some(TypeInner::Scalar(s)) if s.kind == ScalarKind::Bool => v,
                    Some(TypeInner::Vector { scalar, .. }) if scalar.kind == ScalarKind::Bool => {
                        format!("{name}({v})")
                    }
                    Some(TypeInner::Scalar(s)) => {
                        format!("({v} != {})", super::expr::zero_of(s))
                    }
                    Some(TypeInner::Vector { size, scalar }) => format!(
                        "{name}({v} != vec{size}<{}>({}))",
                        super::types::scalar(scalar, span)?,
                        super::expr::zero_of(scalar)
                    ),
                    _ => return unsupported(format!("`{}` of a matrix", fun.name()), span),
                }
            }
            I::AsFloat | I::AsInt | I::AsUint => {
                let Some(ty) = ty else {
                    return unsupported("a bit cast without a type", span);
                };
                let arg_scalar = args.first().and_then(|&a| self.scalar_of(ctx, a));
                if arg_scalar.is_some_and(|s| s.width != 4) {
                    return unsupported(format!("`{}` of a non-32-bit value", fun.name()), span);
                }
                let target = self.spell(ty, span)?;
                let v = one(ctx)?;
                format!("bitcast<{target}>({v})")
            }
            I::Fmod => {
                let a = self.args(ctx, args)?;
                format!("({} % {})", a[0], a[1])
            }
            I::Rcp => {
                let s = ty.and_then(|t| self.module.types[t].inner.scalar());
                if s.is_some_and(|s| s.kind != ScalarKind::Float) {
                    return unsupported("`rcp` of an integer", span);
                }
                let unit = super::expr::float_literal_of(s.unwrap_or(ir::Scalar::F32), 1.0);
                format!("({unit} / {})", one(ctx)?)
            }
            I::Log10 => {
                let s = ty.and_then(|t| self.module.types[t].inner.scalar());
                let k = match s {
                    Some(s) if s.width == 2 => "0.30102999566h",
                    _ => "0.30102999566f",
                };
                format!("(log2({}) * {k})", one(ctx)?)
            }
            I::Mad => {
                let a = self.args(ctx, args)?;
                let float = ty
                    .and_then(|t| self.module.types[t].inner.scalar())
                    .is_some_and(|s| s.kind == ScalarKind::Float);
                if float {
                    format!("fma({}, {}, {})", a[0], a[1], a[2])
                } else {
                    format!("(({} * {}) + {})", a[0], a[1], a[2])
                }
            }
            I::Mul => {
                let both_vectors = args.iter().all(|&a| {
                    ctx.ty(a).is_some_and(|t| {
                        matches!(self.module.types[t].inner, TypeInner::Vector { .. })
                    })
                });
                let a = self.args(ctx, args)?;
                if both_vectors {
                    format!("dot({}, {})", a[0], a[1])
                } else {
                    // The matrix convention: HLSL rows are WGSL columns.
                    format!("({} * {})", a[1], a[0])
                }
            }
            I::IsNan | I::IsInf | I::IsFinite => {
                let Some(&arg) = args.first() else {
                    return unsupported(format!("`{}` without arguments", fun.name()), span);
                };
                // The largest finite value of the argument's type.
                let max = match self.scalar_of(ctx, arg) {
                    Some(s) if s.width == 2 => "65504.0h",
                    _ => "3.40282347e38f",
                };
                let v = self.reusable(ctx, arg)?;
                match fun {
                    I::IsNan => format!("({v} != {v})"),
                    I::IsInf => format!("(abs({v}) > {max})"),
                    _ => format!("(abs({v}) <= {max})"),
                }
            }
            I::Sample
            | I::SampleBias
            | I::SampleLevel
            | I::SampleGrad
            | I::SampleCmp
            | I::SampleCmpLevelZero
            | I::Gather
            | I::GatherRed
            | I::GatherGreen
            | I::GatherBlue
            | I::GatherAlpha
            | I::GatherCmp => self.sample(ctx, fun, args, span)?,
            I::Load => self.load(ctx, args, span)?,
            I::Load2 | I::Load3 | I::Load4 => self.byte_address_load(ctx, fun, args, span)?,
            I::NonUniformResourceIndex => one(ctx)?,
            // The front end made sure the argument is (part of) a
            // `groupshared` variable: a `var<workgroup>` here.
            I::WorkgroupUniformLoad => format!("workgroupUniformLoad(&({}))", one(ctx)?),
            // The low half of each `uint` holds the `half`.
            I::F16ToF32 => match args
                .first()
                .and_then(|&a| ctx.ty(a))
                .map(|t| self.module.types[t].inner.clone())
            {
                Some(TypeInner::Scalar(_)) => format!("unpack2x16float({}).x", one(ctx)?),
                _ => return unsupported("`f16tof32` of a vector", span),
            },
            I::F32ToF16 => match args
                .first()
                .and_then(|&a| ctx.ty(a))
                .map(|t| self.module.types[t].inner.clone())
            {
                Some(TypeInner::Scalar(_)) => {
                    format!("pack2x16float(vec2<f32>({}, 0.0f))", one(ctx)?)
                }
                _ => return unsupported("`f32tof16` of a vector", span),
            },
            other => {
                return unsupported(
                    format!("`{}` (no WGSL counterpart yet)", other.name()),
                    span,
                );
            }
        })
    }

    /// Intrinsics that are statements: barriers, `clip`, `GetDimensions`.
    /// `None` when `fun` is an ordinary value.
    pub(super) fn intrinsic_statement(
        &self,
        ctx: &mut FnCtx,
        fun: I,
        args: &[Handle<Expression>],
        e: Handle<Expression>,
    ) -> Result<Option<Vec<String>>> {
        let span = ctx.span(e);
        Ok(Some(match fun {
            // WGSL's barriers are all control barriers of the workgroup
            // (each also orders its address space's memory), and WGSL has
            // no memory-only fence: a non-sync HLSL barrier is written as
            // the sync one, which is stronger, so correct wherever the
            // workgroup reaches it together (naga's uniformity analysis
            // refuses it in divergent control flow). WGSL's memory model
            // has no device scope: `storageBarrier` orders storage memory
            // for the workgroup, the most WGSL can say for the device
            // barriers; `textureBarrier` does the same for storage textures.
            I::GroupMemoryBarrier | I::GroupMemoryBarrierWithGroupSync => {
                vec!["workgroupBarrier();".into()]
            }
            I::DeviceMemoryBarrier | I::DeviceMemoryBarrierWithGroupSync => {
                vec!["storageBarrier();".into(), "textureBarrier();".into()]
            }
            I::AllMemoryBarrier | I::AllMemoryBarrierWithGroupSync => vec![
                "storageBarrier();".into(),
                "textureBarrier();".into(),
                "workgroupBarrier();".into(),
            ],
            I::BeginInvocationInterlock | I::EndInvocationInterlock => {
                return unsupported(
                    format!("`{}` (WGSL has no fragment shader interlock)", fun.name()),
                    span,
                );
            }
            I::Clip => {
                let Some(&arg) = args.first() else {
                    return unsupported("`clip` without arguments", span);
                };
                let arg_ty = ctx.ty(arg).map(|t| self.module.types[t].inner.clone());
                let v = self.expr(ctx, arg)?;
                let test = match arg_ty {
                    Some(TypeInner::Vector { size, scalar }) => {
                        let s = super::types::scalar(scalar, span)?;
                        let zero = super::expr::zero_of(scalar);
                        format!("any({v} < vec{size}<{s}>({zero}))")
                    }
                    Some(TypeInner::Scalar(s)) => format!("({v} < {})", super::expr::zero_of(s)),
                    _ => format!("({v} < 0.0f)"),
                };
                vec![format!("if {test} {{ discard; }}")]
            }
            I::GetDimensions => self.get_dimensions(ctx, args, span)?,
            _ if fun.atomic().is_some_and(|(_, on_buffer)| !on_buffer) => {
                self.atomic(ctx, fun, args, span)?
            }
            // The compare methods of a buffer have no WGSL atomic.
            _ if fun
                .atomic()
                .is_some_and(|(op, on_buffer)| on_buffer && !op.compares()) =>
            {
                self.buffer_atomic(ctx, fun, args, span)?
            }
            I::SinCos => {
                let [x, sin_out, cos_out] = args else {
                    return unsupported("`sincos` without three arguments", span);
                };
                let x = self.reusable(ctx, *x)?;
                let mut lines = self.store(ctx, *sin_out, format!("sin({x})"))?;
                lines.extend(self.store(ctx, *cos_out, format!("cos({x})"))?);
                lines
            }
            I::Store | I::Store2 | I::Store3 | I::Store4 => {
                self.byte_address_store(ctx, fun, args, span)?
            }
            _ => return Ok(None),
        }))
    }

    fn texture(&self, ctx: &FnCtx, object: Handle<Expression>, span: Span) -> Result<Tex> {
        let Some(ty) = ctx.ty(object) else {
            return unsupported("a method of an untyped object", span);
        };
        let TypeInner::Texture(t) = self.module.types[ty].inner else {
            return unsupported(
                format!("this method of `{}`", ir::print::type_name(self.module, ty)),
                span,
            );
        };
        let depth = t.shadow
            || match ctx.exprs[object] {
                Expression::Global(g) => self.uses.get(&g).is_some_and(|u| u.compare),
                _ => false,
            };
        Ok(Tex {
            dim: t.dim,
            arrayed: t.arrayed,
            multisampled: t.multisampled,
            storage: t.access != ir::ResourceAccess::Read,
            depth,
            texel: t.texel,
        })
    }

    /// `coords` split into WGSL's coordinates and array index:
    /// `(c.xy, i32(round(c.z)))` for a 2D array.
    fn split_coords(
        &self,
        ctx: &mut FnCtx,
        tex: &Tex,
        coords: Handle<Expression>,
    ) -> Result<(String, Option<String>)> {
        if !tex.arrayed {
            return Ok((self.expr(ctx, coords)?, None));
        }
        let c = self.reusable(ctx, coords)?;
        let (base, layer) = match tex.dim {
            ir::TextureDim::Cube => ("xyz", "w"),
            _ => ("xy", "z"),
        };
        Ok((
            format!("{c}.{base}"),
            Some(format!("i32(round({c}.{layer}))")),
        ))
    }

    fn sample(
        &self,
        ctx: &mut FnCtx,
        fun: I,
        args: &[Handle<Expression>],
        span: Span,
    ) -> Result<String> {
        let [object, sampler, coords, rest @ ..] = args else {
            return unsupported(format!("`{}` with too few arguments", fun.name()), span);
        };
        let tex = self.texture(ctx, *object, span)?;
        if tex.storage || tex.multisampled {
            return unsupported(
                format!("`{}` of a storage or multisampled texture", fun.name()),
                span,
            );
        }
        let t = self.expr(ctx, *object)?;
        let s = self.expr(ctx, *sampler)?;
        let (c, layer) = self.split_coords(ctx, &tex, *coords)?;
        let mut parts = vec![t, s, c];
        parts.extend(layer);
        // Extra arguments (level, bias, gradients, reference, offset); a
        // clamp or status argument has no WGSL counterpart.
        let fixed = match fun {
            I::SampleBias
            | I::SampleLevel
            | I::SampleCmp
            | I::SampleCmpLevelZero
            | I::GatherCmp => 1,
            I::SampleGrad => 2,
            _ => 0,
        };
        let fixed = if fun == I::SampleCmpLevelZero {
            1
        } else {
            fixed
        };
        if rest.len() > fixed + 1 {
            return unsupported(
                format!("`{}` with a clamp or status argument", fun.name()),
                span,
            );
        }
        if fun == I::SampleLevel && tex.depth {
            return unsupported("`SampleLevel` of a depth texture", span);
        }
        let offset_is_cube = rest.len() > fixed && tex.dim == ir::TextureDim::Cube;
        if offset_is_cube {
            return unsupported("a texel offset on a cube texture", span);
        }
        // `textureSample` takes a depth texture (and gives one `f32`); the
        // bias, level and gradient forms do not.
        if matches!(fun, I::SampleBias | I::SampleLevel | I::SampleGrad) && tex.depth {
            return unsupported(
                format!(
                    "`{}` of a texture that is also compared (a WGSL depth texture)",
                    fun.name()
                ),
                span,
            );
        }
        for &a in rest {
            parts.push(self.expr(ctx, a)?);
        }
        let gather_component = |c: u32, parts: &mut Vec<String>| {
            if !tex.depth {
                parts.insert(0, format!("{c}"));
            }
        };
        let name = match fun {
            I::Sample => "textureSample",
            I::SampleBias => "textureSampleBias",
            I::SampleLevel => "textureSampleLevel",
            I::SampleGrad => "textureSampleGrad",
            I::SampleCmp => "textureSampleCompare",
            I::SampleCmpLevelZero => "textureSampleCompareLevel",
            I::GatherCmp => "textureGatherCompare",
            I::Gather | I::GatherRed => {
                gather_component(0, &mut parts);
                "textureGather"
            }
            I::GatherGreen => {
                gather_component(1, &mut parts);
                "textureGather"
            }
            I::GatherBlue => {
                gather_component(2, &mut parts);
                "textureGather"
            }
            _ => {
                gather_component(3, &mut parts);
                "textureGather"
            }
        };
        if tex.depth && matches!(fun, I::GatherGreen | I::GatherBlue | I::GatherAlpha) {
            return unsupported(format!("`{}` of a depth texture", fun.name()), span);
        }
        let call = format!("{name}({})", parts.join(", "));
        Ok(match fun {
            I::Sample | I::SampleBias | I::SampleLevel | I::SampleGrad if !tex.depth => {
                self.narrow_texel(call, Some(tex.texel))
            }
            // Four texels of one component: `vec4<f16>` of a `half` texture.
            I::Gather | I::GatherRed | I::GatherGreen | I::GatherBlue | I::GatherAlpha
                if !tex.depth =>
            {
                match super::types::texel_shape(self.module, tex.texel) {
                    Some((_, scalar)) => super::expr::half_texel(call, 4, scalar),
                    None => call,
                }
            }
            _ => call,
        })
    }

    /// `InterlockedAdd(dest, value[, original])` as `atomicAdd(&dest,
    /// value)`, the original value stored when asked for. WGSL's only
    /// compare-and-swap may fail spuriously where HLSL's may not, so the
    /// compare operations are refused.
    fn atomic(
        &self,
        ctx: &mut FnCtx,
        fun: I,
        args: &[Handle<Expression>],
        span: Span,
    ) -> Result<Vec<String>> {
        let Some(name) = atomic_name(fun) else {
            return unsupported(
                format!(
                    "`{}` (WGSL's only compare-and-swap, `atomicCompareExchangeWeak`, may fail spuriously)",
                    fun.name()
                ),
                span,
            );
        };
        let [dest, value, original @ ..] = args else {
            return unsupported(format!("`{}` without a value", fun.name()), span);
        };
        if !self.is_atomic_place(ctx, *dest) {
            return unsupported(
                format!(
                    "`{}` on this destination (WGSL atomics are integer variables or array elements)",
                    fun.name()
                ),
                span,
            );
        }
        let place = self.place(ctx, *dest)?;
        let v = self.expr(ctx, *value)?;
        let call = format!("{name}(&{place}, {v})");
        self.atomic_result(ctx, fun, call, original, span)
    }

    /// An atomic call as a statement, its result (the original value)
    /// stored to the `original` argument when there is one.
    fn atomic_result(
        &self,
        ctx: &mut FnCtx,
        fun: I,
        call: String,
        original: &[Handle<Expression>],
        span: Span,
    ) -> Result<Vec<String>> {
        match original {
            [] => Ok(vec![format!("{call};")]),
            [out] => self.store(ctx, *out, call),
            _ => unsupported(format!("`{}` with too many arguments", fun.name()), span),
        }
    }

    /// `buf.InterlockedAdd(address, value[, original])` on the word at
    /// `address` of a byte-address buffer declared `array<atomic<u32>>`.
    fn buffer_atomic(
        &self,
        ctx: &mut FnCtx,
        fun: I,
        args: &[Handle<Expression>],
        span: Span,
    ) -> Result<Vec<String>> {
        let Some(name) = atomic_name(fun) else {
            return unsupported(format!("`{}` on a byte-address buffer", fun.name()), span);
        };
        let [object, address, value, original @ ..] = args else {
            return unsupported(format!("`{}` without a value", fun.name()), span);
        };
        let is_word = self
            .scalar_of(ctx, *value)
            .is_some_and(|s| s.kind == ScalarKind::Uint && s.width == 4);
        if !is_word {
            return unsupported(
                format!("`{}` of a value that is not a `uint`", fun.name()),
                span,
            );
        }
        let b = self.expr(ctx, *object)?;
        let w = self.word_index(ctx, *address, span)?;
        let v = self.expr(ctx, *value)?;
        let call = format!("{name}(&{b}[{w}], {v})");
        self.atomic_result(ctx, fun, call, original, span)
    }

    /// Whether a buffer object is declared with atomic elements.
    fn atomic_words(&self, ctx: &FnCtx, object: Handle<Expression>) -> bool {
        matches!(ctx.exprs[object], Expression::Global(g) if self.atomic_globals.contains(&g))
    }

    /// The `u32` word index of a byte address: `(address >> 2u)`.
    fn word_index(
        &self,
        ctx: &mut FnCtx,
        address: Handle<Expression>,
        span: Span,
    ) -> Result<String> {
        let scalar = self.scalar_of(ctx, address);
        let a = self.reusable(ctx, address)?;
        match scalar.map(|s| (s.kind, s.width)) {
            Some((ScalarKind::Uint, 4)) => Ok(format!("({a} >> 2u)")),
            Some((ScalarKind::Sint, 4)) => Ok(format!("(u32({a}) >> 2u)")),
            _ => unsupported("a byte address that is not a 32-bit integer", span),
        }
    }

    /// `ByteAddressBuffer.LoadN(address)`: N consecutive words.
    fn byte_address_load(
        &self,
        ctx: &mut FnCtx,
        fun: I,
        args: &[Handle<Expression>],
        span: Span,
    ) -> Result<String> {
        let [object, address] = args else {
            return unsupported(format!("`{}` with a status argument", fun.name()), span);
        };
        let b = self.expr(ctx, *object)?;
        let w = self.word_index(ctx, *address, span)?;
        let n = match fun {
            I::Load2 => 2,
            I::Load3 => 3,
            _ => 4,
        };
        let atomic = self.atomic_words(ctx, *object);
        let words: Vec<String> = (0..n)
            .map(|k| {
                let word = match k {
                    0 => format!("{b}[{w}]"),
                    k => format!("{b}[{w} + {k}u]"),
                };
                if atomic {
                    format!("atomicLoad(&{word})")
                } else {
                    word
                }
            })
            .collect();
        Ok(format!("vec{n}<u32>({})", words.join(", ")))
    }

    /// `RWByteAddressBuffer.StoreN(address, value)`: one word per component.
    fn byte_address_store(
        &self,
        ctx: &mut FnCtx,
        fun: I,
        args: &[Handle<Expression>],
        span: Span,
    ) -> Result<Vec<String>> {
        let [object, address, value] = args else {
            return unsupported(format!("`{}` with these arguments", fun.name()), span);
        };
        let is_byte_address = ctx.ty(*object).is_some_and(|t| {
            matches!(
                self.module.types[t].inner,
                TypeInner::Buffer {
                    kind: ir::BufferKind::ByteAddress,
                    ..
                }
            )
        });
        if !is_byte_address {
            return unsupported(format!("`{}` on this object", fun.name()), span);
        }
        let atomic = self.atomic_words(ctx, *object);
        let b = self.expr(ctx, *object)?;
        let w = self.word_index(ctx, *address, span)?;
        let v = self.reusable(ctx, *value)?;
        let n = match fun {
            I::Store => 1,
            I::Store2 => 2,
            I::Store3 => 3,
            _ => 4,
        };
        Ok((0..n)
            .map(|k| {
                let word = match k {
                    0 => format!("{b}[{w}]"),
                    k => format!("{b}[{w} + {k}u]"),
                };
                let part = if n == 1 {
                    v.clone()
                } else {
                    format!("{v}.{}", super::expr::COMPONENTS[k])
                };
                if atomic {
                    format!("atomicStore(&{word}, {part});")
                } else {
                    format!("{word} = {part};")
                }
            })
            .collect())
    }

    /// `Texture.Load(coords[, sample])` and `StructuredBuffer.Load(i)`.
    fn load(&self, ctx: &mut FnCtx, args: &[Handle<Expression>], span: Span) -> Result<String> {
        let [object, coords, rest @ ..] = args else {
            return unsupported("`Load` with too few arguments", span);
        };
        let object_ty = ctx.ty(*object).map(|t| self.module.types[t].inner.clone());
        if let Some(TypeInner::Buffer {
            kind: kind @ (ir::BufferKind::Structured | ir::BufferKind::ByteAddress),
            ..
        }) = object_ty
        {
            if !rest.is_empty() {
                return unsupported("`Load` with a status argument", span);
            }
            let b = self.expr(ctx, *object)?;
            let i = match kind {
                ir::BufferKind::Structured => self.expr(ctx, *coords)?,
                _ => self.word_index(ctx, *coords, span)?,
            };
            return Ok(if self.atomic_words(ctx, *object) {
                format!("atomicLoad(&{b}[{i}])")
            } else {
                format!("{b}[{i}]")
            });
        }
        let tex = self.texture(ctx, *object, span)?;
        let t = self.expr(ctx, *object)?;
        let c = if tex.multisampled || tex.storage {
            self.expr(ctx, *coords)?
        } else {
            self.reusable(ctx, *coords)?
        };
        let call = if tex.multisampled {
            let [sample] = rest else {
                return unsupported(
                    "`Load` of a multisampled texture without exactly a sample index",
                    span,
                );
            };
            let s = self.expr(ctx, *sample)?;
            format!("textureLoad({t}, {c}, {s})")
        } else if tex.storage {
            if !rest.is_empty() {
                return unsupported("`Load` of a storage texture with an offset or status", span);
            }
            format!("textureLoad({t}, {c})")
        } else {
            if !rest.is_empty() {
                return unsupported(
                    "`Load` with an offset or status (WGSL `textureLoad` has none)",
                    span,
                );
            }
            // The last component is the mip level; arrays put the layer
            // before it.
            let (base, layer, level) = match (tex.dim, tex.arrayed) {
                (ir::TextureDim::D1, false) => ("x", None, "y"),
                (ir::TextureDim::D2, false) => ("xy", None, "z"),
                (ir::TextureDim::D2, true) => ("xy", Some("z"), "w"),
                (ir::TextureDim::D3, false) => ("xyz", None, "w"),
                _ => return unsupported("`Load` of this texture", span),
            };
            match layer {
                Some(layer) => format!("textureLoad({t}, {c}.{base}, {c}.{layer}, {c}.{level})"),
                None => format!("textureLoad({t}, {c}.{base}, {c}.{level})"),
            }
        };
        Ok(if tex.depth {
            call
        } else {
            self.narrow_texel(call, Some(tex.texel))
        })
    }

    /// `t.GetDimensions(w, h[, elements])` as stores of
    /// `textureDimensions`/`textureNumLayers` (and `arrayLength` for
    /// structured buffers).
    fn get_dimensions(
        &self,
        ctx: &mut FnCtx,
        args: &[Handle<Expression>],
        span: Span,
    ) -> Result<Vec<String>> {
        let [object, outs @ ..] = args else {
            return unsupported("`GetDimensions` without an object", span);
        };
        let object_ty = ctx.ty(*object).map(|t| self.module.types[t].inner.clone());
        let o = self.expr(ctx, *object)?;
        let mut values: Vec<String> = Vec::new();
        match object_ty {
            Some(TypeInner::Buffer {
                kind: ir::BufferKind::Structured,
                element: Some(element),
                ..
            }) => {
                let Expression::Global(_) = ctx.exprs[*object] else {
                    return unsupported("`GetDimensions` of a buffer that is not a global", span);
                };
                let Some((align, size)) = super::types::layout(self.module, element) else {
                    return unsupported(
                        "`GetDimensions` of a buffer of non-host-shareable elements",
                        span,
                    );
                };
                values.push(format!("arrayLength(&{o})"));
                values.push(format!("{}u", super::types::round_up(align, size)));
            }
            Some(TypeInner::Texture(t)) => {
                let components = match t.dim {
                    ir::TextureDim::D1 => 1,
                    ir::TextureDim::D2 | ir::TextureDim::Cube => 2,
                    ir::TextureDim::D3 => 3,
                };
                let expected = components + usize::from(t.arrayed) + usize::from(t.multisampled);
                // `GetDimensions(mip, w, h, ..., levels)` on a sampled,
                // single-sampled texture.
                let with_level = outs.len() == expected + 2 && !t.multisampled;
                if outs.len() != expected && !with_level {
                    return unsupported("`GetDimensions` with these arguments", span);
                }
                let (level, outs_here) = if with_level {
                    let level = self.reusable(ctx, outs[0])?;
                    (Some(level), &outs[1..])
                } else {
                    (None, outs)
                };
                let dims = match &level {
                    Some(level) => format!("textureDimensions({o}, {level})"),
                    None => format!("textureDimensions({o})"),
                };
                for i in 0..components {
                    let suffix = if components == 1 {
                        String::new()
                    } else {
                        format!(".{}", super::expr::COMPONENTS[i])
                    };
                    values.push(format!("{dims}{suffix}"));
                }
                if t.arrayed {
                    values.push(format!("textureNumLayers({o})"));
                }
                if t.multisampled {
                    values.push(format!("textureNumSamples({o})"));
                }
                if with_level {
                    values.push(format!("textureNumLevels({o})"));
                }
                return self.store_all(ctx, outs_here, values, span);
            }
            _ => return unsupported("`GetDimensions` of this object", span),
        }
        self.store_all(ctx, outs, values, span)
    }

    /// Stores each value to its `out` argument, converted from `u32` to the
    /// argument's type.
    fn store_all(
        &self,
        ctx: &mut FnCtx,
        outs: &[Handle<Expression>],
        values: Vec<String>,
        span: Span,
    ) -> Result<Vec<String>> {
        if values.len() != outs.len() {
            return unsupported("`GetDimensions` with these arguments", span);
        }
        let mut lines = Vec::new();
        for (&out, value) in outs.iter().zip(values) {
            let scalar = self.scalar_of(ctx, out).unwrap_or(ir::Scalar::U32);
            let value = match scalar.kind {
                ScalarKind::Uint => value,
                _ => format!("{}({value})", super::types::scalar(scalar, span)?),
            };
            lines.extend(self.store(ctx, out, value)?);
        }
        Ok(lines)
    }
}
