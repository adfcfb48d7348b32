//! `legalis-gpu [DIR]`: runs the execution tests staged in DIR (default:
//! the folder holding this binary) on the first Vulkan device and prints
//! one line per case. Exit status: 0 when none failed, 1 when one failed,
//! 2 when the cases or a Vulkan device could not be had.
//!
//! `legalis-gpu --stage DIR` (builds with the default `compile` feature
//! only): compiles every case with Legalis and writes the SPIR-V and the
//! manifest into DIR; `cargo xtask gpu` runs it.

#![forbid(unsafe_code)]

use std::path::PathBuf;
use std::process::ExitCode;

use legalis_gpu::vk::{Outcome, Runner};
use legalis_gpu::{MANIFEST, Manifest};

fn main() -> ExitCode {
    #[cfg(feature = "compile")]
    if std::env::args_os().nth(1).is_some_and(|a| a == "--stage") {
        let Some(dir) = std::env::args_os().nth(2) else {
            eprintln!("legalis-gpu: --stage needs a folder");
            return ExitCode::from(2);
        };
        return match legalis_gpu::stage::stage(std::path::Path::new(&dir)) {
            Ok(manifest) => {
                println!(
                    "legalis-gpu: staged {} cases in {}",
                    manifest.cases.len(),
                    PathBuf::from(dir).display()
                );
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("legalis-gpu: {e}");
                ExitCode::from(2)
            }
        };
    }
    let dir = match std::env::args_os().nth(1) {
        Some(dir) => PathBuf::from(dir),
        None => std::env::current_exe()
            .ok()
            .and_then(|exe| exe.parent().map(PathBuf::from))
            .unwrap_or_else(|| PathBuf::from(".")),
    };
    let manifest: Manifest = match std::fs::read_to_string(dir.join(MANIFEST))
        .map_err(|e| e.to_string())
        .and_then(|text| serde_json::from_str(&text).map_err(|e| e.to_string()))
    {
        Ok(manifest) => manifest,
        Err(e) => {
            eprintln!("legalis-gpu: {}: {e}", dir.join(MANIFEST).display());
            return ExitCode::from(2);
        }
    };
    let runner = match Runner::new() {
        Ok(runner) => runner,
        Err(e) => {
            eprintln!("legalis-gpu: {e}");
            return ExitCode::from(2);
        }
    };
    println!("device: {}", runner.description);
    println!("features: {}", runner.feature_report);
    let (mut passed, mut failed, mut skipped) = (0, 0, 0);
    for case in &manifest.cases {
        let spirv: Result<Vec<Vec<u32>>, String> = case
            .shaders
            .iter()
            .map(|s| {
                std::fs::read(dir.join(&s.file))
                    .map(|b| {
                        b.chunks_exact(4)
                            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
                            .collect()
                    })
                    .map_err(|e| format!("{}: {e}", s.file))
            })
            .collect();
        let outcome = match spirv {
            Ok(spirv) => runner.run(case, &spirv),
            Err(e) => Outcome::Failed(e),
        };
        match outcome {
            Outcome::Passed => {
                passed += 1;
                println!(
                    "PASS {}: {} ({} words)",
                    case.name,
                    case.purpose,
                    case.expect.len()
                );
            }
            Outcome::Control(why) => {
                passed += 1;
                println!(
                    "PASS {} (negative control: {why}): {}",
                    case.name, case.purpose
                );
            }
            Outcome::Failed(why) => {
                failed += 1;
                println!("FAIL {}: {}\n  {why}", case.name, case.purpose);
            }
            Outcome::Skipped(why) => {
                skipped += 1;
                println!("SKIP {}: {why}", case.name);
            }
        }
    }
    println!("{passed} passed, {failed} failed, {skipped} skipped");
    if failed > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
