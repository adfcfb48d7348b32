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
//! headless Chromium the page test opens them in (`chromium.rs`), the
//! CUDA toolchain the CUDA outputs are compiled with (`cuda.rs`) and LLVM's
//! FileCheck (`llvm.rs`) and clang (`clang.rs`), and `test` does the same
//! first (`setup.rs`). `check-metal` checks Metal source with clang against
//! the project's model of `metal_stdlib` (`metal_check.rs`).

mod bench;
mod bench_process;
mod chromium;
mod clang;
mod codegen;
mod coverage;
mod cuda;
mod drift;
mod findings;
mod fuzz;
mod gpu;
mod html;
mod legalize;
mod llvm;
mod metal_check;
mod readme;
mod reference_layouts;
mod report;
mod rust_fns;
mod setup;
mod suite;
mod tidy;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

const HELP: &str = "\
cargo xtask: Legalis project tasks

Usage: cargo xtask TASK [ARGS...]

Tasks:
  test [ARGS...]    first installs what the tests need when missing (as
                    setup does, saying what it installs), then cargo test
                    --workspace, with ARGS passed on (e.g. cargo xtask
                    test --no-fail-fast); with CI=true also --locked
                    --no-fail-fast
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
  setup             installs what the tests need beyond cargo when missing
                    (test and test legalize do it too): headless Chromium
                    (apt-get, as root), for the test that opens the drift
                    report; nvcc and the OptiX headers (pip wheels, into a
                    cache folder), which compile every CUDA output; LLVM's
                    FileCheck (apt-get llvm-19-tools, as root), which the
                    FileCheck differential test runs; clang (apt-get
                    clang-19, as root), which check-metal and its tests run
  codegen [--check] the system-value mapping tables of
                    docs/design/target-pipelines/spirv-glsl.md, from
                    legalis-sysval; --check fails when they are stale
  bench [ARGS...]   the criterion benchmarks, ARGS passed on: the front
                    end (legalis-front, bench front), then the whole
                    pipeline (legalis-cli, bench pipeline: N float4 varyings
                    for N = 16 to 4096 to GLSL, SPIR-V and WGSL, and every
                    suite directive), both in the bench profile (fat
                    LTO, one codegen unit); then builds the CLI in the
                    dist profile (the same settings) and
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
  fuzz-replay       builds the cargo-fuzz targets of fuzz/ (a workspace of
                    its own) with the stable toolchain and runs each over
                    every input of tests/fuzz-regressions/
  reference-layouts the reference compiler's reflection of every shader
                    of tests/layout, as data in tests/layout/reference
                    (needs ../shared/tools/slang-reference or
                    LEGALIS_SLANG_REFERENCE, and python3)
  check-metal PATH...
                    checks Metal source with clang against the project's
                    model of metal_stdlib (crates/validate/metal-model); a folder is
                    walked for every regular file in it; one line per
                    rejected file with clang's first error, then
                    `N accepted, M rejected`; exit 0 only when all pass
  ci                what CI runs (.ci/run): cargo fmt --check, clippy with
                    warnings denied on all targets, cargo xtask test (the
                    README's test command, which sets up first),
                    fuzz-replay, tidy, codegen --check, cargo doc
                    --workspace --no-deps with rustdoc's warnings denied,
                    cargo package of every published crate (no upload)
                    and coverage legalize --check
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
        Some("test") => {
            // The README's test command: what the tests need first,
            // installed when missing, then every test. A tool that is still
            // missing fails the task after the tests ran (its tests fail
            // too, saying why).
            let ready = setup::ensure(&setup::Need::ALL);
            let tested = run_all(&[test_step(&rest, is_ci())]);
            return if ready { tested } else { ExitCode::FAILURE };
        }
        Some("tidy") => return tidy::main(&rest, &workspace_root()),
        Some("coverage") => return coverage::main(&rest, &workspace_root()),
        Some("drift") => return drift::main(&rest, &workspace_root()),
        Some("codegen") => return codegen::main(&rest, &workspace_root()),
        Some("setup") => return setup::main(&rest),
        Some("bench") => return bench::main(&rest, &workspace_root()),
        Some("gpu") => return gpu::main(&rest, &workspace_root()),
        Some("fuzz-replay") => return fuzz::main(&rest, &workspace_root()),
        Some("reference-layouts") => return reference_layouts::main(&rest, &workspace_root()),
        Some("check-metal") => return metal_check::main(&rest),
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
        // The README's test command as written: it installs what the tests
        // need (headless Chromium and LLVM's FileCheck from apt, nvcc and
        // the OptiX headers from pip) and, under CI=true, tests with
        // --locked --no-fail-fast.
        words(&["xtask", "test"]),
        // The fuzz targets, outside the workspace, built and replayed.
        xtask_step(&["fuzz-replay"]),
        xtask_step(&["tidy"]),
        xtask_step(&["codegen", "--check"]),
        // The API docs of every workspace crate, rustdoc's warnings (broken
        // intra-doc links, `missing_docs` where a crate asks for it)
        // denied. `--config` rather than RUSTDOCFLAGS: a step is its
        // arguments.
        words(&[
            "doc",
            "--workspace",
            "--no-deps",
            "--locked",
            "--config",
            "build.rustdocflags=[\"-D\", \"warnings\"]",
        ]),
        package_step(),
        // Instrumented build of the watched crates and the legalis binary
        // only (no C++ validator): a few minutes on a clean clone. The page
        // is there for CI to keep as an artifact.
        xtask_step(&[
            "coverage",
            "legalize",
            "--check",
            "--html",
            "target/reports/coverage",
        ]),
    ]
}

/// The crates published to crates.io, in no particular order (`cargo
/// package` orders them by their dependencies). testkit, xtask and gpu
/// say `publish = false`.
/// The cargo arguments that select the `legalis` binary with every target
/// path (glslang and SPIRV-Tools, feature `cpp-tools`), as the suite runs
/// it: what drift, coverage and bench build.
pub const LEGALIS_BINARY: &[&str] = &[
    "-p",
    "legalis-cli",
    "--features",
    "cpp-tools",
    "--bin",
    "legalis",
];

const PUBLISHED: &[&str] = &[
    "legalis-ir",
    "legalis-sysval",
    "legalis-front",
    "legalis-layout",
    "legalis-bind",
    "legalis-legalize",
    "legalis-emit",
    "legalis-validate",
    "legalis",
    "legalis-cli",
];

/// Whether CI's `cargo package` also builds each crate from its packaged
/// sources (cargo's verification). It does not: measured on the 2-core CI
/// machine, packaging the eleven crates takes about 8 s without it and
/// more than 10 minutes with it, nearly all of that building glslang and
/// SPIRV-Tools from C++ again in verification's own target folder for
/// `legalis-validate` (and `legalis`, `legalis-cli` after it). The
/// workspace's clippy and test steps already build every crate from the
/// same files, and every crate's sources are the default package contents
/// (nothing is excluded), so verification would find little they do not.
const PACKAGE_VERIFY: bool = false;

/// `cargo package` for every published crate, nothing uploaded: each
/// `.crate` is made from the files its package lists, and the crates that
/// depend on each other resolve through cargo's local overlay of the ones
/// just packaged, so a manifest crates.io would refuse (a path dependency
/// without a version, a workspace key a crate does not inherit, a readme
/// or licence file that is not there) fails here. Without verification
/// (PACKAGE_VERIFY) the packaged sources are not built: a file the build
/// needs but the package leaves out would only show at upload; every crate
/// packages its whole folder today (no `include`/`exclude`), the
/// validator's `metal-model/` with it.
fn package_step() -> Vec<OsString> {
    let mut step = words(&["package", "--locked"]);
    for name in PUBLISHED {
        step.extend(words(&["-p", name]));
    }
    if !PACKAGE_VERIFY {
        step.push("--no-verify".into());
    }
    step
}

/// A task of this program run from CI, built with the committed lock file.
fn xtask_step(task: &[&str]) -> Vec<OsString> {
    with_args(
        &["run", "--quiet", "--locked", "-p", "xtask", "--"],
        &words(task),
    )
}

/// `CI=true`, as CI sets it.
fn is_ci() -> bool {
    std::env::var_os("CI").is_some_and(|value| value == "true")
}

/// The cargo command of `cargo xtask test ARGS`: every test of the
/// workspace; in CI with the committed `Cargo.lock` only (`--locked`) and
/// every failing test binary shown, not just the first (`--no-fail-fast`).
fn test_step(rest: &[OsString], ci: bool) -> Vec<OsString> {
    let mut step = words(&["test", "--workspace"]);
    if ci {
        step.extend(words(&["--locked", "--no-fail-fast"]));
    }
    step.extend(rest.iter().cloned());
    step
}

fn with_args(command: &[&str], extra: &[OsString]) -> Vec<OsString> {
    let mut all = words(command);
    all.extend(extra.iter().cloned());
    all
}

fn words(words: &[&str]) -> Vec<OsString> {
    words.iter().map(OsString::from).collect()
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The command under "Run every test:" in the README.
    fn readme_test_command() -> String {
        let readme = std::fs::read_to_string(workspace_root().join("README.md")).expect("README");
        let after = readme
            .split_once("Run every test:")
            .expect("the README has a \"Run every test:\" block")
            .1;
        let block = after.split("```").nth(1).expect("a fenced block");
        let mut lines = block.lines().skip(1).filter(|line| !line.trim().is_empty());
        let command = lines.next().expect("a command").trim().to_string();
        assert!(lines.next().is_none(), "one command: {block}");
        command
    }

    /// CI proves the README's test command: its test step is that command
    /// as written, and nothing sets up before it.
    #[test]
    fn ci_runs_the_readme_test_command_as_written_and_no_setup_step() {
        let command = readme_test_command();
        let words: Vec<&str> = command.split_whitespace().collect();
        assert_eq!(words[0], "cargo", "{command}");
        let steps = ci_steps();
        let shown: Vec<Vec<String>> = steps
            .iter()
            .map(|step| {
                step.iter()
                    .map(|w| w.to_string_lossy().into_owned())
                    .collect()
            })
            .collect();
        assert!(
            shown.iter().any(|step| step == &words[1..]),
            "no CI step is `{command}`: {shown:?}"
        );
        assert!(
            !shown.iter().any(|step| step.iter().any(|w| w == "setup")),
            "CI sets up apart from the test command: {shown:?}"
        );
    }

    /// CI packages exactly the crates that may be published: every package
    /// of the workspace whose manifest does not say `publish = false`.
    #[test]
    fn ci_packages_every_publishable_crate_and_no_other() {
        let root = workspace_root();
        let mut manifests = vec![root.join("xtask/Cargo.toml")];
        for entry in std::fs::read_dir(root.join("crates")).expect("crates/") {
            let manifest = entry.expect("an entry").path().join("Cargo.toml");
            if manifest.is_file() {
                manifests.push(manifest);
            }
        }
        let mut publishable: Vec<String> = Vec::new();
        for manifest in manifests {
            let text = std::fs::read_to_string(&manifest).expect("a manifest");
            let name = text
                .lines()
                .find_map(|l| l.strip_prefix("name = \""))
                .and_then(|rest| rest.strip_suffix('"'))
                .unwrap_or_else(|| panic!("no name in {}", manifest.display()));
            if !text.lines().any(|l| l.trim() == "publish = false") {
                publishable.push(name.to_string());
            }
        }
        publishable.sort();
        let mut published: Vec<String> = PUBLISHED.iter().map(|s| s.to_string()).collect();
        published.sort();
        assert_eq!(published, publishable);
        let step: Vec<String> = package_step()
            .iter()
            .map(|w| w.to_string_lossy().into_owned())
            .collect();
        assert_eq!(step[..2], ["package", "--locked"]);
        for name in PUBLISHED {
            assert!(step.windows(2).any(|w| w == ["-p", *name]), "{step:?}");
        }
        assert!(ci_steps().contains(&package_step()));
    }

    /// In CI the tests build with the committed lock file and show every
    /// failing binary; elsewhere the user's arguments alone.
    #[test]
    fn the_test_step_is_locked_in_ci() {
        let words = |step: Vec<OsString>| -> Vec<String> {
            step.iter()
                .map(|w| w.to_string_lossy().into_owned())
                .collect()
        };
        assert_eq!(
            words(test_step(&[], true)),
            ["test", "--workspace", "--locked", "--no-fail-fast"]
        );
        assert_eq!(
            words(test_step(&["-p".into(), "xtask".into()], false)),
            ["test", "--workspace", "-p", "xtask"]
        );
    }
}
