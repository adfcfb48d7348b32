//! The WGSL entry point as a wrapper around the source's (B22): a new
//! function, named after the entry point, takes one attributed parameter
//! per input leaf and returns one attributed struct with a member per
//! output leaf. Its body rebuilds the source's parameters as locals (with
//! conversions from the builtins' WGSL types), calls the source function
//! (renamed `<entry>_body`), and copies every output leaf into the result
//! struct (with conversions to the builtins' types). The source function
//! itself is untouched, so no expression of the user's code is rewritten.
//!
//! The [`ir::Policy`] conventions on builtin values apply here:
//! `-fvk-invert-y` negates the written position's `y`,
//! `-fvk-use-dx-position-w` makes a fragment position's `w` its
//! reciprocal.

use legalis_ir as ir;
use legalis_ir::{Handle, Span, SystemValue, Type};
use legalis_sysval::{BuiltinType, Direction};

use super::plan::{Leaf, Plan, Root, Target};
use crate::common::wrap::{WrapLeaf, WrapRoot, wrap};

/// Appends the wrapper and points the entry point at it.
pub fn apply(module: &mut ir::Module, entry_point: usize, plan: &Plan, policy: &ir::Policy) {
    wrap(module, entry_point, &plan.leaves, policy, |_, _, _| {});
}

impl WrapLeaf for Leaf {
    fn root(&self) -> WrapRoot {
        match self.root {
            Root::Param(k) => WrapRoot::Param(k),
            Root::Result => WrapRoot::Result,
        }
    }
    fn direction(&self) -> Direction {
        self.direction
    }
    fn members(&self) -> &[u32] {
        &self.members
    }
    fn declared(&self) -> Handle<Type> {
        self.ty
    }
    fn name(&self) -> &str {
        &self.name
    }
    fn span(&self) -> Span {
        self.span
    }
    fn is_uniform(&self) -> bool {
        self.target == Target::Uniform
    }
    fn is_parameter(&self) -> bool {
        self.target != Target::Uniform
    }
    fn builtin(&self) -> Option<SystemValue> {
        match self.target {
            Target::BuiltIn { value, .. } => Some(value),
            _ => None,
        }
    }
    fn builtin_type(&self) -> Option<BuiltinType> {
        match &self.target {
            Target::BuiltIn { row, .. } => Some(row.ty),
            _ => None,
        }
    }
    fn io(&self) -> ir::IoAttrs {
        io_for(self)
    }
}

/// The binding the interface value carries.
fn io_for(leaf: &Leaf) -> ir::IoAttrs {
    let binding = match &leaf.target {
        Target::BuiltIn { value, .. } => ir::Binding::BuiltIn(ir::BuiltIn {
            value: *value,
            array_index: None,
        }),
        Target::Location {
            location,
            interpolation,
        } => ir::Binding::Location {
            location: *location,
            component: 0,
            index: None,
            interpolation: *interpolation,
            patch: false,
            per_primitive: false,
            per_vertex: false,
        },
        // Uniform leaves become globals, never interface values.
        Target::Uniform => return ir::IoAttrs::default(),
    };
    ir::IoAttrs {
        binding: Some(binding),
        ..ir::IoAttrs::default()
    }
}
