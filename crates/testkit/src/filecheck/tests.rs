//! The engine against small check files, one or more cases per directive,
//! each directive's failure path included.

use super::*;

fn run(checks: &str, input: &str) -> Result<(), Vec<CheckFailure>> {
    let file = CheckFile::parse("t.check", checks, &["CHECK"]).expect("check file parses");
    file.check("<input>", input)
}

fn passes(checks: &str, input: &str) {
    if let Err(failures) = run(checks, input) {
        let shown: Vec<String> = failures.iter().map(|f| f.to_string()).collect();
        panic!("expected a pass:\n{}", shown.join("\n"));
    }
}

/// The summary of the single failure, with its check line.
fn fails(checks: &str, input: &str) -> (usize, String, String) {
    let failures = run(checks, input).expect_err("expected a failure");
    assert_eq!(failures.len(), 1, "{failures:#?}");
    let failure = &failures[0];
    (
        failure.line,
        failure.summary.clone(),
        failure.rendered.clone(),
    )
}

fn parse_error(checks: &str) -> String {
    let errors = CheckFile::parse("t.check", checks, &["CHECK"]).expect_err("expected an error");
    errors
        .iter()
        .map(|e| e.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn plain_checks_match_in_order() {
    passes("CHECK: a\nCHECK: c", "a\nb\nc\n");
    let (line, summary, rendered) = fails("CHECK: c\nCHECK: a", "a\nb\nc\n");
    assert_eq!(
        (line, summary.as_str()),
        (2, "expected string not found in input")
    );
    assert!(
        rendered.contains("t.check:2: error: CHECK: expected string not found in input"),
        "{rendered}"
    );
    assert!(
        rendered.contains("<input>:4:1: note: scanning from here"),
        "{rendered}"
    );
}

#[test]
fn failure_shows_pattern_regex_and_marked_context() {
    let (_, _, rendered) = fails(
        "CHECK: one\nCHECK: missing{{[0-9]}}",
        "one\ntwo\nthree\nfour\nfive\nsix\n",
    );
    assert!(
        rendered.contains("  CHECK: missing{{[0-9]}}\n"),
        "{rendered}"
    );
    assert!(
        rendered.contains("looked for (regex): missing(?:[0-9])"),
        "{rendered}"
    );
    assert!(rendered.contains("  > 2 | two\n"), "{rendered}");
    assert!(rendered.contains("    1 | one\n"), "{rendered}");
    assert!(rendered.contains("    5 | five\n"), "{rendered}");
}

#[test]
fn whitespace_runs_match_any_run() {
    passes(
        "CHECK: layout(location = 0)   in",
        "layout(location\t=  0) in vec2 uv;",
    );
    let (_, summary, _) = fails("CHECK: ab", "a b");
    assert_eq!(summary, "expected string not found in input");
}

#[test]
fn regex_and_variables() {
    passes(
        "CHECK: %[[ID:[0-9]+]] = OpVariable\nCHECK: OpDecorate %[[ID]] Location 0",
        "%7 = OpVariable\nOpDecorate %8 Location 0\nOpDecorate %7 Location 0\n",
    );
    let (_, _, rendered) = fails(
        "CHECK: %[[ID:[0-9]+]] = OpVariable\nCHECK: OpDecorate %[[ID]] Location 0",
        "%7 = OpVariable\nOpDecorate %8 Location 0\n",
    );
    assert!(rendered.contains("with [[ID]] = \"7\""), "{rendered}");
}

#[test]
fn undefined_variable_fails_the_check() {
    let (line, summary, _) = fails("CHECK: [[X]]", "x");
    assert_eq!((line, summary.as_str()), (1, "uses undefined variable 'X'"));
}

#[test]
fn next_must_be_on_the_following_line() {
    passes("CHECK: a\nCHECK-NEXT: b", "a\nb\n");
    let (line, summary, rendered) = fails("CHECK: a\nCHECK-NEXT: c", "a\nb\nc\n");
    assert_eq!(
        (line, summary.as_str()),
        (2, "is not on the line after the previous match")
    );
    assert!(
        rendered.contains("note: 'next' match was here"),
        "{rendered}"
    );
    assert!(
        rendered.contains("<input>:1:2: note: previous match ended here"),
        "{rendered}"
    );
    let (_, summary, _) = fails("CHECK: a\nCHECK-NEXT: b", "a b\n");
    assert_eq!(summary, "is on the same line as previous match");
}

#[test]
fn next_fails_when_nothing_follows() {
    let (_, summary, _) = fails("CHECK: a\nCHECK-NEXT: z", "a\nb\n");
    assert_eq!(summary, "expected string not found in input");
}

#[test]
fn same_must_be_on_the_same_line() {
    passes("CHECK: a\nCHECK-SAME: c", "a b c\n");
    let (_, summary, _) = fails("CHECK: a\nCHECK-SAME: c", "a b\nc\n");
    assert_eq!(summary, "is not on the same line as the previous match");
}

#[test]
fn empty_means_the_next_line_is_empty() {
    passes("CHECK: a\nCHECK-EMPTY:\nCHECK-NEXT: b", "a\n\nb\n");
    let (_, summary, _) = fails("CHECK: a\nCHECK-EMPTY:", "a\nx\n\n");
    assert_eq!(summary, "is not on the line after the previous match");
    let (_, summary, _) = fails("CHECK: a\nCHECK-EMPTY:", "a\nx");
    assert_eq!(summary, "expected string not found in input");
}

#[test]
fn not_between_matches() {
    passes("CHECK: a\nCHECK-NOT: x\nCHECK: b", "a\nb\nx\n");
    let (line, summary, rendered) = fails("CHECK: a\nCHECK-NOT: x\nCHECK: b", "a\nx y\nb\n");
    assert_eq!(
        (line, summary.as_str()),
        (2, "excluded string found in input")
    );
    assert!(rendered.contains("found: \"x\""), "{rendered}");
    assert!(
        rendered.contains("<input>:2:1: note: found here"),
        "{rendered}"
    );
}

#[test]
fn not_at_the_start_and_at_the_end() {
    let (line, _, _) = fails("CHECK-NOT: x\nCHECK: a", "x\na\n");
    assert_eq!(line, 1);
    let (line, _, _) = fails("CHECK: a\nCHECK-NOT: x", "a\nx\n");
    assert_eq!(line, 2);
    passes("CHECK: a\nCHECK-NOT: x", "x\na\n");
}

#[test]
fn dag_matches_in_any_order_without_overlap() {
    passes("CHECK-DAG: b\nCHECK-DAG: a\nCHECK: c", "a\nb\nc\n");
    passes("CHECK-DAG: x\nCHECK-DAG: x", "x x\n");
    let (line, _, _) = fails("CHECK-DAG: x\nCHECK-DAG: x", "x\n");
    assert_eq!(line, 2);
}

#[test]
fn dag_group_must_precede_the_next_plain_check() {
    let (line, summary, _) = fails("CHECK: a\nCHECK-DAG: b\nCHECK: c", "a\nc\nb\n");
    assert_eq!(
        (line, summary.as_str()),
        (3, "expected string not found in input")
    );
}

#[test]
fn not_splits_dag_groups() {
    passes("CHECK-DAG: a\nCHECK-NOT: x\nCHECK-DAG: b", "a\nb\nx\n");
    let (line, _, _) = fails("CHECK-DAG: a\nCHECK-NOT: x\nCHECK-DAG: b", "a\nx\nb\n");
    assert_eq!(line, 2);
    let (line, _, _) = fails("CHECK-DAG: a\nCHECK-NOT: x\nCHECK-DAG: b", "b\na\n");
    assert_eq!(line, 3);
}

#[test]
fn dag_variables_carry_to_later_checks() {
    passes("CHECK-DAG: v[[N:[0-9]]]\nCHECK: use [[N]]", "v3\nuse 3\n");
}

#[test]
fn count_matches_n_times() {
    passes("CHECK-COUNT-3: x", "x x\nx\n");
    let (line, summary, _) = fails("CHECK-COUNT-3: x", "x\nx\n");
    assert_eq!(
        (line, summary.as_str()),
        (1, "expected string not found in input")
    );
}

#[test]
fn labels_split_the_input_into_blocks() {
    let checks = "CHECK-LABEL: f1\nCHECK: ret\nCHECK-LABEL: f2\nCHECK: ret";
    passes(checks, "f1\nret\nf2\nret\n");
    let (line, _, _) = fails(checks, "f1\nf2\nret\n");
    assert_eq!(line, 2);
    let (line, _, _) = fails(checks, "f1\nret\nf3\n");
    assert_eq!(line, 3);
}

#[test]
fn every_label_block_reports_its_own_failure() {
    let checks = "CHECK-LABEL: f1\nCHECK: a\nCHECK-LABEL: f2\nCHECK: b";
    let failures = run(checks, "f1\nb\nf2\na\n").unwrap_err();
    let lines: Vec<usize> = failures.iter().map(|f| f.line).collect();
    assert_eq!(lines, vec![2, 4]);
}

#[test]
fn prefixes_glued_to_words_are_not_directives() {
    passes("XCHECK: nothing\nCHECK: a\nCHECKS: nope", "a");
    passes("// filecheck=CHECK): args\nCHECK: a", "a");
}

#[test]
fn check_file_errors() {
    assert!(parse_error("nothing here").contains("no check strings found with prefix 'CHECK:'"));
    assert!(
        parse_error("CHECK-NEXT: a")
            .contains("t.check:1: error: found 'CHECK-NEXT' without previous 'CHECK: line")
    );
    assert!(parse_error("CHECK-DAG: a\nCHECK-SAME: b").contains("without previous"));
    assert!(parse_error("CHECK:\n").contains("found empty check string with prefix 'CHECK:'"));
    assert!(parse_error("CHECK: a\nCHECK-EMPTY: b").contains("non-empty check string"));
    assert!(parse_error("CHECK-COUNT-0: a").contains("invalid count"));
    assert!(parse_error("CHECK-LABEL: [[X:a]]").contains("variable definition or use"));
    assert!(parse_error("CHECK: {{(}}").contains("t.check:1: error: invalid regex"));
}

#[test]
fn several_prefixes() {
    let file = CheckFile::parse("t", "A: x\nB: y\nC: z", &["A", "B"]).unwrap();
    assert_eq!(file.checks.len(), 2);
    assert!(file.check("in", "x\ny\n").is_ok());
    assert!(file.check("in", "y\nx\n").is_err());
}

#[test]
fn prefix_validity() {
    assert!(is_valid_prefix("GLSL-2_a"));
    assert!(!is_valid_prefix("2GLSL"));
    assert!(!is_valid_prefix("A:B"));
    assert!(!is_valid_prefix(""));
}

#[test]
fn an_empty_input_fails_unless_allowed() {
    let (line, summary, rendered) = fails("CHECK-NOT: x", "");
    assert_eq!((line, summary.as_str()), (1, "the input is empty"));
    assert!(rendered.contains("'<input>' is empty"), "{rendered}");
    // One newline is an input: only a truly empty one fails.
    passes("CHECK-NOT: x", "\n");
    let mut file = CheckFile::parse("t.check", "CHECK-NOT: x", &["CHECK"]).unwrap();
    file.allow_empty = true;
    assert!(file.check("<input>", "").is_ok());
}

#[test]
fn a_line_anchor_also_matches_where_the_previous_match_ended() {
    // LLVM matches each check on the buffer from the previous match's
    // end, so `^` holds there even mid-line.
    passes("CHECK: a\nCHECK: {{^}}b", "ab\n");
    passes("CHECK: a\nCHECK-SAME: {{^}}b", "ab\n");
    passes("CHECK: {{^}}b", "b\n");
    fails("CHECK: {{^}}b", " b\n");
    fails("CHECK: a\nCHECK: {{^}}c", "abc\n");
    passes("CHECK-COUNT-2: {{^}}x", "xx\n");
}

#[test]
fn a_literal_check_has_no_regex_or_variables() {
    passes("CHECK{LITERAL}: {{x}} [[y]]", "{{x}} [[y]]\n");
    fails("CHECK{LITERAL}: {{x}}", "x\n");
    passes("CHECK: a\nCHECK-NEXT{LITERAL}: [[@LINE]]", "a\n[[@LINE]]\n");
    passes("CHECK-DAG{ LITERAL , LITERAL }: a.b", "a.b\n");
    fails("CHECK-DAG{LITERAL}: a.b", "axb\n");
    passes("CHECK-COUNT-2{LITERAL}: {{a}}", "{{a}} {{a}}\n");
    // An unknown modifier makes no directive, as in LLVM.
    assert!(parse_error("CHECK{FOO}: x").contains("no check strings found"));
}

#[test]
fn misspelled_directives_are_errors() {
    for spelled in [
        "CHECK_NEXT:",
        "CHECK_NOT:",
        "CHECK_DAG:",
        "CHECK_SAME:",
        "CHECK_EMPTY:",
        "CHECK_LABEL:",
        "CHECK_COUNT-2:",
        "CHECK_NEXT{LITERAL}:",
    ] {
        let error = parse_error(&format!("CHECK: a\n{spelled} b"));
        assert!(
            error.contains(&format!(
                "t.check:2: error: misspelled directive '{spelled}'"
            )),
            "{error}"
        );
    }
    // Words that are no directive at all are not checks (LLVM ignores
    // them too): `CHECK_FOO:`, `CHECK_NEXT b`, `CHECK-next:`.
    passes("CHECK: a\nCHECK_FOO: z\nCHECK_NEXT z\nCHECK-next: z", "a\n");
}

#[test]
fn comment_directives_hide_the_rest_of_the_line() {
    passes("COM: CHECK: x\nCHECK: a", "a\n");
    passes("// RUN: CHECK: x\nCHECK: a", "a\n");
    passes("COM:CHECK: x\nCHECK: a", "a\n");
    assert!(parse_error("COM: CHECK: x").contains("no check strings found"));
    // Glued or with a suffix, COM is no comment and the check counts.
    fails("XCOM: CHECK: x\nCHECK: a", "a\n");
    fails("COM-NOT: CHECK: x\nCHECK: a", "a\n");
    // A COM after the check prefix is part of the pattern.
    passes("CHECK: a COM: b", "a COM: b\n");
}
