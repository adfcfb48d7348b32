//! MSL spellings of IR types: scalars (`half`, `ushort`; no `double`),
//! vectors (`float4`), matrices (`float3x4`: HLSL `float3x4` under the
//! writer's convention, only of `float` and `half`), `array<T, N>` (value
//! semantics, unlike C arrays), and the resource types.

use legalis_ir as ir;
use legalis_ir::{Handle, ScalarKind, Span, TypeInner};

use super::Error;

pub(super) type Result<T> = std::result::Result<T, Error>;

pub(super) fn unsupported<T>(what: impl Into<String>, span: Span) -> Result<T> {
    Err(Error::Unsupported {
        what: what.into(),
        span,
    })
}

/// The MSL scalar type: `double` has none.
pub(super) fn scalar(s: ir::Scalar, span: Span) -> Result<&'static str> {
    Ok(match (s.kind, s.width) {
        (ScalarKind::Bool, _) => "bool",
        (ScalarKind::Sint, 1) => "char",
        (ScalarKind::Sint, 2) => "short",
        (ScalarKind::Sint, 4) => "int",
        (ScalarKind::Sint, 8) => "long",
        (ScalarKind::Uint, 1) => "uchar",
        (ScalarKind::Uint, 2) => "ushort",
        (ScalarKind::Uint, 4) => "uint",
        (ScalarKind::Uint, 8) => "ulong",
        (ScalarKind::Float, 2) => "half",
        (ScalarKind::Float, 4) => "float",
        (ScalarKind::Float, 8) => {
            return unsupported("`double` (Metal has no 64-bit floats)", span);
        }
        _ => return unsupported(format!("a {}-byte scalar", s.width), span),
    })
}

/// The spelling of a value type; `struct_name` names structs.
pub(super) fn spell(
    module: &ir::Module,
    ty: Handle<ir::Type>,
    span: Span,
    struct_name: &dyn Fn(Handle<ir::Type>) -> String,
) -> Result<String> {
    let Some(t) = module.types.try_get(ty) else {
        return Err(Error::NotLegalized {
            what: "a type the module does not define".into(),
            span,
        });
    };
    Ok(match &t.inner {
        TypeInner::Scalar(s) => scalar(*s, span)?.to_string(),
        TypeInner::Vector { size, scalar: s } => match size {
            // `float4` without the formatting machinery: the type of most
            // varyings, spelled for every use.
            2..=4 => cat!(scalar(*s, span)?, ["2", "3", "4"][usize::from(*size - 2)]),
            _ => format!("{}{size}", scalar(*s, span)?),
        },
        TypeInner::Matrix {
            rows,
            columns,
            scalar: s,
        } => {
            if s.kind != ScalarKind::Float {
                return unsupported(
                    format!(
                        "the matrix type `{}` (Metal matrices hold floats)",
                        ir::print::type_name(module, ty)
                    ),
                    span,
                );
            }
            format!("{}{rows}x{columns}", scalar(*s, span)?)
        }
        TypeInner::Array { base, size } => match size {
            ir::ArraySize::Constant(n) => {
                format!("array<{}, {n}>", spell(module, *base, span, struct_name)?)
            }
            ir::ArraySize::Unsized => {
                return unsupported("an unsized array outside a buffer", span);
            }
        },
        TypeInner::Struct { .. } => struct_name(ty),
        // `T*`: an address in device memory.
        TypeInner::Pointer { base: Some(base) } => {
            format!("device {}*", spell(module, *base, span, struct_name)?)
        }
        TypeInner::Pointer { base: None } => "device void*".to_string(),
        TypeInner::RayQuery { .. } => {
            return unsupported(
                "`RayQuery` (inline ray tracing; Metal's `intersection_query` is not written)",
                span,
            );
        }
        _ => {
            return unsupported(
                format!(
                    "a value of type `{}` here",
                    ir::print::type_name(module, ty)
                ),
                span,
            );
        }
    })
}

/// The MSL type of a texture: `texture2d<float, access::read_write>`
/// (`access::write` when the code only writes it), or
/// `depth2d<float>` when it is sampled with comparison or is a depth
/// texture (`DepthTexture2D`). Combined texture-samplers (`Sampler2D`) are
/// refused: Metal binds textures and samplers apart.
pub(super) fn texture(
    module: &ir::Module,
    ty: Handle<ir::Type>,
    compare: bool,
    write_only: bool,
    span: Span,
) -> Result<String> {
    let TypeInner::Texture {
        dim,
        arrayed,
        multisampled,
        access,
        texel,
        combined,
        shadow,
        ..
    } = module.types[ty].inner
    else {
        return unsupported("a texture of an unknown kind", span);
    };
    if combined {
        return unsupported(
            format!(
                "the combined texture-sampler `{}` (Metal textures and samplers are separate \
                 arguments)",
                ir::print::type_name(module, ty)
            ),
            span,
        );
    }
    let compare = compare || shadow;
    let sc = module.types[texel]
        .inner
        .scalar()
        .unwrap_or(ir::Scalar::F32);
    let element = scalar(sc, span)?;
    if sc.kind == ScalarKind::Bool || sc.width == 8 {
        return unsupported(format!("a texture of `{element}` texels"), span);
    }
    use ir::TextureDim as D;
    let prefix = if compare { "depth" } else { "texture" };
    let shape = match (dim, arrayed, multisampled) {
        (D::D1, false, false) if !compare => "1d",
        (D::D1, true, false) if !compare => "1d_array",
        (D::D2, false, false) => "2d",
        (D::D2, true, false) => "2d_array",
        (D::D2, false, true) => "2d_ms",
        (D::D2, true, true) => "2d_ms_array",
        (D::D3, false, false) if !compare => "3d",
        (D::Cube, false, false) => "cube",
        (D::Cube, true, false) => "cube_array",
        _ => {
            return unsupported(
                format!("the texture type `{}`", ir::print::type_name(module, ty)),
                span,
            );
        }
    };
    // A rasterizer-ordered texture is a read-write one whose argument
    // joins a raster order group (`writer.rs`).
    let access = match access {
        ir::ResourceAccess::Read => "",
        ir::ResourceAccess::ReadWrite if write_only => ", access::write",
        ir::ResourceAccess::ReadWrite | ir::ResourceAccess::RasterizerOrdered => {
            ", access::read_write"
        }
    };
    if compare && sc.kind != ScalarKind::Float {
        return unsupported("a comparison-sampled texture of integers", span);
    }
    Ok(format!("{prefix}{shape}<{element}{access}>"))
}

/// The MSL type of a typed buffer (`Buffer<T>`, `RWBuffer<T>`):
/// `texture_buffer<uint, access::read_write>`, read and written a texel of
/// four components at a time like a texture.
pub(super) fn texture_buffer(
    module: &ir::Module,
    ty: Handle<ir::Type>,
    span: Span,
) -> Result<String> {
    let TypeInner::Buffer {
        kind: ir::BufferKind::Typed,
        access,
        element: Some(element),
        ..
    } = module.types[ty].inner
    else {
        return unsupported("a typed buffer of an unknown kind", span);
    };
    let sc = module.types[element]
        .inner
        .scalar()
        .unwrap_or(ir::Scalar::F32);
    let s = scalar(sc, span)?;
    if sc.kind == ScalarKind::Bool
        || sc.width != 4 && !(sc.width == 2 && sc.kind == ScalarKind::Float)
    {
        return unsupported(format!("a typed buffer of `{s}` elements"), span);
    }
    let access = match access {
        ir::ResourceAccess::Read => "access::read",
        ir::ResourceAccess::ReadWrite | ir::ResourceAccess::RasterizerOrdered => {
            "access::read_write"
        }
    };
    Ok(format!("texture_buffer<{s}, {access}>"))
}

/// How many coordinates address a texel of a texture of `dim` (without
/// the array layer).
pub(super) fn coordinate_count(dim: ir::TextureDim) -> u8 {
    match dim {
        ir::TextureDim::D1 => 1,
        ir::TextureDim::D2 => 2,
        ir::TextureDim::D3 | ir::TextureDim::Cube => 3,
    }
}
