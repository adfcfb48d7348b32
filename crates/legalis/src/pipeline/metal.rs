//! Metal: the Metal varying legalizer's attributed entry point, then the
//! MSL writer.

use super::{Ctx, Pipeline, write_error};
use crate::{ir, trace};
use legalis_ir::diag::Diagnostic;
use legalis_legalize::metal as legalize;

/// The Metal family.
pub(crate) struct Metal;

impl Pipeline for Metal {
    type Legalizer = legalize::Metal;
    type Plan = legalize::Plan;
    type Kept = legalize::Plan;

    fn write_one(
        cx: &Ctx,
        legalized: &legalize::Legalized,
        bindings: legalis_bind::Plan,
    ) -> Result<(Vec<u8>, Option<String>), Diagnostic> {
        let options = options(bindings);
        let text = legalis_emit::metal::write(&legalized.module, 0, &options).map_err(error)?;
        let trace = cx
            .request
            .trace
            .map(|format| trace::metal::render(&legalized.module, &legalized.plan, format));
        Ok((text.into_bytes(), trace))
    }

    fn write_all(
        cx: &Ctx,
        module: &ir::Module,
        entries: &[usize],
        plans: &[legalize::Plan],
        bindings: legalis_bind::Plan,
    ) -> Result<(Vec<u8>, Option<String>), Diagnostic> {
        let options = options(bindings);
        let text = legalis_emit::metal::write_entries(module, entries, &options).map_err(error)?;
        let trace = cx
            .request
            .trace
            .map(|format| trace::metal::render_entries(module, plans, format));
        Ok((text.into_bytes(), trace))
    }

    fn keep(legalized: &legalize::Legalized) -> legalize::Plan {
        legalized.plan.clone()
    }

    fn link(
        module: &ir::Module,
        producer: &legalize::Plan,
        consumer: &legalize::Legalized,
    ) -> Result<ir::link::Linked, Vec<Diagnostic>> {
        legalize::link_inputs(module, producer, &consumer.plan)
            .map(|()| ir::link::Linked::default())
    }
}

/// The MSL writer's options with the binding plan.
fn options(bindings: legalis_bind::Plan) -> legalis_emit::metal::Options {
    legalis_emit::metal::Options {
        bindings: Some(bindings),
    }
}

/// An MSL writer's error as a diagnostic.
fn error(e: legalis_emit::metal::Error) -> Diagnostic {
    write_error(legalis_emit::codes::of_metal(&e), e.to_string(), e.span())
}
