//! The Metal entry point as a wrapper around the source's (B19, B20): a
//! new function, named after the entry point, takes one attributed
//! parameter per input leaf (the writer gathers the user varyings among
//! them into the `[[stage_in]]` struct) and returns one attributed struct
//! with a member per output leaf. Its body rebuilds the source's
//! parameters as locals (with conversions from the attributes' MSL
//! types), computes `SV_GroupIndex` as `(z*Y + y)*X + x` from the
//! threadgroup-local id (B20: Metal has no attribute the reference uses
//! for it), calls the source function (renamed `<entry>_body`), and copies
//! every output leaf into the result struct. The user's code is not
//! rewritten.
//!
//! The [`ir::Policy`] conventions on builtin values apply here as for
//! WGSL: `-fvk-invert-y` negates the written position's `y`,
//! `-fvk-use-dx-position-w` makes a fragment position's `w` its
//! reciprocal.

use legalis_ir as ir;
use legalis_ir::{Expression, Handle, Statement, SystemValue, Type, TypeInner};
use legalis_sysval::BuiltinType;

use super::plan::{Leaf, Plan, Root, Target};
use crate::common::builder::{self, FunctionBuilder};
use crate::common::plan::{FamilyTarget, Place};
use crate::common::wrap::{Argument, WrapLeaf, store_input, wrap};

/// Appends the wrapper and points the entry point at it.
pub fn apply(module: &mut ir::Module, entry_point: usize, plan: &Plan, policy: &ir::Policy) {
    wrap(
        module,
        entry_point,
        &plan.leaves,
        policy,
        |b, module, arguments, made| {
            let group_thread_id = made
                .iter()
                .find(|p| p.leaf.builtin() == Some(SystemValue::GroupThreadId))
                .map(|p| (p.index, p.ty));
            for leaf in &plan.leaves {
                let (Target::GroupIndex { x, y }, Root::Param(k), Some(id)) =
                    (&leaf.target, &leaf.root, group_thread_id)
                else {
                    continue;
                };
                let Argument::Local(local, root_ty) = arguments[*k as usize] else {
                    continue;
                };
                let store = store_group_index(b, module, leaf, [*x, *y], (local, root_ty), id);
                b.push(store);
            }
        },
    );
}

/// B20: the `SV_GroupIndex` leaf `leaf` stored into its place in the
/// `local` of its source parameter, computed from the threadgroup-local
/// id parameter `id` (its index and type) and the group's `extent`.
pub(super) fn store_group_index(
    b: &mut FunctionBuilder,
    module: &mut ir::Module,
    leaf: &Leaf,
    extent: [u32; 2],
    local: (Handle<ir::LocalVariable>, Handle<Type>),
    (param, param_ty): (u32, Handle<Type>),
) -> Statement {
    b.span = leaf.span;
    let value = group_index(b, module, param, param_ty, extent);
    let u32_ty = builder::ty(module, TypeInner::Scalar(ir::Scalar::U32));
    store_input(b, module, value, (u32_ty, leaf.ty), local, &leaf.members)
}

/// `(id.z * Y + id.y) * X + id.x` of the threadgroup-local id
/// parameter `param` of type `ty` (B20).
pub(super) fn group_index(
    b: &mut FunctionBuilder,
    module: &mut ir::Module,
    param: u32,
    ty: Handle<Type>,
    [x, y]: [u32; 2],
) -> Handle<Expression> {
    let u32_ty = builder::ty(module, TypeInner::Scalar(ir::Scalar::U32));
    let component = |b: &mut FunctionBuilder, c: u8| {
        let id = b.expr(Expression::Param(param), Some(ty));
        b.swizzle(id, vec![c], u32_ty)
    };
    let z = component(b, 2);
    let yy = component(b, 1);
    let xx = component(b, 0);
    let binary = |b: &mut FunctionBuilder, op, left, right| {
        b.expr(Expression::Binary { op, left, right }, Some(u32_ty))
    };
    let extent_y = b.expr(
        Expression::Literal(ir::Literal::Uint(y.into())),
        Some(u32_ty),
    );
    let extent_x = b.expr(
        Expression::Literal(ir::Literal::Uint(x.into())),
        Some(u32_ty),
    );
    let zy = binary(b, ir::BinaryOp::Multiply, z, extent_y);
    let zy = binary(b, ir::BinaryOp::Add, zy, yy);
    let zyx = binary(b, ir::BinaryOp::Multiply, zy, extent_x);
    binary(b, ir::BinaryOp::Add, zyx, xx)
}

impl FamilyTarget for Target {
    fn place(&self) -> Place {
        match self {
            Target::BuiltIn { value, element, .. } => Place::BuiltIn(*value, *element),
            Target::Location {
                location,
                interpolation,
                blend,
                ..
            } => Place::Location(*location, *interpolation, *blend),
            Target::Uniform => Place::Uniform,
            Target::GroupIndex { .. } | Target::Payload | Target::Indices { .. } => Place::Made,
        }
    }
    fn builtin_type(&self) -> Option<BuiltinType> {
        match self {
            // `[[color(n)]]` takes the declared type: an integer render
            // target is written as integers.
            Target::BuiltIn { row, .. } if !row.by_index => Some(row.ty),
            _ => None,
        }
    }
    fn element_mut(&mut self) -> Option<&mut u32> {
        match self {
            Target::BuiltIn { element, .. } => element.as_mut(),
            _ => None,
        }
    }
    fn io(&self) -> ir::IoAttrs {
        io_for(self)
    }
}

/// The binding the interface value carries.
pub(super) fn io_for(target: &Target) -> ir::IoAttrs {
    let mut interpolation = ir::Interpolation::default();
    let mut link_name = None;
    let binding = match target {
        // `SV_TargetN` is `[[color(N)]]`: a fragment output location.
        Target::BuiltIn {
            row, index, blend, ..
        } if row.by_index => {
            builder::location_binding(*index, ir::Interpolation::default(), *blend)
        }
        Target::BuiltIn {
            value,
            interpolation: declared,
            ..
        } => {
            // `SV_Barycentrics` keeps its interpolation (the writer spells
            // it beside `barycentric_coord`).
            if *value == ir::SystemValue::Barycentrics {
                interpolation = *declared;
            }
            builder::builtin_binding(*value)
        }
        Target::Location {
            location: l,
            interpolation,
            link,
            blend,
        } => {
            link_name = link.clone();
            builder::location_binding(*l, *interpolation, *blend)
        }
        // Uniform leaves become globals, synthesised ones locals, the
        // payload and the indices parameters of their own kind (B21):
        // never interface values.
        Target::Uniform | Target::GroupIndex { .. } | Target::Payload | Target::Indices { .. } => {
            return ir::IoAttrs::default();
        }
    };
    ir::IoAttrs {
        binding: Some(binding),
        interpolation,
        link_name,
        ..ir::IoAttrs::default()
    }
}
