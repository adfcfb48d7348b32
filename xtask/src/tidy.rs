//! `cargo xtask tidy`: the suite's discipline, checked.
//!
//! - Every `tests/legalize/*.slang` has its `//META:` block (parsed by
//!   `legalis_testkit::directives`, which rejects unknown and repeated
//!   keys) with `intent=characterization`, `covers=` an existing watched
//!   path, a `purpose=`, and at least one directive, each with at least one
//!   matcher (check lines or caret annotations).
//! - No comment reads as a check of prefix `P` with its dash missing
//!   (`//GLSLNEXT:`), which FileCheck would ignore.
//! - No `P-NOT:` check comes after the last positive check of prefix `P`:
//!   FileCheck tests a -NOT only between the matches around it, so there it
//!   scans just the output's tail after the last match.
//! - Every directive has its snapshot `snapshots/legalize/<stem>@<n>.snap`
//!   and every snapshot belongs to a directive, its header (`description:`)
//!   naming the directive's current line and command line.
//! - The bundle README: front matter current (watched paths, their digest,
//!   a known source commit), claims table against the tests, links and
//!   anchors, code references (see `readme.rs`).
//! - Findings against their schema (see `findings.rs`).
//!
//! `--fix` rewrites only what is mechanical: the digest and source commit,
//! and stale snapshot headers.

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::path::Path;
use std::process::{Command, ExitCode};

use legalis_testkit::directives::{self, DirectiveKind, TestFile};
use legalis_testkit::filecheck::{CheckFile, CheckKind};

use crate::readme;
use crate::suite::{self, Problem};

const HELP: &str = "\
cargo xtask tidy: check the characterization suite's discipline

Usage: cargo xtask tidy [--fix]

Checks every test's META block and matchers, snapshots against directives,
the bundle README (front matter, claims table, links, anchors, code
references) and the findings; a -NOT check after the last positive check
of its prefix (it can only scan the output's tail); snapshot headers that
do not name their directive's current line and text. --fix refreshes the
README's digest of the watched paths and its source commit, and rewrites
stale snapshot headers.

Exit status: 0 clean, 1 problems found (each printed as file:line: message),
2 usage or I/O error.
";

pub fn main(args: &[OsString], root: &Path) -> ExitCode {
    let mut fix = false;
    for arg in args {
        match arg.to_str() {
            Some("--fix") => fix = true,
            Some("-h" | "--help") => {
                print!("{HELP}");
                return ExitCode::SUCCESS;
            }
            _ => {
                eprint!(
                    "xtask: error: unknown argument {}\n\n{HELP}",
                    arg.to_string_lossy()
                );
                return ExitCode::from(2);
            }
        }
    }
    if fix && let Err(error) = fix_front_matter(root) {
        eprintln!("xtask tidy: cannot fix {}: {error}", suite::README);
        return ExitCode::from(2);
    }
    if fix && let Err(error) = fix_snapshot_headers(root) {
        eprintln!("xtask tidy: cannot fix the snapshot headers: {error}");
        return ExitCode::from(2);
    }
    match check(root) {
        Ok(problems) if problems.is_empty() => {
            println!("tidy: clean");
            ExitCode::SUCCESS
        }
        Ok(problems) => {
            for problem in &problems {
                println!("{problem}");
            }
            println!("tidy: {} problem(s)", problems.len());
            ExitCode::FAILURE
        }
        Err(error) => {
            eprintln!("xtask tidy: {error}");
            ExitCode::from(2)
        }
    }
}

/// Every problem in the repository at `root`.
pub fn check(root: &Path) -> Result<Vec<Problem>, String> {
    let tests =
        suite::test_files(root).map_err(|e| format!("cannot read {}: {e}", suite::TESTS_DIR))?;
    let mut problems = Vec::new();
    let mut parsed = Vec::new();
    for test in &tests {
        let shown = suite::relative(Path::new(""), test);
        let text = std::fs::read_to_string(root.join(test))
            .map_err(|e| format!("cannot read {shown}: {e}"))?;
        match directives::parse(&text) {
            Ok(file) => {
                problems.extend(meta_problems(root, &shown, &text, &file));
                problems.extend(trailing_not_problems(&shown, &text, &file));
                problems.extend(glued_directive_problems(&shown, &text, &file));
                parsed.push((shown, Some(file)));
            }
            Err(errors) => {
                problems.extend(
                    errors
                        .into_iter()
                        .map(|e| Problem::new(&shown, e.line, e.message)),
                );
                // Still a test: its snapshots and claim are not orphans.
                parsed.push((shown, None));
            }
        }
    }
    problems.extend(snapshot_problems(root, &tests, &parsed)?);
    problems.extend(readme_problems(root, &parsed)?);
    problems.extend(crate::findings::check(root));
    Ok(problems)
}

/// The line of `//META: key=` in `text`, for messages (1 when absent).
fn meta_line(text: &str, key: &str) -> usize {
    text.lines()
        .position(|l| {
            l.trim_start()
                .strip_prefix("//META:")
                .is_some_and(|b| b.trim_start().starts_with(&format!("{key}=")))
        })
        .map_or(1, |at| at + 1)
}

fn meta_problems(root: &Path, shown: &str, text: &str, file: &TestFile) -> Vec<Problem> {
    let mut problems = Vec::new();
    let Some(meta) = &file.meta else {
        return vec![Problem::new(
            shown,
            1,
            "no //META: block at the top (intent=, covers=, behaviour=, purpose=)",
        )];
    };
    if meta.intent != "characterization" {
        let message = format!(
            "META intent must be 'characterization', not '{}'",
            meta.intent
        );
        problems.push(Problem::new(shown, meta_line(text, "intent"), message));
    }
    let watched = suite::WATCHED_PATHS
        .iter()
        .chain(suite::CHARACTERIZED_PATHS)
        .any(|w| meta.covers == *w || meta.covers.starts_with(&format!("{w}/")));
    if !watched || !root.join(&meta.covers).exists() {
        let message = format!(
            "META covers='{}' must be an existing path inside a watched crate ({}) or a \
             characterized one ({})",
            meta.covers,
            suite::WATCHED_PATHS.join(", "),
            suite::CHARACTERIZED_PATHS.join(", ")
        );
        problems.push(Problem::new(shown, meta_line(text, "covers"), message));
    }
    if file.directives.is_empty() {
        problems.push(Problem::new(
            shown,
            1,
            "no //TEST or //DIAGNOSTIC_TEST directive",
        ));
    }
    for directive in &file.directives {
        // FileCheck prefixes without check lines are already parse errors.
        if let DirectiveKind::Diagnostic { prefix, .. } = &directive.kind
            && file.annotations_for(prefix).next().is_none()
        {
            let message =
                format!("diag={prefix} directive has no //{prefix}: caret annotation to match");
            problems.push(Problem::new(shown, directive.line, message));
        }
    }
    problems
}

/// A `P-NOT:` after the last positive check of `P` (a DAG does not count:
/// after DAGs only, the NOT still scans from their matches to the end).
/// FileCheck tests a NOT only in the stretch between the matches around
/// it, so such a NOT scans only the tail of the output after the last
/// match and passes whatever the output holds before it.
fn trailing_not_problems(shown: &str, text: &str, file: &TestFile) -> Vec<Problem> {
    let mut prefixes: Vec<&str> = Vec::new();
    for directive in &file.directives {
        if let DirectiveKind::FileCheck { prefix } = &directive.kind
            && !prefixes.contains(&prefix.as_str())
        {
            prefixes.push(prefix);
        }
    }
    let mut problems = Vec::new();
    for prefix in prefixes {
        // A malformed check file is reported by the runner; nothing to add.
        let Ok(checks) = CheckFile::parse(shown, text, &[prefix]) else {
            continue;
        };
        let checks = &checks.checks;
        let positive = |kind: &CheckKind| !matches!(kind, CheckKind::Not | CheckKind::Dag);
        let Some(last) = checks.iter().rposition(|c| positive(&c.kind)).map_or_else(
            // Only DAGs and NOTs: a NOT after a DAG scans from its match on.
            || checks.iter().position(|c| c.kind == CheckKind::Dag),
            Some,
        ) else {
            // Only NOTs: each scans the whole output.
            continue;
        };
        for check in &checks[last + 1..] {
            if check.kind != CheckKind::Not {
                continue;
            }
            let message = format!(
                "{prefix}-NOT after the last positive {prefix} check (line {}): FileCheck tests \
                 a -NOT only between the matches around it, so this one scans only the \
                 output after that match; move it before the first positive check or between \
                 the checks where the text could appear, or into a directive of its own whose \
                 prefix has only -NOT checks (those scan the whole output)",
                checks[last].line
            );
            problems.push(Problem::new(shown, check.line, message));
        }
    }
    problems
}

/// A comment that reads as a check of prefix `P` with the dash missing
/// (`//GLSLNEXT:` for `//GLSL-NEXT:`), where `GLSLNEXT` is no prefix of
/// the file. LLVM's FileCheck reports `P_NEXT:` as misspelled but ignores
/// `PNEXT:` as an unknown prefix, and so does the suite's checker, which
/// agrees with it: such a line would silently check nothing.
fn glued_directive_problems(shown: &str, text: &str, file: &TestFile) -> Vec<Problem> {
    const SUFFIXES: [&str; 6] = ["NEXT", "NOT", "DAG", "SAME", "EMPTY", "LABEL"];
    let prefixes: Vec<&str> = file
        .directives
        .iter()
        .filter_map(|directive| match &directive.kind {
            DirectiveKind::FileCheck { prefix } => Some(prefix.as_str()),
            _ => None,
        })
        .collect();
    let mut problems = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let Some(body) = line.trim_start().strip_prefix("//") else {
            continue;
        };
        let body = body.trim_start();
        let end = body
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
            .unwrap_or(body.len());
        let (name, rest) = body.split_at(end);
        if !rest.starts_with(':') || prefixes.contains(&name) {
            continue;
        }
        for prefix in &prefixes {
            let Some(suffix) = name.strip_prefix(prefix) else {
                continue;
            };
            let count = suffix
                .strip_prefix("COUNT-")
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
            if SUFFIXES.contains(&suffix) || count {
                let message = format!(
                    "`{name}:` reads as a {prefix}-{suffix} check with the dash missing;                      FileCheck ignores it (no prefix is called {name}), so it checks nothing:                      write `{prefix}-{suffix}:`"
                );
                problems.push(Problem::new(shown, index + 1, message));
                break;
            }
        }
    }
    problems
}

/// A test file and, when it parsed, its contents.
type Parsed = (String, Option<TestFile>);

fn snapshot_problems(
    root: &Path,
    tests: &[std::path::PathBuf],
    parsed: &[Parsed],
) -> Result<Vec<Problem>, String> {
    let mut expected = BTreeSet::new();
    let mut problems = Vec::new();
    let stems: BTreeSet<String> = tests
        .iter()
        .filter_map(|t| t.file_stem())
        .map(|s| s.to_string_lossy().into_owned())
        .collect();
    let mut unparsed = BTreeSet::new();
    for (shown, file) in parsed {
        let stem = Path::new(shown)
            .file_stem()
            .map_or(String::new(), |s| s.to_string_lossy().into_owned());
        let Some(file) = file else {
            unparsed.insert(stem);
            continue;
        };
        for (index, directive) in file.directives.iter().enumerate() {
            let name = format!("{stem}@{}.snap", index + 1);
            let path = root.join(suite::SNAPSHOTS_DIR).join(&name);
            if let Ok(snapshot) = std::fs::read_to_string(&path) {
                let expected = snapshot_description(shown, directive);
                let found = description(&snapshot);
                if found.as_deref() != Some(expected.as_str()) {
                    let message = format!(
                        "snapshot {}/{name} is stale: its header names {}, not this directive \
                         ({expected:?}); run `cargo xtask tidy --fix`, or re-run the suite \
                         and accept with `cargo insta accept` if only the header changed",
                        suite::SNAPSHOTS_DIR,
                        found.map_or("no directive".to_string(), |f| format!("{f:?}")),
                    );
                    problems.push(Problem::new(shown, directive.line, message));
                }
            }
            if !path.is_file() {
                let message = format!(
                    "directive has no snapshot {}/{name} (run the suite and review it with `cargo insta review`)",
                    suite::SNAPSHOTS_DIR
                );
                problems.push(Problem::new(shown, directive.line, message));
            }
            expected.insert(name);
        }
    }
    let dir = root.join(suite::SNAPSHOTS_DIR);
    let entries = std::fs::read_dir(&dir)
        .map_err(|e| format!("cannot read {}: {e}", suite::SNAPSHOTS_DIR))?;
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for name in names.iter().filter(|n| n.ends_with(".snap")) {
        if expected.contains(name) {
            continue;
        }
        let stem = name.rsplit_once('@').map_or(name.as_str(), |(s, _)| s);
        if unparsed.contains(stem) {
            continue;
        }
        let why = if stems.contains(stem) {
            "its test has fewer directives"
        } else {
            "no test file has this stem"
        };
        let message = format!("orphaned snapshot: {why}; delete it or restore its directive");
        problems.push(Problem::new(
            format!("{}/{name}", suite::SNAPSHOTS_DIR),
            0,
            message,
        ));
    }
    Ok(problems)
}

/// The header the runner gives a directive's snapshot (`snapshot()` in
/// `crates/testkit/src/runner.rs`): `<file>:<line> <directive text>`.
fn snapshot_description(shown: &str, directive: &directives::Directive) -> String {
    format!("{shown}:{} {}", directive.line, directive.text)
}

/// The `description:` of a snapshot's front matter, unquoted.
fn description(snapshot: &str) -> Option<String> {
    let front = snapshot.strip_prefix("---\n")?;
    let front = &front[..front.find("\n---")?];
    let value = front
        .lines()
        .find_map(|line| line.strip_prefix("description:"))?
        .trim();
    match value.strip_prefix('"').and_then(|v| v.strip_suffix('"')) {
        Some(quoted) => {
            let mut out = String::new();
            let mut chars = quoted.chars();
            while let Some(c) = chars.next() {
                if c == '\\' {
                    out.extend(chars.next());
                } else {
                    out.push(c);
                }
            }
            Some(out)
        }
        None => Some(value.to_string()),
    }
}

/// Rewrites the `description:` of each directive's snapshot that does not
/// name the directive's current line and text.
fn fix_snapshot_headers(root: &Path) -> Result<(), String> {
    let tests = suite::test_files(root).map_err(|e| e.to_string())?;
    for test in &tests {
        let shown = suite::relative(Path::new(""), test);
        let text = std::fs::read_to_string(root.join(test)).map_err(|e| e.to_string())?;
        let Ok(file) = directives::parse(&text) else {
            continue;
        };
        let stem = test
            .file_stem()
            .map_or(String::new(), |s| s.to_string_lossy().into_owned());
        for (index, directive) in file.directives.iter().enumerate() {
            let name = format!("{stem}@{}.snap", index + 1);
            let path = root.join(suite::SNAPSHOTS_DIR).join(&name);
            let Ok(snapshot) = std::fs::read_to_string(&path) else {
                continue;
            };
            let expected = snapshot_description(&shown, directive);
            if description(&snapshot).as_deref() == Some(expected.as_str()) {
                continue;
            }
            let Some(fixed) = with_description(&snapshot, &expected) else {
                return Err(format!("{name} has no front matter to fix"));
            };
            std::fs::write(&path, fixed).map_err(|e| e.to_string())?;
            println!(
                "tidy: {}/{name} header now {expected:?}",
                suite::SNAPSHOTS_DIR
            );
        }
    }
    Ok(())
}

/// `snapshot` with its front matter's description set to `description`.
fn with_description(snapshot: &str, description: &str) -> Option<String> {
    let body_at = snapshot.strip_prefix("---\n")?.find("\n---")? + 4;
    let (front, body) = snapshot.split_at(body_at);
    let quoted = format!(
        "description: \"{}\"",
        description.replace('\\', "\\\\").replace('"', "\\\"")
    );
    let mut lines: Vec<String> = front.lines().map(str::to_string).collect();
    match lines.iter().position(|l| l.starts_with("description:")) {
        Some(at) => lines[at] = quoted,
        None => lines.insert(1, quoted),
    }
    Some(lines.join("\n") + body)
}

fn readme_problems(root: &Path, tests: &[Parsed]) -> Result<Vec<Problem>, String> {
    let Ok(text) = std::fs::read_to_string(root.join(suite::README)) else {
        return Ok(vec![Problem::new(
            suite::README,
            0,
            "the bundle README is missing",
        )]);
    };
    let readme = readme::parse(&text);
    let mut problems = readme.problems.clone();
    problems.extend(front_matter_problems(root, &readme)?);
    problems.extend(claims_problems(tests, &readme));
    problems.extend(readme::check_links(root, &text));
    problems.extend(readme::check_refs(root, &readme.refs));
    Ok(problems)
}

fn front_matter_problems(root: &Path, readme: &readme::Readme) -> Result<Vec<Problem>, String> {
    let mut problems = Vec::new();
    let field = |key: &str| readme.front.get(key);
    let watched = suite::WATCHED_PATHS.join(" ");
    match field("watched-paths") {
        Some((_, value)) if *value == watched => {}
        found => problems.push(Problem::new(
            suite::README,
            found.map_or(1, |f| f.0),
            format!("front matter needs 'watched-paths: {watched}'"),
        )),
    }
    let digest =
        suite::watched_digest(root).map_err(|e| format!("cannot read the watched paths: {e}"))?;
    match field("watched-digest") {
        Some((_, value)) if *value == digest => {}
        found => problems.push(Problem::new(
            suite::README,
            found.map_or(1, |f| f.0),
            format!("stale digest: the watched paths changed since the README was reviewed (now {digest}); review the claims and references, then run `cargo xtask tidy --fix`"),
        )),
    }
    match field("source-commit") {
        Some((line, commit)) if !commit_known(root, commit) => problems.push(Problem::new(
            suite::README,
            *line,
            format!("source-commit '{commit}' is not a commit of HEAD's history"),
        )),
        Some(_) => {}
        None => problems.push(Problem::new(
            suite::README,
            1,
            "front matter needs 'source-commit: <hash>'",
        )),
    }
    Ok(problems)
}

/// True when git knows `commit`, or cannot tell (no git, a shallow clone).
fn commit_known(root: &Path, commit: &str) -> bool {
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .current_dir(root)
            .output()
            .ok()
    };
    let shallow = git(&["rev-parse", "--is-shallow-repository"])
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    match shallow.as_deref() {
        // In HEAD's history, not merely in the object store: a commit
        // that a rebase rewrote is still there locally but not in a clone.
        Some("false") => git(&["merge-base", "--is-ancestor", commit, "HEAD"])
            .is_some_and(|o| o.status.success()),
        _ => true,
    }
}

fn claims_problems(tests: &[Parsed], readme: &readme::Readme) -> Vec<Problem> {
    let mut problems = Vec::new();
    let base = Path::new(suite::README).parent().unwrap_or(Path::new(""));
    let mut claimed = BTreeSet::new();
    for claim in &readme.claims {
        let test = normalize(&base.join(&claim.test));
        claimed.insert(test.clone());
        let mut report =
            |message: String| problems.push(Problem::new(suite::README, claim.line, message));
        let Some((_, file)) = tests.iter().find(|(shown, _)| *shown == test) else {
            report(format!(
                "claim {} names '{test}', which is not a test of {}",
                claim.id,
                suite::TESTS_DIR
            ));
            continue;
        };
        let Some(meta) = file.as_ref().and_then(|f| f.meta.as_ref()) else {
            continue;
        };
        if meta.behaviour != claim.id {
            report(format!(
                "claim {} names {test}, whose META behaviour is {}",
                claim.id, meta.behaviour
            ));
        }
        if meta.intent != claim.intent {
            report(format!(
                "claim {} says intent '{}', {test} says '{}'",
                claim.id, claim.intent, meta.intent
            ));
        }
        if !claim.anchor.contains('#') {
            report(format!(
                "claim {}: the doc anchor needs a '#heading' fragment",
                claim.id
            ));
        }
    }
    for (shown, _) in tests {
        if !claimed.contains(shown) {
            problems.push(Problem::new(
                suite::README,
                0,
                format!("{shown} is not in the claims table"),
            ));
        }
    }
    problems
}

/// `a/b/../../c` → `c`, `/`-separated.
fn normalize(path: &Path) -> String {
    let mut parts: Vec<String> = Vec::new();
    for part in path.components() {
        match part {
            std::path::Component::ParentDir => {
                parts.pop();
            }
            std::path::Component::CurDir => {}
            other => parts.push(other.as_os_str().to_string_lossy().into_owned()),
        }
    }
    parts.join("/")
}

/// Rewrites `watched-digest` and `source-commit` in the front matter.
fn fix_front_matter(root: &Path) -> Result<(), String> {
    let path = root.join(suite::README);
    let text = std::fs::read_to_string(&path).map_err(|e| e.to_string())?;
    let digest = suite::watched_digest(root).map_err(|e| e.to_string())?;
    let head = Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(root)
        .output()
        .map_err(|e| e.to_string())?;
    let head = String::from_utf8_lossy(&head.stdout).trim().to_string();
    let mut fences = 0;
    let fixed: Vec<String> = text
        .lines()
        .map(|line| {
            fences += usize::from(line == "---");
            match line.split_once(':') {
                Some(("watched-digest", _)) if fences == 1 => format!("watched-digest: {digest}"),
                Some(("source-commit", _)) if fences == 1 && !head.is_empty() => {
                    format!("source-commit: {head}")
                }
                _ => line.to_string(),
            }
        })
        .collect();
    std::fs::write(&path, fixed.join("\n") + "\n").map_err(|e| e.to_string())?;
    println!(
        "tidy: {} front matter now {digest} at {head}",
        suite::README
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite::Scratch;

    const TEST: &str = "//META: intent=characterization\n//META: covers=crates/sysval\n\
//META: behaviour=B3\n//META: purpose=p\n//TEST:SIMPLE(filecheck=GLSL):-target glsl -entry main -stage compute\n//GLSL: gl_\n";

    const SNAPSHOT: &str = "---\nsource: crates/testkit/src/runner.rs\ndescription: \"tests/legalize/ids.slang:5 \
//TEST:SIMPLE(filecheck=GLSL):-target glsl -entry main -stage compute\"\n---\nout\n";

    /// A clean miniature repository (not a git one: the commit is not checked).
    fn tree() -> Scratch {
        let tree = Scratch::new("tidy");
        tree.write("tests/legalize/ids.slang", TEST);
        tree.write("snapshots/legalize/ids@1.snap", SNAPSHOT);
        tree.write(
            "crates/sysval/src/lib.rs",
            "pub fn glsl() {\n    let a = 1;\n}\n",
        );
        tree.write("docs/design/d.md", "# Compute ids (B3)\n");
        let digest = suite::watched_digest(&tree.0).unwrap();
        let readme = format!(
            "---\nsource-commit: abc\nwatched-paths: {}\nwatched-digest: {digest}\n---\n\n## Claims\n\n\
| Claim | Intent | Doc anchor | Test |\n| --- | --- | --- | --- |\n\
| B3 ids | characterization | [B3](../../../design/d.md#compute-ids-b3) | [t](../../../../tests/legalize/ids.slang) |\n\n\
## Unreachable gaps\n\n| `crates/sysval/src/lib.rs:2 (glsl)` | why |\n",
            suite::WATCHED_PATHS.join(" ")
        );
        tree.write(suite::README, &readme);
        tree
    }

    fn messages(tree: &Scratch) -> Vec<String> {
        check(&tree.0)
            .unwrap()
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn a_clean_tree_passes() {
        assert_eq!(messages(&tree()), Vec::<String>::new());
    }

    #[test]
    fn a_missing_meta_line_is_caught_with_its_place() {
        let tree = tree();
        tree.write(
            "tests/legalize/ids.slang",
            &TEST.replace("//META: purpose=p\n", ""),
        );
        assert_eq!(
            messages(&tree),
            ["tests/legalize/ids.slang:3: META block lacks 'purpose='"]
        );
        tree.write(
            "tests/legalize/ids.slang",
            &TEST.replace("characterization", "smoke"),
        );
        assert_eq!(
            messages(&tree),
            [
                "tests/legalize/ids.slang:1: META intent must be 'characterization', not 'smoke'",
                "docs/tests/coverage/legalize/README.md:11: claim B3 says intent 'characterization', tests/legalize/ids.slang says 'smoke'",
            ]
        );
    }

    #[test]
    fn a_stale_readme_reference_is_caught() {
        let tree = tree();
        tree.write(
            "crates/sysval/src/lib.rs",
            "pub fn renamed() {\n    let a = 1;\n}\n",
        );
        let found = messages(&tree);
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[0].contains("stale digest"), "{found:?}");
        assert!(
            found[1].ends_with("stale reference `crates/sysval/src/lib.rs:2 (glsl)`: line 2 is in `fn renamed`, not `fn glsl`"),
            "{found:?}"
        );
    }

    #[test]
    fn orphaned_and_missing_snapshots_are_caught() {
        let tree = tree();
        tree.write("snapshots/legalize/gone@1.snap", "x\n");
        tree.write("snapshots/legalize/ids@2.snap", "x\n");
        assert_eq!(
            messages(&tree),
            [
                "snapshots/legalize/gone@1.snap: orphaned snapshot: no test file has this stem; delete it or restore its directive",
                "snapshots/legalize/ids@2.snap: orphaned snapshot: its test has fewer directives; delete it or restore its directive",
            ]
        );
        std::fs::remove_file(tree.0.join("snapshots/legalize/ids@1.snap")).unwrap();
        assert!(
            messages(&tree)[0].starts_with("tests/legalize/ids.slang:5: directive has no snapshot")
        );
    }

    #[test]
    fn a_test_missing_from_the_claims_table_and_a_bad_anchor_are_caught() {
        let tree = tree();
        let readme = std::fs::read_to_string(tree.0.join(suite::README)).unwrap();
        tree.write(
            suite::README,
            &readme.replace("#compute-ids-b3", "#compute-ids"),
        );
        let found = messages(&tree);
        assert!(
            found
                .iter()
                .any(|m| m.contains("anchor '#compute-ids' is not a heading")),
            "{found:?}"
        );
        tree.write(
            suite::README,
            &readme.replace("tests/legalize/ids.slang", "tests/legalize/other.slang"),
        );
        let found = messages(&tree);
        assert!(
            found
                .iter()
                .any(|m| m.ends_with("tests/legalize/ids.slang is not in the claims table")),
            "{found:?}"
        );
    }

    #[test]
    fn a_not_after_the_last_positive_check_is_caught() {
        let tree = tree();
        let with = |checks: &str| TEST.replace("//GLSL: gl_\n", checks);
        // Before the first match, between matches, or in a prefix of -NOTs
        // only: each scans what it should.
        for fine in [
            "//GLSL-NOT: x\n//GLSL: gl_\n",
            "//GLSL: a\n//GLSL-NOT: x\n//GLSL: gl_\n",
            "//GLSL-NOT: x\n//GLSL-NOT: y\n",
        ] {
            tree.write("tests/legalize/ids.slang", &with(fine));
            assert_eq!(messages(&tree), Vec::<String>::new(), "{fine}");
        }
        tree.write(
            "tests/legalize/ids.slang",
            &with("//GLSL: gl_\n//GLSL-NOT: x\n//GLSL-DAG: y\n//GLSL-NOT: z\n"),
        );
        let found = messages(&tree);
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(
            found[0].starts_with(
                "tests/legalize/ids.slang:7: GLSL-NOT after the last positive GLSL check (line 6): \
                 FileCheck tests a -NOT only between the matches around it, so this one scans \
                 only the output after that match"
            ),
            "{found:?}"
        );
        assert!(
            found[1].starts_with("tests/legalize/ids.slang:9: GLSL-NOT"),
            "{found:?}"
        );
        // After DAGs only, the NOT scans only from their matches on.
        tree.write(
            "tests/legalize/ids.slang",
            &with("//GLSL-DAG: gl_\n//GLSL-NOT: x\n"),
        );
        assert!(
            messages(&tree)[0].contains(":7: GLSL-NOT after the last positive GLSL check (line 6)"),
            "{:?}",
            messages(&tree)
        );
    }

    /// A rebased-away commit is still in the object store here but not in
    /// a clone: only a commit of HEAD's history counts.
    #[test]
    fn a_source_commit_must_be_in_heads_history() {
        let tree = Scratch::new("tidy-git");
        let git = |args: &[&str]| {
            let out = Command::new("git")
                .args([
                    "-c",
                    "user.name=t",
                    "-c",
                    "user.email=t@t",
                    "-c",
                    "commit.gpgsign=false",
                ])
                .args(args)
                .current_dir(&tree.0)
                .output()
                .expect("git runs");
            assert!(out.status.success(), "git {args:?}: {out:?}");
            String::from_utf8(out.stdout).unwrap().trim().to_string()
        };
        git(&["init", "-q"]);
        git(&["commit", "-q", "--allow-empty", "-m", "a"]);
        let kept = git(&["rev-parse", "HEAD"]);
        git(&["commit", "-q", "--allow-empty", "-m", "b"]);
        let dropped = git(&["rev-parse", "HEAD"]);
        git(&["reset", "-q", "--hard", &kept]);
        assert!(commit_known(&tree.0, &kept));
        assert!(!commit_known(&tree.0, &dropped));
    }

    #[test]
    fn a_check_with_its_dash_missing_is_caught() {
        let tree = tree();
        let with = |checks: &str| TEST.replace("//GLSL: gl_\n", checks);
        for glued in [
            "//GLSL: gl_\n//GLSLNEXT: x\n",
            "//GLSL: gl_\n//GLSLNOT: x\n",
            "//GLSL: gl_\n// GLSLCOUNT-2: x\n",
        ] {
            tree.write("tests/legalize/ids.slang", &with(glued));
            let found = messages(&tree);
            assert_eq!(found.len(), 1, "{glued}: {found:?}");
            assert!(
                found[0].starts_with("tests/legalize/ids.slang:7: `GLSL"),
                "{found:?}"
            );
            assert!(found[0].contains("with the dash missing"), "{found:?}");
        }
        // Another word glued to the prefix is not a directive's name.
        tree.write(
            "tests/legalize/ids.slang",
            &with("//GLSL: gl_\n//GLSLX: x\n// GLSLNEXT is spelled GLSL-NEXT\n"),
        );
        assert_eq!(messages(&tree), Vec::<String>::new());
    }

    #[test]
    fn a_stale_snapshot_header_is_caught_and_fixed() {
        let tree = tree();
        // A line inserted above the directive moves it to line 6.
        tree.write(
            "tests/legalize/ids.slang",
            &TEST.replace("//TEST:", "// note\n//TEST:"),
        );
        let found = messages(&tree);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].starts_with(
                "tests/legalize/ids.slang:6: snapshot snapshots/legalize/ids@1.snap is stale: its \
                 header names \"tests/legalize/ids.slang:5 //TEST:SIMPLE(filecheck=GLSL)"
            ),
            "{found:?}"
        );
        fix_snapshot_headers(&tree.0).unwrap();
        assert_eq!(messages(&tree), Vec::<String>::new());
        let fixed = std::fs::read_to_string(tree.0.join("snapshots/legalize/ids@1.snap")).unwrap();
        assert_eq!(fixed, SNAPSHOT.replace("ids.slang:5", "ids.slang:6"));
        // A changed command line is stale too; a header-less snapshot names
        // no directive.
        tree.write(
            "tests/legalize/ids.slang",
            &TEST.replace("-stage compute", "-stage compute -O0"),
        );
        tree.write("snapshots/legalize/ids@1.snap", "---\n---\nout\n");
        let found = messages(&tree);
        assert!(
            found[0].contains("its header names no directive"),
            "{found:?}"
        );
    }
}
