//! `cargo xtask codegen [--check]`: writes the system-value mapping tables
//! of `docs/design/target-pipelines/spirv-glsl.md` from `legalis-sysval`.
//!
//! The document's prose is written by hand; the part between
//! [`BEGIN`] and [`END`] is generated here and nowhere else. `--check`
//! writes nothing and fails when that part differs from what the table
//! says now (CI runs it).

use std::fmt::Write as _;
use std::path::Path;
use std::process::ExitCode;

use legalis_ir::{ScalarKind, ShaderStage, SystemValue};
use legalis_sysval::{
    Access, ArrayIndex, BuiltinType, Direction, GlslBuiltin, GlslMapping, Shape, codes,
    declared_types,
};

/// The document, relative to the workspace root.
pub const DOC: &str = "docs/design/target-pipelines/spirv-glsl.md";
pub const BEGIN: &str = "<!-- codegen:begin -->";
pub const END: &str = "<!-- codegen:end -->";

const HELP: &str = "\
Usage: cargo xtask codegen [--check]

Rewrites the generated section of docs/design/target-pipelines/spirv-glsl.md
from the system-value table (legalis-sysval). With --check nothing is written;
the task fails when the section is not what the table generates.
";

pub fn main(args: &[std::ffi::OsString], root: &Path) -> ExitCode {
    let mut check = false;
    for arg in args {
        match arg.to_str() {
            Some("--check") => check = true,
            Some("-h" | "--help") => {
                print!("{HELP}");
                return ExitCode::SUCCESS;
            }
            _ => {
                eprint!("xtask codegen: unknown argument {arg:?}\n\n{HELP}");
                return ExitCode::from(2);
            }
        }
    }
    let path = root.join(DOC);
    let current = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(error) => {
            eprintln!("xtask codegen: cannot read {DOC}: {error}");
            return ExitCode::FAILURE;
        }
    };
    let wanted = match splice(&current, &render()) {
        Ok(text) => text,
        Err(message) => {
            eprintln!("xtask codegen: {DOC}: {message}");
            return ExitCode::FAILURE;
        }
    };
    if wanted == current {
        eprintln!("xtask codegen: {DOC} is up to date");
        return ExitCode::SUCCESS;
    }
    if check {
        eprintln!(
            "xtask codegen: {DOC} is stale: its generated tables differ from legalis-sysval; \
             run `cargo xtask codegen` and commit the result"
        );
        return ExitCode::FAILURE;
    }
    match std::fs::write(&path, wanted) {
        Ok(()) => {
            eprintln!("xtask codegen: wrote {DOC}");
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("xtask codegen: cannot write {DOC}: {error}");
            ExitCode::FAILURE
        }
    }
}

/// `doc` with the text between the markers replaced by `generated`.
pub fn splice(doc: &str, generated: &str) -> Result<String, String> {
    let begin = doc
        .find(BEGIN)
        .ok_or_else(|| format!("no `{BEGIN}` marker"))?;
    let after_begin = begin + BEGIN.len();
    let end = doc[after_begin..]
        .find(END)
        .map(|at| after_begin + at)
        .ok_or_else(|| format!("no `{END}` marker after `{BEGIN}`"))?;
    Ok(format!(
        "{}\n\n{}\n{}",
        &doc[..after_begin],
        generated.trim_end(),
        &doc[end..]
    ))
}

const DIRECTIONS: [Direction; 2] = [Direction::Input, Direction::Output];

/// The generated section: one table per system value with a row per stage
/// and direction that maps to something, then the location and not-yet
/// listings, then where each value is available.
pub fn render() -> String {
    let mut out = String::new();
    out += "## Builtins per system value\n\n";
    out += "Columns: the stage and direction; the HLSL type the front end \
             accepts (canonical first); the GLSL access; the GLSL builtin's type; \
             the conversion the legalizer inserts between the canonical HLSL \
             type and the builtin's; the GLSL version and `#extension`; the \
             SPIR-V `BuiltIn`; SPIR-V capabilities, extensions and execution \
             modes beyond `Shader` and the stage's own; and decorations and \
             alternates.\n";
    let mut locations = Vec::new();
    let mut not_yet = Vec::new();
    for sv in SystemValue::ALL {
        let mut rows = Vec::new();
        for stage in ShaderStage::ALL {
            for dir in DIRECTIONS {
                match legalis_sysval::glsl(sv, stage, dir) {
                    GlslMapping::BuiltIn(b) => rows.push(row(sv, stage, dir, &b)),
                    GlslMapping::Location { by_index } => {
                        locations.push((sv, stage, dir, by_index))
                    }
                    GlslMapping::Unsupported { code } if code == codes::NOT_SUPPORTED_YET => {
                        not_yet.push((sv, stage, dir))
                    }
                    GlslMapping::Unsupported { .. } => {}
                }
            }
        }
        if rows.is_empty() {
            continue;
        }
        let _ = write!(
            out,
            "\n### `{}`\n\n| Stage | Dir | HLSL type | GLSL | GLSL type | Conversion | Version, extension | SPIR-V BuiltIn | SPIR-V requirements | Decorations, alternates |\n|---|---|---|---|---|---|---|---|---|---|\n",
            sv.name()
        );
        for r in rows {
            out += &r;
        }
    }
    out += "\n## Locations\n\nThese combinations are ordinary varyings at an interface location, not builtins.\n\n";
    for (sv, stage, dir, by_index) in locations {
        let how = if by_index {
            "location = semantic index"
        } else {
            "next free location"
        };
        let _ = writeln!(
            out,
            "- `{}` as a {} {}: {how}",
            sv.name(),
            stage.name(),
            dir.name()
        );
    }
    out += "\n## Not supported yet\n\nThe value exists in the stage but the GLSL/SPIR-V target cannot express it yet (`E49991`).\n\n";
    for (sv, stage, dir) in not_yet {
        let _ = writeln!(
            out,
            "- `{}` as a {} {}",
            sv.name(),
            stage.name(),
            dir.name()
        );
    }
    out += "\n## Availability\n\nPer system value, the stages that can read (input) or write (output) it. Everything else is `E49990`, reported by the front end. Ray-tracing stages reach their values through intrinsics and have no system-value semantics at all.\n\n";
    for sv in SystemValue::ALL {
        let mut parts = Vec::new();
        for dir in DIRECTIONS {
            let stages: Vec<&str> = ShaderStage::ALL
                .into_iter()
                .filter(|&stage| {
                    !matches!(
                        legalis_sysval::glsl(sv, stage, dir),
                        GlslMapping::Unsupported { code } if code == codes::NOT_IN_STAGE
                    )
                })
                .map(ShaderStage::name)
                .collect();
            if !stages.is_empty() {
                parts.push(format!("{} {}", dir.name(), stages.join(", ")));
            }
        }
        let _ = writeln!(out, "- `{}`: {}", sv.name(), parts.join("; "));
    }
    out
}

fn row(sv: SystemValue, stage: ShaderStage, dir: Direction, b: &GlslBuiltin) -> String {
    let declared = declared_types(sv);
    let hlsl = declared.describe();
    let access = access(b);
    let conversion = conversion(sv, dir, b, &access);
    let mut version = b.min_version.to_string();
    if let Some(e) = b.extension {
        version += &format!(", `{e}`");
    }
    let mut glsl = format!("`{access}`");
    if let Some(layout) = b.layout {
        glsl = format!("`layout({layout})` {glsl}");
    }
    let mut requirements = Vec::new();
    if let Some(c) = b.spirv_capability {
        requirements.push(format!("cap `{c}`"));
    }
    if let Some(e) = b.spirv_extension {
        requirements.push(format!("ext `{e}`"));
    }
    for mode in b.spirv_execution_modes {
        requirements.push(format!("mode `{mode}`"));
    }
    let mut decorations = Vec::new();
    if b.flat {
        decorations.push("`Flat`".to_string());
    }
    if b.patch {
        decorations.push("`Patch`".to_string());
    }
    if b.access == Access::MeshPerPrimitive {
        decorations.push("`PerPrimitiveEXT`".to_string());
    }
    if let Some(alt) = b.noperspective {
        decorations.push(format!(
            "`noperspective`: `{}` (`{}`)",
            alt.glsl_name, alt.spirv_builtin
        ));
    }
    format!(
        "| {} | {} | {hlsl} | {glsl} | `{}` | {conversion} | {version} | `{}` | {} | {} |\n",
        stage.name(),
        if dir == Direction::Input { "in" } else { "out" },
        glsl_type(b.ty),
        b.spirv_builtin,
        dash(&requirements),
        dash(&decorations),
    )
}

fn dash(items: &[String]) -> String {
    if items.is_empty() {
        "–".to_string()
    } else {
        items.join(", ")
    }
}

/// How the value is spelled in GLSL: block member, element, rebase.
fn access(b: &GlslBuiltin) -> String {
    let mut s = match b.access {
        Access::Global => String::new(),
        Access::PerVertexIn => "gl_in[i].".into(),
        Access::PerControlPointOut => "gl_out[gl_InvocationID].".into(),
        Access::MeshPerVertex => "gl_MeshVerticesEXT[i].".into(),
        Access::MeshPerPrimitive => "gl_MeshPrimitivesEXT[i].".into(),
    };
    s += b.glsl_name;
    match b.array_index {
        Some(ArrayIndex::Fixed(i)) => s += &format!("[{i}]"),
        Some(ArrayIndex::SemanticIndex) => s += "[N]",
        None => {}
    }
    if let Some(r) = b.rebase {
        s += &format!(" - {}", r.base_name);
    }
    s
}

/// The conversion between the canonical declared type and the builtin's
/// (element) type, as the legalizer writes it; `–` when they agree.
fn conversion(sv: SystemValue, dir: Direction, b: &GlslBuiltin, access: &str) -> String {
    let declared = declared_types(sv);
    let (kind, shape) = (declared.kinds[0], declared.shapes[0]);
    let (builtin_kind, builtin_shape) = match (b.ty, b.array_index) {
        (BuiltinType::Array(s, _), Some(_)) | (BuiltinType::Scalar(s), _) => {
            (s.kind, Shape::Scalar)
        }
        (BuiltinType::Vector(s, n), _) => (s.kind, Shape::Vector(n)),
        (BuiltinType::Array(s, n), None) => (s.kind, Shape::Array(n.unwrap_or(0))),
    };
    if kind == builtin_kind && (shape == builtin_shape || matches!(shape, Shape::Array(_))) {
        return "–".into();
    }
    let hlsl = legalis_sysval::spell(kind, shape);
    let target = glsl_spelling(builtin_kind, builtin_shape);
    match dir {
        Direction::Input => format!("`{hlsl}({access})`"),
        Direction::Output => format!("`{access} = {target}(value)`"),
    }
}

fn glsl_spelling(kind: ScalarKind, shape: Shape) -> String {
    match shape {
        Shape::Scalar | Shape::Array(_) => scalar_name(kind).to_string(),
        Shape::Vector(n) => format!("{}vec{n}", vector_prefix(kind)),
    }
}

fn scalar_name(kind: ScalarKind) -> &'static str {
    match kind {
        ScalarKind::Bool => "bool",
        ScalarKind::Sint => "int",
        ScalarKind::Uint => "uint",
        ScalarKind::Float => "float",
    }
}

fn vector_prefix(kind: ScalarKind) -> &'static str {
    match kind {
        ScalarKind::Bool => "b",
        ScalarKind::Sint => "i",
        ScalarKind::Uint => "u",
        ScalarKind::Float => "",
    }
}

fn glsl_type(ty: BuiltinType) -> String {
    match ty {
        BuiltinType::Scalar(s) => scalar_name(s.kind).to_string(),
        BuiltinType::Vector(s, n) => format!("{}vec{n}", vector_prefix(s.kind)),
        BuiltinType::Array(s, None) => format!("{}[]", scalar_name(s.kind)),
        BuiltinType::Array(s, Some(n)) => format!("{}[{n}]", scalar_name(s.kind)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(generated: &str) -> String {
        format!("# Title\n\nProse.\n\n{BEGIN}\n\n{generated}\n{END}\n\nMore prose.\n")
    }

    #[test]
    fn splice_replaces_only_the_generated_section() {
        let stale = doc("old table");
        let fresh = splice(&stale, "new table\n").unwrap();
        assert_eq!(fresh, doc("new table"));
        // Splicing again changes nothing: the output is a fixed point.
        assert_eq!(splice(&fresh, "new table\n").unwrap(), fresh);
    }

    #[test]
    fn a_stale_table_is_detected() {
        let current = splice(&doc(""), &render()).unwrap();
        assert_eq!(splice(&current, &render()).unwrap(), current);
        let stale = current.replacen("gl_FragCoord", "gl_FragCoordOld", 1);
        assert_ne!(stale, current);
        assert_ne!(splice(&stale, &render()).unwrap(), stale);
    }

    #[test]
    fn missing_markers_are_errors() {
        assert_eq!(
            splice("no markers", "x"),
            Err(format!("no `{BEGIN}` marker"))
        );
        assert_eq!(
            splice(&format!("{BEGIN} but no end"), "x"),
            Err(format!("no `{END}` marker after `{BEGIN}`"))
        );
    }

    #[test]
    fn output_is_deterministic_and_covers_the_table() {
        let a = render();
        assert_eq!(a, render());
        for sv in SystemValue::ALL {
            assert!(a.contains(&format!("`{}`", sv.name())), "{sv:?}");
        }
        assert!(a.contains(
            "| vertex | in | uint or int | `gl_VertexIndex - gl_BaseVertex` | `int` | `uint(gl_VertexIndex - gl_BaseVertex)` |"
        ));
        assert!(a.contains("`gl_SampleMask[0] = int(value)`"));
        assert!(a.contains("- `SV_Target` as a fragment output: location = semantic index"));
    }

    /// The committed document is what the table generates (CI also runs
    /// `cargo xtask codegen --check`).
    #[test]
    fn the_committed_document_is_current() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let text = std::fs::read_to_string(root.join(DOC)).expect("the mapping document");
        assert_eq!(
            splice(&text, &render()).unwrap(),
            text,
            "{DOC} is stale: run `cargo xtask codegen`"
        );
    }
}
