//! Cross-stage linking on WGSL: a fragment entry point's `@location`
//! inputs checked against what the vertex entry point writes, by the
//! every-target check of `legalis_ir::link` (with WGSL's own rule that
//! both sides sample alike), then given the vertex stage's locations.

use legalis_ir as ir;
use legalis_ir::diag::Diagnostic;
use legalis_ir::link::{Rules, match_inputs};
use legalis_sysval::Direction;

use super::plan::{Linked, Plan};
use crate::common::link::{side, varyings};

/// Checks `consumer` (legalized on its own) against what `producer`
/// writes and returns the locations its inputs take in the linked
/// pipeline ([`crate::Family::legalize_linked`] places them). `module` is the
/// module both were legalized from. Every disagreement is `E49801` or
/// `E49802`, naming both sides.
pub fn link_inputs(
    module: &ir::Module,
    producer: &Plan,
    consumer: &Plan,
) -> Result<Linked, Vec<Diagnostic>> {
    match_inputs(
        module,
        side(&producer.entry, producer.stage),
        &varyings(&producer.leaves, Direction::Output),
        side(&consumer.entry, consumer.stage),
        &varyings(&consumer.leaves, Direction::Input),
        // WebGPU's pipeline validation compares the sampling too.
        Rules { sampling: true },
    )
}
