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

impl Validator for DownstreamValidator {
    fn validate(&self, target: &str, stage: Option<&str>, output: &str) -> Result<(), String> {
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
            "metal" => Err(
                "Metal outputs need the test file: the signature re-read compares them with the legalization plan"
                    .to_string(),
            ),
            other => Err(format!(
                "no validator for target `{other}` in the suite (use spirv-asm for SPIR-V)"
            )),
        }
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
