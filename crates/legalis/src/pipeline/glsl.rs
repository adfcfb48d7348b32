//! GLSL and SPIR-V: the GLSL/SPIR-V legalizer, then the GLSL writer, the
//! SPIR-V writer, or (`-emit-spirv-via-glsl`) the GLSL writer and glslang.

use super::{Ctx, Pipeline, write_error};
use crate::{Policy, ShaderStage, Target, codes, cpp, ir, trace};
use legalis_ir::diag::Diagnostic;
use legalis_legalize::glsl as legalize;

/// The GLSL/SPIR-V family.
pub(crate) struct Glsl;

impl Pipeline for Glsl {
    type Legalizer = legalize::Glsl;
    type Plan = legalize::Plan;
    // The producer's module too: an amplification stage's payload is
    // named from it.
    type Kept = legalize::Legalized;

    fn write_one(
        cx: &Ctx,
        legalized: &legalize::Legalized,
        bindings: legalis_bind::Plan,
    ) -> Result<(Vec<u8>, Option<String>), Diagnostic> {
        let policy = &cx.request.policy;
        let trace = cx.request.trace.map(|format| {
            trace::glsl::render(&legalized.module, &legalized.plan, cx.target.name(), format)
        });
        let bytes = if cx.target == Target::Glsl {
            write_glsl(legalized, bindings, policy)?.into_bytes()
        } else if policy.spirv_via_glsl {
            let glsl = write_glsl(legalized, bindings, policy)?;
            let words = spirv_via_glsl(&glsl, legalized.plan.stage, &legalized.plan.entry, policy)?;
            spirv_bytes(cx.target, &words)
        } else {
            let options = spirv_options(policy, bindings);
            let words =
                legalis_emit::spirv::write(&legalized.module, 0, &options).map_err(spirv_error)?;
            spirv_bytes(cx.target, &words)
        };
        Ok((bytes, trace))
    }

    fn one_output(cx: &Ctx, _module: &ir::Module) -> Result<(), &'static str> {
        if cx.target == Target::Glsl {
            return Err("GLSL code holds one entry point");
        }
        if cx.request.policy.spirv_via_glsl {
            return Err("-emit-spirv-via-glsl goes through GLSL, which holds one entry point");
        }
        Ok(())
    }

    fn write_all(
        cx: &Ctx,
        module: &ir::Module,
        entries: &[usize],
        plans: &[legalize::Plan],
        bindings: legalis_bind::Plan,
    ) -> Result<(Vec<u8>, Option<String>), Diagnostic> {
        let trace = cx
            .request
            .trace
            .map(|format| trace::glsl::render_entries(module, plans, cx.target.name(), format));
        let options = spirv_options(&cx.request.policy, bindings);
        let words =
            legalis_emit::spirv::write_entries(module, entries, &options).map_err(spirv_error)?;
        Ok((spirv_bytes(cx.target, &words), trace))
    }

    fn warnings(cx: &Ctx, module: &ir::Module) -> Vec<Diagnostic> {
        let writes_glsl = cx.target == Target::Glsl || cx.request.policy.spirv_via_glsl;
        match module.entry_points.first() {
            Some(entry) if writes_glsl && entry.stage == ShaderStage::Domain => {
                tessellator_defaults(entry).into_iter().collect()
            }
            _ => Vec::new(),
        }
    }

    fn keep(legalized: &legalize::Legalized) -> legalize::Legalized {
        legalized.clone()
    }

    fn link(
        module: &ir::Module,
        producer: &legalize::Legalized,
        consumer: &legalize::Legalized,
    ) -> Result<ir::link::Linked, Vec<Diagnostic>> {
        legalize::link::link_inputs(module, producer, consumer)
    }
}

/// A GLSL evaluation shader's spacing or winding that nothing states
/// (`E00013`): glslang's default applies, whatever the hull said.
fn tessellator_defaults(domain: &ir::EntryPoint) -> Option<Diagnostic> {
    let attrs = &domain.attributes;
    let mut missing = Vec::new();
    if attrs.partitioning.is_none() {
        missing.push("its spacing (`[partitioning(...)]`; GLSL's default is `equal_spacing`)");
    }
    // Isolines have no winding.
    if attrs.output_topology.is_none() && attrs.domain != Some(ir::TessDomain::Isoline) {
        missing.push("its winding (`[outputtopology(...)]`; GLSL's default is `ccw`)");
    }
    if missing.is_empty() {
        return None;
    }
    let message = format!(
        "GLSL states the tessellator's spacing and winding in the evaluation shader, and nothing states {} for the domain shader `{}`: give the entry point the hull's attributes, or link it after its hull (`-entry HULL -entry {}`)",
        missing.join(" or "),
        domain.name,
        domain.name
    );
    Some(Diagnostic::warning(
        codes::TESSELLATOR_DEFAULTS,
        message,
        domain.span,
    ))
}

/// The SPIR-V writer's options under `policy`, with the binding plan.
fn spirv_options(policy: &Policy, bindings: legalis_bind::Plan) -> legalis_emit::spirv::Options {
    legalis_emit::spirv::Options {
        min_version: policy.spirv_version.unwrap_or((1, 0)),
        debug_names: policy.debug_names(),
        use_entry_point_name: policy.use_entry_point_name,
        bindings: Some(bindings),
        handle_capability: policy.handle_capability,
        preserve_params: policy.preserve_params,
        buffer_layout: policy.buffer_layout,
    }
}

/// SPIR-V `words` as `target` writes them: assembly text for
/// `spirv-asm`, the little-endian bytes of a `.spv` file otherwise.
fn spirv_bytes(target: Target, words: &[u32]) -> Vec<u8> {
    match target {
        Target::SpirvAsm => legalis_emit::spirv::disassemble(words).into_bytes(),
        _ => le_bytes(words),
    }
}

/// A SPIR-V writer's error as a diagnostic.
fn spirv_error(e: legalis_emit::spirv::Error) -> Diagnostic {
    write_error(legalis_emit::codes::of_spirv(&e), e.to_string(), e.span())
}

/// The little-endian bytes of SPIR-V `words`, in one allocation of the
/// right size (a collected `flat_map` cannot know it, and grows by copies).
fn le_bytes(words: &[u32]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(4 * words.len());
    for w in words {
        bytes.extend_from_slice(&w.to_le_bytes());
    }
    bytes
}

/// The GLSL of a legalized entry point.
fn write_glsl(
    legalized: &legalize::Legalized,
    bindings: legalis_bind::Plan,
    policy: &Policy,
) -> Result<String, Diagnostic> {
    let options = legalis_emit::glsl::Options {
        // `-profile glsl_NNN` raises the version the legalizer asks for.
        version: legalized
            .plan
            .version()
            .max(policy.glsl_version.unwrap_or(0)),
        extensions: legalized.plan.extensions(),
        bindings: Some(bindings),
        preserve_params: policy.preserve_params,
        scalar_layout: policy.buffer_layout == ir::BufferLayout::Scalar,
    };
    glsl_locations(legalized)
        .and_then(|()| legalis_emit::glsl::write(&legalized.module, 0, &options))
        .map_err(|e| write_error(legalis_emit::codes::of(&e), e.to_string(), e.span()))
}

/// The last location glslang takes in a `layout(location = N)`
/// (`TQualifier::layoutLocationEnd` less one); SPIR-V numbers locations
/// with 32 bits.
const GLSL_LAST_LOCATION: u32 = 4094;

/// glslang's `gl_MaxDrawBuffers`: a fragment output's location is below
/// it. SPIR-V has no limit of its own (the device's `maxColorAttachments`).
const GLSL_DRAW_BUFFERS: u32 = 32;

/// A varying at a location glslang refuses: past [`GLSL_LAST_LOCATION`],
/// or a fragment output at [`GLSL_DRAW_BUFFERS`] or past. `E56001` at the
/// declaration the plan took it from (the entry point for an output
/// Legalis made, a transform-feedback copy).
fn glsl_locations(legalized: &legalize::Legalized) -> Result<(), legalis_emit::glsl::Error> {
    let module = &legalized.module;
    let entry = &module.entry_points[0];
    for (_, global) in module.globals.iter() {
        let Some(ir::Binding::Location { location, .. }) =
            global.io.as_ref().and_then(|io| io.binding.as_ref())
        else {
            continue;
        };
        let leaf = legalized
            .plan
            .leaves
            .iter()
            .find(|l| l.global_name == global.name);
        let (path, span) = leaf.map_or((global.name.as_str(), entry.span), |l| {
            (l.path.as_str(), l.span)
        });
        let fragment_output =
            entry.stage == ShaderStage::Fragment && global.space == ir::AddressSpace::Output;
        let why = if *location > GLSL_LAST_LOCATION {
            format!("GLSL's locations end at {GLSL_LAST_LOCATION} (glslang)")
        } else if fragment_output && *location >= GLSL_DRAW_BUFFERS {
            format!(
                "GLSL's fragment outputs are at locations 0 to {} (`gl_MaxDrawBuffers`)",
                GLSL_DRAW_BUFFERS - 1
            )
        } else {
            continue;
        };
        return Err(legalis_emit::glsl::Error::Unsupported {
            what: format!(
                "`{path}` at location {location}: {why}; SPIR-V takes it, up to the device's limits"
            ),
            span,
        });
    }
    Ok(())
}

/// `-emit-spirv-via-glsl`: glslang compiles the GLSL Legalis wrote (Vulkan
/// 1.3, SPIR-V 1.6), then the entry-point name and debug-name options are
/// applied to its module as the direct writer applies them.
fn spirv_via_glsl(
    glsl: &str,
    stage: ShaderStage,
    entry: &str,
    policy: &Policy,
) -> Result<Vec<u32>, Diagnostic> {
    let words = cpp::glsl_to_spirv(glsl, stage).map_err(|error| {
        let message = format!("glslang rejected the GLSL Legalis generated: {error}");
        write_error(codes::GLSLANG_REJECTED, message, None)
    })?;
    let entry_name = policy.use_entry_point_name.then_some(entry);
    legalis_emit::spirv::rename(&words, entry_name, policy.debug_names()).map_err(spirv_error)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spirv_words_become_little_endian_bytes() {
        let bytes = le_bytes(&[0x0723_0203, 0x0001_0600]);
        assert_eq!(bytes, [0x03, 0x02, 0x23, 0x07, 0x00, 0x06, 0x01, 0x00]);
        assert_eq!(bytes.capacity(), 8);
        assert!(le_bytes(&[]).is_empty());
    }
}
