//! clang, which `cargo xtask check-metal` (`metal_check.rs`) compiles Metal
//! source with against the project's model of `metal_stdlib`: found as
//! `$LEGALIS_CLANG`, `clang-N` or `clang` on PATH or `/usr/lib/llvm-N/bin/clang`
//! of version 19 or newer (the model needs C++ for OpenCL 2021 and clang
//! 19's template handling of its address spaces) and, when missing and
//! root, installed with apt (Debian's `clang-19`), as `llvm.rs` installs
//! FileCheck.

use std::path::PathBuf;
use std::process::Command;

use crate::chromium::{apt, is_root};

/// The Debian package.
pub const PACKAGE: &str = "clang-19";
/// The oldest clang the model is checked with.
const MIN_VERSION: u32 = 19;

/// Where clang may be, in order.
fn candidates() -> Vec<PathBuf> {
    let mut candidates: Vec<PathBuf> = std::env::var_os("LEGALIS_CLANG")
        .filter(|p| !p.is_empty())
        .map(PathBuf::from)
        .into_iter()
        .collect();
    for n in (MIN_VERSION..=40).rev() {
        candidates.push(PathBuf::from(format!("clang-{n}")));
        candidates.push(PathBuf::from(format!("/usr/lib/llvm-{n}/bin/clang")));
    }
    candidates.push(PathBuf::from("clang"));
    candidates
}

/// The major version `clang --version` prints, when it runs.
fn version(clang: &PathBuf) -> Option<u32> {
    let output = Command::new(clang).arg("--version").output().ok()?;
    if !output.status.success() {
        return None;
    }
    let text = String::from_utf8_lossy(&output.stdout);
    let after = text.split("clang version ").nth(1)?;
    after.split('.').next()?.trim().parse().ok()
}

/// clang of version 19 or newer, or why there is none.
pub fn find() -> Result<PathBuf, String> {
    let mut too_old = Vec::new();
    for candidate in candidates() {
        match version(&candidate) {
            Some(v) if v >= MIN_VERSION => return Ok(candidate),
            Some(v) => too_old.push(format!("{} is clang {v}", candidate.display())),
            None => {}
        }
    }
    let found = if too_old.is_empty() {
        String::new()
    } else {
        format!(" ({})", too_old.join(", "))
    };
    Err(format!(
        "clang {MIN_VERSION} or newer is missing{found}: not $LEGALIS_CLANG, clang-N or clang on \
         PATH, nor /usr/lib/llvm-N/bin/clang. The Metal checker runs it. Install it: `cargo xtask \
         setup` as root, or `apt-get install -y --no-install-recommends {PACKAGE}` (Debian 12), \
         or set LEGALIS_CLANG to its path"
    ))
}

/// clang, installed with apt first when it is missing and we are root.
pub fn ensure() -> Result<PathBuf, String> {
    let missing = match find() {
        Ok(path) => return Ok(path),
        Err(missing) => missing,
    };
    if !is_root() {
        return Err(missing);
    }
    eprintln!(
        "xtask: clang {MIN_VERSION} is missing; installing it: apt-get update && apt-get install -y --no-install-recommends {PACKAGE}"
    );
    apt(&["update"])?;
    apt(&["install", "-y", "--no-install-recommends", PACKAGE])?;
    find().map_err(|error| format!("apt-get installed {PACKAGE}, but: {error}"))
}
