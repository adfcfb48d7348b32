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

use std::fs;
use std::path::{Path, PathBuf};

use legalis::{Request, ShaderStage};

const MARKER: &str = "// legalis:";
const REJECTS: &str = "// legalis-rejects:";

/// The code a file's `// legalis-rejects: E12345 why` line expects.
fn expected_rejection(text: &str) -> Option<String> {
    text.lines()
        .find_map(|line| line.trim().strip_prefix(REJECTS))
        .and_then(|rest| rest.split_whitespace().next())
        .map(str::to_string)
}

struct EntryPoint {
    name: String,
    stage: ShaderStage,
    /// `-D NAME[=VALUE]` macros; a define without `=` is empty, as on the CLI.
    defines: Vec<(String, String)>,
}

/// Reads `NAME[=VALUE]` from a `-D` option.
fn parse_define(text: &str, line: &str) -> Result<(String, String), String> {
    let (name, value) = text.split_once('=').unwrap_or((text, ""));
    let mut chars = name.chars();
    let starts_well = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    if !starts_well || !chars.all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(format!("bad -D value '{text}' in: {line}"));
    }
    Ok((name.to_string(), value.to_string()))
}

fn corpus_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/front-corpus")
}

fn collect_files(dir: &Path, files: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|error| panic!("cannot list {}: {error}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            collect_files(&path, files);
        } else if matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("hlsl" | "slang")
        ) {
            files.push(path);
        }
    }
}

/// Parses the `// legalis:` lines at the top of `text`.
fn entry_points(text: &str) -> Result<Vec<EntryPoint>, String> {
    let mut found = Vec::new();
    for line in text.lines() {
        let line = line.trim_start_matches('\u{feff}');
        let Some(rest) = line.trim().strip_prefix(MARKER) else {
            continue;
        };
        let words: Vec<&str> = rest.split_whitespace().collect();
        let mut name = None;
        let mut stage = None;
        let mut defines = Vec::new();
        let mut index = 0;
        while index < words.len() {
            if let Some(joined) = words[index].strip_prefix("-D").filter(|d| !d.is_empty()) {
                defines.push(parse_define(joined, line)?);
                index += 1;
                continue;
            }
            match (words[index], words.get(index + 1)) {
                ("-entry", Some(value)) => name = Some((*value).to_string()),
                ("-D", Some(value)) => defines.push(parse_define(value, line)?),
                ("-stage", Some(value)) => {
                    stage = Some(
                        ShaderStage::from_name(value)
                            .ok_or_else(|| format!("unknown stage '{value}' in: {line}"))?,
                    );
                }
                _ => return Err(format!("cannot read option '{}' in: {line}", words[index])),
            }
            index += 2;
        }
        match (name, stage) {
            (Some(name), Some(stage)) => found.push(EntryPoint {
                name,
                stage,
                defines,
            }),
            _ => return Err(format!("needs -entry and -stage: {line}")),
        }
    }
    if found.is_empty() {
        return Err(format!("no '{MARKER}' line"));
    }
    Ok(found)
}

/// Compiles one entry point; `Err` holds the report for a failure.
fn check(
    display: &str,
    source: &[u8],
    entry: &EntryPoint,
    rejects: Option<&str>,
) -> Result<(), String> {
    let request = Request {
        path: display.to_string(),
        source: source.to_vec(),
        entry: Some(entry.name.clone()),
        stage: Some(entry.stage),
        defines: entry.defines.clone(),
        target: None,
        ..Default::default()
    };
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
