//! Methods of textures and buffers (the object is the first argument):
//! sampling, fetches, `GetDimensions`, byte-address loads and stores,
//! append/consume and counters.
//!
//! Where a GLSL spelling needs an operand twice (a `Load` coordinate split
//! into position and mip level, a byte address read for several words) and
//! the operand has side effects, it goes through a module-scope temporary
//! with the comma operator, so it is evaluated once and where HLSL
//! evaluates it; pure operands are printed in place.

use legalis_ir as ir;
use legalis_ir::{BufferKind, Expression, Handle, Intrinsic as I, ResourceAccess, TextureDim};
use legalis_ir::{ScalarKind, TypeInner};
use legalis_layout::Layouter;

use super::writer::{Ctx, Result, Writer, unsupported};

/// Sampling methods that are one GLSL lookup: the function, how many
/// operands follow the coordinate before the optional offset, and whether
/// that operand is a bias (GLSL puts the bias after the offset). A data
/// table.
const SAMPLES: &[(I, &str, usize, bool)] = &[
    (I::Sample, "texture", 0, false),
    (I::SampleBias, "texture", 1, true),
    (I::SampleLevel, "textureLod", 1, false),
    (I::SampleGrad, "textureGrad", 2, false),
];

/// Gathers: the component each gathers. A data table.
const GATHERS: &[(I, u32)] = &[
    (I::Gather, 0),
    (I::GatherRed, 0),
    (I::GatherGreen, 1),
    (I::GatherBlue, 2),
    (I::GatherAlpha, 3),
];

struct TexInfo {
    dim: TextureDim,
    arrayed: bool,
    texel: Handle<ir::Type>,
    /// A `sampler2D` (`Sampler2D`): its own sampler, fetched and queried in
    /// core GLSL (no samplerless-texture extension).
    combined: bool,
    /// `Sampler2DShadow` ... (with `combined`), `DepthTexture2D` ...
    shadow: bool,
}

impl TexInfo {
    /// Coordinate components, array layer included.
    fn coords(&self) -> usize {
        let n = match self.dim {
            TextureDim::D1 => 1,
            TextureDim::D2 => 2,
            _ => 3,
        };
        n + self.arrayed as usize
    }
}

impl Writer<'_> {
    /// Texture and buffer methods; the object is `args[0]`.
    pub(super) fn method(
        &mut self,
        ctx: &Ctx,
        e: Handle<Expression>,
        fun: I,
        args: &[Handle<Expression>],
    ) -> Result<String> {
        let span = ctx.exprs.span(e);
        let obj_ty = self.expr_ty(ctx, args[0])?;
        match self.inner(obj_ty).clone() {
            TypeInner::Texture(ir::Texture {
                dim,
                arrayed,
                multisampled,
                texel,
                access: ResourceAccess::Read,
                combined,
                shadow,
                ..
            }) => {
                let tex = TexInfo {
                    dim,
                    arrayed,
                    texel,
                    combined,
                    shadow,
                };
                let a = self.args(ctx, args)?;
                if multisampled && fun == I::Load {
                    if !combined {
                        self.require("GL_EXT_samplerless_texture_functions");
                    }
                    let fetch = format!("texelFetch({}, {}, {})", a[0], a[1], a[2]);
                    return self.narrow_texel(texel, fetch, span);
                }
                self.texture_method(ctx, e, fun, &tex, args, &a)
            }
            // `subpassLoad` gives a 4-vector of the texel's scalar.
            TypeInner::SubpassInput { texel, .. } if fun == I::SubpassLoad => {
                let a = self.args(ctx, args)?;
                self.narrow_texel(texel, format!("subpassLoad({})", a.join(", ")), span)
            }
            TypeInner::Buffer {
                kind: BufferKind::ByteAddress,
                ..
            } if matches!(fun, I::Load | I::Load2 | I::Load3 | I::Load4) => {
                self.byte_load(ctx, fun, args)
            }
            TypeInner::Buffer { .. }
                if matches!(
                    fun,
                    I::Append | I::Consume | I::IncrementCounter | I::DecrementCounter
                ) =>
            {
                self.counter_method(ctx, fun, args)
            }
            TypeInner::Buffer {
                kind: BufferKind::Structured | BufferKind::Typed,
                ..
            }
            | TypeInner::Texture(_)
                if fun == I::Load =>
            {
                self.resource_element(ctx, args[0], args[1])
            }
            _ => unsupported(format!("the method `{}` here", fun.name()), span),
        }
    }

    fn args(&mut self, ctx: &Ctx, args: &[Handle<Expression>]) -> Result<Vec<String>> {
        let mut a = Vec::new();
        for &x in args {
            a.push(self.expr(ctx, x)?);
        }
        Ok(a)
    }

    /// `e` printed for use once in place, or, when it has side effects and
    /// is needed more than once, a temporary and the `temp = e, ` prefix
    /// that sets it.
    fn once(
        &mut self,
        ctx: &Ctx,
        e: Handle<Expression>,
        ty: Option<&str>,
    ) -> Result<(String, String)> {
        let text = self.expr(ctx, e)?;
        if self.is_pure(ctx, e) {
            return Ok((String::new(), text));
        }
        let t = match ty {
            Some(t) => t.to_string(),
            None => {
                let ty = self.expr_ty(ctx, e)?;
                self.type_name(ty, ctx.exprs.span(e))?
            }
        };
        let temp = self.temp(t.clone());
        let value = if ty.is_some() {
            format!("{t}({text})")
        } else {
            text
        };
        Ok((format!("{temp} = {value}, "), temp))
    }

    /// `Append(v)`, `Consume()`, `IncrementCounter()`, `DecrementCounter()`
    /// on the buffer's counter block (see `resources.rs`).
    fn counter_method(&mut self, ctx: &Ctx, fun: I, args: &[Handle<Expression>]) -> Result<String> {
        let counter = self.counter_of(ctx, args[0])?;
        let b = self.expr(ctx, args[0])?;
        let add = |delta: &str| format!("atomicAdd({counter}.count, {delta})");
        Ok(match fun {
            I::Append => format!("{b}.data[{}] = {}", add("1u"), self.expr(ctx, args[1])?),
            I::Consume => format!("{b}.data[{} - 1u]", add("0xFFFFFFFFu")),
            I::IncrementCounter => add("1u"),
            _ => format!("({} - 1u)", add("0xFFFFFFFFu")),
        })
    }

    fn sampler_of(&self, tex: &TexInfo, shadow: bool) -> String {
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
        format!(
            "{}sampler{d}{}{}",
            if shadow { "" } else { p },
            if tex.arrayed { "Array" } else { "" },
            if shadow { "Shadow" } else { "" }
        )
    }

    /// The sampler a lookup goes through: `sampler2D(t, s)` from a texture
    /// and a sampler, or the combined texture-sampler itself (`a[1]` is then
    /// the same object; see the front end's `lower_method_call`).
    fn combine(&self, tex: &TexInfo, shadow: bool, a: &[String], span: ir::Span) -> Result<String> {
        if !tex.combined {
            return Ok(format!(
                "{}({}, {})",
                self.sampler_of(tex, shadow),
                a[0],
                a[1]
            ));
        }
        if shadow != tex.shadow {
            return unsupported(
                "comparison sampling of a combined sampler that is not a `Shadow` one, or \
                 plain sampling of a `Shadow` one (GLSL's `sampler2DShadow` ... only compare)",
                span,
            );
        }
        Ok(a[0].clone())
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
        let shadow = fun.compares();
        let comb = self.combine(tex, shadow, a, span)?;
        if let Some(&(_, f, extra, bias)) = SAMPLES.iter().find(|s| s.0 == fun) {
            let value = self.sample(f, extra, bias, &comb, a, span)?;
            return self.narrow_texel(tex.texel, value, span);
        }
        if let Some(&(_, comp)) = GATHERS.iter().find(|g| g.0 == fun) {
            return Ok(match a.get(3) {
                Some(o) => format!("textureGatherOffset({comb}, {}, {o}, {comp})", a[2]),
                None => format!("textureGather({comb}, {}, {comp})", a[2]),
            });
        }
        match fun {
            I::GatherCmp | I::GatherCmpRed => Ok(match a.get(4) {
                Some(o) => format!("textureGatherOffset({comb}, {}, {}, {o})", a[2], a[3]),
                None => format!("textureGather({comb}, {}, {})", a[2], a[3]),
            }),
            // `.x` is the level that would be accessed (clamped to the
            // texture's levels), `.y` the computed, unclamped level.
            I::CalculateLevelOfDetail => Ok(format!("textureQueryLod({comb}, {}).x", a[2])),
            I::CalculateLevelOfDetailUnclamped => {
                Ok(format!("textureQueryLod({comb}, {}).y", a[2]))
            }
            I::SampleCmp | I::SampleCmpLevelZero => self.sample_cmp(ctx, fun, tex, args, a),
            I::SampleCmpLevel | I::SampleCmpGrad | I::SampleCmpBias => {
                self.sample_cmp_explicit(ctx, fun, tex, args, a)
            }
            I::Load => self.texture_load(ctx, e, tex, args),
            _ => unsupported(format!("the texture method `{}`", fun.name()), span),
        }
    }

    /// One row of [`SAMPLES`]: `a` is object, sampler, coordinate, the
    /// `extra` operands, then the optional offset and LOD clamp.
    fn sample(
        &mut self,
        f: &str,
        extra: usize,
        bias: bool,
        comb: &str,
        a: &[String],
        span: ir::Span,
    ) -> Result<String> {
        let operands = &a[3..3 + extra];
        let offset = a.get(3 + extra);
        let clamp = a.get(4 + extra);
        let mut list = vec![comb.to_string(), a[2].clone()];
        if !bias {
            list.extend(operands.iter().cloned());
        }
        if let Some(o) = offset {
            list.push(o.clone());
        }
        if bias {
            list.extend(operands.iter().cloned());
        }
        let name = match (offset, clamp) {
            (_, Some(c)) if f == "texture" && !bias => {
                // `textureOffsetClampARB(s, uv, offset, clamp)`.
                self.require("GL_ARB_sparse_texture_clamp");
                list.push(c.clone());
                "textureOffsetClampARB".to_string()
            }
            (_, Some(_)) => return unsupported("this lookup with a LOD clamp", span),
            (Some(_), None) => format!("{f}Offset"),
            (None, None) => f.to_string(),
        };
        Ok(format!("{name}({})", list.join(", ")))
    }

    /// A shadow lookup's combined sampler and its coordinate with the
    /// reference value joined (`vecN+1(uv, ref)`; a 1D one as
    /// `vec3(u, 0.0, ref)`); cube arrays are refused.
    fn shadow_sampler_and_coord(
        &mut self,
        tex: &TexInfo,
        a: &[String],
        span: ir::Span,
    ) -> Result<(String, String)> {
        let s = self.combine(tex, true, a, span)?;
        let coords = tex.coords();
        if coords >= 4 {
            return unsupported("comparison sampling of cube arrays", span);
        }
        let coord = match coords {
            1 => format!("vec3({}, 0.0, {})", a[2], a[3]),
            n => format!("vec{}({}, {})", n + 1, a[2], a[3]),
        };
        Ok((s, coord))
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
        let (s, coord) = self.shadow_sampler_and_coord(tex, a, span)?;
        let lod_zero = fun == I::SampleCmpLevelZero;
        let plain = !tex.arrayed && tex.dim != TextureDim::Cube;
        match (lod_zero, a.get(4)) {
            (false, None) => Ok(format!("texture({s}, {coord})")),
            (false, Some(o)) => Ok(format!("textureOffset({s}, {coord}, {o})")),
            (true, None) if plain => Ok(format!("textureLod({s}, {coord}, 0.0)")),
            (true, Some(o)) if plain => Ok(format!("textureLodOffset({s}, {coord}, 0.0, {o})")),
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

    /// `SampleCmpLevel`, `SampleCmpGrad` and `SampleCmpBias`: `a` is
    /// object, sampler, coordinate, compare value, the LOD, bias or two
    /// gradients, then the optional offset. Shadow samplers of arrays and
    /// cubes take a LOD, and a 2D array one a bias, only through
    /// `GL_EXT_texture_shadow_lod`, which glslang does not read: those are
    /// refused.
    fn sample_cmp_explicit(
        &mut self,
        ctx: &Ctx,
        fun: I,
        tex: &TexInfo,
        args: &[Handle<Expression>],
        a: &[String],
    ) -> Result<String> {
        let span = ctx.exprs.span(args[0]);
        let (s, coord) = self.shadow_sampler_and_coord(tex, a, span)?;
        let plain = !tex.arrayed && tex.dim != TextureDim::Cube;
        let cube = tex.dim == TextureDim::Cube;
        let array_2d = tex.arrayed && tex.dim == TextureDim::D2;
        let (extra, offset) = match fun {
            I::SampleCmpGrad => (vec![a[4].clone(), a[5].clone()], a.get(6)),
            _ => (vec![a[4].clone()], a.get(5)),
        };
        if offset.is_some() && cube {
            return unsupported(format!("`{}` with an offset on a cube", fun.name()), span);
        }
        let name = match fun {
            I::SampleCmpLevel => {
                if !plain {
                    return unsupported(
                        "`SampleCmpLevel` on an array or cube texture (GLSL needs \
                         GL_EXT_texture_shadow_lod for it)",
                        span,
                    );
                }
                if offset.is_some() {
                    "textureLodOffset"
                } else {
                    "textureLod"
                }
            }
            I::SampleCmpGrad if offset.is_some() => "textureGradOffset",
            I::SampleCmpGrad => "textureGrad",
            _ => {
                if array_2d {
                    return unsupported(
                        "`SampleCmpBias` on a 2D array texture (GLSL needs \
                         GL_EXT_texture_shadow_lod for it)",
                        span,
                    );
                }
                if offset.is_some() {
                    "textureOffset"
                } else {
                    "texture"
                }
            }
        };
        let mut list = vec![s, coord];
        if fun == I::SampleCmpBias {
            list.extend(offset.cloned());
            list.extend(extra);
        } else {
            list.extend(extra);
            list.extend(offset.cloned());
        }
        Ok(format!("{name}({})", list.join(", ")))
    }

    /// `Load(int3(xy, mip))`: GLSL takes the mip level separately, so the
    /// coordinate is read twice (through a temporary when it has effects).
    fn texture_load(
        &mut self,
        ctx: &Ctx,
        e: Handle<Expression>,
        tex: &TexInfo,
        args: &[Handle<Expression>],
    ) -> Result<String> {
        let span = ctx.exprs.span(e);
        if tex.dim == TextureDim::Cube {
            return unsupported("`Load` on a cube texture (HLSL has no such method)", span);
        }
        if !tex.combined {
            self.require("GL_EXT_samplerless_texture_functions");
        }
        let t = self.expr(ctx, args[0])?;
        let (set, coord) = self.once(ctx, args[1], None)?;
        let coord = if set.is_empty() {
            format!("({coord})")
        } else {
            coord
        };
        let (c, mip) = match tex.coords() {
            1 => (format!("{coord}.x"), format!("{coord}.y")),
            2 => (format!("{coord}.xy"), format!("{coord}.z")),
            _ => (format!("{coord}.xyz"), format!("{coord}.w")),
        };
        let fetch = match args.get(2) {
            Some(&o) => format!("texelFetchOffset({t}, {c}, {mip}, {})", self.expr(ctx, o)?),
            None => format!("texelFetch({t}, {c}, {mip})"),
        };
        let value = self.narrow_texel(tex.texel, fetch, span)?;
        Ok(if set.is_empty() {
            value
        } else {
            format!("({set}{value})")
        })
    }

    /// `GetDimensions(...)`: each `out` argument gets its value, converted
    /// to its own type; the assignments are joined with the comma operator
    /// so the statement also fits a `for` header.
    pub(super) fn get_dimensions(
        &mut self,
        ctx: &Ctx,
        e: Handle<Expression>,
        args: &[Handle<Expression>],
    ) -> Result<String> {
        let span = ctx.exprs.span(e);
        let obj = self.expr(ctx, args[0])?;
        let ty = self.expr_ty(ctx, args[0])?;
        let (mut values, first_out) = match self.inner(ty).clone() {
            TypeInner::Texture(t) => {
                let shape = (t.dim, t.arrayed, t.multisampled, t.access, t.combined);
                self.texture_dimensions(ctx, &obj, shape, args)?
            }
            TypeInner::Buffer {
                kind: BufferKind::ByteAddress,
                ..
            } => (vec![format!("({obj}.data.length() * 4)")], 1),
            TypeInner::Buffer {
                element: Some(elem),
                kind: BufferKind::Structured | BufferKind::Append | BufferKind::Consume,
                ..
            } => {
                // The stride of the std430 (or scalar) `data[]` array the
                // buffer is (GLSL spells integer matrices as arrays of rows).
                let stride = Layouter::new(self.module, self.storage_rule())
                    .int_matrices_as_rows()
                    .array_stride(elem, None)
                    .or_else(|e| unsupported(e.what(), e.span()))?;
                (vec![format!("{obj}.data.length()"), stride.to_string()], 1)
            }
            TypeInner::Buffer {
                kind: BufferKind::Typed,
                access,
                ..
            } => {
                let size = if access == ResourceAccess::Read {
                    self.require("GL_EXT_samplerless_texture_functions");
                    format!("textureSize({obj})")
                } else {
                    format!("imageSize({obj})")
                };
                (vec![size], 1)
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
        Ok(stmts.join(", "))
    }

    /// Values of a texture's `GetDimensions` outputs (sizes, then samples
    /// or levels) and the index of the first output argument.
    fn texture_dimensions(
        &mut self,
        ctx: &Ctx,
        obj: &str,
        (dim, arrayed, multisampled, access, combined): (
            TextureDim,
            bool,
            bool,
            ResourceAccess,
            bool,
        ),
        args: &[Handle<Expression>],
    ) -> Result<(Vec<String>, usize)> {
        let n = match dim {
            TextureDim::D1 => 1,
            TextureDim::D2 | TextureDim::Cube => 2,
            TextureDim::D3 => 3,
        } + arrayed as usize;
        let sampled = access == ResourceAccess::Read && !multisampled;
        let with_mip = sampled && args.len() == n + 3;
        let size = if access != ResourceAccess::Read {
            format!("imageSize({obj})")
        } else {
            if !combined {
                self.require("GL_EXT_samplerless_texture_functions");
            }
            if multisampled {
                format!("textureSize({obj})")
            } else if with_mip {
                format!("textureSize({obj}, int({}))", self.expr(ctx, args[1])?)
            } else {
                format!("textureSize({obj}, 0)")
            }
        };
        let mut v: Vec<String> = ["x", "y", "z"][..n]
            .iter()
            .map(|c| match n {
                1 => size.clone(),
                _ => format!("{size}.{c}"),
            })
            .collect();
        if multisampled {
            v.push(format!("textureSamples({obj})"));
        }
        if with_mip {
            v.push(format!("textureQueryLevels({obj})"));
        }
        Ok((v, if with_mip { 2 } else { 1 }))
    }

    /// `Load{,2,3,4}(address)`: consecutive words from `address / 4`.
    fn byte_load(&mut self, ctx: &Ctx, fun: I, args: &[Handle<Expression>]) -> Result<String> {
        let n = words(fun);
        let b = self.expr(ctx, args[0])?;
        let (set, word) = self.word_index(ctx, args[1], n)?;
        let loads: Vec<String> = (0..n)
            .map(|i| format!("{b}.data[{word}{}]", plus(i)))
            .collect();
        let value = match n {
            1 => loads[0].clone(),
            _ => format!("uvec{n}({})", loads.join(", ")),
        };
        Ok(if set.is_empty() {
            value
        } else {
            format!("({set}{value})")
        })
    }

    /// The word index of byte address `addr`, through a temporary when the
    /// address has effects and `n` words need it.
    fn word_index(
        &mut self,
        ctx: &Ctx,
        addr: Handle<Expression>,
        n: usize,
    ) -> Result<(String, String)> {
        if n == 1 || self.is_pure(ctx, addr) {
            return Ok((
                String::new(),
                format!("(({}) >> 2u)", self.expr(ctx, addr)?),
            ));
        }
        let temp = self.temp("uint".into());
        Ok((
            format!("{temp} = uint({}) >> 2u, ", self.expr(ctx, addr)?),
            temp,
        ))
    }

    /// `Store{,2,3,4}(address, value)`: one word per component, address and
    /// value each evaluated once, in that order.
    pub(super) fn byte_store(
        &mut self,
        ctx: &Ctx,
        e: Handle<Expression>,
        fun: I,
        args: &[Handle<Expression>],
    ) -> Result<String> {
        let span = ctx.exprs.span(e);
        let n = words(fun);
        let b = self.expr(ctx, args[0])?;
        let (set_addr, word) = self.word_index(ctx, args[1], n)?;
        let (mut set_value, mut value) = (String::new(), self.expr(ctx, args[2])?);
        if n > 1 && (!set_addr.is_empty() || !self.is_pure(ctx, args[2])) {
            let ty = self.expr_ty(ctx, args[2])?;
            let t = self.type_name(ty, span)?;
            let temp = self.temp(t);
            set_value = format!("{temp} = {value}, ");
            value = temp;
        }
        let stores: Vec<String> = (0..n)
            .map(|i| {
                let comp = if n == 1 {
                    String::new()
                } else {
                    format!(".{}", ["x", "y", "z", "w"][i])
                };
                format!("{b}.data[{word}{}] = ({value}){comp}", plus(i))
            })
            .collect();
        Ok(format!("{set_addr}{set_value}{}", stores.join(", ")))
    }
}

fn words(fun: I) -> usize {
    match fun {
        I::Load2 | I::Store2 => 2,
        I::Load3 | I::Store3 => 3,
        I::Load4 | I::Store4 => 4,
        _ => 1,
    }
}

fn plus(i: usize) -> String {
    if i == 0 {
        String::new()
    } else {
        format!(" + {i}u")
    }
}
