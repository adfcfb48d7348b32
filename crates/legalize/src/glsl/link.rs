//! Cross-stage linking on GLSL and SPIR-V: the entry points of one
//! pipeline legalized together so that what a stage writes and the next
//! reads agree, keyed by semantic.
//!
//! The order of the stages and the agreement of the two sides are every
//! target's, in `legalis_ir::link` ([`pipeline_order`],
//! `legalis_ir::link::match_inputs`, `legalis_ir::link::check_payload`).
//! For each pair, [`link_inputs`] describes the consumer's plan (legalized
//! on its own) and the producer's to that check, and returns the
//! producer's locations (and per-primitive flags, for mesh to fragment)
//! for the consumer's inputs ([`Linked`]), which
//! [`crate::glsl::legalize_linked`] then uses. Every mismatch is a diagnostic
//! naming both sides.

use legalis_ir as ir;
use legalis_ir::diag::Diagnostic;
use legalis_ir::link::{Dispatched, Rules, Side, Varying, check_payload, match_inputs};
use legalis_sysval::Direction;

pub use legalis_ir::link::pipeline_order;

use crate::glsl::Legalized;
use crate::glsl::plan::{Linked, Plan, Target};

/// Checks `consumer` (legalized on its own) against what `producer` writes
/// and returns the locations its inputs take in the linked pipeline.
/// `module` is the module both were legalized from.
pub fn link_inputs(
    module: &ir::Module,
    producer: &Legalized,
    consumer: &Legalized,
) -> Result<Linked, Vec<Diagnostic>> {
    let (p, c) = (&producer.plan, &consumer.plan);
    let mut errors = Vec::new();
    let consumer_entry = module
        .entry_points
        .iter()
        .find(|e| e.name == c.entry && e.stage == c.stage);
    if let (ir::ShaderStage::Amplification, Some(mesh)) = (p.stage, consumer_entry) {
        // The payload `DispatchMesh` sends is the task-payload global.
        let dispatched = producer
            .module
            .globals
            .iter()
            .find(|(_, g)| g.space == ir::AddressSpace::TaskPayload)
            .map(|(h, g)| Dispatched {
                ty: ir::print::type_name(&producer.module, g.ty),
                span: producer.module.globals.span(h),
                label: format!("`{}` is dispatched here", g.name),
            });
        check_payload(module, side(p), dispatched, mesh, &mut errors);
    }
    let matched = match_inputs(
        module,
        side(p),
        &varyings(p, Direction::Output),
        side(c),
        &varyings(c, Direction::Input),
        Rules::default(),
    );
    match matched {
        Ok(linked) if errors.is_empty() => Ok(linked),
        Ok(_) => Err(errors),
        Err(e) => {
            errors.extend(e);
            Err(errors)
        }
    }
}

/// A plan's entry point as one side of a link.
fn side(plan: &Plan) -> Side<'_> {
    Side {
        entry: &plan.entry,
        stage: plan.stage,
    }
}

/// The leaves of `plan` at locations in `direction` (user semantics are
/// always varyings: the producer's is a location), as the shared check
/// sees them.
fn varyings(plan: &Plan, direction: Direction) -> Vec<Varying<'_>> {
    plan.leaves
        .iter()
        .filter(|leaf| leaf.direction == direction)
        .filter_map(|leaf| match leaf.target {
            Target::Location {
                location,
                interpolation,
                patch,
                per_primitive,
                ..
            } => Some(Varying {
                path: &leaf.path,
                semantic: leaf.semantic.as_ref(),
                ty: leaf.ty,
                interpolation,
                patch,
                location,
                per_primitive,
                span: leaf.span,
            }),
            _ => None,
        })
        .collect()
}
