//! Resources: descriptor bindings, declarations, and the texture and buffer
//! operations that read or write them.
//!
//! HLSL resources become Vulkan GLSL separate objects: `texture2D` and
//! `sampler`/`samplerShadow` combined at each use (`sampler2D(t, s)`),
//! `image2D` with a format for read-write textures, std430 `buffer` blocks
//! holding `T data[]` for structured and byte-address buffers, and std140
//! `uniform` blocks for constant buffers and `tbuffer`s (HLSL packs a
//! `tbuffer` by the `cbuffer` rules, so std140 is the closer layout).
//!
//! Counters: an append/consume buffer, or a structured buffer whose
//! `IncrementCounter`/`DecrementCounter` is used, gets a second std430 block
//! `{ uint count; } name_counter` at the first free binding after the
//! buffer's own in its set, allocated after every other resource so adding a
//! counter never renumbers them. `Append` and `IncrementCounter` are
//! `atomicAdd(count, 1u)` (the old value is the slot); `Consume` and
//! `DecrementCounter` add `0xFFFFFFFFu` and use the new value.
//!
//! Rasterizer-ordered resources are declared as their read-write form; the
//! whole fragment entry point runs inside
//! `beginInvocationInterlockARB()`/`endInvocationInterlockARB()` with
//! `pixel_interlock_ordered`, which orders every access as HLSL orders ROV
//! accesses (more coarsely, never less).

use legalis_ir::FastHashMap;
use std::collections::BTreeSet;
use std::fmt::Write as _;

use legalis_ir as ir;
use legalis_ir::{
    BufferKind, Expression, Handle, ResourceAccess, ScalarKind, Span, TextureDim, TypeInner,
};

use super::writer::{Ctx, Result, Writer, unsupported};

/// `(set, binding)` per resource global.
pub(super) type BindingMap = FastHashMap<Handle<ir::GlobalVariable>, (u32, u32)>;

/// Descriptor `(set, binding)` of every uniform resource global, and of the
/// `_Globals` block of plain uniforms when the module has any, from the
/// binding plan (`legalis_bind::rules::vulkan`).
pub(super) fn assign_bindings(
    module: &ir::Module,
    entry_point: usize,
    plan: Option<&legalis_bind::Plan>,
) -> (BindingMap, Option<(u32, u32)>) {
    let bindings = crate::binding::of(module, entry_point, legalis_bind::Target::Vulkan, plan);
    (
        bindings.resources.into_iter().collect(),
        bindings.globals_block,
    )
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
    pub(super) fn narrow_texel(
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
        TypeInner::Texture(t) => {
            let p = w.texel_prefix(t.texel, span)?;
            let d = dim_suffix(t.dim, t.arrayed, t.multisampled);
            if t.combined {
                // `Sampler2D` is GLSL's own `sampler2D`; a t.shadow one has no
                // texel prefix.
                return Ok(if t.shadow {
                    format!("sampler{d}Shadow")
                } else {
                    format!("{p}sampler{d}")
                });
            }
            match t.access {
                ResourceAccess::Read => Ok(format!("{p}texture{d}")),
                // Rasterizer order comes from the interlock around `main`.
                ResourceAccess::ReadWrite | ResourceAccess::RasterizerOrdered => {
                    Ok(format!("{p}image{d}"))
                }
            }
        }
        // Outside ray-tracing stages a scene is only traced inline.
        TypeInner::AccelerationStructure => {
            w.require(match w.entry.stage.is_ray_tracing() {
                true => "GL_EXT_ray_tracing",
                false => "GL_EXT_ray_query",
            });
            Ok("accelerationStructureEXT".into())
        }
        TypeInner::SubpassInput {
            texel,
            multisampled,
        } => {
            let p = w.texel_prefix(texel, span)?;
            let ms = if multisampled { "MS" } else { "" };
            Ok(format!("{p}subpassInput{ms}"))
        }
        TypeInner::HitObject => {
            w.require("GL_NV_shader_invocation_reorder");
            Ok("hitObjectNV".into())
        }
        TypeInner::RayQuery { .. } => {
            w.require("GL_EXT_ray_query");
            w.version = w.version.max(460);
            Ok("rayQueryEXT".into())
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
    /// Counter blocks for the buffers that need one (see the module doc).
    pub fn assign_counters(&mut self) {
        let mut counted = BTreeSet::new();
        for &f in &self.functions {
            let ctx = self.function_ctx(f);
            for (_, e) in ctx.exprs.iter() {
                if let Expression::Intrinsic {
                    fun: ir::Intrinsic::IncrementCounter | ir::Intrinsic::DecrementCounter,
                    args,
                } = e
                    && let Some(g) = args.first().and_then(|&a| self.resource_global(&ctx, a))
                {
                    counted.insert(g);
                }
            }
        }
        for &g in &self.globals {
            if let TypeInner::Buffer {
                kind: BufferKind::Append | BufferKind::Consume,
                ..
            } = self.inner(self.module.globals[g].ty)
            {
                counted.insert(g);
            }
        }
        let mut taken: BTreeSet<(u32, u32)> = self.bindings.values().copied().collect();
        taken.extend(self.globals_block_binding);
        for g in counted {
            let (set, mut binding) = self.bindings.get(&g).copied().unwrap_or((0, 0));
            while taken.contains(&(set, binding)) {
                binding += 1;
            }
            taken.insert((set, binding));
            let name = self
                .names
                .call(&format!("{}_counter", self.global_names[&g]));
            self.counters.insert(g, (name, set, binding));
        }
    }

    pub fn declare_resource(
        &mut self,
        g: Handle<ir::GlobalVariable>,
        out: &mut String,
    ) -> Result<()> {
        let var = &self.module.globals[g];
        let span = self.module.globals.span(g);
        let (set, binding) = self.bindings.get(&g).copied().unwrap_or((0, 0));
        let at = format!("set = {set}, binding = {binding}");
        // An array of resources is an array of descriptors: the element
        // decides the declaration, the dimensions follow the name.
        let (element, dims) = self.descriptor_array(var.ty);
        if dims.contains("[]") {
            // Runtime-sized descriptor arrays.
            self.require("GL_EXT_nonuniform_qualifier");
        }
        match self.inner(element).clone() {
            TypeInner::ConstantBuffer { inner } | TypeInner::TextureBuffer { inner } => {
                self.declare_uniform_block(g, inner, &at, &dims, out)
            }
            TypeInner::Buffer {
                kind: BufferKind::Typed,
                access: ResourceAccess::Read,
                ..
            }
            | TypeInner::Texture(ir::Texture {
                access: ResourceAccess::Read,
                ..
            })
            | TypeInner::Sampler { .. }
            | TypeInner::AccelerationStructure => {
                let (t, s) = self.type_parts(var.ty, span)?;
                writeln!(
                    out,
                    "layout({at}) uniform {t} {}{s};",
                    self.global_names[&g]
                )
                .ok();
                Ok(())
            }
            TypeInner::SubpassInput { .. } => {
                if self.entry.stage != ir::ShaderStage::Fragment {
                    return unsupported(
                        "a subpass input outside a fragment shader (input attachments are \
                         read by fragment shaders only)",
                        span,
                    );
                }
                let index = var.binding.input_attachment_index.unwrap_or(0);
                let (t, s) = self.type_parts(var.ty, span)?;
                writeln!(
                    out,
                    "layout(input_attachment_index = {index}, {at}) uniform {t} {}{s};",
                    self.global_names[&g]
                )
                .ok();
                Ok(())
            }
            TypeInner::Texture(ir::Texture {
                texel,
                normalization,
                ..
            })
            | TypeInner::Buffer {
                kind: BufferKind::Typed,
                element: Some(texel),
                normalization,
                ..
            } => self.declare_image(g, texel, normalization, &at, out),
            TypeInner::Buffer {
                kind,
                element,
                access,
                ..
            } if kind != BufferKind::Typed => {
                let elem = match element {
                    Some(e) if kind != BufferKind::ByteAddress => {
                        format!(
                            "{}{}",
                            self.nested_major(e, span)?,
                            self.type_name(e, span)?
                        )
                    }
                    _ => "uint".into(),
                };
                let readonly = access == ResourceAccess::Read && kind != BufferKind::Consume;
                if !dims.is_empty() && self.counters.contains_key(&g) {
                    return unsupported("an array of buffers with counters", span);
                }
                self.declare_storage_block(g, &elem, readonly, &at, &dims, out);
                Ok(())
            }
            _ => unsupported("this resource type", span),
        }
    }

    fn coherent(&self, g: Handle<ir::GlobalVariable>) -> &'static str {
        if self.module.globals[g].globally_coherent {
            "coherent "
        } else {
            ""
        }
    }

    /// The element type and `[N]...` dimensions of an array of
    /// descriptors; a lone resource has no dimensions.
    pub fn descriptor_array(&self, ty: Handle<ir::Type>) -> (Handle<ir::Type>, String) {
        let mut dims = String::new();
        let mut element = ty;
        while let TypeInner::Array { base, size } = self.inner(element) {
            match size {
                ir::ArraySize::Constant(n) => dims.push_str(&format!("[{n}]")),
                ir::ArraySize::Unsized => dims.push_str("[]"),
            }
            element = *base;
        }
        (element, dims)
    }

    fn declare_uniform_block(
        &mut self,
        g: Handle<ir::GlobalVariable>,
        inner: Handle<ir::Type>,
        at: &str,
        dims: &str,
        out: &mut String,
    ) -> Result<()> {
        let name = self.global_names[&g].clone();
        if let TypeInner::Struct { members } = self.inner(inner)
            && let Some(m) = members.iter().find(|m| self.is_opaque(m.ty))
        {
            return unsupported(
                format!(
                    "the resource member `{}` inside a constant buffer or parameter block",
                    m.name
                ),
                self.module.globals.span(g),
            );
        }
        let members = self.member_list(inner, "    ", true)?;
        let block = self.names.call(&format!("block_{name}"));
        let layout = self.block_layout("std140");
        writeln!(
            out,
            "layout({layout}, {at}) uniform {block}\n{{\n{members}}} {name}{dims};"
        )
        .ok();
        Ok(())
    }

    /// `buffer { T data[]; } name;` and, when the buffer has one, its counter.
    /// Whether a type is, or holds, something opaque (a texture, sampler,
    /// buffer), which GLSL blocks cannot contain.
    fn is_opaque(&self, ty: Handle<ir::Type>) -> bool {
        match self.inner(ty) {
            TypeInner::Array { base, .. } => self.is_opaque(*base),
            TypeInner::Struct { members } => members.iter().any(|m| self.is_opaque(m.ty)),
            inner => inner.is_resource(),
        }
    }

    fn declare_storage_block(
        &mut self,
        g: Handle<ir::GlobalVariable>,
        elem: &str,
        readonly: bool,
        at: &str,
        dims: &str,
        out: &mut String,
    ) {
        let name = self.global_names[&g].clone();
        let coherent = self.coherent(g);
        let ro = if readonly { "readonly " } else { "" };
        let block = self.names.call(&format!("block_{name}"));
        let layout = self.block_layout("std430");
        writeln!(
            out,
            "layout({layout}, {at}) {coherent}{ro}buffer {block}\n{{\n    {elem} data[];\n}} {name}{dims};"
        )
        .ok();
        if let Some((counter, set, binding)) = self.counters.get(&g).cloned() {
            let block = self.names.call(&format!("block_{counter}"));
            writeln!(
                out,
                "layout(std430, set = {set}, binding = {binding}) {coherent}buffer {block}\n{{\n    uint count;\n}} {counter};"
            )
            .ok();
        }
    }

    fn declare_image(
        &mut self,
        g: Handle<ir::GlobalVariable>,
        texel: Handle<ir::Type>,
        normalization: Option<ir::Normalization>,
        at: &str,
        out: &mut String,
    ) -> Result<()> {
        let var = &self.module.globals[g];
        let span = self.module.globals.span(g);
        let t = self.type_name(var.ty, span)?;
        let format = match self.image_format(texel, normalization) {
            Some(f) => format!(", {f}"),
            None => {
                self.require("GL_EXT_shader_image_load_formatted");
                String::new()
            }
        };
        let coherent = self.coherent(g);
        writeln!(
            out,
            "layout({at}{format}) {coherent}uniform {t} {};",
            self.global_names[&g]
        )
        .ok();
        Ok(())
    }

    /// The counter instance of buffer expression `e`.
    pub fn counter_of(&self, ctx: &Ctx, e: Handle<Expression>) -> Result<String> {
        match self
            .resource_global(ctx, e)
            .and_then(|g| self.counters.get(&g))
        {
            Some((name, _, _)) => Ok(name.clone()),
            None => unsupported("a buffer counter of this expression", ctx.exprs.span(e)),
        }
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
            TypeInner::Texture(ir::Texture { access, .. })
            | TypeInner::Buffer {
                kind: BufferKind::Typed,
                access,
                ..
            } if *access != ResourceAccess::Read => Some((base, index)),
            _ => None,
        }
    }

    /// `image_element` of `target` or of the vector a swizzle `target` writes
    /// into, with the swizzle's components.
    pub fn texel_place(&self, ctx: &Ctx, target: Handle<Expression>) -> Option<TexelPlace> {
        if let Some((image, coord)) = self.image_element(ctx, target) {
            return Some(TexelPlace {
                image,
                coord,
                components: None,
            });
        }
        if let Expression::Swizzle { base, components } = &ctx.exprs[target]
            && let Some((image, coord)) = self.image_element(ctx, *base)
        {
            return Some(TexelPlace {
                image,
                coord,
                components: Some(components.clone()),
            });
        }
        None
    }

    /// `ivecN(coord)` for image and fetch coordinates.
    fn int_coord(&mut self, ctx: &Ctx, coord: Handle<Expression>) -> Result<String> {
        let ty = self.expr_ty(ctx, coord)?;
        let c = self.expr(ctx, coord)?;
        Ok(format!("{}({c})", self.int_coord_type(ty)))
    }

    fn int_coord_type(&self, ty: Handle<ir::Type>) -> String {
        match self.inner(ty) {
            TypeInner::Vector { size, .. } => format!("ivec{size}"),
            _ => "int".into(),
        }
    }

    /// The image and texel type of image expression `image`.
    fn image_texel(
        &mut self,
        ctx: &Ctx,
        image: Handle<Expression>,
    ) -> Result<(String, Handle<ir::Type>)> {
        let span = ctx.exprs.span(image);
        let ty = self.expr_ty(ctx, image)?;
        let texel = match self.inner(ty) {
            TypeInner::Texture(ir::Texture { texel, .. }) => *texel,
            TypeInner::Buffer {
                element: Some(e), ..
            } => *e,
            _ => return unsupported("this store", span),
        };
        if !self.is_pure(ctx, image) {
            return unsupported("an image chosen by an expression with side effects", span);
        }
        Ok((self.expr(ctx, image)?, texel))
    }

    /// `{p}vec4(value, 0...)`: an `imageStore` operand from a texel value.
    fn widen_texel(&self, texel: Handle<ir::Type>, value: &str, span: Span) -> Result<String> {
        let p = self.texel_prefix(texel, span)?;
        let n = super::expr::scalar_count(self.inner(texel));
        let fill = match (n, p) {
            (4, _) => String::new(),
            (k, "") => ", 0.0".repeat(4 - k as usize),
            (k, "i") => ", 0".repeat(4 - k as usize),
            (k, _) => ", 0u".repeat(4 - k as usize),
        };
        Ok(format!("{p}vec4({value}{fill})"))
    }

    pub fn image_store(
        &mut self,
        ctx: &Ctx,
        base: Handle<Expression>,
        index: Handle<Expression>,
        value: Handle<Expression>,
    ) -> Result<String> {
        let span = ctx.exprs.span(base);
        let (img, texel) = self.image_texel(ctx, base)?;
        let coord = self.int_coord(ctx, index)?;
        let v = self.expr(ctx, value)?;
        let v = self.widen_texel(texel, &v, span)?;
        Ok(format!("imageStore({img}, {coord}, {v})"))
    }

    /// A read-modify-write of a texel (assignment used as a value, a write
    /// to some components, `++`/`--`): the coordinate and the texel go
    /// through temporaries, so each operand is evaluated once, in place:
    /// `(c = coord, t = imageLoad(img, c), t.x = v, imageStore(img, c, t), t.x)`.
    pub fn texel_update(
        &mut self,
        ctx: &Ctx,
        place: TexelPlace,
        update: TexelUpdate,
        span: Span,
    ) -> Result<String> {
        let (img, texel) = self.image_texel(ctx, place.image)?;
        let coord_ty = self.expr_ty(ctx, place.coord)?;
        let c = self.temp(self.int_coord_type(coord_ty));
        let t_name = self.type_name(texel, span)?;
        let t = self.temp(t_name.clone());
        let mut steps = vec![format!("{c} = {}", self.int_coord(ctx, place.coord)?)];
        let needs_load = place.components.is_some() || matches!(update, TexelUpdate::IncDec(_));
        if needs_load {
            let load = self.narrow_texel(texel, format!("imageLoad({img}, {c})"), span)?;
            steps.push(format!("{t} = {load}"));
        }
        let target = match &place.components {
            Some(comps) => format!(
                "{t}.{}",
                comps
                    .iter()
                    .map(|&i| b"xyzw"[i as usize & 3] as char)
                    .collect::<String>()
            ),
            None => t.clone(),
        };
        let result = match update {
            TexelUpdate::Assign(v) => {
                steps.push(format!("{target} = {}", self.expr(ctx, v)?));
                target.clone()
            }
            TexelUpdate::IncDec(op) => {
                let old = self.temp(t_name);
                let (sym, post) = match op {
                    ir::IncDecOp::PreIncrement => ("++", false),
                    ir::IncDecOp::PreDecrement => ("--", false),
                    ir::IncDecOp::PostIncrement => ("++", true),
                    ir::IncDecOp::PostDecrement => ("--", true),
                };
                steps.push(format!("{old} = {t}"));
                steps.push(format!("{sym}{target}"));
                if post {
                    match &place.components {
                        Some(_) => target.replacen(&t, &old, 1),
                        None => old,
                    }
                } else {
                    target.clone()
                }
            }
        };
        let widened = self.widen_texel(texel, &t, span)?;
        steps.push(format!("imageStore({img}, {c}, {widened})"));
        steps.push(result);
        Ok(format!("({})", steps.join(", ")))
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
        let (texel, fetch) = match self.inner(ty).clone() {
            TypeInner::Buffer {
                kind: BufferKind::Structured,
                ..
            } => return Ok(format!("{b}.data[{}]", self.expr(ctx, index)?)),
            TypeInner::Buffer {
                kind: BufferKind::Typed,
                access,
                element: Some(e),
                ..
            } => {
                let c = self.int_coord(ctx, index)?;
                (e, self.fetch_or_load(access, &b, &c, ""))
            }
            TypeInner::Texture(ir::Texture {
                access,
                texel,
                multisampled: false,
                dim,
                combined,
                ..
            }) if dim != TextureDim::Cube => {
                let c = self.int_coord(ctx, index)?;
                if combined {
                    // A `sampler2D` fetches in core GLSL.
                    (texel, format!("texelFetch({b}, {c}, 0)"))
                } else {
                    (texel, self.fetch_or_load(access, &b, &c, ", 0"))
                }
            }
            _ => return unsupported("indexing this resource", span),
        };
        self.narrow_texel(texel, fetch, span)
    }

    /// `texelFetch` of sampled resources (`mip` is `", 0"` for textures),
    /// `imageLoad` of read-write ones.
    fn fetch_or_load(&mut self, access: ResourceAccess, b: &str, c: &str, mip: &str) -> String {
        if access == ResourceAccess::Read {
            self.require("GL_EXT_samplerless_texture_functions");
            format!("texelFetch({b}, {c}{mip})")
        } else {
            format!("imageLoad({b}, {c})")
        }
    }
}

/// A texel, or some of its components, as the target of a write.
pub(super) struct TexelPlace {
    pub image: Handle<Expression>,
    pub coord: Handle<Expression>,
    /// The swizzle written through, `None` for the whole texel.
    pub components: Option<Vec<u8>>,
}

/// What [`Writer::texel_update`] does to its place.
pub(super) enum TexelUpdate {
    Assign(Handle<Expression>),
    IncDec(ir::IncDecOp),
}
