//! Reading and writing builtins with the type the user declared (B3, B4,
//! B6): a builtin has its own type (`gl_VertexIndex` is `int`,
//! `gl_GlobalInvocationID` a `uvec3`); the value is converted to or from the
//! declared type, and vertex/instance indices are rebased so user code keeps
//! HLSL's zero-per-draw meaning: `SV_VertexID` reads
//! `gl_VertexIndex - gl_BaseVertex`, not the bare index.
//!
//! The [`ir::Policy`] conventions that act on builtin values start here
//! too: `-fvk-raw-vertex-id` (no rebasing) and `-fvk-use-dx-position-w` (a
//! fragment `SV_Position` input's `w` replaced by `1.0 / gl_FragCoord.w`,
//! through the shared builder's `reciprocal_w`); `-fvk-invert-y` (an
//! `SV_Position` output's `y` negated after it is written) is the shared
//! builder's `invert_y`, which each pass that writes a position calls.

use legalis_ir as ir;
use legalis_ir::{Handle, SystemValue, Type};
use legalis_sysval::{BuiltinType, GlslMapping};

use crate::common::builder::{FunctionBuilder, Xyz};
use crate::glsl::map_system_values::RawLeaf;
use crate::glsl::plan::Target;

/// `-fvk-raw-vertex-id`: leaves the table rebases read their builtin as it
/// is, through the row of the Vulkan-native value (`SV_VulkanVertexID`,
/// `SV_VulkanInstanceID`), which needs no base and no GLSL 4.60.
pub fn raw_vertex_ids(stage: ir::ShaderStage, leaves: &mut [RawLeaf]) {
    for leaf in leaves.iter_mut() {
        let Some((Target::BuiltIn { value, row, .. }, _)) = &mut leaf.target else {
            continue;
        };
        if row.rebase.is_none() {
            continue;
        }
        let raw = match value {
            SystemValue::InstanceId => SystemValue::VulkanInstanceId,
            _ => SystemValue::VulkanVertexId,
        };
        if let GlslMapping::BuiltIn(raw_row) = legalis_sysval::glsl(raw, stage, leaf.direction) {
            *value = raw;
            **row = raw_row;
        }
    }
}

/// `-fvk-use-dx-position-w`: a fragment `SV_Position` input read as
/// `float4(gl_FragCoord.x, gl_FragCoord.y, gl_FragCoord.z, 1.0 /
/// gl_FragCoord.w)`, then converted to the declared type. `float` is the
/// scalar `float` type.
pub fn read_dx_position(
    b: &mut FunctionBuilder,
    frag_coord: (Handle<ir::GlobalVariable>, Handle<Type>),
    float: Handle<Type>,
    declared: Handle<Type>,
) -> Handle<ir::Expression> {
    let (global, ty) = frag_coord;
    let read = |b: &mut FunctionBuilder| b.expr(ir::Expression::Global(global), Some(ty));
    let value = b.reciprocal_w(read, ty, float, Xyz::EachComponent);
    b.convert(value, ty, declared)
}

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
    b.convert(value, builtin_ty, declared)
}

/// A declared-type value converted to the builtin's type for a store.
pub fn write_value(
    b: &mut FunctionBuilder,
    value: Handle<ir::Expression>,
    declared: Handle<Type>,
    builtin_ty: Handle<Type>,
) -> Handle<ir::Expression> {
    b.convert(value, declared, builtin_ty)
}
