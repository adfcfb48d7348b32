//! Compiles every vertex, fragment, compute, amplification and mesh
//! (Metal object and mesh functions, B21) entry point of
//! `tests/front-corpus/` to Metal through the facade. No Metal compiler
//! runs on Linux, so each output is compiled by the Metal checker (clang
//! against the project's `metal_stdlib` model, `legalis_validate::metal`)
//! and its entry-point signature re-read and
//! compared with the legalization plan (`msl_signature.rs`); an entry
//! point either passes that re-read or is refused with coded error
//! diagnostics that point into the source (the Metal legalizer's
//! `E553xx`, the MSL writer's `E563xx`). A mismatch, a panic, or a
//! refusal without a code or span fails the test. The counts are pinned,
//! so a change in what Metal supports shows here and is updated on
//! purpose; they print with `--nocapture`.

#[path = "../../legalis/tests/corpus/mod.rs"]
mod corpus;

use std::collections::BTreeMap;
use std::fs;

use corpus::{collect_files, corpus_root, entry_points, expected_rejection};
use legalis::{Request, ShaderStage, Target};

/// Entry points whose MSL signature matches the plan (not validated by a
/// compiler). Three vertex entry points whose outputs hold no
/// `SV_Position` are `E55311` since Metal vertex functions must return
/// one (issue 26).
const RE_READ: usize = 136;
/// Entry points refused with a coded diagnostic, by code.
const REFUSED: &[(&str, usize)] = &[("E47001", 15), ("E55302", 7), ("E55311", 3), ("E56301", 44)];

#[test]
fn corpus_compiles_to_metal_whose_signatures_match_the_plan_or_is_refused_with_a_code() {
    let root = corpus_root();
    let mut files = Vec::new();
    collect_files(&root, &mut files);
    let mut re_read = 0usize;
    let mut checked = 0usize;
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
                ShaderStage::Vertex
                    | ShaderStage::Fragment
                    | ShaderStage::Compute
                    | ShaderStage::Amplification
                    | ShaderStage::Mesh
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
                .target(Target::Metal)
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
                    let msl = String::from_utf8_lossy(&generated.bytes);
                    match legalis_testkit::msl_signature::check_request(&request, &msl) {
                        Ok(_) => re_read += 1,
                        Err(error) => failures.push(format!(
                            "{label}: the signature does not match the plan:\n{error}\n{msl}"
                        )),
                    }
                    // The Metal checker: clang against the metal_stdlib model.
                    match legalis_validate::metal::validate_metal(&msl) {
                        Ok(()) => checked += 1,
                        Err(error) => failures.push(format!("{label}: {error}\n{msl}")),
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
                            (code.starts_with("E553")
                                || code.starts_with("E563")
                                || code == "E47001")
                                && d.primary_span() != legalis_ir::Span::UNDEFINED
                        });
                    if !coded {
                        failures.push(format!(
                            "{label}: refused without a Metal code and span: {errors:?}"
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
    println!("re-read: {re_read}; Metal: {checked} checked; refused: {refused:?}");
    if !failures.is_empty() {
        for failure in &failures {
            eprintln!("{failure}\n");
        }
        panic!("{} entry points failed (listed above)", failures.len());
    }
    let expected: BTreeMap<String, usize> =
        REFUSED.iter().map(|(c, n)| (c.to_string(), *n)).collect();
    assert_eq!(checked, re_read, "every re-read output was checked");
    assert_eq!(
        (re_read, &refused),
        (RE_READ, &expected),
        "the counts changed; update RE_READ and REFUSED on purpose"
    );
}
