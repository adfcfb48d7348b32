//! The Metal checker: Metal source compiled by clang (`-fsyntax-only`)
//! against `metal-model/`, the project's model of `metal_stdlib` written
//! from the Metal Shading Language specification (no Metal compiler runs
//! on Linux). It is a model: what it accepts Apple's compiler may still
//! refuse, and `docs/design/pipeline/metal-legalization.md` says how close
//! it is measured to be.
//!
//! `cargo xtask check-metal` runs it on files; the characterization suite
//! and the corpus tests run it on every Metal output ([`check_source`]).

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The Debian package that provides a clang the model works with.
pub const CLANG_PACKAGE: &str = "clang-19";
/// The oldest clang the model is checked with (C++ for OpenCL 2021 and
/// clang 19's template handling of its address spaces).
const MIN_VERSION: u32 = 19;

/// clang's arguments besides the model's folder and the input.
///
/// - `-x clcpp -cl-std=clc++2021`: C++17 with OpenCL's address spaces,
///   which stand for Metal's (`thread`, `device`, `constant`,
///   `threadgroup`), so a reference cannot bind across them;
/// - `-cl-no-stdinc -nostdinc`: no OpenCL or system header, only the model;
/// - no `double` (Metal has none; an unsuffixed literal is a float);
/// - program-scope `__global` variables, as the model's `constant` is
///   `const __global`;
/// - `-Wno-unknown-attributes`: Metal's attributes (`[[buffer(0)]]` ...)
///   are parsed and not checked;
/// - `-Werror=missing-declarations`: a keyword used as a name
///   (`float4 thread;`) declares nothing, an error as in Metal;
/// - `-Wno-c++11-narrowing`: `int2(u, v)` of `uint`s converts, as in Metal.
pub const FLAGS: &[&str] = &[
    "-fsyntax-only",
    "-x",
    "clcpp",
    "-cl-std=clc++2021",
    "-cl-no-stdinc",
    "-nostdinc",
    "-Xclang",
    "-cl-ext=-cl_khr_fp64,-__opencl_c_fp64,+__opencl_c_program_scope_global_variables",
    "-Wno-unknown-attributes",
    "-Werror=missing-declarations",
    "-Wno-c++11-narrowing",
    "-ferror-limit=1",
    "-fno-color-diagnostics",
];

/// The model's folder (`crates/validate/metal-model`).
fn model_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("metal-model")
}

/// Where clang may be, in order: `$LEGALIS_CLANG`, `clang-N` on PATH,
/// `/usr/lib/llvm-N/bin/clang`, `clang`.
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
fn version(clang: &Path) -> Option<u32> {
    let output = Command::new(clang).arg("--version").output().ok()?;
    if !output.status.success() {
        return None;
    }
    let text = String::from_utf8_lossy(&output.stdout);
    let after = text.split("clang version ").nth(1)?;
    after.split('.').next()?.trim().parse().ok()
}

/// clang of version 19 or newer, or why there is none.
pub fn find_clang() -> Result<PathBuf, String> {
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
         setup` as root, or `apt-get install -y --no-install-recommends {CLANG_PACKAGE}` (Debian \
         12), or set LEGALIS_CLANG to its path"
    ))
}

/// clang's verdict on one run: `Ok` when it accepts, else its first error
/// line.
fn verdict(output: std::process::Output) -> Result<(), String> {
    let stderr = String::from_utf8_lossy(&output.stderr);
    let first_error = stderr.lines().find(|line| line.contains("error:"));
    match (output.status.success(), first_error) {
        (true, None) => Ok(()),
        (_, Some(line)) => Err(line.to_string()),
        (false, None) => Err(format!(
            "clang failed ({}): {}",
            output.status,
            stderr.trim()
        )),
    }
}

/// The stage attributes of entry functions (`[[kernel]] void f(...)`,
/// MSL's attribute spelling of the `kernel` qualifier, which Legalis and
/// the reference write) as the qualifier keywords the model defines: clang
/// parses an attribute it does not know and drops it, so only the keyword
/// makes a function a kernel, where `threadgroup` variables may be
/// declared. Object and mesh functions, which MSL spells only as
/// attributes, are kernels to the model.
fn stage_keywords(source: &str) -> String {
    source
        .replace("[[kernel]]", "kernel")
        .replace("[[vertex]]", "vertex")
        .replace("[[fragment]]", "fragment")
        .replace("[[object]]", "kernel")
        .replace("[[mesh]]", "kernel")
}

/// `constant` as a member function's qualifier (`T f() const constant`),
/// spelled `__constant` for clang. The model reads `constant` as `const
/// __global` (so that a struct can be copied out of it: clang's implicit
/// copy constructor takes a `__generic` reference, which `__constant` does
/// not convert to), which would make a `const constant` member function the
/// same function as its `const device` overload; a `__constant` one stays
/// distinct, and a `constant` object calls the `const device` one.
fn constant_methods(source: &str) -> String {
    let bytes = source.as_bytes();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    // The end of what precedes `at`, whitespace skipped.
    let back = |mut at: usize| {
        while at > 0 && bytes[at - 1].is_ascii_whitespace() {
            at -= 1;
        }
        at
    };
    let mut out = String::with_capacity(source.len() + 64);
    let mut copied = 0;
    let mut from = 0;
    while let Some(found) = source[from..].find("constant") {
        let at = from + found;
        let end = at + "constant".len();
        from = end;
        if (at > 0 && word(bytes[at - 1])) || (end < bytes.len() && word(bytes[end])) {
            continue;
        }
        let mut before = back(at);
        if before >= 5
            && &bytes[before - 5..before] == b"const"
            && (before == 5 || !word(bytes[before - 6]))
        {
            before = back(before - 5);
        }
        if before > 0 && bytes[before - 1] == b')' {
            out.push_str(&source[copied..at]);
            out.push_str("__constant");
            copied = end;
        }
    }
    out.push_str(&source[copied..]);
    out
}

/// `vec<T, N>(a, b, ...)`, a vector built from several values with the
/// type spelled as `vec`'s template (as in a template, where `T` is
/// dependent), as OpenCL's vector literal `((vec<T, N>)(a, b, ...))`:
/// clang reads a functional cast to a vector type as a cast of one value
/// (the model's `float4(...)` macros do the same for the named types).
fn vector_constructors(source: &str) -> String {
    let bytes = source.as_bytes();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    // The index just past the bracket that closes the one before `from`.
    let close = |from: usize, open: u8, shut: u8| {
        let (mut depth, mut at) = (1usize, from);
        while at < bytes.len() {
            match bytes[at] {
                b if b == open => depth += 1,
                b if b == shut => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(at + 1);
                    }
                }
                _ => {}
            }
            at += 1;
        }
        None
    };
    let mut out = String::with_capacity(source.len() + 64);
    let mut copied = 0;
    let mut from = 0;
    while let Some(found) = source[from..].find("vec<") {
        let at = from + found;
        from = at + 4;
        if at > 0 && word(bytes[at - 1]) {
            continue;
        }
        let Some(ty_end) = close(at + 4, b'<', b'>') else {
            break;
        };
        let mut open = ty_end;
        while open < bytes.len() && bytes[open].is_ascii_whitespace() {
            open += 1;
        }
        if open >= bytes.len() || bytes[open] != b'(' {
            continue;
        }
        let Some(args_end) = close(open + 1, b'(', b')') else {
            break;
        };
        // Commas outside any nested bracket: more than one value.
        let mut depth = 0usize;
        let several = bytes[open + 1..args_end - 1].iter().any(|&b| {
            match b {
                b'(' | b'[' | b'{' | b'<' => depth += 1,
                b')' | b']' | b'}' | b'>' => depth = depth.saturating_sub(1),
                b',' if depth == 0 => return true,
                _ => {}
            }
            false
        });
        if several {
            out.push_str(&source[copied..at]);
            out.push_str("((");
            out.push_str(&source[at..ty_end]);
            out.push(')');
            out.push_str(&source[open..args_end]);
            out.push(')');
            copied = args_end;
            from = args_end;
        }
    }
    out.push_str(&source[copied..]);
    out
}

/// Checks one file with `clang`: `Ok` when it is accepted, else clang's
/// first error line (its place as `<stdin>:LINE:COLUMN`).
pub fn check_file(clang: &Path, file: &Path) -> Result<(), String> {
    let source = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    check_source(clang, &source)
}

/// Checks Metal source text with `clang` (read from its standard input,
/// named `<stdin>` in the error), its stage attributes spelled as
/// keywords first (`stage_keywords`), `constant` member functions as
/// `__constant` ones (`constant_methods`) and `vec<T, N>(a, b, ...)` as
/// a vector literal (`vector_constructors`).
pub fn check_source(clang: &Path, source: &str) -> Result<(), String> {
    let mut child = Command::new(clang)
        .args(FLAGS)
        .arg("-isystem")
        .arg(model_dir())
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", clang.display()))?;
    let mut stdin = child.stdin.take().ok_or("clang has no standard input")?;
    // clang reads all of its input before it writes much, so writing whole
    // before reading its output cannot deadlock.
    stdin
        .write_all(vector_constructors(&constant_methods(&stage_keywords(source))).as_bytes())
        .map_err(|e| format!("cannot write to clang: {e}"))?;
    drop(stdin);
    let output = child
        .wait_with_output()
        .map_err(|e| format!("clang did not finish: {e}"))?;
    verdict(output)
}

/// [`check_source`] with the clang [`find_clang`] finds; the error says
/// how to install one when there is none.
pub fn validate_metal(source: &str) -> Result<(), String> {
    let clang = find_clang()?;
    check_source(&clang, source).map_err(|e| format!("Metal checker (clang): {e}"))
}
