//! Where the characterization suite and its paperwork live, and the digest
//! of the watched paths: one place, so tidy, coverage and drift agree.

use std::path::{Path, PathBuf};

/// The legalizer sources the suite characterizes: coverage is measured on
/// them, drift review watches them, and the README's digest covers them.
pub const WATCHED_PATHS: &[&str] = &["crates/legalize", "crates/sysval"];

/// Crates the suite also characterizes whose coverage is not measured yet:
/// tests may name them in `covers`, but they have no floor and no digest
/// (`crates/bind`, the binding plan, until a coverage run adds it to
/// [`WATCHED_PATHS`]).
pub const CHARACTERIZED_PATHS: &[&str] = &["crates/bind"];

pub const TESTS_DIR: &str = "tests/legalize";
pub const SNAPSHOTS_DIR: &str = "snapshots/legalize";
pub const README: &str = "docs/tests/coverage/legalize/README.md";
pub const FINDINGS_DIR: &str = "docs/tests/findings";

/// Every file under the watched paths, repository-relative with `/`
/// separators, sorted; build output and hidden files are not sources.
pub fn watched_files(root: &Path) -> std::io::Result<Vec<String>> {
    let mut files = Vec::new();
    for watched in WATCHED_PATHS {
        collect(root, &root.join(watched), &mut files)?;
    }
    files.sort();
    Ok(files)
}

fn collect(root: &Path, dir: &Path, files: &mut Vec<String>) -> std::io::Result<()> {
    if !dir.exists() {
        return Ok(());
    }
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        if name
            .as_deref()
            .is_none_or(|n| n.starts_with('.') || n == "target")
        {
            continue;
        }
        if path.is_dir() {
            collect(root, &path, files)?;
        } else {
            files.push(relative(root, &path));
        }
    }
    Ok(())
}

/// `path` relative to `root`, `/`-separated.
pub fn relative(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    parts.join("/")
}

/// A stable digest of the watched files' paths and contents: 64-bit FNV-1a
/// over `path NUL contents NUL` in sorted order. Not cryptographic; it only
/// has to change when a watched file does, identically on every machine.
pub fn watched_digest(root: &Path) -> std::io::Result<String> {
    let mut hash = Fnv::default();
    for file in watched_files(root)? {
        hash.write(file.as_bytes());
        hash.write(&[0]);
        hash.write(&std::fs::read(root.join(&file))?);
        hash.write(&[0]);
    }
    Ok(format!("fnv1a64:{:016x}", hash.0))
}

struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 ^= u64::from(byte);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// The test files of the suite, repository-relative, sorted.
pub fn test_files(root: &Path) -> std::io::Result<Vec<PathBuf>> {
    let files = legalis_testkit::runner::test_files(&root.join(TESTS_DIR), None)?;
    Ok(files
        .iter()
        .map(|f| PathBuf::from(relative(root, f)))
        .collect())
}

/// A scratch folder for tests, removed on drop.
#[cfg(test)]
pub struct Scratch(pub PathBuf);

#[cfg(test)]
impl Scratch {
    pub fn new(tag: &str) -> Scratch {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("xtask-{tag}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create scratch folder");
        Scratch(dir)
    }

    pub fn write(&self, rel: &str, text: &str) {
        let path = self.0.join(rel);
        std::fs::create_dir_all(path.parent().expect("has a parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }
}

#[cfg(test)]
impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_digest_changes_with_a_watched_file_and_only_then() {
        let tree = Scratch::new("digest");
        tree.write("crates/sysval/src/lib.rs", "fn a() {}\n");
        tree.write("crates/other/src/lib.rs", "fn b() {}\n");
        let first = watched_digest(&tree.0).unwrap();
        tree.write("crates/other/src/lib.rs", "fn c() {}\n");
        assert_eq!(watched_digest(&tree.0).unwrap(), first);
        tree.write("crates/sysval/src/lib.rs", "fn a() { }\n");
        assert_ne!(watched_digest(&tree.0).unwrap(), first);
    }
}

/// One thing a checker found wrong, with where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Repository-relative file.
    pub file: String,
    /// 1-based line; 0 when the problem is the file as a whole.
    pub line: usize,
    pub message: String,
}

impl Problem {
    pub fn new(file: impl Into<String>, line: usize, message: impl Into<String>) -> Problem {
        Problem {
            file: file.into(),
            line,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            0 => write!(f, "{}: {}", self.file, self.message),
            line => write!(f, "{}:{line}: {}", self.file, self.message),
        }
    }
}
