//! The runner end to end over `tests/fixtures/`, with a fake compiler that
//! returns canned output, so the suite needs neither Python nor a real
//! compiler: passing files pass (snapshots included), each broken file
//! fails the way it should, and a validator rejection or a snapshot
//! difference fails a directive whose checks hold.

use std::path::{Path, PathBuf};

use legalis_testkit::runner::{
    self, CompileOutput, Compiler, Options, Summary, UnsupportedPolicy, Validator,
};

const GLSL: &str = "#version 450\nlayout(location = 0) in vec3 input_pos_0;\n\
layout(location = 1)  in\tvec2 input_uv_0;\nvoid main()\n{\n    gl_Position = vec4(input_pos_0, input_uv_0.x);\n}\n";

const SPIRV_ASM: &str = "OpDecorate %input_pos Location 0\nOpDecorate %input_uv Location 1\n\
%input_pos = OpVariable %_ptr_Input_v3float Input\n";

/// Canned output by file name and `-target`, as the reference prints it.
struct FakeCompiler;

impl Compiler for FakeCompiler {
    fn run(&self, file: &Path, args: &[String]) -> CompileOutput {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let target = args
            .iter()
            .skip_while(|a| *a != "-target")
            .nth(1)
            .map(String::as_str);
        let ok = |stdout: &str| CompileOutput {
            stdout: stdout.to_string(),
            stderr: String::new(),
            exit_code: Some(0),
        };
        let bogus = |line: usize| CompileOutput {
            stdout: String::new(),
            stderr: format!(
                "E49999\terror\t{name}\t{line}\t12\t{line}\t13\tunknown system-value semantic\n\
                 E49999\tspan\t{name}\t{line}\t12\t{line}\t13\tunknown system-value semantic 'SV_Bogus'\n"
            ),
            exit_code: Some(255),
        };
        match (name.as_str(), target) {
            ("unknown-semantic.slang", _) => bogus(10),
            ("wrong-caret.slang", _) => bogus(9),
            (_, Some("spirv-asm")) => ok(SPIRV_ASM),
            _ => ok(GLSL),
        }
    }
}

struct Rejecting;

impl Validator for Rejecting {
    fn validate(&self, target: &str, stage: Option<&str>, _output: &str) -> Result<(), String> {
        Err(format!(
            "{target}/{stage:?}: 'main' : function already has a body"
        ))
    }
}

/// Relative to the package folder, where cargo runs integration tests, so
/// reports and snapshot metadata hold no machine paths.
fn fixtures() -> PathBuf {
    PathBuf::from("tests/fixtures")
}

fn options(snapshot_dir: Option<PathBuf>) -> Options<'static> {
    Options {
        compiler: &FakeCompiler,
        validator: None,
        snapshot_dir,
        require_meta: true,
        unsupported: UnsupportedPolicy::Fail,
        filter: None,
        partition: None,
    }
}

fn run(dir: &Path, options: &Options<'_>) -> (Summary, String) {
    let mut out = Vec::new();
    let summary = runner::run_dir(dir, options, &mut out).expect("fixtures readable");
    (summary, String::from_utf8(out).expect("utf-8 report"))
}

#[test]
fn passing_fixtures_pass_with_their_snapshots() {
    let dir = fixtures();
    let (summary, report) = run(&dir.join("pass"), &options(Some(dir.join("snapshots"))));
    assert_eq!(
        summary,
        Summary {
            passed: 3,
            failed: 0,
            skipped: 0
        },
        "{report}"
    );
    assert!(report.contains("PASS "), "{report}");
    assert!(
        report.contains("vertex-flatten.slang:5 //TEST:SIMPLE(filecheck=GLSL)"),
        "{report}"
    );
    assert_eq!(summary.line(), "3 passed, 0 failed");
}

#[test]
fn failing_fixtures_fail_for_the_right_reasons() {
    let (summary, report) = run(&fixtures().join("fail"), &options(None));
    let expected = [
        "FAIL ", // every line below belongs to a failure
        "compute.slang:5 //TEST(compute):COMPUTE_TEST:-cpu -entry main",
        "unsupported directive kind 'COMPUTE_TEST'",
        "malformed.slang:5 malformed directive: expected ':' and the compiler arguments after SIMPLE",
        "malformed.slang:7 malformed directive: unknown check suffix in 'HLSL-DAGG'",
        "no-meta.slang:1 missing //META: block",
        "wrong-caret.slang:10: no diagnostic matches the annotation: line 9, columns 13..14",
        "unexpected diagnostic (no annotation): error[E49999] at wrong-caret.slang:9:12-9:13",
        "wrong-check.slang:7: error: GLSL: expected string not found in input",
        "looked for (regex): layout\\(location = 5\\)",
        "note: scanning from here",
        "> 1 | #version 450",
        "wrong-check.slang:5 //TEST:SIMPLE(filecheck=GLSL):-target glsl -entry main -stage vertex",
    ];
    for text in expected {
        assert!(report.contains(text), "missing {text:?} in:\n{report}");
    }
    assert!(!report.contains("PASS "), "{report}");
    assert_eq!(
        summary,
        Summary {
            passed: 0,
            failed: 7,
            skipped: 0
        },
        "{report}"
    );
}

#[test]
fn foreign_policy_skips_unsupported_kinds_and_meta() {
    let mut options = options(None);
    options.require_meta = false;
    options.unsupported = UnsupportedPolicy::Skip;
    options.filter = Some("compute".to_string());
    let (summary, report) = run(&fixtures().join("fail"), &options);
    assert_eq!(
        summary,
        Summary {
            passed: 0,
            failed: 0,
            skipped: 1
        },
        "{report}"
    );
    assert!(report.starts_with("SKIP "), "{report}");
    assert_eq!(summary.line(), "0 passed, 0 failed, 1 skipped");
}

#[test]
fn a_validator_rejection_fails_passing_checks() {
    let mut options = options(None);
    options.validator = Some(&Rejecting);
    options.filter = Some("vertex-flatten".to_string());
    let (summary, report) = run(&fixtures().join("pass"), &options);
    assert_eq!(summary.failed, 2, "{report}");
    assert!(
        report.contains("the glsl validator rejects the output:"),
        "{report}"
    );
    assert!(
        report.contains("glsl/Some(\"vertex\"): 'main' : function already has a body"),
        "{report}"
    );
}

#[test]
fn a_snapshot_difference_fails() {
    let dir = std::env::temp_dir().join(format!("legalis-testkit-snap-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pinned =
        std::fs::read_to_string(fixtures().join("snapshots/unknown-semantic@1.snap")).unwrap();
    std::fs::write(
        dir.join("unknown-semantic@1.snap"),
        pinned.replace("SV_Bogus", "SV_Other"),
    )
    .unwrap();
    runner::quiet_snapshot_panics();
    let mut options = options(Some(dir.clone()));
    options.filter = Some("unknown-semantic".to_string());
    let (summary, report) = run(&fixtures().join("pass"), &options);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(summary.failed, 1, "{report}");
    assert!(
        report.contains("unknown-semantic@1.snap does not match the output"),
        "{report}"
    );
}

#[test]
fn partitions_split_every_file_into_exactly_one_shard() {
    use legalis_testkit::runner::Partition;
    assert_eq!(
        Partition::parse("2/3"),
        Some(Partition { index: 2, count: 3 })
    );
    for bad in ["0/3", "4/3", "1/0", "x/2", "2", "1/2/3"] {
        assert_eq!(Partition::parse(bad), None, "{bad}");
    }
    let names: Vec<std::path::PathBuf> = (0..200)
        .map(|i| std::path::PathBuf::from(format!("tests/legalize/case-{i}.slang")))
        .collect();
    let shards: Vec<Partition> = (1..=4).map(|k| Partition { index: k, count: 4 }).collect();
    let mut sizes = [0usize; 4];
    for name in &names {
        let owners: Vec<usize> = (0..4).filter(|&k| shards[k].contains(name)).collect();
        assert_eq!(owners.len(), 1, "{}", name.display());
        sizes[owners[0]] += 1;
        // The shard depends on the file name only, not its folder.
        let moved = std::path::Path::new("elsewhere").join(name.file_name().unwrap());
        assert!(shards[owners[0]].contains(&moved));
    }
    assert!(sizes.iter().all(|&n| n > 20), "{sizes:?}");
}

/// A snapshot file that is not a snapshot (truncated, binary, no header)
/// fails its directive with a message naming the file; it never panics the
/// run or passes.
#[test]
fn a_corrupt_snapshot_fails_naming_the_file() {
    let dir = std::env::temp_dir().join(format!("legalis-testkit-corrupt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    runner::quiet_snapshot_panics();
    for (i, garbage) in [
        &b"---\nsource: trunc"[..],
        &[0xff, 0xfe, 0x00, 0x9f][..],
        &b""[..],
    ]
    .into_iter()
    .enumerate()
    {
        std::fs::write(dir.join("unknown-semantic@1.snap"), garbage).unwrap();
        let mut options = options(Some(dir.clone()));
        options.filter = Some("unknown-semantic".to_string());
        let (summary, report) = run(&fixtures().join("pass"), &options);
        assert_eq!(summary.failed, 1, "garbage {i}: {report}");
        assert_eq!(summary.passed, 0, "garbage {i}: {report}");
        assert!(
            report.contains("unknown-semantic@1.snap"),
            "garbage {i}: {report}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A compiler that panics on one file, as a bug in Legalis would.
struct PanicsOn(&'static str);

impl Compiler for PanicsOn {
    fn run(&self, file: &Path, args: &[String]) -> CompileOutput {
        if file.file_name().is_some_and(|name| name == self.0) {
            panic!("injected compiler panic");
        }
        FakeCompiler.run(file, args)
    }
}

/// A validator that panics on every output.
struct PanickingValidator;

impl Validator for PanickingValidator {
    fn validate(&self, _target: &str, _stage: Option<&str>, _output: &str) -> Result<(), String> {
        panic!("injected validator panic");
    }
}

/// A panic in the compiler or a validator is a failed directive, named,
/// with the reason; no other result of the run is lost, and the run gives
/// exactly as many results as `expected_results` reads directives.
#[test]
fn a_panic_fails_its_directive_and_loses_no_result() {
    let dir = fixtures().join("pass");
    let compiler = PanicsOn("vertex-flatten.slang");
    let mut options = options(None);
    options.compiler = &compiler;
    let expected = runner::expected_results(&dir, &options).expect("fixtures readable");
    assert_eq!(expected, 3);
    let mut out = Vec::new();
    let (summary, records) =
        runner::run_dir_recorded(&dir, &options, &mut out).expect("fixtures readable");
    let report = String::from_utf8(out).expect("utf-8 report");
    assert_eq!(records.len(), expected, "{report}");
    assert_eq!(summary.total(), expected, "{report}");
    assert_eq!((summary.passed, summary.failed), (1, 2), "{report}");
    let failed: Vec<_> = records
        .iter()
        .filter(|r| r.status == runner::Status::Fail)
        .collect();
    for record in failed {
        assert!(record.file.ends_with("vertex-flatten.slang"), "{report}");
        assert!(
            record.reasons[0].contains("injected compiler panic"),
            "{report}"
        );
    }
    assert!(
        report.contains(
            "FAIL tests/fixtures/pass/vertex-flatten.slang:5 //TEST:SIMPLE(filecheck=GLSL)"
        ),
        "{report}"
    );

    let mut options = self::options(None);
    options.validator = Some(&PanickingValidator);
    let (summary, report) = run(&dir, &options);
    assert!(summary.failed >= 1, "{report}");
    assert_eq!(summary.total(), expected, "{report}");
    assert!(report.contains("injected validator panic"), "{report}");
}
