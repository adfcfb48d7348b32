//! Numeric literal text to values.
//!
//! A stand-in until the shared `literal` module lands: same contract
//! (`None` for a malformed literal or an integer that does not fit 64 bits),
//! so swapping it out changes no caller.

use crate::ast::{FloatSuffix, IntSuffix};

/// `42`, `0x2A`, `052`, with `u`/`l`/`ul`/`lu`/`ll`/`ull`/`llu` suffixes in
/// any case.
pub(super) fn parse_int_text(text: &str) -> Option<(u64, IntSuffix)> {
    let hex = text.starts_with("0x") || text.starts_with("0X");
    let body = if hex { &text[2..] } else { text };
    let digits_end = body.find(['u', 'U', 'l', 'L']).unwrap_or(body.len());
    let (digits, suffix) = body.split_at(digits_end);
    let suffix = match suffix.to_ascii_lowercase().as_str() {
        "" => IntSuffix::None,
        "u" => IntSuffix::U,
        "l" => IntSuffix::L,
        "ul" | "lu" => IntSuffix::UL,
        "ll" => IntSuffix::LL,
        "ull" | "llu" => IntSuffix::ULL,
        _ => return None,
    };
    let radix = if hex {
        16
    } else if digits.len() > 1 && digits.starts_with('0') {
        8
    } else {
        10
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let value = u64::from_str_radix(digits, radix).ok()?;
    Some((value, suffix))
}

/// `1.5`, `1.`, `.5`, `1e3`, `2.5e-3`, with an `f`/`h`/`l` suffix in any
/// case. Values that overflow to infinity are rejected.
pub(super) fn parse_float_text(text: &str) -> Option<(f64, FloatSuffix)> {
    let (body, suffix) = match text.as_bytes().last()? {
        b'f' | b'F' => (&text[..text.len() - 1], FloatSuffix::F),
        b'h' | b'H' => (&text[..text.len() - 1], FloatSuffix::H),
        b'l' | b'L' => (&text[..text.len() - 1], FloatSuffix::L),
        _ => (text, FloatSuffix::None),
    };
    let valid_chars = body
        .bytes()
        .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'));
    if !valid_chars {
        return None;
    }
    let value: f64 = body.parse().ok()?;
    value.is_finite().then_some((value, suffix))
}

/// Why [`parse_int_text`] rejected `text`, for the `E10004` message.
pub(super) fn int_problem(text: &str) -> &'static str {
    let hex = text.starts_with("0x") || text.starts_with("0X");
    let body = if hex { &text[2..] } else { text };
    let digits = body.trim_end_matches(['u', 'U', 'l', 'L']);
    let radix = if hex {
        16
    } else if digits.len() > 1 && digits.starts_with('0') {
        8
    } else {
        10
    };
    let well_formed = !digits.is_empty() && digits.chars().all(|c| c.is_digit(radix));
    if well_formed && u64::from_str_radix(digits, radix).is_err() {
        "does not fit in 64 bits"
    } else {
        "is malformed"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers() {
        assert_eq!(parse_int_text("42"), Some((42, IntSuffix::None)));
        assert_eq!(parse_int_text("0x2A"), Some((42, IntSuffix::None)));
        assert_eq!(parse_int_text("052"), Some((42, IntSuffix::None)));
        assert_eq!(parse_int_text("0"), Some((0, IntSuffix::None)));
        assert_eq!(parse_int_text("7u"), Some((7, IntSuffix::U)));
        assert_eq!(parse_int_text("7UL"), Some((7, IntSuffix::UL)));
        assert_eq!(parse_int_text("7lu"), Some((7, IntSuffix::UL)));
        assert_eq!(parse_int_text("7ll"), Some((7, IntSuffix::LL)));
        assert_eq!(parse_int_text("7ull"), Some((7, IntSuffix::ULL)));
        assert_eq!(
            parse_int_text("18446744073709551615"),
            Some((u64::MAX, IntSuffix::None))
        );
        assert_eq!(
            parse_int_text("0xFFFFFFFFFFFFFFFF"),
            Some((u64::MAX, IntSuffix::None))
        );
        assert_eq!(parse_int_text("18446744073709551616"), None);
        assert_eq!(parse_int_text("0x10000000000000000"), None);
        assert_eq!(parse_int_text("09"), None);
        assert_eq!(parse_int_text("1uu"), None);
        assert_eq!(parse_int_text("0x"), None);
    }

    #[test]
    fn integer_problems() {
        assert_eq!(
            int_problem("18446744073709551616"),
            "does not fit in 64 bits"
        );
        assert_eq!(
            int_problem("0x10000000000000000u"),
            "does not fit in 64 bits"
        );
        assert_eq!(int_problem("09"), "is malformed");
        assert_eq!(int_problem("1uu"), "is malformed");
    }

    #[test]
    fn floats() {
        assert_eq!(parse_float_text("1.5"), Some((1.5, FloatSuffix::None)));
        assert_eq!(parse_float_text("1."), Some((1.0, FloatSuffix::None)));
        assert_eq!(parse_float_text(".5f"), Some((0.5, FloatSuffix::F)));
        assert_eq!(parse_float_text("1e3"), Some((1000.0, FloatSuffix::None)));
        assert_eq!(parse_float_text("2.5e-1h"), Some((0.25, FloatSuffix::H)));
        assert_eq!(parse_float_text("1.0L"), Some((1.0, FloatSuffix::L)));
        assert_eq!(parse_float_text("1e999"), None);
    }
}
