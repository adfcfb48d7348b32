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
use legalis_ir::link::{Dispatched, Rules, Side, Varying, check_payload, match_inputs};
use legalis_sysval::Direction;

use super::plan::{Plan, Target};

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
        check_payload(module, side(producer), dispatched, mesh, &mut errors);
    }
    let matched = match_inputs(
        module,
        side(producer),
        &varyings(producer, Direction::Output),
        side(consumer),
        &varyings(consumer, Direction::Input),
        Rules::default(),
    );
    if let Err(e) = matched {
        errors.extend(e);
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

fn side(plan: &Plan) -> Side<'_> {
    Side {
        entry: &plan.entry,
        stage: plan.stage,
    }
}

/// The user-varying leaves of `plan` in `direction` (a mesh function's
/// vertex and primitive fields among them), as the shared check sees them.
fn varyings(plan: &Plan, direction: Direction) -> Vec<Varying<'_>> {
    plan.leaves
        .iter()
        .filter(|leaf| leaf.direction == direction)
        .filter_map(|leaf| match leaf.target {
            Target::Location {
                location,
                interpolation,
                ..
            } => Some(Varying {
                path: &leaf.path,
                semantic: leaf.semantic.as_ref(),
                ty: leaf.ty,
                interpolation,
                patch: false,
                location,
                per_primitive: leaf.mesh == Some(ir::MeshOutputKind::Primitives),
                span: leaf.span,
            }),
            _ => None,
        })
        .collect()
}
