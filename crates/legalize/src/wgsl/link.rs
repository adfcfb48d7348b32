//! Cross-stage linking on WGSL: a fragment entry point's `@location`
//! inputs checked against what the vertex entry point writes, by the
//! every-target check of `legalis_ir::link` (with WGSL's own rule that
//! both sides sample alike), then given the vertex stage's locations.

use legalis_ir as ir;
use legalis_ir::diag::Diagnostic;
use legalis_ir::link::{Rules, Side, Varying, match_inputs};
use legalis_sysval::Direction;

use super::plan::{Linked, Plan, Target};

/// Checks `consumer` (legalized on its own) against what `producer`
/// writes and returns the locations its inputs take in the linked
/// pipeline ([`super::legalize_linked`] places them). `module` is the
/// module both were legalized from. Every disagreement is `E49801` or
/// `E49802`, naming both sides.
pub fn link_inputs(
    module: &ir::Module,
    producer: &Plan,
    consumer: &Plan,
) -> Result<Linked, Vec<Diagnostic>> {
    match_inputs(
        module,
        side(producer),
        &varyings(producer, Direction::Output),
        side(consumer),
        &varyings(consumer, Direction::Input),
        // WebGPU's pipeline validation compares the sampling too.
        Rules { sampling: true },
    )
}

fn side(plan: &Plan) -> Side<'_> {
    Side {
        entry: &plan.entry,
        stage: plan.stage,
    }
}

/// The `@location` leaves of `plan` in `direction`, as the shared check
/// sees them.
fn varyings(plan: &Plan, direction: Direction) -> Vec<Varying<'_>> {
    plan.leaves
        .iter()
        .filter(|leaf| leaf.direction == direction)
        .filter_map(|leaf| match leaf.target {
            Target::Location {
                location,
                interpolation,
            } => Some(Varying {
                path: &leaf.path,
                semantic: leaf.semantic.as_ref(),
                ty: leaf.ty,
                interpolation,
                patch: false,
                location,
                per_primitive: false,
                span: leaf.span,
            }),
            _ => None,
        })
        .collect()
}
