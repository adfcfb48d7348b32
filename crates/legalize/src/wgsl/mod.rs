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
//!   `[[vk::location]]` and `SV_TargetN`, `@interpolate` (integers flat);
//! - `link.rs`: a stage of a linked pipeline (several `-entry`) checked
//!   against the previous one by `legalis_ir::link`, its inputs then
//!   legalized at the locations that stage writes them
//!   ([`legalize_linked`]);
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
use crate::common::plan::{interface_name, unique_name};

/// A legalized module: its one entry point's function takes attributed
/// parameters and returns an attributed struct (or nothing).
#[derive(Debug)]
pub struct Legalized {
    /// The legalized module: the chosen entry point alone, its function
    /// the attributed wrapper.
    pub module: ir::Module,
    /// Where every leaf of the entry point's parameters and result went,
    /// and why.
    pub plan: Plan,
}

/// Legalizes entry point `entry_point` of `module` for WGSL under the API
/// conventions of `policy`.
pub fn legalize(
    module: &ir::Module,
    entry_point: usize,
    policy: &ir::Policy,
) -> Result<Legalized, Vec<Diagnostic>> {
    let legalized = legalize_unverified(module, entry_point, policy);
    crate::common::verified(module, entry_point, legalized, |l| &l.module, verify)
}

/// The IR verifier on a legalized module: a pass that left it invalid is
/// an internal error (`E55200`), reported at the entry point (`span`).
pub fn verify(module: &ir::Module, span: ir::Span) -> Result<(), Vec<Diagnostic>> {
    crate::common::verify(module, span, codes::WGSL_INTERNAL_VERIFY)
}

/// [`legalize`] without its last step, the IR verifier: for a caller
/// that runs [`verify`] on the result itself, beside other work (the
/// command line verifies while the writer writes). Until [`verify`]
/// passes, the module may be invalid.
pub fn legalize_unverified(
    module: &ir::Module,
    entry_point: usize,
    policy: &ir::Policy,
) -> Result<Legalized, Vec<Diagnostic>> {
    legalize_linked_unverified(module, entry_point, policy, &Linked::default())
}

/// [`legalize`] as a stage of a linked pipeline: inputs the previous stage
/// writes take its locations (`linked`, from [`link_inputs`]).
pub fn legalize_linked(
    module: &ir::Module,
    entry_point: usize,
    policy: &ir::Policy,
    linked: &Linked,
) -> Result<Legalized, Vec<Diagnostic>> {
    let legalized = legalize_linked_unverified(module, entry_point, policy, linked);
    crate::common::verified(module, entry_point, legalized, |l| &l.module, verify)
}

/// [`legalize_linked`] without the IR verifier, as
/// [`legalize_unverified`].
pub fn legalize_linked_unverified(
    module: &ir::Module,
    entry_point: usize,
    policy: &ir::Policy,
    linked: &Linked,
) -> Result<Legalized, Vec<Diagnostic>> {
    let legalized = legalize_one(module, entry_point, policy, linked, Others::Drop);
    crate::common::inlined(legalized, |l| &mut l.module)
}

use ir::OtherEntryPoints as Others;

/// Every entry point of a module legalized for WGSL into one module: each
/// an attributed wrapper, with its own plan (in entry-point order).
#[derive(Debug)]
pub struct LegalizedAll {
    /// The module holding every legalized entry point, in the input's
    /// entry-point order.
    pub module: ir::Module,
    /// One plan per entry point, in the same order.
    pub plans: Vec<Plan>,
}

/// Legalizes every entry point of `module` for one WGSL module, each for
/// its own stage, one after the other: each wrapper is a new function and
/// leaves the others' functions alone, so the result holds them all
/// (`legalis_emit::wgsl::write_entries` writes it). The errors of every
/// entry point are returned together; the IR verifier is the caller's,
/// as with [`legalize_unverified`].
pub fn legalize_all_unverified(
    module: &ir::Module,
    policy: &ir::Policy,
) -> Result<LegalizedAll, Vec<Diagnostic>> {
    let (module, plans) = crate::common::all(module, |current, k| {
        legalize_one(current, k, policy, &Linked::default(), Others::Keep)
            .map(|l| (l.module, l.plan))
    })?;
    Ok(LegalizedAll { module, plans })
}

fn legalize_one(
    module: &ir::Module,
    entry_point: usize,
    policy: &ir::Policy,
    linked: &Linked,
    others: Others,
) -> Result<Legalized, Vec<Diagnostic>> {
    let entry = crate::common::entry_point(module, entry_point, codes::WGSL_NO_ENTRY_POINT)?;
    if !matches!(
        entry.stage,
        ir::ShaderStage::Vertex | ir::ShaderStage::Fragment | ir::ShaderStage::Compute
    ) {
        let message = format!(
            "WGSL has no {} entry points (only vertex, fragment and compute)",
            entry.stage.name()
        );
        return Err(vec![Diagnostic::error(
            codes::WGSL_UNSUPPORTED_STAGE,
            message,
            entry.span,
        )]);
    }
    let func = &module.functions[entry.function];
    let mut leaves = map_system_values::collect_leaves(module, func)?;
    let errors = map_system_values::map_leaves(module, entry.stage, &mut leaves);
    if !errors.is_empty() {
        return Err(errors);
    }
    let errors = assign_locations::assign_locations(module, entry.stage, &mut leaves, linked);
    if !errors.is_empty() {
        return Err(errors);
    }
    let plan = make_plan(entry, leaves);
    if entry.stage == ir::ShaderStage::Vertex && !crate::common::wrap::writes_position(&plan.leaves)
    {
        return Err(vec![Diagnostic::error(
            codes::WGSL_VERTEX_WITHOUT_POSITION,
            "a WGSL vertex entry point must write `SV_Position` (`@builtin(position)`)",
            entry.span,
        )]);
    }
    let mut out = module.clone();
    let index = match others {
        Others::Drop => {
            out.entry_points = vec![entry.clone()];
            0
        }
        Others::Keep => entry_point,
    };
    wrap_entry_point::apply(&mut out, index, &plan, policy);
    Ok(Legalized { module: out, plan })
}

fn make_plan(entry: &ir::EntryPoint, leaves: Vec<map_system_values::RawLeaf>) -> Plan {
    let mut names: FastHashSet<(Direction, String)> = FastHashSet::default();
    Plan {
        entry: entry.name.clone(),
        stage: entry.stage,
        leaves: crate::common::plan::decide(leaves, |raw| {
            unique_name(&mut names, raw.direction, interface_name(&raw.path))
        }),
    }
}
