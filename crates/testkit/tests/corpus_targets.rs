//! Every vertex, fragment and compute entry point of the front-end corpus
//! (`tests/front-corpus/`) compiled to GLSL and to SPIR-V assembly: an
//! output must pass its validator (glslang and the SPIR-V validator; the
//! SPIRV-Tools assembler and validator); a refusal must be a coded
//! diagnostic that is not an internal error (`legalis::codes::INTERNAL`,
//! the codes `docs/diagnostics.md` calls "a bug in Legalis"), never a
//! panic or an uncoded failure. The counts are pinned, per target: how
//! many outputs validated and how many refusals of each code, so a drift
//! either way (a shader that stops compiling, or one that starts) fails
//! until the numbers here are changed with it.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use legalis_testkit::legalis::{DownstreamValidator, InProcessLegalis, refusal_code};
use legalis_testkit::runner::{Compiler, Validator};

fn shaders(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .expect("corpus folder")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            shaders(&path, out);
        } else if matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("hlsl" | "slang")
        ) {
            out.push(path);
        }
    }
}

/// The arguments of each `// legalis:` line whose stage the GLSL target handles.
fn entry_lines(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .filter_map(|line| line.trim().strip_prefix("// legalis:"))
        .map(|rest| {
            rest.split_whitespace()
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .filter(|words| {
            let stage = words.iter().skip_while(|w| *w != "-stage").nth(1);
            matches!(
                stage.map(String::as_str),
                Some("vertex" | "fragment" | "pixel" | "compute")
            )
        })
        .collect()
}

/// GLSL: outputs validated, and refusals by code (constructs the GLSL
/// writer does not support yet).
const GLSL: (usize, &[(&str, usize)]) = (192, &[("E56001", 2)]);
/// SPIR-V assembly: outputs validated, and refusals by code (constructs
/// the SPIR-V writer does not support yet).
const SPIRV_ASM: (usize, &[(&str, usize)]) = (176, &[("E56101", 18)]);

#[test]
fn corpus_entry_points_compile_to_valid_glsl_or_a_coded_refusal() {
    corpus_compiles_to("glsl", GLSL);
}

#[test]
fn corpus_entry_points_compile_to_valid_spirv_or_a_coded_refusal() {
    corpus_compiles_to("spirv-asm", SPIRV_ASM);
}

fn corpus_compiles_to(
    target: &str,
    (expected_validated, expected_refusals): (usize, &[(&str, usize)]),
) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/front-corpus");
    let mut files = Vec::new();
    shaders(&root, &mut files);
    let mut validated = 0;
    let mut refusals: BTreeMap<String, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    for file in &files {
        let text = String::from_utf8_lossy(&fs::read(file).expect("read")).into_owned();
        if text.contains("// legalis-rejects:") {
            continue;
        }
        for mut args in entry_lines(&text) {
            args.splice(0..0, ["-target".to_string(), target.to_string()]);
            let shown = format!(
                "{} {}",
                file.strip_prefix(&root).unwrap_or(file).display(),
                args.join(" ")
            );
            let out = InProcessLegalis.run(file, &args);
            match out.exit_code {
                Some(0) => {
                    let stage = args
                        .iter()
                        .skip_while(|w| *w != "-stage")
                        .nth(1)
                        .map(String::as_str);
                    match DownstreamValidator.validate(target, stage, &out.stdout) {
                        Ok(()) => validated += 1,
                        Err(error) => failures.push(format!(
                            "{shown}: the validator rejects the output:\n{error}"
                        )),
                    }
                }
                Some(1) => match refusal_code(&out.stderr) {
                    Some(code) => *refusals.entry(code).or_default() += 1,
                    None => failures.push(format!(
                        "{shown}: an internal error or not a coded refusal:\n{}",
                        out.stderr
                    )),
                },
                other => failures.push(format!("{shown}: exit {other:?}\n{}", out.stderr)),
            }
        }
    }
    println!("{target}: validated {validated} outputs; coded refusals: {refusals:?}");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    let expected: BTreeMap<String, usize> = expected_refusals
        .iter()
        .map(|&(code, count)| (code.to_string(), count))
        .collect();
    assert_eq!(
        (validated, &refusals),
        (expected_validated, &expected),
        "{target}: the validated outputs and the refusals by code (left) are not the pinned \
         counts (right); change the counts with the change that moved them"
    );
}
