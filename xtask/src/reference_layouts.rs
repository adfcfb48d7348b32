//! `cargo xtask reference-layouts`: runs the reference compiler on every
//! shader of `tests/layout` for the targets its first line names and writes
//! the layout its reflection reports (`reference/NAME.TARGET.txt`). The
//! data are facts (member paths, offsets, sizes, strides); the test
//! `crates/legalis/tests/reference_layouts.rs` compares Legalis with them.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};

use serde_json::Value;

pub fn main(args: &[std::ffi::OsString], root: &Path) -> ExitCode {
    if !args.is_empty() {
        eprintln!("reference-layouts takes no arguments");
        return ExitCode::from(2);
    }
    let script = std::env::var_os("LEGALIS_SLANG_REFERENCE")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("../shared/tools/slang-reference/slangc.py"));
    if !script.is_file() {
        eprintln!(
            "no reference compiler at {} (set LEGALIS_SLANG_REFERENCE)",
            script.display()
        );
        return ExitCode::FAILURE;
    }
    match run(root, &script) {
        Ok(n) => {
            println!("reference-layouts: {n} files written to tests/layout/reference");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("reference-layouts: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The targets a corpus shader names on its first line (`// targets: ...`).
pub fn targets(source: &str) -> Vec<String> {
    source
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("// targets:"))
        .map(|t| t.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default()
}

fn run(root: &Path, script: &Path) -> Result<usize, String> {
    let dir = root.join("tests/layout");
    let out_dir = dir.join("reference");
    std::fs::create_dir_all(&out_dir).map_err(|e| e.to_string())?;
    let mut shaders: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "slang"))
        .collect();
    shaders.sort();
    let work =
        std::env::temp_dir().join(format!("legalis-reference-layouts-{}", std::process::id()));
    std::fs::create_dir_all(&work).map_err(|e| e.to_string())?;
    let mut written = 0;
    for shader in &shaders {
        let source = std::fs::read_to_string(shader).map_err(|e| e.to_string())?;
        let stem = shader
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        for target in targets(&source) {
            let json = work.join(format!("{stem}.{target}.json"));
            let status = Command::new("python3")
                .arg(script)
                .arg(shader)
                .args(["-target", &target, "-entry", "main", "-stage", "compute"])
                .arg("-reflection-json")
                .arg(&json)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .map_err(|e| format!("python3: {e}"))?;
            if !status.success() {
                return Err(format!("the reference failed on {stem} for {target}"));
            }
            let text = std::fs::read_to_string(&json).map_err(|e| e.to_string())?;
            let value: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
            let mut out = String::from(
                "# The reference compiler's reflection (cargo xtask reference-layouts).\n",
            );
            flatten(&value, &mut out);
            std::fs::write(out_dir.join(format!("{stem}.{target}.txt")), out)
                .map_err(|e| e.to_string())?;
            written += 1;
        }
    }
    let _ = std::fs::remove_dir_all(&work);
    Ok(written)
}

/// One line per member of every constant buffer, structured-buffer element
/// and loose uniform (as `_Globals.NAME`).
pub fn flatten(reflection: &Value, out: &mut String) {
    let Some(params) = reflection["parameters"].as_array() else {
        return;
    };
    for p in params {
        let name = p["name"].as_str().unwrap_or("?");
        let ty = &p["type"];
        match ty["kind"].as_str() {
            Some("constantBuffer") => fields(name, &ty["elementType"], out),
            Some("resource") if ty["baseShape"] == "structuredBuffer" => {
                fields(&format!("{name}[]"), &ty["resultType"], out);
            }
            Some("scalar" | "vector" | "matrix" | "array" | "struct")
                if p["binding"]["kind"] == "uniform" =>
            {
                member(&format!("_Globals.{name}"), ty, &p["binding"], out);
            }
            _ => {}
        }
    }
}

fn fields(prefix: &str, ty: &Value, out: &mut String) {
    if let Some(fs) = ty["fields"].as_array() {
        for f in fs {
            let name = f["name"].as_str().unwrap_or("?");
            member(&format!("{prefix}.{name}"), &f["type"], &f["binding"], out);
        }
    }
}

fn member(path: &str, ty: &Value, binding: &Value, out: &mut String) {
    let _ = write!(
        out,
        "{path} offset={} size={}",
        binding["offset"], binding["size"]
    );
    if ty["kind"] == "array" {
        let _ = write!(out, " stride={}", ty["uniformStride"]);
    }
    out.push('\n');
    element(path, ty, out);
}

/// The members of a struct, or of the element of an array (`[]`).
fn element(path: &str, ty: &Value, out: &mut String) {
    match ty["kind"].as_str() {
        Some("struct") => fields(path, ty, out),
        Some("array") => {
            let elem = &ty["elementType"];
            if elem["kind"] == "array" {
                let _ = writeln!(out, "{path}[] stride={}", elem["uniformStride"]);
            }
            element(&format!("{path}[]"), elem, out);
        }
        _ => {}
    }
}
