//! The bundle README (`docs/tests/coverage/legalize/README.md`) as data,
//! and the checks that keep it true: its front matter (source commit,
//! watched paths and their digest), the claims table against the tests'
//! META blocks, every relative link and heading anchor, and every code
//! reference into the Rust sources.
//!
//! Code references are code spans in one of three forms, paths
//! repository-relative:
//!
//! - `` `crates/x/src/f.rs::name` ``: `fn name` exists in that file;
//! - `` `crates/x/src/f.rs:40 (name)` ``: line 40 exists and the innermost
//!   `fn` around it is `name`;
//! - `` `crates/x/src/f.rs:40-52 (name)` ``: every line of the range lies in
//!   `fn name`.
//!
//! A code span that ends in `.rs:` or `.rs::` something but fits none of
//! them is an error, so a typo cannot hide a reference from the check;
//! code spans inside fenced blocks are examples and are not read.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::LazyLock;

use regex::Regex;

use crate::rust_fns;
use crate::suite::{self, Problem};

/// A reference from the README into a Rust source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeRef {
    /// README line it is written on.
    pub line: usize,
    pub text: String,
    pub path: String,
    /// `Some((first, last))` for the line forms, `None` for `path::name`.
    pub lines: Option<(usize, usize)>,
    pub function: String,
}

/// One row of the claims table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claim {
    pub line: usize,
    /// `B1`, `D3`...: the first word of the claim cell.
    pub id: String,
    pub intent: String,
    /// Link target of the doc-anchor cell, relative to the README.
    pub anchor: String,
    /// Link target of the test cell, relative to the README.
    pub test: String,
}

/// The parts of the README the checks read.
#[derive(Debug, Clone, Default)]
pub struct Readme {
    /// `key: value` pairs of the front matter, with their lines.
    pub front: BTreeMap<String, (usize, String)>,
    pub claims: Vec<Claim>,
    pub refs: Vec<CodeRef>,
    /// References in the [`GAP_SECTIONS`].
    pub gaps: Vec<CodeRef>,
    /// Malformed pieces found while reading.
    pub problems: Vec<Problem>,
}

/// Sections whose code references excuse an uncovered line: code no input
/// reaches, and code not targeted by a test yet (debt, listed so that it is
/// visible and so that a new uncovered line still fails the check).
pub const GAP_SECTIONS: &[&str] = &["unreachable gaps", "not yet targeted"];

static CODE_SPAN: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"`([^`]+)`").expect("valid regex"));
static REF: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^([A-Za-z0-9_./-]+\.rs)(?:::([A-Za-z_][A-Za-z0-9_]*)|:(\d+)(?:-(\d+))? \(([A-Za-z_][A-Za-z0-9_]*)\))$")
        .expect("valid regex")
});
static LINK: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\[[^\]]*\]\(([^)\s]+)\)").expect("valid regex"));

/// Reads the README text.
pub fn parse(text: &str) -> Readme {
    let lines: Vec<&str> = text.lines().collect();
    let mut readme = Readme::default();
    let body_start = front_matter(&lines, &mut readme);
    let mut section = String::new();
    let mut in_fence = false;
    for (index, line) in lines.iter().enumerate().skip(body_start) {
        let number = index + 1;
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if let Some(title) = line.strip_prefix("## ") {
            section = title.trim().to_lowercase();
            continue;
        }
        if in_fence {
            // Examples of the syntax live in fences; they refer to nothing.
            continue;
        }
        let refs = code_refs(line, number, &mut readme.problems);
        if GAP_SECTIONS.contains(&section.as_str()) && line.starts_with('|') {
            readme.gaps.extend(refs.iter().cloned());
        }
        readme.refs.extend(refs);
        if section == "claims" {
            claim_row(line, number, &mut readme);
        }
    }
    readme
}

/// Reads `---`-fenced `key: value` lines; returns the first body line.
fn front_matter(lines: &[&str], readme: &mut Readme) -> usize {
    if lines.first() != Some(&"---") {
        readme.problems.push(Problem::new(
            suite::README,
            1,
            "no front matter ('---' on line 1)",
        ));
        return 0;
    }
    for (index, line) in lines.iter().enumerate().skip(1) {
        if *line == "---" {
            return index + 1;
        }
        match line.split_once(':') {
            Some((key, value)) => {
                let entry = (index + 1, value.trim().to_string());
                readme.front.insert(key.trim().to_string(), entry);
            }
            None => readme.problems.push(Problem::new(
                suite::README,
                index + 1,
                format!("front matter line without 'key: value': '{line}'"),
            )),
        }
    }
    readme.problems.push(Problem::new(
        suite::README,
        1,
        "front matter is not closed by '---'",
    ));
    lines.len()
}

fn code_refs(line: &str, number: usize, problems: &mut Vec<Problem>) -> Vec<CodeRef> {
    let mut refs = Vec::new();
    for span in CODE_SPAN.captures_iter(line) {
        let text = &span[1];
        if !(text.contains(".rs:") || text.contains(".rs::")) {
            continue;
        }
        let Some(parts) = REF.captures(text) else {
            let message = format!(
                "malformed code reference `{text}`: write `path.rs::fn`, `path.rs:LINE (fn)` or `path.rs:FIRST-LAST (fn)`"
            );
            problems.push(Problem::new(suite::README, number, message));
            continue;
        };
        let lines = parts.get(3).map(|first| {
            let first: usize = first.as_str().parse().unwrap_or(0);
            let last = parts
                .get(4)
                .map_or(first, |l| l.as_str().parse().unwrap_or(0));
            (first, last)
        });
        let function = parts.get(2).or(parts.get(5)).map_or("", |m| m.as_str());
        refs.push(CodeRef {
            line: number,
            text: text.to_string(),
            path: parts[1].to_string(),
            lines,
            function: function.to_string(),
        });
    }
    refs
}

/// A `| claim | intent | anchor | test |` row (header and rule skipped).
fn claim_row(line: &str, number: usize, readme: &mut Readme) {
    let Some(inner) = line
        .trim()
        .strip_prefix('|')
        .and_then(|l| l.strip_suffix('|'))
    else {
        return;
    };
    let cells: Vec<&str> = inner.split('|').map(str::trim).collect();
    if cells
        .first()
        .is_some_and(|c| *c == "Claim" || c.starts_with("---"))
    {
        return;
    }
    let link = |cell: &str| LINK.captures(cell).map(|c| c[1].to_string());
    match cells.as_slice() {
        [claim, intent, anchor, test] => match (link(anchor), link(test)) {
            (Some(anchor), Some(test)) => readme.claims.push(Claim {
                line: number,
                id: claim.split_whitespace().next().unwrap_or("").to_string(),
                intent: intent.to_string(),
                anchor,
                test,
            }),
            _ => readme.problems.push(Problem::new(
                suite::README,
                number,
                "a claims row needs a link in its doc-anchor and test cells",
            )),
        },
        _ => readme.problems.push(Problem::new(
            suite::README,
            number,
            format!(
                "a claims row has 4 cells (claim, intent, doc anchor, test), not {}",
                cells.len()
            ),
        )),
    }
}

/// GitHub's anchors for the headings of a Markdown file: lower case, only
/// letters, digits, `_`, `-` and spaces kept, spaces to `-`, repeats
/// numbered `-1`, `-2`...; headings inside code fences do not count.
pub fn anchors(markdown: &str) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut found = BTreeSet::new();
    let mut in_fence = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
        }
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if in_fence || hashes == 0 || hashes > 6 || !line[hashes..].starts_with(' ') {
            continue;
        }
        let text = LINK.replace_all(&line[hashes..], |c: &regex::Captures| {
            let whole = &c[0];
            whole[1..whole.find("](").unwrap_or(1)].to_string()
        });
        let slug: String = text
            .trim()
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let count = seen.entry(slug.clone()).or_insert(0);
        found.insert(match *count {
            0 => slug.clone(),
            n => format!("{slug}-{n}"),
        });
        *count += 1;
    }
    found
}

/// Checks every relative link of the README (file exists; a `#fragment`
/// into a Markdown file is one of its heading anchors).
pub fn check_links(root: &Path, text: &str) -> Vec<Problem> {
    let base = Path::new(suite::README).parent().unwrap_or(Path::new(""));
    let mut problems = Vec::new();
    for (index, line) in text.lines().enumerate() {
        for link in LINK.captures_iter(line) {
            if let Some(message) = link_problem(root, base, &link[1]) {
                problems.push(Problem::new(suite::README, index + 1, message));
            }
        }
    }
    problems
}

fn link_problem(root: &Path, base: &Path, target: &str) -> Option<String> {
    if target.contains("://") || target.starts_with("mailto:") {
        return None;
    }
    let (file, fragment) = match target.split_once('#') {
        Some((file, fragment)) => (file, Some(fragment)),
        None => (target, None),
    };
    let path = if file.is_empty() {
        root.join(suite::README)
    } else {
        root.join(base).join(file)
    };
    if !path.exists() {
        return Some(format!("link target '{file}' does not exist"));
    }
    let fragment = fragment?;
    let markdown = std::fs::read_to_string(&path).unwrap_or_default();
    (!anchors(&markdown).contains(fragment)).then(|| {
        format!("anchor '#{fragment}' is not a heading of '{file}' (GitHub anchors: lower case, punctuation dropped, spaces to '-')")
    })
}

/// Checks that each reference points at the function it names.
pub fn check_refs(root: &Path, refs: &[CodeRef]) -> Vec<Problem> {
    let mut sources: BTreeMap<String, Option<(usize, Vec<rust_fns::RustFn>)>> = BTreeMap::new();
    let mut problems = Vec::new();
    for reference in refs {
        let parsed = sources.entry(reference.path.clone()).or_insert_with(|| {
            let text = std::fs::read_to_string(root.join(&reference.path)).ok()?;
            Some((text.lines().count(), rust_fns::functions(&text)))
        });
        if let Some(message) = ref_problem(reference, parsed.as_ref()) {
            let message = format!("stale reference `{}`: {message}", reference.text);
            problems.push(Problem::new(suite::README, reference.line, message));
        }
    }
    problems
}

fn ref_problem(
    reference: &CodeRef,
    source: Option<&(usize, Vec<rust_fns::RustFn>)>,
) -> Option<String> {
    let Some((line_count, fns)) = source else {
        return Some(format!("{} does not exist", reference.path));
    };
    let name = &reference.function;
    let Some((first, last)) = reference.lines else {
        return (!fns.iter().any(|f| &f.name == name))
            .then(|| format!("no `fn {name}` in {}", reference.path));
    };
    if first == 0 || first > last || last > *line_count {
        return Some(format!("{} has {line_count} lines", reference.path));
    }
    for line in first..=last {
        match rust_fns::enclosing(fns, line) {
            Some(found) if &found.name == name => {}
            Some(found) => {
                let now = fns.iter().find(|f| &f.name == name);
                let hint = now.map_or(String::new(), |f| {
                    format!("; `fn {name}` is now lines {}-{}", f.start, f.end)
                });
                return Some(format!(
                    "line {line} is in `fn {}`, not `fn {name}`{hint}",
                    found.name
                ));
            }
            None => return Some(format!("line {line} is outside any function")),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchors_follow_github() {
        let doc = "# Top\n## Struct flattening and location numbering (B1)\n\
                   ## Unknown system values (E49999, B5)\n```\n# not a heading\n```\n## Top\n### `code` and [link](x.md)\n";
        let found = anchors(doc);
        for anchor in [
            "top",
            "top-1",
            "struct-flattening-and-location-numbering-b1",
            "unknown-system-values-e49999-b5",
            "code-and-link",
        ] {
            assert!(found.contains(anchor), "{anchor} in {found:?}");
        }
        assert!(!found.contains("not-a-heading"));
    }

    #[test]
    fn references_parse_and_malformed_ones_are_reported() {
        let text =
            "---\nk: v\n---\n`a/b.rs::apply` `a/b.rs:4 (apply)` `a/b.rs:4-6 (apply)` `a/b.rs:x`\n";
        let readme = parse(text);
        let shapes: Vec<_> = readme
            .refs
            .iter()
            .map(|r| (r.lines, r.function.as_str()))
            .collect();
        assert_eq!(
            shapes,
            [
                (None, "apply"),
                (Some((4, 4)), "apply"),
                (Some((4, 6)), "apply")
            ]
        );
        assert_eq!(readme.problems.len(), 1, "{:?}", readme.problems);
        assert!(
            readme.problems[0]
                .message
                .contains("malformed code reference `a/b.rs:x`")
        );
    }

    #[test]
    fn a_reference_must_name_its_enclosing_function() {
        let source = "fn apply() {\n    let a = 1;\n}\n\nfn other() {\n}\n";
        let fns = rust_fns::functions(source);
        let at = |lines, function: &str| CodeRef {
            line: 1,
            text: String::new(),
            path: "f.rs".into(),
            lines,
            function: function.into(),
        };
        let source = Some(&(6, fns));
        assert_eq!(ref_problem(&at(Some((2, 2)), "apply"), source), None);
        assert_eq!(ref_problem(&at(None, "other"), source), None);
        let stale = ref_problem(&at(Some((5, 5)), "apply"), source).unwrap();
        assert!(
            stale.contains("line 5 is in `fn other`, not `fn apply`"),
            "{stale}"
        );
        assert!(
            ref_problem(&at(Some((2, 9)), "apply"), source)
                .unwrap()
                .contains("has 6 lines")
        );
        assert!(
            ref_problem(&at(None, "gone"), source)
                .unwrap()
                .contains("no `fn gone`")
        );
    }
}
