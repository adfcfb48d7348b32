//! Findings (`docs/tests/findings/<id>.yaml`): an output a validator or a
//! reviewer rejects is never pinned as expected; it is written down here
//! until fixed. Each file is a flat YAML mapping with exactly these keys:
//!
//! | key | value |
//! | --- | --- |
//! | `id` | the file's stem |
//! | `title` | one line |
//! | `scope` | the compiler or component concerned (`legalis`, `reference`, ...) |
//! | `command` | the command that shows it, runnable from the repository root |
//! | `observed` | what that command printed or did |
//! | `expected` | what it should have done |
//! | `why` | why the expectation holds (spec, table, validator) |
//! | `status` | `open` or `fixed` |
//! | `test` | the test that pins the behaviour (required when `fixed`) |
//!
//! Values are plain one-line scalars or `|` literal blocks indented by two
//! spaces; that subset is all the schema needs, so a forty-line reader
//! replaces a YAML dependency, and anything outside it is an error.

use std::path::Path;

use crate::suite::{self, Problem};

pub const KEYS: [&str; 9] = [
    "id", "title", "scope", "command", "observed", "expected", "why", "status", "test",
];

/// `(key, line, value)`.
type Entry = (String, usize, String);

/// Reads the flat mapping in file order; an error is `(line, message)`.
pub fn parse(text: &str) -> Result<Vec<Entry>, (usize, String)> {
    let mut entries: Vec<Entry> = Vec::new();
    let mut block: Option<usize> = None;
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        if let Some(at) = block {
            if let Some(body) = line.strip_prefix("  ").or((line.is_empty()).then_some("")) {
                let value = &mut entries[at].2;
                value.push_str(body);
                value.push('\n');
                continue;
            }
            block = None;
        }
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((key, value)) = line.split_once(':') else {
            return Err((number, format!("expected 'key: value', found '{line}'")));
        };
        if key.starts_with(' ') {
            return Err((
                number,
                "unexpected indentation (only `|` blocks are indented)".into(),
            ));
        }
        let value = value.trim();
        if value == "|" {
            block = Some(entries.len());
            entries.push((key.to_string(), number, String::new()));
        } else if value.starts_with(['|', '>', '[', '{', '&', '*', '!']) {
            return Err((
                number,
                format!("'{key}': only plain scalars and `|` blocks are supported"),
            ));
        } else {
            entries.push((key.to_string(), number, value.to_string()));
        }
    }
    for entry in &mut entries {
        let trimmed = entry.2.trim_end().to_string();
        entry.2 = trimmed;
    }
    Ok(entries)
}

/// Checks every finding file of the repository against the schema.
pub fn check(root: &Path) -> Vec<Problem> {
    let dir = root.join(suite::FINDINGS_DIR);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut files: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    files.sort();
    let mut problems = Vec::new();
    for path in files
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
    {
        let shown = suite::relative(root, path);
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let stem = path
            .file_stem()
            .map_or(String::new(), |s| s.to_string_lossy().into_owned());
        problems.extend(check_one(root, &shown, &stem, &text));
    }
    problems
}

fn check_one(root: &Path, shown: &str, stem: &str, text: &str) -> Vec<Problem> {
    let entries = match parse(text) {
        Ok(entries) => entries,
        Err((line, message)) => return vec![Problem::new(shown, line, message)],
    };
    let mut problems = Vec::new();
    let mut report = |line, message: String| problems.push(Problem::new(shown, line, message));
    for (at, (key, line, value)) in entries.iter().enumerate() {
        if !KEYS.contains(&key.as_str()) {
            report(
                *line,
                format!("unknown key '{key}' (schema: {})", KEYS.join(", ")),
            );
        } else if entries[..at].iter().any(|(k, _, _)| k == key) {
            report(*line, format!("key '{key}' repeated"));
        } else if value.is_empty() && key != "test" {
            report(*line, format!("'{key}' is empty"));
        }
    }
    let value = |key: &str| entries.iter().find(|(k, _, _)| k == key);
    for key in KEYS {
        if value(key).is_none() {
            report(0, format!("missing key '{key}'"));
        }
    }
    if let Some((_, line, id)) = value("id").filter(|(_, _, id)| id != stem) {
        report(
            *line,
            format!("id '{id}' differs from the file name '{stem}.yaml'"),
        );
    }
    let status = value("status");
    if let Some((_, line, status)) = status.filter(|(_, _, s)| s != "open" && s != "fixed") {
        report(
            *line,
            format!("status must be open or fixed, not '{status}'"),
        );
    }
    if let Some((_, line, test)) = value("test") {
        let fixed = status.is_some_and(|(_, _, s)| s == "fixed");
        if test.is_empty() && fixed {
            report(
                *line,
                "a fixed finding names the test that proves the fix".into(),
            );
        } else if !test.is_empty() && !root.join(test.split(':').next().unwrap_or("")).is_file() {
            report(*line, format!("test '{test}' does not exist"));
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "id: f1\ntitle: t\nscope: reference\ncommand: slangc f.slang\n\
observed: |\n  line one\n\n  line two\nexpected: e\nwhy: w\nstatus: open\ntest:\n";

    #[test]
    fn a_block_scalar_keeps_its_lines() {
        let entries = parse(GOOD).unwrap();
        let observed = entries.iter().find(|e| e.0 == "observed").unwrap();
        assert_eq!(observed.2, "line one\n\nline two");
    }

    #[test]
    fn a_complete_finding_passes_and_a_broken_one_fails() {
        let root = Path::new(".");
        assert_eq!(check_one(root, "f1.yaml", "f1", GOOD), []);
        let broken = GOOD
            .replace("status: open", "status: done")
            .replace("why: w\n", "");
        let problems: Vec<String> = check_one(root, "f1.yaml", "f1", &broken)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            problems,
            [
                "f1.yaml: missing key 'why'",
                "f1.yaml:10: status must be open or fixed, not 'done'"
            ]
        );
        let fixed = GOOD.replace("status: open", "status: fixed");
        let problems = check_one(root, "f1.yaml", "f1", &fixed);
        assert!(
            problems[0].message.contains("names the test"),
            "{problems:?}"
        );
    }
}
