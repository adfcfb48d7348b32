//! HLSL built-in functions and methods in MSL: the `metal::` math library
//! under its own names (`fract`, `mix`, `rint`, `dfdx`, `popcount`),
//! `mul` under the writer's matrix convention, `simd_*`/`quad_*` for wave
//! and quad operations, texture methods as `sample`/`sample_compare`/
//! `gather`/`read`/`write`/`get_width` with `level(...)`, `bias(...)` and
//! `gradient2d(...)` options, byte-address buffers as `uint` arrays, and
//! `clip`/`sincos`/`GetDimensions`/barriers as statements. What Metal
//! cannot express here (atomics on plain storage, ray tracing, attribute
//! evaluation) is refused with its span.

use legalis_ir as ir;
use legalis_ir::{Expression, Handle, Intrinsic as I, ScalarKind, Span, TypeInner};

use super::Error;
use super::expr::FnCtx;
use super::types::{self, Result, unsupported};
use super::writer::Writer;
use crate::cfamily;
use crate::cfamily::expr::is_pure;
use crate::cfamily::intrinsics::ByteAddress;
use crate::cfamily::prelude::*;
use crate::cfamily::{Call, Intrinsics, Lines};

/// Intrinsics MSL spells the same way or under another name, with the
/// same arguments.
fn renamed(fun: I) -> Option<&'static str> {
    if let Some(name) = cfamily::intrinsics::hlsl_named(fun) {
        return Some(name);
    }
    Some(match fun {
        I::CountBits => "popcount",
        I::Ddx | I::DdxCoarse | I::DdxFine => "dfdx",
        I::Ddy | I::DdyCoarse | I::DdyFine => "dfdy",
        I::Fma => "fma",
        I::Frac => "fract",
        I::Fwidth => "fwidth",
        I::IsFinite => "isfinite",
        I::IsInf => "isinf",
        I::IsNan => "isnan",
        I::Ldexp => "ldexp",
        I::Lerp => "mix",
        I::Refract => "refract",
        I::ReverseBits => "reverse_bits",
        I::Round => "rint",
        I::WaveActiveSum => "simd_sum",
        I::WaveActiveProduct => "simd_product",
        I::WaveActiveMin => "simd_min",
        I::WaveActiveMax => "simd_max",
        I::WaveActiveBitAnd => "simd_and",
        I::WaveActiveBitOr => "simd_or",
        I::WaveActiveBitXor => "simd_xor",
        I::WaveActiveAnyTrue => "simd_any",
        // Metal computes derivatives and quad operations over whole quads
        // always: `[QuadDerivatives]` needs nothing more.
        I::QuadAny => "quad_any",
        I::QuadAll => "quad_all",
        I::WaveActiveAllTrue => "simd_all",
        I::WavePrefixSum => "simd_prefix_exclusive_sum",
        I::WavePrefixProduct => "simd_prefix_exclusive_product",
        I::WaveReadLaneFirst => "simd_broadcast_first",
        I::WaveIsFirstLane => "simd_is_first",
        _ => return None,
    })
}

/// A texture reached as a global: its text and type.
type Tex = (String, Handle<ir::Type>);

impl Writer<'_> {
    fn args(&self, ctx: &mut FnCtx, args: &[Handle<Expression>]) -> Result<Vec<String>> {
        args.iter().map(|a| self.expr(ctx, *a)).collect()
    }

    fn scalar_of(&self, ctx: &FnCtx, e: Handle<Expression>) -> Option<ir::Scalar> {
        ctx.ty(e).and_then(|t| self.module.types[t].inner.scalar())
    }

    /// The texture `e` names, when it is a texture global (or a typed
    /// buffer, a Metal `texture_buffer`).
    pub(super) fn texture_of(&self, ctx: &FnCtx, e: Handle<Expression>) -> Option<Tex> {
        let ty = ctx.ty(e)?;
        if !matches!(
            self.module.types[ty].inner,
            TypeInner::Texture(_)
                | TypeInner::Buffer {
                    kind: ir::BufferKind::Typed,
                    ..
                }
        ) {
            return None;
        }
        match ctx.exprs[e] {
            Expression::Global(g) => Some((self.names.globals.get(&g)?.clone(), ty)),
            _ => None,
        }
    }

    fn texture(&self, ctx: &FnCtx, object: Handle<Expression>, span: Span) -> Result<Tex> {
        self.texture_of(ctx, object)
            .ok_or_else(|| Error::Unsupported {
                what: "a texture that is not a global (a parameter or an array element)".into(),
                span,
            })
    }

    /// `read`/`write` coordinates of a texel index: `uint2(c)`, or
    /// `uint2(c.xy), uint(c.z)` with the array layer.
    pub(super) fn texel_coords(
        &self,
        ctx: &mut FnCtx,
        ty: Handle<ir::Type>,
        index: Handle<Expression>,
        span: Span,
    ) -> Result<String> {
        let (dim, arrayed) = match self.module.types[ty].inner {
            TypeInner::Texture(ir::Texture { dim, arrayed, .. }) => (dim, arrayed),
            // A `texture_buffer` element: one `uint` coordinate.
            TypeInner::Buffer {
                kind: ir::BufferKind::Typed,
                ..
            } => (ir::TextureDim::D1, false),
            _ => return unsupported("a texel of something that is not a texture", span),
        };
        let n = types::coordinate_count(dim);
        let c = self.expr(ctx, index)?;
        if !arrayed {
            return Ok(uint_coords(&c, n, n));
        }
        if !is_pure(ctx.exprs, index) {
            return unsupported("an array-texture coordinate with side effects", span);
        }
        Ok(format!(
            "{}, uint({c}.{})",
            uint_coords(&c, n, n + 1),
            ['x', 'y', 'z', 'w'][n as usize]
        ))
    }

    /// A texel read (always four components) of the texture type `tex`
    /// narrowed to `ty`; a depth texture's reads are already one `float`.
    pub(super) fn narrow_texel(
        &self,
        tex: Handle<ir::Type>,
        read: String,
        ty: Option<Handle<ir::Type>>,
    ) -> String {
        if matches!(
            self.module.types[tex].inner,
            TypeInner::Texture(ir::Texture { shadow: true, .. })
        ) {
            return read;
        }
        match ty.map(|t| &self.module.types[t].inner) {
            Some(TypeInner::Scalar(_)) => format!("{read}.x"),
            Some(TypeInner::Vector { size: 2, .. }) => format!("{read}.xy"),
            Some(TypeInner::Vector { size: 3, .. }) => format!("{read}.xyz"),
            _ => read,
        }
    }

    /// A value written to a texture, widened to the four components
    /// `write` takes.
    pub(super) fn widen_texel(
        &self,
        ctx: &FnCtx,
        e: Handle<Expression>,
        text: String,
    ) -> Result<String> {
        let span = ctx.span(e);
        let Some(ty) = ctx.ty(e) else {
            return unsupported("an untyped texel", span);
        };
        Ok(match self.module.types[ty].inner {
            TypeInner::Scalar(s) => format!("{}4({text})", types::scalar(s, span)?),
            TypeInner::Vector { size: 4, .. } => text,
            TypeInner::Vector { size, scalar } => {
                let s = types::scalar(scalar, span)?;
                let zeros = vec!["0"; 4 - size as usize].join(", ");
                format!("{s}4({text}, {zeros})")
            }
            _ => return unsupported("a texel that is not a scalar or vector", span),
        })
    }

    /// The intrinsics whose MSL overloads take fewer types than HLSL's:
    /// `sign` (floating only in MSL; HLSL's returns `int`), `dot`
    /// (floating vectors only), `length`/`distance` (vectors only),
    /// `any`/`all` (bool vectors only), `ldexp` (an `int` exponent). `None`
    /// when the arguments are ones MSL takes as they are.
    fn typed_math(&self, ctx: &mut FnCtx, call: Call<'_>) -> Result<Option<String>> {
        let Call {
            fun, args, expr: e, ..
        } = call;
        let span = ctx.span(e);
        let shapes: Vec<Option<TypeInner>> = args
            .iter()
            .map(|&a| ctx.ty(a).map(|t| self.module.types[t].inner.clone()))
            .collect();
        let first = shapes.first().cloned().flatten();
        let kind = first.as_ref().and_then(|t| t.scalar()).map(|s| s.kind);
        let is_scalar = matches!(first, Some(TypeInner::Scalar(_)));
        Ok(Some(match fun {
            I::Sign => {
                let (Some(t), Some(arg_ty)) = (ctx.ty(e), args.first().and_then(|&a| ctx.ty(a)))
                else {
                    return unsupported("`sign` of an untyped value", span);
                };
                let (t, arg_ty) = (self.spell(t, span)?, self.spell(arg_ty, span)?);
                let a = self.args(ctx, args)?;
                let operand = match kind {
                    Some(ScalarKind::Float) => format!("sign({})", a[0]),
                    Some(ScalarKind::Uint) => format!("min({}, {arg_ty}(1))", a[0]),
                    Some(ScalarKind::Sint) => {
                        format!("clamp({}, {arg_ty}(-1), {arg_ty}(1))", a[0])
                    }
                    _ => return unsupported("`sign` of this type", span),
                };
                format!("{t}({operand})")
            }
            I::Dot if is_scalar => {
                let a = self.args(ctx, args)?;
                format!("({} * {})", a[0], a[1])
            }
            I::Dot if kind != Some(ScalarKind::Float) => {
                let a = self.args(ctx, args)?;
                self.int_dot(ctx, args[0], &a, span)?
            }
            I::Length if is_scalar => {
                let a = self.args(ctx, args)?;
                format!("abs({})", a[0])
            }
            I::Distance if is_scalar => {
                let a = self.args(ctx, args)?;
                format!("abs({} - {})", a[0], a[1])
            }
            I::Any | I::All => {
                let f = if fun == I::Any { "any" } else { "all" };
                let a = self.args(ctx, args)?;
                match first {
                    Some(TypeInner::Vector { scalar, .. }) if scalar.kind == ScalarKind::Bool => {
                        format!("{f}({})", a[0])
                    }
                    Some(TypeInner::Vector { size, .. }) => format!("{f}(bool{size}({}))", a[0]),
                    Some(TypeInner::Scalar(_)) => format!("bool({})", a[0]),
                    _ => return unsupported(format!("`{f}` of this type"), span),
                }
            }
            I::Ldexp => {
                let a = self.args(ctx, args)?;
                let exponent = match shapes.get(1).cloned().flatten() {
                    Some(TypeInner::Scalar(s)) if s.kind == ScalarKind::Sint => a[1].clone(),
                    Some(TypeInner::Vector { scalar, .. }) if scalar.kind == ScalarKind::Sint => {
                        a[1].clone()
                    }
                    Some(TypeInner::Vector { size, .. }) => format!("int{size}({})", a[1]),
                    _ => format!("int({})", a[1]),
                };
                format!("ldexp({}, {exponent})", a[0])
            }
            _ => return Ok(None),
        }))
    }

    /// `dot` of integer vectors, which MSL has only for floating ones: a
    /// helper summing the products, one per vector type.
    fn int_dot(
        &self,
        ctx: &FnCtx,
        x: Handle<Expression>,
        a: &[String],
        span: Span,
    ) -> Result<String> {
        let Some(ty) = ctx.ty(x) else {
            return unsupported("an untyped `dot` argument", span);
        };
        let TypeInner::Vector { size, scalar } = self.module.types[ty].inner else {
            return unsupported("`dot` of this type", span);
        };
        let vector = self.spell(ty, span)?;
        let element = types::scalar(scalar, span)?;
        let name = format!("_hlsl_dot_{vector}");
        let terms: Vec<String> = ["x", "y", "z", "w"][..usize::from(size)]
            .iter()
            .map(|c| format!("a.{c} * b.{c}"))
            .collect();
        self.helpers
            .borrow_mut()
            .entry(name.clone())
            .or_insert_with(|| {
                format!(
                    "{element} {name}({vector} a, {vector} b)\n{{\n    return {};\n}}\n\n",
                    terms.join(" + ")
                )
            });
        Ok(format!("{name}({}, {})", a[0], a[1]))
    }

    fn is_vector(&self, ctx: &FnCtx, e: Handle<Expression>) -> bool {
        ctx.ty(e)
            .is_some_and(|t| matches!(self.module.types[t].inner, TypeInner::Vector { .. }))
    }

    /// Coordinates of a sample: `uv` or `uv.xy, uint(rint(uv.z))`.
    fn sample_coords(
        &self,
        ctx: &mut FnCtx,
        ty: Handle<ir::Type>,
        uv: Handle<Expression>,
        span: Span,
    ) -> Result<String> {
        let TypeInner::Texture(ir::Texture { dim, arrayed, .. }) = self.module.types[ty].inner
        else {
            return unsupported("sampling something that is not a texture", span);
        };
        let c = self.expr(ctx, uv)?;
        if !arrayed {
            return Ok(c);
        }
        if !is_pure(ctx.exprs, uv) {
            return unsupported("array-texture coordinates with side effects", span);
        }
        let n = types::coordinate_count(dim) as usize;
        let xyz = ['x', 'y', 'z', 'w'];
        let first: String = xyz[..n].iter().collect();
        Ok(format!("{c}.{first}, uint(rint({c}.{}))", xyz[n]))
    }

    fn sample(&self, ctx: &mut FnCtx, call: Call<'_>) -> Result<String> {
        let Call {
            fun, args, expr: e, ..
        } = call;
        let span = ctx.span(e);
        let (tex, ty) = self.texture(ctx, args[0], span)?;
        let TypeInner::Texture(ir::Texture { dim, .. }) = self.module.types[ty].inner else {
            return unsupported("sampling something that is not a texture", span);
        };
        if args.len() < 3 {
            return unsupported(
                format!("`{}` without a sampler and coordinates", fun.name()),
                span,
            );
        }
        let sampler = self.expr(ctx, args[1])?;
        let coords = self.sample_coords(ctx, ty, args[2], span)?;
        let rest = &args[3..];
        let gradient = match dim {
            ir::TextureDim::D2 => "gradient2d",
            ir::TextureDim::D3 => "gradient3d",
            ir::TextureDim::Cube => "gradientcube",
            ir::TextureDim::D1 => "",
        };
        // (method, leading value arguments, option, optional trailing offset)
        let (method, fixed, option): (&str, usize, Option<&str>) = match fun {
            I::Sample => ("sample", 0, None),
            I::SampleBias => ("sample", 1, Some("bias")),
            I::SampleLevel => ("sample", 1, Some("level")),
            I::SampleGrad => ("sample", 2, Some(gradient)),
            I::SampleCmp => ("sample_compare", 1, None),
            I::SampleCmpLevelZero => ("sample_compare", 1, Some("level0")),
            I::SampleCmpLevel => ("sample_compare", 2, Some("level")),
            // `SampleCmpGrad` and `SampleCmpBias`.
            _ => return unsupported(format!("`{}` as a value", fun.name()), span),
        };
        if rest.len() < fixed || rest.len() > fixed + 1 {
            return unsupported(
                format!("`{}` with a clamp or status argument", fun.name()),
                span,
            );
        }
        if dim == ir::TextureDim::D1 && option.is_some() {
            return unsupported(
                "level, bias or gradient options on a 1D texture (Metal 1D textures have no mipmaps)",
                span,
            );
        }
        let values = self.args(ctx, &rest[..fixed])?;
        let mut parts = vec![sampler, coords];
        match (fun, option) {
            (I::SampleCmp, _) => parts.push(values[0].clone()),
            (I::SampleCmpLevelZero, _) => {
                parts.push(values[0].clone());
                parts.push("level(0)".into());
            }
            (I::SampleCmpLevel, _) => {
                parts.push(values[0].clone());
                parts.push(format!("level({})", values[1]));
            }
            (_, Some(option)) => parts.push(format!("{option}({})", values.join(", "))),
            (_, None) => {}
        }
        if let Some(offset) = rest.get(fixed) {
            if dim == ir::TextureDim::Cube {
                return unsupported("a sample offset on a cube texture", span);
            }
            parts.push(self.expr(ctx, *offset)?);
        }
        let text = format!("{tex}.{method}({})", parts.join(", "));
        Ok(if method == "sample" {
            self.narrow_texel(ty, text, ctx.ty(e))
        } else {
            text
        })
    }

    fn gather(&self, ctx: &mut FnCtx, call: Call<'_>) -> Result<String> {
        let Call {
            fun, args, span, ..
        } = call;
        let (tex, ty) = self.texture(ctx, args[0], span)?;
        if args.len() < 3 {
            return unsupported(
                format!("`{}` without a sampler and coordinates", fun.name()),
                span,
            );
        }
        let sampler = self.expr(ctx, args[1])?;
        let coords = self.sample_coords(ctx, ty, args[2], span)?;
        let mut parts = vec![sampler, coords];
        let compare = fun.compares();
        let mut rest = &args[3..];
        if compare {
            let Some((value, more)) = rest.split_first() else {
                return unsupported("`GatherCmp` without a comparison value", span);
            };
            parts.push(self.expr(ctx, *value)?);
            rest = more;
        }
        if rest.len() > 1 {
            return unsupported(
                format!("`{}` with per-texel offsets or a status", fun.name()),
                span,
            );
        }
        let offset = match rest.first() {
            Some(o) => Some(self.expr(ctx, *o)?),
            None => None,
        };
        let component = match fun {
            I::GatherGreen => Some("y"),
            I::GatherBlue => Some("z"),
            I::GatherAlpha => Some("w"),
            _ => None,
        };
        match (offset, component) {
            (Some(o), Some(c)) => {
                parts.push(o);
                parts.push(format!("component::{c}"));
            }
            (None, Some(c)) => {
                parts.push("int2(0)".into());
                parts.push(format!("component::{c}"));
            }
            (Some(o), None) => parts.push(o),
            (None, None) => {}
        }
        let method = if compare { "gather_compare" } else { "gather" };
        Ok(format!("{tex}.{method}({})", parts.join(", ")))
    }

    fn load(&self, ctx: &mut FnCtx, call: Call<'_>) -> Result<String> {
        let Call { args, expr: e, .. } = call;
        let span = ctx.span(e);
        let object_ty = ctx.ty(args[0]);
        match object_ty.map(|t| &self.module.types[t].inner) {
            Some(TypeInner::Buffer {
                kind: ir::BufferKind::Structured,
                ..
            }) => {
                if args.len() != 2 {
                    return unsupported("`Load` with a status argument", span);
                }
                let b = self.expr(ctx, args[0])?;
                let i = self.expr(ctx, args[1])?;
                Ok(format!("{b}[{i}]"))
            }
            Some(TypeInner::Buffer {
                kind: ir::BufferKind::ByteAddress,
                ..
            }) => self.byte_address_load(
                ctx,
                Call {
                    fun: I::Load,
                    ..call
                },
            ),
            Some(TypeInner::Buffer {
                kind: ir::BufferKind::Typed,
                ..
            }) => {
                // A `texture_buffer` read.
                if args.len() != 2 {
                    return unsupported("`Load` with a status argument", span);
                }
                let (tex, tex_ty) = self.texture(ctx, args[0], span)?;
                let coords = self.texel_coords(ctx, tex_ty, args[1], span)?;
                let read = format!("{tex}.read({coords})");
                Ok(self.narrow_texel(tex_ty, read, ctx.ty(e)))
            }
            Some(&TypeInner::Texture(t)) => {
                let (tex, tex_ty) = self.texture(ctx, args[0], span)?;
                if t.dim == ir::TextureDim::Cube {
                    return unsupported("`Load` of a cube texture", span);
                }
                let n = types::coordinate_count(t.dim);
                let layer = u8::from(t.arrayed);
                let mip = u8::from(!t.multisampled && t.access == ir::ResourceAccess::Read);
                let extra = if t.multisampled { 1 } else { 0 };
                if args.len() != 2 + extra {
                    return unsupported("`Load` with an offset or status argument", span);
                }
                if !is_pure(ctx.exprs, args[1]) {
                    return unsupported("`Load` coordinates with side effects", span);
                }
                let c = self.expr(ctx, args[1])?;
                let xyzw = ['x', 'y', 'z', 'w'];
                let mut parts = vec![uint_coords(&c, n, n + layer + mip)];
                for k in n..n + layer + mip {
                    parts.push(format!("uint({c}.{})", xyzw[k as usize]));
                }
                if t.multisampled {
                    parts.push(format!("uint({})", self.expr(ctx, args[2])?));
                }
                let read = format!("{tex}.read({})", parts.join(", "));
                Ok(self.narrow_texel(tex_ty, read, ctx.ty(e)))
            }
            _ => unsupported("`Load` of this resource", span),
        }
    }

    /// `buf[a / 4u]`, `uint2(buf[a / 4u], buf[a / 4u + 1u])` ...
    fn byte_address_load(&self, ctx: &mut FnCtx, call: Call<'_>) -> Result<String> {
        if call.args.len() != 2 {
            return unsupported("a byte-address `Load` with a status argument", call.span);
        }
        let count = cfamily::intrinsics::words(call.fun);
        if count > 1 && !is_pure(ctx.exprs, call.args[1]) {
            return unsupported("a byte address with side effects", call.span);
        }
        self.load_words(ctx, call.args, count, "uint", |k| (k > 0).then_some(k))
    }

    /// `buf[a / 4u] = v;`, one line a word.
    fn byte_address_store(&self, ctx: &mut FnCtx, call: Call<'_>) -> Result<Vec<String>> {
        let Call {
            fun, args, span, ..
        } = call;
        let count = cfamily::intrinsics::words(fun);
        if args.len() != 3 {
            return unsupported("a byte-address `Store` of this form", span);
        }
        if count > 1 && !(is_pure(ctx.exprs, args[1]) && is_pure(ctx.exprs, args[2])) {
            return unsupported("a byte-address store with side effects", span);
        }
        let xyzw = ['x', 'y', 'z', 'w'];
        self.store_words(ctx, args, count, |v, k| format!("{v}.{}", xyzw[k]))
    }

    /// `w = T(t.get_width(mip)); ...`.
    fn get_dimensions(&self, ctx: &mut FnCtx, call: Call<'_>) -> Result<Vec<String>> {
        let Call { args, span, .. } = call;
        if let Some(TypeInner::Buffer {
            kind: ir::BufferKind::Typed,
            ..
        }) = ctx.ty(args[0]).map(|t| &self.module.types[t].inner)
        {
            // A `texture_buffer` knows its length.
            let (tex, _) = self.texture(ctx, args[0], span)?;
            let [_, out] = args else {
                return unsupported("this form of `GetDimensions`", span);
            };
            let place = self.place(ctx, *out)?;
            let ty = self.spell_of(ctx, *out)?;
            return Ok(vec![format!("{place} = {ty}({tex}.get_width());")]);
        }
        let Some(TypeInner::Texture(t)) =
            ctx.ty(args[0]).map(|t| self.module.types[t].inner.clone())
        else {
            return unsupported(
                "`GetDimensions` of a buffer (Metal buffers carry no length)",
                span,
            );
        };
        let (tex, _) = self.texture(ctx, args[0], span)?;
        let mut queries: Vec<&str> = match t.dim {
            ir::TextureDim::D1 => vec!["get_width"],
            ir::TextureDim::D2 | ir::TextureDim::Cube => vec!["get_width", "get_height"],
            ir::TextureDim::D3 => vec!["get_width", "get_height", "get_depth"],
        };
        if t.arrayed {
            queries.push("get_array_size");
        }
        if t.multisampled {
            queries.push("get_num_samples");
        }
        let outs = &args[1..];
        let (mip, outs) = if outs.len() == queries.len() {
            (None, outs)
        } else if outs.len() == queries.len() + 2 && !t.multisampled {
            queries.push("get_num_mip_levels");
            (Some(self.expr(ctx, outs[0])?), &outs[1..])
        } else {
            return unsupported("this form of `GetDimensions`", span);
        };
        let mut lines = Vec::new();
        for (q, out) in queries.iter().zip(outs) {
            let place = self.place(ctx, *out)?;
            let ty = self.spell_of(ctx, *out)?;
            let level = match (&mip, *q) {
                (Some(m), "get_width" | "get_height" | "get_depth") => format!("uint({m})"),
                _ => String::new(),
            };
            lines.push(format!("{place} = {ty}({tex}.{q}({level}));"));
        }
        Ok(lines)
    }
}

/// `uint2(c)` of the first `n` of `total` components of `c`.
fn uint_coords(c: &str, n: u8, total: u8) -> String {
    let ty = if n == 1 {
        "uint".to_string()
    } else {
        format!("uint{n}")
    };
    if n == total {
        format!("{ty}({c})")
    } else {
        let xyz: String = ['x', 'y', 'z', 'w'][..n as usize].iter().collect();
        format!("{ty}({c}.{xyz})")
    }
}

fn two(a: &[String], span: Span) -> Result<[&String; 2]> {
    match a {
        [x, y] => Ok([x, y]),
        _ => unsupported("a two-argument intrinsic with another count", span),
    }
}

impl Intrinsics for Writer<'_> {
    /// Intrinsics that are statements in MSL (or only make sense as
    /// them); `None` for the ones printed as expressions.
    fn intrinsic_statement(&self, ctx: &mut FnCtx, call: Call<'_>) -> Result<Option<Lines>> {
        let Call {
            fun, args, span, ..
        } = call;
        Ok(Some(match fun {
            I::BeginInvocationInterlock | I::EndInvocationInterlock => {
                return unsupported(
                    format!(
                        "`{}` (Metal orders fragments per resource, with raster order \
                         groups, not with a critical section)",
                        fun.name()
                    ),
                    span,
                );
            }
            I::WorkgroupUniformLoad => {
                return unsupported("`workgroupUniformLoad` (not yet)", span);
            }
            I::Clip => {
                let x = self.expr(ctx, args[0])?;
                if self.is_vector(ctx, args[0]) {
                    vec![format!("if (any({x} < 0)) discard_fragment();")]
                } else {
                    vec![format!("if ({x} < 0) discard_fragment();")]
                }
            }
            I::SinCos => {
                if !is_pure(ctx.exprs, args[0]) {
                    return unsupported("`sincos` of a value with side effects", span);
                }
                let x = self.expr(ctx, args[0])?;
                let s = self.place(ctx, args[1])?;
                let c = self.place(ctx, args[2])?;
                vec![format!("{s} = sin({x});"), format!("{c} = cos({x});")]
            }
            // Metal's `threadgroup_barrier` is a control barrier of the
            // threadgroup that also orders the memory its flags name; MSL
            // before 3.2 has no memory-only fence, so a non-sync HLSL
            // barrier is written as the sync one: stronger, so correct
            // wherever the threadgroup reaches it together (as Metal
            // requires of every `threadgroup_barrier`).
            I::GroupMemoryBarrier | I::GroupMemoryBarrierWithGroupSync => {
                vec!["threadgroup_barrier(mem_flags::mem_threadgroup);".into()]
            }
            I::DeviceMemoryBarrier | I::DeviceMemoryBarrierWithGroupSync => {
                vec!["threadgroup_barrier(mem_flags::mem_device | mem_flags::mem_texture);".into()]
            }
            I::AllMemoryBarrier | I::AllMemoryBarrierWithGroupSync => vec![
                "threadgroup_barrier(mem_flags::mem_device | mem_flags::mem_threadgroup | mem_flags::mem_texture);"
                    .into(),
            ],
            // B21: Metal has no vertex count; the primitive count is the
            // mesh object's.
            I::SetMeshOutputCounts => {
                let mesh = ctx
                    .params
                    .iter()
                    .position(|p| {
                        matches!(self.module.types[p.ty].inner, TypeInner::MeshOutput { .. })
                    })
                    .filter(|_| ctx.is_entry)
                    .map(|i| ctx.param_names[i].clone());
                let Some(mesh) = mesh else {
                    return unsupported(
                        "`SetMeshOutputCounts` outside a mesh function with outputs",
                        span,
                    );
                };
                let primitives = self.expr(ctx, args[1])?;
                vec![format!("{mesh}.set_primitive_count({primitives});")]
            }
            // B21: the payload goes to the mesh functions through the
            // `object_data` pointer, the grid size through
            // `mesh_grid_properties`; the thread ends there as in HLSL.
            I::DispatchMesh => {
                let payload = ctx.state.and_then(|k| self.object_payloads[k].clone());
                let Some((payload, grid, _)) = payload else {
                    return unsupported("`DispatchMesh` outside an object function", span);
                };
                let x = self.expr(ctx, args[0])?;
                let y = self.expr(ctx, args[1])?;
                let z = self.expr(ctx, args[2])?;
                let value = self.expr(ctx, args[3])?;
                vec![
                    format!("*{payload} = {value};"),
                    format!("{grid}.set_threadgroups_per_grid(uint3({x}, {y}, {z}));"),
                    "return;".into(),
                ]
            }
            I::GetDimensions => self.get_dimensions(ctx, call)?,
            I::Store | I::Store2 | I::Store3 | I::Store4 => self.byte_address_store(ctx, call)?,
            _ => return Ok(None),
        }))
    }

    fn intrinsic(&self, ctx: &mut FnCtx, call: Call<'_>) -> Result<String> {
        let Call {
            fun, args, expr: e, ..
        } = call;
        let span = ctx.span(e);
        if let Some(text) = self.typed_math(ctx, call)? {
            return Ok(text);
        }
        if let Some(name) = renamed(fun) {
            if matches!(fun, I::Fma) && self.scalar_of(ctx, e).is_some_and(|s| s.width == 8) {
                return unsupported("`fma` of doubles", span);
            }
            let a = self.args(ctx, args)?;
            return Ok(format!("{name}({})", a.join(", ")));
        }
        let result_scalar = self.scalar_of(ctx, e);
        Ok(match fun {
            I::Mul => {
                let a = self.args(ctx, args)?;
                let [x, y] = two(&a, span)?;
                let matrix = |h: Handle<Expression>| {
                    ctx.ty(h).is_some_and(|t| {
                        matches!(self.module.types[t].inner, TypeInner::Matrix { .. })
                    })
                };
                if matrix(args[0]) || matrix(args[1]) {
                    format!("({y} * {x})")
                } else if self.is_vector(ctx, args[0]) && self.is_vector(ctx, args[1]) {
                    if self
                        .scalar_of(ctx, args[0])
                        .is_some_and(|s| s.kind != ScalarKind::Float)
                    {
                        self.int_dot(ctx, args[0], &a, span)?
                    } else {
                        format!("dot({x}, {y})")
                    }
                } else {
                    format!("({x} * {y})")
                }
            }
            I::Mad => {
                let a = self.args(ctx, args)?;
                if result_scalar.is_some_and(|s| s.kind == ScalarKind::Float) {
                    format!("fma({})", a.join(", "))
                } else if let [x, y, z] = a.as_slice() {
                    format!("(({x} * {y}) + {z})")
                } else {
                    return unsupported("`mad` without three arguments", span);
                }
            }
            I::Rcp => {
                let a = self.args(ctx, args)?;
                format!("(1.0 / {})", a.join(", "))
            }
            I::Degrees => format!("({} * 57.29577951308232)", self.args(ctx, args)?.join(", ")),
            I::Radians => format!(
                "({} * 0.017453292519943295)",
                self.args(ctx, args)?.join(", ")
            ),
            I::AsFloat | I::AsInt | I::AsUint | I::AsFloat16 | I::AsInt16 | I::AsUint16 => {
                if args.len() != 1 {
                    return unsupported(
                        format!("`{}` with {} arguments", fun.name(), args.len()),
                        span,
                    );
                }
                let a = self.args(ctx, args)?;
                format!("as_type<{}>({})", self.spell_of(ctx, e)?, a[0])
            }
            I::F16ToF32 if !self.is_vector(ctx, args[0]) => {
                let a = self.args(ctx, args)?;
                format!("float(as_type<half>(ushort({} & 0xFFFFu)))", a[0])
            }
            I::F32ToF16 if !self.is_vector(ctx, args[0]) => {
                let a = self.args(ctx, args)?;
                format!("uint(as_type<ushort>(half({})))", a[0])
            }
            I::Modf => {
                let x = self.expr(ctx, args[0])?;
                let ip = self.place(ctx, args[1])?;
                format!("modf({x}, {ip})")
            }
            I::NonUniformResourceIndex => self.expr(ctx, args[0])?,
            I::WaveReadLaneAt | I::QuadReadLaneAt => {
                let a = self.args(ctx, args)?;
                let [x, lane] = two(&a, span)?;
                let f = if fun == I::WaveReadLaneAt {
                    "simd_shuffle"
                } else {
                    "quad_shuffle"
                };
                format!("{f}({x}, ushort({lane}))")
            }
            I::QuadReadAcrossX | I::QuadReadAcrossY | I::QuadReadAcrossDiagonal => {
                let a = self.args(ctx, args)?;
                let mask = match fun {
                    I::QuadReadAcrossX => 1,
                    I::QuadReadAcrossY => 2,
                    _ => 3,
                };
                format!("quad_shuffle_xor({}, ushort({mask}))", a.join(", "))
            }
            _ if fun.is_sample() => self.sample(ctx, call)?,
            _ if fun.is_gather() => self.gather(ctx, call)?,
            I::CalculateLevelOfDetail | I::CalculateLevelOfDetailUnclamped => {
                let (tex, _) = self.texture(ctx, args[0], span)?;
                let a = self.args(ctx, &args[1..])?;
                let f = if fun == I::CalculateLevelOfDetail {
                    "calculate_clamped_lod"
                } else {
                    "calculate_unclamped_lod"
                };
                format!("{tex}.{f}({})", a.join(", "))
            }
            I::Load => self.load(ctx, call)?,
            I::Load2 | I::Load3 | I::Load4 => self.byte_address_load(ctx, call)?,
            // The input is the fragment's own `[[color(n)]]` value.
            I::SubpassLoad if args.len() == 1 => self.args(ctx, args)?.remove(0),
            I::SubpassLoad => {
                return unsupported(
                    "the sample index of a multisampled subpass input (Metal framebuffer \
                     fetch reads the fragment's own sample)",
                    span,
                );
            }
            _ => return unsupported(format!("`{}` as a value", fun.name()), span),
        })
    }
}
