//! Tests of the preprocessor: directives, conditionals, `#if` expressions,
//! macro expansion, command-line defines, diagnostics and robustness.
//!
//! Most tests render the output tokens back to text and compare; every run
//! also checks the output invariants (one `Eof` at the end, token and
//! diagnostic spans inside the source, token text inside the buffer).

use legalis_front::lexer::TokenKind;
use legalis_front::pp::{Preprocessed, preprocess};
use legalis_ir::Span;
use legalis_ir::diag::{Diagnostic, Severity};

fn run(source: &str, defines: &[(&str, &str)]) -> Preprocessed {
    let defines: Vec<(String, String)> = defines
        .iter()
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect();
    let pre = preprocess(source, &defines);
    check_invariants(source, &pre);
    pre
}

fn check_invariants(source: &str, pre: &Preprocessed) {
    let len = source.len() as u32;
    assert!(
        pre.text.starts_with(source),
        "the buffer must start with the source"
    );
    let (last, rest) = pre.tokens.split_last().expect("at least Eof");
    assert_eq!(last.kind, TokenKind::Eof);
    assert_eq!(last.span, Span::new(len, len));
    for tok in rest {
        assert_ne!(tok.kind, TokenKind::Eof, "one Eof only");
        assert!(
            tok.span.start <= tok.span.end && tok.span.end <= len,
            "span {tok:?} outside the source"
        );
        assert!(
            pre.text.get(tok.text.range()).is_some(),
            "text {tok:?} outside the buffer"
        );
        assert!(
            !matches!(
                tok.kind,
                TokenKind::Unknown | TokenKind::UnterminatedComment | TokenKind::UnterminatedString
            ),
            "lexer error token {tok:?} in the output"
        );
    }
    for diag in &pre.diagnostics {
        for label in &diag.labels {
            assert!(
                label.span.start <= label.span.end && label.span.end <= len,
                "diagnostic span outside the source: {diag:?}"
            );
        }
    }
}

/// The output tokens' text, space separated (without the `Eof`).
fn render(pre: &Preprocessed) -> String {
    pre.tokens[..pre.tokens.len() - 1]
        .iter()
        .map(|t| &pre.text[t.text.range()])
        .collect::<Vec<_>>()
        .join(" ")
}

/// Preprocesses `source`, asserts there are no diagnostics, and returns the
/// rendered output.
fn expand(source: &str) -> String {
    let pre = run(source, &[]);
    assert!(pre.diagnostics.is_empty(), "{:#?}", pre.diagnostics);
    render(&pre)
}

/// Each diagnostic as `E<code> <severity> `<text under its span>`: <message>`.
fn diags(source: &str) -> Vec<String> {
    let pre = run(source, &[]);
    describe(source, &pre.diagnostics)
}

fn describe(source: &str, diagnostics: &[Diagnostic]) -> Vec<String> {
    diagnostics
        .iter()
        .map(|d| {
            let span = d.primary_span();
            format!(
                "{} {} `{}`: {}",
                d.code_str(),
                d.severity.as_str(),
                &source[span.range()],
                d.message
            )
        })
        .collect()
}

/// The one diagnostic of `source`, described.
fn diag(source: &str) -> String {
    let all = diags(source);
    assert_eq!(all.len(), 1, "{all:#?}");
    all.into_iter().next().unwrap_or_default()
}

/// Whether `#if <expr>` takes its branch, with no diagnostics.
fn holds(expr: &str) -> bool {
    match expand(&format!("#if {expr}\nyes\n#else\nno\n#endif\n")).as_str() {
        "yes" => true,
        "no" => false,
        other => panic!("{other}"),
    }
}

// ---- plain text and directive recognition

#[test]
fn text_without_directives_passes_through() {
    assert_eq!(
        expand("float4 main() : SV_Target { return 1; }"),
        "float4 main ( ) : SV_Target { return 1 ; }"
    );
}

#[test]
fn a_leading_byte_order_mark_is_ignored() {
    assert_eq!(expand("\u{feff}#define X 1\nX"), "1");
}

#[test]
fn empty_source_is_just_eof() {
    let pre = run("", &[]);
    assert_eq!(pre.tokens.len(), 1);
    assert!(pre.diagnostics.is_empty());
}

#[test]
fn hash_not_first_on_its_line_is_not_a_directive() {
    assert_eq!(expand("a # define X 1\nX"), "a # define X 1 X");
}

#[test]
fn directive_may_follow_whitespace_and_comments() {
    assert_eq!(expand("  /* c */ #define X 1\nX"), "1");
    assert_eq!(expand("a\n/* one\ntwo */ #define X 1\nX"), "a 1");
}

#[test]
fn a_comment_spanning_lines_joins_them() {
    // The comment is one space, so `#` is not first on its line.
    assert_eq!(expand("a /* one\ntwo */ # b"), "a # b");
    // And a define's body continues past a multi-line comment.
    assert_eq!(expand("#define X 1 /* one\ntwo */ + 2\nX"), "1 + 2");
}

#[test]
fn backslash_newline_continues_a_directive() {
    assert_eq!(expand("#define X 1 \\\n + 2\nX"), "1 + 2");
    assert_eq!(expand("#define X 1 \\\r\n + 2\r\nX"), "1 + 2");
}

#[test]
fn null_directive_is_ignored() {
    assert_eq!(expand("a\n#\nb\n  #  \nc"), "a b c");
}

#[test]
fn hash_hash_at_line_start_is_not_a_directive() {
    assert_eq!(expand("## x"), "## x");
}

// ---- object-like macros

#[test]
fn object_like_macro() {
    assert_eq!(expand("#define N 4\nfloat a[N];"), "float a [ 4 ] ;");
}

#[test]
fn empty_object_like_macro() {
    assert_eq!(expand("#define E\na E b"), "a b");
}

#[test]
fn space_before_paren_makes_an_object_like_macro() {
    assert_eq!(expand("#define F (x) x\nF(1)"), "( x ) x ( 1 )");
}

#[test]
fn undef_removes_a_macro() {
    assert_eq!(expand("#define X 1\nX\n#undef X\nX\n#undef NEVER"), "1 X");
}

#[test]
fn nested_object_like_macros() {
    assert_eq!(
        expand("#define A B + B\n#define B C\n#define C 7\nA"),
        "7 + 7"
    );
}

#[test]
fn macro_defined_after_use_does_not_apply_before() {
    assert_eq!(expand("X\n#define X 1\nX"), "X 1");
}

#[test]
fn self_referential_object_like_macro_expands_once() {
    assert_eq!(expand("#define foo foo + 1\nfoo"), "foo + 1");
}

#[test]
fn mutually_recursive_macros_stop() {
    assert_eq!(expand("#define a b\n#define b a\na b"), "a b");
    assert_eq!(expand("#define a 1 + b\n#define b 2 + a\na"), "1 + 2 + a");
}

#[test]
fn identical_redefinition_is_silent() {
    assert_eq!(expand("#define X 1 + 2\n#define X 1  +  2\nX"), "1 + 2");
}

#[test]
fn different_redefinition_warns_and_wins() {
    let source = "#define X 1\n#define X 2\nX";
    let pre = run(source, &[]);
    assert_eq!(render(&pre), "2");
    assert_eq!(
        describe(source, &pre.diagnostics),
        ["E15005 warning `X`: macro `X` redefined"]
    );
    let previous = &pre.diagnostics[0].labels[1];
    assert_eq!(&source[previous.span.range()], "#define X");
    assert_eq!(pre.diagnostics[0].labels[0].span, Span::new(20, 21));
}

// ---- function-like macros

#[test]
fn function_like_macro() {
    assert_eq!(
        expand("#define SQ(x) ((x) * (x))\nSQ(a + 1)"),
        "( ( a + 1 ) * ( a + 1 ) )"
    );
}

#[test]
fn function_like_macro_with_two_parameters() {
    assert_eq!(
        expand("#define MAX(a, b) a > b ? a : b\nMAX(1, 2)"),
        "1 > 2 ? 1 : 2"
    );
}

#[test]
fn nested_parentheses_and_commas_in_arguments() {
    assert_eq!(
        expand("#define F(a, b) [a|b]\nF((1, 2), f(3, 4))"),
        "[ ( 1 , 2 ) | f ( 3 , 4 ) ]"
    );
}

#[test]
fn brackets_do_not_protect_commas() {
    assert_eq!(
        diag("#define F(a) <a>\nF([1, 2])"),
        "E15008 error `F([1, 2])`: macro `F` takes 1 argument, but 2 were given"
    );
}

#[test]
fn zero_parameter_macro() {
    assert_eq!(expand("#define Z() 0\nZ() Z ( )"), "0 0");
}

#[test]
fn empty_argument() {
    assert_eq!(expand("#define F(x) [x]\nF()"), "[ ]");
    assert_eq!(
        expand("#define G(x, y) [x y]\nG(,) G(1,) G(,2)"),
        "[ ] [ 1 ] [ 2 ]"
    );
}

#[test]
fn function_like_name_without_parens_stays_an_identifier() {
    assert_eq!(expand("#define F(x) x\nint F; F + 1"), "int F ; F + 1");
}

#[test]
fn invocation_may_span_lines() {
    assert_eq!(expand("#define F(a, b) a + b\nF(1,\n  2\n) ;"), "1 + 2 ;");
    assert_eq!(expand("#define F(a) a\nF\n(3)"), "3");
}

#[test]
fn arguments_are_expanded_before_substitution() {
    assert_eq!(expand("#define ONE 1\n#define F(x) x + x\nF(ONE)"), "1 + 1");
    assert_eq!(
        expand("#define F(x) [x]\n#define G(x) F(x)\nG(F(1))"),
        "[ [ 1 ] ]"
    );
}

#[test]
fn nested_function_like_invocations() {
    assert_eq!(
        expand("#define ADD(a, b) (a + b)\nADD(ADD(1, 2), ADD(3, 4))"),
        "( ( 1 + 2 ) + ( 3 + 4 ) )"
    );
}

#[test]
fn object_like_macro_naming_a_function_like_one_takes_arguments_from_the_text() {
    assert_eq!(expand("#define F(x) [x]\n#define G F\nG(1)"), "[ 1 ]");
    assert_eq!(expand("#define F(x) [x]\n#define G F\nG + 1"), "F + 1");
}

#[test]
fn expansion_result_may_invoke_a_macro_with_the_following_text() {
    assert_eq!(
        expand("#define F(x) x\n#define CALL F(G)\n#define G(y) <y>\nCALL(2)"),
        "< 2 >"
    );
}

#[test]
fn self_referential_function_like_macro_expands_once() {
    assert_eq!(expand("#define f(x) x + f(x)\nf(1)"), "1 + f ( 1 )");
    assert_eq!(expand("#define f(x) f(x)\nf(1)(2)"), "f ( 1 ) ( 2 )");
}

#[test]
fn a_macro_name_in_its_own_argument_is_not_expanded_twice() {
    // `g` is read while `g` expands, so it stays painted inside `h`'s
    // argument; without that this would never end.
    assert_eq!(expand("#define h(x) x\n#define g h(g)\ng"), "g");
    assert_eq!(expand("#define f(x) x\nf(f)(1)"), "f ( 1 )");
}

#[test]
fn the_classic_c_standard_examples() {
    // C11 6.10.3.5, example 3.
    let source = "#define x 3\n#define f(a) f(x * (a))\n#undef x\n#define x 2\n#define g f\n\
                  #define z z[0]\n#define h g(~\n#define m(a) a(w)\n#define w 0,1\n\
                  #define t(a) a\n#define p() int\n#define q(x) x\n#define r(x,y) x ## y\n\
                  #define str(x) # x\n\
                  f(y+1) + f(f(z)) % t(t(g)(0) + t)(1);\ng(x+(3,4)-w) | h 5) & m\n(f)^m(m);\n\
                  p() i[q()] = { q(1), r(2,3), r(4,), r(,5), r(,) };\n\
                  char c[2][6] = { str(hello), str() };";
    assert_eq!(
        expand(source),
        "f ( 2 * ( y + 1 ) ) + f ( 2 * ( f ( 2 * ( z [ 0 ] ) ) ) ) % f ( 2 * ( 0 ) ) + t ( 1 ) ; \
         f ( 2 * ( 2 + ( 3 , 4 ) - 0 , 1 ) ) | f ( 2 * ( ~ 5 ) ) & f ( 2 * ( 0 , 1 ) ) ^ m ( 0 , 1 ) ; \
         int i [ ] = { 1 , 23 , 4 , 5 , } ; \
         char c [ 2 ] [ 6 ] = { \"hello\" , \"\" } ;"
    );
}

#[test]
fn the_c_standard_stringizing_and_pasting_examples() {
    // C11 6.10.3.5, example 4 (without its character literals).
    let source = r#"#define str(s) # s
#define xstr(s) str(s)
#define INCFILE(n) vers ## n
#define glue(a, b) a ## b
#define xglue(a, b) glue(a, b)
#define HIGHLOW "hello"
#define LOW LOW ", world"
xstr(INCFILE(2).h) str(strncmp("abc\0d", "abc") == 0) glue(HIGH, LOW) xglue(HIGH, LOW)"#;
    assert_eq!(
        expand(source),
        r#""vers2.h" "strncmp(\"abc\\0d\", \"abc\") == 0" "hello" "hello" ", world""#
    );
}

#[test]
fn variadic_macro() {
    assert_eq!(
        expand("#define V(a, ...) a: __VA_ARGS__\nV(1, 2, 3)"),
        "1 : 2 , 3"
    );
    assert_eq!(expand("#define V(a, ...) a: __VA_ARGS__\nV(1)"), "1 :");
    assert_eq!(
        expand("#define P(...) f(__VA_ARGS__)\nP() P(x, (y, z))"),
        "f ( ) f ( x , ( y , z ) )"
    );
}

#[test]
fn wrong_argument_count() {
    assert_eq!(
        diag("#define F(a, b) a\nF(1)"),
        "E15008 error `F(1)`: macro `F` takes 2 arguments, but 1 were given"
    );
    assert_eq!(
        diag("#define F(a) a\nx F(1, 2) y"),
        "E15008 error `F(1, 2)`: macro `F` takes 1 argument, but 2 were given"
    );
    assert_eq!(
        diag("#define Z() 0\nZ(1)"),
        "E15008 error `Z(1)`: macro `Z` takes 0 arguments, but 1 were given"
    );
    assert_eq!(
        diag("#define V(a, b, ...) 0\nV(1)"),
        "E15008 error `V(1)`: macro `V` takes at least 2 arguments, but 1 were given"
    );
    // The invocation is dropped; the text after it is kept.
    assert_eq!(render(&run("#define F(a, b) a\nF(1) + 2", &[])), "+ 2");
}

#[test]
fn unterminated_argument_list() {
    assert_eq!(
        diag("#define F(a) a\nF(1, (2)"),
        "E15008 error `F`: unterminated argument list invoking macro `F`"
    );
}

#[test]
fn argument_list_cannot_cross_a_directive() {
    let source = "#define F(a) a\nF(1\n#define G 2\n) G";
    assert_eq!(
        diags(source),
        ["E15008 error `F`: unterminated argument list invoking macro `F`"]
    );
    assert_eq!(render(&run(source, &[])), ") 2");
}

#[test]
fn malformed_parameter_lists() {
    let cases = [
        ("#define F(", "("),
        ("#define F(a b) a", "b"),
        ("#define F(a,) a", ")"),
        ("#define F(1) a", "1"),
        ("#define F(a, a) a", "a"),
        ("#define F(a", "a"),
        ("#define F(..., a) a", ","),
        ("#define F(__VA_ARGS__) a", "__VA_ARGS__"),
    ];
    for (source, at) in cases {
        assert_eq!(
            diags(source),
            [format!(
                "E15010 error `{at}`: malformed parameter list for macro `F`"
            )],
            "{source}"
        );
    }
    assert_eq!(render(&run("#define F(a b) a\nF(1)", &[])), "F ( 1 )");
}

#[test]
fn malformed_define_and_undef() {
    assert_eq!(
        diag("#define\n"),
        "E15010 error `#define`: `#define` needs a macro name"
    );
    assert_eq!(
        diag("#define 3 x\n"),
        "E15010 error `3`: `3` cannot be a macro name"
    );
    assert_eq!(
        diag("#define defined 1\n"),
        "E15010 error `defined`: `defined` cannot be a macro name"
    );
    assert_eq!(
        diag("#undef\n"),
        "E15010 error `#undef`: `#undef` needs a macro name"
    );
}

// ---- spans of expanded tokens

#[test]
fn expanded_tokens_point_at_the_macro_use() {
    let source = "#define X a + b\nq X";
    let pre = run(source, &[]);
    let spans: Vec<&str> = pre.tokens[..4]
        .iter()
        .map(|t| &source[t.span.range()])
        .collect();
    assert_eq!(spans, ["q", "X", "X", "X"]);
    // ... while their text is their own.
    assert_eq!(render(&pre), "q a + b");
}

#[test]
fn function_like_expansion_points_at_the_whole_invocation_and_arguments_at_themselves() {
    let source = "#define F(x) (x + 1)\nF( y )";
    let pre = run(source, &[]);
    let spans: Vec<&str> = pre.tokens[..5]
        .iter()
        .map(|t| &source[t.span.range()])
        .collect();
    assert_eq!(spans, ["F( y )", "y", "F( y )", "F( y )", "F( y )"]);
}

#[test]
fn nested_expansions_point_at_the_outermost_use() {
    let source = "#define A B\n#define B 1\n\nA";
    let pre = run(source, &[]);
    assert_eq!(&source[pre.tokens[0].span.range()], "A");
}

#[test]
fn invocation_completed_by_text_after_an_expansion_covers_both() {
    let source = "#define F(x) x\n#define G F\nG(1 + 2)";
    let pre = run(source, &[]);
    let spans: Vec<&str> = pre.tokens[..3]
        .iter()
        .map(|t| &source[t.span.range()])
        .collect();
    assert_eq!(spans, ["1", "+", "2"]);
    let source = "#define F(x) [x]\n#define G F\nG(1)";
    let pre = run(source, &[]);
    assert_eq!(&source[pre.tokens[0].span.range()], "G(1)");
}

// ---- # and ##

#[test]
fn token_pasting_forms_identifiers() {
    let source = "#define CAT(a, b) a ## b\nCAT(tex, 0) CAT(x,1)";
    let pre = run(source, &[]);
    assert!(pre.diagnostics.is_empty(), "{:?}", pre.diagnostics);
    assert_eq!(render(&pre), "tex0 x1");
    assert_eq!(pre.tokens[0].kind, TokenKind::Ident);
    // Pasted text lives after the source; the span stays at the use.
    assert!(pre.tokens[0].text.start as usize >= source.len());
    assert_eq!(&source[pre.tokens[0].span.range()], "CAT(tex, 0)");
}

#[test]
fn token_pasting_forms_numbers_and_operators() {
    let source = "#define CAT(a, b) a##b\nCAT(1, 2u) CAT(<, <=) CAT(1, .5)";
    let pre = run(source, &[]);
    assert!(pre.diagnostics.is_empty(), "{:?}", pre.diagnostics);
    assert_eq!(render(&pre), "12u <<= 1.5");
    let kinds: Vec<_> = pre.tokens.iter().map(|t| t.kind).collect();
    assert_eq!(
        kinds,
        [
            TokenKind::IntLit,
            TokenKind::ShlEq,
            TokenKind::FloatLit,
            TokenKind::Eof
        ]
    );
}

#[test]
fn pasting_with_an_empty_argument_keeps_the_other_side() {
    assert_eq!(
        expand("#define CAT(a, b) a ## b\nCAT(x,) CAT(,y) [CAT(,)]"),
        "x y [ ]"
    );
    assert_eq!(
        expand("#define CAT3(a, b, c) a ## b ## c\nCAT3(x, , z) CAT3(x, y, z)"),
        "xz xyz"
    );
}

#[test]
fn pasted_arguments_are_not_pre_expanded_but_the_result_is_rescanned() {
    assert_eq!(
        expand("#define CAT(a, b) a ## b\n#define x 9\n#define xy 42\nCAT(x, y) CAT(x, )"),
        "42 9"
    );
}

#[test]
fn pasting_in_an_object_like_macro() {
    assert_eq!(expand("#define XY x ## 1\nXY XY"), "x1 x1");
}

#[test]
fn repeated_pastes_share_their_text() {
    let source = "#define CAT(a, b) a ## b\nCAT(a,b) CAT(a,b) CAT(a,b)";
    let pre = run(source, &[]);
    assert_eq!(pre.tokens[0].text, pre.tokens[2].text);
}

#[test]
fn invalid_paste_is_reported_and_keeps_both_tokens() {
    let source = "#define CAT(a, b) a ## b\nCAT(+, x)";
    let pre = run(source, &[]);
    assert_eq!(render(&pre), "+ x");
    assert_eq!(
        describe(source, &pre.diagnostics),
        ["E15012 error `CAT(+, x)`: pasting `+` and `x` does not give a valid token"]
    );
    assert_eq!(
        diag("#define C(a, b) a ## b\nC(/, /)"),
        "E15012 error `C(/, /)`: pasting `/` and `/` does not give a valid token"
    );
}

#[test]
fn stringizing() {
    assert_eq!(
        expand("#define S(x) #x\nS(a + b) S(a+b) S() S(  f( 1 ) )"),
        r#""a + b" "a+b" "" "f( 1 )""#
    );
    assert_eq!(expand("#define S(x) # x\nS(\"q\\n\")"), r#""\"q\\n\"""#);
    let pre = run("#define S(x) #x\nS(y)", &[]);
    assert_eq!(pre.tokens[0].kind, TokenKind::StringLit);
}

#[test]
fn stringized_arguments_are_not_expanded() {
    assert_eq!(expand("#define N 4\n#define S(x) #x\nS(N)"), r#""N""#);
    assert_eq!(
        expand("#define N 4\n#define S(x) #x\n#define XS(x) S(x)\nXS(N)"),
        r#""4""#
    );
}

#[test]
fn hash_in_an_object_like_macro_is_an_ordinary_token() {
    assert_eq!(expand("#define H # x\nH"), "# x");
}

#[test]
fn misplaced_hash_and_paste_in_a_definition() {
    assert_eq!(
        diag("#define F(x) # y\n"),
        "E15012 error `#`: `#` in a function-like macro must be followed by a parameter"
    );
    assert_eq!(
        diag("#define F(x) ## x\n"),
        "E15012 error `##`: `##` cannot appear at either end of a macro body"
    );
    assert_eq!(
        diag("#define X a ##\nX"),
        "E15012 error `##`: `##` cannot appear at either end of a macro body"
    );
    // The macro is not defined.
    assert_eq!(render(&run("#define X a ##\nX", &[])), "X");
}

// ---- conditionals

#[test]
fn ifdef_and_ifndef() {
    assert_eq!(
        expand("#define A\n#ifdef A\na\n#endif\n#ifdef B\nb\n#endif"),
        "a"
    );
    assert_eq!(
        expand("#define A\n#ifndef A\na\n#endif\n#ifndef B\nb\n#endif"),
        "b"
    );
}

#[test]
fn if_elif_else_chains_take_the_first_true_branch() {
    let chain = |n: u32| {
        expand(&format!(
            "#define N {n}\n#if N == 1\none\n#elif N == 2\ntwo\n#elif N == 3\nthree\n#else\nother\n#endif"
        ))
    };
    assert_eq!(chain(1), "one");
    assert_eq!(chain(2), "two");
    assert_eq!(chain(3), "three");
    assert_eq!(chain(4), "other");
    assert_eq!(expand("#if 1\na\n#elif 1\nb\n#else\nc\n#endif"), "a");
}

#[test]
fn nested_conditionals() {
    let source = "#if 1\na\n#if 0\nb\n#elif 1\nc\n#if 1\nd\n#endif\n#else\ne\n#endif\nf\n#else\ng\n#if 1\nh\n#endif\n#endif\ni";
    assert_eq!(expand(source), "a c d f i");
}

#[test]
fn directives_in_inactive_regions_do_nothing() {
    let source = "#if 0\n#define X 1\n#undef Y\n#error no\n#include <x>\n#pragma bogus\n#bogus\n#line x\n#endif\nX Y";
    assert_eq!(expand(source), "X Y");
}

#[test]
fn junk_in_inactive_regions_is_not_reported() {
    let source =
        "#if 0\n@ $ don't \"open\n#if garbage (((\n#elif 1/0\n#endif\n#elif 0\n#else\nok\n#endif";
    assert_eq!(expand(source), "ok");
}

#[test]
fn unterminated_comment_in_an_inactive_region_reports_only_the_conditional() {
    assert_eq!(
        diags("#ifdef NOPE\n/* never closed\n#endif\n"),
        ["E15002 error `#ifdef`: `#ifdef` without `#endif`"]
    );
}

#[test]
fn elif_after_a_taken_branch_is_not_evaluated() {
    assert_eq!(expand("#if 1\na\n#elif 1/0\nb\n#elif (\nc\n#endif"), "a");
}

#[test]
fn stray_conditionals() {
    assert_eq!(
        diag("#endif\n"),
        "E15003 error `#endif`: `#endif` without `#if`"
    );
    assert_eq!(
        diag("#else\n"),
        "E15003 error `#else`: `#else` without `#if`"
    );
    assert_eq!(
        diag("#elif 1\n"),
        "E15003 error `#elif`: `#elif` without `#if`"
    );
}

#[test]
fn else_after_else() {
    let source = "#if 0\na\n#else\nb\n#else\nc\n#endif\nd";
    let pre = run(source, &[]);
    assert_eq!(render(&pre), "b d");
    assert_eq!(
        describe(source, &pre.diagnostics),
        ["E15003 error `#else`: `#else` after `#else`"]
    );
    let labels = &pre.diagnostics[0].labels;
    assert_eq!(&source[labels[1].span.range()], "#else");
    assert!(labels[1].span.start < labels[0].span.start);
}

#[test]
fn elif_after_else() {
    let source = "#if 0\na\n#else\nb\n#elif 1\nc\n#endif";
    let pre = run(source, &[]);
    assert_eq!(render(&pre), "b");
    assert_eq!(
        describe(source, &pre.diagnostics),
        ["E15003 error `#elif`: `#elif` after `#else`"]
    );
}

#[test]
fn conditional_structure_is_checked_in_inactive_regions_too() {
    assert_eq!(
        diags("#if 0\n#if 1\n#else\n#else\n#endif\n#endif\n"),
        ["E15003 error `#else`: `#else` after `#else`"]
    );
}

#[test]
fn unterminated_conditionals_point_at_their_opening() {
    assert_eq!(
        diag("a\n#if 1\nb\n"),
        "E15002 error `#if`: `#if` without `#endif`"
    );
    assert_eq!(
        diags("#ifndef A\n#if 0\n#endif\n#ifdef B\n"),
        [
            "E15002 error `#ifndef`: `#ifndef` without `#endif`",
            "E15002 error `#ifdef`: `#ifdef` without `#endif`"
        ]
    );
    let pre = run("x\n#if 1\ny", &[]);
    assert_eq!(render(&pre), "x y");
}

#[test]
fn ifdef_needs_a_name() {
    assert_eq!(
        diag("#ifdef\n#endif"),
        "E15010 error `#ifdef`: `#ifdef` needs a macro name"
    );
    assert_eq!(
        diag("#ifndef 3\nx\n#endif"),
        "E15010 error `#ifndef`: `#ifndef` needs a macro name"
    );
}

// ---- #if expressions

#[test]
fn integer_literals_in_conditions() {
    assert!(holds("1"));
    assert!(!holds("0"));
    assert!(holds("0x10 == 16"));
    assert!(holds("010 == 8"));
    assert!(holds("10u == 10ul"));
    assert!(holds("0XFFLL == 255"));
    assert!(holds("0xFFFFFFFFFFFFFFFF == -1"));
}

#[test]
fn every_operator() {
    let cases = [
        ("!0", true),
        ("!7", false),
        ("~0 == -1", true),
        ("-3 + 5 == 2", true),
        ("+3 == 3", true),
        ("- - 3 == 3", true),
        ("6 * 7 == 42", true),
        ("7 / 2 == 3", true),
        ("-7 / 2 == -3", true),
        ("7 % 3 == 1", true),
        ("2 + 3 == 5", true),
        ("2 - 3 == -1", true),
        ("1 << 4 == 16", true),
        ("256 >> 4 == 16", true),
        ("-16 >> 2 == -4", true),
        ("1 < 2", true),
        ("2 < 1", false),
        ("2 > 1", true),
        ("1 > 2", false),
        ("2 <= 2", true),
        ("3 <= 2", false),
        ("2 >= 2", true),
        ("1 >= 2", false),
        ("3 == 3", true),
        ("3 == 4", false),
        ("3 != 4", true),
        ("3 != 3", false),
        ("(6 & 3) == 2", true),
        ("(6 ^ 3) == 5", true),
        ("(6 | 3) == 7", true),
        ("1 && 2", true),
        ("1 && 0", false),
        ("0 || 2", true),
        ("0 || 0", false),
        ("(1 && 2) == 1", true),
        ("1 ? 2 : 0", true),
        ("0 ? 2 : 0", false),
        ("0 ? 1 : 0 ? 1 : 3", true),
        ("(1 ? 5 : 6) == 5", true),
    ];
    for (expr, expected) in cases {
        assert_eq!(holds(expr), expected, "{expr}");
    }
}

#[test]
fn precedence_and_associativity() {
    assert!(holds("1 + 2 * 3 == 7"));
    assert!(holds("(1 + 2) * 3 == 9"));
    assert!(holds("10 - 4 - 3 == 3"));
    assert!(holds("64 / 4 / 2 == 8"));
    assert!(holds("1 << 2 + 1 == 8"));
    assert!(holds("1 | 2 ^ 3 & 4 == 3"));
    assert!(holds("0 || 1 && 0 || 1"));
    assert!(holds("1 == 1 == 1"));
    assert!(holds("2 < 3 == 1"));
    assert!(holds("!0 + 1 == 2"));
}

#[test]
fn arithmetic_wraps_instead_of_panicking() {
    assert!(holds("0x7FFFFFFFFFFFFFFF + 1 < 0"));
    assert!(holds("-0x7FFFFFFFFFFFFFFF - 1 == 0x8000000000000000"));
    assert!(holds("(0x8000000000000000 / -1) == 0x8000000000000000"));
    assert!(holds("(0x8000000000000000 % -1) == 0"));
    assert!(holds("0x4000000000000000 * 4 == 0"));
    assert!(holds("(1 << 64) == 0"));
    assert!(holds("(1 << -1) == 0"));
    assert!(holds("(-8 >> 100) == -1"));
    assert!(holds("(8 >> 100) == 0"));
}

#[test]
fn defined_operator() {
    assert!(holds("defined(__SLANG__)"));
    assert!(holds("defined __SLANG__"));
    assert!(!holds("defined(NOPE)"));
    assert!(holds("!defined NOPE && defined(__LEGALIS__)"));
    assert!(holds("defined ( __SLANG__ )"));
}

#[test]
fn defined_does_not_expand_its_operand() {
    assert_eq!(
        expand("#define A B\n#if defined(A) && !defined(B)\nyes\n#endif"),
        "yes"
    );
}

#[test]
fn defined_produced_by_a_macro() {
    assert_eq!(
        expand("#define HAS_A defined(A)\n#define A\n#if HAS_A\nyes\n#endif"),
        "yes"
    );
    assert_eq!(
        expand("#define HAS(x) defined(x)\n#if HAS(A)\nyes\n#else\nno\n#endif"),
        "no"
    );
}

#[test]
fn macros_expand_in_conditions_and_unknown_names_are_zero() {
    assert_eq!(
        expand("#define V 3\n#define TWICE(x) ((x) * 2)\n#if TWICE(V) == 6\nyes\n#endif"),
        "yes"
    );
    assert!(!holds("UNDEFINED_NAME"));
    assert!(holds("UNDEFINED_NAME == 0"));
    // As in Slang (and C), `true` is just an undefined identifier.
    assert!(!holds("true"));
}

#[test]
fn predefined_macros() {
    assert_eq!(expand("__HLSL_VERSION __SLANG__ __LEGALIS__"), "2021 1 1");
    assert!(holds("__HLSL_VERSION >= 2021"));
    let source = "x __HLSL_VERSION";
    let pre = run(source, &[]);
    assert_eq!(&source[pre.tokens[1].span.range()], "__HLSL_VERSION");
    assert!(pre.tokens[1].text.start as usize > source.len());
}

#[test]
fn predefined_macros_can_be_undefined() {
    assert_eq!(
        expand("#undef __SLANG__\n#ifdef __SLANG__\nyes\n#endif\n__SLANG__"),
        "__SLANG__"
    );
}

#[test]
fn short_circuit_operands_are_not_evaluated() {
    assert!(!holds("0 && 1 / 0"));
    assert!(holds("1 || 1 / 0"));
    assert!(holds("0 ? 1 / 0 : 1"));
    assert!(holds("1 ? 1 : 1 % 0"));
    assert!(!holds("0 && (1 / 0 || 2 % 0)"));
}

#[test]
fn division_by_zero() {
    assert_eq!(
        diag("#if 1 / 0\n#endif"),
        "E15004 error `/`: division by zero in preprocessor expression"
    );
    assert_eq!(
        diag("#if 1 % (2 - 2)\n#endif"),
        "E15004 error `%`: division by zero in preprocessor expression"
    );
    // A failed condition is false.
    assert_eq!(render(&run("#if 1 / 0\na\n#else\nb\n#endif", &[])), "b");
}

#[test]
fn malformed_conditions() {
    let cases = [
        ("#if\n#endif", "E15004 error ``: `#if` needs an expression"),
        (
            "#if 1 +\n#endif",
            "E15004 error ``: expected a value in preprocessor expression, found end of line",
        ),
        (
            "#if (1\n#endif",
            "E15004 error ``: expected `)` in preprocessor expression, found end of line",
        ),
        (
            "#if 1 2\n#endif",
            "E15004 error `2`: unexpected integer literal in preprocessor expression",
        ),
        (
            "#if 1 ? 2\n#endif",
            "E15004 error ``: expected `:` in preprocessor expression, found end of line",
        ),
        (
            "#if 1.5\n#endif",
            "E15004 error `1.5`: floating-point literal in preprocessor expression",
        ),
        (
            "#if \"s\"\n#endif",
            "E15004 error `\"s\"`: expected a value in preprocessor expression, found string literal",
        ),
        (
            "#if F(1)\n#endif",
            "E15004 error `F`: `F` is not a function-like macro",
        ),
        (
            "#if 99999999999999999999\n#endif",
            "E15004 error `99999999999999999999`: integer literal `99999999999999999999` is malformed or too large",
        ),
        (
            "#if defined\n#endif",
            "E15004 error `defined`: `defined` must be followed by a macro name, as in `defined(NAME)`",
        ),
        (
            "#if defined(X\n#endif",
            "E15004 error `defined(X`: `defined` must be followed by a macro name, as in `defined(NAME)`",
        ),
        (
            "#if defined 3\n#endif",
            "E15004 error `defined`: `defined` must be followed by a macro name, as in `defined(NAME)`",
        ),
        (
            "#if 0\n#elif\n#endif",
            "E15004 error ``: `#elif` needs an expression",
        ),
    ];
    for (source, expected) in cases {
        assert_eq!(diags(source), [expected], "{source}");
    }
}

#[test]
fn errors_inside_a_macro_in_a_condition_point_at_the_use() {
    let source = "#define BAD 1 / 0\n#if BAD\n#endif";
    assert_eq!(
        diag(source),
        "E15004 error `BAD`: division by zero in preprocessor expression"
    );
}

#[test]
fn lexer_errors_in_an_active_condition_are_reported() {
    assert_eq!(
        diags("#if 1 @\n#endif"),
        ["E10001 error `@`: unknown character `@`"]
    );
}

// ---- other directives

#[test]
fn error_directive() {
    assert_eq!(
        diag("#error this   is bad\n"),
        "E15007 error `#error`: #error: this is bad"
    );
    assert_eq!(
        diag("#error \"quoted\" don't\n"),
        "E15007 error `#error`: #error: \"quoted\" don't"
    );
    assert_eq!(diag("#error\n"), "E15007 error `#error`: #error: ");
    assert_eq!(
        diag("#error one \\\n two // comment\n"),
        "E15007 error `#error`: #error: one two"
    );
}

#[test]
fn warning_directive() {
    let pre = run("#warning careful\nx", &[]);
    assert_eq!(render(&pre), "x");
    assert_eq!(
        describe("#warning careful\nx", &pre.diagnostics),
        ["E15013 warning `#warning`: #warning: careful"]
    );
}

#[test]
fn harmless_pragmas_are_silent() {
    assert_eq!(
        expand(
            "#pragma once\n#pragma warning(disable: 3206)\n#pragma message(\"hi\")\n#pragma region X\n#pragma endregion\n#pragma dxc diagnostic push\n#pragma\nx"
        ),
        "x"
    );
}

#[test]
fn pack_matrix_pragma_warns_that_it_has_no_effect() {
    assert_eq!(
        diag("#pragma pack_matrix(row_major)\n"),
        "E15009 warning `pack_matrix`: `#pragma pack_matrix` has no effect: Legalis does not change the default matrix layout"
    );
}

#[test]
fn unknown_pragma_warns() {
    assert_eq!(
        diag("#pragma frobnicate 3\n"),
        "E15009 warning `frobnicate`: unknown `#pragma frobnicate` is ignored"
    );
}

#[test]
fn line_directives_are_accepted() {
    assert_eq!(
        expand("#line 10\n#line 20 \"f.hlsl\"\n# 30 \"g.hlsl\" 2\nx"),
        "x"
    );
    assert_eq!(
        diag("#line\n"),
        "E15010 error `#line`: `#line` expects a line number and an optional file name"
    );
    assert_eq!(
        diag("#line x\n"),
        "E15010 error `#line`: `#line` expects a line number and an optional file name"
    );
    assert_eq!(
        diag("#line 1 2\n"),
        "E15010 error `#line`: `#line` expects a line number and an optional file name"
    );
}

#[test]
fn include_is_unsupported() {
    assert_eq!(
        diag("#include \"common.hlsl\"\nx"),
        "E15006 error `#include \"common.hlsl\"`: #include is not supported: Legalis compiles one file"
    );
    assert_eq!(
        diag("#include <x.h>"),
        "E15006 error `#include <x.h>`: #include is not supported: Legalis compiles one file"
    );
}

#[test]
fn unknown_directives() {
    assert_eq!(
        diag("#bogus 1 2\n"),
        "E15001 error `#bogus`: unknown preprocessor directive `#bogus`"
    );
    assert_eq!(
        diag("#Define X\n"),
        "E15001 error `#Define`: unknown preprocessor directive `#Define`"
    );
    assert_eq!(
        diag("# (\n"),
        "E15001 error `# (`: unknown preprocessor directive `#(`"
    );
}

// ---- lexer errors in active text

#[test]
fn lexer_errors_are_reported_and_dropped() {
    let source = "a @ b\n\"open\nc /* never";
    let pre = run(source, &[]);
    assert_eq!(render(&pre), "a b c");
    assert_eq!(
        describe(source, &pre.diagnostics),
        [
            "E10001 error `@`: unknown character `@`",
            "E10003 error `\"open`: unterminated string literal",
            "E10002 error `/*`: unterminated block comment",
        ]
    );
}

#[test]
fn lexer_errors_in_a_define_body_are_reported_at_the_definition() {
    let source = "#define X a $ b\nX X";
    let pre = run(source, &[]);
    assert_eq!(render(&pre), "a b a b");
    assert_eq!(
        describe(source, &pre.diagnostics),
        ["E10001 error `$`: unknown character `$`"]
    );
}

#[test]
fn lexer_errors_inside_macro_arguments_are_reported() {
    let source = "#define F(x) x\nF(a ` b)";
    let pre = run(source, &[]);
    assert_eq!(render(&pre), "a b");
    assert_eq!(
        describe(source, &pre.diagnostics),
        ["E10001 error ```: unknown character ```"]
    );
}

#[test]
fn multibyte_unknown_character() {
    assert_eq!(diag("a é b"), "E10001 error `é`: unknown character `é`");
}

// ---- command-line defines

#[test]
fn command_line_defines() {
    let source = "X + F(2)";
    let pre = run(source, &[("X", "3"), ("F(a)", "a * a")]);
    assert!(pre.diagnostics.is_empty(), "{:?}", pre.diagnostics);
    assert_eq!(render(&pre), "3 + 2 * 2");
    assert_eq!(&source[pre.tokens[0].span.range()], "X");
    assert!(pre.tokens[0].text.start as usize > source.len());
    assert_eq!(&source[pre.tokens[3].span.range()], "F(2)");
}

#[test]
fn command_line_define_without_value_is_empty() {
    let pre = run("#ifdef D\nyes D\n#endif", &[("D", "")]);
    assert_eq!(render(&pre), "yes");
}

#[test]
fn command_line_defines_override_predefined_ones_silently() {
    let pre = run("__HLSL_VERSION", &[("__HLSL_VERSION", "2018")]);
    assert!(pre.diagnostics.is_empty(), "{:?}", pre.diagnostics);
    assert_eq!(render(&pre), "2018");
}

#[test]
fn redefining_a_command_line_define_in_the_source_warns() {
    let source = "#define X 2\nX";
    let pre = run(source, &[("X", "1")]);
    assert_eq!(render(&pre), "2");
    assert_eq!(
        describe(source, &pre.diagnostics),
        ["E15005 warning `X`: macro `X` redefined"]
    );
}

#[test]
fn bad_command_line_defines_point_at_the_start_of_the_source() {
    let source = "x";
    let pre = run(source, &[("1X", "2"), ("Y", "a @ b"), ("F(", "1")]);
    let found: Vec<_> = pre
        .diagnostics
        .iter()
        .map(|d| (d.code, d.primary_span(), d.notes.clone()))
        .collect();
    assert_eq!(
        found,
        [
            (
                15010,
                Span::new(0, 0),
                vec!["in the command-line define `1X=2`".to_owned()]
            ),
            (
                10001,
                Span::new(0, 0),
                vec!["in the command-line define `Y=a @ b`".to_owned()]
            ),
            (
                15010,
                Span::new(0, 0),
                vec!["in the command-line define `F(=1`".to_owned()]
            ),
        ]
    );
    assert_eq!(render(&run("Y", &[("Y", "a @ b")])), "a b");
}

#[test]
fn errors_inside_a_command_line_macro_point_at_its_use() {
    let source = "a\nBAD";
    let pre = run(source, &[("BAD", "CAT(+, -)"), ("CAT(a, b)", "a ## b")]);
    assert_eq!(
        describe(source, &pre.diagnostics),
        ["E15012 error `BAD`: pasting `+` and `-` does not give a valid token"]
    );
}

#[test]
fn command_line_defines_with_an_empty_source() {
    let pre = run("", &[("1X", "2")]);
    assert_eq!(pre.diagnostics[0].primary_span(), Span::new(0, 0));
}

// ---- limits and robustness

#[test]
fn deep_chain_of_object_like_macros() {
    let mut source = String::from("#define M0 done\n");
    for k in 1..10_000 {
        source.push_str(&format!("#define M{k} M{}\n", k - 1));
    }
    source.push_str("M9999");
    assert_eq!(expand(&source), "done");
}

#[test]
fn deep_chain_of_function_like_macros() {
    let mut source = String::from("#define F0(x) x\n");
    for k in 1..10_000 {
        source.push_str(&format!("#define F{k}(x) F{}(x)\n", k - 1));
    }
    source.push_str("F9999(7)");
    assert_eq!(expand(&source), "7");
}

#[test]
fn deeply_nested_macro_arguments_stop_with_a_diagnostic() {
    let depth = 10_000;
    let source = format!(
        "#define F(x) x\n{}1{}",
        "F(".repeat(depth),
        ")".repeat(depth)
    );
    let pre = run(&source, &[]);
    let codes: Vec<u32> = pre.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, [15011]);
    assert_eq!(
        pre.diagnostics[0].primary_span(),
        Span::new(15, source.len() as u32)
    );
}

#[test]
fn moderately_nested_macro_arguments_are_fine() {
    let depth = 60;
    let source = format!(
        "#define F(x) x\n{}1{}",
        "F(".repeat(depth),
        ")".repeat(depth)
    );
    assert_eq!(expand(&source), "1");
}

#[test]
fn exponential_expansion_is_cut_off() {
    let mut source = String::from("#define A0 x\n");
    for k in 1..40 {
        source.push_str(&format!("#define A{k} A{} A{}\n", k - 1, k - 1));
    }
    source.push_str("before A39 after\nA39\n");
    let pre = run(&source, &[]);
    let codes: Vec<u32> = pre.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, [15011, 15011]);
    let first = pre.diagnostics[0].primary_span();
    assert_eq!(&source[first.range()], "A39");
    assert!(render(&pre).ends_with("after"));
}

#[test]
fn many_exponential_uses_exhaust_the_file_budget_and_stop_expanding() {
    let mut source = String::from("#define A0 x\n");
    for k in 1..40 {
        source.push_str(&format!("#define A{k} A{} A{}\n", k - 1, k - 1));
    }
    for _ in 0..100 {
        source.push_str("A39\n");
    }
    let pre = run(&source, &[]);
    assert!(pre.diagnostics.len() < 100);
    assert!(pre.diagnostics.iter().all(|d| d.code == 15011));
    assert!(render(&pre).ends_with("A39 A39"));
}

#[test]
fn exponential_function_like_expansion_is_cut_off() {
    let mut source = String::from("#define F0(x) x x\n");
    for k in 1..40 {
        source.push_str(&format!("#define F{k}(x) F{}(x x)\n", k - 1));
    }
    source.push_str("F39(y)");
    let pre = run(&source, &[]);
    let codes: Vec<u32> = pre.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, [15011]);
}

#[test]
fn deep_if_nesting() {
    let depth = 10_000;
    let source = format!("{}x\n{}", "#if 1\n".repeat(depth), "#endif\n".repeat(depth));
    assert_eq!(expand(&source), "x");
    let source = format!(
        "{}x\n{}",
        "#if 1\n#if 0\n#else\n".repeat(depth),
        "#endif\n#endif\n".repeat(depth)
    );
    assert_eq!(expand(&source), "x");
}

#[test]
fn deep_unterminated_if_nesting_reports_a_bounded_number_of_diagnostics() {
    let source = "#if 1\n".repeat(10_000);
    let pre = run(&source, &[]);
    assert_eq!(pre.diagnostics.len(), 16);
    assert!(pre.diagnostics.iter().all(|d| d.code == 15002));
    assert_eq!(pre.diagnostics[0].primary_span(), Span::new(0, 3));
    assert_eq!(
        pre.diagnostics[15].notes,
        ["9984 more conditionals inside it are unterminated too"]
    );
}

#[test]
fn deep_parentheses_in_a_condition() {
    let depth = 10_000;
    let source = format!("#if {}1{}\n#endif", "(".repeat(depth), ")".repeat(depth));
    let found = diags(&source);
    assert_eq!(found.len(), 1);
    assert!(found[0].starts_with("E15004 error `(`: preprocessor expression nested too deeply"));
    let source = format!("#if {}1{}\nyes\n#endif", "(".repeat(100), ")".repeat(100));
    assert_eq!(expand(&source), "yes");
}

#[test]
fn long_unary_and_ternary_chains_in_a_condition() {
    let source = format!("#if {}1\nyes\n#endif", "- ".repeat(10_000));
    assert_eq!(expand(&source), "yes");
    let source = format!("#if {}1\n#endif", "0 ? 0 : ".repeat(10_000));
    assert!(diag(&source).starts_with("E15004"));
}

/// Every prefix of a shader full of directives and macros preprocesses
/// without panicking and keeps the invariants.
#[test]
fn every_prefix_of_a_tricky_file_is_handled() {
    let source = "#define CAT(a, b) a ## b\n#define S(x) #x\n#define V(...) f(__VA_ARGS__)\n\
                  #if defined(CAT) && (1 << 3) > 7 ? 1 : 0\nCAT(x, y) S(\"é\") V(1, 2)\n#elif 1\n\
                  #else\n#endif\n/* c */ #define F(x) F(x) + x\nF(F(1)) é @ \"s\\\"\" 'q'\n#pragma pack_matrix(row_major)\n";
    for end in (0..=source.len()).filter(|&e| source.is_char_boundary(e)) {
        run(&source[..end], &[]);
    }
}

/// Random token soup built from preprocessor-heavy fragments.
#[test]
fn random_fragment_soup_never_panics() {
    const FRAGMENTS: [&str; 34] = [
        "#define ",
        "#undef ",
        "#if ",
        "#ifdef ",
        "#elif ",
        "#else",
        "#endif",
        "#error x",
        "#pragma ",
        "#line ",
        "#include",
        "\n",
        "\\\n",
        "A",
        "B(",
        "(",
        ")",
        ",",
        "##",
        "#",
        "defined",
        "0",
        "1",
        "/",
        "&&",
        "?",
        ":",
        "\"",
        "/*",
        "*/",
        "...",
        "__VA_ARGS__",
        " ",
        "é",
    ];
    let mut state = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..2_000 {
        let mut source = String::new();
        for _ in 0..40 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            source.push_str(FRAGMENTS[(state % FRAGMENTS.len() as u64) as usize]);
        }
        run(&source, &[("A", "B(A)"), ("B(x)", "x ## x A")]);
    }
}

#[test]
fn severities_are_right() {
    let pre = run(
        "#warning w\n#pragma zz\n#error e\n#define X 1\n#define X 2",
        &[],
    );
    let severities: Vec<Severity> = pre.diagnostics.iter().map(|d| d.severity).collect();
    assert_eq!(
        severities,
        [
            Severity::Warning,
            Severity::Warning,
            Severity::Error,
            Severity::Warning
        ]
    );
}
