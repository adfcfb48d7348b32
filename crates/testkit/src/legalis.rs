//! The harness's own compiler and validator: Legalis run in-process through
//! the same command-line function the binary uses, and the downstream
//! validators of `legalis-validate` (glslang, then the SPIR-V validator;
//! naga for WGSL; for Metal, which no compiler on Linux validates, the
//! signature re-read of `msl_signature.rs`).

use std::ffi::OsString;
use std::path::Path;

use crate::runner::{CompileOutput, Compiler, Validator};

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
        let env = legalis::cli::Environment {
            cwd: folder.to_path_buf(),
            color: false,
        };
        let outcome = legalis::cli::run(arguments, &env);
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
/// assembler, validated, and read back by naga as a second reader where
/// naga supports the stage; WGSL is parsed and validated by naga. A target without a validator is a failure, so
/// nothing is pinned unvalidated.
#[derive(Debug, Clone, Copy, Default)]
pub struct DownstreamValidator;

/// The sections of a linked pipeline's output (several `-entry`): each
/// stage's code under its `legalis link: ENTRY (STAGE)` header line.
fn linked_sections(output: &str) -> Vec<(String, String)> {
    let header = |line: &str| {
        let line = line
            .strip_prefix("// ")
            .or_else(|| line.strip_prefix("; "))?;
        let named = line.trim_end().strip_prefix("legalis link: ")?;
        let stage = named.rsplit_once(" (")?.1.strip_suffix(')')?;
        Some(stage.to_string())
    };
    let mut sections: Vec<(String, String)> = Vec::new();
    for line in output.split_inclusive('\n') {
        match (header(line), sections.last_mut()) {
            (Some(stage), _) => sections.push((stage, String::new())),
            (None, Some((_, code))) => code.push_str(line),
            // Text before any header: not a linked output.
            (None, None) => return Vec::new(),
        }
    }
    sections
}

impl Validator for DownstreamValidator {
    fn validate(&self, target: &str, stage: Option<&str>, output: &str) -> Result<(), String> {
        // A linked pipeline: every stage's code on its own.
        if stage.is_none() {
            let sections = linked_sections(output);
            if !sections.is_empty() {
                for (stage, code) in sections {
                    self.validate(target, Some(&stage), &code)
                        .map_err(|e| format!("{stage}: {e}"))?;
                }
                return Ok(());
            }
        }
        let stage = stage
            .and_then(legalis_ir::ShaderStage::from_name)
            .ok_or_else(|| {
                "the directive names no valid -stage, so the output cannot be validated".to_string()
            })?;
        match target {
            "glsl" => legalis_validate::validate_glsl(output, stage).map(|_| ()),
            // The text is assembled by the SPIRV-Tools assembler, which also
            // proves the disassembly is valid assembly.
            "spirv-asm" => {
                let words = legalis_validate::validate_spirv_asm(output)?;
                legalis_validate::read_back_spirv(&words, stage).map(|_| ())
            }
            // Parsed and validated by naga in-process, uniformity included.
            "wgsl" => legalis_validate::validate_wgsl(output, stage).map(|_| ()),
            // Compiled to PTX by nvcc with the prelude beside it and the
            // OptiX headers; a missing toolchain fails (run `cargo xtask
            // setup`).
            "cuda" => {
                let (name, text) = legalis::cuda_prelude();
                legalis_validate::cuda::validate_cuda(output, &[(name, text)]).map(|_| ())
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
        let mut interface = interface;
        if stage.is_ray_tracing() {
            // Ray-tracing builtins are intrinsics (`RayTCurrent()`), not
            // parameters: the writers declare them where they are read, and
            // the plan has no leaf for them.
            interface
                .slots
                .retain(|slot| !matches!(slot, crate::interface::Slot::BuiltIn { .. }));
        }
        let expected = crate::interface::expected(trace)?;
        crate::interface::compare(&interface, &expected)
    }

    fn check_trace(&self, trace: &str) -> Result<(), String> {
        let sections = linked_sections(trace);
        if sections.is_empty() {
            return crate::interface::expected(trace).map(|_| ());
        }
        for (_, trace) in sections {
            crate::interface::expected(&trace)?;
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
        let stage = stage
            .and_then(legalis_ir::ShaderStage::from_name)
            .ok_or("the directive names no valid -stage")?;
        let found = match target {
            "glsl" => {
                crate::bindings::read_spirv(&legalis_validate::glsl_to_spirv(output, stage)?)?
            }
            "spirv-asm" => crate::bindings::read_spirv(&legalis_validate::assemble_spirv(output)?)?,
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
            return crate::msl_signature::check(file, args, output).map(Some);
        }
        self.validate(target, stage, output).map(|()| None)
    }
}
