//! LLVM's own FileCheck, which the differential test
//! (`tests/filecheck_vs_llvm.rs`) compares this checker with and
//! `cargo xtask setup` installs (`xtask/src/llvm.rs`): one search for both.
//!
//! This checker follows LLVM 19's FileCheck (misspelled directives such as
//! `CHECK_NEXT:` are errors only since LLVM 15, for one), so an older
//! FileCheck found first (Debian's `FileCheck-14`, say) is passed over, not
//! compared with.

use std::path::PathBuf;
use std::process::Command;

/// The oldest LLVM whose FileCheck this checker follows.
pub const MIN_VERSION: u32 = 19;

/// The Debian package that carries it.
pub const PACKAGE: &str = "llvm-19-tools";

/// The major version a FileCheck prints with `--version` (`LLVM version
/// 19.1.7`), if it runs.
pub fn version(program: &std::path::Path) -> Option<u32> {
    let output = Command::new(program).arg("--version").output().ok()?;
    if !output.status.success() {
        return None;
    }
    let text = String::from_utf8_lossy(&output.stdout);
    let after = text.split("LLVM version ").nth(1)?;
    after.split('.').next()?.trim().parse().ok()
}

/// The candidates, in order: `$LLVM_FILECHECK`, `FileCheck` and
/// `FileCheck-N` on `PATH` (highest N first), Debian's
/// `/usr/lib/llvm-N/bin/FileCheck`.
fn candidates() -> Vec<PathBuf> {
    let mut candidates: Vec<PathBuf> = std::env::var_os("LLVM_FILECHECK")
        .filter(|p| !p.is_empty())
        .map(PathBuf::from)
        .into_iter()
        .collect();
    candidates.push(PathBuf::from("FileCheck"));
    for n in (MIN_VERSION..=40).rev() {
        candidates.push(PathBuf::from(format!("FileCheck-{n}")));
        candidates.push(PathBuf::from(format!("/usr/lib/llvm-{n}/bin/FileCheck")));
    }
    candidates
}

/// LLVM's FileCheck of version [`MIN_VERSION`] or newer, or why there is
/// none (what was found too old, and how to install it).
pub fn find() -> Result<PathBuf, String> {
    let mut too_old = Vec::new();
    for candidate in candidates() {
        match version(&candidate) {
            Some(v) if v >= MIN_VERSION => return Ok(candidate),
            Some(v) => too_old.push(format!("{} is LLVM {v}", candidate.display())),
            None => {}
        }
    }
    let found = if too_old.is_empty() {
        String::new()
    } else {
        format!(" ({})", too_old.join(", "))
    };
    Err(format!(
        "LLVM's FileCheck {MIN_VERSION} or newer is missing{found}: not $LLVM_FILECHECK, \
         FileCheck or FileCheck-N on PATH, nor /usr/lib/llvm-N/bin/FileCheck. Install it: \
         `cargo xtask setup` as root, or `apt-get install -y --no-install-recommends {PACKAGE}` \
         (Debian 12), or set LLVM_FILECHECK to its path"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The version `find` compares with MIN_VERSION is the one the binary
    /// prints (Debian's FileCheck-14 passed for LLVM's before it was read).
    #[test]
    fn the_version_is_read_from_the_binary() {
        let dir = std::env::temp_dir().join(format!("legalis-llvm-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let old = dir.join("FileCheck");
        std::fs::write(&old, "#!/bin/sh\necho 'Debian LLVM version 14.0.6'\n").unwrap();
        let status = Command::new("chmod").arg("+x").arg(&old).status().unwrap();
        assert!(status.success());
        assert_eq!(version(&old), Some(14));
        assert_eq!(version(&dir.join("missing")), None);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
