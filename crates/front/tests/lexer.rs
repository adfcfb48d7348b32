//! Tests of the raw lexer (`lex_raw`) and of the literal value parsers.

use legalis_front::ast::{FloatSuffix, IntSuffix};
use legalis_front::lexer::{TokenKind, lex_raw};
use legalis_front::literal::{float_literal_value, int_literal_value};
use legalis_ir::Span;

/// Each token as `Kind:text`, separated by spaces.
fn lex(text: &str) -> String {
    lex_raw(text, 0)
        .iter()
        .map(|t| format!("{:?}:{}", t.kind, &text[t.span.range()]))
        .collect::<Vec<_>>()
        .join(" ")
}

fn kinds(text: &str) -> Vec<TokenKind> {
    lex_raw(text, 0).iter().map(|t| t.kind).collect()
}

#[test]
fn identifiers_and_keywords_are_both_idents() {
    assert_eq!(
        lex("float4 _x1 return line"),
        "Ident:float4 Ident:_x1 Ident:return Ident:line"
    );
}

#[test]
fn integer_literals() {
    assert_eq!(
        lex("0 42 0x1F 0XffU 017 10u 1ul 2LL 3ull"),
        "IntLit:0 IntLit:42 IntLit:0x1F IntLit:0XffU IntLit:017 IntLit:10u IntLit:1ul IntLit:2LL IntLit:3ull"
    );
}

#[test]
fn float_literals() {
    assert_eq!(
        lex("1.0 1. .5 1e5 1.5e-3 2.0f 1.5h 1.0L 1.0lf 3E+2F"),
        "FloatLit:1.0 FloatLit:1. FloatLit:.5 FloatLit:1e5 FloatLit:1.5e-3 FloatLit:2.0f \
         FloatLit:1.5h FloatLit:1.0L FloatLit:1.0lf FloatLit:3E+2F"
    );
}

#[test]
fn member_access_on_a_literal_is_not_a_float() {
    assert_eq!(lex("a.x"), "Ident:a Dot:. Ident:x");
    assert_eq!(lex("..."), "Dot:. Dot:. Dot:.");
}

#[test]
fn strings() {
    assert_eq!(lex(r#""a\"b" "c""#), r#"StringLit:"a\"b" StringLit:"c""#);
}

#[test]
fn unterminated_string_stops_at_the_line_end() {
    assert_eq!(lex("\"abc\nx"), "UnterminatedString:\"abc Ident:x");
}

#[test]
fn comments_are_skipped() {
    assert_eq!(lex("a // b c\nd /* e\n f */ g"), "Ident:a Ident:d Ident:g");
}

#[test]
fn unterminated_comment_runs_to_the_end() {
    assert_eq!(lex("a /* b\nc"), "Ident:a UnterminatedComment:/* b\nc");
}

#[test]
fn backslash_newline_is_skipped() {
    assert_eq!(lex("a \\\n b \\\r\n c"), "Ident:a Ident:b Ident:c");
}

#[test]
fn punctuation_takes_the_longest_match() {
    assert_eq!(
        kinds(
            "# ## :: : <<= << <= < >>= >> >= > ++ += + -- -= - && &= & || |= | == = != ! ^= ^ ~ ? %= % *= * /= /"
        ),
        {
            use TokenKind::*;
            vec![
                Hash, HashHash, ColonColon, Colon, ShlEq, Shl, Le, Lt, ShrEq, Shr, Ge, Gt,
                PlusPlus, PlusEq, Plus, MinusMinus, MinusEq, Minus, AmpAmp, AmpEq, Amp, PipePipe,
                PipeEq, Pipe, EqEq, Eq, Ne, Bang, CaretEq, Caret, Tilde, Question, PercentEq,
                Percent, StarEq, Star, SlashEq, Slash,
            ]
        }
    );
    assert_eq!(kinds("()[]{};,."), {
        use TokenKind::*;
        vec![
            LParen, RParen, LBracket, RBracket, LBrace, RBrace, Semi, Comma, Dot,
        ]
    });
}

#[test]
fn unknown_characters_become_unknown_tokens() {
    assert_eq!(
        lex("a @ $ ' \\ b"),
        "Ident:a Unknown:@ Unknown:$ Unknown:' Unknown:\\ Ident:b"
    );
}

#[test]
fn a_multibyte_unknown_character_is_one_whole_token() {
    let text = "a é 😀 b";
    let toks = lex_raw(text, 0);
    assert_eq!(toks.len(), 4);
    assert_eq!(&text[toks[1].span.range()], "é");
    assert_eq!(&text[toks[2].span.range()], "😀");
    assert_eq!(toks[2].kind, TokenKind::Unknown);
}

#[test]
fn spans_are_offset_by_base_and_text_equals_span() {
    let toks = lex_raw("ab  cd", 100);
    assert_eq!(toks[0].span, Span::new(100, 102));
    assert_eq!(toks[1].span, Span::new(104, 106));
    assert!(toks.iter().all(|t| t.span == t.text));
}

#[test]
fn describe_names_every_kind_readably() {
    assert_eq!(TokenKind::Ident.describe(), "identifier");
    assert_eq!(TokenKind::ShlEq.describe(), "`<<=`");
    assert_eq!(TokenKind::Eof.describe(), "end of file");
}

// ---- literal values

#[test]
fn int_values_in_every_radix() {
    assert_eq!(int_literal_value("0"), Some((0, IntSuffix::None)));
    assert_eq!(int_literal_value("42"), Some((42, IntSuffix::None)));
    assert_eq!(int_literal_value("0x1F"), Some((31, IntSuffix::None)));
    assert_eq!(int_literal_value("0XfF"), Some((255, IntSuffix::None)));
    assert_eq!(int_literal_value("017"), Some((15, IntSuffix::None)));
    assert_eq!(int_literal_value("00"), Some((0, IntSuffix::None)));
}

#[test]
fn int_suffixes_in_any_case_and_order() {
    let cases = [
        ("1u", IntSuffix::U),
        ("1U", IntSuffix::U),
        ("1l", IntSuffix::L),
        ("1L", IntSuffix::L),
        ("1ul", IntSuffix::UL),
        ("1LU", IntSuffix::UL),
        ("1uL", IntSuffix::UL),
        ("1ll", IntSuffix::LL),
        ("1LL", IntSuffix::LL),
        ("1ull", IntSuffix::ULL),
        ("1llu", IntSuffix::ULL),
        ("1ULL", IntSuffix::ULL),
        ("0x10u", IntSuffix::U),
        ("010ul", IntSuffix::UL),
    ];
    for (text, suffix) in cases {
        assert_eq!(
            int_literal_value(text).map(|(_, s)| s),
            Some(suffix),
            "{text}"
        );
    }
    assert_eq!(int_literal_value("0x10u"), Some((16, IntSuffix::U)));
    assert_eq!(int_literal_value("010ul"), Some((8, IntSuffix::UL)));
}

#[test]
fn malformed_or_too_large_ints_are_none() {
    for text in [
        "", "u", "0x", "08", "0x1g", "1uu", "1lll", "1lul", "+1", "1.0",
    ] {
        assert_eq!(int_literal_value(text), None, "{text}");
    }
    assert_eq!(
        int_literal_value("18446744073709551615"),
        Some((u64::MAX, IntSuffix::None))
    );
    assert_eq!(int_literal_value("18446744073709551616"), None);
    assert_eq!(
        int_literal_value("0xFFFFFFFFFFFFFFFF"),
        Some((u64::MAX, IntSuffix::None))
    );
    assert_eq!(int_literal_value("0x10000000000000000"), None);
}

#[test]
fn float_values_and_suffixes() {
    let cases = [
        ("1.0", 1.0, FloatSuffix::None),
        ("1.", 1.0, FloatSuffix::None),
        (".5", 0.5, FloatSuffix::None),
        ("1e3", 1000.0, FloatSuffix::None),
        ("1.5e-3", 0.0015, FloatSuffix::None),
        ("2.5E+1", 25.0, FloatSuffix::None),
        ("2.0f", 2.0, FloatSuffix::F),
        ("2.0F", 2.0, FloatSuffix::F),
        ("1.5h", 1.5, FloatSuffix::H),
        ("1.5H", 1.5, FloatSuffix::H),
        ("1.0l", 1.0, FloatSuffix::L),
        ("1.0L", 1.0, FloatSuffix::L),
        ("1.0lf", 1.0, FloatSuffix::L),
        ("1.0LF", 1.0, FloatSuffix::L),
        ("3e2f", 300.0, FloatSuffix::F),
    ];
    for (text, value, suffix) in cases {
        assert_eq!(float_literal_value(text), Some((value, suffix)), "{text}");
    }
}

#[test]
fn malformed_or_overflowing_floats_are_none() {
    for text in [
        "", "f", ".", "1", "1e", "1e+", "e5", "inf", "NaN", "1.0ff", "1.0x", "1e999", "..5",
    ] {
        assert_eq!(float_literal_value(text), None, "{text}");
    }
}

#[test]
fn every_lexed_number_has_a_value() {
    let text = "0 7 0x7fu 0777 1ul 9ll 1.0 .5 1. 1e5 2.5e-3f 1.0h 1.0L 1.0lf";
    for tok in lex_raw(text, 0) {
        let spelling = &text[tok.span.range()];
        match tok.kind {
            TokenKind::IntLit => assert!(int_literal_value(spelling).is_some(), "{spelling}"),
            TokenKind::FloatLit => assert!(float_literal_value(spelling).is_some(), "{spelling}"),
            other => panic!("{spelling} lexed as {other:?}"),
        }
    }
}
