//! Resources: descriptor bindings, declarations, and the texture and buffer
//! operations that read or write them.
//!
//! HLSL resources become Vulkan GLSL separate objects: `texture2D` and
//! `sampler`/`samplerShadow` combined at each use (`sampler2D(t, s)`),
//! `image2D` with a format for read-write textures, std430 `buffer` blocks
//! holding `T data[]` for structured and byte-address buffers, and std140
//! `uniform` blocks for constant buffers.

use std::collections::{BTreeSet, HashMap};
use std::fmt::Write as _;

use legalis_ir as ir;
use legalis_ir::{
    AddressSpace, BufferKind, Expression, Handle, ResourceAccess, ScalarKind, Span, TextureDim,
    TypeInner,
};

use super::writer::{Ctx, Result, Writer, unsupported};

/// `(set, binding)` per resource global.
pub(super) type BindingMap = HashMap<Handle<ir::GlobalVariable>, (u32, u32)>;

/// Descriptor `(set, binding)` of every uniform resource global, and of the
/// `_Globals` block of plain uniforms when the module has any.
///
/// `[[vk::binding(b, s)]]` wins; else `register(xN, spaceS)` gives set S,
/// binding N (all register classes share one binding space, so `t0` and `s0`
/// collide: the full binding model with per-class shifts is a later issue);
/// else the next binding in set 0 not claimed explicitly, in declaration
/// order, with `_Globals` first. Unused globals keep their numbers, so
/// removing a use never renumbers the others.
pub(super) fn assign_bindings(module: &ir::Module) -> (BindingMap, Option<(u32, u32)>) {
    let is_resource = |g: &ir::GlobalVariable| {
        g.space == AddressSpace::Uniform && module.types[g.ty].inner.is_resource()
            || matches!(&module.types[g.ty].inner, TypeInner::Array { base, .. } if module.types[*base].inner.is_resource())
    };
    let mut bindings = HashMap::new();
    let mut taken = BTreeSet::new();
    for (h, g) in module.globals.iter().filter(|(_, g)| is_resource(g)) {
        let explicit = g
            .binding
            .vk_binding
            .map(|(b, s)| (s, b))
            .or(g.binding.register.map(|r| (r.space, r.index)));
        if let Some(sb) = explicit {
            bindings.insert(h, sb);
            taken.insert(sb);
        }
    }
    let mut next = 0;
    let mut take = |taken: &mut BTreeSet<(u32, u32)>| {
        while taken.contains(&(0, next)) {
            next += 1;
        }
        taken.insert((0, next));
        (0, next)
    };
    let has_plain = module
        .globals
        .iter()
        .any(|(_, g)| g.space == AddressSpace::Uniform && !is_resource(g));
    let globals_block = has_plain.then(|| take(&mut taken));
    for (h, _) in module.globals.iter().filter(|(_, g)| is_resource(g)) {
        bindings.entry(h).or_insert_with(|| take(&mut taken));
    }
    (bindings, globals_block)
}

fn dim_suffix(dim: TextureDim, arrayed: bool, ms: bool) -> String {
    let d = match dim {
        TextureDim::D1 => "1D",
        TextureDim::D2 => "2D",
        TextureDim::D3 => "3D",
        TextureDim::Cube => "Cube",
    };
    format!(
        "{d}{}{}",
        if ms { "MS" } else { "" },
        if arrayed { "Array" } else { "" }
    )
}

impl Writer<'_> {
    /// `""`, `"i"` or `"u"` for a texel type's scalar kind.
    fn texel_prefix(&self, texel: Handle<ir::Type>, span: Span) -> Result<&'static str> {
        match self.inner(texel).scalar().map(|s| s.kind) {
            Some(ScalarKind::Float) => Ok(""),
            Some(ScalarKind::Sint) => Ok("i"),
            Some(ScalarKind::Uint) => Ok("u"),
            _ => unsupported("this texel type", span),
        }
    }

    /// Adapts a 4-component fetch result to the texel type (`.xy`, `f16vec2(..)`).
    fn narrow_texel(
        &mut self,
        texel: Handle<ir::Type>,
        value: String,
        span: Span,
    ) -> Result<String> {
        let n = super::expr::scalar_count(self.inner(texel));
        let swz = ["", ".x", ".xy", ".xyz", ""][n.min(4) as usize];
        let v = format!("{value}{swz}");
        match self.inner(texel).scalar() {
            Some(s) if s.width == 4 => Ok(v),
            _ => Ok(format!("{}({v})", self.type_name(texel, span)?)),
        }
    }
}

/// GLSL names of opaque types (textures, images, samplers, texel buffers).
pub(super) fn opaque_type_name(w: &mut Writer, ty: Handle<ir::Type>, span: Span) -> Result<String> {
    match w.inner(ty).clone() {
        TypeInner::Texture {
            dim,
            arrayed,
            multisampled,
            access,
            texel,
            ..
        } => {
            let p = w.texel_prefix(texel, span)?;
            let d = dim_suffix(dim, arrayed, multisampled);
            match access {
                ResourceAccess::Read => Ok(format!("{p}texture{d}")),
                ResourceAccess::ReadWrite => Ok(format!("{p}image{d}")),
                ResourceAccess::RasterizerOrdered => {
                    unsupported("rasterizer-ordered textures", span)
                }
            }
        }
        TypeInner::Sampler { comparison: false } => Ok("sampler".into()),
        TypeInner::Sampler { comparison: true } => Ok("samplerShadow".into()),
        TypeInner::Buffer {
            kind: BufferKind::Typed,
            access,
            element: Some(e),
            ..
        } => {
            let p = w.texel_prefix(e, span)?;
            match access {
                ResourceAccess::Read => Ok(format!("{p}textureBuffer")),
                _ => Ok(format!("{p}imageBuffer")),
            }
        }
        _ => unsupported("this resource type here", span),
    }
}

impl Writer<'_> {
    pub fn declare_resource(
        &mut self,
        g: Handle<ir::GlobalVariable>,
        out: &mut String,
    ) -> Result<()> {
        let var = &self.module.globals[g];
        let span = self.module.globals.span(g);
        let name = self.global_names[&g].clone();
        let (set, binding) = self.bindings.get(&g).copied().unwrap_or((0, 0));
        let at = format!("set = {set}, binding = {binding}");
        let coherent = if var.globally_coherent {
            "coherent "
        } else {
            ""
        };
        match self.inner(var.ty).clone() {
            TypeInner::ConstantBuffer { inner } => {
                let members = self.member_list(inner, "    ")?;
                let block = Self::unique(&mut self.used_names, &format!("block_{name}"));
                writeln!(
                    out,
                    "layout(std140, {at}) uniform {block}\n{{\n{members}}} {name};"
                )
                .ok();
            }
            TypeInner::Buffer {
                kind: kind @ (BufferKind::Structured | BufferKind::ByteAddress),
                access,
                element,
                ..
            } => {
                let elem = match (kind, element) {
                    (BufferKind::Structured, Some(e)) => self.type_name(e, span)?,
                    _ => "uint".into(),
                };
                let ro = if access == ResourceAccess::Read {
                    "readonly "
                } else {
                    ""
                };
                if access == ResourceAccess::RasterizerOrdered {
                    return unsupported("rasterizer-ordered buffers", span);
                }
                let block = Self::unique(&mut self.used_names, &format!("block_{name}"));
                writeln!(out, "layout(std430, {at}) {coherent}{ro}buffer {block}\n{{\n    {elem} data[];\n}} {name};").ok();
            }
            TypeInner::Texture {
                access: ResourceAccess::ReadWrite,
                texel,
                normalization,
                ..
            }
            | TypeInner::Buffer {
                kind: BufferKind::Typed,
                access: ResourceAccess::ReadWrite,
                element: Some(texel),
                normalization,
                ..
            } => {
                let t = self.type_name(var.ty, span)?;
                let format = match self.image_format(texel, normalization) {
                    Some(f) => format!(", {f}"),
                    None => {
                        self.require("GL_EXT_shader_image_load_formatted");
                        String::new()
                    }
                };
                writeln!(out, "layout({at}{format}) {coherent}uniform {t} {name};").ok();
            }
            TypeInner::Texture { .. }
            | TypeInner::Sampler { .. }
            | TypeInner::Buffer {
                kind: BufferKind::Typed,
                ..
            } => {
                let (t, s) = self.type_parts(var.ty, span)?;
                writeln!(out, "layout({at}) uniform {t} {name}{s};").ok();
            }
            TypeInner::Buffer { .. } => {
                return unsupported("append/consume buffers (they need a counter)", span);
            }
            TypeInner::TextureBuffer { .. } => {
                return unsupported("`tbuffer`/`TextureBuffer`", span);
            }
            _ => return unsupported("this resource type", span),
        }
        Ok(())
    }

    /// The `layout` format of an image: 32-bit 1/2/4-component texels have
    /// one, `unorm`/`snorm` floats map to the 8-bit normalised formats;
    /// everything else reads without a format.
    fn image_format(
        &self,
        texel: Handle<ir::Type>,
        norm: Option<ir::Normalization>,
    ) -> Option<String> {
        let s = self.inner(texel).scalar()?;
        let n = super::expr::scalar_count(self.inner(texel));
        let channels = ["", "r", "rg", "", "rgba"]
            .get(n as usize)
            .copied()
            .filter(|c| !c.is_empty())?;
        match (s.kind, s.width, norm) {
            (ScalarKind::Float, 4, Some(ir::Normalization::Unorm)) => Some(format!("{channels}8")),
            (ScalarKind::Float, 4, Some(ir::Normalization::Snorm)) => {
                Some(format!("{channels}8_snorm"))
            }
            (ScalarKind::Float, 4, None) => Some(format!("{channels}32f")),
            (ScalarKind::Sint, 4, _) => Some(format!("{channels}32i")),
            (ScalarKind::Uint, 4, _) => Some(format!("{channels}32ui")),
            _ => None,
        }
    }

    /// `(image, coordinate)` when `target` is an element of a read-write
    /// texture or typed buffer, which GLSL reaches only through functions.
    pub fn image_element(
        &self,
        ctx: &Ctx,
        target: Handle<Expression>,
    ) -> Option<(Handle<Expression>, Handle<Expression>)> {
        let Expression::Index { base, index } = ctx.exprs[target] else {
            return None;
        };
        let ty = ctx.exprs.ty(base)?;
        match self.inner(ty) {
            TypeInner::Texture {
                access: ResourceAccess::ReadWrite,
                ..
            }
            | TypeInner::Buffer {
                kind: BufferKind::Typed,
                access: ResourceAccess::ReadWrite,
                ..
            } => Some((base, index)),
            _ => None,
        }
    }

    /// `ivecN(coord)` for image and fetch coordinates.
    fn int_coord(&mut self, ctx: &Ctx, coord: Handle<Expression>) -> Result<String> {
        let ty = self.expr_ty(ctx, coord)?;
        let c = self.expr(ctx, coord)?;
        Ok(match self.inner(ty) {
            TypeInner::Vector { size, .. } => format!("ivec{size}({c})"),
            _ => format!("int({c})"),
        })
    }

    pub fn image_store(
        &mut self,
        ctx: &Ctx,
        base: Handle<Expression>,
        index: Handle<Expression>,
        value: Handle<Expression>,
    ) -> Result<String> {
        let span = ctx.exprs.span(base);
        let ty = self.expr_ty(ctx, base)?;
        let texel = match self.inner(ty) {
            TypeInner::Texture { texel, .. } => *texel,
            TypeInner::Buffer {
                element: Some(e), ..
            } => *e,
            _ => return unsupported("this store", span),
        };
        let img = self.expr(ctx, base)?;
        let coord = self.int_coord(ctx, index)?;
        let v = self.expr(ctx, value)?;
        let p = self.texel_prefix(texel, span)?;
        let n = super::expr::scalar_count(self.inner(texel));
        let fill = match (n, p) {
            (4, _) => String::new(),
            (k, "") => ", 0.0".repeat(4 - k as usize),
            (k, "i") => ", 0".repeat(4 - k as usize),
            (k, _) => ", 0u".repeat(4 - k as usize),
        };
        Ok(format!("imageStore({img}, {coord}, {p}vec4({v}{fill}))"))
    }

    /// Reading `buf[i]` or `tex[coord]`.
    pub fn resource_element(
        &mut self,
        ctx: &Ctx,
        base: Handle<Expression>,
        index: Handle<Expression>,
    ) -> Result<String> {
        let span = ctx.exprs.span(base);
        let ty = self.expr_ty(ctx, base)?;
        let b = self.expr(ctx, base)?;
        match self.inner(ty).clone() {
            TypeInner::Buffer {
                kind: BufferKind::Structured,
                ..
            } => Ok(format!("{b}.data[{}]", self.expr(ctx, index)?)),
            TypeInner::Buffer {
                kind: BufferKind::Typed,
                access,
                element: Some(e),
                ..
            } => {
                let c = self.int_coord(ctx, index)?;
                let fetch = if access == ResourceAccess::Read {
                    self.require("GL_EXT_samplerless_texture_functions");
                    format!("texelFetch({b}, {c})")
                } else {
                    format!("imageLoad({b}, {c})")
                };
                self.narrow_texel(e, fetch, span)
            }
            TypeInner::Texture {
                access,
                texel,
                multisampled: false,
                dim,
                ..
            } if dim != TextureDim::Cube => {
                let c = self.int_coord(ctx, index)?;
                let fetch = if access == ResourceAccess::Read {
                    self.require("GL_EXT_samplerless_texture_functions");
                    format!("texelFetch({b}, {c}, 0)")
                } else {
                    format!("imageLoad({b}, {c})")
                };
                self.narrow_texel(texel, fetch, span)
            }
            _ => unsupported("indexing this resource", span),
        }
    }
}
