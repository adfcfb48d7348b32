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
use std::collections::BTreeSet;

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
        type_size_limit(&out)?;
        wrap_entry_point::apply(&mut out, index, &plan, job.policy);
        Ok(Legalized { module: out, plan })
    }
}

/// The largest type WGSL takes, in bytes (naga refuses a larger one:
/// "type is too large").
const WGSL_MAX_TYPE_SIZE: u32 = 2_147_483_647;

/// A global, parameter, result or local the entry points reach whose
/// WGSL type (a buffer's element or block) is larger than [`WGSL_MAX_TYPE_SIZE`]: `E55211` at
/// it, naming the type.
fn type_size_limit(module: &ir::Module) -> Result<(), Vec<Diagnostic>> {
    let layouter = legalis_layout::Layouter::new(module, legalis_layout::Rule::Std430);
    // The type WGSL declares: a buffer's element or a constant buffer's
    // struct; resources have no size.
    let sized = |ty: ir::Handle<ir::Type>| match &module.types[ty].inner {
        ir::TypeInner::Buffer {
            element: Some(element),
            ..
        } => Some(*element),
        ir::TypeInner::ConstantBuffer { inner } | ir::TypeInner::TextureBuffer { inner } => {
            Some(*inner)
        }
        _ if module.is_resource_type(ty) => None,
        _ => Some(ty),
    };
    let too_large = |ty: ir::Handle<ir::Type>| match layouter.layout(ty, None) {
        Ok(layout) => layout.size > WGSL_MAX_TYPE_SIZE,
        Err(legalis_layout::Error::TooLarge(_)) => true,
        Err(_) => false,
    };
    // What the writer writes: what the entry points reach.
    let (mut reached_globals, mut reached_functions) = (BTreeSet::new(), BTreeSet::new());
    for entry in &module.entry_points {
        let reach = ir::Reach::of_entry_point(module, entry);
        reached_globals.extend(reach.globals());
        reached_functions.extend(reach.functions());
    }
    let globals = reached_globals
        .into_iter()
        .map(|h| (module.globals[h].ty, module.globals.span(h)));
    let functions =
        crate::common::function_types(reached_functions.into_iter().map(|f| &module.functions[f]));
    let found = globals
        .chain(functions)
        .find_map(|(ty, span)| sized(ty).filter(|&t| too_large(t)).map(|t| (t, span)));
    match found {
        Some((ty, span)) => Err(vec![Diagnostic::error(
            codes::WGSL_TYPE_TOO_LARGE,
            format!(
                "`{}` is larger than the {WGSL_MAX_TYPE_SIZE} bytes WGSL takes in a type",
                ir::print::type_name(module, ty),
            ),
            span,
        )]),
        None => Ok(()),
    }
}

fn make_plan(entry: &ir::EntryPoint, leaves: Vec<map_system_values::RawLeaf>) -> Plan {
    let mut names: FastHashSet<(Direction, String)> = FastHashSet::default();
    let leaves = crate::common::plan::decide(leaves, |raw| {
        unique_name(&mut names, raw.direction, interface_name(&raw.path))
    });
    Plan::new(entry, leaves, ())
}
