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
//! [`crate::Family::legalize_linked`] then uses. Every mismatch is a diagnostic
//! naming both sides.

use legalis_ir as ir;
use legalis_ir::diag::Diagnostic;
use legalis_ir::link::{Dispatched, Rules, Varying, check_payload, match_inputs};
use legalis_sysval::Direction;

pub use legalis_ir::link::pipeline_order;

use crate::common::link::{LinkLeaf, join, side, varyings};
use crate::glsl::Legalized;
use crate::glsl::plan::{Leaf, Linked, Target};

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
        check_payload(
            module,
            side(&p.entry, p.stage),
            dispatched,
            mesh,
            &mut errors,
        );
    }
    let matched = match_inputs(
        module,
        side(&p.entry, p.stage),
        &varyings(&p.leaves, Direction::Output),
        side(&c.entry, c.stage),
        &varyings(&c.leaves, Direction::Input),
        Rules::default(),
    );
    let producer_entry = module
        .entry_points
        .iter()
        .find(|e| e.name == p.entry && e.stage == p.stage);
    let tessellator = match (producer_entry, consumer_entry) {
        (Some(hull), Some(domain))
            if hull.stage == ir::ShaderStage::Hull && domain.stage == ir::ShaderStage::Domain =>
        {
            Some(crate::glsl::hull::link_tessellator(
                hull,
                domain,
                &mut errors,
            ))
        }
        _ => None,
    };
    let mut linked = join(errors, matched)?;
    if let Some((partitioning, output_topology)) = tessellator {
        linked.partitioning = partitioning;
        linked.output_topology = output_topology;
    }
    Ok(linked)
}

/// The leaves at locations (user semantics are always varyings: the
/// producer's is a location).
impl LinkLeaf for Leaf {
    fn direction(&self) -> Direction {
        self.direction
    }

    fn varying(&self) -> Option<Varying<'_>> {
        let Target::Location {
            location,
            interpolation,
            patch,
            per_primitive,
            ..
        } = self.target
        else {
            return None;
        };
        Some(Varying {
            path: &self.path,
            semantic: self.semantic.as_ref(),
            ty: self.ty,
            interpolation,
            patch,
            location,
            per_primitive,
            span: self.span,
        })
    }
}
