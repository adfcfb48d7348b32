//! CUDA spellings of IR types, through the prelude (`prelude.cuh`):
//! scalars (`uint32_t`, `lg::half`, `double`), vectors (`lg::float4`),
//! matrices (`lg::float3x4`: HLSL's rows, HLSL's `mul`), value arrays
//! (`lg::array<T, N>`); textures as CUDA texture objects
//! (`cudaTextureObject_t`), `RWTexture1D/2D/3D` as surface objects
//! (`cudaSurfaceObject_t`), samplers as the prelude's placeholder
//! `lg::sampler_state` ([`texture`]).

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
        (ScalarKind::Float, 8) => "double",
        _ => return unsupported(format!("a {}-byte scalar", s.width), span),
    })
}

/// `lg::float4`.
pub(super) fn vector(s: ir::Scalar, size: u8, span: Span) -> Result<String> {
    if size == 1 {
        return Ok(scalar(s, span)?.to_string());
    }
    Ok(format!("lg::{}{size}", stem(s, span)?))
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
        TypeInner::Vector { size, scalar: s } => vector(*s, *size, span)?,
        TypeInner::Matrix {
            rows,
            columns,
            scalar: s,
        } => {
            let stem = stem(*s, span)?;
            if !matches!(stem, "float" | "double" | "half" | "int" | "uint" | "bool") {
                return unsupported(
                    format!("the matrix type `{}`", ir::print::type_name(module, ty)),
                    span,
                );
            }
            format!("lg::{stem}{rows}x{columns}")
        }
        TypeInner::Array { base, size } => match size {
            ir::ArraySize::Constant(n) => {
                format!(
                    "lg::array<{}, {n}>",
                    spell(module, *base, span, struct_name)?
                )
            }
            ir::ArraySize::Unsized => {
                return unsupported("an unsized array outside a buffer", span);
            }
        },
        TypeInner::Struct { .. } => struct_name(ty),
        TypeInner::Texture { .. } | TypeInner::Sampler { .. } => texture(module, ty, span)?.into(),
        // A 64-bit handle value, a local or a field as well as a global.
        TypeInner::AccelerationStructure => "OptixTraversableHandle".into(),
        TypeInner::RayQuery { .. } => {
            return unsupported("`RayQuery` (OptiX has no inline ray tracing)", span);
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
        TypeInner::Texture {
            dim,
            arrayed,
            multisampled,
            access,
            texel,
            normalization,
            combined,
            ..
        } => {
            if combined {
                return unsupported(
                    format!(
                        "the combined texture-sampler `{}` (not written for CUDA yet)",
                        name()
                    ),
                    span,
                );
            }
            if multisampled {
                return unsupported(format!("the multisampled texture type `{}`", name()), span);
            }
            if !texel_supported(module, texel) {
                return unsupported(
                    format!(
                        "the texel type `{}` of `{}` (CUDA texture objects read 32-bit \
                         float, int and uint scalars and 2- and 4-vectors)",
                        ir::print::type_name(module, texel),
                        name()
                    ),
                    span,
                );
            }
            match access {
                ir::ResourceAccess::Read => Ok("cudaTextureObject_t"),
                ir::ResourceAccess::ReadWrite
                    if !arrayed && dim != ir::TextureDim::Cube && normalization.is_none() =>
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
