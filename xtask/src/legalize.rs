//! `cargo xtask test legalize`: runs a folder of reference-format test
//! files through `legalis-testkit`.
//!
//! The project's suite (`tests/legalize`, the default) is strict: every file
//! needs its `//META:` block, unsupported directive kinds fail, and outputs
//! are compared with the insta snapshots in `snapshots/legalize/`. A folder
//! named with `--dir` is foreign (the reference's own tests, say): META is
//! optional, kinds the harness cannot run are reported as skipped, and its
//! snapshots, unless `--no-snapshots`, live in `<dir>/snapshots/`.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use legalis_testkit::legalis::{self, DownstreamValidator, InProcessLegalis};
use legalis_testkit::runner::{self, CommandCompiler, Compiler, Options, UnsupportedPolicy};

use crate::report::{self, Format};

const HELP: &str = "\
cargo xtask test legalize: run characterization tests

Usage: cargo xtask test legalize [--filter PAT] [--partition K/N] [--dir PATH] [--compiler CMD]
                                 [--no-snapshots] [--format text|json|junit]

  --filter PAT     only test files whose path contains PAT
  --partition K/N  only shard K of N (1 <= K <= N): each file belongs to the
                   shard its name's hash picks, the same on every machine, so
                   N CI jobs with K = 1..N run every file once; then the
                   generated system-value matrices (the cargo tests
                   sysval_matrix and wgsl_sysval_matrix) run shard K of
                   their shaders, picked the same way by case name
  --dir PATH       run the tests in PATH instead of tests/legalize (a foreign
                   folder: META optional, unsupported directives skipped)
  --compiler CMD   the compiler command, split on spaces, run as
                   `CMD FILE ARGS...` in the test's folder (default:
                   Legalis in-process, every output validated), e.g.
                   --compiler \"python3 ../shared/tools/slang-reference/slangc.py\"
  --no-snapshots   do not compare outputs with insta snapshots
  --format FORMAT  text (default), or json / junit for CI systems: the
                   report goes to standard output, the PASS/FAIL lines to
                   standard error

Without --compiler, what the validators need (nvcc and the OptiX headers)
is installed first when missing, as `cargo xtask setup` does.
Test files run in parallel on every core; the report keeps file order.
Prints PASS/FAIL/SKIP per directive and `N passed, M failed`.
Exit status: 0 all passed, 1 a failure (or no test found), 2 usage error.
";

#[derive(Debug, Default)]
struct Args {
    filter: Option<String>,
    partition: Option<runner::Partition>,
    dir: Option<PathBuf>,
    compiler: Option<String>,
    no_snapshots: bool,
    format: Format,
}

pub fn main(args: &[OsString], root: &Path) -> ExitCode {
    let args = match parse_args(args) {
        Ok(Some(args)) => args,
        Ok(None) => {
            print!("{HELP}");
            return ExitCode::SUCCESS;
        }
        Err(message) => return usage(&message),
    };
    let invoked_from = std::env::current_dir().unwrap_or_else(|_| root.to_path_buf());
    // Tests run from the root so that the paths they print and the snapshot
    // metadata are repository-relative, never machine paths.
    if let Err(error) = std::env::set_current_dir(root) {
        eprintln!("xtask: cannot enter {}: {error}", root.display());
        return ExitCode::FAILURE;
    }
    let dir = match &args.dir {
        Some(dir) => shown_path(&invoked_from.join(dir), root),
        None => PathBuf::from("tests/legalize"),
    };
    if !dir.is_dir() {
        return usage(&format!("no test folder {}", dir.display()));
    }
    // Legalis' own outputs go through their validators, nvcc among them:
    // installed first when missing, as `cargo xtask setup` does.
    if args.compiler.is_none() && !crate::setup::ensure(&crate::setup::Need::SUITE) {
        return ExitCode::FAILURE;
    }
    let command;
    let compiler: &dyn Compiler = match &args.compiler {
        Some(words) => match compiler_from_command(words, &invoked_from) {
            Some(found) => {
                command = found;
                &command
            }
            None => return usage("--compiler needs a command"),
        },
        None => &InProcessLegalis,
    };
    run(&args, &dir, root, compiler)
}

fn run(args: &Args, dir: &Path, root: &Path, compiler: &dyn Compiler) -> ExitCode {
    let foreign = args.dir.is_some();
    let snapshot_dir = match (args.no_snapshots, foreign) {
        (true, _) => None,
        (false, true) => Some(root.join(dir).join("snapshots")),
        (false, false) => Some(root.join("snapshots/legalize")),
    };
    let options = Options {
        compiler,
        // Legalis' own outputs always go through their validators; a foreign
        // compiler's outputs are only checked, as the reference's runner does.
        validator: if args.compiler.is_none() {
            Some(&DownstreamValidator)
        } else {
            None
        },
        snapshot_dir,
        require_meta: !foreign,
        unsupported: if foreign {
            UnsupportedPolicy::Skip
        } else {
            UnsupportedPolicy::Fail
        },
        filter: args.filter.clone(),
        partition: args.partition,
    };
    runner::quiet_snapshot_panics();
    let mut lines: Box<dyn std::io::Write> = match args.format {
        Format::Text => Box::new(std::io::stdout()),
        Format::Json | Format::Junit => Box::new(std::io::stderr()),
    };
    let ran = runner::expected_results(dir, &options).and_then(|expected| {
        runner::run_dir_recorded(dir, &options, &mut lines).map(|ran| (expected, ran))
    });
    let (expected, (summary, records)) = match ran {
        Ok(found) => found,
        Err(error) => {
            eprintln!("xtask: cannot read {}: {error}", dir.display());
            return ExitCode::from(2);
        }
    };
    let total = summary.total();
    if total == 0 {
        eprintln!("xtask: no test directive found in {}", dir.display());
    }
    // No result lost: one record per directive parsed, each counted once.
    let lost = records.len() != expected || total != records.len();
    if lost {
        eprintln!(
            "xtask: {expected} directives parsed but {} results recorded and {total} counted",
            records.len()
        );
    }
    match args.format {
        Format::Text => {
            // How many SPIR-V outputs naga read back and how many it declined.
            println!("{}", legalis::readback_line(&records));
            // How many Metal outputs the Metal checker (clang) accepted.
            println!("{}", legalis::metal_line(&records));
            println!("{}", summary.line());
        }
        Format::Json => print!("{}", report::json(&summary, &records)),
        Format::Junit => print!("{}", report::junit(&summary, &records)),
    }
    if summary.failed > 0 || total == 0 || lost {
        return ExitCode::FAILURE;
    }
    match (args.partition, foreign) {
        (Some(partition), false) => matrices(partition),
        _ => ExitCode::SUCCESS,
    }
}

/// The generated matrices' shard, through cargo test and the environment.
fn matrices(partition: runner::Partition) -> ExitCode {
    let shard = format!("{}/{}", partition.index, partition.count);
    eprintln!("xtask: the system-value matrices, shard {shard}");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = std::process::Command::new(cargo)
        .args([
            "test",
            "-p",
            "legalis",
            "--test",
            "sysval_matrix",
            "--test",
            "wgsl_sysval_matrix",
        ])
        .env(runner::Partition::ENV, &shard)
        .current_dir(super::workspace_root())
        .status();
    match status {
        Ok(status) if status.success() => ExitCode::SUCCESS,
        Ok(_) => ExitCode::FAILURE,
        Err(error) => {
            eprintln!("xtask: cannot run cargo: {error}");
            ExitCode::FAILURE
        }
    }
}

fn parse_args(args: &[OsString]) -> Result<Option<Args>, String> {
    let mut parsed = Args::default();
    let mut iter = args.iter().map(|a| a.to_string_lossy().into_owned());
    while let Some(arg) = iter.next() {
        let mut value = |name: &str| iter.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "--filter" => parsed.filter = Some(value("--filter")?),
            "--partition" => {
                let text = value("--partition")?;
                parsed.partition = Some(runner::Partition::parse(&text).ok_or(format!(
                    "--partition takes K/N with 1 <= K <= N, not {text}"
                ))?);
            }
            "--dir" => parsed.dir = Some(PathBuf::from(value("--dir")?)),
            "--compiler" => parsed.compiler = Some(value("--compiler")?),
            "--no-snapshots" => parsed.no_snapshots = true,
            "--format" => {
                let name = value("--format")?;
                parsed.format = Format::from_name(&name)
                    .ok_or(format!("--format takes text, json or junit, not {name}"))?;
            }
            "-h" | "--help" => return Ok(None),
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if parsed
        .compiler
        .as_deref()
        .is_some_and(|c| c.trim().is_empty())
    {
        return Err("--compiler needs a command".to_string());
    }
    Ok(Some(parsed))
}

fn usage(message: &str) -> ExitCode {
    eprint!("xtask: error: {message}\n\n{HELP}");
    ExitCode::from(2)
}

/// Repository-relative when inside the repository, absolute otherwise.
fn shown_path(path: &Path, root: &Path) -> PathBuf {
    let path = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    match path.strip_prefix(&root) {
        Ok(relative) if !relative.as_os_str().is_empty() => relative.to_path_buf(),
        _ => path,
    }
}

/// The words of `--compiler`; words naming existing files relative to where
/// xtask was invoked become absolute, because tests run in their own folder.
fn compiler_from_command(command: &str, invoked_from: &Path) -> Option<CommandCompiler> {
    let words: Vec<String> = command
        .split_whitespace()
        .map(|word| {
            let candidate = invoked_from.join(word);
            if word.contains('/') && candidate.exists() {
                candidate.to_string_lossy().into_owned()
            } else {
                word.to_string()
            }
        })
        .collect();
    CommandCompiler::from_words(&words)
}
