//! Parser error paths: every syntax error is one `E20001` at the offending
//! token, recovery finds later errors without cascades, malformed register
//! annotations are `E20005`, bad numbers `E10004`, and no prefix of a valid
//! shader makes the parser panic or pass silently.

use std::fmt::Write as _;

use legalis_front::{
    ast::{Item, SourceFile, StmtKind},
    lexer::{Token, TokenKind, lex_raw},
    parse::{parse, parse_raw},
};
use legalis_ir::{Span, diag::Diagnostic};

fn parse_tokens(src: &str, mut tokens: Vec<Token>) -> (SourceFile, Vec<Diagnostic>) {
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

fn parse_text(src: &str) -> (SourceFile, Vec<Diagnostic>) {
    let mut diagnostics = Vec::new();
    let file = parse_raw(src, &mut diagnostics);
    (file, diagnostics)
}

/// One line per diagnostic: code, span, the spanned text, message.
fn render(src: &str, diagnostics: &[Diagnostic]) -> String {
    let mut out = String::new();
    for d in diagnostics {
        let span = d.primary_span();
        let text = src.get(span.range()).unwrap_or("?");
        writeln!(
            out,
            "{} {}..{} {text:?}: {}",
            d.code_str(),
            span.start,
            span.end,
            d.message
        )
        .unwrap();
    }
    out
}

#[track_caller]
fn check(src: &str, expected: &str) {
    let (_, diagnostics) = parse_text(src);
    let actual = render(src, &diagnostics);
    let expected: Vec<&str> = expected
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let actual_lines: Vec<&str> = actual.lines().collect();
    assert_eq!(actual_lines, expected, "source:\n{src}");
}

// ---- E20001 at the offending token

#[test]
fn expected_found_at_the_offending_token() {
    check(
        "float4 a = ;",
        r#"E20001 11..12 ";": expected expression, found `;`"#,
    );
    check(
        "void f() { x = 1 }",
        r#"E20001 17..18 "}": expected `;`, found `}`"#,
    );
    check(
        "void f() { x = 1 y; }",
        r#"E20001 17..18 "y": expected `;`, found `y`"#,
    );
    check(
        "float a = 1.5 2;",
        r#"E20001 14..15 "2": expected `;`, found `2`"#,
    );
    check(
        "void f() { if x) {} }",
        r#"E20001 14..15 "x": expected `(`, found `x`"#,
    );
    check(
        "struct 3 { float a; };",
        r#"E20001 7..8 "3": expected struct name, found `3`"#,
    );
    check(
        "float4 main() : 3 {}",
        r#"E20001 16..17 "3": expected semantic, found `3`"#,
    );
    check(
        "[numthreads(8, 8, 1] void main() {}",
        r#"E20001 19..20 "]": expected `,` or `)`, found `]`"#,
    );
    check(
        "} float a;",
        r#"E20001 0..1 "}": expected declaration, found `}`"#,
    );
    check(
        "void f() { do x++; until (x); }",
        r#"E20001 19..24 "until": expected `while`, found `until`"#,
    );
    check(
        "Texture2D<float4 t;",
        r#"E20001 17..18 "t": expected `,` or `>`, found `t`"#,
    );
    check(
        "void f() { a.; }",
        r#"E20001 13..14 ";": expected member name, found `;`"#,
    );
    check(
        "void f() { switch (a) { x = 1; case 1: break; } }",
        r#"E20001 24..25 "x": expected `case` or `default`, found `x`"#,
    );
    check(
        "void f() { else x; }",
        r#"E20001 11..15 "else": expected statement, found `else`"#,
    );
    check(
        "enum E { A B }",
        r#"E20001 11..12 "B": expected `,` or `}`, found `B`"#,
    );
    check(
        "static int x[2] = { 1 2 };",
        r#"E20001 22..23 "2": expected `,` or `}`, found `2`"#,
    );
}

#[test]
fn at_the_end_of_the_file_the_span_is_the_end() {
    let src = "void f() { x = 1;";
    let (_, diagnostics) = parse_text(src);
    assert_eq!(diagnostics.len(), 1);
    assert_eq!(diagnostics[0].code, 20001);
    assert_eq!(diagnostics[0].message, "expected `}`, found end of file");
    let end = src.len() as u32;
    assert_eq!(diagnostics[0].primary_span(), Span::new(end, end));
    check(
        "float4 main(",
        r#"E20001 12..12 "": expected type, found end of file"#,
    );
    check(
        "static const float k = 1",
        r#"E20001 24..24 "": expected `;`, found end of file"#,
    );
}

// ---- recovery

#[test]
fn three_separate_errors_give_three_diagnostics() {
    check(
        r"
float4 a = ;
void f() { x = 1 }
struct S { float b c; };
float4 ok;
",
        r#"
        E20001 12..13 ";": expected expression, found `;`
        E20001 31..32 "}": expected `;`, found `}`
        E20001 52..53 "c": expected `;`, found `c`
        "#,
    );
}

#[test]
fn errors_in_separate_statements_are_each_reported() {
    check(
        r"
void f() {
    a = ;
    b = 1;
    c = (2;
    if (d) { e = / 3; }
    return f
}
",
        r#"
        E20001 20..21 ";": expected expression, found `;`
        E20001 43..44 ";": expected `)`, found `;`
        E20001 62..63 "/": expected expression, found `/`
        E20001 82..83 "}": expected `;`, found `}`
        "#,
    );
}

#[test]
fn one_mistake_is_one_diagnostic() {
    for src in [
        "void f() { if (x { a = 1; } b = 2; }",
        "void f() { x = f(a, b; y = 1; }",
        "float a b; float c;",
        "struct S { float a b; float c; };",
        "void f(float a b, float c) { x = 1; }",
        "[numthreads(8,8,1] void main() {}",
        "float4 main() : { return 0; }",
        "void f() { x = 1 return x; }",
        "void f() { for (int i = 0; i < ; i++) {} y = 1; }",
        "} float a;",
        "void f() { x = (1 + ; }",
        "float x = 1 2 3;",
        "void f() { x = 1;  void g() { }",
        "void f() { switch (a) { x = 1; case 1: break; } }",
        "enum E { A B }",
        "void f() { else x; }",
        "typedef float;",
        "Texture2D<float4 t;",
        "cbuffer { float a; }",
        "void f() { x = a[[b]]; }",
        "void f() { x = ) ; y = 1; }",
        "void f() { (float4 v = 1; }",
        "struct S { float a; ",
        "float4 main(float4 p : ) : SV_Target { return p; }",
        "void f() { int i = 0 int j = 1; }",
        "void f() { while (true) { if (a) } }",
        "[[vk::binding(0)] SamplerState s;",
        "void f() { a = b ? c; }",
        "void f() { return dot(c; float3(1, 2, 3)); } float g;",
        "void f() { x = a[1; 2]; y = 1; }",
        "void f() { if (x y) { z = 1; } w = 2; }",
        "void f() { for (int i = 0; i < 2 3; i++) { z = 1; } }",
        "static float x[2] = { 1 2, 3 }; float g;",
        "[shader(\"vertex\" 1)] float4 main() : SV_Position { return 0; }",
        "float f(float x) { return x;\n[shader(\"pixel\")] float4 main() : SV_Target { return 0; }",
        "float f(float x) return x; }\nfloat g;",
        "void f() { switch (a) case 1: break; } }",
        "void f() { switch (a) ; { case 1: break; } }",
        "void f() { switch (a) { 0: x = 1; break; case 1: break; } }",
        "{ float a; } float b;",
        "struct 3 { float a; } float b;",
        "struct S { float a; \ncbuffer C { float b; }",
    ] {
        let (_, diagnostics) = parse_text(src);
        assert_eq!(diagnostics.len(), 1, "{src}\n{}", render(src, &diagnostics));
        assert_eq!(diagnostics[0].code, 20001, "{src}");
    }
}

#[test]
fn items_after_an_error_are_intact() {
    let src = r"
void broken() { x = ; }
[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) { out_buf[id.x] = 2 * id.x; }
";
    let (file, diagnostics) = parse_text(src);
    assert_eq!(diagnostics.len(), 1);
    let [Item::Function(broken), Item::Function(main)] = file.items.as_slice() else {
        panic!("{:?}", file.items);
    };
    assert_eq!(broken.name.name, "broken");
    let body = broken.body.as_ref().unwrap();
    assert!(
        matches!(&body.stmts[0].kind, StmtKind::Expr(e) if matches!(&e.kind, legalis_front::ast::ExprKind::Assign { .. }))
    );
    assert_eq!(main.name.name, "main");
    assert_eq!(main.attributes[0].name, "numthreads");
    assert_eq!(main.body.as_ref().unwrap().stmts.len(), 1);
}

#[test]
fn tokens_the_preprocessor_reported_are_not_reported_again() {
    // `@` is an unknown character and the string is unterminated: the
    // preprocessor reports both (E10001, E10003); the parser only recovers.
    for src in [
        "float x = 1 @ 2;",
        "float x = 1; float y = @;",
        "float s = \"abc\n;",
    ] {
        let (_, diagnostics) = parse_text(src);
        assert!(diagnostics.is_empty(), "{src}: {diagnostics:?}");
    }
}

// ---- E20005, E10004

#[test]
fn malformed_registers_are_e20005() {
    check(
        r"
Texture2D a : register(x);
Texture2D b : register(t0, foo);
Texture2D c : register(t);
Texture2D d : register(3);
Texture2D e : register(t99999999999);
Texture2D f : register(t0 space1);
cbuffer G { float4 g : packoffset(d4); float h : packoffset(c4.q); }
float after;
",
        r#"
        E20005 24..25 "x": malformed register annotation: expected a register such as `t0` or `b1`, found `x`
        E20005 55..58 "foo": malformed register annotation: expected a register space such as `space1`, found `foo`
        E20005 84..85 "t": malformed register annotation: expected a register such as `t0` or `b1`, found `t`
        E20005 111..112 "3": malformed register annotation: expected a register such as `t0` or `b1`, found `3`
        E20005 138..150 "t99999999999": malformed register annotation: expected a register such as `t0` or `b1`, found `t99999999999`
        E20005 179..185 "space1": malformed register annotation: expected `)`, found `space1`
        E20005 222..224 "d4": malformed register annotation: expected a constant register such as `c4`, found `d4`
        E20005 251..252 "q": malformed register annotation: expected a component `x`, `y`, `z` or `w`, found `q`
        "#,
    );
}

#[test]
fn bad_numbers_are_e10004() {
    check(
        r"
static uint a = 18446744073709551616;
static uint b = 09;
static uint c = 1uu;
static float d = 1e999;
static uint64_t e = 18446744073709551615;
",
        r#"
        E10004 17..37 "18446744073709551616": integer literal `18446744073709551616` does not fit in 64 bits
        E10004 55..57 "09": integer literal `09` is malformed
        E10004 75..78 "1uu": integer literal `1uu` is malformed
        E10004 97..102 "1e999": float literal `1e999` is out of range or malformed
        "#,
    );
}

// ---- truncated input

const SHADER: &str = r#"// A small deferred-lighting shader with a bit of everything.
struct VsIn
{
    float3 pos : POSITION;
    float3 normal : NORMAL;
    float2 uv : TEXCOORD0;
};

struct VsOut
{
    float4 pos : SV_Position;
    nointerpolation uint id : BLENDINDICES0;
    float2 uv : TEXCOORD0;
    float3 normal : NORMAL;
}

cbuffer Camera : register(b0, space1)
{
    row_major float4x4 view_proj;
    float4 tint : packoffset(c4);
};

Texture2D<float4> albedo : register(t0);
[[vk::binding(1, 0)]] SamplerState samp : register(s0);
static const float3 lights[2] = { {1, 0, 0}, {0, 1, 0} };
typedef float4 Color;
enum class Mode : uint { Plain, Lit = 2 };

float luminance(float3 c) { return dot(c, float3(0.299, 0.587, 0.114)); }

[shader("vertex")]
VsOut vs_main(VsIn input, uint id : SV_VertexID)
{
    VsOut o = (VsOut)0;
    o.pos = mul(float4(input.pos, 1.0), view_proj);
    o.id = id;
    o.uv = input.uv * 2.0 - 1.0;
    o.normal = normalize(input.normal);
    return o;
}

[shader("pixel")]
Color ps_main(VsOut v, bool front : SV_IsFrontFace) : SV_Target
{
    float3 base = albedo.Sample(samp, v.uv).rgb;
    float3 lit = 0;
    [unroll] for (int i = 0; i < 2; ++i)
    {
        float d = max(dot(v.normal, lights[i]), 0.0);
        lit += base * (front ? d : d * 0.5);
    }
    switch (v.id & 3u)
    {
        case 0: lit *= 0.5; break;
        case 1: case 2: lit.r = luminance(lit); break;
        default: break;
    }
    if (lit.g < 0.01) discard;
    return Color(lit, 1) * tint;
}
"#;

#[test]
fn the_sample_shader_parses_cleanly() {
    assert!(SHADER.lines().count() >= 60);
    let (file, diagnostics) = parse_text(SHADER);
    assert!(diagnostics.is_empty(), "{}", render(SHADER, &diagnostics));
    assert_eq!(file.items.len(), 11);
}

#[test]
fn every_prefix_parses_without_panicking_and_reports_incompleteness() {
    let tokens = lex_raw(SHADER, 0);
    let (file, _) = parse_text(SHADER);
    // A prefix is complete when it ends where a top-level item ends, or
    // just after a `;` that follows one.
    let item_ends: Vec<u32> = file
        .items
        .iter()
        .map(|item| match item {
            Item::Struct(s) | Item::Extension(s) => s.span.end,
            Item::Function(f) => f.span.end,
            Item::Var(v) => v.span.end,
            Item::Buffer(b) => b.span.end,
            Item::Enum(e) => e.span.end,
            Item::TypeAlias(t) => t.span.end,
            Item::Interface(i) => i.span.end,
            Item::Namespace(n) => n.span.end,
            Item::GlslBuffer(b) => b.span.end,
            Item::GlslLayoutIn(l) => l.span.end,
        })
        .collect();
    for len in 1..=tokens.len() {
        let last = tokens[len - 1];
        let complete = item_ends.contains(&last.span.end)
            || (last.kind == TokenKind::Semi
                && len >= 2
                && item_ends.contains(&tokens[len - 2].span.end));
        let text = &SHADER[..last.span.end as usize];
        let (_, diagnostics) = parse_tokens(text, tokens[..len].to_vec());
        if complete {
            assert!(
                diagnostics.is_empty(),
                "complete prefix of {len} tokens reported errors:\n{}",
                render(text, &diagnostics)
            );
        } else {
            assert!(
                !diagnostics.is_empty(),
                "incomplete prefix of {len} tokens passed:\n{text}"
            );
        }
        for d in &diagnostics {
            assert!(d.primary_span().end <= text.len() as u32, "{d:?}");
        }
    }
}

#[test]
fn a_truncated_file_after_an_unsupported_construct_is_still_reported() {
    check(
        "import foo;\nvoid f() { x = 1;",
        r#"
        E20003 0..6 "import": `import` declaration is not supported
        E20001 29..29 "": expected `}`, found end of file
        "#,
    );
}

#[test]
fn a_missing_closing_brace_ends_the_body_before_the_next_function() {
    let src = "float f(float x) { return x;\n[shader(\"pixel\")]\nfloat4 main() : SV_Target { return 0; }";
    let (file, diagnostics) = parse_text(src);
    assert_eq!(
        render(src, &diagnostics),
        "E20001 29..30 \"[\": expected `}`, found `[`\n"
    );
    let [Item::Function(f), Item::Function(main)] = file.items.as_slice() else {
        panic!("{:?}", file.items);
    };
    assert_eq!(f.body.as_ref().unwrap().stmts.len(), 1);
    assert_eq!(main.name.name, "main");
    assert_eq!(main.attributes[0].name, "shader");
}

#[test]
fn a_missing_opening_brace_still_reads_the_body() {
    let src = "float f(float x) return x * 2; }\nfloat g;";
    let (file, diagnostics) = parse_text(src);
    assert_eq!(
        render(src, &diagnostics),
        "E20001 17..23 \"return\": expected `{` or `;`, found `return`\n"
    );
    let [Item::Function(f), Item::Var(g)] = file.items.as_slice() else {
        panic!("{:?}", file.items);
    };
    assert!(matches!(
        f.body.as_ref().unwrap().stmts[0].kind,
        StmtKind::Return(Some(_))
    ));
    assert_eq!(g.declarators[0].name.name, "g");
}

#[test]
fn an_unsized_array_as_a_generic_argument_is_unsupported() {
    check(
        "StructuredBuffer<int[]> rows;",
        r#"E20003 17..22 "int[]": an unsized array as a generic argument is not supported"#,
    );
}

#[test]
fn a_constexpr_parameter_is_a_modifier_of_the_parameter() {
    let src = "float f(uint2 p, constexpr int2 offset, int s) { return 0; }";
    let (file, diagnostics) = parse_text(src);
    assert_eq!(render(src, &diagnostics), "");
    let [Item::Function(f)] = file.items.as_slice() else {
        panic!("{:?}", file.items);
    };
    assert_eq!(f.params.len(), 3);
    assert!(
        f.params[1]
            .modifiers
            .iter()
            .any(|m| m.kind == legalis_front::ast::ModifierKind::ConstExpr)
    );
}

#[test]
fn an_extern_struct_without_a_default_is_unsupported() {
    check(
        "extern struct Input : IInput;",
        r#"E20003 0..28 "extern struct Input : IInput": an `extern struct` without a default type (`= Type`), which another module would supply, is not supported"#,
    );
}
