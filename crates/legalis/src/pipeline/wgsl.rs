//! WGSL: the WGSL varying legalizer's attributed entry point, then the WGSL
//! writer; `wgsl-spirv-asm` takes that WGSL through naga's SPIR-V writer.

use super::{Ctx, Pipeline, write_error};
use crate::{Generated, Target, codes, cpp, ir, trace};
use legalis_ir::diag::Diagnostic;
use legalis_legalize::wgsl as legalize;

/// The WGSL family.
pub(crate) struct Wgsl;

impl Pipeline for Wgsl {
    type Legalizer = legalize::Wgsl;
    type Plan = legalize::Plan;
    type Kept = legalize::Plan;

    fn write_one(
        cx: &Ctx,
        legalized: &legalize::Legalized,
        bindings: legalis_bind::Plan,
    ) -> Result<(Vec<u8>, Option<String>), Diagnostic> {
        let options = options(cx, bindings);
        let text = legalis_emit::wgsl::write(&legalized.module, 0, &options).map_err(error)?;
        let trace = cx
            .request
            .trace
            .map(|format| trace::wgsl::render(&legalized.module, &legalized.plan, format));
        Ok((text.into_bytes(), trace))
    }

    fn write_all(
        cx: &Ctx,
        module: &ir::Module,
        entries: &[usize],
        plans: &[legalize::Plan],
        bindings: legalis_bind::Plan,
    ) -> Result<(Vec<u8>, Option<String>), Diagnostic> {
        let options = options(cx, bindings);
        let text = legalis_emit::wgsl::write_entries(module, entries, &options).map_err(error)?;
        let trace = cx
            .request
            .trace
            .map(|format| trace::wgsl::render_entries(module, plans, format));
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
    }

    fn finish(
        cx: &Ctx,
        generated: Generated,
        span: ir::Span,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Option<Generated> {
        match cx.asked {
            Target::WgslSpirvAsm => as_spirv_asm(generated, span, diagnostics),
            _ => Some(generated),
        }
    }
}

/// The WGSL writer's options for the request, with the binding plan.
fn options(cx: &Ctx, bindings: legalis_bind::Plan) -> legalis_emit::wgsl::Options {
    legalis_emit::wgsl::Options {
        bindings: Some(bindings),
        preserve_params: cx.request.policy.preserve_params,
    }
}

/// A WGSL writer's error as a diagnostic.
fn error(e: legalis_emit::wgsl::Error) -> Diagnostic {
    write_error(legalis_emit::codes::of_wgsl(&e), e.to_string(), e.span())
}

/// `wgsl-spirv-asm`: the WGSL Legalis wrote (`generated`) as SPIR-V
/// assembly through naga ([`to_spirv`]); `E00009` at `span` (the entry
/// point) where naga cannot make valid SPIR-V of it.
fn as_spirv_asm(
    mut generated: Generated,
    span: ir::Span,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Generated> {
    let text = String::from_utf8_lossy(&generated.bytes).into_owned();
    match to_spirv(&text) {
        Ok(words) => {
            generated.bytes = legalis_emit::spirv::disassemble(&words).into_bytes();
            Some(generated)
        }
        Err(message) => {
            diagnostics.push(Diagnostic::error(
                codes::WGSL_TO_SPIRV,
                format!("the WGSL output does not become valid SPIR-V through naga: {message}"),
                span,
            ));
            None
        }
    }
}

/// The SPIR-V of a WGSL module, as naga's SPIR-V writer makes it (SPIR-V
/// 1.0 for Vulkan, names kept, no coordinate-space or depth adjustment, so
/// it means what Legalis's WGSL means); the WGSL is parsed and validated
/// first, and the SPIR-V is validated after. The error is naga's message,
/// or the SPIR-V validator's.
pub(crate) fn to_spirv(wgsl: &str) -> Result<Vec<u32>, String> {
    let module = naga::front::wgsl::parse_str(wgsl).map_err(|e| e.emit_to_string(wgsl))?;
    let mut validator = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::all(),
    );
    let info = validator
        .validate(&module)
        .map_err(|e| e.emit_to_string(wgsl))?;
    let options = naga::back::spv::Options {
        flags: naga::back::spv::WriterFlags::DEBUG | naga::back::spv::WriterFlags::LABEL_VARYINGS,
        ..Default::default()
    };
    let words =
        naga::back::spv::write_vec(&module, &info, &options, None).map_err(|e| e.to_string())?;
    // Never an invalid module: naga's writer has gaps the validator sees
    // (explicit layouts on workgroup arrays, for one).
    cpp::validate_spirv(&words)?;
    Ok(words)
}
