//! The WGSL column of the system-value table, end to end: every system
//! value × {vertex, fragment, compute} × {input, output}, as the minimal
//! shaders of `sysval_matrix/shader.rs`, compiled to WGSL through the
//! facade.
//!
//! - A combination the WGSL column maps (a builtin or a location) is
//!   compiled once per 32-bit type the table's declared-type column
//!   accepts and per placement (parameter, struct field, the result
//!   itself for outputs); naga must parse and validate the WGSL, and its
//!   entry point must carry the row's `@builtin(...)` (or a `@location`).
//! - A combination outside its stage is the front end's `E49990`.
//! - Every other combination is `E55202` at the declaration's line (B23),
//!   never a location, never dropped.
//!
//! The counts are pinned; print them with
//! `cargo test -p legalis --test wgsl_sysval_matrix -- --nocapture`.

#[allow(dead_code, reason = "the GLSL matrix uses the rest of the generator")]
#[path = "sysval_matrix/shader.rs"]
mod shader;

use legalis::{Request, ShaderStage as S, Target, compile};
use legalis_ir::{Scalar, ScalarKind, SystemValue as SV};
use legalis_sysval::{BuiltinType, Direction, GlslMapping, Shape, WgslMapping};
use legalis_testkit::runner::Partition;

use shader::{Case, Placement, generate};

const STAGES: [S; 3] = [S::Vertex, S::Fragment, S::Compute];
const DIRECTIONS: [Direction; 2] = [Direction::Input, Direction::Output];

/// The 32-bit types the declared-type column accepts for `sv`.
fn declared_types(sv: SV) -> Vec<BuiltinType> {
    let accepted = legalis_sysval::declared_types(sv);
    let mut types = Vec::new();
    for &kind in accepted.kinds {
        let scalar = match kind {
            ScalarKind::Bool => Scalar::BOOL,
            kind => Scalar { kind, width: 4 },
        };
        for &shape in accepted.shapes {
            types.push(match shape {
                Shape::Scalar => BuiltinType::Scalar(scalar),
                Shape::Vector(n) => BuiltinType::Vector(scalar, n),
                Shape::Array(n) => BuiltinType::Array(scalar, Some(n)),
            });
        }
    }
    types
}

fn case(sv: SV, stage: S, dir: Direction, ty: BuiltinType, placement: Placement) -> Case {
    Case {
        sv,
        stage,
        dir,
        ty,
        indices: vec![if sv == SV::Target { 1 } else { 0 }],
        placement,
        noperspective: false,
        row: None,
    }
}

fn line_of(text: &str, offset: u32) -> usize {
    let end = (offset as usize).min(text.len());
    text[..end].matches('\n').count() + 1
}

#[derive(Default, Debug, PartialEq)]
struct Counts {
    validated: usize,
    /// Combinations WGSL cannot express: `E55202`.
    unsupported: usize,
    /// Combinations outside their stage: `E49990`.
    not_in_stage: usize,
}

#[test]
fn every_wgsl_combination_validates_or_is_refused_with_its_code() {
    let mut counts = Counts::default();
    let mut failures = Vec::new();
    // `cargo xtask test legalize --partition K/N`: only this shard's cases.
    let shard = Partition::from_env();
    for sv in SV::ALL {
        for stage in STAGES {
            for dir in DIRECTIONS {
                let outside_stage = matches!(
                    legalis_sysval::glsl(sv, stage, dir),
                    GlslMapping::Unsupported { code: 49990 }
                );
                let mapping = legalis_sysval::wgsl(sv, stage, dir);
                let mapped = matches!(
                    mapping,
                    WgslMapping::BuiltIn(_) | WgslMapping::Location { .. }
                );
                let types = if mapped {
                    declared_types(sv)
                } else {
                    declared_types(sv).into_iter().take(1).collect()
                };
                let placements: &[Placement] = match (mapped, dir) {
                    // A WGSL vertex function writes the position
                    // (`E55206`): a result that is only another value
                    // (the clip distances) cannot.
                    (true, Direction::Output) if stage == S::Vertex && sv != SV::Position => {
                        &[Placement::Param, Placement::Field]
                    }
                    (true, Direction::Output) => {
                        &[Placement::Param, Placement::Field, Placement::Result]
                    }
                    (true, Direction::Input) => &[Placement::Param, Placement::Field],
                    (false, _) => &[Placement::Param],
                };
                for &ty in &types {
                    for &placement in placements {
                        let case = case(sv, stage, dir, ty, placement);
                        if shard.is_some_and(|shard| !shard.contains_name(&case.describe())) {
                            continue;
                        }
                        let shader = generate(&case);
                        let compiled = compile(
                            &Request::builder("matrix.slang", shader.source.as_str())
                                .entry("main")
                                .stage(stage)
                                .target(Target::Wgsl)
                                .build(),
                        );
                        let errors: Vec<(String, usize)> = compiled
                            .diagnostics
                            .iter()
                            .filter(|d| d.is_error())
                            .map(|d| {
                                (
                                    d.code_str(),
                                    line_of(&compiled.source_text, d.primary_span().start),
                                )
                            })
                            .collect();
                        let fail = |why: String| {
                            format!(
                                "{}: {why}\n--- shader ---\n{}",
                                case.describe(),
                                shader.source
                            )
                        };
                        let expected_code = if outside_stage { "E49990" } else { "E55202" };
                        if outside_stage || !mapped {
                            let at_declaration = errors.iter().any(|(code, line)| {
                                code == expected_code && shader.decl_lines.contains(line)
                            });
                            if at_declaration && errors.iter().all(|(c, _)| c == expected_code) {
                                if outside_stage {
                                    counts.not_in_stage += 1;
                                } else {
                                    counts.unsupported += 1;
                                }
                            } else {
                                failures.push(fail(format!(
                                    "expected {expected_code} at line {:?}, got {errors:?}",
                                    shader.decl_lines
                                )));
                            }
                            continue;
                        }
                        let Some(generated) = &compiled.output else {
                            failures.push(fail(format!("refused: {errors:?}")));
                            continue;
                        };
                        let wgsl = String::from_utf8_lossy(&generated.bytes);
                        if let Err(e) = legalis_validate::validate_wgsl(&wgsl, stage) {
                            failures.push(fail(format!("naga rejects:\n{e}\n{wgsl}")));
                            continue;
                        }
                        let attribute = match mapping {
                            WgslMapping::BuiltIn(row) => format!("@builtin({})", row.name),
                            _ => "@location(".to_string(),
                        };
                        if !wgsl.contains(&attribute) {
                            failures.push(fail(format!("no {attribute} in:\n{wgsl}")));
                            continue;
                        }
                        counts.validated += 1;
                    }
                }
            }
        }
    }
    println!("{counts:?}");
    if !failures.is_empty() {
        for failure in &failures {
            eprintln!("{failure}\n");
        }
        panic!(
            "{} WGSL matrix shaders failed (listed above)",
            failures.len()
        );
    }
    if shard.is_some() {
        return;
    }
    assert_eq!(
        counts,
        Counts {
            validated: 144,
            unsupported: 37,
            not_in_stage: 215,
        }
    );
}
