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
use legalis_ir::{Expression, Statement, SystemValue, TypeInner};
use legalis_sysval::BuiltinType;

use super::plan::{Plan, Root, Target};
use crate::common::plan::FamilyTarget;
use crate::common::wrap::{Argument, WrapLeaf, wrap};

/// Appends the wrapper and points the entry point at it.
pub fn apply(module: &mut ir::Module, entry_point: usize, plan: &Plan, policy: &ir::Policy) {
    wrap(
        module,
        entry_point,
        &plan.leaves,
        policy,
        |w, arguments, made| {
            // B20: `SV_GroupIndex` from the threadgroup-local id.
            let group_thread_id = made
                .iter()
                .find(|p| p.leaf.builtin() == Some(SystemValue::GroupThreadId))
                .map(|p| (p.index, p.ty));
            for leaf in &plan.leaves {
                let (Target::GroupIndex { x, y }, Root::Param(k), Some((param, param_ty))) =
                    (&leaf.target, &leaf.root, group_thread_id)
                else {
                    continue;
                };
                let Argument::Local(local, root_ty) = arguments[*k as usize] else {
                    continue;
                };
                let value = w.group_index(param, param_ty, [*x, *y], leaf.span);
                let u32_ty = w.ty(TypeInner::Scalar(ir::Scalar::U32));
                let value = w.convert(value, u32_ty, leaf.ty, leaf.span);
                let target = w.place(Expression::Local(local), root_ty, &leaf.members, leaf.span);
                w.func
                    .body
                    .push(Statement::Store { target, value }, leaf.span);
            }
        },
    );
}

impl FamilyTarget for Target {
    fn is_uniform(&self) -> bool {
        *self == Target::Uniform
    }
    fn is_parameter(&self) -> bool {
        matches!(self, Target::BuiltIn { .. } | Target::Location { .. })
    }
    fn builtin(&self) -> Option<SystemValue> {
        match self {
            Target::BuiltIn { value, .. } => Some(*value),
            _ => None,
        }
    }
    fn location(&self) -> Option<(u32, ir::Interpolation)> {
        match self {
            Target::Location {
                location,
                interpolation,
                ..
            } => Some((*location, *interpolation)),
            _ => None,
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
    fn io(&self) -> ir::IoAttrs {
        io_for(self)
    }
}

/// The binding the interface value carries.
pub(super) fn io_for(target: &Target) -> ir::IoAttrs {
    let location = |location: u32, interpolation: ir::Interpolation| ir::Binding::Location {
        location,
        component: 0,
        index: None,
        interpolation,
        patch: false,
        per_primitive: false,
        per_vertex: false,
    };
    let mut interpolation = ir::Interpolation::default();
    let mut link_name = None;
    let binding = match target {
        // `SV_TargetN` is `[[color(N)]]`: a fragment output location.
        Target::BuiltIn { row, index, .. } if row.by_index => {
            location(*index, ir::Interpolation::default())
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
            ir::Binding::BuiltIn(ir::BuiltIn {
                value: *value,
                array_index: None,
            })
        }
        Target::Location {
            location: l,
            interpolation,
            link,
        } => {
            link_name = link.clone();
            location(*l, *interpolation)
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
