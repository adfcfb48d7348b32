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
mod pipeline;
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
        (Some(module), Some(target)) => {
            pipeline::generate(module, target, request, &mut diagnostics)
        }
        _ => None,
    };
    Compiled {
        module: front_output.module,
        diagnostics,
        source_text: text,
        output,
    }
}

/// The SPIR-V of a WGSL module, as naga's SPIR-V writer makes it (SPIR-V
/// 1.0 for Vulkan, names kept, no coordinate-space or depth adjustment, so
/// it means what Legalis's WGSL means); the WGSL is parsed and validated
/// first, and the SPIR-V is validated after. The error is naga's message,
/// or the SPIR-V validator's.
pub fn wgsl_to_spirv(wgsl: &str) -> Result<Vec<u32>, String> {
    pipeline::wgsl::to_spirv(wgsl)
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
        let generated = pipeline::generate(&subset, target, request, &mut diagnostics);
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
    linked.outputs = pipeline::link_stages(&module, &order, target, request, &mut diagnostics);
    if diagnostics.iter().any(Diagnostic::is_error) {
        linked.outputs.clear();
    }
    linked.diagnostics = diagnostics;
    linked
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
