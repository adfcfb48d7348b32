//! Reading and writing builtins with the type the user declared (B3, B4,
//! B6): a builtin has its own type (`gl_VertexIndex` is `int`,
//! `gl_GlobalInvocationID` a `uvec3`); the value is converted to or from the
//! declared type, and vertex/instance indices are rebased so user code keeps
//! HLSL's zero-per-draw meaning: `SV_VertexID` reads
//! `gl_VertexIndex - gl_BaseVertex`, not the bare index.
//!
//! The [`ir::Policy`] conventions that act on builtin values live here too:
//! `-fvk-raw-vertex-id` (no rebasing), `-fvk-invert-y` (an `SV_Position`
//! output's `y` negated after it is written) and `-fvk-use-dx-position-w`
//! (a fragment `SV_Position` input's `w` replaced by `1.0 / gl_FragCoord.w`).

use legalis_ir as ir;
use legalis_ir::{Handle, SystemValue, Type};
use legalis_sysval::{BuiltinType, GlslMapping};

use crate::glsl::builder::FunctionBuilder;
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

/// `-fvk-invert-y`, after the store to an `SV_Position` output `position`
/// (a `float4` place: the builtin, or a hull's `gl_out[gl_InvocationID]`
/// element of it): `position.y = -position.y`. `float` is the scalar
/// `float` type. Every stage that writes a position calls it after the write.
pub fn invert_y(b: &mut FunctionBuilder, position: Handle<ir::Expression>, float: Handle<Type>) {
    let copy = b.copy_tree(position);
    let y = |b: &mut FunctionBuilder, base| {
        b.expr(
            ir::Expression::Swizzle {
                base,
                components: vec![1],
            },
            Some(float),
        )
    };
    let target = y(b, position);
    let old = y(b, copy);
    let value = b.expr(
        ir::Expression::Unary {
            op: ir::UnaryOp::Negate,
            expr: old,
        },
        Some(float),
    );
    b.push(ir::Statement::Store { target, value });
}

/// `-fvk-use-dx-position-w`: a fragment `SV_Position` input read as
/// `float4(gl_FragCoord.xyz, 1.0 / gl_FragCoord.w)`, then converted to the
/// declared type. `float` is the scalar `float` type.
pub fn read_dx_position(
    b: &mut FunctionBuilder,
    frag_coord: (Handle<ir::GlobalVariable>, Handle<Type>),
    float: Handle<Type>,
    declared: Handle<Type>,
) -> Handle<ir::Expression> {
    let mut components: Vec<Handle<ir::Expression>> =
        (0..3).map(|i| component(b, frag_coord, i, float)).collect();
    let one = b.expr(
        ir::Expression::Literal(ir::Literal::Float(1.0)),
        Some(float),
    );
    let w = component(b, frag_coord, 3, float);
    components.push(b.expr(
        ir::Expression::Binary {
            op: ir::BinaryOp::Divide,
            left: one,
            right: w,
        },
        Some(float),
    ));
    let value = b.expr(ir::Expression::Construct { components }, Some(frag_coord.1));
    convert(b, value, frag_coord.1, declared)
}

/// `global.x`, `.y`, `.z` or `.w` (`index` 0..=3) of a vector global.
fn component(
    b: &mut FunctionBuilder,
    (global, ty): (Handle<ir::GlobalVariable>, Handle<Type>),
    index: u8,
    scalar: Handle<Type>,
) -> Handle<ir::Expression> {
    let base = b.expr(ir::Expression::Global(global), Some(ty));
    b.expr(
        ir::Expression::Swizzle {
            base,
            components: vec![index],
        },
        Some(scalar),
    )
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
