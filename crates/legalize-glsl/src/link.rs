//! Cross-stage linking: the entry points of one pipeline legalized together
//! so that what a stage writes and the next reads agree, keyed by semantic.
//!
//! The stages are ordered as the pipeline runs them ([`pipeline_order`]).
//! For each pair, [`link_inputs`] checks the consumer's plan (legalized on
//! its own) against the producer's: every user-semantic input must be
//! written by the producer, with the same type, the same per-patch-ness
//! (hull to domain), and, into a fragment shader, the same interpolation;
//! an amplification and a mesh shader must agree on the payload type. It
//! returns the producer's locations (and per-primitive flags, for mesh to
//! fragment) for the consumer's inputs ([`Linked`]), which
//! [`crate::legalize_linked`] then uses. Every mismatch is a diagnostic
//! naming both sides.

use legalis_ir as ir;
use legalis_ir::diag::Diagnostic;
use legalis_sysval::Direction;

use crate::Legalized;
use crate::codes;
use crate::plan::{Linked, LinkedInput, Target, semantic_key};

/// The pipeline position of a stage, or `None` for stages that link with
/// no other (compute, ray tracing).
fn rank(stage: ir::ShaderStage) -> Option<u8> {
    use ir::ShaderStage as S;
    match stage {
        S::Vertex | S::Amplification => Some(0),
        S::Hull => Some(1),
        S::Domain => Some(2),
        S::Geometry | S::Mesh => Some(3),
        S::Fragment => Some(4),
        _ => None,
    }
}

/// The entry points `chosen` (indices into `module.entry_points`) in the
/// order the pipeline runs them; `E49803` when they are not one pipeline.
pub fn pipeline_order(
    module: &ir::Module,
    chosen: &[usize],
) -> Result<Vec<usize>, Vec<Diagnostic>> {
    let mut errors = Vec::new();
    let mut ranked = Vec::new();
    for &i in chosen {
        let entry = &module.entry_points[i];
        match rank(entry.stage) {
            Some(r) => ranked.push((r, i)),
            None => errors.push(Diagnostic::error(
                codes::LINK_STAGES,
                format!(
                    "{} entry point `{}` is in no graphics pipeline: only vertex, hull, domain, \
                     geometry, amplification, mesh and fragment stages link",
                    entry.stage.name(),
                    entry.name
                ),
                entry.span,
            )),
        }
    }
    ranked.sort();
    for pair in ranked.windows(2) {
        let (a, b) = (
            &module.entry_points[pair[0].1],
            &module.entry_points[pair[1].1],
        );
        let mesh_family = |s: ir::ShaderStage| {
            matches!(s, ir::ShaderStage::Amplification | ir::ShaderStage::Mesh)
        };
        let vertex_family = |s: ir::ShaderStage| {
            matches!(
                s,
                ir::ShaderStage::Vertex
                    | ir::ShaderStage::Hull
                    | ir::ShaderStage::Domain
                    | ir::ShaderStage::Geometry
            )
        };
        let mixed = (mesh_family(a.stage) && vertex_family(b.stage))
            || (vertex_family(a.stage) && mesh_family(b.stage));
        if pair[0].0 == pair[1].0 || mixed {
            errors.push(
                Diagnostic::error(
                    codes::LINK_STAGES,
                    format!(
                        "`{}` ({}) and `{}` ({}) cannot be stages of one pipeline",
                        a.name,
                        a.stage.name(),
                        b.name,
                        b.stage.name()
                    ),
                    b.span,
                )
                .with_label(a.span, "the other one"),
            );
        }
    }
    if errors.is_empty() {
        Ok(ranked.into_iter().map(|(_, i)| i).collect())
    } else {
        Err(errors)
    }
}

/// Checks `consumer` (legalized on its own) against what `producer` writes
/// and returns the locations its inputs take in the linked pipeline.
/// `module` is the module both were legalized from.
pub fn link_inputs(
    module: &ir::Module,
    producer: &Legalized,
    consumer: &Legalized,
) -> Result<Linked, Vec<Diagnostic>> {
    let (p, c) = (&producer.plan, &consumer.plan);
    let producer_entry = module
        .entry_points
        .iter()
        .find(|e| e.name == p.entry && e.stage == p.stage);
    let producer_span = producer_entry.map_or(ir::Span::UNDEFINED, |e| e.span);
    let mut errors = Vec::new();
    let mut linked = Linked::default();
    let consumer_entry = module
        .entry_points
        .iter()
        .find(|e| e.name == c.entry && e.stage == c.stage);
    if let (ir::ShaderStage::Amplification, Some(mesh)) = (p.stage, consumer_entry) {
        check_payload(module, producer, mesh, &mut errors);
    }
    for leaf in c.leaves.iter().filter(|l| l.direction == Direction::Input) {
        let (
            &Target::Location {
                patch: consumed_patch,
                interpolation: consumed_interpolation,
                ..
            },
            Some(key),
        ) = (&leaf.target, leaf.semantic.as_ref().and_then(semantic_key))
        else {
            continue;
        };
        // User semantics are always varyings: the producer's is a location.
        let written = p.leaves.iter().find_map(|o| match o.target {
            Target::Location {
                location,
                per_primitive,
                interpolation,
                patch,
                ..
            } if o.direction == Direction::Output
                && o.semantic.as_ref().and_then(semantic_key).as_ref() == Some(&key) =>
            {
                Some((o, location, per_primitive, interpolation, patch))
            }
            _ => None,
        });
        let Some((output, location, per_primitive, produced_interpolation, produced_patch)) =
            written
        else {
            errors.push(
                Diagnostic::error(
                    codes::LINK_UNWRITTEN,
                    format!(
                        "{} input `{}` ({}{}) is written by no earlier stage",
                        c.stage.name(),
                        leaf.path,
                        key.0,
                        key.1
                    ),
                    leaf.span,
                )
                .with_label(
                    producer_span,
                    format!(
                        "the {} entry point `{}` writes no `{}{}`",
                        p.stage.name(),
                        p.entry,
                        key.0,
                        key.1
                    ),
                ),
            );
            continue;
        };
        let mismatch = |what: String| {
            Diagnostic::error(codes::LINK_MISMATCH, what, leaf.span)
                .with_label(output.span, format!("written here by `{}`", p.entry))
        };
        let (produced, consumed) = (
            ir::print::type_name(module, output.ty),
            ir::print::type_name(module, leaf.ty),
        );
        if produced != consumed {
            errors.push(mismatch(format!(
                "`{}` is `{consumed}` in `{}` and `{produced}` in `{}`, which writes it",
                leaf.path, c.entry, p.entry
            )));
            continue;
        }
        if produced_patch != consumed_patch {
            let each = |patch: bool| {
                if patch {
                    "per patch"
                } else {
                    "per control point"
                }
            };
            errors.push(mismatch(format!(
                "`{}` is read {} in `{}` but written {} in `{}`",
                leaf.path,
                each(consumed_patch),
                c.entry,
                each(produced_patch),
                p.entry
            )));
            continue;
        }
        let (a, b) = (
            interpolation(produced_interpolation),
            interpolation(consumed_interpolation),
        );
        if c.stage == ir::ShaderStage::Fragment && a != b {
            errors.push(mismatch(format!(
                "`{}` is interpolated `{b}` in `{}` but declared `{a}` in `{}`",
                leaf.path, c.entry, p.entry
            )));
            continue;
        }
        linked.inputs.push(LinkedInput {
            semantic: key,
            location,
            per_primitive,
        });
    }
    if errors.is_empty() {
        Ok(linked)
    } else {
        Err(errors)
    }
}

/// A varying's interpolation mode, by its HLSL name.
fn interpolation(interpolation: ir::Interpolation) -> &'static str {
    match interpolation.mode {
        None | Some(ir::InterpolationMode::Linear) => "linear",
        Some(ir::InterpolationMode::Flat) => "nointerpolation",
        Some(ir::InterpolationMode::NoPerspective) => "noperspective",
    }
}

/// The amplification shader's payload and the mesh shader's `in payload`
/// must be the same type.
fn check_payload(
    module: &ir::Module,
    producer: &Legalized,
    mesh: &ir::EntryPoint,
    errors: &mut Vec<Diagnostic>,
) {
    let written = producer
        .module
        .globals
        .iter()
        .find(|(_, g)| g.space == ir::AddressSpace::TaskPayload)
        .map(|(h, g)| (g.ty, producer.module.globals.span(h), g.name.clone()));
    let read = module.functions[mesh.function]
        .params
        .iter()
        .find(|p| p.role == ir::ParamRole::Payload);
    match (written, read) {
        (Some((wty, wspan, name)), Some(param)) if wty != param.ty => errors.push(
            Diagnostic::error(
                codes::LINK_MISMATCH,
                format!(
                    "the payload is `{}` in `{}` and `{}` in `{}`, which dispatches it",
                    ir::print::type_name(module, param.ty),
                    mesh.name,
                    ir::print::type_name(module, wty),
                    producer.plan.entry
                ),
                param.span,
            )
            .with_label(wspan, format!("`{name}` is dispatched here")),
        ),
        (None, Some(param)) => errors.push(Diagnostic::error(
            codes::LINK_UNWRITTEN,
            format!(
                "`{}` reads a payload that `{}` never dispatches",
                mesh.name, producer.plan.entry
            ),
            param.span,
        )),
        _ => {}
    }
}
