//! The shader corpus of `tests/front-corpus/` as the corpus tests read
//! it: every file's `// legalis: -entry NAME -stage STAGE [-D ...]` lines
//! and its `// legalis-rejects: E12345 why` line.

#![allow(dead_code, reason = "each test binary uses part of this module")]

use std::fs;
use std::path::{Path, PathBuf};

use legalis::ShaderStage;

pub const MARKER: &str = "// legalis:";
pub const REJECTS: &str = "// legalis-rejects:";

/// The code a file's `// legalis-rejects: E12345 why` line expects.
pub fn expected_rejection(text: &str) -> Option<String> {
    text.lines()
        .find_map(|line| line.trim().strip_prefix(REJECTS))
        .and_then(|rest| rest.split_whitespace().next())
        .map(str::to_string)
}

pub struct EntryPoint {
    pub name: String,
    pub stage: ShaderStage,
    /// `-D NAME[=VALUE]` macros; a define without `=` is empty, as on the CLI.
    pub defines: Vec<(String, String)>,
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

pub fn corpus_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/front-corpus")
}

pub fn collect_files(dir: &Path, files: &mut Vec<PathBuf>) {
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
pub fn entry_points(text: &str) -> Result<Vec<EntryPoint>, String> {
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
