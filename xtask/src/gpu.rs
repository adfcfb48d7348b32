//! `cargo xtask gpu`: stages the GPU execution tests (crates/gpu) for a
//! machine with a Vulkan device.
//!
//! Here: compiles every case with Legalis to SPIR-V and writes it with the
//! manifest of pipelines and expected words (`legalis-gpu --stage`), builds
//! the runner in release without the compiler (`--no-default-features`:
//! ash and the manifest reader only) and copies it beside them. The folder
//! is self-contained: on the GPU machine, `./legalis-gpu` in it runs every
//! case (docs/design/gpu-execution-tests.md). `--run` also runs it here,
//! for a machine that has both Rust and a GPU.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

pub fn main(args: &[OsString], root: &Path) -> ExitCode {
    let mut out: Option<PathBuf> = None;
    let mut run = false;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.to_str() {
            Some("--out") => match args.next() {
                Some(dir) => out = Some(PathBuf::from(dir)),
                None => return fail("--out needs a folder"),
            },
            Some("--run") => run = true,
            _ => return fail(&format!("unknown argument {}", arg.to_string_lossy())),
        }
    }
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"));
    let target = if target.is_absolute() {
        target
    } else {
        root.join(target)
    };
    let out = out.unwrap_or_else(|| target.join("gpu"));
    let out = if out.is_absolute() {
        out
    } else {
        root.join(out)
    };
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let steps: [Vec<OsString>; 2] = [
        vec![
            "run".into(),
            "--quiet".into(),
            "-p".into(),
            "legalis-gpu".into(),
            "--".into(),
            "--stage".into(),
            out.clone().into(),
        ],
        [
            "build",
            "--release",
            "-p",
            "legalis-gpu",
            "--no-default-features",
        ]
        .map(OsString::from)
        .to_vec(),
    ];
    for step in &steps {
        let shown: Vec<_> = step.iter().map(|w| w.to_string_lossy()).collect();
        eprintln!("xtask: cargo {}", shown.join(" "));
        match Command::new(&cargo).args(step).current_dir(root).status() {
            Ok(status) if status.success() => {}
            Ok(status) => return fail(&format!("cargo {} failed ({status})", shown.join(" "))),
            Err(e) => return fail(&format!("cannot run cargo: {e}")),
        }
    }
    let binary = target.join("release").join("legalis-gpu");
    if let Err(e) = std::fs::copy(&binary, out.join("legalis-gpu")) {
        return fail(&format!("{}: {e}", binary.display()));
    }
    eprintln!(
        "xtask: staged in {0}; on a machine with a Vulkan device run {0}/legalis-gpu",
        out.display()
    );
    if !run {
        return ExitCode::SUCCESS;
    }
    match Command::new(out.join("legalis-gpu")).arg(&out).status() {
        Ok(status) if status.success() => ExitCode::SUCCESS,
        Ok(status) => fail(&format!("legalis-gpu failed ({status})")),
        Err(e) => fail(&format!("cannot run legalis-gpu: {e}")),
    }
}

fn fail(message: &str) -> ExitCode {
    eprintln!("xtask: gpu: {message}");
    ExitCode::FAILURE
}
