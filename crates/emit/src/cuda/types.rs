//! CUDA spellings of IR types, through the prelude (`prelude.cuh`):
//! scalars (`uint32_t`, `lg::half`, `double`), vectors (`lg::float4`),
//! matrices (`lg::float3x4`: HLSL's rows, HLSL's `mul`), value arrays
//! (`lg::array<T, N>`); textures as CUDA texture objects
//! (`cudaTextureObject_t`), `RWTexture1D/2D/3D` as surface objects
//! (`cudaSurfaceObject_t`), samplers as the prelude's placeholder
//! `lg::sampler_state` ([`texture`]).

use legalis_ir as ir;
use legalis_ir::{Handle, ScalarKind, Span, TypeInner};

pub(super) use super::{Result, unsupported};

/// The CUDA scalar type.
pub(super) fn scalar(s: ir::Scalar, span: Span) -> Result<&'static str> {
    Ok(match (s.kind, s.width) {
        (ScalarKind::Bool, _) => "bool",
        (ScalarKind::Sint, 1) => "int8_t",
        (ScalarKind::Sint, 2) => "int16_t",
        (ScalarKind::Sint, 4) => "int",
        (ScalarKind::Sint, 8) => "int64_t",
        (ScalarKind::Uint, 1) => "uint8_t",
        (ScalarKind::Uint, 2) => "uint16_t",
        (ScalarKind::Uint, 4) => "uint32_t",
        (ScalarKind::Uint, 8) => "uint64_t",
        (ScalarKind::Float, 2) => "lg::half",
        (ScalarKind::Float, 4) => "float",
        (ScalarKind::Float, 8) => "double",
        _ => return unsupported(format!("a {}-byte scalar", s.width), span),
    })
}

/// The prelude's name stem of a vector or matrix of `s` (`float`, `uint`).
pub(super) fn stem(s: ir::Scalar, span: Span) -> Result<&'static str> {
    crate::cfamily::types::stem(s).ok_or_else(|| crate::cfamily::types::odd_scalar(s, span))
}

/// `lg::float4`.
pub(super) fn vector(s: ir::Scalar, size: u8, span: Span) -> Result<String> {
    if size == 1 {
        return Ok(scalar(s, span)?.to_string());
    }
    Ok(format!("lg::{}{size}", stem(s, span)?))
}

/// The CUDA spelling of the types the C-family speller leaves to it:
/// textures, samplers and acceleration structures (a 64-bit handle value,
/// a local or a field as well as a global); `RayQuery` is refused.
pub(super) fn other(
    module: &ir::Module,
    ty: Handle<ir::Type>,
    span: Span,
) -> Result<Option<String>> {
    Ok(Some(match module.types[ty].inner {
        TypeInner::Texture(_) | TypeInner::Sampler { .. } => texture(module, ty, span)?.into(),
        TypeInner::AccelerationStructure => "OptixTraversableHandle".into(),
        TypeInner::RayQuery { .. } => {
            return unsupported("`RayQuery` (OptiX has no inline ray tracing)", span);
        }
        _ => return Ok(None),
    }))
}

/// The CUDA type of a texture or sampler: a texture object, a surface
/// object, or the sampler placeholder (CUDA samples through the state the
/// host gave the texture object). Refused: multisampled and
/// rasterizer-ordered textures, read-write cube and array textures (no
/// CUDA surface reads them as HLSL does), and texels CUDA's texture and
/// surface functions do not read (`float3`, 16-bit, 64-bit types), or a
/// normalized read-write texel (a surface reads the raw bytes).
pub(super) fn texture(
    module: &ir::Module,
    ty: Handle<ir::Type>,
    span: Span,
) -> Result<&'static str> {
    let name = || ir::print::type_name(module, ty);
    match module.types[ty].inner {
        TypeInner::Sampler { .. } => Ok("lg::sampler_state"),
        TypeInner::Texture(t) => {
            if t.combined {
                return unsupported(
                    format!(
                        "the combined texture-sampler `{}` (not written for CUDA yet)",
                        name()
                    ),
                    span,
                );
            }
            if t.multisampled {
                return unsupported(format!("the multisampled texture type `{}`", name()), span);
            }
            if !texel_supported(module, t.texel) {
                return unsupported(
                    format!(
                        "the texel type `{}` of `{}` (CUDA texture objects read 32-bit \
                         float, int and uint scalars and 2- and 4-vectors)",
                        ir::print::type_name(module, t.texel),
                        name()
                    ),
                    span,
                );
            }
            match t.access {
                ir::ResourceAccess::Read => Ok("cudaTextureObject_t"),
                ir::ResourceAccess::ReadWrite
                    if !t.arrayed && t.dim != ir::TextureDim::Cube && t.normalization.is_none() =>
                {
                    Ok("cudaSurfaceObject_t")
                }
                ir::ResourceAccess::ReadWrite => unsupported(
                    format!(
                        "the read-write texture type `{}` (CUDA surface objects here are \
                         1D, 2D and 3D, of unnormalized texels)",
                        name()
                    ),
                    span,
                ),
                ir::ResourceAccess::RasterizerOrdered => unsupported(
                    format!("the rasterizer-ordered texture type `{}`", name()),
                    span,
                ),
            }
        }
        _ => unsupported(format!("the type `{}` as a texture", name()), span),
    }
}

/// Whether CUDA's texture and surface functions read texels of `ty`
/// (through the prelude's `lg::texel`): 32-bit float, int and uint
/// scalars, 2- and 4-vectors.
fn texel_supported(module: &ir::Module, ty: Handle<ir::Type>) -> bool {
    let ok = |s: ir::Scalar| s.width == 4 && s.kind != ScalarKind::Bool;
    match module.types[ty].inner {
        TypeInner::Scalar(s) => ok(s),
        TypeInner::Vector { size, scalar } => matches!(size, 2 | 4) && ok(scalar),
        _ => false,
    }
}
