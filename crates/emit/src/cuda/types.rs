//! CUDA spellings of IR types, through the prelude (`prelude.cuh`):
//! scalars (`uint32_t`, `lg::half`, `double`), vectors (`lg::float4`),
//! matrices (`lg::float3x4`: HLSL's rows, HLSL's `mul`), value arrays
//! (`lg::array<T, N>`). Textures and samplers have no CUDA spelling here
//! (CUDA texture objects come later): refused with their span.

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
