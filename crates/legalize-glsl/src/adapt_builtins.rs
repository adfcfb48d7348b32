//! Reading and writing builtins with the type the user declared (B3, B4,
//! B6): a builtin has its own type (`gl_VertexIndex` is `int`,
//! `gl_GlobalInvocationID` a `uvec3`); the value is converted to or from the
//! declared type, and vertex/instance indices are rebased so user code keeps
//! HLSL's zero-per-draw meaning: `SV_VertexID` reads
//! `gl_VertexIndex - gl_BaseVertex`, not the bare index.

use legalis_ir as ir;
use legalis_ir::{Handle, Type};
use legalis_sysval::BuiltinType;

use crate::builder::FunctionBuilder;

/// The IR type of a builtin, or of one element of it (`element`) for
/// arrayed builtins.
pub fn builtin_type(module: &mut ir::Module, ty: BuiltinType, element: bool) -> Handle<Type> {
    let inner = match ty {
        BuiltinType::Scalar(s) => ir::TypeInner::Scalar(s),
        BuiltinType::Vector(s, n) => ir::TypeInner::Vector { size: n, scalar: s },
        BuiltinType::Array(s, _) if element => ir::TypeInner::Scalar(s),
        BuiltinType::Array(s, n) => {
            let base = module.types.insert(
                ir::Type {
                    name: None,
                    inner: ir::TypeInner::Scalar(s),
                },
                ir::Span::UNDEFINED,
            );
            let size = n.map_or(ir::ArraySize::Unsized, ir::ArraySize::Constant);
            ir::TypeInner::Array { base, size }
        }
    };
    module
        .types
        .insert(ir::Type { name: None, inner }, ir::Span::UNDEFINED)
}

/// The value of an input builtin as the declared type: the builtin, minus
/// its base when the row rebases it, converted when the types differ.
pub fn read(
    b: &mut FunctionBuilder,
    builtin: (Handle<ir::GlobalVariable>, Handle<Type>),
    base: Option<Handle<ir::GlobalVariable>>,
    declared: Handle<Type>,
) -> Handle<ir::Expression> {
    let (global, builtin_ty) = builtin;
    let mut value = b.expr(ir::Expression::Global(global), Some(builtin_ty));
    if let Some(base) = base {
        let base_value = b.expr(ir::Expression::Global(base), Some(builtin_ty));
        value = b.expr(
            ir::Expression::Binary {
                op: ir::BinaryOp::Subtract,
                left: value,
                right: base_value,
            },
            Some(builtin_ty),
        );
    }
    convert(b, value, builtin_ty, declared)
}

/// A declared-type value converted to the builtin's type for a store.
pub fn write_value(
    b: &mut FunctionBuilder,
    value: Handle<ir::Expression>,
    declared: Handle<Type>,
    builtin_ty: Handle<Type>,
) -> Handle<ir::Expression> {
    convert(b, value, declared, builtin_ty)
}

fn convert(
    b: &mut FunctionBuilder,
    value: Handle<ir::Expression>,
    from: Handle<Type>,
    to: Handle<Type>,
) -> Handle<ir::Expression> {
    if from == to {
        value
    } else {
        b.expr(ir::Expression::Convert { expr: value }, Some(to))
    }
}
