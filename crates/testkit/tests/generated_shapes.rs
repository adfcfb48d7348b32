//! Generated entry-point shapes (issue 14 item 2): seeded vertex and
//! fragment shaders (`legalis_testkit::shapes::entry_point_shape`), of the
//! full profile (every type GLSL and SPIR-V carry) and the portable one
//! (what WGSL and Metal varyings can be), compiled to every target; each output is validated by its target's validator and
//! its interface read back and compared with the legalization trace, exactly
//! as the suite does. Every compile is valid or refused with a coded
//! diagnostic that is not an internal error.
//!
//! CI runs the fixed seeds `0..SHAPES` (150); `LEGALIS_SHAPES=N` runs N
//! seeds and `LEGALIS_SHAPES_FROM=S` starts at seed S, for longer runs.

use std::collections::BTreeMap;
use std::path::Path;

use legalis_testkit::legalis::{DownstreamValidator, InProcessLegalis};
use legalis_testkit::runner::{Compiler, TRACE_OPTION, Validator};
use legalis_testkit::shapes::{Profile, entry_point_shape};

const SHAPES: u64 = 150;
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

#[test]
fn generated_shapes_validate_or_are_refused_with_a_code() {
    let count = env_u64("LEGALIS_SHAPES", SHAPES);
    let from = env_u64("LEGALIS_SHAPES_FROM", 0);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("generated-shapes");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    let mut validated: BTreeMap<(&str, Profile), usize> = BTreeMap::new();
    let mut refused: BTreeMap<String, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    let shapes = (from..from + count)
        .flat_map(|seed| [Profile::Full, Profile::Portable].map(|p| entry_point_shape(seed, p)));
    for shape in shapes {
        let seed = shape.seed;
        let profile = shape.profile;
        let file = dir.join(format!("shape-{seed}-{profile:?}.slang"));
        std::fs::write(&file, &shape.source).expect("shader file");
        for target in TARGETS {
            let args: Vec<String> = ["-target", target, "-entry", "main", "-stage", shape.stage]
                .map(String::from)
                .to_vec();
            let fail = |why: String| {
                format!(
                    "seed {seed} ({profile:?}), {target}: {why}\n{}",
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
                        *refused.entry(format!("{target} {code}")).or_default() += 1;
                    }
                    _ => failures.push(fail(format!("not a coded refusal:\n{}", output.stderr))),
                }
                continue;
            }
            let result = DownstreamValidator
                .validate_directive(&file, &args, target, Some(shape.stage), &output.stdout)
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
                    DownstreamValidator.round_trip(
                        target,
                        Some(shape.stage),
                        &output.stdout,
                        &trace.stdout,
                    )
                });
            match result {
                Ok(()) => *validated.entry((target, profile)).or_default() += 1,
                Err(error) => {
                    failures.push(fail(format!("{error}\n--- output ---\n{}", output.stdout)))
                }
            }
        }
    }
    eprintln!("generated shapes: seeds {from}..{}", from + count);
    eprintln!("  validated and round-tripped: {validated:?}");
    eprintln!("  refused with a code: {refused:?}");
    eprintln!("  failures: {}", failures.len());
    assert!(
        failures.is_empty(),
        "{} generated compiles failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    // The generator must keep producing shaders that compile, or the test
    // would only ever check refusals: three in four of each profile on the
    // targets that carry it (WGSL and Metal varyings are no matrices or
    // arrays, nor 64-bit, 16-bit integer or bool values).
    let mut expected = vec![("glsl", Profile::Full), ("spirv-asm", Profile::Full)];
    expected
        .extend(["glsl", "spirv-asm", "wgsl", "metal"].map(|target| (target, Profile::Portable)));
    for (target, profile) in expected {
        let ok = validated.get(&(target, profile)).copied().unwrap_or(0) as u64;
        assert!(
            ok * 4 >= count * 3,
            "only {ok} of {count} {profile:?} shapes compiled for {target}"
        );
    }
}
