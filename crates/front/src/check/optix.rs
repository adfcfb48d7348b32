//! OptiX intrinsics beyond DXR: the cluster, sphere and linear swept
//! sphere (LSS) of the current hit, and multilevel traversal, which walks
//! traversable handles (`uint64_t`, OptiX's `OptixTraversableHandle`) and
//! the current hit's transform list. `TRAVERSABLE_TRANSFORM_TYPE` is the
//! `uint` enum `GetTraversableTransformType` returns (OptiX's
//! `OptixTransformType` values).

use legalis_ir::{Handle, Intrinsic as I, Scalar, Type};

use super::intrinsics::{Arg, Signature};
use super::types::Shape;
use super::{Checker, EnumInfo, TypeSymbol};

/// `TRAVERSABLE_TRANSFORM_TYPE`'s name and members, as the reference
/// spells them.
pub const TRANSFORM_TYPE: &str = "TRAVERSABLE_TRANSFORM_TYPE";
const TRANSFORM_TYPES: &[(&str, i64)] = &[
    ("TRAVERSABLE_TRANSFORM_TYPE_NONE", 0),
    ("TRAVERSABLE_TRANSFORM_TYPE_STATIC", 1),
    ("TRAVERSABLE_TRANSFORM_TYPE_MATRIX_MOTION", 2),
    ("TRAVERSABLE_TRANSFORM_TYPE_SRT_MOTION", 3),
    ("TRAVERSABLE_TRANSFORM_TYPE_INSTANCE", 4),
];

impl Checker<'_> {
    /// Declares `TRAVERSABLE_TRANSFORM_TYPE` in the global scope, as the
    /// first enum (a shader's own declaration of the name replaces it).
    pub fn declare_optix_types(&mut self) {
        let uint = self.scalar_ty(Scalar::U32);
        let index = self.enums.len();
        self.enums.push(EnumInfo {
            ty: uint,
            members: TRANSFORM_TYPES
                .iter()
                .map(|(n, v)| (n.to_string(), *v))
                .collect(),
        });
        self.type_scopes[0].insert(TRANSFORM_TYPE.into(), TypeSymbol::Enum(index));
    }

    /// The signatures of the OptiX intrinsics; `None` for the others.
    pub fn optix_signature(
        &mut self,
        fun: I,
        types: &[Handle<Type>],
    ) -> Result<Option<Signature>, String> {
        let uint = self.scalar_ty(Scalar::U32);
        let uint64 = self.scalar_ty(Scalar::U64);
        let arity = |n: usize| {
            if types.len() == n {
                Ok(())
            } else {
                Err(format!("expected {n} argument(s), found {}", types.len()))
            }
        };
        let (args, result) = match fun {
            I::GetClusterId => (vec![], self.scalar_ty(Scalar::I32)),
            I::GetSpherePositionAndRadius => {
                (vec![], self.numeric_ty(Scalar::F32, Shape::Vector(4)))
            }
            I::GetLssPositionsAndRadii => (
                vec![],
                self.numeric_ty(
                    Scalar::F32,
                    Shape::Matrix {
                        rows: 2,
                        columns: 4,
                    },
                ),
            ),
            I::IsSphereHit | I::IsLssHit => (vec![], self.scalar_ty(Scalar::BOOL)),
            I::GetTransformListSize => (vec![], uint),
            I::GetTransformListHandle => (vec![Arg::In(uint)], uint64),
            I::GetTraversableTransformType => (vec![Arg::In(uint64)], uint),
            I::GetInstanceTraversable => (vec![Arg::In(uint64), Arg::In(uint)], uint64),
            I::GetTraversableInstanceId => (vec![Arg::In(uint64)], uint),
            I::GetTraversableChild => (vec![Arg::In(uint64)], uint64),
            I::GetTraversableObjectToWorld | I::GetTraversableWorldToObject => (
                vec![Arg::In(uint64)],
                self.numeric_ty(
                    Scalar::F32,
                    Shape::Matrix {
                        rows: 3,
                        columns: 4,
                    },
                ),
            ),
            _ => return Ok(None),
        };
        arity(args.len())?;
        Ok(Some(Signature {
            args,
            result: Some(result),
        }))
    }
}
