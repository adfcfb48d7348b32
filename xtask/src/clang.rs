//! clang, which `cargo xtask check-metal` (`metal_check.rs`) compiles Metal
//! source with against the project's model of `metal_stdlib`: found as
//! `$LEGALIS_CLANG`, `clang-N` or `clang` on PATH or `/usr/lib/llvm-N/bin/clang`
//! of version 19 or newer (the model needs C++ for OpenCL 2021 and clang
//! 19's template handling of its address spaces) and, when missing and
//! root, installed with apt (Debian's `clang-19`), as `llvm.rs` installs
//! FileCheck.

use std::path::PathBuf;

use legalis_validate::metal::{CLANG_PACKAGE, find_clang};

use crate::chromium::{apt, is_root};

/// clang, installed with apt first when it is missing and we are root.
pub fn ensure() -> Result<PathBuf, String> {
    let missing = match find_clang() {
        Ok(path) => return Ok(path),
        Err(missing) => missing,
    };
    if !is_root() {
        return Err(missing);
    }
    eprintln!(
        "xtask: clang is missing; installing it: apt-get update && apt-get install -y --no-install-recommends {CLANG_PACKAGE}"
    );
    apt(&["update"])?;
    apt(&["install", "-y", "--no-install-recommends", CLANG_PACKAGE])?;
    find_clang().map_err(|error| format!("apt-get installed {CLANG_PACKAGE}, but: {error}"))
}
