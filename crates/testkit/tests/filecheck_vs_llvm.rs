//! Differential test: `legalis-filecheck` and the suite runner's FileCheck
//! must agree with LLVM's FileCheck on every case below: the binary on the
//! exit status (0 pass, 1 check failure, 2 bad check file or empty input),
//! the runner on pass or fail for a test file made of the same checks.
//!
//! LLVM's FileCheck is found as `$LLVM_FILECHECK`, `FileCheck` or
//! `FileCheck-N` on `PATH`, or Debian's `/usr/lib/llvm-N/bin/FileCheck`
//! (the highest N). Without it the test FAILS, naming the install command
//! (`cargo xtask setup` installs it as root): it never reports agreement it
//! did not observe. The status column of `CASES` documents LLVM's answer and
//! is checked against it too.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use legalis_testkit::runner::{self, CompileOutput, Compiler, Options, UnsupportedPolicy};

/// (name, check file, input, the status both must give).
const CASES: &[(&str, &str, &str, i32)] = &[
    ("plain", "CHECK: a\nCHECK: c\n", "a\nb\nc\n", 0),
    ("plain-order", "CHECK: c\nCHECK: a\n", "a\nb\nc\n", 1),
    (
        "whitespace",
        "CHECK: layout(location = 0)   in\n",
        "layout(location\t=  0) in x\n",
        0,
    ),
    ("whitespace-needed", "CHECK: ab\n", "a b\n", 1),
    ("regex", "CHECK: v{{[0-9]+}}x\n", "v12x\n", 0),
    ("regex-alt", "CHECK: a{{b|c}}d\n", "acd\n", 0),
    ("regex-line", "CHECK: a{{.*}}b\n", "a\nb\n", 1),
    ("regex-negated-class", "CHECK: a{{[^;]*}}b\n", "a\nb\n", 1),
    (
        "var",
        "CHECK: %[[ID:[0-9]+]] = def\nCHECK: use %[[ID]]\n",
        "%7 = def\nuse %7\n",
        0,
    ),
    (
        "var-mismatch",
        "CHECK: %[[ID:[0-9]+]] = def\nCHECK: use %[[ID]]\n",
        "%7 = def\nuse %8\n",
        1,
    ),
    ("var-undefined", "CHECK: [[NOPE]]\n", "x\n", 1),
    ("at-line", "CHECK: line [[@LINE]]\n", "line 1\n", 0),
    ("next", "CHECK: a\nCHECK-NEXT: b\n", "a\nb\n", 0),
    ("next-far", "CHECK: a\nCHECK-NEXT: c\n", "a\nb\nc\n", 1),
    ("next-same-line", "CHECK: a\nCHECK-NEXT: b\n", "a b\n", 1),
    ("next-first", "CHECK-NEXT: a\n", "a\n", 2),
    ("same", "CHECK: a\nCHECK-SAME: c\n", "a b c\n", 0),
    (
        "same-other-line",
        "CHECK: a\nCHECK-SAME: c\n",
        "a b\nc\n",
        1,
    ),
    (
        "empty",
        "CHECK: a\nCHECK-EMPTY:\nCHECK-NEXT: b\n",
        "a\n\nb\n",
        0,
    ),
    ("empty-far", "CHECK: a\nCHECK-EMPTY:\n", "a\nx\n\n", 1),
    ("empty-at-end", "CHECK: a\nCHECK-EMPTY:\n", "a\n", 0),
    ("empty-none", "CHECK: a\nCHECK-EMPTY:\n", "a\nx", 1),
    ("empty-with-text", "CHECK: a\nCHECK-EMPTY: x\n", "a\n", 2),
    ("not", "CHECK: a\nCHECK-NOT: x\nCHECK: b\n", "a\nb\nx\n", 0),
    (
        "not-found",
        "CHECK: a\nCHECK-NOT: x\nCHECK: b\n",
        "a\nx\nb\n",
        1,
    ),
    ("not-leading", "CHECK-NOT: x\nCHECK: a\n", "x\na\n", 1),
    ("not-trailing", "CHECK: a\nCHECK-NOT: x\n", "a\nx\n", 1),
    ("not-trailing-ok", "CHECK: a\nCHECK-NOT: x\n", "x\na\n", 0),
    (
        "dag",
        "CHECK-DAG: b\nCHECK-DAG: a\nCHECK: c\n",
        "a\nb\nc\n",
        0,
    ),
    ("dag-overlap", "CHECK-DAG: x\nCHECK-DAG: x\n", "x\n", 1),
    ("dag-two", "CHECK-DAG: x\nCHECK-DAG: x\n", "x x\n", 0),
    (
        "dag-after-plain",
        "CHECK: a\nCHECK-DAG: b\nCHECK: c\n",
        "a\nc\nb\n",
        1,
    ),
    (
        "dag-not-dag",
        "CHECK-DAG: a\nCHECK-NOT: x\nCHECK-DAG: b\n",
        "a\nb\nx\n",
        0,
    ),
    (
        "dag-not-dag-found",
        "CHECK-DAG: a\nCHECK-NOT: x\nCHECK-DAG: b\n",
        "a\nx\nb\n",
        1,
    ),
    (
        "dag-not-dag-order",
        "CHECK-DAG: a\nCHECK-NOT: x\nCHECK-DAG: b\n",
        "b\na\n",
        1,
    ),
    (
        "dag-var",
        "CHECK-DAG: v[[N:[0-9]]]\nCHECK: use [[N]]\n",
        "v3\nuse 3\n",
        0,
    ),
    ("count", "CHECK-COUNT-3: x\n", "x x\nx\n", 0),
    ("count-short", "CHECK-COUNT-3: x\n", "x\nx\n", 1),
    ("count-zero", "CHECK-COUNT-0: x\n", "x\n", 2),
    (
        "label",
        "CHECK-LABEL: f1\nCHECK: ret\nCHECK-LABEL: f2\nCHECK: ret\n",
        "f1\nret\nf2\nret\n",
        0,
    ),
    (
        "label-block",
        "CHECK-LABEL: f1\nCHECK: ret\nCHECK-LABEL: f2\nCHECK: ret\n",
        "f1\nf2\nret\n",
        1,
    ),
    (
        "label-missing",
        "CHECK-LABEL: f1\nCHECK-LABEL: f3\n",
        "f1\nf2\n",
        1,
    ),
    (
        "label-not",
        "CHECK-LABEL: f1\nCHECK-NOT: x\nCHECK-LABEL: f2\n",
        "f1\nf2\nx\n",
        0,
    ),
    (
        "label-not-found",
        "CHECK-LABEL: f1\nCHECK-NOT: x\nCHECK-LABEL: f2\n",
        "f1\nx\nf2\n",
        1,
    ),
    (
        "glued",
        "XCHECK: nothing\nCHECK: a\nCHECKS: nope\n",
        "a\n",
        0,
    ),
    ("no-checks", "nothing here\n", "a\n", 2),
    ("empty-pattern", "CHECK:\n", "a\n", 2),
    ("empty-input", "CHECK: a\n", "", 2),
    ("empty-input-not-only", "CHECK-NOT: a\n", "", 2),
    ("newline-input", "CHECK-NOT: a\n", "\n", 0),
    ("unclosed-regex", "CHECK: {{abc\n", "abc\n", 2),
    (
        "comment-prefix",
        "//CHECK: a\n// CHECK-NEXT: b\n",
        "a\nb\n",
        0,
    ),
    // `{{^}}` matches at each line start and where the previous match
    // ended: LLVM matches on the buffer from there.
    ("anchor-line", "CHECK: a\nCHECK: {{^}}b\n", "a\nb\n", 0),
    ("anchor-after-match", "CHECK: a\nCHECK: {{^}}b\n", "ab\n", 0),
    ("anchor-same", "CHECK: a\nCHECK-SAME: {{^}}b\n", "ab\n", 0),
    ("anchor-mid-line", "CHECK: a\nCHECK: {{^}}c\n", "abc\n", 1),
    ("anchor-indented", "CHECK: {{^}}b\n", " b\n", 1),
    ("anchor-end", "CHECK: a{{$}}\n", "ab\na\n", 0),
    (
        "anchor-not-region-end",
        "CHECK: a\nCHECK-NOT: x{{$}}\nCHECK: y\n",
        "axy\n",
        1,
    ),
    ("anchor-count", "CHECK-COUNT-2: {{^}}x\n", "xx\n", 0),
    // `{LITERAL}`: no regex, no variables.
    (
        "literal",
        "CHECK{LITERAL}: {{x}} [[y]]\n",
        "{{x}} [[y]]\n",
        0,
    ),
    ("literal-no-regex", "CHECK{LITERAL}: {{x}}\n", "x\n", 1),
    (
        "literal-next",
        "CHECK: a\nCHECK-NEXT{LITERAL}: [[@LINE]]\n",
        "a\n[[@LINE]]\n",
        0,
    ),
    (
        "literal-dag",
        "CHECK-DAG{ LITERAL , LITERAL }: a.b\n",
        "axb\n",
        1,
    ),
    (
        "literal-count",
        "CHECK-COUNT-2{LITERAL}: {{a}}\n",
        "{{a}} {{a}}\n",
        0,
    ),
    ("literal-empty", "CHECK{LITERAL}:\n", "x\n", 2),
    ("modifier-unknown", "CHECK{FOO}: x\nCHECK: a\n", "a\n", 0),
    // `_` for `-` is a misspelled directive; an unknown word is no directive.
    ("misspelled-next", "CHECK: a\nCHECK_NEXT: b\n", "a\nb\n", 2),
    ("misspelled-not", "CHECK: a\nCHECK_NOT: b\n", "a\n", 2),
    ("misspelled-dag", "CHECK: a\nCHECK_DAG: b\n", "a\nb\n", 2),
    ("misspelled-same", "CHECK: a\nCHECK_SAME: b\n", "a b\n", 2),
    ("misspelled-empty", "CHECK: a\nCHECK_EMPTY:\n", "a\n\n", 2),
    ("misspelled-label", "CHECK_LABEL: a\n", "a\n", 2),
    ("misspelled-count", "CHECK_COUNT-2: a\n", "a a\n", 2),
    (
        "misspelled-literal",
        "CHECK: a\nCHECK_NEXT{LITERAL}: b\n",
        "a\nb\n",
        2,
    ),
    ("glued-next", "CHECK: a\nCHECKNEXT: b\n", "a\nx\n", 0),
    ("unknown-suffix-word", "CHECK: a\nCHECK_FOO: b\n", "a\n", 0),
    ("lowercase-suffix", "CHECK: a\nCHECK-next: b\n", "a\n", 0),
    // `COM:` and `RUN:` lines are comments, even with a check after them.
    ("com", "COM: CHECK: x\nCHECK: a\n", "a\n", 0),
    ("com-glued-colon", "COM:CHECK: x\nCHECK: a\n", "a\n", 0),
    ("com-run", "RUN: CHECK: x\nCHECK: a\n", "a\n", 0),
    ("com-only", "COM: CHECK: x\n", "a\n", 2),
    ("com-glued-word", "XCOM: CHECK: x\nCHECK: a\n", "a\n", 1),
    ("com-suffix", "COM-NOT: CHECK: x\nCHECK: a\n", "a\n", 1),
    ("com-in-pattern", "CHECK: a COM: b\n", "a COM: b\n", 0),
];

/// Cases where the suite runner fails a test file although LLVM passes the
/// same checks, on purpose: the suite's directive parser rejects check
/// lines of a declared prefix with an unknown `-SUFFIX` (FileCheck silently
/// ignores them). Still run: the runner must fail and LLVM pass.
const RUNNER_STRICTER: &[&str] = &["lowercase-suffix"];

/// LLVM's FileCheck, 19 or newer (`legalis_testkit::filecheck::llvm`, the
/// search `cargo xtask setup` uses too).
fn llvm_filecheck() -> Result<PathBuf, String> {
    legalis_testkit::filecheck::llvm::find()
}

fn status(program: &Path, check_file: &Path, input: &Path) -> i32 {
    let output = Command::new(program)
        .arg(check_file)
        .arg("--input-file")
        .arg(input)
        .output()
        .expect("run FileCheck");
    output.status.code().expect("exit status")
}

/// A compiler whose output is always the case's input.
struct Echo(String);

impl Compiler for Echo {
    fn run(&self, _file: &Path, _args: &[String]) -> CompileOutput {
        CompileOutput {
            stdout: self.0.clone(),
            stderr: String::new(),
            exit_code: Some(0),
        }
    }
}

/// The case as a suite test file: a directive, then each check-file line
/// behind `//` (unless it has one). LLVM reads the same file, so both see the same checks.
fn test_file(checks: &str) -> String {
    let mut text =
        String::from("//TEST:SIMPLE(filecheck=CHECK):-target glsl -entry main -stage compute\n");
    for line in checks.lines() {
        let comment = if line.starts_with("//") { "" } else { "//" };
        text.push_str(&format!("{comment}{line}\n"));
    }
    text
}

/// Whether the runner passes the test file when the compiler prints `input`.
fn runner_passes(test: &Path, input: &str) -> bool {
    let compiler = Echo(input.to_string());
    let options = Options {
        compiler: &compiler,
        validator: None,
        snapshot_dir: None,
        require_meta: false,
        unsupported: UnsupportedPolicy::Fail,
        filter: None,
        partition: None,
    };
    let mut out = Vec::new();
    let summary = runner::run_file(test, &options, &mut out).expect("run the test file");
    let _ = std::io::stdout().write_all(&out);
    summary.failed == 0 && summary.passed == 1
}

#[test]
fn legalis_filecheck_and_the_runner_agree_with_llvm_filecheck() {
    let llvm = llvm_filecheck().unwrap_or_else(|reason| panic!("{reason}"));
    let ours = PathBuf::from(env!("CARGO_BIN_EXE_legalis-filecheck"));
    let dir = std::env::temp_dir().join(format!("legalis-filecheck-diff-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut disagreements = Vec::new();
    for (name, checks, input, documented) in CASES {
        let check_file = dir.join(format!("{name}.check"));
        let input_file = dir.join(format!("{name}.in"));
        std::fs::write(&check_file, checks).expect("write check file");
        std::fs::write(&input_file, input).expect("write input");
        let reference = status(&llvm, &check_file, &input_file);
        let got = status(&ours, &check_file, &input_file);
        if got != reference || reference != *documented {
            disagreements.push(format!(
                "{name}: legalis-filecheck {got}, LLVM {reference}, documented {documented}"
            ));
        }
        let test = dir.join(format!("{name}.slang"));
        std::fs::write(&test, test_file(checks)).expect("write test file");
        let llvm_passes = status(&llvm, &test, &input_file) == 0;
        let passes = runner_passes(&test, input);
        let stricter = RUNNER_STRICTER.contains(name);
        let agree = if stricter {
            llvm_passes && !passes
        } else {
            llvm_passes == passes
        };
        if !agree {
            disagreements.push(format!(
                "{name}: as a suite test file the runner {}, LLVM {}{}",
                if passes { "passes" } else { "fails" },
                if llvm_passes { "passes" } else { "fails" },
                if stricter {
                    " (the runner should be stricter here)"
                } else {
                    ""
                },
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        disagreements.is_empty(),
        "against {}:\n{}",
        llvm.display(),
        disagreements.join("\n")
    );
    println!("{} cases agree with {}", CASES.len(), llvm.display());
}
