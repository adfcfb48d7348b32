//! MSL spellings of IR types: scalars (`half`, `ushort`; no `double`),
//! vectors (`float4`), matrices (`float3x4`: HLSL `float3x4` under the
//! writer's convention, only of `float` and `half`), `array<T, N>` (value
//! semantics, unlike C arrays), and the resource types.

use legalis_ir as ir;
use legalis_ir::{Handle, ScalarKind, Span, TypeInner};

use crate::cfamily;

pub(super) use super::{Result, unsupported};

/// The MSL scalar type: `double` has none.
pub(super) fn scalar(s: ir::Scalar, span: Span) -> Result<&'static str> {
    if (s.kind, s.width) == (ScalarKind::Float, 8) {
        return unsupported("`double` (Metal has no 64-bit floats)", span);
    }
    cfamily::types::stem(s).ok_or_else(|| cfamily::types::odd_scalar(s, span))
}

/// The MSL spelling of the types the C-family speller leaves to it: `T*`
/// (an address in device memory); `RayQuery` is refused.
pub(super) fn other(
    spell: &dyn Fn(Handle<ir::Type>) -> Result<String>,
    inner: &TypeInner,
    span: Span,
) -> Result<Option<String>> {
    Ok(Some(match inner {
        TypeInner::Pointer { base: Some(base) } => format!("device {}*", spell(*base)?),
        TypeInner::Pointer { base: None } => "device void*".to_string(),
        TypeInner::RayQuery { .. } => {
            return unsupported(
                "`RayQuery` (inline ray tracing; Metal's `intersection_query` is not written)",
                span,
            );
        }
        _ => return Ok(None),
    }))
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
    let TypeInner::Texture(t) = module.types[ty].inner else {
        return unsupported("a texture of an unknown kind", span);
    };
    if t.combined {
        return unsupported(
            format!(
                "the combined texture-sampler `{}` (Metal textures and samplers are separate \
                 arguments)",
                ir::print::type_name(module, ty)
            ),
            span,
        );
    }
    let compare = compare || t.shadow;
    let sc = module.types[t.texel]
        .inner
        .scalar()
        .unwrap_or(ir::Scalar::F32);
    let element = scalar(sc, span)?;
    if sc.kind == ScalarKind::Bool || sc.width == 8 {
        return unsupported(format!("a texture of `{element}` texels"), span);
    }
    use ir::TextureDim as D;
    let prefix = if compare { "depth" } else { "texture" };
    let shape = match (t.dim, t.arrayed, t.multisampled) {
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
    let access = match t.access {
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
