//! WGSL spellings of IR types, WGSL's memory layout (size and alignment,
//! for the uniform address space's 16-byte rules), and storage-texture
//! formats.

use super::writer::{Writer, entry_result_stage};
use crate::resource_uses::Use;
use legalis_ir as ir;
use legalis_ir::{Handle, ScalarKind, Span, TypeInner};
use std::collections::BTreeSet;
use std::fmt::Write as _;

pub(super) use super::{Result, unsupported};

/// `f32`, `i32`, `u32`, `bool`, and `f16` for `half` (`min16float`,
/// `float16_t`), which the module then enables (`enable f16;`, a feature
/// WebGPU devices need not offer: see [`uses_f16`]). Other widths have no
/// WGSL type: WGSL has no 16-bit integers and no 64-bit numbers.
pub(super) fn scalar(s: ir::Scalar, span: Span) -> Result<&'static str> {
    match (s.kind, s.width) {
        (ScalarKind::Bool, _) => Ok("bool"),
        (ScalarKind::Float, 4) => Ok("f32"),
        (ScalarKind::Float, 2) => Ok("f16"),
        (ScalarKind::Sint, 4) => Ok("i32"),
        (ScalarKind::Uint, 4) => Ok("u32"),
        (ScalarKind::Sint | ScalarKind::Uint, 2) => unsupported(
            format!(
                "`{}` (WGSL has no 16-bit integers: declare it `int` or `uint`)",
                s.name()
            ),
            span,
        ),
        _ => unsupported(
            format!("`{}` (WGSL has 32-bit scalars and `f16` only)", s.name()),
            span,
        ),
    }
}

/// Whether `ty` is or holds (in a vector, matrix, array, struct or
/// buffer) a 16-bit float: the module then needs `enable f16;`. A
/// texture of `half` texels does not: WGSL samples it as `f32`.
pub(super) fn uses_f16(module: &ir::Module, ty: Handle<ir::Type>) -> bool {
    fn walk(
        module: &ir::Module,
        ty: Handle<ir::Type>,
        seen: &mut BTreeSet<Handle<ir::Type>>,
    ) -> bool {
        if !seen.insert(ty) {
            return false;
        }
        let Some(t) = module.types.try_get(ty) else {
            return false;
        };
        let half = |s: &ir::Scalar| s.kind == ScalarKind::Float && s.width == 2;
        match &t.inner {
            TypeInner::Scalar(s)
            | TypeInner::Vector { scalar: s, .. }
            | TypeInner::Matrix { scalar: s, .. } => half(s),
            TypeInner::Array { base, .. } => walk(module, *base, seen),
            TypeInner::Struct { members } => members.iter().any(|m| walk(module, m.ty, seen)),
            TypeInner::ConstantBuffer { inner } | TypeInner::TextureBuffer { inner } => {
                walk(module, *inner, seen)
            }
            TypeInner::Buffer {
                element: Some(e), ..
            } => walk(module, *e, seen),
            _ => false,
        }
    }
    walk(module, ty, &mut BTreeSet::new())
}

/// Spells a value type; structs through `struct_name`. Opaque types are
/// spelled by the writer, which knows how each resource is used.
pub(super) fn spell(
    module: &ir::Module,
    ty: Handle<ir::Type>,
    struct_name: &dyn Fn(Handle<ir::Type>) -> String,
    span: Span,
) -> Result<String> {
    let Some(t) = module.types.try_get(ty) else {
        return unsupported("a type the module does not define", span);
    };
    Ok(match &t.inner {
        TypeInner::Scalar(s) => scalar(*s, span)?.to_string(),
        TypeInner::Vector { size, scalar: s } => match size {
            // `vecN<T>` without the formatting machinery: the type of most
            // varyings, spelled for every use.
            2..=4 => cat!(
                ["vec2<", "vec3<", "vec4<"][usize::from(*size - 2)],
                scalar(*s, span)?,
                ">"
            ),
            _ => format!("vec{size}<{}>", scalar(*s, span)?),
        },
        TypeInner::Matrix {
            rows,
            columns,
            scalar: s,
        } => {
            if s.kind != ScalarKind::Float || !matches!(s.width, 2 | 4) {
                return unsupported(
                    format!(
                        "`{}{rows}x{columns}` (WGSL matrices are of `f32` or `f16`)",
                        s.name()
                    ),
                    span,
                );
            }
            if *rows < 2 || *columns < 2 {
                return unsupported(
                    format!("`float{rows}x{columns}` (WGSL matrices have 2 to 4 columns and rows)"),
                    span,
                );
            }
            format!("mat{rows}x{columns}<{}>", scalar(*s, span)?)
        }
        TypeInner::Array { base, size } => {
            let base = spell(module, *base, struct_name, span)?;
            match size {
                ir::ArraySize::Constant(n) => format!("array<{base}, {n}>"),
                ir::ArraySize::Unsized => format!("array<{base}>"),
            }
        }
        TypeInner::Struct { members } => {
            if members.is_empty() {
                return unsupported("an empty struct (WGSL structs have members)", span);
            }
            struct_name(ty)
        }
        TypeInner::RayQuery { .. } => {
            return unsupported("`RayQuery` (WGSL has no inline ray tracing)", span);
        }
        _ => {
            return unsupported(
                format!(
                    "`{}` as a value (WGSL passes resources as module variables)",
                    ir::print::type_name(module, ty)
                ),
                span,
            );
        }
    })
}

/// WGSL's alignment and size of a host-shareable value type (32-bit
/// scalars and `f16`, whose scalar is 2 bytes: `vec3<f16>` is aligned to
/// 8 and 6 bytes long); `None` for anything else.
pub(super) fn layout(module: &ir::Module, ty: Handle<ir::Type>) -> Option<(u32, u32)> {
    let shareable = |s: &ir::Scalar| {
        s.kind != ScalarKind::Bool
            && (s.width == 4 || (s.width == 2 && s.kind == ScalarKind::Float))
    };
    let vector = |size: u8, width: u8| {
        let w = u32::from(width);
        match size {
            2 => (2 * w, 2 * w),
            3 => (4 * w, 3 * w),
            _ => (4 * w, 4 * w),
        }
    };
    match &module.types.try_get(ty)?.inner {
        TypeInner::Scalar(s) if shareable(s) => Some((u32::from(s.width), u32::from(s.width))),
        TypeInner::Vector { size, scalar } if shareable(scalar) => {
            Some(vector(*size, scalar.width))
        }
        // `matRxC`: R columns of `vecC`.
        TypeInner::Matrix {
            rows,
            columns,
            scalar,
        } if shareable(scalar) => {
            let (align, size) = vector(*columns, scalar.width);
            Some((align, u32::from(*rows) * round_up(align, size)))
        }
        TypeInner::Array { base, size } => {
            let (align, size_of) = layout(module, *base)?;
            let stride = round_up(align, size_of);
            let n = match size {
                ir::ArraySize::Constant(n) => *n,
                ir::ArraySize::Unsized => 1,
            };
            Some((align, stride.checked_mul(n)?))
        }
        TypeInner::Struct { members } => {
            let mut offset = 0u32;
            let mut max_align = 1;
            for m in members {
                let (align, size) = layout(module, m.ty)?;
                offset = round_up(align, offset).checked_add(size)?;
                max_align = max_align.max(align);
            }
            Some((max_align, round_up(max_align, offset)))
        }
        _ => None,
    }
}

pub(super) fn round_up(align: u32, value: u32) -> u32 {
    value.div_ceil(align).saturating_mul(align)
}

/// The storage-texture format for a `RWTexture*<T>` texel type.
pub(super) fn storage_format(
    module: &ir::Module,
    texel: Handle<ir::Type>,
    normalization: Option<ir::Normalization>,
    span: Span,
) -> Result<&'static str> {
    let (kind, width, size) = match module.types.try_get(texel).map(|t| &t.inner) {
        Some(TypeInner::Scalar(s)) => (s.kind, s.width, 1),
        Some(TypeInner::Vector { size, scalar }) => (scalar.kind, scalar.width, *size),
        _ => return unsupported("a storage texture of a non-numeric texel", span),
    };
    let format = match (kind, width, size, normalization) {
        (ScalarKind::Float, 4, 1, None) => "r32float",
        (ScalarKind::Float, 4, 2, None) => "rg32float",
        (ScalarKind::Float, 4, 4, None) => "rgba32float",
        (ScalarKind::Sint, 4, 1, None) => "r32sint",
        (ScalarKind::Sint, 4, 2, None) => "rg32sint",
        (ScalarKind::Sint, 4, 4, None) => "rgba32sint",
        (ScalarKind::Uint, 4, 1, None) => "r32uint",
        (ScalarKind::Uint, 4, 2, None) => "rg32uint",
        (ScalarKind::Uint, 4, 4, None) => "rgba32uint",
        (ScalarKind::Float, 4, 4, Some(ir::Normalization::Unorm)) => "rgba8unorm",
        (ScalarKind::Float, 4, 4, Some(ir::Normalization::Snorm)) => "rgba8snorm",
        _ => {
            return unsupported(
                format!(
                    "a storage texture of `{}` texels (no WGSL storage format matches)",
                    ir::print::type_name(module, texel)
                ),
                span,
            );
        }
    };
    Ok(format)
}

/// Components of a texel type (1 for scalars) and its scalar.
pub(super) fn texel_shape(
    module: &ir::Module,
    texel: Handle<ir::Type>,
) -> Option<(u8, ir::Scalar)> {
    match module.types.try_get(texel).map(|t| &t.inner) {
        Some(TypeInner::Scalar(s)) => Some((1, *s)),
        Some(TypeInner::Vector { size, scalar }) => Some((*size, *scalar)),
        _ => None,
    }
}

/// The index of member `m` in `members`.
/// `bool` or a vector of them.
pub(super) fn is_bool(module: &ir::Module, ty: Handle<ir::Type>) -> bool {
    matches!(
        module.types[ty].inner,
        TypeInner::Scalar(s) | TypeInner::Vector { scalar: s, .. } if s.kind == ir::ScalarKind::Bool
    )
}

/// A matrix, or an array of them.
pub(super) fn holds_matrix(module: &ir::Module, ty: Handle<ir::Type>) -> bool {
    match &module.types[ty].inner {
        TypeInner::Matrix { .. } => true,
        TypeInner::Array { base, .. } => holds_matrix(module, *base),
        _ => false,
    }
}

impl Writer<'_> {
    /// `ty` spelled as stored: a column-major matrix (or array of them)
    /// as `matCxR`.
    pub fn spell_stored(
        &self,
        ty: Handle<ir::Type>,
        transposed: bool,
        span: Span,
    ) -> Result<String> {
        if !transposed {
            return self.spell(ty, span);
        }
        match &self.module.types[ty].inner {
            TypeInner::Matrix {
                rows,
                columns,
                scalar,
            } => {
                let t = self.module.types.get(&ir::Type {
                    name: None,
                    inner: TypeInner::Matrix {
                        rows: *columns,
                        columns: *rows,
                        scalar: *scalar,
                    },
                });
                match t {
                    Some(t) => self.spell(t, span),
                    None => {
                        let s = self::scalar(*scalar, span)?;
                        Ok(format!("mat{columns}x{rows}<{s}>"))
                    }
                }
            }
            TypeInner::Array { base, size } => {
                let base = self.spell_stored(*base, true, span)?;
                Ok(match size {
                    ir::ArraySize::Constant(n) => format!("array<{base}, {n}>"),
                    ir::ArraySize::Unsized => format!("array<{base}>"),
                })
            }
            _ => self.spell(ty, span),
        }
    }

    /// `atomic<u32>`/`atomic<i32>` for an integer scalar, and arrays of
    /// them; atomics inside structs are not supported yet.
    pub(super) fn spell_atomic(&self, ty: Handle<ir::Type>, span: Span) -> Result<String> {
        match &self.module.types[ty].inner {
            TypeInner::Scalar(s)
                if s.width == 4
                    && matches!(s.kind, ir::ScalarKind::Uint | ir::ScalarKind::Sint) =>
            {
                Ok(format!("atomic<{}>", self::scalar(*s, span)?))
            }
            TypeInner::Array { base, size } => {
                let base = self.spell_atomic(*base, span)?;
                Ok(match size {
                    ir::ArraySize::Constant(n) => format!("array<{base}, {n}>"),
                    ir::ArraySize::Unsized => format!("array<{base}>"),
                })
            }
            _ => unsupported(
                format!(
                    "an `Interlocked` operation on a `{}` (WGSL atomics are 32-bit integers, here whole variables or array elements)",
                    ir::print::type_name(self.module, ty)
                ),
                span,
            ),
        }
    }

    pub fn spell(&self, ty: Handle<ir::Type>, span: Span) -> Result<String> {
        self::spell(self.module, ty, &|t| self.struct_name(t), span)
    }

    /// Struct types the output uses, in module order.
    pub(super) fn structs(&self) -> Result<String> {
        let mut used = BTreeSet::new();
        let mark = |ty: Handle<ir::Type>, used: &mut BTreeSet<Handle<ir::Type>>| {
            crate::structs::mark_structs(self.module, ty, used);
        };
        for &g in &self.used_globals {
            let var = &self.module.globals[g];
            let ty = match self.module.types[var.ty].inner {
                TypeInner::ConstantBuffer { inner } | TypeInner::TextureBuffer { inner } => inner,
                TypeInner::Buffer {
                    element: Some(e), ..
                } => e,
                _ => var.ty,
            };
            mark(ty, &mut used);
        }
        for &f in &self.reachable {
            let func = &self.module.functions[f];
            for p in &func.params {
                mark(p.ty, &mut used);
            }
            if let Some(r) = &func.result {
                mark(r.ty, &mut used);
            }
            for (_, l) in func.locals.iter() {
                mark(l.ty, &mut used);
            }
            for (h, _) in func.expressions.iter() {
                if let Some(ty) = func.expressions.ty(h) {
                    mark(ty, &mut used);
                }
            }
        }
        let mut out = String::new();
        for ty in used {
            let t = &self.module.types[ty];
            let TypeInner::Struct { members } = &t.inner else {
                continue;
            };
            let span = self.module.types.span(ty);
            if members.is_empty() {
                return unsupported("an empty struct (WGSL structs have members)", span);
            }
            let names = &self.member_names[&ty];
            let in_uniform = self.uniform_structs.contains(&ty);
            writeln!(out, "struct {} {{", self.struct_name(ty)).ok();
            let mut after_struct = false;
            for (index, (m, name)) in members.iter().zip(names).enumerate() {
                let index = index as u32;
                let mut attrs = String::new();
                if let Some(io) = &m.io.binding
                    && let Some(stage) = entry_result_stage(self, ty)
                {
                    attrs = self.io_attributes(io, stage, m.span)?;
                }
                let is_struct = matches!(self.module.types[m.ty].inner, TypeInner::Struct { .. });
                let is_array = matches!(self.module.types[m.ty].inner, TypeInner::Array { .. });
                if in_uniform && (is_struct || is_array || after_struct) {
                    attrs.push_str("@align(16) ");
                }
                after_struct = is_struct;
                let transposed = self.transposed_members.contains(&(ty, index));
                let member_ty = if self.padded_members.contains(&(ty, index)) {
                    self.padded_spelling(m.ty, m.span)?
                } else if self.padded_matrix_members.contains(&(ty, index)) {
                    self.padded_matrix_spelling(m.ty, transposed, m.span)?
                } else if self.bool_members.contains(&(ty, index)) {
                    self.bool_spelling(m.ty)
                } else {
                    self.spell_stored(m.ty, transposed, m.span)?
                };
                push!(&mut out, "    ", attrs, name, ": ", member_ty, ",\n");
            }
            out.push_str("}\n\n");
        }
        Ok(out)
    }

    /// A texture or sampler type as WGSL spells it, given how it is used.
    pub fn handle_type(&self, ty: Handle<ir::Type>, u: Use, span: Span) -> Result<String> {
        let module = self.module;
        match &module.types[ty].inner {
            TypeInner::Sampler { comparison } => Ok(if *comparison || u.compare {
                "sampler_comparison".into()
            } else {
                "sampler".into()
            }),
            TypeInner::Texture(t) => {
                use ir::TextureDim as D;
                if t.combined {
                    return unsupported(
                        format!(
                            "the combined texture-sampler `{}` (WGSL textures and samplers \
                             are separate bindings)",
                            ir::print::type_name(module, ty)
                        ),
                        span,
                    );
                }
                let shape = match (t.dim, t.arrayed, t.multisampled) {
                    (D::D1, false, false) => "1d",
                    (D::D2, false, false) => "2d",
                    (D::D2, true, false) => "2d_array",
                    (D::D3, false, false) => "3d",
                    (D::Cube, false, false) => "cube",
                    (D::Cube, true, false) => "cube_array",
                    (D::D2, false, true) => "multisampled_2d",
                    _ => {
                        return unsupported(
                            format!(
                                "`{}` (WGSL has no such texture)",
                                ir::print::type_name(module, ty)
                            ),
                            span,
                        );
                    }
                };
                if t.access != ir::ResourceAccess::Read {
                    if t.multisampled || t.dim == D::Cube {
                        return unsupported(
                            format!(
                                "`{}` (WGSL has no such storage texture)",
                                ir::print::type_name(module, ty)
                            ),
                            span,
                        );
                    }
                    let format = self::storage_format(module, t.texel, t.normalization, span)?;
                    let access = match (u.read, u.write) {
                        (true, true) => "read_write",
                        (true, false) => "read",
                        _ => "write",
                    };
                    return Ok(format!("texture_storage_{shape}<{format}, {access}>"));
                }
                if u.compare || t.shadow {
                    if t.dim == D::D1 || t.dim == D::D3 {
                        return unsupported("comparison sampling of a 1D or 3D texture", span);
                    }
                    return Ok(format!("texture_depth_{shape}"));
                }
                let scalar = self::texel_shape(module, t.texel)
                    .map(|(_, s)| s)
                    .unwrap_or(ir::Scalar::F32);
                // Sampled textures are of `f32`, `i32` or `u32`: a `half`
                // texture is sampled as `f32` and its texels converted
                // (`expr::half_texel`).
                let scalar = if scalar == ir::Scalar::F16 {
                    ir::Scalar::F32
                } else {
                    scalar
                };
                Ok(format!("texture_{shape}<{}>", self::scalar(scalar, span)?))
            }
            _ => unsupported(
                format!("`{}` as a texture", ir::print::type_name(module, ty)),
                span,
            ),
        }
    }

    /// What WGSL's uniform address space allows: host-shareable types
    /// whose array strides are multiples of 16 bytes. Marks the structs
    /// for `@align(16)`.
    pub(super) fn check_uniform(&mut self, ty: Handle<ir::Type>, span: Span) -> Result<()> {
        let module = self.module;
        match &module.types[ty].inner {
            TypeInner::Struct { members } => {
                self.uniform_structs.insert(ty);
                for (i, m) in members.iter().enumerate() {
                    if self.paddable(m.ty) {
                        self.padded_members.insert((ty, i as u32));
                    } else if is_bool(module, m.ty) {
                        self.bool_members.insert((ty, i as u32));
                    } else if self
                        .padded_matrix(m.ty, self.transposed_members.contains(&(ty, i as u32)))
                        .is_some()
                    {
                        self.padded_matrix_members.insert((ty, i as u32));
                    } else {
                        self.check_uniform(m.ty, m.span)?;
                    }
                }
                Ok(())
            }
            TypeInner::Array { base, .. } => {
                self.check_uniform(*base, span)?;
                let (align, size) = self::layout(module, *base).unwrap_or((4, 4));
                if !self::round_up(align, size).is_multiple_of(16) {
                    return unsupported(
                        format!(
                            "the uniform array `{}` (WGSL uniform arrays need a stride that is a multiple of 16 bytes)",
                            ir::print::type_name(module, ty)
                        ),
                        span,
                    );
                }
                Ok(())
            }
            TypeInner::Matrix { scalar, .. } if scalar.width == 2 => unsupported(
                format!(
                    "the uniform `half` matrix `{}` (its rows are 16 bytes apart in a constant buffer, `f16` matrix columns are not in WGSL)",
                    ir::print::type_name(module, ty)
                ),
                span,
            ),
            _ => self.check_host_shareable(ty, span),
        }
    }

    /// An array of numeric scalars or vectors (not `bool`) whose WGSL
    /// stride is under 16 bytes: stored one element per `vec4`.
    pub(super) fn paddable(&self, ty: Handle<ir::Type>) -> bool {
        let module = self.module;
        let TypeInner::Array {
            base,
            size: ir::ArraySize::Constant(_),
        } = module.types[ty].inner
        else {
            return false;
        };
        let numeric = match &module.types[base].inner {
            TypeInner::Scalar(s) | TypeInner::Vector { scalar: s, .. } => {
                s.width == 4 && s.kind != ir::ScalarKind::Bool
            }
            _ => false,
        };
        numeric
            && self::layout(module, base)
                .is_some_and(|(align, size)| !self::round_up(align, size).is_multiple_of(16))
    }

    /// For a uniform matrix (or array of matrices) whose stored WGSL
    /// columns are 2-vectors, the number of stored columns; `transposed`
    /// says the matrix is stored column-major (`matCxR`).
    pub fn padded_matrix(&self, ty: Handle<ir::Type>, transposed: bool) -> Option<u8> {
        match self.module.types[ty].inner {
            TypeInner::Array { base, .. } => self.padded_matrix(base, transposed),
            // `f16` matrices in a uniform buffer are refused by
            // `check_uniform`: they are never padded.
            TypeInner::Matrix {
                rows,
                columns,
                scalar,
            } if scalar.width == 4 => {
                let (count, len) = if transposed {
                    (columns, rows)
                } else {
                    (rows, columns)
                };
                (len == 2).then_some(count)
            }
            _ => None,
        }
    }

    /// A padded matrix as stored: `array<vec4<f32>, C>`, inside the arrays
    /// that hold it.
    pub(super) fn padded_matrix_spelling(
        &self,
        ty: Handle<ir::Type>,
        transposed: bool,
        span: Span,
    ) -> Result<String> {
        match &self.module.types[ty].inner {
            TypeInner::Array { base, size } => {
                let base = self.padded_matrix_spelling(*base, transposed, span)?;
                Ok(match size {
                    ir::ArraySize::Constant(n) => format!("array<{base}, {n}>"),
                    ir::ArraySize::Unsized => format!("array<{base}>"),
                })
            }
            _ => {
                // Checks the matrix has a WGSL type at all.
                self.spell_stored(ty, transposed, span)?;
                let count = self.padded_matrix(ty, transposed).unwrap_or(2);
                Ok(format!("array<vec4<f32>, {count}>"))
            }
        }
    }

    /// A padded array's element type spelled as stored: `vec4<T>`.
    pub fn padded_spelling(&self, ty: Handle<ir::Type>, span: Span) -> Result<String> {
        let TypeInner::Array {
            base,
            size: ir::ArraySize::Constant(n),
        } = self.module.types[ty].inner
        else {
            return self.spell(ty, span);
        };
        let scalar = self.module.types[base]
            .inner
            .scalar()
            .unwrap_or(ir::Scalar::F32);
        Ok(format!("array<vec4<{}>, {n}>", self::scalar(scalar, span)?))
    }

    /// The components an element of a padded array keeps: `Some(n)` for
    /// an array of n-component elements stored one per `vec4`.
    pub fn padded_components(&self, ty: Handle<ir::Type>) -> Option<u8> {
        match self.module.types[ty].inner {
            TypeInner::Array { base, .. } => match self.module.types[base].inner {
                TypeInner::Scalar(_) => Some(1),
                TypeInner::Vector { size, .. } => Some(size),
                _ => None,
            },
            _ => None,
        }
    }

    pub(super) fn check_storage(&mut self, ty: Handle<ir::Type>, span: Span) -> Result<()> {
        let module = self.module;
        match &module.types[ty].inner {
            TypeInner::Struct { members } => {
                for (i, m) in members.iter().enumerate() {
                    if is_bool(module, m.ty) {
                        self.bool_members.insert((ty, i as u32));
                    } else {
                        self.check_storage(m.ty, m.span)?;
                    }
                }
                Ok(())
            }
            TypeInner::Array { base, .. } => self.check_storage(*base, span),
            _ => self.check_host_shareable(ty, span),
        }
    }

    /// `bool`/`boolN` as stored in a buffer: `u32`/`vecN<u32>`.
    pub fn bool_spelling(&self, ty: Handle<ir::Type>) -> String {
        match self.module.types[ty].inner {
            TypeInner::Vector { size, .. } => format!("vec{size}<u32>"),
            _ => "u32".into(),
        }
    }

    fn check_host_shareable(&self, ty: Handle<ir::Type>, span: Span) -> Result<()> {
        let inner = &self.module.types[ty].inner;
        if inner
            .scalar()
            .is_some_and(|s| s.kind == ir::ScalarKind::Bool)
        {
            return unsupported(
                "`bool` in a buffer (WGSL buffers hold 32-bit numbers, not booleans)",
                span,
            );
        }
        if inner.is_resource() {
            return unsupported("a resource inside a buffer", span);
        }
        Ok(())
    }
}
