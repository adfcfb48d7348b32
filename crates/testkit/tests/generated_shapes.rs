//! Generated entry-point shapes (issue 14 item 2): seeded vertex and
//! fragment shaders (`legalis_testkit::shapes::entry_point_shape`), of the
//! full profile (every type GLSL and SPIR-V carry) and the portable one
//! (what WGSL and Metal varyings can be), compiled to every target; each output is validated by its target's validator and
//! its interface read back and compared with the legalization trace, exactly
//! as the suite does. Every compile is valid or refused with a coded
//! diagnostic, and no diagnostic of it is an internal error
//! (`legalis::codes::INTERNAL`, the codes `docs/diagnostics.md` calls "a
//! bug in Legalis").
//!
//! A second test does the same for the other stages
//! (`legalis_testkit::shapes::stage_shape`): the fields travel through a
//! geometry shader, a hull shader's control points, a domain shader's
//! output patch, a mesh shader's vertices, and the payload of closest-hit,
//! miss and callable shaders (CUDA/OptiX included).
//!
//! Whatever the seeds, a portable shape validates on every target that has
//! its stage, and a target without the stage refuses with its own code.
//! CI runs the fixed seeds `0..SHAPES` (150) of vertex and fragment shapes
//! and `0..STAGE_SHAPES` (20) per other stage, and for those the counts
//! are pinned: how many validated and how many were refused with which
//! code, per stage, profile and target, so a drift either way fails until
//! the numbers here change with it. `LEGALIS_SHAPES=N` runs N seeds and
//! `LEGALIS_SHAPES_FROM=S` starts at seed S, for longer runs.

use std::collections::BTreeMap;
use std::path::Path;

use legalis_testkit::legalis::{DownstreamValidator, InProcessLegalis, refusal_code};
use legalis_testkit::runner::{Compiler, TRACE_OPTION, Validator};
use legalis_testkit::shapes::{MORE_STAGES, Profile, Shape, entry_point_shape, stage_shape};

const SHAPES: u64 = 150;
/// Seeds per stage of the other stages.
const STAGE_SHAPES: u64 = 20;
/// CUDA compiles compute and ray-tracing entry points only: for the vertex
/// and fragment shapes it must refuse with a code.
const TARGETS: [&str; 5] = ["glsl", "spirv-asm", "wgsl", "metal", "cuda"];

fn env_u64(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(text) => text
            .parse()
            .unwrap_or_else(|_| panic!("{name}={text:?} is not a number")),
        Err(_) => default,
    }
}

/// What the compiles of a run came to.
#[derive(Default)]
struct Tally {
    validated: BTreeMap<(&'static str, &'static str, Profile), usize>,
    /// Refusals by stage, target, profile and code: `vertex glsl Full E49994`.
    refused: BTreeMap<String, usize>,
    failures: Vec<String>,
}

/// Compiles `shape` to every target: each output validated and
/// round-tripped, or a refusal with a code that is not internal.
fn check(shape: &Shape, dir: &Path, tally: &mut Tally) {
    let seed = shape.seed;
    let profile = shape.profile;
    let stage = shape.stage;
    let file = dir.join(format!("shape-{stage}-{seed}-{profile:?}.slang"));
    std::fs::write(&file, &shape.source).expect("shader file");
    for target in TARGETS {
        let args: Vec<String> = ["-target", target, "-entry", "main", "-stage", stage]
            .map(String::from)
            .to_vec();
        let fail = |why: String| {
            format!(
                "{stage} seed {seed} ({profile:?}), {target}: {why}\n{}",
                shape.source
            )
        };
        let output = InProcessLegalis.run(&file, &args);
        if output.exit_code != Some(0) {
            match refusal_code(&output.stderr).filter(|_| output.exit_code == Some(1)) {
                Some(code) => {
                    *tally
                        .refused
                        .entry(format!("{stage} {target} {profile:?} {code}"))
                        .or_default() += 1;
                }
                None => tally.failures.push(fail(format!(
                    "an internal error or not a coded refusal (exit {:?}):\n{}",
                    output.exit_code, output.stderr
                ))),
            }
            continue;
        }
        let result = DownstreamValidator
            .validate_directive(&file, &args, target, Some(stage), &output.stdout)
            .and_then(|_| {
                if !DownstreamValidator.wants_trace(target) {
                    return Ok(());
                }
                let mut traced = args.clone();
                traced.push(format!("{TRACE_OPTION}=json"));
                let trace = InProcessLegalis.run(&file, &traced);
                if trace.exit_code != Some(0) {
                    return Err(format!("the trace failed:\n{}", trace.stderr));
                }
                DownstreamValidator.round_trip(target, Some(stage), &output.stdout, &trace.stdout)
            });
        match result {
            Ok(()) => *tally.validated.entry((stage, target, profile)).or_default() += 1,
            Err(error) => tally
                .failures
                .push(fail(format!("{error}\n--- output ---\n{}", output.stdout))),
        }
    }
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

fn report(what: &str, from: u64, count: u64, tally: &Tally) {
    eprintln!("{what}: seeds {from}..{}", from + count);
    eprintln!("  validated and round-tripped: {:?}", tally.validated);
    eprintln!("  refused with a code: {:?}", tally.refused);
    eprintln!("  failures: {}", tally.failures.len());
    assert!(
        tally.failures.is_empty(),
        "{} generated compiles failed:\n\n{}",
        tally.failures.len(),
        tally.failures.join("\n\n")
    );
}

/// Whether `target` has `stage` at all.
fn has_stage(target: &str, stage: &str) -> bool {
    match target {
        "wgsl" => matches!(stage, "vertex" | "fragment"),
        "metal" => matches!(stage, "vertex" | "fragment" | "mesh"),
        "cuda" => matches!(stage, "closesthit" | "miss" | "callable"),
        _ => true,
    }
}

/// The code a target refuses a stage it does not have with.
fn unsupported_stage(target: &str) -> &'static str {
    match target {
        "wgsl" => "E55201",
        "metal" => "E55301",
        "cuda" => "E55401",
        _ => panic!("{target} has every stage"),
    }
}

/// What holds whatever the seeds: each (stage, profile) had `shapes`
/// shapes; a portable one validated on every target that has its stage,
/// and a target without the stage refused every shape with its code.
fn check_every_seed(tally: &Tally, stage: &'static str, profile: Profile, shapes: usize) {
    for target in TARGETS {
        if has_stage(target, stage) {
            if profile == Profile::Portable {
                let ok = tally
                    .validated
                    .get(&(stage, target, profile))
                    .copied()
                    .unwrap_or(0);
                assert_eq!(
                    ok, shapes,
                    "{ok} of {shapes} portable {stage} shapes validated on {target}"
                );
            }
        } else {
            let code = unsupported_stage(target);
            let refused = tally
                .refused
                .get(&format!("{stage} {target} {profile:?} {code}"))
                .copied()
                .unwrap_or(0);
            assert_eq!(
                refused, shapes,
                "{refused} of {shapes} {profile:?} {stage} shapes refused with {code} by {target}"
            );
        }
    }
}

/// The outcomes of a run as one map: `stage target profile validated`
/// and `stage target profile CODE` (refusals), with their counts.
fn outcomes(tally: &Tally) -> BTreeMap<String, usize> {
    let mut all: BTreeMap<String, usize> = tally.refused.clone();
    for ((stage, target, profile), count) in &tally.validated {
        all.insert(format!("{stage} {target} {profile:?} validated"), *count);
    }
    all
}

/// Compares a default run's outcomes with the pinned ones.
fn check_pinned(tally: &Tally, pinned: &[(&str, usize)]) {
    let expected: BTreeMap<String, usize> = pinned
        .iter()
        .map(|&(what, count)| (what.to_string(), count))
        .collect();
    let seen = outcomes(tally);
    let shown: Vec<String> = seen
        .iter()
        .map(|(what, count)| format!("    (\"{what}\", {count}),"))
        .collect();
    assert!(
        seen == expected,
        "the outcomes of the default seeds are not the pinned ones; change the counts with \
         the change that moved them. This run:\n{}",
        shown.join("\n")
    );
}

/// The outcomes of the default seeds `0..SHAPES` of vertex and fragment
/// shapes. Refusals besides the stages a target lacks: E49994 (an array of
/// structs or of `bool`, which the GLSL/SPIR-V legalizer does not handle
/// yet), E55204 and E55304 (WGSL and Metal varyings are no arrays,
/// 64-bit, 16-bit integer or bool values; a matrix is one varying per
/// row, and `half` is WGSL's `f16`).
const PINNED_SHAPES: &[(&str, usize)] = &[
    ("fragment cuda Full E55401", 76),
    ("fragment cuda Portable E55401", 76),
    ("fragment glsl Full E49994", 7),
    ("fragment glsl Full validated", 69),
    ("fragment glsl Portable validated", 76),
    ("fragment metal Full E55304", 60),
    ("fragment metal Full validated", 16),
    ("fragment metal Portable validated", 76),
    ("fragment spirv-asm Full E49994", 7),
    ("fragment spirv-asm Full validated", 69),
    ("fragment spirv-asm Portable validated", 76),
    ("fragment wgsl Full E55204", 64),
    ("fragment wgsl Full validated", 12),
    ("fragment wgsl Portable validated", 76),
    ("vertex cuda Full E55401", 74),
    ("vertex cuda Portable E55401", 74),
    ("vertex glsl Full E49994", 8),
    ("vertex glsl Full validated", 66),
    ("vertex glsl Portable validated", 74),
    ("vertex metal Full E55304", 52),
    ("vertex metal Full validated", 22),
    ("vertex metal Portable validated", 74),
    ("vertex spirv-asm Full E49994", 8),
    ("vertex spirv-asm Full validated", 66),
    ("vertex spirv-asm Portable validated", 74),
    ("vertex wgsl Full E55204", 59),
    ("vertex wgsl Full validated", 15),
    ("vertex wgsl Portable validated", 74),
];

/// The outcomes of the default seeds `0..STAGE_SHAPES` of every other
/// stage; the refusals are of the same kinds.
const PINNED_STAGE_SHAPES: &[(&str, usize)] = &[
    ("callable cuda Full validated", 20),
    ("callable cuda Portable validated", 20),
    ("callable glsl Full E49994", 2),
    ("callable glsl Full validated", 18),
    ("callable glsl Portable validated", 20),
    ("callable metal Full E55301", 20),
    ("callable metal Portable E55301", 20),
    ("callable spirv-asm Full E49994", 2),
    ("callable spirv-asm Full validated", 18),
    ("callable spirv-asm Portable validated", 20),
    ("callable wgsl Full E55201", 20),
    ("callable wgsl Portable E55201", 20),
    ("closesthit cuda Full validated", 20),
    ("closesthit cuda Portable validated", 20),
    ("closesthit glsl Full E49994", 2),
    ("closesthit glsl Full validated", 18),
    ("closesthit glsl Portable validated", 20),
    ("closesthit metal Full E55301", 20),
    ("closesthit metal Portable E55301", 20),
    ("closesthit spirv-asm Full E49994", 2),
    ("closesthit spirv-asm Full validated", 18),
    ("closesthit spirv-asm Portable validated", 20),
    ("closesthit wgsl Full E55201", 20),
    ("closesthit wgsl Portable E55201", 20),
    ("domain cuda Full E55401", 20),
    ("domain cuda Portable E55401", 20),
    ("domain glsl Full E49994", 2),
    ("domain glsl Full validated", 18),
    ("domain glsl Portable validated", 20),
    ("domain metal Full E55301", 20),
    ("domain metal Portable E55301", 20),
    ("domain spirv-asm Full E49994", 2),
    ("domain spirv-asm Full validated", 18),
    ("domain spirv-asm Portable validated", 20),
    ("domain wgsl Full E55201", 20),
    ("domain wgsl Portable E55201", 20),
    ("geometry cuda Full E55401", 20),
    ("geometry cuda Portable E55401", 20),
    ("geometry glsl Full E49994", 2),
    ("geometry glsl Full validated", 18),
    ("geometry glsl Portable validated", 20),
    ("geometry metal Full E55301", 20),
    ("geometry metal Portable E55301", 20),
    ("geometry spirv-asm Full E49994", 2),
    ("geometry spirv-asm Full validated", 18),
    ("geometry spirv-asm Portable validated", 20),
    ("geometry wgsl Full E55201", 20),
    ("geometry wgsl Portable E55201", 20),
    ("hull cuda Full E55401", 20),
    ("hull cuda Portable E55401", 20),
    ("hull glsl Full E49994", 2),
    ("hull glsl Full validated", 18),
    ("hull glsl Portable validated", 20),
    ("hull metal Full E55301", 20),
    ("hull metal Portable E55301", 20),
    ("hull spirv-asm Full E49994", 2),
    ("hull spirv-asm Full validated", 18),
    ("hull spirv-asm Portable validated", 20),
    ("hull wgsl Full E55201", 20),
    ("hull wgsl Portable E55201", 20),
    ("mesh cuda Full E55401", 20),
    ("mesh cuda Portable E55401", 20),
    ("mesh glsl Full validated", 20),
    ("mesh glsl Portable validated", 20),
    ("mesh metal Full E55304", 18),
    ("mesh metal Full validated", 2),
    ("mesh metal Portable validated", 20),
    ("mesh spirv-asm Full validated", 20),
    ("mesh spirv-asm Portable validated", 20),
    ("mesh wgsl Full E55201", 20),
    ("mesh wgsl Portable E55201", 20),
    ("miss cuda Full validated", 20),
    ("miss cuda Portable validated", 20),
    ("miss glsl Full E49994", 2),
    ("miss glsl Full validated", 18),
    ("miss glsl Portable validated", 20),
    ("miss metal Full E55301", 20),
    ("miss metal Portable E55301", 20),
    ("miss spirv-asm Full E49994", 2),
    ("miss spirv-asm Full validated", 18),
    ("miss spirv-asm Portable validated", 20),
    ("miss wgsl Full E55201", 20),
    ("miss wgsl Portable E55201", 20),
];

#[test]
fn generated_shapes_validate_or_are_refused_with_a_code() {
    let count = env_u64("LEGALIS_SHAPES", SHAPES);
    let from = env_u64("LEGALIS_SHAPES_FROM", 0);
    let dir = scratch("generated-shapes");
    let mut tally = Tally::default();
    let mut shapes: BTreeMap<(&'static str, Profile), usize> = BTreeMap::new();
    for seed in from..from + count {
        for profile in [Profile::Full, Profile::Portable] {
            let shape = entry_point_shape(seed, profile);
            *shapes.entry((shape.stage, profile)).or_default() += 1;
            check(&shape, &dir, &mut tally);
        }
    }
    report("generated shapes", from, count, &tally);
    for ((stage, profile), n) in shapes {
        check_every_seed(&tally, stage, profile, n);
    }
    if (from, count) == (0, SHAPES) {
        check_pinned(&tally, PINNED_SHAPES);
    }
}

/// The other stages: geometry, hull, domain, mesh, closest hit, miss and
/// callable, `STAGE_SHAPES` seeds each of both profiles.
#[test]
fn generated_stage_shapes_validate_or_are_refused_with_a_code() {
    let count = env_u64("LEGALIS_SHAPES", STAGE_SHAPES);
    let from = env_u64("LEGALIS_SHAPES_FROM", 0);
    let dir = scratch("generated-stage-shapes");
    let mut tally = Tally::default();
    for stage in MORE_STAGES {
        for seed in from..from + count {
            for profile in [Profile::Full, Profile::Portable] {
                check(&stage_shape(seed, profile, stage), &dir, &mut tally);
            }
        }
    }
    report("generated stage shapes", from, count, &tally);
    let shapes = usize::try_from(count).expect("a seed count");
    for stage in MORE_STAGES {
        for profile in [Profile::Full, Profile::Portable] {
            check_every_seed(&tally, stage, profile, shapes);
        }
    }
    if (from, count) == (0, STAGE_SHAPES) {
        check_pinned(&tally, PINNED_STAGE_SHAPES);
    }
}

/// Seed 939 (full profile), outside the default seeds: `double4x3 f3[3]`
/// at explicit location 64 takes more than 16 locations, and the next
/// field's explicit location was 16 further (80): a location conflict
/// (E49993) the generator made, not the shader it meant. Explicit
/// locations are 32 apart now, and the shape validates.
#[test]
fn explicit_locations_leave_room_for_the_widest_field() {
    let shape = entry_point_shape(939, Profile::Full);
    assert!(shape.source.contains("double4x3 f3[3]"), "{}", shape.source);
    let dir = scratch("generated-shape-939");
    let mut tally = Tally::default();
    check(&shape, &dir, &mut tally);
    report("seed 939", 939, 1, &tally);
    for target in ["glsl", "spirv-asm"] {
        assert_eq!(
            tally.validated.get(&("vertex", target, Profile::Full)),
            Some(&1),
            "{target}: {:?}",
            tally.refused
        );
    }
}
