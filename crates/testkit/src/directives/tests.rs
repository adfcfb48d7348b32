//! The directive parser on small files: each accepted form, and each
//! malformed line reported with its line number.

use super::*;

fn ok(text: &str) -> TestFile {
    parse(text).unwrap_or_else(|errors| panic!("{errors:?}"))
}

fn errors(text: &str) -> Vec<(usize, String)> {
    parse(text)
        .expect_err("expected errors")
        .into_iter()
        .map(|e| (e.line, e.message))
        .collect()
}

fn single_error(text: &str) -> (usize, String) {
    let mut all = errors(text);
    assert_eq!(all.len(), 1, "{all:?}");
    all.remove(0)
}

const META: &str = "//META: intent=characterization\n//META: covers=crates/legalize/src/glsl\n\
//META: behaviour=B1\n//META: purpose=flattens structs\n";

#[test]
fn meta_block_is_read() {
    let file = ok(&format!(
        "{META}//META: characterization-unverified=true\nint x;\n"
    ));
    let meta = file.meta.unwrap();
    assert_eq!(meta.intent, "characterization");
    assert_eq!(meta.covers, "crates/legalize/src/glsl");
    assert_eq!(meta.behaviour, "B1");
    assert_eq!(meta.purpose, "flattens structs");
    assert!(meta.characterization_unverified);
    assert_eq!(ok("int x;\n").meta, None);
}

#[test]
fn meta_errors() {
    assert_eq!(single_error("//META: intent=a\n//META: colour=red\n//META: covers=c\n//META: behaviour=b\n//META: purpose=p\n").0, 2);
    let (line, message) = single_error(&format!("{META}//META: purpose=again\n"));
    assert_eq!((line, message.as_str()), (5, "META key 'purpose' repeated"));
    let (_, message) = single_error("//META: intent=a\n//META: covers=b\n//META: behaviour=c\n");
    assert!(message.contains("lacks 'purpose='"), "{message}");
    let (line, message) = single_error(&format!("{META}int x;\n//META: intent=late\n"));
    assert_eq!(line, 6);
    assert!(message.contains("outside the block"), "{message}");
    let (_, message) = single_error(&format!("{META}//META: characterization-unverified=yes\n"));
    assert!(message.contains("true or false"), "{message}");
    let all = errors("//META: intent\n");
    assert!(
        all.contains(&(1, "META line without key=value: 'intent'".to_string())),
        "{all:?}"
    );
}

#[test]
fn filecheck_and_diag_directives() {
    let file = ok(
        "//TEST:SIMPLE(filecheck=GLSL):-target glsl -entry main -stage vertex\n\
                   //DIAGNOSTIC_TEST:SIMPLE(diag=CHECK, non-exhaustive):-target wgsl\n\
                   int x;\n//CHECK: ^^^ m\n//GLSL: main\n",
    );
    assert_eq!(file.directives.len(), 2);
    assert_eq!(
        file.directives[0].kind,
        DirectiveKind::FileCheck {
            prefix: "GLSL".into()
        }
    );
    assert_eq!(
        file.directives[0].args,
        ["-target", "glsl", "-entry", "main", "-stage", "vertex"]
    );
    assert_eq!(file.directives[0].line, 1);
    assert_eq!(
        file.directives[1].kind,
        DirectiveKind::Diagnostic {
            prefix: "CHECK".into(),
            exhaustive: false
        }
    );
}

#[test]
fn categories_are_accepted_and_other_kinds_reported_unsupported() {
    let file = ok("//TEST(smoke,vulkan):SIMPLE(filecheck=C): -target glsl\n\
                   //TEST(compute):COMPUTE_TEST:-cpu\n//TEST:SIMPLE:-target glsl\n\
                   //DISABLE_TEST:SIMPLE(filecheck=C):-target spirv\n//TEST_INPUT:ubuffer(data=[0]):out\n//C: x\n");
    let kinds: Vec<&DirectiveKind> = file.directives.iter().map(|d| &d.kind).collect();
    assert_eq!(kinds[0], &DirectiveKind::FileCheck { prefix: "C".into() });
    assert!(
        matches!(kinds[1], DirectiveKind::Unsupported { reason } if reason.contains("'COMPUTE_TEST'"))
    );
    assert!(
        matches!(kinds[2], DirectiveKind::Unsupported { reason } if reason.contains(".expected"))
    );
    assert_eq!(kinds[3], &DirectiveKind::Disabled);
    assert_eq!(kinds.len(), 4);
}

#[test]
fn malformed_directives_are_errors_with_lines() {
    let cases = [
        (
            "int x;\n//TEST:SIMPLE(filecheck=C)-target glsl\n//C: x\n",
            "expected ':'",
        ),
        (
            "int x;\n//TEST:SIMPLE(filecheck=C:-target glsl\n",
            "unclosed '('",
        ),
        (
            "int x;\n//TEST:SIMPLE(check=C):-target glsl\n",
            "unknown SIMPLE option 'check=C'",
        ),
        (
            "int x;\n//TEST:SIMPLE(filecheck=1C):x\n",
            "invalid check prefix '1C'",
        ),
        ("int x;\n//TEST::x\n", "missing test kind"),
        (
            "int x;\n//TESTS:SIMPLE(filecheck=C):x\n",
            "unknown directive '//TESTS'",
        ),
        ("int x;\n//TEST:SIMPLE(filecheck=C, diag=D):x\n", "not both"),
        (
            "int x;\n//TEST:SIMPLE(filecheck=C, non-exhaustive):x\n",
            "diag= only",
        ),
    ];
    for (text, expected) in cases {
        let all = errors(text);
        assert!(
            all.iter()
                .any(|(line, m)| *line == 2 && m.contains(expected)),
            "{text}: {all:?}"
        );
    }
}

#[test]
fn check_lines_with_unknown_suffixes_are_errors() {
    let (line, message) =
        single_error("//TEST:SIMPLE(filecheck=GLSL):x\n//GLSL: a\n//GLSL-DAGG: b\n");
    assert_eq!(line, 3);
    assert!(
        message.contains("unknown check suffix in 'GLSL-DAGG'"),
        "{message}"
    );
    let (line, message) =
        single_error("//TEST:SIMPLE(filecheck=GLSL):x\n//GLSL: a\n//GLSL-COUNT-0: b\n");
    assert_eq!(line, 3);
    assert!(message.contains("invalid count"), "{message}");
    ok("//TEST:SIMPLE(filecheck=G):x\n//TEST:SIMPLE(filecheck=G-X):y\n//G: a\n//G-X: b\n");
}

#[test]
fn declared_prefix_without_checks_is_an_error() {
    let (line, message) = single_error("int x;\n//TEST:SIMPLE(filecheck=GLSL):x\n//GSLS: typo\n");
    assert_eq!(line, 2);
    assert!(message.contains("no //GLSL: check lines"), "{message}");
}

#[test]
fn caret_columns_align_with_the_source_line_above() {
    let text = "//DIAGNOSTIC_TEST:SIMPLE(diag=CHECK):-target glsl\n\
                struct S {\n    float4 c : SV_Bogus;\n//CHECK:   ^ unknown system-value semantic\n\
                //CHECK:       ^^^^^^^^ second\n};\n";
    let file = ok(text);
    let first = &file.annotations[0];
    assert_eq!(
        (first.line, first.target_line, first.column, first.width),
        (4, 3, 12, 1)
    );
    assert_eq!(first.message, "unknown system-value semantic");
    let second = &file.annotations[1];
    assert_eq!(
        (second.target_line, second.column, second.width),
        (3, 16, 8)
    );
    assert_eq!(&text.lines().nth(2).unwrap()[15..23], "SV_Bogus");
}

#[test]
fn malformed_annotations_are_errors() {
    let head = "//DIAGNOSTIC_TEST:SIMPLE(diag=CHECK):x\nint x;\n";
    let (line, message) = single_error(&format!("{head}//CHECK: unknown name\n"));
    assert_eq!(line, 3);
    assert!(message.contains("needs carets"), "{message}");
    let (_, message) = single_error(&format!("{head}//CHECK:\t^ m\n"));
    assert!(message.contains("tab"), "{message}");
    let (_, message) = single_error(&format!("{head}//CHECK-NEXT: m\n"));
    assert!(message.contains("caret annotations"), "{message}");
    let all =
        errors("//TEST:SIMPLE(filecheck=P):x\n//DIAGNOSTIC_TEST:SIMPLE(diag=P):x\n//P: ^ a\n");
    assert_eq!(
        all,
        [(
            1,
            "prefix 'P' is used for both filecheck= and diag=".to_string()
        )]
    );
}
