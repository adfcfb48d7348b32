//! Descriptor `(set, binding)` numbers of the GLSL, SPIR-V and WGSL
//! writers, read from the binding plan (`legalis_bind`), which holds the
//! rule: a writer given a plan uses it, one given none plans the entry
//! point itself with the default options.

use std::collections::BTreeMap;

use legalis_bind::{Plan, Target};
use legalis_ir as ir;
use legalis_ir::Handle;

pub(crate) use legalis_bind::is_resource;

/// Descriptor numbers of a module.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Bindings {
    /// `(set, binding)` of every resource global (arrays of resources too).
    pub resources: BTreeMap<Handle<ir::GlobalVariable>, (u32, u32)>,
    /// `(set, binding)` of the `_Globals` block, when plain uniforms exist.
    pub globals_block: Option<(u32, u32)>,
}

impl Bindings {
    /// The descriptor numbers of a GLSL/SPIR-V or WGSL plan.
    pub fn from_plan(plan: &Plan) -> Bindings {
        Bindings {
            resources: plan
                .resources
                .iter()
                .filter_map(|r| Some((r.global?, plan.descriptor(r.global?)?)))
                .collect(),
            globals_block: plan.globals_descriptor(),
        }
    }
}

/// `given`, or the plan of entry point `entry_point` for `target` with the
/// default options.
pub(crate) fn of(
    module: &ir::Module,
    entry_point: usize,
    target: Target,
    given: Option<&Plan>,
) -> Bindings {
    match given {
        Some(plan) => Bindings::from_plan(plan),
        None if entry_point < module.entry_points.len() => Bindings::from_plan(
            &legalis_bind::plan(module, entry_point, target, &Default::default()).plan,
        ),
        None => Bindings::default(),
    }
}

/// The GLSL/SPIR-V numbers of `module`'s first entry point under the
/// default options.
pub fn assign_bindings(module: &ir::Module) -> Bindings {
    of(module, 0, Target::Vulkan, None)
}
