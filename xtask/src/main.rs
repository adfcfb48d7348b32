//! `cargo xtask`: the project's tasks as a plain Rust program, so they run
//! the same on every machine and need nothing but cargo.
//!
//! Most tasks are a list of cargo commands run from the workspace root; the
//! first that fails stops the task and its exit status becomes ours.
//! `test legalize` runs the characterization suite in this process through
//! `legalis-testkit` (see `legalize.rs`); `tidy`, `coverage legalize` and
//! `drift` keep the suite's discipline (`tidy.rs`, `coverage.rs`,
//! `drift.rs`, over the paths in `suite.rs`); `codegen` writes the
//! system-value mapping tables of the SPIR-V/GLSL design document from
//! `legalis-sysval` (`codegen.rs`). `drift --html` and `coverage legalize
//! --html` render their reports as pages (`html.rs`); `setup` installs the
//! headless Chromium the page test opens them in (`chromium.rs`) and the
//! CUDA toolchain the CUDA outputs are compiled with (`cuda.rs`).

mod bench;
mod bench_process;
mod chromium;
mod codegen;
mod coverage;
mod cuda;
mod drift;
mod findings;
mod gpu;
mod html;
mod legalize;
mod readme;
mod reference_layouts;
mod report;
mod rust_fns;
mod suite;
mod tidy;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

const HELP: &str = "\
cargo xtask: Legalis project tasks

Usage: cargo xtask TASK [ARGS...]

Tasks:
  test [ARGS...]    cargo test --workspace, with ARGS passed on
                    (e.g. cargo xtask test --no-fail-fast)
  test legalize [--filter PAT] [--dir PATH] [--compiler CMD] [--no-snapshots]
                [--format text|json|junit]
                    the characterization suite (tests/legalize by default);
                    see `cargo xtask test legalize --help`
  tidy [--fix]      META blocks, snapshots, the bundle README and findings
  coverage legalize [--check] [--html DIR]
                    line coverage per function of the watched crates;
                    --check enforces the floors and the unreachable gaps;
                    --html writes DIR/index.html
  drift --baseline REV [--json FILE] [--html FILE]
                    outputs of the suite at REV against the working tree;
                    --html writes a page with side-by-side diffs
  setup             installs what the tests need beyond cargo when missing:
                    headless Chromium (apt-get, as root), for the test
                    that opens the drift report; nvcc and the OptiX
                    headers (pip wheels, into a cache folder), which
                    compile every CUDA output
  codegen [--check] the system-value mapping tables of
                    docs/design/target-pipelines/spirv-glsl.md, from
                    legalis-sysval; --check fails when they are stale
  bench [ARGS...]   the criterion benchmarks, ARGS passed on: the front
                    end (legalis-front, bench front), then the whole
                    pipeline (legalis, bench pipeline: N float4 varyings
                    for N = 16 to 4096 to GLSL, SPIR-V and WGSL, and every
                    suite directive); then builds the release CLI and
                    times it as a process (cold start, peak RSS at
                    N = 4096), times the reference compiler on the same
                    shaders when ../shared/tools/slang-reference (or
                    LEGALIS_SLANG_REFERENCE) and python3 are there, prints
                    the figures against their targets (medians and ratios
                    of this run) and draws target/reports/bench/scaling.svg
  gpu [--out DIR] [--run]
                    stages the GPU execution tests (crates/gpu) in DIR
                    (default target/gpu): every case compiled by Legalis
                    to SPIR-V, its expected words, and the release runner
                    legalis-gpu (ash, no link-time Vulkan); run
                    DIR/legalis-gpu where a Vulkan device is; and the
                    OptiX test in DIR/optix (CUDA outputs, host program,
                    OptiX headers from the setup cache): sh
                    DIR/optix/run.sh where the NVIDIA driver and nvcc
                    are; --run also runs both here
  reference-layouts the reference compiler's reflection of every shader
                    of tests/layout, as data in tests/layout/reference
                    (needs ../shared/tools/slang-reference or
                    LEGALIS_SLANG_REFERENCE, and python3)
  ci                what CI runs (.ci/run): cargo fmt --check, clippy with
                    warnings denied on all targets, setup, every test,
                    tidy, codegen --check and coverage legalize --check
                    (its page in target/reports/coverage/index.html)
  help              show this help
";

fn main() -> ExitCode {
    let mut args = std::env::args_os().skip(1);
    let task = args.next().map(|task| task.to_string_lossy().into_owned());
    let rest: Vec<OsString> = args.collect();
    let steps = match task.as_deref() {
        Some("test") if rest.first().is_some_and(|a| a == "legalize") => {
            return legalize::main(&rest[1..], &workspace_root());
        }
        Some("test") => vec![with_args(&["test", "--workspace"], &rest)],
        Some("tidy") => return tidy::main(&rest, &workspace_root()),
        Some("coverage") => return coverage::main(&rest, &workspace_root()),
        Some("drift") => return drift::main(&rest, &workspace_root()),
        Some("codegen") => return codegen::main(&rest, &workspace_root()),
        Some("setup") => return chromium::setup(&rest),
        Some("bench") => return bench::main(&rest, &workspace_root()),
        Some("gpu") => return gpu::main(&rest, &workspace_root()),
        Some("reference-layouts") => return reference_layouts::main(&rest, &workspace_root()),
        // Internal to `bench`: the peak memory of one command.
        Some("peak-rss") => return bench_process::peak_rss(&rest),
        Some("ci") if rest.is_empty() => ci_steps(),
        Some("help" | "-h" | "--help") => {
            print!("{HELP}");
            return ExitCode::SUCCESS;
        }
        Some("ci") => return usage("ci takes no arguments"),
        Some(other) => return usage(&format!("unknown task {other}")),
        None => return usage("missing TASK"),
    };
    run_all(&steps)
}

fn usage(message: &str) -> ExitCode {
    eprint!("xtask: error: {message}\n\n{HELP}");
    ExitCode::from(2)
}

/// `--locked`: CI must build with the committed `Cargo.lock`, not whatever
/// the registry offers today. `--no-fail-fast`: one run shows every failing
/// test binary, not just the first.
fn ci_steps() -> Vec<Vec<OsString>> {
    vec![
        words(&["fmt", "--all", "--", "--check"]),
        words(&[
            "clippy",
            "--workspace",
            "--all-targets",
            "--locked",
            "--",
            "-D",
            "warnings",
        ]),
        // Headless Chromium for the HTML report test, from apt when missing;
        // nvcc and the OptiX headers for the CUDA outputs, from pip.
        words(&["run", "--quiet", "--locked", "-p", "xtask", "--", "setup"]),
        words(&["test", "--workspace", "--locked", "--no-fail-fast"]),
        words(&["run", "--quiet", "--locked", "-p", "xtask", "--", "tidy"]),
        words(&[
            "run", "--quiet", "--locked", "-p", "xtask", "--", "codegen", "--check",
        ]),
        // Instrumented build of the watched crates and the legalis binary
        // only (no C++ validator): a few minutes on a clean clone. The page
        // is there for CI to keep as an artifact.
        words(&[
            "run",
            "--quiet",
            "--locked",
            "-p",
            "xtask",
            "--",
            "coverage",
            "legalize",
            "--check",
            "--html",
            "target/reports/coverage",
        ]),
    ]
}

fn words(words: &[&str]) -> Vec<OsString> {
    words.iter().map(OsString::from).collect()
}

fn with_args(command: &[&str], extra: &[OsString]) -> Vec<OsString> {
    let mut all = words(command);
    all.extend(extra.iter().cloned());
    all
}

fn run_all(steps: &[Vec<OsString>]) -> ExitCode {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let root = workspace_root();
    for step in steps {
        let shown: Vec<_> = step.iter().map(|word| word.to_string_lossy()).collect();
        eprintln!("xtask: cargo {}", shown.join(" "));
        let status = Command::new(&cargo).args(step).current_dir(&root).status();
        match status {
            Ok(status) if status.success() => {}
            Ok(status) => {
                eprintln!("xtask: cargo {} failed ({status})", shown.join(" "));
                let code = status.code().and_then(|code| u8::try_from(code).ok());
                return ExitCode::from(code.filter(|&code| code != 0).unwrap_or(1));
            }
            Err(error) => {
                eprintln!("xtask: cannot run cargo: {error}");
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}

/// The workspace root is the folder above this crate, wherever it is cloned.
fn workspace_root() -> PathBuf {
    let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest_dir.parent().unwrap_or(manifest_dir).to_path_buf()
}
