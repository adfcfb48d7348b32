//! Why an integer literal was rejected, for the diagnostic; the values
//! themselves come from [`crate::literal`].

/// `"does not fit in 64 bits"` or `"is malformed"`.
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
}
