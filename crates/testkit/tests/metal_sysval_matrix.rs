//! The system-value table's Metal column end to end, through the facade:
//! for every system value × Metal stage (vertex, fragment, compute,
//! amplification and mesh: object and mesh functions, B21) × direction
//! a minimal shader declares the value with its canonical HLSL type. A
//! cell with a row (an attribute, a user varying, or `SV_GroupIndex`
//! synthesised) must compile to MSL whose entry-point signature matches
//! the legalization plan (`msl_signature.rs`); a refused cell must fail
//! with exactly the table's code (`E55302`) at the declaration's line,
//! or with the front end's `E49990` there when the value is outside its
//! stage or direction in every target (the front end checks that before
//! any legalizer runs). The counts
//! are pinned and print with `--nocapture`.

use legalis::{Request, ShaderStage as S, Target};
use legalis_ir::SystemValue as SV;
use legalis_sysval::{Direction, MetalMapping};

/// The line the value under test is declared on, in every template.
const DECLARATION_LINE: usize = 3;

fn shader(sv: SV, stage: S, dir: Direction) -> String {
    let ty = legalis_sysval::declared_types(sv).canonical();
    // `float[2]` is declared `float v[2]`.
    let (ty, suffix) = match ty.split_once('[') {
        Some((base, rest)) => (base.to_string(), format!("[{rest}")),
        None => (ty, String::new()),
    };
    let semantic = if sv == SV::Target {
        "SV_Target1".to_string()
    } else {
        sv.name().to_string()
    };
    let decl = format!("{ty} v{suffix} : {semantic}");
    match (stage, dir) {
        (S::Vertex, Direction::Input) => format!(
            "struct VOut {{ float4 pos : SV_Position; }};\nVOut main(\n    {decl}\n) {{ VOut o = (VOut)0; return o; }}\n"
        ),
        (S::Vertex, Direction::Output) if sv == SV::Position => format!(
            "struct VOut {{\n\n    {decl};\n}};\nVOut main() {{ VOut o = (VOut)0; return o; }}\n"
        ),
        (S::Vertex, Direction::Output) => format!(
            "struct VOut {{ float4 pos : SV_Position;\n\n    {decl};\n}};\nVOut main() {{ VOut o = (VOut)0; return o; }}\n"
        ),
        (S::Fragment, Direction::Input) => {
            format!("\nfloat4 main(\n    {decl}\n) : SV_Target {{ return float4(0, 0, 0, 0); }}\n")
        }
        (S::Fragment, Direction::Output) => format!(
            "struct POut {{ float4 c : SV_Target0;\n\n    {decl};\n}};\nPOut main() {{ POut o = (POut)0; return o; }}\n"
        ),
        // B21: an object function hands a payload on; a mesh function
        // writes vertices (per-vertex values in their struct) and
        // primitives (per-primitive values in theirs).
        (S::Amplification, Direction::Input) => format!(
            "struct Pl {{ uint x; }}; groupshared Pl pl;\n[numthreads(8, 4, 1)] void main(\n    {decl}\n) {{ DispatchMesh(1, 1, 1, pl); }}\n"
        ),
        (S::Amplification, Direction::Output) => format!(
            "struct Pl {{ uint x; }}; groupshared Pl pl;\n[numthreads(8, 4, 1)] void main(\n    out {decl}\n) {{ DispatchMesh(1, 1, 1, pl); }}\n"
        ),
        (S::Mesh, Direction::Input) => format!(
            "struct V {{ float4 pos : SV_Position; }};\n[outputtopology(\"triangle\")] [numthreads(8, 4, 1)] void main(\n    {decl},\n    out vertices V verts[3], out indices uint3 tris[1]) {{ SetMeshOutputCounts(3, 1); }}\n"
        ),
        (S::Mesh, Direction::Output) if legalis_sysval::metal::per_primitive(sv) => format!(
            "struct V {{ float4 pos : SV_Position; }};\nstruct P {{\n    {decl};\n}};\n[outputtopology(\"triangle\")] [numthreads(8, 4, 1)] void main(out vertices V verts[3], out indices uint3 tris[1], out primitives P prims[1]) {{ SetMeshOutputCounts(3, 1); }}\n"
        ),
        (S::Mesh, Direction::Output) if sv == SV::Position => format!(
            "struct V {{\n\n    {decl};\n}};\n[outputtopology(\"triangle\")] [numthreads(8, 4, 1)] void main(out vertices V verts[3], out indices uint3 tris[1]) {{ SetMeshOutputCounts(3, 1); }}\n"
        ),
        (S::Mesh, Direction::Output) => format!(
            "struct V {{ float4 pos : SV_Position;\n\n    {decl};\n}};\n[outputtopology(\"triangle\")] [numthreads(8, 4, 1)] void main(out vertices V verts[3], out indices uint3 tris[1]) {{ SetMeshOutputCounts(3, 1); }}\n"
        ),
        (_, Direction::Input) => {
            format!("\n[numthreads(8, 4, 1)] void main(\n    {decl}\n) {{ }}\n")
        }
        (_, Direction::Output) => {
            format!("\n[numthreads(8, 4, 1)] void main(\n    out {decl}\n) {{ }}\n")
        }
    }
}

#[test]
fn every_cell_maps_or_is_refused_with_its_code() {
    let mut mapped = 0usize;
    let mut refused_by_table = 0usize;
    let mut refused_by_front_end = 0usize;
    let mut failures = Vec::new();
    for sv in SV::ALL {
        for stage in [
            S::Vertex,
            S::Fragment,
            S::Compute,
            S::Amplification,
            S::Mesh,
        ] {
            for dir in [Direction::Input, Direction::Output] {
                let source = shader(sv, stage, dir);
                let label = format!("{} {} {}", sv.name(), stage.name(), dir.name());
                let request = Request::builder("matrix.slang", source.as_str())
                    .entry("main")
                    .stage(stage)
                    .target(Target::Metal)
                    .build();
                let compiled = legalis::compile(&request);
                let errors: Vec<_> = compiled
                    .diagnostics
                    .iter()
                    .filter(|d| d.is_error())
                    .collect();
                let line = |d: &legalis_ir::diag::Diagnostic| {
                    let span = d.primary_span();
                    span.is_defined()
                        .then(|| source[..span.range().start].lines().count())
                };
                match legalis_sysval::metal(sv, stage, dir) {
                    MetalMapping::BuiltIn(_) | MetalMapping::User | MetalMapping::Synthesized => {
                        match &compiled.output {
                            Some(generated) => {
                                let msl = String::from_utf8_lossy(&generated.bytes);
                                match legalis_testkit::msl_signature::check_request(&request, &msl)
                                    .and_then(|_| legalis_validate::metal::validate_metal(&msl))
                                {
                                    Ok(()) => mapped += 1,
                                    Err(e) => failures.push(format!("{label}: {e}\n{msl}")),
                                }
                            }
                            None => failures.push(format!("{label}: refused {errors:?}\n{source}")),
                        }
                    }
                    MetalMapping::Unsupported { code } => {
                        let codes: Vec<String> = errors.iter().map(|d| d.code_str()).collect();
                        let at_declaration =
                            errors.iter().all(|d| line(d) == Some(DECLARATION_LINE));
                        if codes == [format!("E{code}")] && at_declaration {
                            refused_by_table += 1;
                        } else if !codes.is_empty()
                            && codes.iter().all(|c| c == "E49990")
                            && at_declaration
                        {
                            refused_by_front_end += 1;
                        } else {
                            let lines: Vec<_> = errors.iter().map(|d| line(d)).collect();
                            failures.push(format!(
                                "{label}: expected E{code} at line {DECLARATION_LINE}, got {codes:?} at {lines:?}\n{source}"
                            ));
                        }
                    }
                }
            }
        }
    }
    println!(
        "mapped, re-read and checked by the Metal checker: {mapped}; refused by the table (E55302): {refused_by_table}; \
         outside their stage (E49990): {refused_by_front_end}"
    );
    if !failures.is_empty() {
        for f in &failures {
            eprintln!("{f}\n");
        }
        panic!("{} cells failed (listed above)", failures.len());
    }
    assert_eq!(
        (mapped, refused_by_table, refused_by_front_end),
        (55, 268, 127),
        "the counts changed; update them on purpose"
    );
}
