//! What the tests need beyond cargo, installed when missing: `cargo xtask
//! setup` installs all of it, and `cargo xtask test` (the README's test
//! command) and `cargo xtask test legalize` install what they need before
//! they run, saying what they install, so a fresh clone passes with
//! nothing run first.
//!
//! - headless Chromium (`chromium.rs`), from apt as root, for the test that
//!   opens the drift report;
//! - nvcc and the OptiX headers (`cuda.rs`), pip wheels into a cache
//!   folder, which compile every CUDA output;
//! - LLVM's FileCheck (`llvm.rs`), from apt as root, which the FileCheck
//!   differential test compares the project's checker with;
//! - clang 19 (`clang.rs`), from apt as root, which the Metal checker
//!   (`cargo xtask check-metal`) and its tests run.

use std::process::ExitCode;

/// One tool the tests need.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Need {
    Chromium,
    Cuda,
    FileCheck,
    Clang,
}

impl Need {
    /// Everything `cargo test --workspace` needs.
    pub const ALL: [Need; 4] = [Need::Chromium, Need::Cuda, Need::FileCheck, Need::Clang];
    /// What the characterization suite needs: nvcc for its CUDA outputs,
    /// clang for the Metal checker on its Metal outputs.
    pub const SUITE: [Need; 2] = [Need::Cuda, Need::Clang];

    /// Installs the tool when missing, checks that it runs and says where
    /// it is.
    fn ensure(self) -> Result<String, String> {
        match self {
            Need::Chromium => {
                let path = crate::chromium::ensure()?;
                crate::chromium::smoke_test(&path)?;
                Ok(format!("headless Chromium is {} and runs", path.display()))
            }
            Need::Cuda => {
                let toolchain = crate::cuda::ensure()?;
                crate::cuda::smoke_test(&toolchain)?;
                Ok(format!(
                    "nvcc is {} and compiles OptiX code",
                    toolchain.nvcc.display()
                ))
            }
            Need::FileCheck => {
                let path = crate::llvm::ensure()?;
                Ok(format!("LLVM FileCheck is {}", path.display()))
            }
            Need::Clang => {
                let path = crate::clang::ensure()?;
                Ok(format!("clang is {}", path.display()))
            }
        }
    }
}

/// Installs each of `needs` when missing; prints one line per tool and
/// returns false when any is still missing (the errors say how to install
/// it).
pub fn ensure(needs: &[Need]) -> bool {
    let mut ready = true;
    for need in needs {
        match need.ensure() {
            Ok(line) => eprintln!("setup: {line}"),
            Err(error) => {
                eprintln!("setup: error: {error}");
                ready = false;
            }
        }
    }
    ready
}

/// `cargo xtask setup`.
pub fn main(args: &[std::ffi::OsString]) -> ExitCode {
    if !args.is_empty() {
        eprintln!("xtask: error: setup takes no arguments");
        return ExitCode::from(2);
    }
    if ensure(&Need::ALL) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
