//! The harness's own compiler and validator: Legalis run in-process through
//! the same command-line function the binary uses, and the downstream
//! validators of `legalis-validate` (glslang, then the SPIR-V validator;
//! naga for WGSL; for Metal, which no compiler on Linux validates, the
//! signature re-read of `msl_signature.rs`).

use std::ffi::OsString;
use std::path::Path;
use std::sync::OnceLock;

use legalis_validate::ReadBack;

use crate::runner::{CompileOutput, Compiler, Record, Validator};

/// `legalis FILE ARGS...` in-process, in the test file's folder with the
/// bare file name, exactly as the binary would run it.
#[derive(Debug, Clone, Copy, Default)]
pub struct InProcessLegalis;

impl Compiler for InProcessLegalis {
    fn run(&self, file: &Path, args: &[String]) -> CompileOutput {
        let folder = file
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let name = file.file_name().unwrap_or(file.as_os_str()).to_os_string();
        let mut arguments: Vec<OsString> = vec![name];
        arguments.extend(args.iter().map(OsString::from));
        let env = legalis_cli::Environment::new(folder);
        let outcome = legalis_cli::run(arguments, &env);
        CompileOutput {
            stdout: String::from_utf8_lossy(&outcome.stdout).into_owned(),
            stderr: outcome.stderr,
            exit_code: Some(i32::from(outcome.code)),
        }
    }
}

/// Validates every output with its target's real validator: GLSL is
/// compiled to SPIR-V by glslang and that SPIR-V checked by the SPIR-V
/// validator (Vulkan 1.3); `spirv-asm` is assembled by the SPIRV-Tools
/// assembler, validated, and read back by naga as a second reader (a note
/// says whether naga read it or declined a stage or feature it does not
/// support; any other naga error fails); WGSL is parsed and validated by
/// naga. A target without a validator is a failure, so nothing is pinned
/// unvalidated.
#[derive(Debug, Clone, Copy, Default)]
pub struct DownstreamValidator;

/// The sections of a linked pipeline's output (several `-entry`): each
/// stage's code under its `legalis link: ENTRY (STAGE)` header line, as
/// `(stage, code)`.
fn linked_sections(output: &str) -> Vec<(String, String)> {
    linked_entries(output)
        .into_iter()
        .map(|(_, stage, code)| (stage, code))
        .collect()
}

/// [`linked_sections`] with each section's entry point:
/// `(entry, stage, code)`.
pub(crate) fn linked_entries(output: &str) -> Vec<(String, String, String)> {
    let header = |line: &str| {
        let line = line
            .strip_prefix("// ")
            .or_else(|| line.strip_prefix("; "))?;
        let named = line.trim_end().strip_prefix("legalis link: ")?;
        let (entry, stage) = named.rsplit_once(" (")?;
        Some((entry.to_string(), stage.strip_suffix(')')?.to_string()))
    };
    let mut sections: Vec<(String, String, String)> = Vec::new();
    for line in output.split_inclusive('\n') {
        match (header(line), sections.last_mut()) {
            (Some((entry, stage)), _) => sections.push((entry, stage, String::new())),
            (None, Some((_, _, code))) => code.push_str(line),
            // Text before any header: not a linked output.
            (None, None) => return Vec::new(),
        }
    }
    sections
}

/// The JSON Schema of `--trace-legalization=json` (`legalis-trace/1`),
/// checked in beside the document that describes it.
const TRACE_SCHEMA: &str = include_str!("../../../docs/design/trace.schema.json");

/// The compiled [`TRACE_SCHEMA`], built once.
fn trace_schema() -> &'static jsonschema::Validator {
    static SCHEMA: OnceLock<jsonschema::Validator> = OnceLock::new();
    SCHEMA.get_or_init(|| {
        let schema: serde_json::Value =
            serde_json::from_str(TRACE_SCHEMA).expect("docs/design/trace.schema.json is JSON");
        jsonschema::draft202012::new(&schema)
            .unwrap_or_else(|e| panic!("docs/design/trace.schema.json is not a valid schema: {e}"))
    })
}

/// [`TRACE_SCHEMA`]'s definition of one entry point's trace alone: the
/// whole schema is one trace or an array of them (`oneOf`), whose
/// violations name no key, so a trace that is one object is checked
/// against this too for the violations it names.
fn entry_trace_schema() -> &'static jsonschema::Validator {
    static SCHEMA: OnceLock<jsonschema::Validator> = OnceLock::new();
    SCHEMA.get_or_init(|| {
        let mut schema: serde_json::Value =
            serde_json::from_str(TRACE_SCHEMA).expect("docs/design/trace.schema.json is JSON");
        let object = schema
            .as_object_mut()
            .expect("docs/design/trace.schema.json is an object");
        object.shift_remove("oneOf");
        object.insert("$ref".into(), "#/$defs/entry".into());
        jsonschema::draft202012::new(&schema)
            .unwrap_or_else(|e| panic!("docs/design/trace.schema.json is not a valid schema: {e}"))
    })
}

/// Checks one JSON trace against `TRACE_SCHEMA`: every violation, with
/// the JSON pointer of the value it is about (for a trace that is one
/// object, the violations of the one-trace definition).
pub fn check_trace_schema(trace: &str) -> Result<(), String> {
    let value: serde_json::Value =
        serde_json::from_str(trace).map_err(|e| format!("the trace is not JSON: {e}"))?;
    let violations = |validator: &jsonschema::Validator| -> Vec<String> {
        validator
            .iter_errors(&value)
            .map(|e| format!("at `{}`: {e}", e.instance_path()))
            .collect()
    };
    let errors = violations(trace_schema());
    if errors.is_empty() {
        return Ok(());
    }
    let detailed = match value {
        serde_json::Value::Object(_) => violations(entry_trace_schema()),
        _ => Vec::new(),
    };
    if detailed.is_empty() {
        Err(errors.join("\n"))
    } else {
        Err(detailed.join("\n"))
    }
}

/// The note of a SPIR-V output naga's front end read back.
pub const NAGA_READ: &str = "naga read the SPIR-V back";

/// The start of the note of a SPIR-V output naga declined (a stage or
/// feature naga does not support); naga's reason follows.
pub const NAGA_DECLINED: &str = "naga declined the SPIR-V read-back: ";

/// How many SPIR-V modules of the records naga read back, and how many it
/// declined, from the notes [`DownstreamValidator`] leaves (a linked
/// pipeline's note names each stage's module).
pub fn readback_counts(records: &[Record]) -> (usize, usize) {
    let notes = || records.iter().flat_map(|r| &r.notes);
    (
        notes().map(|n| n.matches(NAGA_READ).count()).sum(),
        notes().map(|n| n.matches(NAGA_DECLINED).count()).sum(),
    )
}

/// The note of a Metal output the Metal checker (clang against the
/// project's `metal_stdlib` model) accepted.
pub const METAL_CHECKED: &str = "Metal checked by clang against the metal_stdlib model";

/// `Metal: N checked`: the Metal outputs the Metal checker accepted, for
/// the suite's summary.
pub fn metal_line(records: &[Record]) -> String {
    let checked: usize = records
        .iter()
        .flat_map(|r| &r.notes)
        .map(|n| n.matches(METAL_CHECKED).count())
        .sum();
    format!("Metal: {checked} checked")
}

/// `naga read back: N read, M declined`, for the suite's summary.
pub fn readback_line(records: &[Record]) -> String {
    let (read, declined) = readback_counts(records);
    format!("naga read back: {read} read, {declined} declined")
}

impl DownstreamValidator {
    /// [`Validator::validate`], with the notes it leaves: for SPIR-V,
    /// whether naga read the module back or declined it.
    fn validate_with_notes(
        &self,
        target: &str,
        stage: Option<&str>,
        output: &str,
    ) -> Result<Vec<String>, String> {
        // A linked pipeline: every stage's code on its own.
        if stage.is_none() {
            let sections = linked_sections(output);
            if !sections.is_empty() {
                let mut notes = Vec::new();
                for (stage, code) in sections {
                    let mine = self
                        .validate_with_notes(target, Some(&stage), &code)
                        .map_err(|e| format!("{stage}: {e}"))?;
                    notes.extend(mine.into_iter().map(|note| format!("{stage}: {note}")));
                }
                return Ok(notes);
            }
        }
        // CUDA needs no stage: nvcc compiles the translation unit, which
        // holds every OptiX program of the file without -entry.
        if target == "cuda" && stage.is_none() {
            let (name, text) = legalis::cuda_prelude();
            return legalis_validate::cuda::validate_cuda(output, &[(name, text)])
                .map(|_| Vec::new());
        }
        // A WGSL module of several entry points (no -entry): parsed and
        // validated whole by naga, which reads every entry point.
        if target == "wgsl" && stage.is_none() && wgsl_entry_stages(output).len() > 1 {
            return validate_wgsl_entries(output).map(|_| Vec::new());
        }
        // A SPIR-V module of several entry points (no -entry): validated
        // whole; naga reads it back once, for its first entry point's stage.
        let stages = spirv_entry_stages(target, output);
        let stage = match (stage, stages.first()) {
            (None, Some(&first)) if stages.len() > 1 => Some(first),
            _ => stage.and_then(legalis_ir::ShaderStage::from_name),
        };
        let stage = stage.ok_or_else(|| {
            "the directive names no valid -stage, so the output cannot be validated".to_string()
        })?;
        match target {
            "glsl" => legalis_validate::validate_glsl(output, stage).map(|_| Vec::new()),
            // The text is assembled by the SPIRV-Tools assembler, which also
            // proves the disassembly is valid assembly; naga reads the
            // module back, or says which feature it does not support.
            "spirv-asm" => {
                let words = legalis_validate::validate_spirv_asm(output)?;
                Ok(vec![match legalis_validate::read_back_spirv(&words, stage)? {
                    ReadBack::Read => NAGA_READ.to_string(),
                    ReadBack::Declined(reason) => format!("{NAGA_DECLINED}{reason}"),
                }])
            }
            // Parsed and validated by naga in-process, uniformity included.
            "wgsl" => legalis_validate::validate_wgsl(output, stage).map(|_| Vec::new()),
            // Compiled to PTX by nvcc with the prelude beside it and the
            // OptiX headers; a missing toolchain fails (run `cargo xtask
            // setup`).
            "cuda" => {
                let (name, text) = legalis::cuda_prelude();
                legalis_validate::cuda::validate_cuda(output, &[(name, text)]).map(|_| Vec::new())
            }
            "metal" => Err(
                "Metal outputs need the test file: the signature re-read compares them with the legalization plan"
                    .to_string(),
            ),
            other => Err(format!(
                "no validator for target `{other}` in the suite (use spirv-asm for SPIR-V)"
            )),
        }
    }
}

impl Validator for DownstreamValidator {
    fn validate(&self, target: &str, stage: Option<&str>, output: &str) -> Result<(), String> {
        self.validate_with_notes(target, stage, output).map(|_| ())
    }

    fn wants_trace(&self, target: &str) -> bool {
        matches!(target, "glsl" | "spirv-asm" | "wgsl")
    }

    /// Reads the output's interface back from SPIR-V (GLSL through
    /// glslang) and compares it with the trace's.
    fn round_trip(
        &self,
        target: &str,
        stage: Option<&str>,
        output: &str,
        trace: &str,
    ) -> Result<(), String> {
        if stage.is_none() {
            let (codes, traces) = (linked_sections(output), linked_sections(trace));
            if codes.len() != traces.len() {
                return Err(format!(
                    "{} linked outputs but {} traces",
                    codes.len(),
                    traces.len()
                ));
            }
            if !codes.is_empty() {
                for ((stage, code), (_, trace)) in codes.into_iter().zip(traces) {
                    self.round_trip(target, Some(&stage), &code, &trace)
                        .map_err(|e| format!("{stage}: {e}"))?;
                }
                return Ok(());
            }
            let stages = spirv_entry_stages(target, output);
            if stages.len() > 1 {
                return multi_entry_round_trip(output, &stages, trace);
            }
            if target == "wgsl" && wgsl_entry_stages(output).len() > 1 {
                return multi_entry_wgsl_round_trip(output, trace);
            }
        }
        let stage = stage
            .and_then(legalis_ir::ShaderStage::from_name)
            .ok_or("the directive names no valid -stage")?;
        let interface = match target {
            "glsl" => {
                crate::interface::read_spirv(&legalis_validate::glsl_to_spirv(output, stage)?)?
            }
            "spirv-asm" => {
                crate::interface::read_spirv(&legalis_validate::assemble_spirv(output)?)?
            }
            "wgsl" => {
                crate::interface::read_wgsl(&legalis_validate::validate_wgsl(output, stage)?)?
            }
            other => return Err(format!("no interface reader for target `{other}`")),
        };
        compare_with_trace(interface, stage, trace)
    }

    /// Validates the trace (each stage's, for a linked pipeline) against
    /// the JSON Schema of `docs/design/trace.schema.json`.
    fn check_trace(&self, trace: &str) -> Result<(), String> {
        let sections = linked_sections(trace);
        if let Some(traces) = trace_array(trace) {
            for (k, trace) in traces.iter().enumerate() {
                check_trace_schema(trace).map_err(|e| format!("entry point {k}: {e}"))?;
            }
            return Ok(());
        }
        if sections.is_empty() {
            return check_trace_schema(trace);
        }
        for (stage, trace) in sections {
            check_trace_schema(&trace).map_err(|e| format!("{stage}: {e}"))?;
        }
        Ok(())
    }

    fn check_bindings(&self, dump: &str) -> Result<(), String> {
        crate::bindings::expected(dump).map(|_| ())
    }

    fn wants_bindings(&self, target: &str) -> bool {
        matches!(target, "glsl" | "spirv-asm" | "wgsl")
    }

    /// Reads the output's descriptor bindings back (GLSL through glslang)
    /// and compares them with the binding plan.
    fn bindings_round_trip(
        &self,
        target: &str,
        stage: Option<&str>,
        output: &str,
        dump: &str,
    ) -> Result<(), String> {
        // SPIR-V needs no stage to be read (a module may have several).
        if target == "spirv-asm" {
            let found = crate::bindings::read_spirv(&legalis_validate::assemble_spirv(output)?)?;
            return crate::bindings::compare(&found, &crate::bindings::expected(dump)?);
        }
        // Nor does a WGSL module of several entry points.
        if target == "wgsl" && stage.is_none() && wgsl_entry_stages(output).len() > 1 {
            let found = crate::bindings::read_wgsl(&validate_wgsl_entries(output)?);
            return crate::bindings::compare(&found, &crate::bindings::expected(dump)?);
        }
        let stage = stage
            .and_then(legalis_ir::ShaderStage::from_name)
            .ok_or("the directive names no valid -stage")?;
        let found = match target {
            "glsl" => {
                crate::bindings::read_spirv(&legalis_validate::glsl_to_spirv(output, stage)?)?
            }
            "wgsl" => crate::bindings::read_wgsl(&legalis_validate::validate_wgsl(output, stage)?),
            other => return Err(format!("no binding reader for target `{other}`")),
        };
        crate::bindings::compare(&found, &crate::bindings::expected(dump)?)
    }

    fn validate_directive(
        &self,
        file: &Path,
        args: &[String],
        target: &str,
        stage: Option<&str>,
        output: &str,
    ) -> Result<Option<String>, String> {
        if target == "metal" {
            // clang against the metal_stdlib model first, then the
            // signature against the plan; a linked pipeline's stages each
            // on their own.
            let sections = linked_sections(output);
            if sections.is_empty() {
                legalis_validate::metal::validate_metal(output)?;
                let signature = crate::msl_signature::check(file, args, output)?;
                return Ok(Some(format!("{METAL_CHECKED}; {signature}")));
            }
            let mut notes = Vec::new();
            for (stage, code) in &sections {
                legalis_validate::metal::validate_metal(code)
                    .map_err(|e| format!("{stage}: {e}"))?;
                notes.push(format!("{stage}: {METAL_CHECKED}"));
            }
            notes.push(crate::msl_signature::check(file, args, output)?);
            return Ok(Some(notes.join("; ")));
        }
        let notes = self.validate_with_notes(target, stage, output)?;
        Ok((!notes.is_empty()).then(|| notes.join("; ")))
    }
}

/// The stage of each `OpEntryPoint` of a `spirv-asm` output, in order
/// (empty for other targets).
fn spirv_entry_stages(target: &str, output: &str) -> Vec<legalis_ir::ShaderStage> {
    use legalis_ir::ShaderStage as S;
    if target != "spirv-asm" {
        return Vec::new();
    }
    output
        .lines()
        .filter_map(|line| {
            let mut words = line.split_whitespace();
            (words.next()? == "OpEntryPoint").then_some(())?;
            Some(match words.next()? {
                "Vertex" => S::Vertex,
                "Fragment" => S::Fragment,
                "GLCompute" => S::Compute,
                "Geometry" => S::Geometry,
                "TessellationControl" => S::Hull,
                "TessellationEvaluation" => S::Domain,
                "MeshEXT" => S::Mesh,
                "TaskEXT" => S::Amplification,
                "RayGenerationKHR" => S::RayGeneration,
                "IntersectionKHR" => S::Intersection,
                "AnyHitKHR" => S::AnyHit,
                "ClosestHitKHR" => S::ClosestHit,
                "MissKHR" => S::Miss,
                "CallableKHR" => S::Callable,
                _ => return None,
            })
        })
        .collect()
}

/// The stage of each entry function of a WGSL output (a line that is
/// `@vertex`, `@fragment` or `@compute ...`, as the writer puts it), in
/// order.
fn wgsl_entry_stages(output: &str) -> Vec<legalis_ir::ShaderStage> {
    use legalis_ir::ShaderStage as S;
    output
        .lines()
        .filter_map(|line| match line.split_whitespace().next()? {
            "@vertex" => Some(S::Vertex),
            "@fragment" => Some(S::Fragment),
            "@compute" => Some(S::Compute),
            _ => None,
        })
        .collect()
}

/// A WGSL module of any number of entry points parsed and validated by
/// naga, uniformity included (`legalis_validate::validate_wgsl` checks
/// one entry point of a given stage).
fn validate_wgsl_entries(source: &str) -> Result<naga::Module, String> {
    let module = naga::front::wgsl::parse_str(source)
        .map_err(|e| format!("naga (WGSL): {}", e.emit_to_string(source)))?;
    naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::default() | legalis_validate::WGSL_CAPABILITIES,
    )
    .validate(&module)
    .map_err(|e| format!("naga (WGSL validation): {}", e.emit_to_string(source)))?;
    Ok(module)
}

/// Each entry point's interface in a WGSL module of several, as naga
/// reads it, compared with its trace (the trace is an array, in
/// entry-point order, as the entry functions are written).
fn multi_entry_wgsl_round_trip(output: &str, trace: &str) -> Result<(), String> {
    let module = validate_wgsl_entries(output)?;
    let traces = trace_array(trace)
        .ok_or("a module of several entry points, but the trace is not an array")?;
    if traces.len() != module.entry_points.len() {
        return Err(format!(
            "{} entry points but {} traces",
            module.entry_points.len(),
            traces.len()
        ));
    }
    for (k, trace) in traces.iter().enumerate() {
        // The trace names its entry point; the writer keeps the name
        // unless WGSL reserves it.
        let name = serde_json::from_str::<serde_json::Value>(trace)
            .ok()
            .and_then(|v| v["entry"].as_str().map(str::to_string));
        let entry = module
            .entry_points
            .iter()
            .find(|e| Some(&e.name) == name.as_ref())
            .unwrap_or(&module.entry_points[k]);
        let stage = match entry.stage {
            naga::ShaderStage::Vertex => legalis_ir::ShaderStage::Vertex,
            naga::ShaderStage::Fragment => legalis_ir::ShaderStage::Fragment,
            naga::ShaderStage::Compute => legalis_ir::ShaderStage::Compute,
            other => return Err(format!("entry point {k}: a {other:?} entry point in WGSL")),
        };
        // The reader reads a module's first entry point: this one alone.
        let mut one = module.clone();
        one.entry_points = vec![entry.clone()];
        let interface = crate::interface::read_wgsl(&one)?;
        compare_with_trace(interface, stage, trace)
            .map_err(|e| format!("entry point {k} ({}): {e}", entry.name))?;
    }
    Ok(())
}

/// The traces of a JSON trace that is an array (a module of several entry
/// points), each as JSON text; `None` for any other trace.
fn trace_array(trace: &str) -> Option<Vec<String>> {
    match serde_json::from_str::<serde_json::Value>(trace).ok()? {
        serde_json::Value::Array(items) => Some(items.iter().map(|v| v.to_string()).collect()),
        _ => None,
    }
}

/// Each entry point's interface in a SPIR-V module of several, compared
/// with its trace (the trace is an array, in entry-point order).
fn multi_entry_round_trip(
    output: &str,
    stages: &[legalis_ir::ShaderStage],
    trace: &str,
) -> Result<(), String> {
    let traces = trace_array(trace)
        .ok_or("a module of several entry points, but the trace is not an array")?;
    if traces.len() != stages.len() {
        return Err(format!(
            "{} entry points but {} traces",
            stages.len(),
            traces.len()
        ));
    }
    let words = legalis_validate::assemble_spirv(output)?;
    for (k, (&stage, trace)) in stages.iter().zip(&traces).enumerate() {
        let interface = crate::interface::read_spirv_entry(&words, k)?;
        compare_with_trace(interface, stage, trace)
            .map_err(|e| format!("entry point {k} ({}): {e}", stage.name()))?;
    }
    Ok(())
}

/// An interface read back compared with the one `trace` promises.
fn compare_with_trace(
    mut interface: crate::interface::Interface,
    stage: legalis_ir::ShaderStage,
    trace: &str,
) -> Result<(), String> {
    if stage.is_ray_tracing() {
        // Ray-tracing builtins are intrinsics (`RayTCurrent()`), not
        // parameters: the writers declare them where they are read, and
        // the plan has no leaf for them.
        interface
            .slots
            .retain(|slot| !matches!(slot, crate::interface::Slot::BuiltIn { .. }));
    }
    // So are the subgroup builtins of the wave intrinsics
    // (`WaveGetLaneIndex()`, `WaveGetWaveIndex()`), in any stage.
    const WAVE: &[&str] = &[
        "SubgroupSize",
        "SubgroupLocalInvocationId",
        "SubgroupId",
        "NumSubgroups",
    ];
    interface.slots.retain(|slot| {
        !matches!(slot, crate::interface::Slot::BuiltIn { name, .. } if WAVE.contains(&name.as_str()))
    });
    // The trace the comparison trusts follows its schema first.
    check_trace_schema(trace).map_err(|e| format!("the trace does not follow its schema:\n{e}"))?;
    let expected = crate::interface::expected(trace)?;
    crate::interface::compare(&interface, &expected)
}

/// The code of the first error of a refusal in Legalis' rendered
/// diagnostics (`error[E49994]: ...`), when every error in `stderr` is
/// coded and none is an internal error (`legalis::codes::is_internal`);
/// `None` for anything else (an uncoded failure, a panic, an internal
/// error anywhere). What the corpus and generated-shape tests accept as a
/// refusal.
pub fn refusal_code(stderr: &str) -> Option<String> {
    let mut codes = stderr.lines().filter_map(|line| {
        let rest = line.strip_prefix("error")?;
        Some(
            rest.strip_prefix('[')
                .and_then(|rest| rest.split_once(']'))
                .map(|(code, _)| code),
        )
    });
    let first = codes.next()??;
    for code in std::iter::once(Some(first)).chain(codes) {
        let number: u32 = code?.strip_prefix('E')?.parse().ok()?;
        if code?.len() != 6 || legalis::codes::is_internal(number) {
            return None;
        }
    }
    Some(first.to_string())
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::directives::{self, DirectiveKind};
    use crate::runner::{Status, TRACE_OPTION};

    fn suite_dir() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/legalize")
    }

    /// The JSON trace of `entry` in a suite file.
    fn trace(file: &str, args: &[&str]) -> serde_json::Value {
        let mut args: Vec<String> = args.iter().map(ToString::to_string).collect();
        args.push(format!("{TRACE_OPTION}=json"));
        let output = InProcessLegalis.run(&suite_dir().join(file), &args);
        assert_eq!(output.exit_code, Some(0), "{}", output.stderr);
        serde_json::from_str(&output.stdout).expect("a JSON trace")
    }

    fn check(value: &serde_json::Value) -> Result<(), String> {
        DownstreamValidator.check_trace(&value.to_string())
    }

    #[test]
    fn an_empty_or_incomplete_trace_does_not_follow_the_schema() {
        let error = DownstreamValidator.check_trace("{}").unwrap_err();
        assert!(
            error.contains("\"schema\" is a required property"),
            "{error}"
        );
        assert!(DownstreamValidator.check_trace("").is_err());

        let hull = trace(
            "trace-legalization.slang",
            &["-target", "glsl", "-entry", "hs", "-stage", "hull"],
        );
        check(&hull).expect("the compiler's own trace follows the schema");
        // Each top-level key, and each key of a leaf, is required.
        for key in ["schema", "leaves", "synthesized", "patch_constant", "stage"] {
            let mut broken = hull.clone();
            broken.as_object_mut().unwrap().shift_remove(key);
            let error = check(&broken).expect_err(key);
            assert!(error.contains(key), "{key}: {error}");
        }
        for key in ["reason", "place", "root", "vertices", "mesh"] {
            let mut broken = hull.clone();
            broken["leaves"][0]
                .as_object_mut()
                .unwrap()
                .shift_remove(key);
            let error = check(&broken).expect_err(key);
            assert!(error.contains("/leaves/0"), "{key}: {error}");
        }
        // Values: an unknown direction, a place without its location, a
        // key the schema does not have, a CUDA key in a GLSL trace.
        let mut broken = hull.clone();
        broken["leaves"][0]["direction"] = "sideways".into();
        assert!(check(&broken).is_err());
        let mut broken = hull.clone();
        let place = broken["leaves"]
            .as_array_mut()
            .unwrap()
            .iter_mut()
            .map(|leaf| &mut leaf["place"])
            .find(|place| place["kind"] == "location")
            .expect("a location leaf");
        place.as_object_mut().unwrap().shift_remove("location");
        assert!(check(&broken).is_err());
        let mut broken = hull.clone();
        broken["extra"] = 1.into();
        assert!(check(&broken).is_err());
        let mut broken = hull.clone();
        broken["optix"] = serde_json::Value::Null;
        assert!(check(&broken).is_err());
        let mut broken = hull;
        broken["schema"] = "legalis-trace/2".into();
        assert!(check(&broken).is_err());

        // A CUDA trace must carry its CUDA keys.
        let cuda = trace(
            "trace-cuda.slang",
            &["-target", "cuda", "-entry", "ch", "-stage", "closesthit"],
        );
        check(&cuda).expect("the compiler's own CUDA trace follows the schema");
        for key in ["function", "resources", "optix"] {
            let mut broken = cuda.clone();
            broken.as_object_mut().unwrap().shift_remove(key);
            assert!(check(&broken).is_err(), "{key}");
        }
    }

    /// Every directive of the suite that makes code also traces, and every
    /// JSON trace follows the schema; the suite itself checks the traces of
    /// GLSL, SPIR-V and WGSL in its round trip, this covers Metal and CUDA.
    #[test]
    fn every_trace_of_the_suite_follows_the_schema() {
        let mut traced: std::collections::BTreeMap<String, usize> = Default::default();
        for file in crate::runner::test_files(&suite_dir(), None).expect("the suite") {
            let text = std::fs::read_to_string(&file).expect("a test file");
            let Ok(test) = directives::parse(&text) else {
                continue;
            };
            for directive in &test.directives {
                let DirectiveKind::FileCheck { .. } = directive.kind else {
                    continue;
                };
                let args = &directive.args;
                let Some(at) = args.iter().position(|a| a == "-target") else {
                    continue;
                };
                if args
                    .iter()
                    .any(|a| a.starts_with('-') && a.contains("dump"))
                {
                    continue;
                }
                let mut traced_args: Vec<String> = args
                    .iter()
                    .filter(|a| !a.starts_with(TRACE_OPTION))
                    .cloned()
                    .collect();
                traced_args.push(format!("{TRACE_OPTION}=json"));
                let output = InProcessLegalis.run(&file, &traced_args);
                if output.exit_code != Some(0) {
                    continue;
                }
                DownstreamValidator
                    .check_trace(&output.stdout)
                    .unwrap_or_else(|e| panic!("{}: {}\n{e}", file.display(), directive.text));
                *traced.entry(args[at + 1].clone()).or_default() += 1;
            }
        }
        for target in ["glsl", "spirv-asm", "wgsl", "metal", "cuda"] {
            assert!(
                traced.get(target).is_some_and(|&n| n >= 5),
                "too few {target} traces: {traced:?}"
            );
        }
    }

    fn record(notes: &[&str]) -> Record {
        Record {
            file: "f.slang".into(),
            line: 1,
            number: 1,
            directive: String::new(),
            status: Status::Pass,
            reasons: Vec::new(),
            output: None,
            notes: notes.iter().map(ToString::to_string).collect(),
        }
    }

    #[test]
    fn the_read_back_is_counted_from_the_notes() {
        let records = [
            record(&[NAGA_READ]),
            record(&[&format!("{NAGA_DECLINED}unsupported execution model %1")]),
            record(&[&format!(
                "vertex: {NAGA_READ}; hull: {NAGA_DECLINED}unsupported execution model %1"
            )]),
            record(&["not validated by a compiler"]),
        ];
        assert_eq!(readback_counts(&records), (2, 2));
        assert_eq!(
            readback_line(&records),
            "naga read back: 2 read, 2 declined"
        );
        let metal = [
            record(&[&format!("{METAL_CHECKED}; signature")]),
            record(&["not validated by a compiler"]),
            record(&[METAL_CHECKED]),
        ];
        assert_eq!(metal_line(&metal), "Metal: 2 checked");
    }

    /// Every SPIR-V output is handed to naga: a hull shader is declined by
    /// naga itself (no tessellation capability), and so is a mesh shader
    /// (naga 30's SPIR-V reader has the mesh execution model but not the
    /// `MeshShadingEXT` capability); fragment and compute ones are read.
    #[test]
    fn spirv_outputs_of_every_stage_are_read_back_or_declined_by_naga() {
        let note = |file: &str, args: &[&str]| {
            let args: Vec<String> = args.iter().map(ToString::to_string).collect();
            let path = suite_dir().join(file);
            let output = InProcessLegalis.run(&path, &args);
            assert_eq!(output.exit_code, Some(0), "{}", output.stderr);
            let stage = args
                .iter()
                .position(|a| a == "-stage")
                .map(|i| args[i + 1].as_str());
            DownstreamValidator
                .validate_directive(&path, &args, "spirv-asm", stage, &output.stdout)
                .expect("a valid module")
                .expect("a read-back note")
        };
        let hull = note(
            "trace-legalization.slang",
            &["-target", "spirv-asm", "-entry", "hs", "-stage", "hull"],
        );
        assert!(
            hull.starts_with(NAGA_DECLINED) && hull.contains("Tessellation"),
            "{hull}"
        );
        let mesh = note(
            "b10-mesh.slang",
            &["-target", "spirv-asm", "-entry", "main", "-stage", "mesh"],
        );
        assert!(
            mesh.starts_with(NAGA_DECLINED) && mesh.contains("MeshShadingEXT"),
            "{mesh}"
        );
        let fragment = note(
            "trace-legalization.slang",
            &["-target", "spirv-asm", "-entry", "fs", "-stage", "fragment"],
        );
        assert_eq!(fragment, NAGA_READ);
        let compute = note(
            "compute-ids.slang",
            &[
                "-target",
                "spirv-asm",
                "-entry",
                "main",
                "-stage",
                "compute",
            ],
        );
        assert_eq!(compute, NAGA_READ);
    }

    #[test]
    fn a_refusal_is_coded_and_no_error_of_it_is_internal() {
        assert_eq!(
            refusal_code("error[E55204]: shape\n  --> f:1:1").as_deref(),
            Some("E55204")
        );
        assert_eq!(
            refusal_code("warning[E48007]: w\nerror[E49994]: x\nerror[E49990]: y").as_deref(),
            Some("E49994")
        );
        // Internal errors, first or after a refusal; the three the first
        // list of internal codes missed among them.
        for internal in ["E00006", "E49000", "E55300", "E55400", "E56103", "E56402"] {
            assert_eq!(refusal_code(&format!("error[{internal}]: bug")), None);
            assert_eq!(
                refusal_code(&format!("error[E49994]: x\nerror[{internal}]: bug")),
                None
            );
        }
        assert_eq!(refusal_code("thread 'main' panicked"), None);
        assert_eq!(refusal_code("error: no code"), None);
        assert_eq!(refusal_code("error[oops]: x"), None);
        assert_eq!(refusal_code(""), None);
    }
}
