//! Differential test: `legalis-filecheck` and LLVM's FileCheck must agree on
//! the exit status (0 pass, 1 check failure, 2 bad check file or input) for
//! every case below.
//!
//! LLVM's FileCheck is found as `$LLVM_FILECHECK`, `FileCheck`, or
//! `FileCheck-N` (Debian's `llvm-N-tools`) on `PATH`. Where none is
//! installed the test prints that it was skipped and why; it never reports
//! agreement it did not observe.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

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
    ("unclosed-regex", "CHECK: {{abc\n", "abc\n", 2),
    (
        "comment-prefix",
        "//CHECK: a\n// CHECK-NEXT: b\n",
        "a\nb\n",
        0,
    ),
];

fn llvm_filecheck() -> Result<PathBuf, String> {
    let mut tried = Vec::new();
    let mut candidates: Vec<String> = std::env::var("LLVM_FILECHECK").into_iter().collect();
    candidates.push("FileCheck".to_string());
    candidates.extend((11..=21).rev().map(|n| format!("FileCheck-{n}")));
    for candidate in candidates {
        let works = Command::new(&candidate)
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|status| status.success());
        if works {
            return Ok(PathBuf::from(candidate));
        }
        tried.push(candidate);
    }
    Err(format!("none of {} runs", tried.join(", ")))
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

#[test]
fn legalis_filecheck_agrees_with_llvm_filecheck() {
    let ours = PathBuf::from(env!("CARGO_BIN_EXE_legalis-filecheck"));
    let llvm = match llvm_filecheck() {
        Ok(llvm) => Some(llvm),
        Err(reason) => {
            println!("SKIPPED the comparison with LLVM FileCheck: {reason}");
            None
        }
    };
    let dir = std::env::temp_dir().join(format!("legalis-filecheck-diff-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut disagreements = Vec::new();
    for (name, checks, input, expected) in CASES {
        let check_file = dir.join(format!("{name}.check"));
        let input_file = dir.join(format!("{name}.in"));
        std::fs::write(&check_file, checks).expect("write check file");
        std::fs::write(&input_file, input).expect("write input");
        let got = status(&ours, &check_file, &input_file);
        let reference = llvm
            .as_ref()
            .map(|llvm| status(llvm, &check_file, &input_file));
        if got != *expected || reference.is_some_and(|r| r != got) {
            disagreements.push(format!(
                "{name}: legalis-filecheck {got}, LLVM {reference:?}, expected {expected}"
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
    if let Some(llvm) = llvm {
        println!("{} cases agree with {}", CASES.len(), llvm.display());
    }
}
