//! Generated entry-point shapes (issue 14 item 2): seeded vertex and
//! fragment shaders (`legalis_testkit::shapes::entry_point_shape`), of the
//! full profile (every type GLSL and SPIR-V carry) and the portable one
//! (what WGSL and Metal varyings can be), compiled to every target; each output is validated by its target's validator and
//! its interface read back and compared with the legalization trace, exactly
//! as the suite does. Every compile is valid or refused with a coded
//! diagnostic that is not an internal error.
//!
//! A second test does the same for the other stages
//! (`legalis_testkit::shapes::stage_shape`): the fields travel through a
//! geometry shader, a hull shader's control points, a domain shader's
//! output patch, a mesh shader's vertices, and the payload of closest-hit,
//! miss and callable shaders (CUDA/OptiX included).
//!
//! CI runs the fixed seeds `0..SHAPES` (150) of vertex and fragment shapes
//! and `0..STAGE_SHAPES` (20) per other stage; `LEGALIS_SHAPES=N` runs N
//! seeds and `LEGALIS_SHAPES_FROM=S` starts at seed S, for longer runs.

use std::collections::BTreeMap;
use std::path::Path;

use legalis_testkit::legalis::{DownstreamValidator, InProcessLegalis};
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
            let first = output.stderr.lines().next().unwrap_or_default();
            let code = first
                .strip_prefix("error[")
                .and_then(|rest| rest.split_once(']'))
                .map(|(code, _)| code.to_string());
            let internal = code
                .as_deref()
                .and_then(|c| c.strip_prefix('E')?.parse().ok())
                .is_some_and(legalis::fuzz::is_internal);
            match code {
                Some(code) if !internal => {
                    *tally
                        .refused
                        .entry(format!("{stage} {target} {code}"))
                        .or_default() += 1;
                }
                _ => tally
                    .failures
                    .push(fail(format!("not a coded refusal:\n{}", output.stderr))),
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

#[test]
fn generated_shapes_validate_or_are_refused_with_a_code() {
    let count = env_u64("LEGALIS_SHAPES", SHAPES);
    let from = env_u64("LEGALIS_SHAPES_FROM", 0);
    let dir = scratch("generated-shapes");
    let mut tally = Tally::default();
    for seed in from..from + count {
        for profile in [Profile::Full, Profile::Portable] {
            check(&entry_point_shape(seed, profile), &dir, &mut tally);
        }
    }
    report("generated shapes", from, count, &tally);
    // The generator must keep producing shaders that compile, or the test
    // would only ever check refusals: three in four of each profile on the
    // targets that carry it (WGSL and Metal varyings are no matrices or
    // arrays, nor 64-bit, 16-bit integer or bool values).
    let mut expected = vec![("glsl", Profile::Full), ("spirv-asm", Profile::Full)];
    expected
        .extend(["glsl", "spirv-asm", "wgsl", "metal"].map(|target| (target, Profile::Portable)));
    for (target, profile) in expected {
        let ok: usize = ["vertex", "fragment"]
            .iter()
            .map(|&stage| {
                tally
                    .validated
                    .get(&(stage, target, profile))
                    .copied()
                    .unwrap_or(0)
            })
            .sum();
        assert!(
            ok as u64 * 4 >= count * 3,
            "only {ok} of {count} {profile:?} shapes compiled for {target}"
        );
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
    // Three in four of each stage and profile compile where the target has
    // the stage: GLSL and SPIR-V all, CUDA the ray-tracing stages, Metal
    // the mesh stage (portable profile: Metal varyings are no matrices,
    // arrays, 64-bit, 16-bit integer or bool values).
    for stage in MORE_STAGES {
        let ray = matches!(stage, "closesthit" | "miss" | "callable");
        for profile in [Profile::Full, Profile::Portable] {
            let mut targets = vec!["glsl", "spirv-asm"];
            if ray {
                targets.push("cuda");
            }
            if stage == "mesh" && profile == Profile::Portable {
                targets.push("metal");
            }
            for target in targets {
                let ok = tally
                    .validated
                    .get(&(stage, target, profile))
                    .copied()
                    .unwrap_or(0);
                assert!(
                    ok as u64 * 4 >= count * 3,
                    "only {ok} of {count} {profile:?} {stage} shapes compiled for {target}"
                );
            }
        }
    }
}
