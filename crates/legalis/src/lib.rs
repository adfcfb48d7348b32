//! Legalis: Slang/HLSL entry points legalized and written as GLSL, SPIR-V,
//! WGSL, Metal or CUDA/OptiX.
//!
//! [`compile`] takes a [`Request`] (the source bytes, the [`Target`], the
//! entry point and the API-convention [`Policy`]) and returns [`Compiled`]:
//! the checked IR module, every diagnostic, and for a target the
//! [`Generated`] code with its legalized module, trace and binding plan.
//! [`try_compile`] is the same as a `Result` whose [`Error`] renders the
//! diagnostics. [`link_entries`] (and [`try_link`]) legalize several entry
//! points of one file as the stages of one pipeline. [`passes`] runs the
//! legalizers and writers on an IR module built some other way.
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let source = "[shader(\"vertex\")]
//! float4 main(float3 p : POSITION) : SV_Position { return float4(p, 1); }";
//! let request = legalis::Request::builder("tri.slang", source)
//!     .target("glsl".parse()?)
//!     .build();
//! let compiled = legalis::try_compile(&request)?;
//! let glsl = compiled.output.as_ref().and_then(|o| o.text()).unwrap_or("");
//! assert!(glsl.contains("gl_Position"));
//! # Ok(())
//! # }
//! ```
//!
//! Diagnostics are values ([`Diagnostic`]: a code, a severity, a message
//! and labelled spans into [`Compiled::source_text`]); [`render`] turns them
//! into the command line's text. The front end runs on worker threads the
//! library starts once per process; [`Threads`] says how to keep everything
//! on the calling thread instead. The command line is the separate crate
//! `legalis-cli`.

#![warn(missing_docs)]

/// The README's Rust examples, run as doctests so that they stay true.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeExamples;

pub mod codes;
mod cpp;
mod error;
#[cfg(feature = "fuzzing")]
pub mod fuzz;
pub mod passes;
pub mod render;
mod request;
pub mod trace;

/// Resource-binding options (`Request::bindings`) and the binding plan.
pub use legalis_bind as bind;
use legalis_front as front;
/// A `-capability`-style conformance the front end checks against (`Request::conformances`).
pub use legalis_front::Conformance;
/// The intermediate representation: the module a compilation produces and
/// the legalizers rewrite (`Compiled::module`, `Generated::legalized`).
pub use legalis_ir as ir;

pub use error::{Error, try_compile, try_link};
/// Diagnostics as values: what every stage reports.
pub use legalis_ir::diag::{Diagnostic, Label, Severity};
pub use legalis_ir::{Policy, ShaderStage};
pub use request::{Request, RequestBuilder, Target, Threads, UnknownTarget};

/// Generated code and what produced it.
#[derive(Debug)]
#[non_exhaustive]
pub struct Generated {
    /// The code: text for text targets, the SPIR-V words (little-endian)
    /// for `spirv`.
    pub bytes: Vec<u8>,
    /// The stage of the entry point the code is for.
    pub stage: ShaderStage,
    /// The module after legalization, for `-dump-ir` with a target.
    pub legalized: ir::Module,
    /// The legalization trace, when the request asked for one.
    pub trace: Option<String>,
    /// The binding plan, when the request asked for it (`-dump-bindings`).
    pub bindings: Option<String>,
}

/// What a compilation produced.
#[derive(Debug)]
#[non_exhaustive]
pub struct Compiled {
    /// The checked module; `None` when any error was reported.
    pub module: Option<ir::Module>,
    /// Errors and warnings, in source order.
    pub diagnostics: Vec<Diagnostic>,
    /// The text the diagnostics' spans index, for [`render`].
    pub source_text: String,
    /// Generated code, when a target was asked for and nothing failed.
    pub output: Option<Generated>,
}

/// The SPIR-V magic number, little-endian, as a binary starts.
const SPIRV_MAGIC_BYTES: [u8; 4] = 0x0723_0203_u32.to_le_bytes();

impl Generated {
    /// The code as text, for every target but `spirv`; `None` for a SPIR-V
    /// binary (its bytes start with the SPIR-V magic number, which no text
    /// target writes: 0x03 is a control character).
    pub fn text(&self) -> Option<&str> {
        if self.bytes.starts_with(&SPIRV_MAGIC_BYTES) {
            return None;
        }
        std::str::from_utf8(&self.bytes).ok()
    }
}

impl Compiled {
    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// Compiles the request: decodes the source, runs the front end, and for a
/// target legalizes the entry point and writes its code
/// ([`Compiled::output`]). Errors are diagnostics in the result, never a
/// panic; see [`try_compile`] for a `Result`.
pub fn compile(request: &Request) -> Compiled {
    let _threads = ThreadsGuard::set(request.threads);
    if let Some(unbuilt) = request
        .target
        .and_then(|target| cpp::missing(target, &request.policy))
    {
        return Compiled {
            module: None,
            diagnostics: vec![unbuilt],
            source_text: String::from_utf8_lossy(&request.source).into_owned(),
            output: None,
        };
    }
    let text = match decode_source(&request.source) {
        Ok(text) => text,
        Err((lossy_text, diagnostic)) => {
            return Compiled {
                module: None,
                diagnostics: vec![diagnostic],
                source_text: lossy_text,
                output: None,
            };
        }
    };
    let options = front::Options {
        entry: request.entry.clone(),
        stage: request.stage,
        defines: request.defines.clone(),
        allow_glsl: request.allow_glsl,
        conformances: request.conformances.clone(),
    };
    let front_output =
        run_with_large_stack(|| front::compile_then(&text, &options, dispose_elsewhere));
    let mut diagnostics = front_output.diagnostics;
    if let Some(target) = request.target {
        diagnostics.extend(layout_without_effect(target, &request.policy));
    }
    let output = match (&front_output.module, request.target) {
        (Some(module), Some(target)) => generate(module, target, request, &mut diagnostics),
        _ => None,
    };
    Compiled {
        module: front_output.module,
        diagnostics,
        source_text: text,
        output,
    }
}

/// Legalizes the module's entry point for `target` under `policy` and
/// writes its code.
fn generate(
    module: &ir::Module,
    target: Target,
    request: &Request,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Generated> {
    let policy = &request.policy;
    if target == Target::WgslSpirvAsm {
        let generated = generate(module, Target::Wgsl, request, diagnostics)?;
        let span = module
            .entry_points
            .first()
            .map_or(ir::Span::UNDEFINED, |e| e.span);
        return wgsl_as_spirv_asm(generated, span, diagnostics);
    }
    if !target.is_implemented() {
        diagnostics.push(without_span(Diagnostic::error(
            codes::TARGET_NOT_IMPLEMENTED,
            format!("target `{}` is not implemented yet", target.name()),
            ir::Span::UNDEFINED,
        )));
        return None;
    }
    if module.entry_points.len() > 1 {
        let spirv = matches!(target, Target::Spirv | Target::SpirvAsm);
        if spirv && !policy.spirv_via_glsl {
            return generate_spirv_entries(module, target, request, diagnostics);
        }
        if target == Target::Wgsl {
            return generate_wgsl_entries(module, request, diagnostics);
        }
        if target == Target::Metal {
            return generate_metal_entries(module, request, diagnostics);
        }
        let programs = module.entry_points.iter().all(|e| e.stage.is_ray_tracing());
        if target == Target::Cuda && programs {
            return generate_cuda_programs(module, request, diagnostics);
        }
        let names: Vec<&str> = module
            .entry_points
            .iter()
            .map(|e| e.name.as_str())
            .collect();
        let why = match target {
            Target::Glsl => "GLSL code holds one entry point",
            _ if spirv => "-emit-spirv-via-glsl goes through GLSL, which holds one entry point",
            Target::Cuda => {
                "one CUDA output holds several entry points only when all are OptiX programs"
            }
            _ => {
                "several entry points in one module are written for spirv, spirv-asm, wgsl, metal and cuda (OptiX programs) only"
            }
        };
        diagnostics.push(without_span(Diagnostic::error(
            codes::AMBIGUOUS_ENTRY_POINT,
            format!(
                "the file has {} entry points ({}); {why}: choose one with -entry",
                names.len(),
                names.join(", ")
            ),
            ir::Span::UNDEFINED,
        )));
        return None;
    }
    if target == Target::Wgsl {
        return generate_wgsl(module, request, diagnostics);
    }
    if target == Target::Cuda {
        return generate_cuda(module, request, diagnostics);
    }
    if target == Target::Metal {
        return generate_metal(module, request, diagnostics);
    }
    let legalized = match legalis_legalize::glsl::legalize_unverified(
        module,
        0,
        policy,
        &legalis_legalize::glsl::Linked::default(),
    ) {
        Ok(legalized) => legalized,
        Err(errors) => {
            diagnostics.extend(errors);
            return None;
        }
    };
    let span = module.entry_points[0].span;
    write_verified(legalized, target, request, diagnostics, span)
}

/// `wgsl-spirv-asm`: the WGSL Legalis wrote (`generated`) as SPIR-V
/// assembly through naga ([`wgsl_to_spirv`]); `E00009` at `span` (the
/// entry point) where naga cannot make valid SPIR-V of it.
fn wgsl_as_spirv_asm(
    mut generated: Generated,
    span: ir::Span,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Generated> {
    let text = String::from_utf8_lossy(&generated.bytes).into_owned();
    match wgsl_to_spirv(&text) {
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
pub fn wgsl_to_spirv(wgsl: &str) -> Result<Vec<u32>, String> {
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

/// Every entry point of `module` in one SPIR-V module: each legalized for
/// its own stage (`legalize_all_unverified`), one binding plan for all of
/// them, and one `OpEntryPoint` each (`spirv::write_entries`).
fn generate_spirv_entries(
    module: &ir::Module,
    target: Target,
    request: &Request,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Generated> {
    let legalis_legalize::glsl::LegalizedAll {
        module: legalized,
        plans,
    } = legalis_legalize::glsl::legalize_all_unverified(module, &request.policy)
        .map_err(|errors| diagnostics.extend(errors))
        .ok()?;
    let stage = plans.first()?.stage;
    generate_of_entries(
        legalized,
        plans,
        stage,
        legalis_legalize::glsl::verify,
        |m, plans, entries, own| write_spirv_entries(m, plans, entries, target, request, own),
        diagnostics,
    )
}

/// A module of several entry points legalized together (`plans` in
/// entry-point order), verified beside `write`, which plans the bindings
/// and writes the code, trace and binding dump.
fn generate_of_entries<P: Send + 'static>(
    legalized: ir::Module,
    plans: Vec<P>,
    stage: ShaderStage,
    verify: impl Fn(&ir::Module, ir::Span) -> Result<(), Vec<Diagnostic>> + Sync,
    write: impl FnOnce(
        &ir::Module,
        &[P],
        &[usize],
        &mut Vec<Diagnostic>,
    ) -> Option<(Vec<u8>, Option<String>, Option<String>)>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Generated> {
    let span = legalized.entry_points[0].span;
    let entries: Vec<usize> = (0..legalized.entry_points.len()).collect();
    let (verified, written) = verify_beside(
        &legalized,
        |m| verify(m, span),
        || {
            let mut own = Vec::new();
            let written = write(&legalized, &plans, &entries, &mut own);
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

/// The SPIR-V of a module of several legalized entry points, with its
/// trace and binding plan when asked for.
fn write_spirv_entries(
    module: &ir::Module,
    plans: &[legalis_legalize::glsl::Plan],
    entries: &[usize],
    target: Target,
    request: &Request,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<(Vec<u8>, Option<String>, Option<String>)> {
    let policy = &request.policy;
    let trace = request
        .trace
        .map(|format| trace::render_entries(module, plans, target.name(), format));
    let plan = plan_bindings_of(module, entries, target, &request.bindings, diagnostics)?;
    let bindings = dump_bindings(&plan, target, request.dump_bindings);
    let options = legalis_emit::spirv::Options {
        min_version: policy.spirv_version.unwrap_or((1, 0)),
        debug_names: policy.debug_names(),
        use_entry_point_name: policy.use_entry_point_name,
        bindings: Some(plan),
        handle_capability: policy.handle_capability,
        preserve_params: policy.preserve_params,
        buffer_layout: policy.buffer_layout,
    };
    let written = match target {
        Target::SpirvAsm => legalis_emit::spirv::write_entries(module, entries, &options)
            .map(|words| legalis_emit::spirv::disassemble(&words).into_bytes()),
        _ => legalis_emit::spirv::write_entries_le_bytes(module, entries, &options),
    };
    match written {
        Ok(bytes) => Some((bytes, trace, bindings)),
        Err(e) => {
            diagnostics.push(Diagnostic::error(
                legalis_emit::codes::of_spirv(&e),
                e.to_string(),
                e.span().unwrap_or(ir::Span::UNDEFINED),
            ));
            None
        }
    }
}

/// [`write`] for a legalized module not yet verified: the verifier runs
/// beside the writer.
fn write_verified(
    legalized: legalis_legalize::glsl::Legalized,
    target: Target,
    request: &Request,
    diagnostics: &mut Vec<Diagnostic>,
    span: ir::Span,
) -> Option<Generated> {
    let (verified, written) = verify_beside(
        &legalized.module,
        |m| legalis_legalize::glsl::verify(m, span),
        || {
            let mut own = Vec::new();
            (write_bytes(&legalized, target, request, &mut own), own)
        },
    );
    let (bytes, trace, bindings) = keep_if_verified(verified, written, diagnostics)?;
    let legalis_legalize::glsl::Legalized { module, plan, .. } = legalized;
    let stage = plan.stage;
    dispose_elsewhere(plan);
    Some(Generated {
        bytes,
        stage,
        legalized: module,
        trace,
        bindings,
    })
}

/// The binding plan of entry point 0 of a module legalized for `target`
/// (`legalis_bind::plan`), its warnings and errors reported; `None` when
/// any is an error.
fn plan_bindings(
    module: &ir::Module,
    target: Target,
    options: &legalis_bind::Options,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<legalis_bind::Plan> {
    plan_bindings_of(module, &[0], target, options, diagnostics)
}

/// [`plan_bindings`] for the entry points `entries` of one module
/// (`legalis_bind::plan_entries`).
fn plan_bindings_of(
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

/// The little-endian bytes of SPIR-V `words`, in one allocation of the
/// right size (a collected `flat_map` cannot know it, and grows by copies).
fn le_bytes(words: &[u32]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(4 * words.len());
    for w in words {
        bytes.extend_from_slice(&w.to_le_bytes());
    }
    bytes
}

/// Writes the code of a legalized (and verified) module for `target`.
fn write(
    legalized: legalis_legalize::glsl::Legalized,
    target: Target,
    request: &Request,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Generated> {
    let (bytes, trace, bindings) = write_bytes(&legalized, target, request, diagnostics)?;
    Some(Generated {
        bytes,
        stage: legalized.plan.stage,
        legalized: legalized.module,
        trace,
        bindings,
    })
}

/// The code, the trace and the binding dump of a legalized module whose
/// resource arguments are inlined.
fn write_bytes(
    legalized: &legalis_legalize::glsl::Legalized,
    target: Target,
    request: &Request,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<(Vec<u8>, Option<String>, Option<String>)> {
    let policy = &request.policy;
    let stage = legalized.plan.stage;
    let trace = request
        .trace
        .map(|format| trace::render(legalized, target.name(), format));
    let plan = plan_bindings(&legalized.module, target, &request.bindings, diagnostics)?;
    let bindings = dump_bindings(&plan, target, request.dump_bindings);
    let written = match target {
        Target::Glsl => write_glsl(legalized, &plan, policy).map(String::into_bytes),
        // The GLSL legalizer's module is written as GLSL or SPIR-V only:
        // the other targets have their own legalizers (`generate`,
        // `link_entries`), and never reach here.
        Target::Wgsl | Target::WgslSpirvAsm | Target::Metal | Target::Cuda => {
            unreachable!(
                "`{}` is not written from the GLSL legalizer's module",
                target.name()
            )
        }
        Target::Spirv | Target::SpirvAsm => {
            let options = legalis_emit::spirv::Options {
                min_version: policy.spirv_version.unwrap_or((1, 0)),
                debug_names: policy.debug_names(),
                use_entry_point_name: policy.use_entry_point_name,
                bindings: Some(plan.clone()),
                handle_capability: policy.handle_capability,
                preserve_params: policy.preserve_params,
                buffer_layout: policy.buffer_layout,
            };
            let of_spirv = |e: legalis_emit::spirv::Error| {
                (legalis_emit::codes::of_spirv(&e), e.to_string(), e.span())
            };
            if policy.spirv_via_glsl {
                write_glsl(legalized, &plan, policy)
                    .and_then(|glsl| spirv_via_glsl(&glsl, stage, &legalized.plan.entry, policy))
                    .map(|words| match target {
                        Target::SpirvAsm => legalis_emit::spirv::disassemble(&words).into_bytes(),
                        _ => le_bytes(&words),
                    })
            } else if target == Target::SpirvAsm {
                legalis_emit::spirv::write(&legalized.module, 0, &options)
                    .map(|words| legalis_emit::spirv::disassemble(&words).into_bytes())
                    .map_err(of_spirv)
            } else {
                legalis_emit::spirv::write_le_bytes(&legalized.module, 0, &options)
                    .map_err(of_spirv)
            }
        }
    };
    match written {
        Ok(bytes) => Some((bytes, trace, bindings)),
        Err((code, message, span)) => {
            diagnostics.push(Diagnostic::error(
                code,
                message,
                span.unwrap_or(ir::Span::UNDEFINED),
            ));
            None
        }
    }
}

/// A linked pipeline: each entry point's code, in pipeline order.
#[derive(Debug)]
#[non_exhaustive]
pub struct Linked {
    /// Errors and warnings of every stage, in source order per stage.
    pub diagnostics: Vec<Diagnostic>,
    /// The text the diagnostics' spans index.
    pub source_text: String,
    /// `(entry point name, its code)`, in pipeline order; empty when any
    /// error was reported.
    pub outputs: Vec<(String, Generated)>,
    /// The entry points are not the stages of one pipeline (two of one
    /// stage, or a compute or ray-tracing stage): they were written into
    /// one module, as the reference does, and `outputs` holds that one
    /// module, named by all of them joined by `, `.
    pub one_module: bool,
}

impl Linked {
    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// Legalizes the entry points `entries` of one file together, as the
/// stages of one pipeline (cross-stage linking), and writes each stage's
/// code in the target's language, in pipeline order: each stage's inputs
/// are where its previous stage writes them, keyed by semantic (on GLSL,
/// SPIR-V and WGSL at its locations; on Metal under its `[[user(NAME)]]`
/// names, which the semantics give both sides), and every disagreement
/// between the two sides is a diagnostic naming both (`E49801`, `E49802`:
/// `legalis_ir::link`, the check every target shares). `request.entry`
/// and `request.stage` are ignored: each entry point's stage is its
/// `[shader]` attribute. `cuda`, which has no graphics stages, refuses a
/// pipeline (`E00012`).
///
/// Entry points that cannot be the stages of one pipeline (two of one
/// stage, or a compute or ray-tracing stage) are written into one module
/// instead, as the reference does with several `-entry`
/// ([`Linked::one_module`]).
pub fn link(request: &Request, entries: &[String]) -> Linked {
    let entries: Vec<(String, Option<ShaderStage>)> =
        entries.iter().map(|name| (name.clone(), None)).collect();
    link_entries(request, &entries)
}

/// [`link`] with the stage the command line gave each entry point, if any
/// (`-entry a -stage fragment -entry b -stage fragment`): a stage that
/// disagrees with the entry point's `[shader]` attribute is an error.
pub fn link_entries(request: &Request, entries: &[(String, Option<ShaderStage>)]) -> Linked {
    let _threads = ThreadsGuard::set(request.threads);
    if let Some(unbuilt) = request
        .target
        .and_then(|target| cpp::missing(target, &request.policy))
    {
        return Linked {
            diagnostics: vec![unbuilt],
            source_text: String::from_utf8_lossy(&request.source).into_owned(),
            outputs: Vec::new(),
            one_module: false,
        };
    }
    let text = match decode_source(&request.source) {
        Ok(text) => text,
        Err((lossy_text, diagnostic)) => {
            return Linked {
                diagnostics: vec![diagnostic],
                source_text: lossy_text,
                outputs: Vec::new(),
                one_module: false,
            };
        }
    };
    let options = front::Options {
        entry: None,
        stage: None,
        defines: request.defines.clone(),
        allow_glsl: request.allow_glsl,
        conformances: request.conformances.clone(),
    };
    let front_output = run_with_large_stack(|| front::compile(&text, &options));
    let mut diagnostics = front_output.diagnostics;
    let mut linked = Linked {
        diagnostics: Vec::new(),
        source_text: text,
        outputs: Vec::new(),
        one_module: false,
    };
    let (Some(module), Some(target)) = (front_output.module, request.target) else {
        linked.diagnostics = diagnostics;
        return linked;
    };
    if !target.is_implemented() {
        diagnostics.push(without_span(Diagnostic::error(
            codes::TARGET_NOT_IMPLEMENTED,
            format!("target `{}` is not implemented yet", target.name()),
            ir::Span::UNDEFINED,
        )));
        linked.diagnostics = diagnostics;
        return linked;
    }
    let mut chosen = Vec::new();
    for (name, given) in entries {
        match module.entry_points.iter().position(|e| &e.name == name) {
            Some(i) => {
                let stage = module.entry_points[i].stage;
                if let Some(given) = given.filter(|&g| g != stage) {
                    diagnostics.push(Diagnostic::error(
                        front::codes::STAGE_MISMATCH,
                        format!(
                            "`-stage {}` disagrees with the `[shader(\"{}\")]` attribute of `{name}`",
                            given.name(),
                            stage.name()
                        ),
                        module.entry_points[i].span,
                    ));
                }
                chosen.push(i);
            }
            None => {
                let known: Vec<&str> = module
                    .entry_points
                    .iter()
                    .map(|e| e.name.as_str())
                    .collect();
                diagnostics.push(without_span(Diagnostic::error(
                    codes::UNKNOWN_ENTRY_POINT,
                    format!(
                        "no entry point `{name}` with a `[shader(\"...\")]` attribute in the file \
                         (it has: {})",
                        known.join(", ")
                    ),
                    ir::Span::UNDEFINED,
                )));
            }
        }
    }
    if diagnostics.iter().any(Diagnostic::is_error) {
        linked.diagnostics = diagnostics;
        return linked;
    }
    if !one_pipeline(&module, &chosen) {
        // The reference's meaning of several `-entry`: one module of them.
        let mut subset = module.clone();
        subset.entry_points = chosen
            .iter()
            .map(|&i| module.entry_points[i].clone())
            .collect();
        let names: Vec<&str> = subset
            .entry_points
            .iter()
            .map(|e| e.name.as_str())
            .collect();
        let name = names.join(", ");
        let generated = generate(&subset, target, request, &mut diagnostics);
        linked.outputs.extend(generated.map(|g| (name, g)));
        linked.one_module = true;
        linked.diagnostics = diagnostics;
        return linked;
    }
    if target == Target::Cuda {
        diagnostics.push(link_unsupported(target));
        linked.diagnostics = diagnostics;
        return linked;
    }
    let order = match ir::link::pipeline_order(&module, &chosen) {
        Ok(order) => order,
        Err(errors) => {
            diagnostics.extend(errors);
            linked.diagnostics = diagnostics;
            return linked;
        }
    };
    let policy = &request.policy;
    let module = &module;
    let span = |i: usize| module.entry_points[i].span;
    linked.outputs = match target {
        Target::Glsl | Target::Spirv | Target::SpirvAsm => {
            use legalis_legalize::glsl;
            link_stages(
                module,
                &order,
                &mut diagnostics,
                |i, hints| glsl::legalize_linked(module, i, policy, hints),
                |producer: &glsl::Legalized, own| glsl::link::link_inputs(module, producer, own),
                Clone::clone,
                |legalized, _, diagnostics| write(legalized, target, request, diagnostics),
            )
        }
        Target::Wgsl | Target::WgslSpirvAsm => {
            use legalis_legalize::wgsl;
            link_stages(
                module,
                &order,
                &mut diagnostics,
                |i, hints| wgsl::legalize_linked_unverified(module, i, policy, hints),
                |producer: &wgsl::Plan, own: &wgsl::Legalized| {
                    wgsl::link_inputs(module, producer, &own.plan)
                },
                |legalized| legalized.plan.clone(),
                |legalized, i, diagnostics| {
                    let generated = write_wgsl(legalized, span(i), request, diagnostics)?;
                    match target {
                        Target::WgslSpirvAsm => wgsl_as_spirv_asm(generated, span(i), diagnostics),
                        _ => Some(generated),
                    }
                },
            )
        }
        Target::Metal => {
            use legalis_legalize::metal;
            link_stages(
                module,
                &order,
                &mut diagnostics,
                // Metal links by `[[user(...)]]` names, which each stage
                // takes from its semantics alone: no hints to apply.
                |i, _| metal::legalize_unverified(module, i, policy),
                |producer: &metal::Plan, own: &metal::Legalized| {
                    metal::link_inputs(module, producer, &own.plan)
                        .map(|()| ir::link::Linked::default())
                },
                |legalized| legalized.plan.clone(),
                |legalized, i, diagnostics| write_metal(legalized, span(i), request, diagnostics),
            )
        }
        // Refused above.
        Target::Cuda => Vec::new(),
    };
    if diagnostics.iter().any(Diagnostic::is_error) {
        linked.outputs.clear();
    }
    linked.diagnostics = diagnostics;
    linked
}

/// The stages `order` of one pipeline, in pipeline order, each legalized
/// on its own (`legalize` with no hints), checked against the previous
/// stage (`link`, given what `keep` kept of it; it returns where that stage
/// writes this one's inputs), legalized again at those places when there
/// are any, and written (`write`, given the entry point's index). Stops at
/// the first stage with an error, its diagnostics in `diagnostics`.
fn link_stages<L, P>(
    module: &ir::Module,
    order: &[usize],
    diagnostics: &mut Vec<Diagnostic>,
    legalize: impl Fn(usize, &ir::link::Linked) -> Result<L, Vec<Diagnostic>>,
    link: impl Fn(&P, &L) -> Result<ir::link::Linked, Vec<Diagnostic>>,
    keep: impl Fn(&L) -> P,
    mut write: impl FnMut(L, usize, &mut Vec<Diagnostic>) -> Option<Generated>,
) -> Vec<(String, Generated)> {
    let mut outputs = Vec::new();
    let mut previous: Option<P> = None;
    for &i in order {
        let legalized = (|| {
            let own = legalize(i, &ir::link::Linked::default())?;
            let hints = match &previous {
                Some(producer) => link(producer, &own)?,
                None => return Ok(own),
            };
            if hints.inputs.is_empty() {
                Ok(own)
            } else {
                legalize(i, &hints)
            }
        })();
        let legalized = match legalized {
            Ok(legalized) => legalized,
            Err(errors) => {
                diagnostics.extend(errors);
                break;
            }
        };
        previous = Some(keep(&legalized));
        match write(legalized, i, diagnostics) {
            Some(generated) => outputs.push((module.entry_points[i].name.clone(), generated)),
            None => break,
        }
    }
    outputs
}

/// `E00012`: several `-entry` that are one graphics pipeline, for a target
/// without graphics stages to link (CUDA).
fn link_unsupported(target: Target) -> Diagnostic {
    without_span(Diagnostic::error(
        codes::LINK_UNSUPPORTED_TARGET,
        format!(
            "`-target {}` cannot link entry points as the stages of one graphics pipeline: it \
             has no graphics stages (several `-entry` of OptiX programs are written into one \
             module); link them for glsl, spirv, spirv-asm, wgsl, wgsl-spirv-asm or metal",
            target.name()
        ),
        ir::Span::UNDEFINED,
    ))
}

/// Whether the entry points `chosen` can be the stages of one pipeline:
/// graphics stages, each at most once.
fn one_pipeline(module: &ir::Module, chosen: &[usize]) -> bool {
    let mut seen = Vec::new();
    chosen.iter().all(|&i| {
        let stage = module.entry_points[i].stage;
        let graphics = matches!(
            stage,
            ShaderStage::Vertex
                | ShaderStage::Hull
                | ShaderStage::Domain
                | ShaderStage::Geometry
                | ShaderStage::Fragment
                | ShaderStage::Amplification
                | ShaderStage::Mesh
        );
        let first = !seen.contains(&stage);
        seen.push(stage);
        graphics && first
    })
}

/// WGSL: the varying legalizer's attributed entry point, then the WGSL
/// writer.
fn generate_wgsl(
    module: &ir::Module,
    request: &Request,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Generated> {
    let legalized = match legalis_legalize::wgsl::legalize_unverified(module, 0, &request.policy) {
        Ok(legalized) => legalized,
        Err(errors) => {
            diagnostics.extend(errors);
            return None;
        }
    };
    write_wgsl(legalized, module.entry_points[0].span, request, diagnostics)
}

/// The WGSL of one legalized entry point (not yet verified: the verifier
/// runs beside the writer), with its trace and binding dump when asked
/// for; `span` is the entry point's.
fn write_wgsl(
    legalized: legalis_legalize::wgsl::Legalized,
    span: ir::Span,
    request: &Request,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Generated> {
    let (text, bindings) = write_text(
        &legalized.module,
        Target::Wgsl,
        request,
        |m| legalis_legalize::wgsl::verify(m, span),
        |m, plan| {
            let options = legalis_emit::wgsl::Options {
                bindings: Some(plan),
                preserve_params: request.policy.preserve_params,
            };
            legalis_emit::wgsl::write(m, 0, &options).map_err(|e| {
                let span = e.span().unwrap_or(ir::Span::UNDEFINED);
                Diagnostic::error(legalis_emit::codes::of_wgsl(&e), e.to_string(), span)
            })
        },
        diagnostics,
    )?;
    let trace = request
        .trace
        .map(|format| trace::render_wgsl(&legalized, format));
    let legalis_legalize::wgsl::Legalized { module, plan } = legalized;
    let stage = plan.stage;
    dispose_elsewhere(plan);
    Some(Generated {
        bytes: text.into_bytes(),
        stage,
        trace,
        bindings,
        legalized: module,
    })
}

/// Every entry point of `module` in one WGSL module: each legalized for
/// its own stage (`wgsl::legalize_all_unverified`), one binding plan for
/// all of them, one attributed entry function each
/// (`wgsl::write_entries`), and a trace per entry point (a JSON array).
fn generate_wgsl_entries(
    module: &ir::Module,
    request: &Request,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Generated> {
    use legalis_legalize::wgsl;
    let wgsl::LegalizedAll {
        module: legalized,
        plans,
    } = wgsl::legalize_all_unverified(module, &request.policy)
        .map_err(|errors| diagnostics.extend(errors))
        .ok()?;
    let stage = plans.first()?.stage;
    generate_of_entries(
        legalized,
        plans,
        stage,
        wgsl::verify,
        |m, plans, entries, own| {
            let (text, bindings) =
                text_of_entries(m, entries, Target::Wgsl, request, own, |m, plan| {
                    let options = legalis_emit::wgsl::Options {
                        bindings: Some(plan),
                        preserve_params: request.policy.preserve_params,
                    };
                    legalis_emit::wgsl::write_entries(m, entries, &options).map_err(|e| {
                        let span = e.span().unwrap_or(ir::Span::UNDEFINED);
                        Diagnostic::error(legalis_emit::codes::of_wgsl(&e), e.to_string(), span)
                    })
                })?;
            let trace = request
                .trace
                .map(|format| trace::render_wgsl_entries(m, plans, format));
            Some((text.into_bytes(), trace, bindings))
        },
        diagnostics,
    )
}

/// Every entry point of `module` in one MSL translation unit: each
/// legalized for its own stage (`metal::legalize_all_unverified`), one
/// binding plan for all of them (a resource has one argument-table index
/// in every function), one attributed function each
/// (`metal::write_entries`), and a trace per entry point (a JSON array).
fn generate_metal_entries(
    module: &ir::Module,
    request: &Request,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Generated> {
    use legalis_legalize::metal;
    let metal::LegalizedAll {
        module: legalized,
        plans,
    } = metal::legalize_all_unverified(module, &request.policy)
        .map_err(|errors| diagnostics.extend(errors))
        .ok()?;
    let stage = plans.first()?.stage;
    generate_of_entries(
        legalized,
        plans,
        stage,
        metal::verify,
        |m, plans, entries, own| {
            let (text, bindings) =
                text_of_entries(m, entries, Target::Metal, request, own, |m, plan| {
                    let options = legalis_emit::metal::Options {
                        bindings: Some(plan),
                    };
                    legalis_emit::metal::write_entries(m, entries, &options).map_err(|e| {
                        let span = e.span().unwrap_or(ir::Span::UNDEFINED);
                        Diagnostic::error(legalis_emit::codes::of_metal(&e), e.to_string(), span)
                    })
                })?;
            let trace = request
                .trace
                .map(|format| trace::render_metal_entries(m, plans, format));
            Some((text.into_bytes(), trace, bindings))
        },
        diagnostics,
    )
}

/// What the text targets share for a module of several entry points
/// (`entries`): one binding plan for them all, its dump, then `write`.
/// The text and the binding dump, or `None` with the diagnostics in
/// `own`.
fn text_of_entries(
    module: &ir::Module,
    entries: &[usize],
    target: Target,
    request: &Request,
    own: &mut Vec<Diagnostic>,
    write: impl FnOnce(&ir::Module, legalis_bind::Plan) -> Result<String, Diagnostic>,
) -> Option<(String, Option<String>)> {
    let plan = plan_bindings_of(module, entries, target, &request.bindings, own)?;
    let bindings = dump_bindings(&plan, target, request.dump_bindings);
    write(module, plan)
        .map(|text| (text, bindings))
        .map_err(|error| own.push(error))
        .ok()
}

/// Metal: the varying legalizer's attributed entry point, then the MSL
/// writer.
fn generate_metal(
    module: &ir::Module,
    request: &Request,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Generated> {
    let legalized = match legalis_legalize::metal::legalize_unverified(module, 0, &request.policy) {
        Ok(legalized) => legalized,
        Err(errors) => {
            diagnostics.extend(errors);
            return None;
        }
    };
    write_metal(legalized, module.entry_points[0].span, request, diagnostics)
}

/// The MSL of one legalized entry point (not yet verified: the verifier
/// runs beside the writer), with its trace and binding dump when asked
/// for; `span` is the entry point's.
fn write_metal(
    legalized: legalis_legalize::metal::Legalized,
    span: ir::Span,
    request: &Request,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Generated> {
    let (text, bindings) = write_text(
        &legalized.module,
        Target::Metal,
        request,
        |m| legalis_legalize::metal::verify(m, span),
        |m, plan| {
            let options = legalis_emit::metal::Options {
                bindings: Some(plan),
            };
            legalis_emit::metal::write(m, 0, &options).map_err(|e| {
                let span = e.span().unwrap_or(ir::Span::UNDEFINED);
                Diagnostic::error(legalis_emit::codes::of_metal(&e), e.to_string(), span)
            })
        },
        diagnostics,
    )?;
    let trace = request
        .trace
        .map(|format| trace::render_metal(&legalized, format));
    let legalis_legalize::metal::Legalized { module, plan } = legalized;
    let stage = plan.stage;
    dispose_elsewhere(plan);
    Some(Generated {
        bytes: text.into_bytes(),
        stage,
        trace,
        bindings,
        legalized: module,
    })
}

/// What WGSL and Metal share after legalization: the binding plan, then
/// `write` beside the verifier `verify`.
/// The text and the binding dump, or `None` with the diagnostics.
fn write_text(
    module: &ir::Module,
    target: Target,
    request: &Request,
    verify: impl Fn(&ir::Module) -> Result<(), Vec<Diagnostic>> + Sync,
    write: impl FnOnce(&ir::Module, legalis_bind::Plan) -> Result<String, Diagnostic>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<(String, Option<String>)> {
    let (verified, written) = verify_beside(module, verify, || {
        let mut own = Vec::new();
        let text = text_of_entries(module, &[0], target, request, &mut own, write);
        (text, own)
    });
    keep_if_verified(verified, written, diagnostics)
}

/// CUDA/OptiX device code: the CUDA legalizer, then the CUDA writer. The
/// output includes the prelude [`cuda_prelude`] by its name. The trace
/// takes its registers and slots from the legalizer's plan (the layout
/// function the writer packs with) and its resources from the writer.
fn generate_cuda(
    module: &ir::Module,
    request: &Request,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Generated> {
    let trace = request.trace;
    let legalized = match legalis_legalize::cuda::legalize_unverified(module, 0, &request.policy) {
        Ok(legalized) => legalized,
        Err(errors) => {
            diagnostics.extend(errors);
            return None;
        }
    };
    let stage = legalized.module.entry_points[0].stage;
    let span = module.entry_points[0].span;
    let (verified, written) = verify_beside(
        &legalized.module,
        |m| legalis_legalize::cuda::verify(m, span),
        || {
            let mut own = Vec::new();
            let text = (|| {
                let plan =
                    plan_bindings(&legalized.module, Target::Cuda, &request.bindings, &mut own)?;
                let bindings = dump_bindings(&plan, Target::Cuda, request.dump_bindings);
                let options = legalis_emit::cuda::Options::default();
                let written =
                    legalis_emit::cuda::write(&legalized.module, 0, &options).and_then(|text| {
                        let trace = match trace {
                            Some(format) => {
                                let resources =
                                    legalis_emit::cuda::resources(&legalized.module, 0, &options)?;
                                Some(trace::render_cuda(&legalized, &resources, format))
                            }
                            None => None,
                        };
                        Ok((text, trace))
                    });
                written
                    .map(|(text, trace)| (text, trace, bindings))
                    .map_err(|e| own.push(cuda_error(&e)))
                    .ok()
            })();
            (text, own)
        },
    );
    let (text, trace, bindings) = keep_if_verified(verified, written, diagnostics)?;
    Some(Generated {
        bytes: text.into_bytes(),
        stage,
        legalized: legalized.module,
        trace,
        bindings,
    })
}

/// Every entry point of `module`, all OptiX programs, in one CUDA
/// translation unit (`cuda::write_entries`), as OptiX builds one module of
/// them: each legalized for its own stage (the CUDA legalizer checks a
/// program and plans its payload without rewriting the module), one
/// binding plan for all of them (`LaunchParams` holds every resource any
/// of them reaches), and a trace per program (a JSON array).
fn generate_cuda_programs(
    module: &ir::Module,
    request: &Request,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Generated> {
    let mut legalized = Vec::new();
    let mut errors = Vec::new();
    for i in 0..module.entry_points.len() {
        match legalis_legalize::cuda::legalize_unverified(module, i, &request.policy) {
            Ok(l) => legalized.push(l),
            Err(e) => errors.extend(e),
        }
    }
    if !errors.is_empty() {
        diagnostics.extend(errors);
        return None;
    }
    let stage = module.entry_points[0].stage;
    let span = module.entry_points[0].span;
    let entries: Vec<usize> = (0..module.entry_points.len()).collect();
    let (verified, written) = verify_beside(
        module,
        |m| legalis_legalize::cuda::verify(m, span),
        || {
            let mut own = Vec::new();
            let text = (|| {
                let plan =
                    plan_bindings_of(module, &entries, Target::Cuda, &request.bindings, &mut own)?;
                let bindings = dump_bindings(&plan, Target::Cuda, request.dump_bindings);
                let options = legalis_emit::cuda::Options::default();
                let written = legalis_emit::cuda::write_entries(module, &entries, &options)
                    .and_then(|text| {
                        let trace = match request.trace {
                            Some(format) => {
                                let resources = legalis_emit::cuda::resources_of_entries(
                                    module, &entries, &options,
                                )?;
                                let each: Vec<_> = legalized.iter().zip(resources).collect();
                                Some(trace::render_cuda_entries(&each, format))
                            }
                            None => None,
                        };
                        Ok((text, trace))
                    });
                written
                    .map(|(text, trace)| (text, trace, bindings))
                    .map_err(|e| own.push(cuda_error(&e)))
                    .ok()
            })();
            (text, own)
        },
    );
    let (text, trace, bindings) = keep_if_verified(verified, written, diagnostics)?;
    Some(Generated {
        bytes: text.into_bytes(),
        stage,
        legalized: module.clone(),
        trace,
        bindings,
    })
}

/// A CUDA writer error as a diagnostic at its source.
fn cuda_error(e: &legalis_emit::cuda::Error) -> Diagnostic {
    Diagnostic::error(
        legalis_emit::codes::of_cuda(e),
        e.to_string(),
        e.span().unwrap_or(ir::Span::UNDEFINED),
    )
}

/// The CUDA prelude header every `cuda` output includes, and the name it
/// includes it by (`#include "legalis_cuda.cuh"`): write it beside the
/// output before compiling it.
pub fn cuda_prelude() -> (&'static str, &'static str) {
    (
        legalis_emit::cuda::PRELUDE_NAME,
        legalis_emit::cuda::PRELUDE,
    )
}

/// Why code could not be written: a code, a message and maybe a span.
type WriteError = (u32, String, Option<ir::Span>);

fn write_glsl(
    legalized: &legalis_legalize::glsl::Legalized,
    plan: &legalis_bind::Plan,
    policy: &Policy,
) -> Result<String, WriteError> {
    let options = legalis_emit::glsl::Options {
        // `-profile glsl_NNN` raises the version the legalizer asks for.
        version: legalized.version.max(policy.glsl_version.unwrap_or(0)),
        extensions: legalized.extensions.clone(),
        bindings: Some(plan.clone()),
        preserve_params: policy.preserve_params,
        scalar_layout: policy.buffer_layout == ir::BufferLayout::Scalar,
    };
    legalis_emit::glsl::write(&legalized.module, 0, &options)
        .map_err(|e| (legalis_emit::codes::of(&e), e.to_string(), e.span()))
}

/// `-emit-spirv-via-glsl`: glslang compiles the GLSL Legalis wrote (Vulkan
/// 1.3, SPIR-V 1.6), then the entry-point name and debug-name options are
/// applied to its module as the direct writer applies them.
fn spirv_via_glsl(
    glsl: &str,
    stage: ShaderStage,
    entry: &str,
    policy: &Policy,
) -> Result<Vec<u32>, WriteError> {
    let words = cpp::glsl_to_spirv(glsl, stage).map_err(|error| {
        let message = format!("glslang rejected the GLSL Legalis generated: {error}");
        (codes::GLSLANG_REJECTED, message, None)
    })?;
    let entry_name = policy.use_entry_point_name.then_some(entry);
    legalis_emit::spirv::rename(&words, entry_name, policy.debug_names())
        .map_err(|e| (legalis_emit::codes::of_spirv(&e), e.to_string(), e.span()))
}

/// Stack for the front end's threads. The parser bounds nesting, but the
/// tree walks after it recurse over whatever depth the limits allow; a large
/// reserved stack (only touched pages cost memory) keeps every input far
/// from the limit whatever thread the caller runs on.
const FRONT_END_STACK_BYTES: usize = 256 * 1024 * 1024;

/// The threads the front end runs on, made once per process: starting a
/// thread with its own stack for every compile cost about 60 to 140 µs,
/// a third of a small shader's whole compile. One thread per core, so
/// compiles from several caller threads run side by side.
fn front_end_pool() -> Option<&'static rayon_core::ThreadPool> {
    static POOL: std::sync::OnceLock<Option<rayon_core::ThreadPool>> = std::sync::OnceLock::new();
    POOL.get_or_init(|| {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(8));
        rayon_core::ThreadPoolBuilder::new()
            .num_threads(threads)
            .stack_size(FRONT_END_STACK_BYTES)
            .thread_name(|i| format!("legalis-front-{i}"))
            .build()
            .ok()
    })
    .as_ref()
}

/// A legalized module with at least this many expressions is verified on
/// another thread while its code is written; a smaller one is verified
/// first, in less time than handing the work over would take.
const VERIFY_BESIDE_EXPRESSIONS: usize = 2048;

/// Runs the IR verifier (`verify`) on `module` while `work` writes its
/// code, on a front-end thread when the module is large (the verifier
/// only reads it); returns both results. The caller keeps the writer's
/// output only if the module verified.
fn verify_beside<W>(
    module: &ir::Module,
    verify: impl Fn(&ir::Module) -> Result<(), Vec<Diagnostic>> + Sync,
    work: impl FnOnce() -> W,
) -> (Result<(), Vec<Diagnostic>>, W) {
    let expressions: usize = module
        .functions
        .iter()
        .map(|(_, f)| f.expressions.len())
        .sum::<usize>()
        + module.global_expressions.len();
    match worker_pool() {
        Some(pool)
            if expressions >= VERIFY_BESIDE_EXPRESSIONS && pool.current_num_threads() > 1 =>
        {
            let mut verified = None;
            let worked = pool.in_place_scope(|scope| {
                scope.spawn(|_| verified = Some(verify(module)));
                work()
            });
            // The scope ends after its spawned job, so the result is there.
            (verified.unwrap_or_else(|| verify(module)), worked)
        }
        _ => (verify(module), work()),
    }
}

/// The writer's diagnostics, or only the verifier's errors when the
/// legalized module failed verification (then nothing was written).
fn keep_if_verified<T>(
    verified: Result<(), Vec<Diagnostic>>,
    written: (Option<T>, Vec<Diagnostic>),
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<T> {
    match verified {
        Ok(()) => {
            diagnostics.extend(written.1);
            written.0
        }
        Err(errors) => {
            diagnostics.extend(errors);
            None
        }
    }
}

/// Drops `value` on a front-end thread without waiting for it, so the
/// caller goes on while a large tree is freed (on a machine with one core
/// it is dropped in place). Called on a front-end thread, which has the
/// stack a deep tree's drop needs.
fn dispose_elsewhere<T: Send + 'static>(value: T) {
    match worker_pool() {
        Some(pool) if pool.current_num_threads() > 1 => pool.spawn(move || drop(value)),
        _ => drop(value),
    }
}

std::thread_local! {
    /// Set while a request with [`Threads::CallingThread`] runs on this
    /// thread: then no work goes to the pool.
    static CALLING_THREAD_ONLY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Keeps [`CALLING_THREAD_ONLY`] as a request asks while it runs, and
/// puts the old value back after (compilations may nest: `wgsl-spirv-asm`
/// generates WGSL first).
struct ThreadsGuard(bool);

impl ThreadsGuard {
    fn set(threads: Threads) -> ThreadsGuard {
        let only = threads == Threads::CallingThread;
        ThreadsGuard(CALLING_THREAD_ONLY.with(|flag| flag.replace(only)))
    }
}

impl Drop for ThreadsGuard {
    fn drop(&mut self) {
        CALLING_THREAD_ONLY.with(|flag| flag.set(self.0));
    }
}

/// The pool to hand work to: none while a [`Threads::CallingThread`]
/// request runs on this thread.
fn worker_pool() -> Option<&'static rayon_core::ThreadPool> {
    if CALLING_THREAD_ONLY.with(std::cell::Cell::get) {
        return None;
    }
    front_end_pool()
}

/// Runs `work` on a front-end thread and waits for it; a panic in `work`
/// resumes on the caller. With [`Threads::CallingThread`] it runs `work`
/// in place.
fn run_with_large_stack<T: Send>(work: impl FnOnce() -> T + Send) -> T {
    if CALLING_THREAD_ONLY.with(std::cell::Cell::get) {
        return work();
    }
    if let Some(pool) = front_end_pool() {
        return pool.install(work);
    }
    std::thread::scope(|scope| {
        let spawned = std::thread::Builder::new()
            .name("legalis-front".into())
            .stack_size(FRONT_END_STACK_BYTES)
            .spawn_scoped(scope, work);
        match spawned {
            Ok(handle) => match handle.join() {
                Ok(value) => value,
                Err(panic) => std::panic::resume_unwind(panic),
            },
            // No thread could be made (resource limits): nothing to run the
            // work on; report it as the panic it would be.
            Err(error) => panic!("cannot start the front-end thread: {error}"),
        }
    })
}

/// The IR as `-dump-ir` prints it.
pub fn dump_ir(module: &ir::Module) -> String {
    ir::print::print_module(module)
}

/// The diagnostic for an input file that cannot be read; it has no span
/// because there is no text to point into.
pub fn cannot_read_file(path: &str, error: &std::io::Error) -> Diagnostic {
    without_span(Diagnostic::error(
        codes::CANNOT_READ_FILE,
        format!("cannot read {path}: {error}"),
        ir::Span::UNDEFINED,
    ))
}

/// `E00008`: a linked pipeline's SPIR-V binaries, one per stage, need a
/// folder (`-o FOLDER`); standard output holds one.
pub fn spirv_pipeline_needs_folder() -> Diagnostic {
    without_span(Diagnostic::error(
        codes::SPIRV_PIPELINE_NEEDS_FOLDER,
        "-target spirv with several -entry linked as one pipeline writes one binary per stage: give -o FOLDER (or -target spirv-asm)",
        ir::Span::UNDEFINED,
    ))
}

/// The diagnostic for an output that cannot be written.
pub fn cannot_write_output(path: &str, error: &std::io::Error) -> Diagnostic {
    without_span(Diagnostic::error(
        codes::CANNOT_WRITE_OUTPUT,
        format!("cannot write {path}: {error}"),
        ir::Span::UNDEFINED,
    ))
}

/// The warning a buffer-layout option gets on a target it does not lay
/// out: `-fvk-use-scalar-layout` means something for GLSL and SPIR-V,
/// `-fvk-use-c-layout` for SPIR-V written directly (GLSL cannot say it).
fn layout_without_effect(target: Target, policy: &Policy) -> Option<Diagnostic> {
    let option = policy.buffer_layout.option()?;
    let via_glsl = target == Target::Glsl
        || (matches!(target, Target::Spirv | Target::SpirvAsm) && policy.spirv_via_glsl);
    let why = match (target, policy.buffer_layout) {
        (Target::Spirv | Target::SpirvAsm, _) if !via_glsl => return None,
        (Target::Glsl | Target::Spirv | Target::SpirvAsm, ir::BufferLayout::Scalar) => {
            return None;
        }
        _ if via_glsl => {
            "GLSL has no C layout, so its blocks keep std140/std430 \
             (-fvk-use-scalar-layout is the nearest GLSL can say; -target spirv writes C layout)"
        }
        _ => "it lays out GLSL and SPIR-V buffers; this target keeps its own layout",
    };
    let name = if via_glsl && target != Target::Glsl {
        "spirv through GLSL"
    } else {
        target.name()
    };
    Some(without_span(Diagnostic::warning(
        codes::OPTION_WITHOUT_EFFECT,
        format!("{option} has no effect on `{name}` output: {why}"),
        ir::Span::UNDEFINED,
    )))
}

fn without_span(mut diagnostic: Diagnostic) -> Diagnostic {
    diagnostic.labels.clear();
    diagnostic
}

/// A UTF-8 byte-order mark; editors on Windows write one, and it is not
/// part of the program.
const BOM: &str = "\u{feff}";

/// Bytes to text. On invalid UTF-8, returns a lossy decoding (so the error
/// renders with its source line) and the diagnostic pointing into it.
fn decode_source(bytes: &[u8]) -> Result<String, (String, Diagnostic)> {
    match std::str::from_utf8(bytes) {
        Ok(text) => Ok(text.strip_prefix(BOM).unwrap_or(text).to_string()),
        Err(error) => {
            // Bytes before the first invalid one decode identically in the
            // lossy text, so the offset carries over; the invalid byte
            // becomes one U+FFFD there.
            let offset = error.valid_up_to();
            let lossy = String::from_utf8_lossy(bytes).into_owned();
            let start = u32::try_from(offset).unwrap_or(u32::MAX);
            let end = start.saturating_add(char::REPLACEMENT_CHARACTER.len_utf8() as u32);
            let byte = bytes.get(offset).copied().unwrap_or_default();
            let diagnostic = Diagnostic::error(
                codes::INVALID_UTF8,
                "file is not valid UTF-8",
                ir::Span::new(start, end),
            )
            .with_primary_message(format!("invalid byte 0x{byte:02X}"));
            Err((lossy, diagnostic))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(source: &[u8]) -> Request {
        Request {
            path: "t.slang".into(),
            source: source.to_vec(),
            ..Request::default()
        }
    }

    #[test]
    fn spirv_words_become_little_endian_bytes() {
        let bytes = le_bytes(&[0x0723_0203, 0x0001_0600]);
        assert_eq!(bytes, [0x03, 0x02, 0x23, 0x07, 0x00, 0x06, 0x01, 0x00]);
        assert_eq!(bytes.capacity(), 8);
        assert!(le_bytes(&[]).is_empty());
    }

    #[test]
    fn invalid_utf8_points_at_first_bad_byte_in_lossy_text() {
        let compiled = compile(&request(b"int x;\n\xFF\xFEint y;"));
        assert!(compiled.module.is_none());
        let [diagnostic] = compiled.diagnostics.as_slice() else {
            panic!("one diagnostic expected: {:?}", compiled.diagnostics);
        };
        assert_eq!(diagnostic.code, codes::INVALID_UTF8);
        let span = diagnostic.primary_span().range();
        assert_eq!(&compiled.source_text[span], "\u{fffd}");
        assert_eq!(diagnostic.labels[0].message, "invalid byte 0xFF");
    }

    #[test]
    fn byte_order_mark_is_not_part_of_the_text() {
        let compiled = compile(&request(b"\xEF\xBB\xBF// hi\n"));
        assert_eq!(compiled.source_text, "// hi\n");
    }

    #[test]
    fn read_error_has_no_span() {
        let error = std::io::Error::from(std::io::ErrorKind::NotFound);
        let diagnostic = cannot_read_file("a.slang", &error);
        assert_eq!(diagnostic.code_str(), "E00001");
        assert!(diagnostic.labels.is_empty());
        assert!(diagnostic.message.starts_with("cannot read a.slang: "));
    }
}
