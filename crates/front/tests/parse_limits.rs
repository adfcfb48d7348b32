//! The parser's limits: the nesting limit of 128 levels (`E20002`), stack
//! use at that limit on a 2 MiB thread in debug builds, pathological inputs
//! that must neither overflow the stack nor loop, and large files.

use legalis_front::{
    ast::{Item, SourceFile},
    lexer::{Token, TokenKind, lex_raw},
    parse::{MAX_DEPTH, MAX_EXPR_HEIGHT, parse},
};
use legalis_ir::{Span, diag::Diagnostic};

fn parse_text(src: &str) -> (SourceFile, Vec<Diagnostic>) {
    let mut tokens = lex_raw(src, 0);
    let end = src.len() as u32;
    tokens.push(Token {
        kind: TokenKind::Eof,
        span: Span::new(end, end),
        text: Span::new(end, end),
    });
    let mut diagnostics = Vec::new();
    let file = parse(&tokens, src, &mut diagnostics);
    (file, diagnostics)
}

/// Runs `f` on a thread with the 2 MiB stack of a default test thread, so
/// the result does not depend on how the test harness was started.
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap()
}

fn codes(diagnostics: &[Diagnostic]) -> Vec<u32> {
    diagnostics.iter().map(|d| d.code).collect()
}

/// Each builder makes source text whose deepest nesting is `levels`:
/// statements, expression levels (one per parenthesis, bracket or call),
/// prefix operators, casts, initializer lists and types each count one.
type Builder = fn(usize) -> String;

fn parens(levels: usize) -> String {
    // The initializer is one level; each parenthesis adds one.
    let n = levels - 1;
    format!("static int x = {}1{};", "(".repeat(n), ")".repeat(n))
}

fn unary_minus(levels: usize) -> String {
    format!("static int x = {}1;", "- ".repeat(levels - 1))
}

fn blocks(levels: usize) -> String {
    // A function body is not a statement; each nested block is.
    format!(
        "void f() {{ {}{} }}",
        "{".repeat(levels),
        "}".repeat(levels)
    )
}

fn ifs(levels: usize) -> String {
    // The innermost `;` statement is one level below the last `if`.
    format!("void f() {{ {};}}", "if (x) ".repeat(levels - 1))
}

fn brackets(levels: usize) -> String {
    let n = levels - 1;
    format!("static int x = {}0{};", "a[".repeat(n), "]".repeat(n))
}

fn calls(levels: usize) -> String {
    let n = levels - 1;
    format!("static int x = {}0{};", "f(".repeat(n), ")".repeat(n))
}

fn init_lists(levels: usize) -> String {
    let n = levels - 1;
    format!("static int x[1] = {}1{};", "{".repeat(n), "}".repeat(n))
}

fn generic_types(levels: usize) -> String {
    let n = levels - 1;
    format!("{}float{} v;", "vector<".repeat(n), ", 2>".repeat(n))
}

fn casts(levels: usize) -> String {
    // A cast's type is one level inside the cast.
    format!("static int x = {}1;", "(float)".repeat(levels - 2))
}

fn assignments(levels: usize) -> String {
    // `a = a = ...` nests to the right, one level per `=`.
    format!("void f() {{ {}1; }}", "a = ".repeat(levels - 2))
}

fn ternaries(levels: usize) -> String {
    format!("static int x = {}1;", "c ? 1 : ".repeat(levels - 1))
}

fn else_ifs(levels: usize) -> String {
    format!(
        "void f() {{ if (x) ;{} }}",
        " else if (x) ;".repeat(levels - 2)
    )
}

const BUILDERS: &[(&str, Builder)] = &[
    ("parens", parens),
    ("unary minus", unary_minus),
    ("blocks", blocks),
    ("ifs", ifs),
    ("brackets", brackets),
    ("calls", calls),
    ("init lists", init_lists),
    ("generic types", generic_types),
    ("casts", casts),
    ("assignments", assignments),
    ("ternaries", ternaries),
    ("else ifs", else_ifs),
];

#[test]
fn exactly_the_limit_parses_on_a_small_stack() {
    assert_eq!(MAX_DEPTH, 128);
    on_small_stack(|| {
        for (name, build) in BUILDERS {
            let (file, diagnostics) = parse_text(&build(MAX_DEPTH as usize));
            assert!(diagnostics.is_empty(), "{name}: {diagnostics:?}");
            assert_eq!(file.items.len(), 1, "{name}");
        }
    });
}

#[test]
fn one_past_the_limit_is_e20002() {
    on_small_stack(|| {
        for (name, build) in BUILDERS {
            let (_, diagnostics) = parse_text(&build(MAX_DEPTH as usize + 1));
            assert_eq!(codes(&diagnostics), [20002], "{name}");
            assert_eq!(diagnostics[0].message, "nesting is deeper than 128 levels");
        }
    });
}

#[test]
fn ten_thousand_levels_report_once_without_overflowing() {
    on_small_stack(|| {
        let sources = [
            ("(", format!("static int x = {};", "(".repeat(10_000))),
            ("{", format!("void f() {}", "{".repeat(10_000))),
            ("if", format!("void f() {{ {}", "if (x) ".repeat(10_000))),
            ("-", format!("static int x = {}1;", "-".repeat(10_000))),
            ("[", format!("static int x = {}", "a[".repeat(10_000))),
            (
                "{ init",
                format!("static int x[1] = {}", "{".repeat(10_000)),
            ),
            ("vector<", format!("{}float v;", "vector<".repeat(10_000))),
        ];
        for (name, src) in sources {
            let (_, diagnostics) = parse_text(&src);
            assert_eq!(codes(&diagnostics), [20002], "{name}");
        }
    });
}

#[test]
fn parsing_resumes_after_the_item_that_was_too_deep() {
    let src = format!(
        "float before;\n{}\n{}\nfloat after;",
        parens(MAX_DEPTH as usize + 50),
        blocks(300)
    );
    let (items, diagnostics) = on_small_stack(move || {
        let (file, diagnostics) = parse_text(&src);
        (file.items.len(), diagnostics)
    });
    // One report per item that is too deep; the items around them parse.
    assert_eq!(codes(&diagnostics), [20002, 20002]);
    assert_eq!(items, 4);
}

#[test]
fn runs_of_brackets_are_one_syntax_error() {
    // `[` nests only as indexing; a bare run of them is a syntax error,
    // reported once, wherever it stands.
    on_small_stack(|| {
        for src in [
            "[".repeat(10_000),
            format!("void f() {{ {} }}", "[".repeat(10_000)),
            format!("void f() {{ x{} }}", "[".repeat(10_000)),
        ] {
            let (_, diagnostics) = parse_text(&src);
            assert_eq!(codes(&diagnostics), [20001], "{}", &src[..30]);
        }
    });
}

#[test]
fn the_report_points_at_the_first_token_past_the_limit() {
    let src = parens(MAX_DEPTH as usize + 1);
    let (_, diagnostics) = parse_text(&src);
    // `static int x = ` then 128 parentheses; the 129th level starts at the
    // `1` inside the last one.
    let at = "static int x = ".len() as u32 + 128;
    assert_eq!(diagnostics[0].primary_span(), Span::new(at, at + 1));
}

#[test]
fn long_chains_are_bounded_by_the_tree_height() {
    // `a + a + ...` and `a[0][0]...` are built by loops: they deepen the tree,
    // not the parser, so they may be far longer than the nesting limit, up to
    // a tree height of MAX_EXPR_HEIGHT (a leaf is 1, each operator adds 1).
    on_small_stack(|| {
        let ops = MAX_EXPR_HEIGHT as usize - 1;
        for (name, op) in [
            ("sum", " + a"),
            ("index", "[0]"),
            ("member", ".x"),
            ("call", "(b)"),
        ] {
            let ok = format!("static int x = a{};", op.repeat(ops));
            let (_, diagnostics) = parse_text(&ok);
            assert!(diagnostics.is_empty(), "{name}: {diagnostics:?}");
            let over = format!("static int x = a{};", op.repeat(ops + 1));
            let (_, diagnostics) = parse_text(&over);
            assert_eq!(codes(&diagnostics), [20002], "{name}");
            assert_eq!(
                diagnostics[0].message,
                "expression is deeper than 1024 nested operations"
            );
        }
    });
}

#[test]
fn chains_nested_as_left_operands_add_up() {
    // Each parenthesised chain is the left operand of the next, so the
    // heights add: 100 levels of 20 operators is a tree 2000 high.
    let src = format!(
        "static int x = {}a{};",
        "(".repeat(100),
        format!("{})", " + a".repeat(20)).repeat(100)
    );
    let diagnostics = on_small_stack(move || parse_text(&src).1);
    assert_eq!(codes(&diagnostics), [20002]);
}

#[test]
fn a_hundred_thousand_operators_report_once() {
    let src = format!("static int x = a{};\nfloat after;", " + a".repeat(100_000));
    let (items, diagnostics) = on_small_stack(move || {
        let (file, diagnostics) = parse_text(&src);
        (file.items.len(), diagnostics)
    });
    assert_eq!(codes(&diagnostics), [20002]);
    assert_eq!(items, 2);
}

/// A realistic compute shader function, repeated with new names.
fn large_shader(functions: usize) -> String {
    let mut src = String::from(
        "struct Particle { float3 pos; float3 vel; float life; };\n\
         RWStructuredBuffer<Particle> particles : register(u0);\n\
         cbuffer Sim : register(b0) { float dt; float3 gravity; uint count; };\n",
    );
    for i in 0..functions {
        src.push_str(&format!(
            "[numthreads(64, 1, 1)]\n\
             void step{i}(uint3 id : SV_DispatchThreadID, uint gi : SV_GroupIndex)\n\
             {{\n\
             \x20   if (id.x >= count) return;\n\
             \x20   Particle p = particles[id.x];\n\
             \x20   float3 acc = gravity * (1.0 - p.life / 10.0);\n\
             \x20   [unroll] for (int k = 0; k < 4; ++k)\n\
             \x20   {{\n\
             \x20       acc += float3(k * 0.5, -k, (float)k / 3.0) * dt;\n\
             \x20       if (p.pos.y < 0 && p.vel.y < 0) {{ p.vel.y = -p.vel.y * 0.8; }}\n\
             \x20       else p.vel += acc;\n\
             \x20   }}\n\
             \x20   switch (gi & 3u) {{\n\
             \x20       case 0: p.life -= dt; break;\n\
             \x20       case 1: case 2: p.life -= 2 * dt; break;\n\
             \x20       default: break;\n\
             \x20   }}\n\
             \x20   p.pos = p.pos + p.vel * dt;\n\
             \x20   particles[id.x] = p;\n\
             }}\n"
        ));
    }
    src
}

#[test]
fn five_thousand_lines_parse_quickly() {
    let src = large_shader(250);
    assert!(src.lines().count() >= 5_000);
    let start = std::time::Instant::now();
    let (file, diagnostics) = parse_text(&src);
    let elapsed = start.elapsed();
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    assert_eq!(file.items.len(), 3 + 250);
    assert!(matches!(file.items[3], Item::Function(_)));
    // A loose bound even for an unoptimised build on a busy machine; a
    // quadratic parser takes minutes here.
    assert!(elapsed.as_secs() < 10, "parsing took {elapsed:?}");
    eprintln!("parsed {} lines in {elapsed:?}", src.lines().count());
}
