//! LLVM's FileCheck, which `crates/testkit/tests/filecheck_vs_llvm.rs`
//! compares the project's FileCheck with. Found as `$LLVM_FILECHECK`,
//! `FileCheck` or `FileCheck-N` on `PATH`, or Debian's
//! `/usr/lib/llvm-N/bin/FileCheck`; when missing and root, installed with
//! apt (`llvm-19-tools`), as `chromium.rs` installs Chromium.

use std::path::PathBuf;

use crate::chromium::{apt, is_root, on_path};

/// The Debian package that carries FileCheck.
pub const PACKAGE: &str = "llvm-19-tools";

/// LLVM's FileCheck, if installed.
pub fn find() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("LLVM_FILECHECK").filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(path));
    }
    if let Some(path) = on_path("FileCheck") {
        return Some(path);
    }
    (14..=30).rev().find_map(|n| {
        on_path(&format!("FileCheck-{n}")).or_else(|| {
            let path = PathBuf::from(format!("/usr/lib/llvm-{n}/bin/FileCheck"));
            path.is_file().then_some(path)
        })
    })
}

/// LLVM's FileCheck, installed with apt first when it is missing and we
/// are root.
pub fn ensure() -> Result<PathBuf, String> {
    if let Some(path) = find() {
        return Ok(path);
    }
    if !is_root() {
        return Err(format!(
            "LLVM's FileCheck is missing (not $LLVM_FILECHECK, FileCheck or FileCheck-N on PATH, \
             nor /usr/lib/llvm-N/bin/FileCheck). The FileCheck differential test runs it. \
             Install it (Debian: `sudo apt-get install --no-install-recommends {PACKAGE}`), or \
             run `cargo xtask setup` as root"
        ));
    }
    eprintln!(
        "xtask: LLVM's FileCheck is missing; installing it: apt-get update && apt-get install -y --no-install-recommends {PACKAGE}"
    );
    apt(&["update"])?;
    apt(&["install", "-y", "--no-install-recommends", PACKAGE])?;
    find().ok_or_else(|| format!("apt-get installed {PACKAGE} but no FileCheck is found"))
}
