//! Type spellings in C-family syntax, written once for MSL and CUDA:
//! scalars, vectors and matrices by the target's names, `array<T, N>`
//! value arrays (MSL's, or the CUDA prelude's `lg::array`), structs by
//! their names; the target spells the rest ([`Dialect::other_type`]).

use legalis_ir as ir;
use legalis_ir::{Handle, ScalarKind, Span, TypeInner};

use super::{Dialect, Refusal};

/// The C-family name of a scalar: MSL's scalar types, the stem of the
/// CUDA prelude's vectors and matrices (`uint` of `lg::uint4`).
pub(crate) fn stem(s: ir::Scalar) -> Option<&'static str> {
    Some(match (s.kind, s.width) {
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
        _ => return None,
    })
}

/// The refusal of a scalar [`stem`] has no name for.
pub(crate) fn odd_scalar<E: Refusal>(s: ir::Scalar, span: Span) -> E {
    E::unsupported(format!("a {}-byte scalar", s.width), span)
}

/// The type speller every [`Dialect`] has.
pub(crate) trait Types: Dialect {
    /// The spelling of a value type.
    fn spell(&self, ty: Handle<ir::Type>, span: Span) -> Result<String, Self::Error> {
        let module = self.module();
        let Some(t) = module.types.try_get(ty) else {
            return Err(Self::Error::not_legalized(
                "a type the module does not define".into(),
                span,
            ));
        };
        Ok(match &t.inner {
            TypeInner::Scalar(s) => self.scalar(*s, span)?.to_string(),
            TypeInner::Vector { size, scalar } => self.vector(*scalar, *size, span)?,
            TypeInner::Matrix {
                rows,
                columns,
                scalar,
            } => format!("{}{rows}x{columns}", self.matrix_stem(ty, *scalar, span)?),
            TypeInner::Array { base, size } => match size {
                ir::ArraySize::Constant(n) => {
                    format!("{}<{}, {n}>", Self::ARRAY, self.spell(*base, span)?)
                }
                ir::ArraySize::Unsized => {
                    return Err(Self::Error::unsupported(
                        "an unsized array outside a buffer".into(),
                        span,
                    ));
                }
            },
            TypeInner::Struct { .. } => self.names().struct_name(ty),
            _ => match self.other_type(ty, span)? {
                Some(text) => text,
                None => {
                    return Err(Self::Error::unsupported(
                        format!(
                            "a value of type `{}` here",
                            ir::print::type_name(module, ty)
                        ),
                        span,
                    ));
                }
            },
        })
    }
}

impl<D: Dialect> Types for D {}
