//! `cargo xtask fuzz-replay`: builds the cargo-fuzz targets of `fuzz/`
//! with the workspace's stable toolchain and runs each one over every
//! input of `tests/fuzz-regressions/`, so the targets cannot rot outside
//! the workspace and every kept crash is replayed through the very code
//! `cargo fuzz` runs (CI runs it).
//!
//! `fuzz/` is its own workspace (cargo fuzz builds it with nightly and
//! sanitizers); built here without them, a target is a plain libFuzzer
//! program, which runs each file named on its command line once and exits
//! non-zero on a panic (the targets panic on an internal error too, through
//! `legalis::fuzz::pipeline`). It builds in the workspace's target folder,
//! with the same dependency versions (`fuzz/Cargo.lock`), so the compiled
//! dependencies are shared.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

/// The regression inputs the targets replay.
const REGRESSIONS: &str = "tests/fuzz-regressions";

pub fn main(args: &[std::ffi::OsString], root: &Path) -> ExitCode {
    if !args.is_empty() {
        eprintln!("xtask: error: fuzz-replay takes no arguments");
        return ExitCode::from(2);
    }
    match replay(root) {
        Ok(count) => {
            eprintln!("xtask: fuzz-replay: {count}");
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("xtask: fuzz-replay: error: {error}");
            ExitCode::FAILURE
        }
    }
}

/// The `[[bin]]` names of `fuzz/Cargo.toml`, in file order.
fn targets(manifest: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut in_bin = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_bin = line == "[[bin]]";
        } else if in_bin && let Some(value) = line.strip_prefix("name = ") {
            names.push(value.trim_matches('"').to_string());
        }
    }
    names
}

/// The regression inputs, sorted.
fn inputs(root: &Path) -> Result<Vec<PathBuf>, String> {
    let dir = root.join(REGRESSIONS);
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| format!("cannot read {REGRESSIONS}: {e}"))?
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|e| e == "slang"))
        .collect();
    inputs.sort();
    Ok(inputs)
}

fn replay(root: &Path) -> Result<String, String> {
    let manifest_path = root.join("fuzz").join("Cargo.toml");
    let manifest = std::fs::read_to_string(&manifest_path)
        .map_err(|e| format!("cannot read fuzz/Cargo.toml: {e}"))?;
    let targets = targets(&manifest);
    if targets.is_empty() {
        return Err("fuzz/Cargo.toml names no [[bin]] target".to_string());
    }
    let inputs = inputs(root)?;
    if inputs.is_empty() {
        return Err(format!("no .slang input in {REGRESSIONS}"));
    }
    let target_dir = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"));
    let target_dir = root.join(target_dir);
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    eprintln!("xtask: cargo build --locked --manifest-path fuzz/Cargo.toml --bins");
    let status = Command::new(&cargo)
        .args(["build", "--locked", "--manifest-path"])
        .arg(&manifest_path)
        .arg("--bins")
        .env("CARGO_TARGET_DIR", &target_dir)
        .current_dir(root)
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err(format!("building the fuzz targets failed ({status})"));
    }
    let mut failed = Vec::new();
    for target in &targets {
        let binary = target_dir.join("debug").join(target);
        let output = Command::new(&binary)
            .args(&inputs)
            .current_dir(root)
            .output()
            .map_err(|e| format!("cannot run {}: {e}", binary.display()))?;
        // libFuzzer says "Running: FILE" before and "Executed FILE" after
        // each input: every input must have run to its end.
        let log = String::from_utf8_lossy(&output.stderr);
        let executed = log.lines().filter(|l| l.starts_with("Executed ")).count();
        if !output.status.success() || executed != inputs.len() {
            let tail: Vec<&str> = log.lines().rev().take(30).collect();
            let tail: Vec<&str> = tail.into_iter().rev().collect();
            failed.push(format!(
                "target {target}: {} ({executed} of {} inputs executed)\n{}",
                output.status,
                inputs.len(),
                tail.join("\n")
            ));
        }
    }
    if failed.is_empty() {
        Ok(format!(
            "{} targets each ran the {} inputs of {REGRESSIONS} without a panic or an internal error",
            targets.len(),
            inputs.len()
        ))
    } else {
        Err(failed.join("\n\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every target of the fuzz manifest is found, so none is left out of
    /// the replay.
    #[test]
    fn every_fuzz_target_of_the_manifest_is_replayed() {
        let root = crate::workspace_root();
        let manifest = std::fs::read_to_string(root.join("fuzz/Cargo.toml")).unwrap();
        let names = targets(&manifest);
        assert_eq!(names, ["front", "glsl", "spirv", "wgsl", "metal", "cuda"]);
        for name in &names {
            assert!(
                root.join("fuzz/fuzz_targets")
                    .join(format!("{name}.rs"))
                    .is_file(),
                "{name}"
            );
        }
        assert!(!inputs(&root).unwrap().is_empty());
    }
}
