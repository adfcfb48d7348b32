//! LLVM's FileCheck, which `crates/testkit/tests/filecheck_vs_llvm.rs`
//! compares the project's FileCheck with: found by the testkit's own search
//! (`legalis_testkit::filecheck::llvm`: version 19 or newer) and, when
//! missing and root, installed with apt (`llvm-19-tools`), as `chromium.rs`
//! installs Chromium.

use std::path::PathBuf;

use legalis_testkit::filecheck::llvm::{PACKAGE, find};

use crate::chromium::{apt, is_root};

/// LLVM's FileCheck, installed with apt first when it is missing and we
/// are root.
pub fn ensure() -> Result<PathBuf, String> {
    let missing = match find() {
        Ok(path) => return Ok(path),
        Err(missing) => missing,
    };
    if !is_root() {
        return Err(format!(
            "{missing}. The FileCheck differential test runs it. Install it (Debian: `sudo \
             apt-get install --no-install-recommends {PACKAGE}`), or run `cargo xtask setup` as root"
        ));
    }
    eprintln!(
        "xtask: LLVM's FileCheck 19 is missing; installing it: apt-get update && apt-get install -y --no-install-recommends {PACKAGE}"
    );
    apt(&["update"])?;
    apt(&["install", "-y", "--no-install-recommends", PACKAGE])?;
    find().map_err(|error| format!("apt-get installed {PACKAGE}, but: {error}"))
}
