//! Values of integer and float literal tokens.
//!
//! The lexer only decides where a literal ends; these functions turn its text
//! into a value and a suffix. The parser uses them for expressions and the
//! preprocessor for `#if`, so both read `0x1Fu` and `010` the same way.

use crate::ast::{FloatSuffix, IntSuffix};

/// Parses the text of an `IntLit` token: decimal, hex (`0x`) or octal
/// (leading `0`), with an optional `u`/`l`/`ul`/`ll`/`ull` suffix in any
/// case and order. `None` when the text is malformed (`08`, `0x`, `1lul`) or
/// the value does not fit in 64 bits.
pub fn int_literal_value(text: &str) -> Option<(u64, IntSuffix)> {
    let digits_end = text
        .bytes()
        .rposition(|b| !matches!(b, b'u' | b'U' | b'l' | b'L'))
        .map_or(0, |i| i + 1);
    let (body, suffix) = text.split_at(digits_end);
    let suffix = int_suffix(suffix)?;
    let (digits, radix) =
        if let Some(hex) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
            (hex, 16)
        } else if body.len() > 1 && body.starts_with('0') {
            (&body[1..], 8)
        } else {
            (body, 10)
        };
    // `from_str_radix` would accept a leading `+`; a literal never has one.
    if digits.is_empty() || !digits.bytes().all(|b| (b as char).is_digit(radix)) {
        return None;
    }
    let value = u64::from_str_radix(digits, radix).ok()?;
    Some((value, suffix))
}

fn int_suffix(suffix: &str) -> Option<IntSuffix> {
    let bytes = suffix.as_bytes();
    let unsigned = bytes
        .iter()
        .filter(|b| b.eq_ignore_ascii_case(&b'u'))
        .count();
    let longs = bytes.len() - unsigned;
    // The `l`s of `ll` must be adjacent: `lul` is not a suffix.
    let l_run_ok = match longs {
        2 => suffix.to_ascii_lowercase().contains("ll"),
        _ => true,
    };
    if !l_run_ok {
        return None;
    }
    Some(match (unsigned, longs) {
        (0, 0) => IntSuffix::None,
        (1, 0) => IntSuffix::U,
        (0, 1) => IntSuffix::L,
        (1, 1) => IntSuffix::UL,
        (0, 2) => IntSuffix::LL,
        (1, 2) => IntSuffix::ULL,
        _ => return None,
    })
}

/// Parses the text of a `FloatLit` token: digits with an optional fraction
/// and exponent, and an optional `f`, `h`, `l` or `lf` suffix in any case.
/// `None` when the text is malformed or the value overflows `f64`.
pub fn float_literal_value(text: &str) -> Option<(f64, FloatSuffix)> {
    let lower_tail = |n: usize| {
        text.len()
            .checked_sub(n)
            .and_then(|start| text.get(start..))
            .map(str::to_ascii_lowercase)
    };
    let (body, suffix) = if lower_tail(2).as_deref() == Some("lf") {
        (&text[..text.len() - 2], FloatSuffix::L)
    } else {
        match lower_tail(1).as_deref() {
            Some("f") => (&text[..text.len() - 1], FloatSuffix::F),
            Some("h") => (&text[..text.len() - 1], FloatSuffix::H),
            Some("l") => (&text[..text.len() - 1], FloatSuffix::L),
            _ => (text, FloatSuffix::None),
        }
    };
    if !is_float_body(body) {
        return None;
    }
    let value: f64 = body.parse().ok()?;
    value.is_finite().then_some((value, suffix))
}

/// `digits [. digits] [e [+-] digits]` with digits on at least one side of
/// the point; Rust's float parser alone would also take `inf` and `NaN`.
fn is_float_body(body: &str) -> bool {
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(i) => (&body[..i], Some(&body[i + 1..])),
        None => (body, None),
    };
    let (int_part, frac_part) = match mantissa.split_once('.') {
        Some((int_part, frac_part)) => (int_part, Some(frac_part)),
        None => (mantissa, None),
    };
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let mantissa_ok = all_digits(int_part)
        && frac_part.is_none_or(all_digits)
        && (!int_part.is_empty() || frac_part.is_some_and(|f| !f.is_empty()));
    let exponent_ok = exponent.is_none_or(|e| {
        let digits = e.strip_prefix(['+', '-']).unwrap_or(e);
        !digits.is_empty() && all_digits(digits)
    });
    // A plain integer is an `IntLit`, not a float.
    mantissa_ok && exponent_ok && (frac_part.is_some() || exponent.is_some())
}
