//! Float literals as `{:?}` spells them (the shortest text that reads
//! back to the same value), with the common case fast: whole numbers,
//! which `{:?}` spells `N.0`, are written as integers, far cheaper than
//! the float formatter.

use std::fmt::Write as _;

/// `format!("{f:?}")`.
pub(crate) fn debug_f64(f: f64) -> String {
    // Below 10^15 every whole f64 is exact and `{:?}` writes all digits.
    whole(f, 1e15).unwrap_or_else(|| format!("{f:?}"))
}

/// `format!("{f:?}")`.
pub(crate) fn debug_f32(f: f32) -> String {
    // Below 2^24 every whole f32 is exact and `{:?}` writes all digits.
    whole(f64::from(f), 16_777_216.0).unwrap_or_else(|| format!("{f:?}"))
}

fn whole(f: f64, limit: f64) -> Option<String> {
    if f.fract() != 0.0 || f.abs() >= limit || (f == 0.0 && f.is_sign_negative()) {
        return None;
    }
    let mut text = String::with_capacity(20);
    write!(text, "{}.0", f as i64).ok()?;
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::{debug_f32, debug_f64};

    #[test]
    fn debug_f64_spells_what_debug_spells() {
        for f in [
            0.0,
            -0.0,
            1.0,
            2.0,
            -3.0,
            0.5,
            -1.25,
            1e14,
            -1e14,
            999_999_999_999_999.0,
            1e15,
            1e16,
            1e300,
            f64::MIN_POSITIVE,
            f64::from(f32::MAX),
        ] {
            assert_eq!(debug_f64(f), format!("{f:?}"), "{f}");
        }
    }

    #[test]
    fn debug_f32_spells_what_debug_spells() {
        for f in [
            0.0f32,
            -0.0,
            2.0,
            -7.0,
            0.1,
            16_777_215.0,
            16_777_216.0,
            1e15,
            f32::MAX,
            f32::MIN_POSITIVE,
        ] {
            assert_eq!(debug_f32(f), format!("{f:?}"), "{f}");
        }
    }
}
