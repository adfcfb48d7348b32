//! Textures, samplers, storage images, texel buffers and byte-address
//! buffers: `OpTypeImage` with the capabilities and formats each needs,
//! `OpSampledImage` + `OpImageSample*` for sampling, `OpImageFetch` /
//! `OpImageRead` / `OpImageWrite` for texels, the `OpImageQuery*` family
//! for `GetDimensions`, and word loads and stores of byte-address buffers.

use legalis_ir as ir;
use legalis_ir::{Expression, Handle, Intrinsic as I, Literal, ScalarKind, TextureDim, TypeInner};
use rspirv::dr::Operand;
use spirv::{Capability, Dim, ImageFormat, ImageOperands, Op, StorageClass, Word};

use super::convert::Shape;
use super::expr::Place;
use super::writer::{Layout, Ptr, Result, Writer, unsupported};

/// What the image instructions need to know about a texture or buffer.
#[derive(Clone, Copy, Debug)]
pub(super) struct ImageInfo {
    pub dim: Option<TextureDim>,
    pub arrayed: bool,
    pub multisampled: bool,
    pub storage: bool,
    pub texel: Handle<ir::Type>,
    /// `Sampler2D` ...: values are `OpTypeSampledImage`s of the image.
    pub combined: bool,
    /// `DepthTexture2D`, `Sampler2DShadow` ...: `Depth` 1.
    pub shadow: bool,
    /// `SubpassInput<T>`: a `SubpassData` image read at the fragment's own
    /// position.
    pub subpass: bool,
}

impl ImageInfo {
    /// Components of a coordinate (array layer included).
    fn coords(&self) -> u8 {
        let n = match self.dim {
            None | Some(TextureDim::D1) => 1,
            Some(TextureDim::D2) => 2,
            Some(TextureDim::D3 | TextureDim::Cube) => 3,
        };
        n + u8::from(self.arrayed)
    }

    /// Components of a size query.
    pub fn size_components(&self) -> u8 {
        let n = match self.dim {
            None | Some(TextureDim::D1) => 1,
            Some(TextureDim::D2 | TextureDim::Cube) => 2,
            Some(TextureDim::D3) => 3,
        };
        n + u8::from(self.arrayed)
    }
}

impl Writer<'_> {
    pub fn image_info(&self, ty: Handle<ir::Type>, span: ir::Span) -> Result<ImageInfo> {
        match *self.inner(ty) {
            TypeInner::Texture(t) => Ok(ImageInfo {
                dim: Some(t.dim),
                arrayed: t.arrayed,
                multisampled: t.multisampled,
                storage: t.access != ir::ResourceAccess::Read,
                texel: t.texel,
                combined: t.combined,
                shadow: t.shadow,
                subpass: false,
            }),
            TypeInner::Buffer {
                kind: ir::BufferKind::Typed,
                access,
                element: Some(texel),
                ..
            } => Ok(ImageInfo {
                dim: None,
                arrayed: false,
                multisampled: false,
                storage: access != ir::ResourceAccess::Read,
                texel,
                combined: false,
                shadow: false,
                subpass: false,
            }),
            TypeInner::SubpassInput {
                texel,
                multisampled,
            } => Ok(ImageInfo {
                dim: Some(TextureDim::D2),
                arrayed: false,
                multisampled,
                storage: false,
                texel,
                combined: false,
                shadow: false,
                subpass: true,
            }),
            _ => unsupported("this resource as an image", span),
        }
    }

    /// The 32-bit scalar texels are sampled as.
    fn sampled_scalar(&self, info: &ImageInfo, span: ir::Span) -> Result<ir::Scalar> {
        match self.inner(info.texel).scalar().map(|s| s.kind) {
            Some(ScalarKind::Float) => Ok(ir::Scalar::F32),
            Some(ScalarKind::Sint) => Ok(ir::Scalar::I32),
            Some(ScalarKind::Uint) => Ok(ir::Scalar::U32),
            _ => unsupported("this texel type", span),
        }
    }

    /// The `OpTypeImage` of a texture or texel buffer (of the image inside
    /// a combined texture-sampler, whose own type wraps it in
    /// `OpTypeSampledImage`).
    pub fn image_type(&mut self, ty: Handle<ir::Type>) -> Result<Word> {
        let span = self.module.types.span(ty);
        let info = self.image_info(ty, span)?;
        let scalar = self.sampled_scalar(&info, span)?;
        let sampled_ty = self.numeric(scalar, 0, 0, Layout::Plain);
        if info.subpass {
            if self.entry.stage != ir::ShaderStage::Fragment {
                return unsupported(
                    "a subpass input outside a fragment shader (input attachments are read by \
                     fragment shaders only)",
                    span,
                );
            }
            self.capability(Capability::InputAttachment);
            let ms = u32::from(info.multisampled);
            return Ok(self.b.type_image(
                sampled_ty,
                Dim::DimSubpassData,
                [0, 0, ms, 2],
                ImageFormat::Unknown,
            ));
        }
        let dim = match info.dim {
            None => Dim::DimBuffer,
            Some(TextureDim::D1) => Dim::Dim1D,
            Some(TextureDim::D2) => Dim::Dim2D,
            Some(TextureDim::D3) => Dim::Dim3D,
            Some(TextureDim::Cube) => Dim::DimCube,
        };
        let caps: &[Capability] = match (dim, info.storage) {
            (Dim::DimBuffer, false) => &[Capability::SampledBuffer],
            (Dim::DimBuffer, true) => &[Capability::ImageBuffer],
            (Dim::Dim1D, false) => &[Capability::Sampled1D],
            (Dim::Dim1D, true) => &[Capability::Image1D],
            (Dim::DimCube, false) if info.arrayed => &[Capability::SampledCubeArray],
            (Dim::DimCube, true) if info.arrayed => &[Capability::ImageCubeArray],
            _ => &[],
        };
        caps.iter().for_each(|&c| self.capability(c));
        if info.storage && info.multisampled {
            self.capability(Capability::StorageImageMultisample);
            if info.arrayed {
                self.capability(Capability::ImageMSArray);
            }
        }
        let format = if info.storage {
            self.storage_format(ty, &info)
        } else {
            ImageFormat::Unknown
        };
        // Depth 2 ("not known"): one HLSL texture serves plain and
        // comparison sampling alike; depth textures say 1.
        let depth = match (info.shadow, info.storage) {
            (true, _) => 1,
            (false, true) => 0,
            (false, false) => 2,
        };
        Ok(self.b.type_image(
            sampled_ty,
            dim,
            [
                depth,
                u32::from(info.arrayed),
                u32::from(info.multisampled),
                if info.storage { 2 } else { 1 },
            ],
            format,
        ))
    }

    /// The format of a storage image: 32-bit 1/2/4-component texels and
    /// `unorm`/`snorm` 8-bit floats have one; others read and write
    /// without a format.
    fn storage_format(&mut self, ty: Handle<ir::Type>, info: &ImageInfo) -> ImageFormat {
        let norm = match self.inner(ty) {
            TypeInner::Texture(ir::Texture { normalization, .. })
            | TypeInner::Buffer { normalization, .. } => *normalization,
            _ => None,
        };
        let s = self.inner(info.texel).scalar();
        let n = self.shape(info.texel).map_or(0, |s| s.size.max(1));
        use ImageFormat as F;
        let format = match (s.map(|s| (s.kind, s.width)), norm, n) {
            (Some((ScalarKind::Float, 4)), Some(ir::Normalization::Unorm), 1) => F::R8,
            (Some((ScalarKind::Float, 4)), Some(ir::Normalization::Unorm), 2) => F::Rg8,
            (Some((ScalarKind::Float, 4)), Some(ir::Normalization::Unorm), 4) => F::Rgba8,
            (Some((ScalarKind::Float, 4)), Some(ir::Normalization::Snorm), 1) => F::R8Snorm,
            (Some((ScalarKind::Float, 4)), Some(ir::Normalization::Snorm), 2) => F::Rg8Snorm,
            (Some((ScalarKind::Float, 4)), Some(ir::Normalization::Snorm), 4) => F::Rgba8Snorm,
            (Some((ScalarKind::Float, 4)), None, 1) => F::R32f,
            (Some((ScalarKind::Float, 4)), None, 2) => F::Rg32f,
            (Some((ScalarKind::Float, 4)), None, 4) => F::Rgba32f,
            (Some((ScalarKind::Sint, 4)), _, 1) => F::R32i,
            (Some((ScalarKind::Sint, 4)), _, 2) => F::Rg32i,
            (Some((ScalarKind::Sint, 4)), _, 4) => F::Rgba32i,
            (Some((ScalarKind::Uint, 4)), _, 1) => F::R32ui,
            (Some((ScalarKind::Uint, 4)), _, 2) => F::Rg32ui,
            (Some((ScalarKind::Uint, 4)), _, 4) => F::Rgba32ui,
            _ => F::Unknown,
        };
        match format {
            F::Unknown => {
                self.capability(Capability::StorageImageReadWithoutFormat);
                self.capability(Capability::StorageImageWriteWithoutFormat);
            }
            F::Rg8 | F::R8 | F::Rg8Snorm | F::R8Snorm | F::Rg32f | F::Rg32i | F::Rg32ui => {
                self.capability(Capability::StorageImageExtendedFormats)
            }
            _ => {}
        }
        format
    }

    /// A 4-component result of the sampled type, narrowed to the texel type.
    fn narrow_texel(&mut self, v: Word, info: &ImageInfo, span: ir::Span) -> Result<Word> {
        let scalar = self.sampled_scalar(info, span)?;
        let four = Shape {
            scalar,
            size: 4,
            columns: 0,
        };
        let Some(texel) = self.shape(info.texel) else {
            return unsupported("this texel type", span);
        };
        self.convert_num(v, four, texel, span)
    }

    fn vec4_type(&mut self, info: &ImageInfo, span: ir::Span) -> Result<Word> {
        let scalar = self.sampled_scalar(info, span)?;
        Ok(self.numeric(scalar, 4, 0, Layout::Plain))
    }

    /// The image (and its info) an expression of texture type holds; the
    /// image inside a combined texture-sampler (`OpImage`).
    pub(super) fn image_value(&mut self, e: Handle<Expression>) -> Result<(Word, ImageInfo)> {
        let ty = self.expr_ty(e)?;
        let info = self.image_info(ty, self.span(e))?;
        let v = self.value(e)?;
        if info.combined {
            let image_ty = self.image_type(ty)?;
            return Ok((self.op(Op::Image, image_ty, &[v])?, info));
        }
        Ok((v, info))
    }

    /// `tex[coord]` / `buf[i]` read as a value.
    pub fn resource_element(
        &mut self,
        e: Handle<Expression>,
        base: Handle<Expression>,
        index: Handle<Expression>,
    ) -> Result<Word> {
        let span = self.span(e);
        let (img, info) = self.image_value(base)?;
        if info.dim == Some(TextureDim::Cube) || info.multisampled {
            return unsupported("indexing this texture", span);
        }
        let coord = self.value(index)?;
        let ty = self.vec4_type(&info, span)?;
        let v = if info.storage {
            self.op(Op::ImageRead, ty, &[img, coord])?
        } else {
            let zero = self.int(0);
            let mut ops = vec![Operand::IdRef(img), Operand::IdRef(coord)];
            if info.dim.is_some() {
                ops.extend([
                    Operand::ImageOperands(ImageOperands::LOD),
                    Operand::IdRef(zero),
                ]);
            }
            self.op_with(Op::ImageFetch, Some(ty), ops)?
        };
        self.narrow_texel(v, &info, span)
    }

    pub fn image_read(&mut self, image: &Ptr, coord: Word, span: ir::Span) -> Result<Word> {
        let info = self.image_info(image.ty, span)?;
        let img = self.load(image)?;
        let ty = self.vec4_type(&info, span)?;
        let v = self.op(Op::ImageRead, ty, &[img, coord])?;
        self.narrow_texel(v, &info, span)
    }

    pub fn image_write(&mut self, image: &Ptr, coord: Word, v: Word) -> Result<()> {
        let span = self.module.types.span(image.ty);
        let info = self.image_info(image.ty, span)?;
        let scalar = self.sampled_scalar(&info, span)?;
        let Some(texel) = self.shape(info.texel) else {
            return unsupported("this texel type", span);
        };
        let n = texel.size.max(1);
        let v = self.convert_num(v, texel, Shape { scalar, ..texel }, span)?;
        let padded = if n == 4 {
            v
        } else {
            let mut parts = vec![v];
            let zero = self.scalar_const(scalar, Literal::Int(0));
            parts.extend(std::iter::repeat_n(zero, 4 - n as usize));
            let ty = self.numeric(scalar, 4, 0, Layout::Plain);
            self.op(Op::CompositeConstruct, ty, &parts)?
        };
        let img = self.load(image)?;
        self.op_with(
            Op::ImageWrite,
            None,
            vec![
                Operand::IdRef(img),
                Operand::IdRef(coord),
                Operand::IdRef(padded),
            ],
        )?;
        Ok(())
    }

    /// A constant for `e` when it folds to literals (offsets must be
    /// constants for `ConstOffset`): literals, negated literals, and
    /// conversions and constructors of those.
    pub fn const_value(&mut self, e: Handle<Expression>) -> Option<Word> {
        let exprs = self.fs.exprs;
        let ty = exprs.ty(e)?;
        let s = self.shape(ty)?;
        let mut scalars = Vec::new();
        self.fold_scalars(e, &mut scalars)?;
        let count = if s.size == 0 { 1 } else { s.size as usize };
        let scalars = match scalars.len() {
            1 if count > 1 => vec![scalars[0]; count],
            n if n == count => scalars,
            _ => return None,
        };
        let words: Vec<Word> = scalars
            .into_iter()
            .map(|lit| self.scalar_const(s.scalar, lit))
            .collect();
        if s.size == 0 {
            return words.first().copied();
        }
        let ty_id = self.shape_ty(s);
        Some(self.composite_const(ty_id, words))
    }

    /// The literal components of a constant expression, in order.
    fn fold_scalars(&self, e: Handle<Expression>, out: &mut Vec<Literal>) -> Option<()> {
        let exprs = self.fs.exprs;
        match &exprs[e] {
            Expression::Literal(lit) => out.push(*lit),
            Expression::Unary {
                op: ir::UnaryOp::Negate,
                expr,
            } => {
                let mut inner = Vec::new();
                self.fold_scalars(*expr, &mut inner)?;
                for lit in inner {
                    out.push(match lit {
                        Literal::Int(v) => Literal::Int(v.wrapping_neg()),
                        Literal::Uint(v) => Literal::Int((v as i64).wrapping_neg()),
                        Literal::Float(v) => Literal::Float(-v),
                        Literal::Bool(_) => return None,
                    });
                }
            }
            Expression::Convert { expr } => self.fold_scalars(*expr, out)?,
            Expression::Construct { components } => {
                for &c in components {
                    self.fold_scalars(c, out)?;
                }
            }
            _ => return None,
        }
        Some(())
    }

    /// Image operands for an optional offset argument.
    fn offset_operands(
        &mut self,
        offset: Option<Handle<Expression>>,
        mut mask: ImageOperands,
        mut ids: Vec<Word>,
        gather: bool,
    ) -> Result<Vec<Operand>> {
        if let Some(o) = offset {
            match self.const_value(o) {
                Some(c) => {
                    mask |= ImageOperands::CONST_OFFSET;
                    ids.push(c);
                }
                None if gather => {
                    self.capability(Capability::ImageGatherExtended);
                    mask |= ImageOperands::OFFSET;
                    let v = self.value(o)?;
                    ids.push(v);
                }
                None => {
                    // Vulkan allows a computed offset only on gathers; HLSL
                    // requires an immediate one for the other operations.
                    let span = self.fs.exprs.span(o);
                    return unsupported("a texel offset that is not a compile-time constant", span);
                }
            }
        }
        if mask.is_empty() {
            return Ok(Vec::new());
        }
        let mut ops = vec![Operand::ImageOperands(mask)];
        ops.extend(ids.into_iter().map(Operand::IdRef));
        Ok(ops)
    }

    fn sampled_image(
        &mut self,
        tex: Handle<Expression>,
        sampler: Handle<Expression>,
    ) -> Result<(Word, ImageInfo)> {
        let tex_ty = self.expr_ty(tex)?;
        let info = self.image_info(tex_ty, self.span(tex))?;
        if info.combined {
            // Its own sampler: the value is already a sampled image.
            return Ok((self.value(tex)?, info));
        }
        let (img, info) = self.image_value(tex)?;
        let s = self.value(sampler)?;
        let image_ty = self.ty(tex_ty, Layout::Plain)?;
        let si_ty = self.b.type_sampled_image(image_ty);
        Ok((self.op(Op::SampledImage, si_ty, &[img, s])?, info))
    }

    /// `Sample*`, `Gather*` and `CalculateLevelOfDetail*`.
    pub fn sample(
        &mut self,
        e: Handle<Expression>,
        fun: I,
        args: &[Handle<Expression>],
    ) -> Result<Word> {
        let span = self.span(e);
        let derivatives = self.has_derivatives();
        let implicit = matches!(
            fun,
            I::Sample
                | I::SampleBias
                | I::SampleCmp
                | I::SampleCmpBias
                | I::CalculateLevelOfDetail
                | I::CalculateLevelOfDetailUnclamped
        );
        if implicit && !derivatives {
            return unsupported(
                format!(
                    "`{}` outside fragment shaders and compute shaders with derivative \
                     groups (it needs derivatives)",
                    fun.name()
                ),
                span,
            );
        }
        if fun == I::Sample && args.len() > 4 {
            return unsupported("`Sample` with a LOD clamp", span);
        }
        let (si, info) = self.sampled_image(args[0], args[1])?;
        let coord = self.value(args[2])?;
        let ty = self.vec4_type(&info, span)?;
        let float = self.float_type(0);
        let arg = |w: &mut Self, i: usize| -> Result<Word> { w.value(args[i]) };
        let (op, result_ty, mut ops) = match fun {
            I::Sample => {
                let ops =
                    self.offset_operands(args.get(3).copied(), ImageOperands::NONE, vec![], false)?;
                (Op::ImageSampleImplicitLod, ty, ops)
            }
            I::SampleBias => {
                let bias = arg(self, 3)?;
                let ops = self.offset_operands(
                    args.get(4).copied(),
                    ImageOperands::BIAS,
                    vec![bias],
                    false,
                )?;
                (Op::ImageSampleImplicitLod, ty, ops)
            }
            I::SampleLevel => {
                let lod = arg(self, 3)?;
                let ops = self.offset_operands(
                    args.get(4).copied(),
                    ImageOperands::LOD,
                    vec![lod],
                    false,
                )?;
                (Op::ImageSampleExplicitLod, ty, ops)
            }
            I::SampleGrad => {
                let (dx, dy) = (arg(self, 3)?, arg(self, 4)?);
                let ops = self.offset_operands(
                    args.get(5).copied(),
                    ImageOperands::GRAD,
                    vec![dx, dy],
                    false,
                )?;
                (Op::ImageSampleExplicitLod, ty, ops)
            }
            I::SampleCmp | I::SampleCmpLevelZero => {
                let dref = arg(self, 3)?;
                let (op, mask, ids) = if fun == I::SampleCmp {
                    (Op::ImageSampleDrefImplicitLod, ImageOperands::NONE, vec![])
                } else {
                    let zero = self.scalar_const(ir::Scalar::F32, Literal::Float(0.0));
                    (
                        Op::ImageSampleDrefExplicitLod,
                        ImageOperands::LOD,
                        vec![zero],
                    )
                };
                let mut ops = vec![Operand::IdRef(dref)];
                ops.extend(self.offset_operands(args.get(4).copied(), mask, ids, false)?);
                let sampled = self.sampled_scalar(&info, span)?;
                let result = self.numeric(sampled, 0, 0, Layout::Plain);
                (op, result, ops)
            }
            I::SampleCmpLevel | I::SampleCmpGrad | I::SampleCmpBias => {
                // `(sampler, coord, compare, lod | bias | ddx ddy [, offset])`.
                let dref = arg(self, 3)?;
                let (op, mask, ids, offset_at) = match fun {
                    I::SampleCmpLevel => (
                        Op::ImageSampleDrefExplicitLod,
                        ImageOperands::LOD,
                        vec![arg(self, 4)?],
                        5,
                    ),
                    I::SampleCmpGrad => (
                        Op::ImageSampleDrefExplicitLod,
                        ImageOperands::GRAD,
                        vec![arg(self, 4)?, arg(self, 5)?],
                        6,
                    ),
                    _ => (
                        Op::ImageSampleDrefImplicitLod,
                        ImageOperands::BIAS,
                        vec![arg(self, 4)?],
                        5,
                    ),
                };
                let mut ops = vec![Operand::IdRef(dref)];
                ops.extend(self.offset_operands(args.get(offset_at).copied(), mask, ids, false)?);
                let sampled = self.sampled_scalar(&info, span)?;
                let result = self.numeric(sampled, 0, 0, Layout::Plain);
                (op, result, ops)
            }
            I::Gather | I::GatherRed | I::GatherGreen | I::GatherBlue | I::GatherAlpha => {
                let comp = match fun {
                    I::GatherGreen => 1,
                    I::GatherBlue => 2,
                    I::GatherAlpha => 3,
                    _ => 0,
                };
                let mut ops = vec![Operand::IdRef(self.int(comp))];
                ops.extend(self.offset_operands(
                    args.get(3).copied(),
                    ImageOperands::NONE,
                    vec![],
                    true,
                )?);
                (Op::ImageGather, ty, ops)
            }
            I::GatherCmp | I::GatherCmpRed => {
                let dref = arg(self, 3)?;
                let mut ops = vec![Operand::IdRef(dref)];
                ops.extend(self.offset_operands(
                    args.get(4).copied(),
                    ImageOperands::NONE,
                    vec![],
                    true,
                )?);
                (Op::ImageDrefGather, ty, ops)
            }
            I::CalculateLevelOfDetail | I::CalculateLevelOfDetailUnclamped => {
                self.capability(Capability::ImageQuery);
                let v2 = self.float_type(2);
                let lod = self.op(Op::ImageQueryLod, v2, &[si, coord])?;
                // x is the level the sampler would use (clamped), y the raw LOD.
                let which = u32::from(fun == I::CalculateLevelOfDetailUnclamped);
                return self.extract(float, lod, &[which]);
            }
            _ => return unsupported(format!("the texture method `{}`", fun.name()), span),
        };
        let mut all = vec![Operand::IdRef(si), Operand::IdRef(coord)];
        all.append(&mut ops);
        let v = self.op_with(op, Some(result_ty), all)?;
        if result_ty == ty && !fun.is_gather() {
            return self.narrow_texel(v, &info, span);
        }
        Ok(v)
    }

    /// `SubpassLoad()`: `OpImageRead` of the subpass image at offset
    /// `(0, 0)` from the fragment, with the `Sample` operand when the input
    /// is multisampled.
    pub fn subpass_load(
        &mut self,
        e: Handle<Expression>,
        args: &[Handle<Expression>],
    ) -> Result<Word> {
        let span = self.span(e);
        let (img, info) = self.image_value(args[0])?;
        let ty = self.vec4_type(&info, span)?;
        let int2 = self.numeric(ir::Scalar::I32, 2, 0, Layout::Plain);
        let zero = self.int(0);
        let origin = self.composite_const(int2, vec![zero, zero]);
        let mut ops = vec![Operand::IdRef(img), Operand::IdRef(origin)];
        if let Some(&sample) = args.get(1) {
            let sample = self.value(sample)?;
            ops.push(Operand::ImageOperands(ImageOperands::SAMPLE));
            ops.push(Operand::IdRef(sample));
        }
        let v = self.op_with(Op::ImageRead, Some(ty), ops)?;
        self.narrow_texel(v, &info, span)
    }

    /// `Load` on textures (`int3(xy, mip)`), texel buffers and storage images.
    pub fn texture_load(
        &mut self,
        e: Handle<Expression>,
        args: &[Handle<Expression>],
    ) -> Result<Word> {
        let span = self.span(e);
        let (img, info) = self.image_value(args[0])?;
        if info.dim == Some(TextureDim::Cube) {
            return unsupported("`Load` on a cube texture", span);
        }
        let loc = self.value(args[1])?;
        let ty = self.vec4_type(&info, span)?;
        let v = if info.storage {
            self.op(Op::ImageRead, ty, &[img, loc])?
        } else if info.dim.is_none() {
            self.op(Op::ImageFetch, ty, &[img, loc])?
        } else if info.multisampled {
            let sample = self.value(args[2])?;
            let ops = vec![
                Operand::IdRef(img),
                Operand::IdRef(loc),
                Operand::ImageOperands(ImageOperands::SAMPLE),
                Operand::IdRef(sample),
            ];
            self.op_with(Op::ImageFetch, Some(ty), ops)?
        } else {
            let n = info.coords();
            let loc_ty = self.expr_ty(args[1])?;
            let Some(ls) = self.shape(loc_ty) else {
                return unsupported("this `Load` coordinate", span);
            };
            let coord_shape = Shape {
                size: if n == 1 { 0 } else { n },
                ..ls
            };
            let coord_ty = self.shape_ty(coord_shape);
            let coord = if n == 1 {
                self.extract(coord_ty, loc, &[0])?
            } else {
                let mut ops = vec![Operand::IdRef(loc), Operand::IdRef(loc)];
                ops.extend((0..u32::from(n)).map(Operand::LiteralBit32));
                self.op_with(Op::VectorShuffle, Some(coord_ty), ops)?
            };
            let scalar_ty = self.shape_ty(Shape { size: 0, ..ls });
            let mip = self.extract(scalar_ty, loc, &[u32::from(n)])?;
            let mut ops = vec![Operand::IdRef(img), Operand::IdRef(coord)];
            ops.extend(self.offset_operands(
                args.get(2).copied(),
                ImageOperands::LOD,
                vec![mip],
                false,
            )?);
            self.op_with(Op::ImageFetch, Some(ty), ops)?
        };
        self.narrow_texel(v, &info, span)
    }

    /// A pointer to word `index` of a byte-address buffer.
    fn word_ptr(&mut self, buffer: Handle<Expression>, index: Word) -> Result<Word> {
        let Place::Mem(p) = self.place(buffer)? else {
            return unsupported("this buffer", self.span(buffer));
        };
        let uint = self.uint_type();
        let ptr_ty = self.pointer(uint, StorageClass::StorageBuffer);
        let zero = self.uint(0);
        let mut ids = vec![p.root];
        ids.extend(&p.indices);
        ids.extend([zero, index]);
        self.op(Op::AccessChain, ptr_ty, &ids)
    }

    /// Word index `address / 4 + k`.
    fn word_index(&mut self, address: Word, k: u32) -> Result<Word> {
        let uint = self.uint_type();
        let two = self.uint(2);
        let base = self.op(Op::ShiftRightLogical, uint, &[address, two])?;
        if k == 0 {
            return Ok(base);
        }
        let k = self.uint(k);
        self.op(Op::IAdd, uint, &[base, k])
    }

    pub fn byte_load(&mut self, args: &[Handle<Expression>], n: u32) -> Result<Word> {
        let address = self.value(args[1])?;
        let uint = self.uint_type();
        let mut words = Vec::new();
        for k in 0..n {
            let i = self.word_index(address, k)?;
            let ptr = self.word_ptr(args[0], i)?;
            words.push(self.op(Op::Load, uint, &[ptr])?);
        }
        if n == 1 {
            return Ok(words[0]);
        }
        let ty = self.numeric(ir::Scalar::U32, n as u8, 0, Layout::Plain);
        self.op(Op::CompositeConstruct, ty, &words)
    }

    pub fn byte_store(&mut self, args: &[Handle<Expression>], n: u32) -> Result<()> {
        let address = self.value(args[1])?;
        let v = self.value(args[2])?;
        let uint = self.uint_type();
        for k in 0..n {
            let word = if n == 1 {
                v
            } else {
                self.extract(uint, v, &[k])?
            };
            let i = self.word_index(address, k)?;
            let ptr = self.word_ptr(args[0], i)?;
            self.op_with(
                Op::Store,
                None,
                vec![Operand::IdRef(ptr), Operand::IdRef(word)],
            )?;
        }
        Ok(())
    }
}
