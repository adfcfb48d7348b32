//! Every target driven through one table: a [`Pipeline`] per target family
//! (`glsl.rs` for GLSL and SPIR-V, `wgsl.rs`, `metal.rs`, `cuda.rs`) says
//! how that family legalizes, verifies, writes and traces, and the generic
//! drivers here run the steps in the same order for every target:
//!
//! - one entry point ([`generate`] with one in the module): legalize it,
//!   then plan its bindings and write its code beside the verifier
//!   ([`verify_beside`](crate::verify_beside)), keeping the code only if
//!   the module verifies;
//! - several entry points in one module (no `-entry`): legalize them all
//!   into one module, one binding plan for them all, one output;
//! - several `-entry` as one pipeline ([`link_stages`]): each stage
//!   legalized, checked against the previous stage, legalized again at the
//!   places that stage writes, and written.

pub(crate) mod cuda;
pub(crate) mod glsl;
pub(crate) mod metal;
pub(crate) mod wgsl;

use crate::{
    Generated, Request, Target, codes, dispose_elsewhere, ir, keep_if_verified, trace,
    verify_beside, without_span,
};
use legalis_ir::diag::Diagnostic;
use legalis_legalize::Family;

/// What one target family does at each step. The drivers call these in
/// the same order for every target.
pub(crate) trait Pipeline {
    /// The family's legalizer: it legalizes one entry point (or all of a
    /// module's into one) and verifies the result.
    type Legalizer: Family<Plan = Self::Plan>;
    /// What the legalizer decides for one entry point, which the writer
    /// and the trace read.
    type Plan: Send + Sync + 'static;
    /// What linking keeps of a written stage to check the next one against.
    type Kept;

    /// The code of one legalized entry point under the binding plan
    /// `bindings`, and its trace when the request asks for one.
    fn write_one(
        cx: &Ctx,
        legalized: &Legalized<Self>,
        bindings: legalis_bind::Plan,
    ) -> Result<(Vec<u8>, Option<String>), Diagnostic>;

    /// Whether the target writes the entry points of `module` into one
    /// output (then they are legalized into one module,
    /// `Family::legalize_all_unverified`); the reason when it writes one
    /// entry point per output (then the file needs `-entry`).
    fn one_output(_cx: &Ctx, _module: &ir::Module) -> Result<(), &'static str> {
        Ok(())
    }

    /// The code of the entry points `entries` of a module of several
    /// legalized entry points (`plans` in entry-point order), and their
    /// traces.
    fn write_all(
        cx: &Ctx,
        module: &ir::Module,
        entries: &[usize],
        plans: &[Self::Plan],
        bindings: legalis_bind::Plan,
    ) -> Result<(Vec<u8>, Option<String>), Diagnostic>;

    /// What a written stage of a linked pipeline keeps for the next.
    fn keep(legalized: &Legalized<Self>) -> Self::Kept;

    /// Checks a stage (`consumer`, legalized on its own) against the one
    /// before it (`producer`): where the producer writes the consumer's
    /// inputs, or the disagreements.
    fn link(
        module: &ir::Module,
        producer: &Self::Kept,
        consumer: &Legalized<Self>,
    ) -> Result<ir::link::Linked, Vec<Diagnostic>>;

    /// Warnings about the written code of one legalized entry point
    /// (`module`'s first) that the legalizer cannot know: they depend on
    /// the target's text, not its family.
    fn warnings(_cx: &Ctx, _module: &ir::Module) -> Vec<Diagnostic> {
        Vec::new()
    }

    /// The last step on written code (`wgsl-spirv-asm` turns the WGSL into
    /// SPIR-V assembly); `span` is the entry point's.
    fn finish(
        _cx: &Ctx,
        generated: Generated,
        _span: ir::Span,
        _diagnostics: &mut Vec<Diagnostic>,
    ) -> Option<Generated> {
        Some(generated)
    }
}

/// One entry point legalized by the family `P`.
type Legalized<P> = legalis_legalize::Legalized<<P as Pipeline>::Plan>;

/// Legalizes entry point `entry` of `module` for the family `P` without
/// verifying the result; `hints` are where the previous stage of a linked
/// pipeline writes this one's inputs (empty when not linked).
fn legalize<P: Pipeline>(
    cx: &Ctx,
    module: &ir::Module,
    entry: usize,
    hints: &ir::link::Linked,
) -> Result<Legalized<P>, Vec<Diagnostic>> {
    P::Legalizer::legalize_linked_unverified(module, entry, &cx.request.policy, hints)
}

/// What every step reads: the target and the request.
pub(crate) struct Ctx<'a> {
    /// The target the family writes (a family writes several: GLSL and
    /// SPIR-V); `wgsl-spirv-asm` writes WGSL first.
    pub target: Target,
    /// The target asked for.
    pub asked: Target,
    /// The request: the policy, the binding options, the trace and binding
    /// dump asked for.
    pub request: &'a Request,
}

impl<'a> Ctx<'a> {
    fn new(asked: Target, request: &'a Request) -> Ctx<'a> {
        let target = match asked {
            Target::WgslSpirvAsm => Target::Wgsl,
            other => other,
        };
        Ctx {
            target,
            asked,
            request,
        }
    }
}

/// Legalizes the module's entry point (or, without `-entry`, its entry
/// points) for `target` and writes the code: the facade's one dispatch
/// over the targets.
pub(crate) fn generate(
    module: &ir::Module,
    target: Target,
    request: &Request,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Generated> {
    if !target.is_implemented() {
        diagnostics.push(not_implemented(target));
        return None;
    }
    let cx = Ctx::new(target, request);
    match target {
        Target::Glsl | Target::Spirv | Target::SpirvAsm => {
            generate_with::<glsl::Glsl>(&cx, module, diagnostics)
        }
        Target::Wgsl | Target::WgslSpirvAsm => {
            generate_with::<wgsl::Wgsl>(&cx, module, diagnostics)
        }
        Target::Metal => generate_with::<metal::Metal>(&cx, module, diagnostics),
        Target::Cuda => generate_with::<cuda::Cuda>(&cx, module, diagnostics),
    }
}

/// The refusal of a target not implemented yet.
pub(crate) fn not_implemented(target: Target) -> Diagnostic {
    without_span(Diagnostic::error(
        codes::TARGET_NOT_IMPLEMENTED,
        format!("target `{}` is not implemented yet", target.name()),
        ir::Span::UNDEFINED,
    ))
}

/// [`generate`] for the family `P`.
fn generate_with<P: Pipeline>(
    cx: &Ctx,
    module: &ir::Module,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Generated> {
    let span = module
        .entry_points
        .first()
        .map_or(ir::Span::UNDEFINED, |e| e.span);
    let generated = if module.entry_points.len() > 1 {
        if let Err(why) = P::one_output(cx, module) {
            diagnostics.push(ambiguous(module, why));
            return None;
        }
        let all = P::Legalizer::legalize_all_unverified(module, &cx.request.policy)
            .map_err(|e| diagnostics.extend(e))
            .ok()?;
        write_all::<P>(cx, all.module, all.plans, diagnostics)
    } else {
        let legalized = legalize::<P>(cx, module, 0, &ir::link::Linked::default())
            .map_err(|e| diagnostics.extend(e))
            .ok()?;
        write_one::<P>(cx, legalized, span, diagnostics)
    }?;
    P::finish(cx, generated, span, diagnostics)
}

/// A file of several entry points for a target that cannot write them
/// into one output (`why`).
fn ambiguous(module: &ir::Module, why: &str) -> Diagnostic {
    let names: Vec<&str> = module
        .entry_points
        .iter()
        .map(|e| e.name.as_str())
        .collect();
    without_span(Diagnostic::error(
        codes::AMBIGUOUS_ENTRY_POINT,
        format!(
            "the file has {} entry points ({}); {why}: choose one with -entry",
            names.len(),
            names.join(", ")
        ),
        ir::Span::UNDEFINED,
    ))
}

/// One legalized entry point (not yet verified: the verifier runs beside
/// the writer) written with its trace and binding dump; `span` is the
/// entry point's.
fn write_one<P: Pipeline>(
    cx: &Ctx,
    legalized: Legalized<P>,
    span: ir::Span,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Generated> {
    let (verified, written) = verify_beside(
        &legalized.module,
        |m| P::Legalizer::verify(m, span),
        || {
            let mut own = Vec::new();
            let written = write_with(cx, &legalized.module, &[0], &mut own, |bindings| {
                P::write_one(cx, &legalized, bindings)
            });
            (written, own)
        },
    );
    let (bytes, trace, bindings) = keep_if_verified(verified, written, diagnostics)?;
    diagnostics.extend(P::warnings(cx, &legalized.module));
    let legalis_legalize::Legalized { module, plan } = legalized;
    let stage = module.entry_points[0].stage;
    dispose_elsewhere(plan);
    Some(Generated {
        bytes,
        stage,
        legalized: module,
        trace,
        bindings,
    })
}

/// A module of several entry points legalized together (`plans` in
/// entry-point order) written as one output, verified beside the writer.
fn write_all<P: Pipeline>(
    cx: &Ctx,
    legalized: ir::Module,
    plans: Vec<P::Plan>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Generated> {
    let stage = legalized.entry_points.first()?.stage;
    let span = legalized.entry_points[0].span;
    let entries: Vec<usize> = (0..legalized.entry_points.len()).collect();
    let (verified, written) = verify_beside(
        &legalized,
        |m| P::Legalizer::verify(m, span),
        || {
            let mut own = Vec::new();
            let written = write_with(cx, &legalized, &entries, &mut own, |bindings| {
                P::write_all(cx, &legalized, &entries, &plans, bindings)
            });
            (written, own)
        },
    );
    let (bytes, trace, bindings) = keep_if_verified(verified, written, diagnostics)?;
    dispose_elsewhere(plans);
    Some(Generated {
        bytes,
        stage,
        legalized,
        trace,
        bindings,
    })
}

/// What every target does around its writer: the binding plan of
/// `entries`, its dump, then `write`. The code, the trace and the binding
/// dump, or `None` with the diagnostics in `own`.
fn write_with(
    cx: &Ctx,
    module: &ir::Module,
    entries: &[usize],
    own: &mut Vec<Diagnostic>,
    write: impl FnOnce(legalis_bind::Plan) -> Result<(Vec<u8>, Option<String>), Diagnostic>,
) -> Option<(Vec<u8>, Option<String>, Option<String>)> {
    let plan = plan_bindings(module, entries, cx.target, &cx.request.bindings, own)?;
    let bindings = dump_bindings(&plan, cx.target, cx.request.dump_bindings);
    write(plan)
        .map(|(bytes, trace)| (bytes, trace, bindings))
        .map_err(|error| own.push(error))
        .ok()
}

/// The stages `order` of one pipeline for `target`, in pipeline order,
/// each legalized on its own, checked against the previous stage,
/// legalized again at the places that stage writes its inputs when there
/// are any, and written. Stops at the first stage with an error, its
/// diagnostics in `diagnostics`.
pub(crate) fn link_stages(
    module: &ir::Module,
    order: &[usize],
    target: Target,
    request: &Request,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<(String, Generated)> {
    let cx = Ctx::new(target, request);
    match target {
        Target::Glsl | Target::Spirv | Target::SpirvAsm => {
            link_with::<glsl::Glsl>(&cx, module, order, diagnostics)
        }
        Target::Wgsl | Target::WgslSpirvAsm => {
            link_with::<wgsl::Wgsl>(&cx, module, order, diagnostics)
        }
        Target::Metal => link_with::<metal::Metal>(&cx, module, order, diagnostics),
        // No graphics stages: refused before (`E00012`).
        Target::Cuda => Vec::new(),
    }
}

/// [`link_stages`] for the family `P`.
fn link_with<P: Pipeline>(
    cx: &Ctx,
    module: &ir::Module,
    order: &[usize],
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<(String, Generated)> {
    let mut outputs = Vec::new();
    let mut previous: Option<P::Kept> = None;
    for &i in order {
        let legalized = (|| {
            let own = legalize::<P>(cx, module, i, &ir::link::Linked::default())?;
            let hints = match &previous {
                Some(producer) => P::link(module, producer, &own)?,
                None => return Ok(own),
            };
            if hints.is_empty() {
                Ok(own)
            } else {
                legalize::<P>(cx, module, i, &hints)
            }
        })();
        let legalized = match legalized {
            Ok(legalized) => legalized,
            Err(errors) => {
                diagnostics.extend(errors);
                break;
            }
        };
        previous = Some(P::keep(&legalized));
        let span = module.entry_points[i].span;
        let generated = write_one::<P>(cx, legalized, span, diagnostics)
            .and_then(|generated| P::finish(cx, generated, span, diagnostics));
        match generated {
            Some(generated) => outputs.push((module.entry_points[i].name.clone(), generated)),
            None => break,
        }
    }
    outputs
}

/// The binding plan of the entry points `entries` of a module legalized
/// for `target` (`legalis_bind::plan_entries`), its warnings and errors
/// reported; `None` when any is an error.
pub(crate) fn plan_bindings(
    module: &ir::Module,
    entries: &[usize],
    target: Target,
    options: &legalis_bind::Options,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<legalis_bind::Plan> {
    let rule = match target {
        Target::Glsl | Target::Spirv | Target::SpirvAsm => legalis_bind::Target::Vulkan,
        Target::Wgsl | Target::WgslSpirvAsm => legalis_bind::Target::Wgsl,
        Target::Metal => legalis_bind::Target::Metal,
        Target::Cuda => legalis_bind::Target::Cuda,
    };
    let planned = legalis_bind::plan_entries(module, entries, rule, options);
    let failed = planned.has_errors();
    diagnostics.extend(planned.diagnostics);
    (!failed).then_some(planned.plan)
}

/// `-dump-bindings`: the plan rendered in the asked form.
fn dump_bindings(
    plan: &legalis_bind::Plan,
    target: Target,
    format: Option<trace::TraceFormat>,
) -> Option<String> {
    format.map(|format| match format {
        trace::TraceFormat::Text => legalis_bind::render_text(plan, target.name()),
        trace::TraceFormat::Json => legalis_bind::render_json(plan, target.name()),
    })
}

/// A writer's error as a diagnostic at its span (or without one).
pub(crate) fn write_error(code: u32, message: String, span: Option<ir::Span>) -> Diagnostic {
    Diagnostic::error(code, message, span.unwrap_or(ir::Span::UNDEFINED))
}
