//! Runs the front end over every shader in `tests/front-corpus/`.
//!
//! Each file names its entry points on leading comment lines of the form
//! `// legalis: -entry NAME -stage STAGE [-D NAME[=VALUE]]...`; a file may
//! carry several such lines, the same entry point with different defines
//! included (über-shader permutations). A UTF-8 byte order mark before the
//! first line is allowed. Every entry point must compile without error
//! diagnostics and the module must pass the IR verifier. All failures are
//! collected and printed before the test fails.
//!
//! A file that uses a construct Legalis deliberately does not support yet
//! says so with `// legalis-rejects: E20003 why`: each of its entry points
//! must then fail with at least one error of that code (and never panic),
//! so the limitation is pinned and the test notices when it goes away.

mod corpus;

use std::fs;

use corpus::{EntryPoint, collect_files, corpus_root, entry_points, expected_rejection};
use legalis::Request;

/// Compiles one entry point; `Err` holds the report for a failure.
fn check(
    display: &str,
    source: &[u8],
    entry: &EntryPoint,
    rejects: Option<&str>,
) -> Result<(), String> {
    let mut request = Request::builder(display, source)
        .entry(entry.name.as_str())
        .stage(entry.stage)
        .build();
    request.defines = entry.defines.clone();
    let compiled = std::panic::catch_unwind(|| legalis::compile(&request))
        .map_err(|_| "the front end panicked".to_string())?;
    if let Some(code) = rejects {
        let found = compiled
            .diagnostics
            .iter()
            .any(|d| d.is_error() && d.code_str() == code);
        return match found {
            true => Ok(()),
            false => Err(format!(
                "expected an {code} error (legalis-rejects), got: {:?}",
                compiled.diagnostics
            )),
        };
    }
    if compiled.has_errors() {
        let errors: Vec<_> = compiled
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .cloned()
            .collect();
        return Err(legalis::render::render_human(
            display,
            &compiled.source_text,
            &errors,
            false,
        ));
    }
    let Some(module) = compiled.module else {
        return Err("no module and no error diagnostic".to_string());
    };
    legalis_ir::verify::verify(&module).map_err(|errors| {
        let lines: Vec<String> = errors.iter().map(|e| format!("verify: {e}")).collect();
        lines.join("\n")
    })
}

#[test]
fn front_end_accepts_the_corpus() {
    let root = corpus_root();
    let mut files = Vec::new();
    collect_files(&root, &mut files);
    assert!(!files.is_empty(), "no shaders under {}", root.display());

    let mut checked = 0usize;
    let mut failures = Vec::new();
    for path in &files {
        let display = path
            .strip_prefix(&root)
            .unwrap_or(path)
            .display()
            .to_string();
        let source = fs::read(path).unwrap_or_else(|e| panic!("cannot read {display}: {e}"));
        let text = String::from_utf8_lossy(&source);
        let entries = match entry_points(&text) {
            Ok(entries) => entries,
            Err(message) => {
                failures.push(format!("{display}: {message}"));
                continue;
            }
        };
        let rejects = expected_rejection(&text);
        for entry in &entries {
            checked += 1;
            if let Err(report) = check(&display, &source, entry, rejects.as_deref()) {
                let defines: String = entry
                    .defines
                    .iter()
                    .map(|(name, value)| match value.is_empty() {
                        true => format!(" -D {name}"),
                        false => format!(" -D {name}={value}"),
                    })
                    .collect();
                failures.push(format!(
                    "=== {display} -entry {} -stage {}{defines}\n{report}",
                    entry.name,
                    entry.stage.name()
                ));
            }
        }
    }

    if !failures.is_empty() {
        for failure in &failures {
            eprintln!("{failure}\n");
        }
        panic!(
            "{} of {checked} entry points in {} files failed (listed above)",
            failures.len(),
            files.len()
        );
    }
}
