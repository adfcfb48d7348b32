//! Compiles every vertex, fragment and compute entry point of
//! `tests/front-corpus/` to WGSL through the facade. Each one must either
//! produce WGSL that naga parses and validates (with uniformity analysis)
//! or be refused with coded error diagnostics that point into the source
//! (the WGSL legalizer's `E552xx`, the WGSL writer's `E562xx`). A naga
//! rejection, a panic, or a refusal without a code or span fails the
//! test. The counts are pinned, so a change in what WGSL supports shows
//! here and is updated on purpose; they print with `--nocapture`.

mod corpus;

use std::collections::BTreeMap;
use std::fs;

use corpus::{collect_files, corpus_root, entry_points, expected_rejection};
use legalis::{Request, ShaderStage, Target};

/// Entry points whose WGSL naga validates.
const VALIDATED: usize = 143;
/// Entry points refused with a coded diagnostic, by code.
const REFUSED: &[(&str, usize)] = &[("E55202", 19), ("E55206", 3), ("E56201", 31)];

#[test]
fn corpus_compiles_to_valid_wgsl_or_is_refused_with_a_code() {
    let root = corpus_root();
    let mut files = Vec::new();
    collect_files(&root, &mut files);
    let mut validated = 0usize;
    let mut refused: BTreeMap<String, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut refusals = Vec::new();
    for path in &files {
        let display = path
            .strip_prefix(&root)
            .unwrap_or(path)
            .display()
            .to_string();
        let source = fs::read(path).unwrap_or_else(|e| panic!("cannot read {display}: {e}"));
        let text = String::from_utf8_lossy(&source);
        if expected_rejection(&text).is_some() {
            continue;
        }
        let Ok(entries) = entry_points(&text) else {
            continue;
        };
        for entry in entries {
            if !matches!(
                entry.stage,
                ShaderStage::Vertex | ShaderStage::Fragment | ShaderStage::Compute
            ) {
                continue;
            }
            let label = format!(
                "{display} -entry {} -stage {}",
                entry.name,
                entry.stage.name()
            );
            let mut request = Request::builder(display.as_str(), source.as_slice())
                .entry(entry.name.as_str())
                .stage(entry.stage)
                .target(Target::Wgsl)
                .build();
            request.defines = entry.defines.clone();
            let compiled = match std::panic::catch_unwind(|| legalis::compile(&request)) {
                Ok(compiled) => compiled,
                Err(_) => {
                    failures.push(format!("{label}: panicked"));
                    continue;
                }
            };
            match &compiled.output {
                Some(generated) => {
                    let wgsl = String::from_utf8_lossy(&generated.bytes);
                    match legalis_validate::validate_wgsl(&wgsl, entry.stage) {
                        Ok(_) => validated += 1,
                        Err(error) => {
                            failures.push(format!("{label}: naga rejects:\n{error}\n{wgsl}"))
                        }
                    }
                }
                None => {
                    let errors: Vec<_> = compiled
                        .diagnostics
                        .iter()
                        .filter(|d| d.is_error())
                        .collect();
                    let coded = !errors.is_empty()
                        && errors.iter().all(|d| {
                            let code = d.code_str();
                            (code.starts_with("E552") || code.starts_with("E562"))
                                && d.primary_span() != legalis_ir::Span::UNDEFINED
                        });
                    if !coded {
                        failures.push(format!(
                            "{label}: refused without a WGSL code and span: {errors:?}"
                        ));
                        continue;
                    }
                    *refused.entry(errors[0].code_str()).or_default() += 1;
                    refusals.push(format!(
                        "{label}: {} {}",
                        errors[0].code_str(),
                        errors[0].message
                    ));
                }
            }
        }
    }
    for refusal in &refusals {
        println!("refused: {refusal}");
    }
    println!("validated: {validated}; refused: {refused:?}");
    if !failures.is_empty() {
        for failure in &failures {
            eprintln!("{failure}\n");
        }
        panic!("{} entry points failed (listed above)", failures.len());
    }
    let expected: BTreeMap<String, usize> =
        REFUSED.iter().map(|(c, n)| (c.to_string(), *n)).collect();
    assert_eq!(
        (validated, &refused),
        (VALIDATED, &expected),
        "the counts changed; update VALIDATED and REFUSED on purpose"
    );
}
