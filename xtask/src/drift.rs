//! `cargo xtask drift --baseline REV`: what changed in the suite's outputs
//! since REV.
//!
//! It lists the commits since REV that touched the watched paths, builds
//! the `legalis` binary of REV in a temporary `git worktree` (the user's
//! tree is never touched) and of the working tree, runs the
//! working tree's suite (`tests/legalize`) with each binary, and prints
//! every output that differs as a unified diff. Running the same test files
//! on both sides means a difference is the compiler's, not the tests'. It
//! then checks the README's code references against the working tree.
//!
//! The baseline builds in `<target>/drift-baseline`, not in the working
//! tree's target folder: cargo names a workspace member's artifacts by a
//! hash that does not depend on where the checkout lives, so two trees in
//! one target folder overwrite each other's libraries and a stale one can
//! pass as fresh (seen here: the head binary silently linked the baseline's
//! writer). The folder persists, so later reviews build incrementally, and
//! `legalis` needs no C++ validator, so even the first build is short.
//!
//! Exit status: 0 nothing drifted, 1 an output drifted or a reference went
//! stale, 2 an error (unknown REV, a build failure...).

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use legalis_testkit::runner::{self, CommandCompiler, Options, UnsupportedPolicy};

use crate::suite::{self, Problem};

const HELP: &str = "\
cargo xtask drift: compare the suite's outputs at a baseline with the working tree

Usage: cargo xtask drift --baseline REV [--json FILE] [--html FILE]

  --baseline REV   the commit to compare against (any git revision)
  --json FILE      also write the report as JSON to FILE
  --html FILE      also write the report as one self-contained HTML page to
                   FILE: the commits, a table of every directive, and a
                   side-by-side diff per changed output

Lists the commits since REV touching the watched paths, builds legalis at
REV (in a temporary git worktree) and in the working tree, runs the working
tree's tests/legalize with both, prints every changed output as a diff, and
checks the code references of docs/tests/coverage/legalize/README.md.

Exit status: 0 nothing drifted, 1 drift (or a stale reference), 2 error.
";

/// Builds a tree's compiler; the real one runs cargo, tests use a script.
pub trait TreeCompiler {
    fn build(&self, tree: &Path, label: &str) -> Result<CommandCompiler, String>;
}

/// `cargo build -p legalis-cli --features cpp-tools --bin legalis` in the
/// tree (in a tree from before the command line had its own package,
/// `-p legalis`): the working tree in its own target folder, any other tree
/// in `<target>/drift-baseline`; the binary is copied out so that it
/// outlives the worktree.
#[derive(Debug)]
pub struct CargoLegalis {
    pub head_tree: PathBuf,
    pub target_dir: PathBuf,
    pub keep_dir: PathBuf,
}

/// The cargo arguments that build the `legalis` binary of `tree`, with
/// every target path (`-emit-spirv-via-glsl` needs the feature `cpp-tools`
/// since it exists), whatever the tree's age.
fn build_arguments(tree: &Path) -> Vec<&'static str> {
    let cli_manifest = std::fs::read_to_string(tree.join("crates/cli/Cargo.toml"));
    match cli_manifest {
        Ok(manifest) if manifest.contains("cpp-tools") => {
            [&["build"], crate::LEGALIS_BINARY].concat()
        }
        Ok(_) => vec!["build", "-p", "legalis-cli", "--bin", "legalis"],
        Err(_) => vec!["build", "-p", "legalis", "--bin", "legalis"],
    }
}

impl TreeCompiler for CargoLegalis {
    fn build(&self, tree: &Path, label: &str) -> Result<CommandCompiler, String> {
        let target_dir = if tree == self.head_tree {
            self.target_dir.clone()
        } else {
            self.target_dir.join("drift-baseline")
        };
        eprintln!(
            "drift: building legalis for {label} in {} ...",
            target_dir.display()
        );
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let status = Command::new(cargo)
            .args(build_arguments(tree))
            .env("CARGO_TARGET_DIR", &target_dir)
            .current_dir(tree)
            .status()
            .map_err(|e| format!("cannot run cargo: {e}"))?;
        if !status.success() {
            return Err(format!("building legalis for {label} failed ({status})"));
        }
        let built = target_dir
            .join("debug")
            .join(format!("legalis{}", std::env::consts::EXE_SUFFIX));
        let kept = self
            .keep_dir
            .join(format!("legalis-{label}{}", std::env::consts::EXE_SUFFIX));
        std::fs::copy(&built, &kept)
            .map_err(|e| format!("cannot copy {}: {e}", built.display()))?;
        Ok(CommandCompiler {
            program: kept,
            prefix_args: Vec::new(),
        })
    }
}

/// One directive whose output differs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// `file@n`, the snapshot's name.
    pub test: String,
    pub directive: String,
    pub baseline: String,
    pub head: String,
}

/// What happened to one directive's output between the two sides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    Unchanged,
    Changed,
    /// Only at head.
    New,
    /// Only at the baseline.
    Removed,
}

impl State {
    pub fn name(self) -> &'static str {
        match self {
            State::Unchanged => "unchanged",
            State::Changed => "changed",
            State::New => "new",
            State::Removed => "removed",
        }
    }
}

/// One directive of either side, and what happened to its output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// `file@n`, the snapshot's name.
    pub test: String,
    pub directive: String,
    pub state: State,
}

/// The result of a review.
#[derive(Debug, Clone, Default)]
pub struct Review {
    pub baseline: String,
    pub baseline_commit: String,
    pub head_commit: String,
    pub dirty: bool,
    /// `hash subject` of each commit since the baseline touching the watched paths.
    pub commits: Vec<String>,
    pub changes: Vec<Change>,
    /// Every directive of either side, in `changes`' order.
    pub outcomes: Vec<Outcome>,
    pub stale: Vec<Problem>,
}

impl Review {
    pub fn drifted(&self) -> bool {
        !self.changes.is_empty() || !self.stale.is_empty()
    }
}

pub fn main(args: &[OsString], root: &Path) -> ExitCode {
    let Args {
        baseline,
        json,
        html,
    } = match parse_args(args) {
        Ok(Some(parsed)) => parsed,
        Ok(None) => {
            print!("{HELP}");
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            eprint!("xtask: error: {message}\n\n{HELP}");
            return ExitCode::from(2);
        }
    };
    let target_dir =
        std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from);
    let keep = Keep(std::env::temp_dir().join(format!("legalis-drift-bin-{}", std::process::id())));
    if let Err(error) = std::fs::create_dir_all(&keep.0) {
        eprintln!("drift: cannot create {}: {error}", keep.0.display());
        return ExitCode::from(2);
    }
    let compiler = CargoLegalis {
        head_tree: root.to_path_buf(),
        target_dir: std::path::absolute(target_dir).unwrap_or_default(),
        keep_dir: keep.0.clone(),
    };
    let review = match review(root, &baseline, &compiler) {
        Ok(review) => review,
        Err(error) => {
            eprintln!("drift: error: {error}");
            return ExitCode::from(2);
        }
    };
    print_review(&review, color_wanted());
    if let Some(path) = json
        && let Err(error) = write_creating_dirs(&path, &to_json(&review))
    {
        eprintln!("drift: cannot write {}: {error}", path.display());
        return ExitCode::from(2);
    }
    if let Some(path) = html {
        if let Err(error) = write_creating_dirs(&path, &crate::html::drift_report(&review)) {
            eprintln!("drift: cannot write {}: {error}", path.display());
            return ExitCode::from(2);
        }
        eprintln!("drift: wrote the HTML report to {}", path.display());
    }
    if review.drifted() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// A folder removed on drop.
struct Keep(PathBuf);

impl Drop for Keep {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

struct Args {
    baseline: String,
    json: Option<PathBuf>,
    html: Option<PathBuf>,
}

fn parse_args(args: &[OsString]) -> Result<Option<Args>, String> {
    let mut baseline = None;
    let mut json = None;
    let mut html = None;
    let mut iter = args.iter().map(|a| a.to_string_lossy().into_owned());
    while let Some(arg) = iter.next() {
        match arg.as_str() {
            "--baseline" => baseline = Some(iter.next().ok_or("--baseline needs a revision")?),
            "--json" => json = Some(PathBuf::from(iter.next().ok_or("--json needs a file")?)),
            "--html" => html = Some(PathBuf::from(iter.next().ok_or("--html needs a file")?)),
            "-h" | "--help" => return Ok(None),
            other => return Err(format!("unknown argument {other}")),
        }
    }
    let baseline = baseline.ok_or("--baseline REV is required")?;
    Ok(Some(Args {
        baseline,
        json,
        html,
    }))
}

pub fn git(root: &Path, args: &[&str]) -> Result<String, String> {
    let output = Command::new("git")
        .args(args)
        .current_dir(root)
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "git {} failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    Ok(String::from_utf8_lossy(&output.stdout)
        .trim_end()
        .to_string())
}

/// The whole review: commits, both builds, both runs, the comparison.
pub fn review(root: &Path, baseline: &str, compiler: &dyn TreeCompiler) -> Result<Review, String> {
    let commit = git(
        root,
        &["rev-parse", "--verify", &format!("{baseline}^{{commit}}")],
    )
    .map_err(|_| format!("unknown revision '{baseline}'"))?;
    let head_commit = git(root, &["rev-parse", "HEAD"])?;
    let mut log_args = vec!["log", "--format=%h %s"];
    let range = format!("{commit}..HEAD");
    log_args.push(&range);
    log_args.push("--");
    log_args.extend(suite::WATCHED_PATHS);
    let commits: Vec<String> = git(root, &log_args)?.lines().map(str::to_string).collect();
    let mut status_args = vec!["status", "--porcelain", "--"];
    status_args.extend(suite::WATCHED_PATHS);
    let dirty = !git(root, &status_args)?.is_empty();
    eprintln!(
        "drift: {} commit(s) since {baseline} touch {}",
        commits.len(),
        suite::WATCHED_PATHS.join(", ")
    );
    let short = &commit[..commit.len().min(12)];
    let baseline_compiler = {
        let worktree = Worktree::add(root, &commit)?;
        compiler.build(&worktree.path, &format!("baseline-{short}"))?
    };
    let head_compiler = compiler.build(root, "head")?;
    let before = outputs(root, &baseline_compiler, "baseline")?;
    let after = outputs(root, &head_compiler, "head")?;
    let changes = compare(&before, &after);
    let outcomes = outcomes(&before, &after);
    let stale = stale_references(root);
    Ok(Review {
        baseline: baseline.to_string(),
        baseline_commit: commit,
        head_commit,
        dirty,
        commits,
        changes,
        outcomes,
        stale,
    })
}

/// A detached `git worktree` at a commit, removed on drop.
struct Worktree {
    root: PathBuf,
    path: PathBuf,
}

impl Worktree {
    fn add(root: &Path, commit: &str) -> Result<Worktree, String> {
        let path = std::env::temp_dir().join(format!(
            "legalis-drift-{}-{}",
            std::process::id(),
            &commit[..8.min(commit.len())]
        ));
        let shown = path.to_string_lossy().into_owned();
        eprintln!("drift: checking out {commit} in a temporary worktree ...");
        git(
            root,
            &["worktree", "add", "--detach", "--quiet", &shown, commit],
        )?;
        Ok(Worktree {
            root: root.to_path_buf(),
            path,
        })
    }
}

impl Drop for Worktree {
    fn drop(&mut self) {
        let shown = self.path.to_string_lossy().into_owned();
        if git(&self.root, &["worktree", "remove", "--force", &shown]).is_err() {
            let _ = std::fs::remove_dir_all(&self.path);
            let _ = git(&self.root, &["worktree", "prune"]);
        }
    }
}

/// `file@n` → (directive, whole output) for every directive of the suite.
fn outputs(
    root: &Path,
    compiler: &CommandCompiler,
    label: &str,
) -> Result<BTreeMap<String, (String, String)>, String> {
    let options = Options {
        compiler,
        validator: None,
        snapshot_dir: None,
        require_meta: false,
        unsupported: UnsupportedPolicy::Skip,
        filter: None,
        partition: None,
    };
    let files = runner::test_files(&root.join(suite::TESTS_DIR), None)
        .map_err(|e| format!("cannot read {}: {e}", suite::TESTS_DIR))?;
    let mut records = Vec::new();
    for (index, file) in files.iter().enumerate() {
        eprintln!(
            "drift: [{label} {}/{}] {}",
            index + 1,
            files.len(),
            suite::relative(root, file)
        );
        runner::run_file_recorded(file, &options, &mut std::io::sink(), &mut records)
            .map_err(|e| e.to_string())?;
    }
    Ok(records
        .into_iter()
        .map(|r| {
            let file = suite::relative(root, Path::new(&r.file));
            let output = r
                .output
                .unwrap_or_else(|| format!("(no output: {})", r.reasons.join("; ")));
            (format!("{file}@{}", r.number), (r.directive, output))
        })
        .collect())
}

/// Every directive whose output differs, or exists on one side only.
pub fn compare(
    before: &BTreeMap<String, (String, String)>,
    after: &BTreeMap<String, (String, String)>,
) -> Vec<Change> {
    let mut keys: Vec<&String> = before.keys().chain(after.keys()).collect();
    keys.sort();
    keys.dedup();
    let missing = |side: &str| (String::new(), format!("(no such directive at {side})\n"));
    keys.into_iter()
        .filter_map(|key| {
            let old = before
                .get(key)
                .cloned()
                .unwrap_or_else(|| missing("the baseline"));
            let new = after.get(key).cloned().unwrap_or_else(|| missing("head"));
            (old.1 != new.1).then(|| Change {
                test: key.clone(),
                directive: if new.0.is_empty() { old.0 } else { new.0 },
                baseline: old.1,
                head: new.1,
            })
        })
        .collect()
}

/// What happened to every directive of either side, sorted like `compare`.
pub fn outcomes(
    before: &BTreeMap<String, (String, String)>,
    after: &BTreeMap<String, (String, String)>,
) -> Vec<Outcome> {
    let mut keys: Vec<&String> = before.keys().chain(after.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .filter_map(|key| {
            let (state, directive) = match (before.get(key), after.get(key)) {
                (Some(old), Some(new)) if old.1 == new.1 => (State::Unchanged, &new.0),
                (Some(_), Some(new)) => (State::Changed, &new.0),
                (None, Some(new)) => (State::New, &new.0),
                (Some(old), None) => (State::Removed, &old.0),
                (None, None) => return None,
            };
            Some(Outcome {
                test: key.clone(),
                directive: directive.clone(),
                state,
            })
        })
        .collect()
}

fn stale_references(root: &Path) -> Vec<Problem> {
    let Ok(text) = std::fs::read_to_string(root.join(suite::README)) else {
        return Vec::new();
    };
    let readme = crate::readme::parse(&text);
    crate::readme::check_refs(root, &readme.refs)
}

fn color_wanted() -> bool {
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
}

/// The unified diff of one change, coloured for a terminal when asked.
pub fn diff(change: &Change, color: bool) -> String {
    let text = similar::TextDiff::from_lines(&change.baseline, &change.head);
    let unified = text
        .unified_diff()
        .context_radius(3)
        .header(
            &format!("baseline/{}", change.test),
            &format!("head/{}", change.test),
        )
        .to_string();
    if !color {
        return unified;
    }
    unified
        .lines()
        .map(|line| {
            let code = match line.as_bytes().first() {
                Some(b'+') => "32",
                Some(b'-') => "31",
                Some(b'@') => "36",
                _ => return format!("{line}\n"),
            };
            format!("\x1b[{code}m{line}\x1b[0m\n")
        })
        .collect()
}

fn print_review(review: &Review, color: bool) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "drift review: baseline {} ({}), head {}{}",
        review.baseline,
        &review.baseline_commit[..12.min(review.baseline_commit.len())],
        &review.head_commit[..12.min(review.head_commit.len())],
        if review.dirty {
            " with uncommitted changes to the watched paths"
        } else {
            ""
        }
    );
    let _ = writeln!(out, "commits touching {}:", suite::WATCHED_PATHS.join(", "));
    for commit in &review.commits {
        let _ = writeln!(out, "  {commit}");
    }
    for change in &review.changes {
        let _ = writeln!(
            out,
            "\nchanged: {} {}\n{}",
            change.test,
            change.directive,
            diff(change, color)
        );
    }
    for problem in &review.stale {
        let _ = writeln!(out, "{problem}");
    }
    let _ = writeln!(
        out,
        "drift: {} output(s) changed, {} stale README reference(s)",
        review.changes.len(),
        review.stale.len()
    );
}

pub fn to_json(review: &Review) -> String {
    let changes: Vec<serde_json::Value> = review
        .changes
        .iter()
        .map(|c| serde_json::json!({"test": c.test, "directive": c.directive, "baseline": c.baseline, "head": c.head, "diff": diff(c, false)}))
        .collect();
    let value = serde_json::json!({
        "baseline": review.baseline,
        "baseline_commit": review.baseline_commit,
        "head_commit": review.head_commit,
        "dirty": review.dirty,
        "commits": review.commits,
        "changes": changes,
        "stale_references": review.stale.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "drifted": review.drifted(),
    });
    serde_json::to_string_pretty(&value).expect("JSON values serialize") + "\n"
}

/// Writes a report, making its folder first (`target/reports/drift.html`
/// on a fresh clone).
fn write_creating_dirs(path: &Path, text: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(path, text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite::Scratch;

    #[test]
    fn reports_are_written_into_folders_that_do_not_exist_yet() {
        let scratch = Scratch::new("drift-report-dirs");
        let path = scratch.0.join("target/reports/drift.json");
        write_creating_dirs(&path, "{}").expect("written");
        assert_eq!(std::fs::read_to_string(&path).expect("read back"), "{}");
    }

    /// "Builds" a tree by keeping a copy of its `out.txt`; the compiler
    /// prints that copy whatever the test file.
    struct PrintsOutTxt(PathBuf);

    impl TreeCompiler for PrintsOutTxt {
        fn build(&self, tree: &Path, label: &str) -> Result<CommandCompiler, String> {
            let kept = self.0.join(format!("{label}.txt"));
            std::fs::copy(tree.join("out.txt"), &kept).map_err(|e| e.to_string())?;
            let script = format!("cat '{}'", kept.display());
            Ok(CommandCompiler {
                program: "sh".into(),
                prefix_args: vec!["-c".into(), script],
            })
        }
    }

    fn commit(repo: &Path, message: &str) {
        git(repo, &["add", "-A"]).unwrap();
        git(
            repo,
            &[
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@example.com",
                "commit",
                "-q",
                "-m",
                message,
            ],
        )
        .unwrap();
    }

    /// A repository with one test, whose compiler output is `out.txt`.
    fn repository(tree: &Scratch) -> PathBuf {
        let repo = tree.0.join("repo");
        std::fs::create_dir_all(&repo).unwrap();
        git(&repo, &["init", "-q"]).unwrap();
        let test =
            "//TEST:SIMPLE(filecheck=CHECK):-target glsl -entry main -stage vertex\n//CHECK: gl\n";
        tree.write("repo/tests/legalize/a.slang", test);
        tree.write("repo/out.txt", "gl_Position = a;\n");
        tree.write("repo/crates/sysval/src/lib.rs", "fn a() {}\n");
        commit(&repo, "first");
        repo
    }

    #[test]
    fn a_changed_output_is_drift_with_its_commit_listed() {
        let tree = Scratch::new("drift");
        let repo = repository(&tree);
        tree.write("repo/out.txt", "gl_Position = b;\n");
        tree.write("repo/crates/sysval/src/lib.rs", "fn b() {}\n");
        commit(&repo, "legalizer: b, not a");
        let review = review(&repo, "HEAD~1", &PrintsOutTxt(tree.0.clone())).unwrap();
        assert!(review.drifted());
        assert_eq!(review.commits.len(), 1);
        assert!(
            review.commits[0].ends_with("legalizer: b, not a"),
            "{:?}",
            review.commits
        );
        assert_eq!(review.changes.len(), 1);
        assert_eq!(review.changes[0].test, "tests/legalize/a.slang@1");
        assert_eq!(
            review
                .outcomes
                .iter()
                .map(|o| (o.test.as_str(), o.state))
                .collect::<Vec<_>>(),
            [("tests/legalize/a.slang@1", State::Changed)]
        );
        let shown = diff(&review.changes[0], false);
        assert!(
            shown.contains("-gl_Position = a;\n+gl_Position = b;"),
            "{shown}"
        );
        assert!(to_json(&review).contains("\"drifted\": true"));
        let page = crate::html::drift_report(&review);
        assert!(
            page.contains("<td class=\"del\">gl_Position = <span class=\"x\">a;</span></td>"),
            "{page}"
        );
        assert!(page.contains("legalizer: b, not a</li>"), "{page}");
        let worktrees = git(&repo, &["worktree", "list"]).unwrap();
        assert_eq!(
            worktrees.lines().count(),
            1,
            "the temporary worktree is removed: {worktrees}"
        );
    }

    #[test]
    fn the_same_outputs_are_no_drift() {
        let tree = Scratch::new("drift-none");
        let repo = repository(&tree);
        tree.write("repo/README.md", "unrelated\n");
        commit(&repo, "docs only");
        let review = review(&repo, "HEAD~1", &PrintsOutTxt(tree.0.clone())).unwrap();
        assert!(!review.drifted(), "{:?}", review.changes);
        assert!(review.commits.is_empty());
        assert_eq!(review.outcomes.len(), 1);
        assert_eq!(review.outcomes[0].state, State::Unchanged);
    }

    #[test]
    fn outcomes_name_new_removed_changed_and_unchanged_directives() {
        let side = |entries: &[(&str, &str)]| -> BTreeMap<String, (String, String)> {
            entries
                .iter()
                .map(|(k, v)| (k.to_string(), (format!("//TEST {k}"), v.to_string())))
                .collect()
        };
        let before = side(&[("a@1", "x"), ("b@1", "y"), ("c@1", "z")]);
        let after = side(&[("a@1", "x"), ("b@1", "Y"), ("d@1", "w")]);
        let states: Vec<(String, State)> = outcomes(&before, &after)
            .into_iter()
            .map(|o| (o.test, o.state))
            .collect();
        assert_eq!(
            states,
            [
                ("a@1".to_string(), State::Unchanged),
                ("b@1".to_string(), State::Changed),
                ("c@1".to_string(), State::Removed),
                ("d@1".to_string(), State::New),
            ]
        );
        let changed: Vec<String> = compare(&before, &after)
            .into_iter()
            .map(|c| c.test)
            .collect();
        assert_eq!(changed, ["b@1", "c@1", "d@1"]);
    }

    #[test]
    fn an_unknown_baseline_is_an_error() {
        let tree = Scratch::new("drift-bad");
        let repo = repository(&tree);
        let error = review(&repo, "no-such-rev", &PrintsOutTxt(tree.0.clone())).unwrap_err();
        assert!(error.contains("unknown revision 'no-such-rev'"), "{error}");
    }
}
