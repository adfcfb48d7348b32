//! The generated system-value matrix: every (system value, stage,
//! direction) the GLSL/SPIR-V column of the table answers, as minimal
//! shaders compiled through the facade.
//!
//! - A combination the table supports (a builtin row or a location) is
//!   compiled once per declared type, semantic-index set and placement to
//!   GLSL and to SPIR-V assembly; glslang plus the SPIR-V validator must
//!   accept the GLSL and the SPIRV-Tools assembler plus validator the
//!   SPIR-V (Vulkan 1.3).
//! - A combination the table refuses must be refused with exactly the
//!   table's code, pointing at the line of the declaration.
//! - A stage the legalizer does not handle yet must be refused with
//!   `E49992`; the day a stage lands, this test fails until the stage is
//!   added to [`LEGALIZED_STAGES`].
//! - A builtin row the legalizer cannot express yet (`E49991`: members of
//!   output blocks) is counted and listed; `E49991` for anything else is a
//!   failure.
//!
//! Every failure is collected, then the test fails once with all of them
//! (the shader source and the validator's message each). The counts are
//! printed: `cargo test -p legalis --test sysval_matrix -- --nocapture`.

#[path = "sysval_matrix/shader.rs"]
mod shader;

use legalis_testkit::runner::Partition;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};

use legalis::{Compiled, Request, ShaderStage as S, Target, compile};
use legalis_ir::{Scalar, ScalarKind, SystemValue as SV};
use legalis_sysval::codes::{NOT_IN_STAGE, NOT_SUPPORTED_YET};
use legalis_sysval::{Access, BuiltinType, Direction, GlslBuiltin, GlslMapping, Shape};

use shader::{Case, Placement, Shader, generate};

/// The stages the GLSL legalizer handles; every other stage is refused
/// with `E49992`. Add a stage here when the legalizer learns it.
const LEGALIZED_STAGES: &[S] = &[
    S::Vertex,
    S::Fragment,
    S::Compute,
    S::Geometry,
    S::Hull,
    S::Domain,
    S::Mesh,
    S::Amplification,
    S::RayGeneration,
    S::Intersection,
    S::AnyHit,
    S::ClosestHit,
    S::Miss,
    S::Callable,
];

/// The legalizer's refusal of a stage it does not handle yet.
const UNSUPPORTED_STAGE: u32 = 49992;

const DIRECTIONS: [Direction; 2] = [Direction::Input, Direction::Output];

/// The types a combination is declared with: the builtin's own type as HLSL
/// spells it (one element of an arrayed builtin is its scalar), then the
/// types HLSL code conventionally declares where they differ, then every
/// other 32-bit type the table's declared-type column accepts
/// (`legalis_sysval::declared_types`, which the front end checks), so that
/// every conversion and split is exercised. The first type is the one used
/// for refused combinations.
fn declared_types(sv: SV, stage: S, dir: Direction) -> Vec<BuiltinType> {
    let mut types = Vec::new();
    if let GlslMapping::BuiltIn(row) = legalis_sysval::glsl(sv, stage, dir) {
        types.push(match (row.ty, row.array_index) {
            (BuiltinType::Array(s, _), Some(_)) => BuiltinType::Scalar(s),
            (ty, _) => ty,
        });
    }
    let accepted = legalis_sysval::declared_types(sv);
    let column = accepted.kinds.iter().flat_map(|&kind| {
        let scalar = match kind {
            ScalarKind::Bool => Scalar::BOOL,
            kind => Scalar { kind, width: 4 },
        };
        accepted.shapes.iter().map(move |&shape| match shape {
            Shape::Scalar => BuiltinType::Scalar(scalar),
            Shape::Vector(n) => BuiltinType::Vector(scalar, n),
            Shape::Array(n) => BuiltinType::Array(scalar, Some(n)),
        })
    });
    for ty in conventional_types(sv).into_iter().chain(column) {
        if !types.contains(&ty) {
            types.push(ty);
        }
    }
    types
}

/// What HLSL code declares each system value as.
fn conventional_types(sv: SV) -> Vec<BuiltinType> {
    use BuiltinType as T;
    let float2 = T::Vector(Scalar::F32, 2);
    let floats = |n| T::Array(Scalar::F32, Some(n));
    match sv {
        SV::Position => vec![T::FLOAT4],
        SV::Target => vec![T::FLOAT4, T::Vector(Scalar::U32, 4)],
        SV::Depth | SV::DepthGreaterEqual | SV::DepthLessEqual | SV::PointSize => {
            vec![T::FLOAT]
        }
        SV::Coverage
        | SV::InnerCoverage
        | SV::StencilRef
        | SV::SampleIndex
        | SV::PrimitiveId
        | SV::VertexId
        | SV::InstanceId
        | SV::VulkanVertexId
        | SV::VulkanInstanceId
        | SV::StartVertexLocation
        | SV::StartInstanceLocation
        | SV::DrawIndex
        | SV::DeviceIndex
        | SV::ViewId
        | SV::RenderTargetArrayIndex
        | SV::ViewportArrayIndex
        | SV::ShadingRate
        | SV::FragInvocationCount
        | SV::GsInstanceId
        | SV::OutputControlPointId
        | SV::GroupIndex
        | SV::WaveLaneIndex
        | SV::WaveLaneCount
        | SV::WaveIndex
        | SV::QuadLaneIndex => vec![T::UINT],
        SV::IsFrontFace | SV::CullPrimitive => vec![T::BOOL],
        // Two distances in one declaration are two elements of the array.
        SV::ClipDistance | SV::CullDistance => vec![T::FLOAT, float2],
        SV::Barycentrics => vec![T::Vector(Scalar::F32, 3)],
        SV::PointCoord | SV::VulkanSamplePosition => vec![float2],
        SV::FragSize => vec![T::Vector(Scalar::I32, 2)],
        // Triangles, quads.
        SV::DomainLocation => vec![T::Vector(Scalar::F32, 3), float2],
        // Quads, triangles, isolines.
        SV::TessFactor => vec![floats(4), floats(3), floats(2)],
        SV::InsideTessFactor => vec![floats(2), T::FLOAT],
        SV::DispatchThreadId | SV::GroupId | SV::GroupThreadId => vec![T::UINT3, T::UINT],
    }
}

/// Where the value can be declared in a `stage` entry point.
fn placements(sv: SV, stage: S, dir: Direction, row: Option<GlslBuiltin>) -> Vec<Placement> {
    use Placement::{Field, Param, Result};
    let per_vertex_or_patch = row.is_some_and(|r| r.access == Access::PerVertexIn || r.patch);
    match (stage, dir) {
        (S::Vertex | S::Domain, Direction::Output) if sv == SV::Position => {
            vec![Result, Field, Param]
        }
        (S::Fragment, Direction::Output) if sv == SV::Target => vec![Result, Field, Param],
        (S::Vertex | S::Fragment | S::Domain, Direction::Output) => vec![Field, Param],
        (S::Geometry | S::Hull | S::Mesh, Direction::Output) => vec![Field],
        (_, Direction::Output) => vec![Param],
        (S::Geometry | S::Hull | S::Domain, Direction::Input) if per_vertex_or_patch => {
            vec![Field]
        }
        (S::Vertex | S::Fragment | S::Compute | S::Mesh | S::Amplification, Direction::Input) => {
            vec![Param, Field]
        }
        (_, Direction::Input) => vec![Param],
    }
}

/// Semantic-index sets: the first element, another one alone, and two in
/// one shader (`SV_ClipDistance0` and `SV_ClipDistance1` share
/// `gl_ClipDistance`, `SV_Target0` and `SV_Target1` are two outputs).
/// A vector clip or cull distance spans as many elements as it has
/// components from its own index, so the second of a pair starts past the
/// first.
fn index_sets(sv: SV, ty: BuiltinType) -> Vec<Vec<u32>> {
    let width = match ty {
        BuiltinType::Vector(_, n) => u32::from(n),
        BuiltinType::Array(_, Some(n)) => n,
        _ => 1,
    };
    if sv.is_indexed() {
        // Distances stay within the eight elements Vulkan guarantees (more
        // is `E49998`, tested in the legalizer's own tests).
        let fits = |set: &Vec<u32>| {
            !matches!(sv, SV::ClipDistance | SV::CullDistance)
                || set.iter().max().map_or(0, |&i| i + width) <= 8
        };
        [vec![0], vec![1], vec![0, width]]
            .into_iter()
            .filter(fits)
            .collect()
    } else {
        vec![vec![0]]
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    /// Compiles to GLSL and SPIR-V that validate.
    Validate,
    /// Refused with the table's code at the declaration.
    Refuse(u32),
    /// Refused with `E49992`: the stage is not legalized yet.
    StageNotLegalized,
}

struct Job {
    case: Case,
    shader: Shader,
    expect: Expect,
}

/// Every shader of one combination.
fn jobs(sv: SV, stage: S, dir: Direction) -> (Expect, Vec<Job>) {
    let mapping = legalis_sysval::glsl(sv, stage, dir);
    let row = match mapping {
        GlslMapping::BuiltIn(row) => Some(row),
        _ => None,
    };
    // The front end rejects a value outside its stage for every stage, from
    // the same table, before any legalizer runs.
    let expect = match mapping {
        GlslMapping::Unsupported { code } if code == legalis_sysval::codes::NOT_IN_STAGE => {
            Expect::Refuse(code)
        }
        _ if !LEGALIZED_STAGES.contains(&stage) => Expect::StageNotLegalized,
        GlslMapping::BuiltIn(_) | GlslMapping::Location { .. } => Expect::Validate,
        GlslMapping::Unsupported { code } => Expect::Refuse(code),
    };
    let types = declared_types(sv, stage, dir);
    let places = placements(sv, stage, dir, row);
    let mut cases = Vec::new();
    let case = |ty, indices: Vec<u32>, placement, noperspective| Case {
        sv,
        stage,
        dir,
        ty,
        indices,
        placement,
        noperspective,
        row,
    };
    if expect == Expect::Validate {
        for &ty in &types {
            for indices in index_sets(sv, ty) {
                for &placement in &places {
                    // The result is one value.
                    if placement == Placement::Result && indices != [0] {
                        continue;
                    }
                    cases.push(case(ty, indices.clone(), placement, false));
                }
            }
        }
        if row.is_some_and(|r| r.noperspective.is_some()) {
            cases.push(case(types[0], vec![0], places[0], true));
        }
    } else {
        cases.push(case(types[0], vec![0], places[0], false));
    }
    let jobs = cases
        .into_iter()
        .map(|case| Job {
            shader: generate(&case),
            case,
            expect,
        })
        .collect();
    (expect, jobs)
}

/// The gaps the legalizer reports with `E49991` today (see
/// `expressible` in the legalizer's `map_system_values.rs`).
fn known_gap(case: &Case) -> bool {
    let Some(row) = case.row else {
        return false;
    };
    // Members of output blocks (`gl_out[]`, mesh outputs).
    row.access != Access::Global && case.dir == Direction::Output
}

#[derive(Debug)]
enum Outcome {
    /// Both targets compiled and validated.
    Validated,
    /// The GLSL validated, the SPIR-V did not.
    GlslOnly(String),
    Refused(u32),
    KnownGap,
    StageNotLegalized,
    Failed(String),
}

fn compile_to(job: &Job, target: Target) -> Compiled {
    compile(
        &Request::builder("matrix.slang", job.shader.source.as_str())
            .entry("main")
            .stage(job.case.stage)
            .target(target)
            .build(),
    )
}

fn line_of(text: &str, offset: u32) -> usize {
    let end = (offset as usize).min(text.len());
    text[..end].matches('\n').count() + 1
}

/// `E49990 line 4: message` per error.
fn errors_text(compiled: &Compiled) -> String {
    compiled
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| {
            let span = d.primary_span();
            let at = if span.is_defined() {
                format!("line {}", line_of(&compiled.source_text, span.start))
            } else {
                "no location".into()
            };
            format!("{} {at}: {}", d.code_str(), d.message)
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn failed(job: &Job, what: &str, detail: &str) -> Outcome {
    Outcome::Failed(format!(
        "{}: {what}\n{detail}\n--- shader ---\n{}",
        job.case.describe(),
        job.shader.source
    ))
}

fn output_text(compiled: &Compiled) -> String {
    compiled
        .output
        .as_ref()
        .map(|g| String::from_utf8_lossy(&g.bytes).into_owned())
        .unwrap_or_default()
}

fn run(job: &Job) -> Outcome {
    let stage = job.case.stage;
    match job.expect {
        Expect::Validate => {
            let glsl = compile_to(job, Target::Glsl);
            if glsl.has_errors() {
                let only_not_yet = glsl
                    .diagnostics
                    .iter()
                    .filter(|d| d.is_error())
                    .all(|d| d.code == NOT_SUPPORTED_YET);
                if only_not_yet && known_gap(&job.case) {
                    return Outcome::KnownGap;
                }
                return failed(
                    job,
                    "a supported combination is refused",
                    &errors_text(&glsl),
                );
            }
            let text = output_text(&glsl);
            if let Err(error) = legalis_validate::validate_glsl(&text, stage) {
                return failed(
                    job,
                    "glslang/spirv-val reject the GLSL",
                    &format!("{error}\n--- GLSL ---\n{text}"),
                );
            }
            let spirv = compile_to(job, Target::SpirvAsm);
            let spirv_failure = if spirv.has_errors() {
                failed(
                    job,
                    "the GLSL compiles but SPIR-V is refused",
                    &errors_text(&spirv),
                )
            } else {
                let text = output_text(&spirv);
                match legalis_validate::validate_spirv_asm(&text) {
                    Ok(_) => return Outcome::Validated,
                    Err(error) => failed(
                        job,
                        "spirv-as/spirv-val reject the SPIR-V",
                        &format!("{error}\n--- SPIR-V ---\n{text}"),
                    ),
                }
            };
            match spirv_failure {
                Outcome::Failed(message) => Outcome::GlslOnly(message),
                other => other,
            }
        }
        Expect::Refuse(code) => {
            for target in [Target::Glsl, Target::SpirvAsm] {
                let compiled = compile_to(job, target);
                let errors: Vec<_> = compiled
                    .diagnostics
                    .iter()
                    .filter(|d| d.is_error())
                    .collect();
                let want = format!("E{code:05} at line {}", job.shader.decl_lines[0]);
                let Some(first) = errors.first() else {
                    return failed(
                        job,
                        &format!("{} compiles; expected {want}", target.name()),
                        &output_text(&compiled),
                    );
                };
                let line = line_of(&compiled.source_text, first.primary_span().start);
                if errors.iter().any(|d| d.code != code) || line != job.shader.decl_lines[0] {
                    return failed(
                        job,
                        &format!("{}: expected {want}", target.name()),
                        &errors_text(&compiled),
                    );
                }
            }
            Outcome::Refused(code)
        }
        Expect::StageNotLegalized => {
            let compiled = compile_to(job, Target::Glsl);
            let codes: Vec<u32> = compiled
                .diagnostics
                .iter()
                .filter(|d| d.is_error())
                .map(|d| d.code)
                .collect();
            if codes == [UNSUPPORTED_STAGE] {
                Outcome::StageNotLegalized
            } else if codes.is_empty() {
                failed(
                    job,
                    &format!(
                        "the {} stage compiles now: add it to LEGALIZED_STAGES",
                        stage.name()
                    ),
                    "",
                )
            } else {
                failed(
                    job,
                    "expected only E49992 (stage not legalized yet)",
                    &errors_text(&compiled),
                )
            }
        }
    }
}

/// Runs every job on all cores; outcomes in job order.
fn run_all(jobs: &[Job]) -> Vec<Outcome> {
    let next = AtomicUsize::new(0);
    let workers = std::thread::available_parallelism()
        .map_or(2, usize::from)
        .clamp(1, 8);
    let mut outcomes: Vec<(usize, Outcome)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(job) = jobs.get(i) else {
                            break done;
                        };
                        done.push((i, run(job)));
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a matrix worker panicked"))
            .collect()
    });
    outcomes.sort_by_key(|(i, _)| *i);
    outcomes.into_iter().map(|(_, o)| o).collect()
}

/// Writes every generated shader to `dir` (`LEGALIS_SYSVAL_MATRIX_DUMP`),
/// one file each, named after its case, to try them elsewhere (the
/// reference compiler, a stage being legalized).
fn dump(dir: &std::path::Path, jobs: &[Job]) {
    std::fs::create_dir_all(dir).expect("create the dump folder");
    for (i, job) in jobs.iter().enumerate() {
        let name: String = job
            .case
            .describe()
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        let path = dir.join(format!("{i:04}-{name}.slang"));
        std::fs::write(&path, &job.shader.source).expect("write a dumped shader");
    }
}

#[test]
fn every_system_value_combination_validates_or_is_refused_with_its_code() {
    let mut all_jobs = Vec::new();
    let mut combinations: BTreeMap<&str, usize> = BTreeMap::new();
    let mut table_codes: BTreeMap<u32, usize> = BTreeMap::new();
    for sv in SV::ALL {
        for stage in S::ALL {
            for dir in DIRECTIONS {
                let (expect, jobs) = jobs(sv, stage, dir);
                let kind = match expect {
                    Expect::Validate => "supported",
                    Expect::Refuse(code) => {
                        *table_codes.entry(code).or_default() += 1;
                        "refused"
                    }
                    Expect::StageNotLegalized => "stage not legalized",
                };
                *combinations.entry(kind).or_default() += 1;
                all_jobs.extend(jobs);
            }
        }
    }
    let total = SV::ALL.len() * S::ALL.len() * DIRECTIONS.len();
    // `cargo xtask test legalize --partition K/N`: only this shard's shaders.
    let shard = Partition::from_env();
    if let Some(shard) = shard {
        all_jobs.retain(|job| shard.contains_name(&job.case.describe()));
        eprintln!(
            "sysval matrix: shard {}/{}: {} shaders",
            shard.index,
            shard.count,
            all_jobs.len()
        );
    }
    if let Some(dir) = std::env::var_os("LEGALIS_SYSVAL_MATRIX_DUMP") {
        dump(std::path::Path::new(&dir), &all_jobs);
    }
    let outcomes = run_all(&all_jobs);

    let mut validated = 0;
    let mut glsl_validated = 0;
    let mut refused: BTreeMap<u32, usize> = BTreeMap::new();
    let mut gaps = Vec::new();
    let mut not_legalized = 0;
    let mut failures = Vec::new();
    for (job, outcome) in all_jobs.iter().zip(outcomes) {
        match outcome {
            Outcome::Validated => validated += 1,
            Outcome::GlslOnly(message) => {
                glsl_validated += 1;
                failures.push(message);
            }
            Outcome::Refused(code) => *refused.entry(code).or_default() += 1,
            Outcome::KnownGap => gaps.push(job.case.describe()),
            Outcome::StageNotLegalized => not_legalized += 1,
            Outcome::Failed(message) => failures.push(message),
        }
    }
    let supported_shaders = all_jobs
        .iter()
        .filter(|j| j.expect == Expect::Validate)
        .count();
    let not_legalized_stages: Vec<&str> = S::ALL
        .into_iter()
        .filter(|s| !LEGALIZED_STAGES.contains(s))
        .map(S::name)
        .collect();
    eprintln!(
        "sysval matrix: {total} combinations ({} system values x {} stages x 2 directions), {} shaders",
        SV::ALL.len(),
        S::ALL.len(),
        all_jobs.len()
    );
    eprintln!(
        "  supported by the table in legalized stages: {} combinations, {supported_shaders} shaders \
         (types x semantic indices x placements); validated: GLSL {}, SPIR-V {validated}",
        combinations.get("supported").copied().unwrap_or(0),
        validated + glsl_validated
    );
    eprintln!(
        "  known not supported yet (E49991 from the legalizer for a table row): {} shaders",
        gaps.len()
    );
    for gap in &gaps {
        eprintln!("    {gap}");
    }
    let codes: Vec<String> = table_codes
        .iter()
        .map(|(code, n)| format!("E{code:05} {n}"))
        .collect();
    eprintln!(
        "  refused with the table's code: {} combinations ({}); refusals checked: {}",
        combinations.get("refused").copied().unwrap_or(0),
        codes.join(", "),
        refused.values().sum::<usize>()
    );
    eprintln!(
        "  stage not legalized yet (E49992): {not_legalized} combinations ({})",
        not_legalized_stages.join(", ")
    );
    eprintln!("  failures: {}", failures.len());
    assert!(
        failures.is_empty(),
        "{} of {} matrix shaders failed:\n\n{}",
        failures.len(),
        all_jobs.len(),
        failures.join("\n\n")
    );
    // The matrix must reach what it claims to cover.
    assert_eq!(
        combinations.values().sum::<usize>(),
        total,
        "every combination is classified"
    );
    if shard.is_none() {
        assert!(
            refused.get(&NOT_IN_STAGE).copied().unwrap_or(0) > 0,
            "E49990 refusals are checked"
        );
        assert!(validated > 0, "some shader validated");
    }
}
