//! `cargo xtask check-metal PATH...`: Metal Shading Language checked on
//! Linux. No Metal compiler runs here, so clang compiles each file
//! (`-fsyntax-only`) against the project's model of `metal_stdlib`
//! (`crates/validate/metal-model/`, run by `legalis_validate::metal`, which
//! the suite's validators share), written from the Metal Shading Language
//! specification: vectors and matrices, the address spaces as real address
//! spaces, textures with the methods each kind has, the function library
//! with its overload sets. clang reads the source as C++ for OpenCL 2021
//! (C++17 with OpenCL's address spaces, which member functions may be
//! qualified with, as Metal's may); see the model's header comment and
//! `docs/design/pipeline/metal-legalization.md` ("The Metal checker") for
//! what it models and what it does not.
//!
//! A PATH that is a folder is walked for every regular file in it, at any
//! depth, whatever its extension (corpora name Metal files after their
//! stage: `.frag`, `.vert`, `.comp` ...). One line per rejected file with
//! clang's first error, then `N accepted, M rejected`; the exit status is 0
//! only when every file is accepted.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Every regular file under `path` (itself when it is a file), sorted.
pub fn collect(path: &Path, into: &mut Vec<PathBuf>) -> Result<(), String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if meta.is_file() {
        into.push(path.to_path_buf());
        return Ok(());
    }
    let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
        .map_err(|e| format!("{}: {e}", path.display()))?
        .map(|entry| entry.map(|e| e.path()))
        .collect::<Result<_, _>>()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    entries.sort();
    for entry in entries {
        let meta = std::fs::metadata(&entry).map_err(|e| format!("{}: {e}", entry.display()))?;
        if meta.is_dir() || meta.is_file() {
            collect(&entry, into)?;
        }
    }
    Ok(())
}

/// Checks every file on as many threads as there are cores; the verdicts
/// in the files' order.
pub fn check_all(clang: &Path, files: &[PathBuf]) -> Vec<Result<(), String>> {
    let next = AtomicUsize::new(0);
    let verdicts: Mutex<Vec<Option<Result<(), String>>>> = Mutex::new(vec![None; files.len()]);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|scope| {
        for _ in 0..threads.min(files.len().max(1)) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(file) = files.get(i) else { break };
                    let verdict = legalis_validate::metal::check_file(clang, file);
                    verdicts.lock().expect("no thread panicked")[i] = Some(verdict);
                }
            });
        }
    });
    verdicts
        .into_inner()
        .expect("no thread panicked")
        .into_iter()
        .map(|verdict| verdict.expect("every file checked"))
        .collect()
}

/// `cargo xtask check-metal PATH...`.
pub fn main(args: &[OsString]) -> ExitCode {
    if args.is_empty() || args.iter().any(|a| a == "--help" || a == "-h") {
        eprintln!(
            "Usage: cargo xtask check-metal PATH...\n\n\
             Checks Metal source with clang against the project's model of metal_stdlib \
             (crates/validate/metal-model). A folder is walked for every regular file in it. Prints one line \
             per rejected file with clang's first error, then `N accepted, M rejected`; \
             exits 0 only when every file is accepted."
        );
        return ExitCode::from(2);
    }
    let mut files = Vec::new();
    for arg in args {
        if let Err(error) = collect(Path::new(arg), &mut files) {
            eprintln!("xtask: error: {error}");
            return ExitCode::from(2);
        }
    }
    let clang = match legalis_validate::metal::find_clang() {
        Ok(clang) => clang,
        Err(error) => {
            eprintln!("xtask: error: {error}");
            return ExitCode::FAILURE;
        }
    };
    let verdicts = check_all(&clang, &files);
    let mut rejected = 0;
    for (file, verdict) in files.iter().zip(&verdicts) {
        if let Err(error) = verdict {
            rejected += 1;
            println!("{}: {error}", file.display());
        }
    }
    println!("{} accepted, {rejected} rejected", files.len() - rejected);
    if rejected == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root() -> PathBuf {
        crate::workspace_root()
    }

    /// clang, or a failure that says how to install it: the tests below
    /// never skip.
    fn clang() -> PathBuf {
        legalis_validate::metal::find_clang().unwrap_or_else(|error| {
            panic!("the Metal checker's tests need clang; `cargo xtask test` installs it: {error}")
        })
    }

    /// The `.metal` files of a folder of the repository, sorted.
    fn metal_files(folder: &str) -> Vec<PathBuf> {
        let mut files = Vec::new();
        collect(&root().join(folder), &mut files).expect(folder);
        files.retain(|f| f.extension().is_some_and(|e| e == "metal"));
        files
    }

    /// Every file of the catalogue of invalid Metal is rejected, with the
    /// error its first line expects (`// expect: MESSAGE`).
    #[test]
    fn the_catalogue_of_invalid_metal_is_rejected_with_the_expected_errors() {
        let clang = clang();
        let files = metal_files("tests/metal-invalid");
        assert!(files.len() >= 10, "the catalogue lost files: {files:?}");
        let mut checked = 0;
        let mut failures = Vec::new();
        for (file, verdict) in files.iter().zip(check_all(&clang, &files)) {
            let text = std::fs::read_to_string(file).expect("catalogue file");
            let expect = text
                .lines()
                .next()
                .and_then(|line| line.strip_prefix("// expect: "))
                .unwrap_or_else(|| panic!("{}: no `// expect: ` first line", file.display()))
                .trim();
            assert!(!expect.is_empty(), "{}: empty expectation", file.display());
            match verdict {
                Ok(()) => failures.push(format!("{}: accepted", file.display())),
                Err(error) if !error.contains(expect) => failures.push(format!(
                    "{}: expected `{expect}`, clang said `{error}`",
                    file.display()
                )),
                Err(_) => {}
            }
            checked += 1;
        }
        assert_eq!(checked, files.len(), "every catalogue file was checked");
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    /// Valid Metal of our own is accepted: the catalogue's rejections are
    /// the defects', not the model's.
    #[test]
    fn valid_metal_is_accepted() {
        let clang = clang();
        let files = metal_files("tests/metal-valid");
        assert!(files.len() >= 3, "the valid sample lost files: {files:?}");
        let verdicts = check_all(&clang, &files);
        assert_eq!(verdicts.len(), files.len());
        let failures: Vec<String> = files
            .iter()
            .zip(verdicts)
            .filter_map(|(file, verdict)| verdict.err().map(|e| format!("{}: {e}", file.display())))
            .collect();
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    /// A folder is walked for every regular file, whatever its extension.
    #[test]
    fn folders_are_walked_for_every_file() {
        let dir =
            std::env::temp_dir().join(format!("legalis-metal-collect-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(dir.join("a.metal"), "").unwrap();
        std::fs::write(dir.join("sub/b.frag"), "").unwrap();
        let mut files = Vec::new();
        collect(&dir, &mut files).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        let names: Vec<_> = files
            .iter()
            .map(|f| f.file_name().unwrap().to_owned())
            .collect();
        assert_eq!(names, ["a.metal", "b.frag"]);
    }
}
