//! CUDA/OptiX device code: the CUDA legalizer, then the CUDA writer. The
//! output includes the prelude (`legalis::cuda_prelude`) by its name. The
//! trace takes its registers and slots from the legalizer's plan (the
//! layout function the writer packs with) and its resources from the
//! writer.

use super::{Ctx, Pipeline, write_error};
use crate::{ir, trace};
use legalis_ir::diag::Diagnostic;
use legalis_legalize::cuda as legalize;

/// The CUDA family.
pub(crate) struct Cuda;

impl Pipeline for Cuda {
    type Legalizer = legalize::Cuda;
    type Plan = legalize::Plan;
    // CUDA has no graphics stages to link (`E00012`).
    type Kept = ();

    fn write_one(
        cx: &Ctx,
        legalized: &legalize::Legalized,
        _bindings: legalis_bind::Plan,
    ) -> Result<(Vec<u8>, Option<String>), Diagnostic> {
        let options = legalis_emit::cuda::Options::default();
        let module = &legalized.module;
        let text = legalis_emit::cuda::write(module, 0, &options).map_err(error)?;
        let trace = match cx.request.trace {
            Some(format) => {
                let resources =
                    legalis_emit::cuda::resources(module, 0, &options).map_err(error)?;
                Some(trace::cuda::render(
                    module,
                    &legalized.plan,
                    &resources,
                    format,
                ))
            }
            None => None,
        };
        Ok((text.into_bytes(), trace))
    }

    /// Several OptiX programs are one translation unit, as OptiX builds one
    /// module of them (the CUDA legalizer checks a program and plans its
    /// payload without rewriting the module, so the module written is the
    /// input).
    fn one_output(_cx: &Ctx, module: &ir::Module) -> Result<(), &'static str> {
        if !module.entry_points.iter().all(|e| e.stage.is_ray_tracing()) {
            return Err(
                "one CUDA output holds several entry points only when all are OptiX programs",
            );
        }
        Ok(())
    }

    /// One `LaunchParams` holds every resource any program reaches, and
    /// the trace is one per program.
    fn write_all(
        cx: &Ctx,
        module: &ir::Module,
        entries: &[usize],
        plans: &[legalize::Plan],
        _bindings: legalis_bind::Plan,
    ) -> Result<(Vec<u8>, Option<String>), Diagnostic> {
        let options = legalis_emit::cuda::Options::default();
        let text = legalis_emit::cuda::write_entries(module, entries, &options).map_err(error)?;
        let trace = match cx.request.trace {
            Some(format) => {
                let resources = legalis_emit::cuda::resources_of_entries(module, entries, &options)
                    .map_err(error)?;
                Some(trace::cuda::render_entries(
                    module, plans, &resources, format,
                ))
            }
            None => None,
        };
        Ok((text.into_bytes(), trace))
    }

    fn keep(_legalized: &legalize::Legalized) {}

    fn link(
        _module: &ir::Module,
        _producer: &(),
        _consumer: &legalize::Legalized,
    ) -> Result<ir::link::Linked, Vec<Diagnostic>> {
        Ok(ir::link::Linked::default())
    }
}

/// A CUDA writer's error as a diagnostic.
fn error(e: legalis_emit::cuda::Error) -> Diagnostic {
    write_error(legalis_emit::codes::of_cuda(&e), e.to_string(), e.span())
}
