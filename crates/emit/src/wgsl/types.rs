//! WGSL spellings of IR types, WGSL's memory layout (size and alignment,
//! for the uniform address space's 16-byte rules), and storage-texture
//! formats.

use legalis_ir as ir;
use legalis_ir::{Handle, ScalarKind, Span, TypeInner};

pub(super) use super::{Result, unsupported};

/// `f32`, `i32`, `u32`, `bool`; other widths have no WGSL type (`f16`
/// needs an extension WebGPU devices need not offer).
pub(super) fn scalar(s: ir::Scalar, span: Span) -> Result<&'static str> {
    match (s.kind, s.width) {
        (ScalarKind::Bool, _) => Ok("bool"),
        (ScalarKind::Float, 4) => Ok("f32"),
        (ScalarKind::Sint, 4) => Ok("i32"),
        (ScalarKind::Uint, 4) => Ok("u32"),
        _ => unsupported(
            format!("`{}` (WGSL has 32-bit scalars only)", s.name()),
            span,
        ),
    }
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
            if s.kind != ScalarKind::Float || s.width != 4 {
                return unsupported(
                    format!(
                        "`{}{rows}x{columns}` (WGSL matrices are floating-point)",
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
            format!("mat{rows}x{columns}<f32>")
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
/// scalars only); `None` for anything else.
pub(super) fn layout(module: &ir::Module, ty: Handle<ir::Type>) -> Option<(u32, u32)> {
    let vector = |size: u8| match size {
        2 => (8, 8),
        3 => (16, 12),
        _ => (16, 16),
    };
    match &module.types.try_get(ty)?.inner {
        TypeInner::Scalar(s) if s.width == 4 && s.kind != ScalarKind::Bool => Some((4, 4)),
        TypeInner::Vector { size, scalar }
            if scalar.width == 4 && scalar.kind != ScalarKind::Bool =>
        {
            Some(vector(*size))
        }
        // `matRxC`: R columns of `vecC`.
        TypeInner::Matrix { rows, columns, .. } => {
            let (align, size) = vector(*columns);
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
