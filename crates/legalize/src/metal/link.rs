//! Cross-stage linking on Metal: a stage's user-varying inputs checked
//! against what the previous stage writes (vertex or mesh to fragment),
//! and a mesh function's payload against its object function's, by the
//! every-target check of `legalis_ir::link`.
//!
//! Metal matches a fragment input with the previous stage's output by its
//! `[[user(NAME)]]` name, and both sides take the name from the semantic
//! (`legalis_sysval::metal::link_name`): once the check passes, each stage
//! is written as it is legalized alone.

use legalis_ir as ir;
use legalis_ir::diag::Diagnostic;
use legalis_ir::link::{Dispatched, Rules, check_payload, match_inputs};
use legalis_sysval::Direction;

use super::plan::Plan;
use crate::common::link::{join, side, varyings};

/// Checks `consumer` (legalized on its own) against what `producer`
/// writes: every user-semantic input written, with the same type and, into
/// a fragment function, the same interpolation; a mesh function's payload
/// the type its object function dispatches. `module` is the module both
/// were legalized from. Every disagreement is `E49801` or `E49802`,
/// naming both sides.
pub fn link_inputs(
    module: &ir::Module,
    producer: &Plan,
    consumer: &Plan,
) -> Result<(), Vec<Diagnostic>> {
    let mut errors = Vec::new();
    let entry = |plan: &Plan| {
        module
            .entry_points
            .iter()
            .find(|e| e.name == plan.entry && e.stage == plan.stage)
    };
    if let (ir::ShaderStage::Amplification, Some(object), Some(mesh)) =
        (producer.stage, entry(producer), entry(consumer))
    {
        let dispatched =
            super::mesh::dispatched_payload(module, object).map(|(ty, span)| Dispatched {
                label: format!("`{}` dispatches a `{ty}` here", producer.entry),
                ty,
                span,
            });
        let payload_side = side(&producer.entry, producer.stage);
        check_payload(module, payload_side, dispatched, mesh, &mut errors);
    }
    let matched = match_inputs(
        module,
        side(&producer.entry, producer.stage),
        &varyings(&producer.leaves, Direction::Output),
        side(&consumer.entry, consumer.stage),
        &varyings(&consumer.leaves, Direction::Input),
        Rules::default(),
    );
    join(errors, matched).map(|_| ())
}
