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
//!
//! The OptiX test is staged in `optix/` inside the folder (Legalis' CUDA
//! outputs, the expected words, our host program and `run.sh`); the OptiX
//! headers, which may not be committed, are copied there from the cache
//! `cargo xtask setup` fills, and `optix/run.sh` builds and runs it with
//! the GPU machine's nvcc.

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
    match legalis_validate::cuda::Toolchain::find() {
        Ok(toolchain) => {
            if let Err(e) = copy_dir(&toolchain.optix_include, &out.join("optix").join("include")) {
                return fail(&format!("copying the OptiX headers: {e}"));
            }
        }
        Err(e) => eprintln!(
            "xtask: gpu: no OptiX headers to stage ({e}); optix/run.sh then needs OPTIX_INCLUDE"
        ),
    }
    eprintln!(
        "xtask: staged in {0}; on a machine with a Vulkan device run {0}/legalis-gpu, \
         with the NVIDIA driver and nvcc sh {0}/optix/run.sh",
        out.display()
    );
    if !run {
        return ExitCode::SUCCESS;
    }
    match Command::new(out.join("legalis-gpu")).arg(&out).status() {
        Ok(status) if status.success() => {}
        Ok(status) => return fail(&format!("legalis-gpu failed ({status})")),
        Err(e) => return fail(&format!("cannot run legalis-gpu: {e}")),
    }
    match Command::new("sh")
        .arg(out.join("optix").join("run.sh"))
        .status()
    {
        Ok(status) if status.success() => ExitCode::SUCCESS,
        Ok(status) => fail(&format!("optix/run.sh failed ({status})")),
        Err(e) => fail(&format!("cannot run optix/run.sh: {e}")),
    }
}

/// Copies the files of `from` into `to`, folders included.
fn copy_dir(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        if entry.file_type()?.is_dir() {
            copy_dir(&entry.path(), &to.join(entry.file_name()))?;
        } else {
            std::fs::copy(entry.path(), to.join(entry.file_name()))?;
        }
    }
    Ok(())
}

fn fail(message: &str) -> ExitCode {
    eprintln!("xtask: gpu: {message}");
    ExitCode::FAILURE
}
