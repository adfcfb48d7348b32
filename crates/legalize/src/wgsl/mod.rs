//! The WGSL varying legalizer (B22, B23).
//!
//! For one vertex, fragment or compute entry point it first computes a
//! [`Plan`] — for every leaf of every parameter and of the result, the
//! `@builtin` or `@location` it becomes and why — then rewrites a copy of
//! the module, one pass per file:
//!
//! - `map_system_values.rs`: leaves (nested structs flattened: WGSL takes
//!   one level), the WGSL column of the system-value table, `E55202` for
//!   every system value WGSL cannot express (B23);
//! - `assign_locations.rs`: sequential `@location`s honouring
//!   `[[vk::location]]` and `SV_TargetN`, `@interpolate` (integers flat),
//!   `half` varyings widened to `f32` under `-fvk-widen-16bit-varyings`
//!   (`f16` under `enable f16;` otherwise);
//! - `link.rs`: a stage of a linked pipeline (several `-entry`) checked
//!   against the previous one by `legalis_ir::link`, its inputs then
//!   legalized at the locations that stage writes them
//!   ([`Family::legalize_linked`]);
//! - `wrap_entry_point.rs`: the attributed entry function and result
//!   struct around the source function, with the conversions between the
//!   declared types and the builtins' (`int` ids from `u32`, `uint2`
//!   dispatch ids from `vec3<u32>`).
//!
//! `SV_VertexID`/`SV_InstanceID` are WGSL's `vertex_index`/
//! `instance_index`, which count from the draw's first vertex/instance:
//! WGSL has no base builtin to subtract, so `-fvk-raw-vertex-id` changes
//! nothing here (the reference maps them the same way).
//!
//! A [`Legalized`] module: its one entry point's function takes attributed
//! parameters and returns an attributed struct (or nothing).
//! [`LegalizedAll`]: every entry point of a module legalized for WGSL into
//! one module ([`Family::legalize_all_unverified`]): each an attributed
//! wrapper, a new function that leaves the others' functions alone, with
//! its own plan (in entry-point order); `legalis_emit::wgsl::write_entries`
//! writes it.
//!
//! The legalizer never prints; the result is IR plus the plan.

mod assign_locations;
mod link;
mod map_system_values;
pub mod plan;
mod wrap_entry_point;

use legalis_ir::FastHashSet;

use legalis_ir as ir;
use legalis_ir::diag::Diagnostic;
use legalis_sysval::Direction;

pub use link::link_inputs;
pub use plan::{Leaf, Linked, Plan, Reason, Root, Target};

use crate::codes;
use crate::common::legalized::{family, keep_or_drop};
use crate::common::plan::{interface_name, unique_name};
use crate::{Family, Job};

family!(Wgsl, "WGSL");

impl Family for Wgsl {
    type Plan = Plan;

    fn legalize_one(job: Job<'_>) -> Result<Legalized, Vec<Diagnostic>> {
        let entry = job.entry;
        let module = &*crate::common::leaves::with_row_types(
            job.module,
            &job.module.functions[entry.function],
        );
        let func = &module.functions[entry.function];
        let mut leaves = map_system_values::collect_leaves(module, func)?;
        let errors = map_system_values::map_leaves(module, entry.stage, &mut leaves);
        if !errors.is_empty() {
            return Err(errors);
        }
        let errors = assign_locations::assign_locations(
            module,
            entry.stage,
            &mut leaves,
            job.linked,
            job.policy.widen_16bit_varyings,
        );
        if !errors.is_empty() {
            return Err(errors);
        }
        let plan = make_plan(entry, leaves);
        if entry.stage == ir::ShaderStage::Vertex
            && !crate::common::wrap::writes_position(&plan.leaves)
        {
            return Err(vec![Diagnostic::error(
                codes::WGSL_VERTEX_WITHOUT_POSITION,
                "a WGSL vertex entry point must write `SV_Position` (`@builtin(position)`)",
                entry.span,
            )]);
        }
        let mut out = module.clone();
        let index = keep_or_drop(&mut out, job.entry_point, job.others);
        wrap_entry_point::apply(&mut out, index, &plan, job.policy);
        Ok(Legalized { module: out, plan })
    }
}

fn make_plan(entry: &ir::EntryPoint, leaves: Vec<map_system_values::RawLeaf>) -> Plan {
    let mut names: FastHashSet<(Direction, String)> = FastHashSet::default();
    let leaves = crate::common::plan::decide(leaves, |raw| {
        unique_name(&mut names, raw.direction, interface_name(&raw.path))
    });
    Plan::new(entry, leaves, ())
}
