//! The WGSL entry point as a wrapper around the source's (B22): a new
//! function, named after the entry point, takes one attributed parameter
//! per input leaf and returns one attributed struct with a member per
//! output leaf. Its body rebuilds the source's parameters as locals (with
//! conversions from the builtins' WGSL types), calls the source function
//! (renamed `<entry>_body`), and copies every output leaf into the result
//! struct (with conversions to the builtins' types). The source function
//! itself is untouched, so no expression of the user's code is rewritten.
//!
//! Under `-fvk-widen-16bit-varyings` a `half` varying's parameter or
//! member is `f32` (`vec4<f32>`) and the wrapper converts it to and from
//! the declared `half`; without it the varying is `f16` itself.
//!
//! The [`ir::Policy`] conventions on builtin values apply here:
//! `-fvk-invert-y` negates the written position's `y`,
//! `-fvk-use-dx-position-w` makes a fragment position's `w` its
//! reciprocal.

use legalis_ir as ir;
use legalis_sysval::BuiltinType;

use super::plan::{Plan, Target};
use crate::common::plan::{FamilyTarget, Place};
use crate::common::wrap::wrap;

/// Appends the wrapper and points the entry point at it.
pub fn apply(module: &mut ir::Module, entry_point: usize, plan: &Plan, policy: &ir::Policy) {
    wrap(module, entry_point, &plan.leaves, policy, |_, _, _, _| {});
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
        }
    }
    fn builtin_type(&self) -> Option<BuiltinType> {
        match self {
            Target::BuiltIn { row, .. } => Some(row.ty),
            _ => None,
        }
    }
    fn element_mut(&mut self) -> Option<&mut u32> {
        match self {
            Target::BuiltIn { element, .. } => element.as_mut(),
            _ => None,
        }
    }
    fn widened(&self) -> bool {
        matches!(self, Target::Location { widened: true, .. })
    }
}
