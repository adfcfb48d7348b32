//! `cargo xtask coverage legalize [--check]`: line coverage per function of
//! the watched crates, from what the legalizer's own tests and the
//! characterization suite execute.
//!
//! It drives LLVM's source-based coverage directly: the crates' tests and
//! the `legalis` binary are built with `-C instrument-coverage` in their own
//! target folder (`<target>/coverage`; no C++ validator is rebuilt, as
//! neither needs one), the tests run, the suite runs through that binary,
//! and `llvm-profdata`/`llvm-cov export` (rustup's `llvm-tools`, installed
//! here when missing) turn the profiles into regions. Lines are counted the
//! way `llvm-cov` counts them: a line's count is the larger of the region
//! that wraps its start and the regions that begin on it. Functions are
//! named by the `fn` around their first line (`rust_fns.rs`), so closures
//! and generic copies count with the function they are written in.
//!
//! `--check` fails when a crate is under its floor, when no line of a
//! watched crate was measured at all, or when an uncovered line is neither
//! tested nor listed under the README's unreachable gaps.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use legalis_testkit::runner::{self, CommandCompiler, Options, UnsupportedPolicy};

use crate::readme::{self, CodeRef};
use crate::rust_fns;
use crate::suite::{self, Problem};

/// Minimum line coverage per watched folder (a crate, or one target
/// family's folder of the legalizer crate), a little under what was
/// measured so that noise does not fail CI but a lost test does.
pub const FLOORS: &[(&str, f64)] = &[
    ("crates/legalize/src/common", 90.0),
    ("crates/legalize/src/glsl", 90.0),
    ("crates/legalize/src/wgsl", 90.0),
    ("crates/legalize/src/metal", 90.0),
    // Measured at 91.3% (336/368 lines); OptiX programs' unpackable and
    // call-check refusals are the listed gaps.
    ("crates/legalize/src/cuda", 88.0),
    ("crates/sysval", 95.0),
];

/// The packages whose tests count, besides the suite.
const PACKAGES: &[&str] = &["legalis-legalize", "legalis-sysval"];

const HELP: &str = "\
cargo xtask coverage legalize: line coverage per function of the watched crates

Usage: cargo xtask coverage legalize [--check] [--html DIR]

Builds the watched crates' tests and the legalis binary with LLVM coverage
instrumentation (in <target>/coverage), runs them and the characterization
suite, and prints each function's line coverage with its uncovered lines.
Installs rustup's llvm-tools component when it is missing.

  --check   fail when a crate is under its floor or has no measured line, or an
            uncovered line is not listed under \"Unreachable gaps\" in docs/tests/coverage/legalize/README.md
  --html DIR
            also write the report as one self-contained page, DIR/index.html:
            per-crate totals against the floors, each function's lines, its
            uncovered lines told apart as listed gaps or not

Exit status: 0 fine, 1 a floor or gap check failed, 2 error.
";

/// One function's coverage, lines keyed by number.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FnCoverage {
    pub file: String,
    pub name: String,
    pub start: usize,
    /// line → execution count (the largest over the function's copies).
    pub lines: BTreeMap<usize, u64>,
}

impl FnCoverage {
    pub fn covered(&self) -> usize {
        self.lines.values().filter(|&&c| c > 0).count()
    }

    /// Runs of uncovered lines, `(first, last)`.
    pub fn uncovered(&self) -> Vec<(usize, usize)> {
        let mut runs: Vec<(usize, usize)> = Vec::new();
        for (&line, _) in self.lines.iter().filter(|(_, c)| **c == 0) {
            match runs.last_mut() {
                Some(run) if self.lines.range(run.1 + 1..line).all(|(_, c)| *c == 0) => {
                    run.1 = line
                }
                _ => runs.push((line, line)),
            }
        }
        runs
    }
}

pub fn main(args: &[OsString], root: &Path) -> ExitCode {
    let words: Vec<String> = args
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let (check, html) = match parse_args(&words) {
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
    let functions = match measure(root) {
        Ok(functions) => functions,
        Err(error) => {
            eprintln!("coverage: error: {error}");
            return ExitCode::from(2);
        }
    };
    print!("{}", table(&functions));
    let gaps = std::fs::read_to_string(root.join(suite::README))
        .map(|t| readme::parse(&t).gaps)
        .unwrap_or_default();
    if let Some(dir) = html {
        let commit = crate::drift::git(root, &["rev-parse", "HEAD"]).ok();
        let page = crate::html::coverage_report(&functions, &gaps, commit.as_deref());
        let index = dir.join("index.html");
        if let Err(error) =
            std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(&index, page))
        {
            eprintln!("coverage: cannot write {}: {error}", index.display());
            return ExitCode::from(2);
        }
        eprintln!("coverage: wrote the HTML report to {}", index.display());
    }
    if !check {
        return ExitCode::SUCCESS;
    }
    let problems = check_floors_and_gaps(&functions, &gaps);
    for problem in &problems {
        println!("{problem}");
    }
    if problems.is_empty() {
        println!(
            "coverage: every crate at or above its floor; every uncovered line is a listed gap"
        );
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// `legalize [--check] [--html DIR]`: `None` asks for the help.
fn parse_args(words: &[String]) -> Result<Option<(bool, Option<PathBuf>)>, String> {
    let mut iter = words.iter().map(String::as_str);
    match iter.next() {
        Some("legalize") => {}
        Some("-h" | "--help") => return Ok(None),
        _ => return Err("expected `coverage legalize [--check] [--html DIR]`".into()),
    }
    let (mut check, mut html) = (false, None);
    while let Some(word) = iter.next() {
        match word {
            "--check" => check = true,
            "--html" => html = Some(PathBuf::from(iter.next().ok_or("--html needs a folder")?)),
            "-h" | "--help" => return Ok(None),
            other => return Err(format!("unknown argument {other}")),
        }
    }
    Ok(Some((check, html)))
}

/// Where rustup keeps `llvm-profdata` and `llvm-cov`; installs them if needed.
fn llvm_tools() -> Result<PathBuf, String> {
    let rustc = |args: &[&str]| -> Result<String, String> {
        let out = Command::new("rustc")
            .args(args)
            .output()
            .map_err(|e| format!("cannot run rustc: {e}"))?;
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    };
    let sysroot = rustc(&["--print", "sysroot"])?.trim().to_string();
    let host = rustc(&["-vV"])?
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(str::to_string))
        .ok_or("rustc -vV names no host")?;
    let bin = Path::new(&sysroot)
        .join("lib/rustlib")
        .join(host)
        .join("bin");
    if !bin.join("llvm-cov").exists() {
        eprintln!(
            "coverage: llvm-tools are missing; installing them: rustup component add llvm-tools-preview"
        );
        let status = Command::new("rustup")
            .args(["component", "add", "llvm-tools-preview"])
            .status()
            .map_err(|e| format!("cannot run rustup: {e}"))?;
        if !status.success() || !bin.join("llvm-cov").exists() {
            return Err(
                "could not install llvm-tools (rustup component add llvm-tools-preview)".into(),
            );
        }
    }
    Ok(bin)
}

/// Builds, runs and reads the profiles: the functions of the watched sources.
fn measure(root: &Path) -> Result<Vec<FnCoverage>, String> {
    let tools = llvm_tools()?;
    let target =
        std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from);
    let target = std::path::absolute(target.join("coverage")).map_err(|e| e.to_string())?;
    let profiles = target.join("profiles");
    let _ = std::fs::remove_dir_all(&profiles);
    std::fs::create_dir_all(&profiles)
        .map_err(|e| format!("cannot create {}: {e}", profiles.display()))?;
    let pattern = profiles.join("%p-%m.profraw");
    let cargo = |args: &[&str]| {
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let mut command = Command::new(cargo);
        command
            .args(args)
            .current_dir(root)
            .env("RUSTFLAGS", "-C instrument-coverage")
            .env("CARGO_TARGET_DIR", &target)
            .env("LLVM_PROFILE_FILE", &pattern);
        command
    };
    let mut package_args = vec!["test", "--no-fail-fast"];
    for package in PACKAGES {
        package_args.extend(["-p", package]);
    }
    eprintln!(
        "coverage: instrumented build and tests of {} ...",
        PACKAGES.join(", ")
    );
    let status = cargo(&package_args).status().map_err(|e| e.to_string())?;
    if !status.success() {
        return Err(format!("the instrumented tests failed ({status})"));
    }
    let mut objects = executables(cargo(
        &[&package_args[..], &["--no-run", "--message-format=json"]].concat(),
    ))?;
    let legalis = executables(cargo(
        &[
            &["build"],
            crate::LEGALIS_BINARY,
            &["--message-format=json"],
        ]
        .concat(),
    ))?;
    let binary = legalis
        .first()
        .ok_or("cargo built no legalis binary")?
        .clone();
    run_suite(root, &binary, &pattern)?;
    objects.push(binary);
    let merged = target.join("coverage.profdata");
    let raws: Vec<PathBuf> = std::fs::read_dir(&profiles)
        .map_err(|e| e.to_string())?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    let status = Command::new(tools.join("llvm-profdata"))
        .arg("merge")
        .arg("-sparse")
        .args(&raws)
        .arg("-o")
        .arg(&merged)
        .status()
        .map_err(|e| e.to_string())?;
    if !status.success() {
        return Err("llvm-profdata merge failed".into());
    }
    let sources = source_files(root)?;
    let mut export = Command::new(tools.join("llvm-cov"));
    export
        .args(["export", "-format=text", "-skip-expansions"])
        .arg(format!("-instr-profile={}", merged.display()));
    for (at, object) in objects.iter().enumerate() {
        if at > 0 {
            export.arg("-object");
        }
        export.arg(object);
    }
    export.args(sources.iter().map(|s| root.join(s)));
    let output = export
        .output()
        .map_err(|e| format!("cannot run llvm-cov: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "llvm-cov export failed: {}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let json: serde_json::Value = serde_json::from_slice(&output.stdout)
        .map_err(|e| format!("llvm-cov wrote no JSON: {e}"))?;
    functions(root, &sources, &json)
}

/// The executables cargo reports in `--message-format=json`.
fn executables(mut command: Command) -> Result<Vec<PathBuf>, String> {
    let output = command
        .stderr(std::process::Stdio::inherit())
        .output()
        .map_err(|e| e.to_string())?;
    if !output.status.success() {
        return Err("an instrumented build failed".into());
    }
    Ok(String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter_map(|message| message["executable"].as_str().map(PathBuf::from))
        .collect())
}

/// The characterization suite through the instrumented binary; `env` sets
/// the profile pattern, as the runner starts the compiler itself.
fn run_suite(root: &Path, binary: &Path, pattern: &Path) -> Result<(), String> {
    eprintln!(
        "coverage: running {} with the instrumented legalis ...",
        suite::TESTS_DIR
    );
    let compiler = CommandCompiler {
        program: "env".into(),
        prefix_args: vec![
            format!("LLVM_PROFILE_FILE={}", pattern.display()),
            binary.to_string_lossy().into_owned(),
        ],
    };
    let options = Options {
        compiler: &compiler,
        validator: None,
        snapshot_dir: None,
        require_meta: true,
        unsupported: UnsupportedPolicy::Fail,
        filter: None,
        partition: None,
    };
    let summary = runner::run_dir(&root.join(suite::TESTS_DIR), &options, &mut std::io::sink())
        .map_err(|e| e.to_string())?;
    if summary.failed > 0 {
        return Err(format!(
            "the suite failed under coverage: {}",
            summary.line()
        ));
    }
    Ok(())
}

/// The `src/**/*.rs` files of the watched crates (tests measure, not count).
fn source_files(root: &Path) -> Result<Vec<String>, String> {
    let files = suite::watched_files(root).map_err(|e| e.to_string())?;
    Ok(files
        .into_iter()
        .filter(|f| f.contains("/src/") && f.ends_with(".rs"))
        .collect())
}

/// Per-function line counts from `llvm-cov export` JSON.
pub fn functions(
    root: &Path,
    sources: &[String],
    json: &serde_json::Value,
) -> Result<Vec<FnCoverage>, String> {
    let mut scanned: BTreeMap<&str, (Vec<rust_fns::RustFn>, usize)> = BTreeMap::new();
    for source in sources {
        let text = std::fs::read_to_string(root.join(source)).map_err(|e| e.to_string())?;
        scanned.insert(
            source,
            (rust_fns::functions(&text), test_module_start(&text)),
        );
    }
    let mut merged: BTreeMap<(String, usize), FnCoverage> = BTreeMap::new();
    let records = json["data"][0]["functions"]
        .as_array()
        .ok_or("llvm-cov JSON has no functions")?;
    for record in records {
        let Some(file) = record["filenames"][0].as_str() else {
            continue;
        };
        let file = suite::relative(
            &std::path::absolute(root).unwrap_or_default(),
            Path::new(file),
        );
        let Some((fns, tests_from)) = scanned.get(file.as_str()) else {
            continue;
        };
        let regions = code_regions(record);
        let Some(first) = regions.iter().map(|r| r.0).min() else {
            continue;
        };
        let Some(owner) = rust_fns::enclosing(fns, first).filter(|_| first < *tests_from) else {
            continue;
        };
        let entry = merged
            .entry((file.clone(), owner.start))
            .or_insert_with(|| FnCoverage {
                file: file.clone(),
                name: owner.name.clone(),
                start: owner.start,
                lines: BTreeMap::new(),
            });
        for (line, count) in line_counts(&regions) {
            let slot = entry.lines.entry(line).or_insert(0);
            *slot = (*slot).max(count);
        }
    }
    Ok(merged.into_values().collect())
}

/// `#[cfg(test)]` modules sit at the end of a file; their functions are tests.
fn test_module_start(text: &str) -> usize {
    text.lines()
        .position(|l| l.trim() == "#[cfg(test)]")
        .map_or(usize::MAX, |at| at + 1)
}

/// Code regions of a function in its own file: `(line_start, col_start,
/// line_end, col_end, count)`.
fn code_regions(record: &serde_json::Value) -> Vec<(usize, usize, usize, usize, u64)> {
    let Some(regions) = record["regions"].as_array() else {
        return Vec::new();
    };
    regions
        .iter()
        .filter_map(|r| {
            let n = |i: usize| r[i].as_u64();
            // [ls, cs, le, ce, count, file_id, expanded_file_id, kind]; kind 0 is code.
            (n(5) == Some(0) && n(7) == Some(0)).then_some(())?;
            Some((
                n(0)? as usize,
                n(1)? as usize,
                n(2)? as usize,
                n(3)? as usize,
                n(4)?,
            ))
        })
        .collect()
}

/// llvm-cov's line rule: the larger of the innermost region wrapping the
/// line's start and every region beginning on the line.
pub fn line_counts(regions: &[(usize, usize, usize, usize, u64)]) -> BTreeMap<usize, u64> {
    let mut lines = BTreeMap::new();
    let (Some(first), Some(last)) = (
        regions.iter().map(|r| r.0).min(),
        regions.iter().map(|r| r.2).max(),
    ) else {
        return lines;
    };
    for line in first..=last {
        let wrapping = regions
            .iter()
            .filter(|r| r.0 < line && line <= r.2)
            .max_by_key(|r| (r.0, r.1))
            .map(|r| r.4);
        let starting = regions.iter().filter(|r| r.0 == line).map(|r| r.4).max();
        if let Some(count) = wrapping.into_iter().chain(starting).max() {
            lines.insert(line, count);
        }
    }
    lines
}

/// Line coverage of a crate: (covered, total).
pub fn crate_totals<'a>(
    functions: &'a [FnCoverage],
    krate: &str,
) -> (usize, usize, Vec<&'a FnCoverage>) {
    let mine: Vec<&FnCoverage> = functions
        .iter()
        .filter(|f| f.file.starts_with(&format!("{krate}/")))
        .collect();
    let covered = mine.iter().map(|f| f.covered()).sum();
    let total = mine.iter().map(|f| f.lines.len()).sum();
    (covered, total, mine)
}

pub fn percent(covered: usize, total: usize) -> f64 {
    if total == 0 {
        100.0
    } else {
        covered as f64 * 100.0 / total as f64
    }
}

/// The report: per crate, each function with its coverage and uncovered lines.
pub fn table(functions: &[FnCoverage]) -> String {
    let mut out = String::new();
    for (krate, floor) in FLOORS {
        let (covered, total, mine) = crate_totals(functions, krate);
        out += &format!(
            "\n{krate}: {covered}/{total} lines, {:.1}% (floor {floor:.1}%)\n",
            percent(covered, total)
        );
        out += &format!(
            "  {:<44} {:>9} {:>7}  uncovered lines\n",
            "function", "lines", "cover"
        );
        for function in mine {
            let file = function.file.rsplit('/').next().unwrap_or(&function.file);
            let runs: Vec<String> = function
                .uncovered()
                .iter()
                .map(|&(a, b)| {
                    if a == b {
                        a.to_string()
                    } else {
                        format!("{a}-{b}")
                    }
                })
                .collect();
            let name = format!("{file}::{}", function.name);
            let lines = format!("{}/{}", function.covered(), function.lines.len());
            out += &format!(
                "  {name:<44} {lines:>9} {:>6.1}%  {}\n",
                percent(function.covered(), function.lines.len()),
                runs.join(", ")
            );
        }
    }
    out
}

/// Whether the uncovered run `first..=last` of `function` is inside a gap
/// the README lists.
pub fn listed_gap(function: &FnCoverage, first: usize, last: usize, gaps: &[CodeRef]) -> bool {
    gaps.iter().any(|gap| {
        gap.path == function.file
            && gap.function == function.name
            && gap.lines.is_none_or(|(a, b)| a <= first && last <= b)
    })
}

/// Floors per crate, and every uncovered run inside a listed gap.
pub fn check_floors_and_gaps(functions: &[FnCoverage], gaps: &[CodeRef]) -> Vec<Problem> {
    let mut problems = Vec::new();
    for (krate, floor) in FLOORS {
        let (covered, total, _) = crate_totals(functions, krate);
        let measured = percent(covered, total);
        if total == 0 {
            // Nothing measured is not full coverage: the crate's sources
            // were not instrumented, or its path moved.
            problems.push(Problem::new(
                *krate,
                0,
                "no line of the crate was measured (its sources are missing from the coverage data)"
                    .to_string(),
            ));
        } else if measured < *floor {
            problems.push(Problem::new(
                *krate,
                0,
                format!("line coverage {measured:.1}% is under the floor {floor:.1}%"),
            ));
        }
    }
    for function in functions {
        for (first, last) in function.uncovered() {
            if !listed_gap(function, first, last, gaps) {
                let message = format!(
                    "uncovered in `fn {}`: add a test, or list `{}:{first}{} ({})` under Unreachable gaps in {} with why",
                    function.name,
                    function.file,
                    if first == last {
                        String::new()
                    } else {
                        format!("-{last}")
                    },
                    function.name,
                    suite::README
                );
                problems.push(Problem::new(&function.file, first, message));
            }
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_take_check_and_html_in_any_order() {
        let words = |w: &[&str]| w.iter().map(ToString::to_string).collect::<Vec<_>>();
        assert_eq!(parse_args(&words(&["legalize"])), Ok(Some((false, None))));
        assert_eq!(
            parse_args(&words(&["legalize", "--html", "out", "--check"])),
            Ok(Some((true, Some(PathBuf::from("out")))))
        );
        assert_eq!(parse_args(&words(&["legalize", "--help"])), Ok(None));
        assert!(parse_args(&words(&["legalize", "--html"])).is_err());
        assert!(parse_args(&words(&["other"])).is_err());
    }

    #[test]
    fn a_line_takes_the_larger_of_its_wrapping_and_starting_regions() {
        // fn body lines 1-6 ran once; an `if` body on lines 3-4 never ran;
        // line 5 starts a region that ran.
        let regions = [(1, 1, 6, 2, 1), (3, 10, 4, 6, 0), (5, 5, 5, 20, 1)];
        let lines = line_counts(&regions);
        assert_eq!(
            lines.iter().map(|(l, c)| (*l, *c)).collect::<Vec<_>>(),
            [(1, 1), (2, 1), (3, 1), (4, 0), (5, 1), (6, 1)]
        );
    }

    fn function(lines: &[(usize, u64)]) -> FnCoverage {
        FnCoverage {
            file: "crates/sysval/src/glsl.rs".into(),
            name: "glsl".into(),
            start: 1,
            lines: lines.iter().copied().collect(),
        }
    }

    #[test]
    fn an_unlisted_uncovered_run_fails_the_check_and_a_listed_one_passes() {
        let functions = [function(&[(10, 1), (11, 0), (12, 0), (14, 0), (15, 1)])];
        assert_eq!(functions[0].uncovered(), [(11, 14)]);
        let gap = |lines| CodeRef {
            line: 1,
            text: String::new(),
            path: "crates/sysval/src/glsl.rs".into(),
            lines,
            function: "glsl".into(),
        };
        let problems = check_floors_and_gaps(&functions, &[]);
        assert!(
            problems
                .iter()
                .any(|p| p.line == 11 && p.message.contains("uncovered in `fn glsl`")),
            "{problems:?}"
        );
        let listed = check_floors_and_gaps(&functions, &[gap(Some((11, 14)))]);
        assert!(listed.iter().all(|p| p.line == 0), "{listed:?}");
        let too_short = check_floors_and_gaps(&functions, &[gap(Some((11, 12)))]);
        assert!(too_short.iter().any(|p| p.line == 11), "{too_short:?}");
    }

    #[test]
    fn a_watched_crate_with_no_measured_line_fails_the_check() {
        // Only sysval was measured: the legalizer's folders have no line.
        let functions = [function(&[(10, 1), (11, 1)])];
        let problems = check_floors_and_gaps(&functions, &[]);
        let unmeasured: Vec<&str> = problems
            .iter()
            .filter(|p| p.message.contains("no line of the crate was measured"))
            .map(|p| p.file.as_str())
            .collect();
        assert_eq!(
            unmeasured,
            [
                "crates/legalize/src/common",
                "crates/legalize/src/glsl",
                "crates/legalize/src/wgsl",
                "crates/legalize/src/metal",
                "crates/legalize/src/cuda",
            ],
            "{problems:?}"
        );
        // Every watched crate measured and covered: nothing to report.
        let all: Vec<FnCoverage> = FLOORS
            .iter()
            .map(|(krate, _)| FnCoverage {
                file: format!("{krate}/src/lib.rs"),
                ..function(&[(1, 1)])
            })
            .collect();
        assert_eq!(check_floors_and_gaps(&all, &[]), []);
    }
}
