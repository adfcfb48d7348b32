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

/// IEEE half bits of `f`, rounding to nearest even.
pub(crate) fn f16_bits(f: f32) -> u16 {
    let bits = f.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exp = ((bits >> 23) & 0xFF) as i32;
    let mant = bits & 0x7F_FFFF;
    if exp == 0xFF {
        return sign | 0x7C00 | if mant != 0 { 0x200 } else { 0 };
    }
    let e = exp - 127 + 15;
    if e >= 0x1F {
        return sign | 0x7C00;
    }
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        let m = (mant | 0x80_0000) >> (1 - e);
        let round = (m >> 12) & 1;
        return sign | ((m >> 13) + round) as u16;
    }
    let m = mant >> 13;
    let rest = mant & 0x1FFF;
    let mut h = (sign as u32) | ((e as u32) << 10) | m;
    if rest > 0x1000 || (rest == 0x1000 && (m & 1) == 1) {
        h += 1;
    }
    h as u16
}

/// The value of IEEE half bits `h`, exactly (every half is an `f32`).
pub(crate) fn f16_value(h: u16) -> f32 {
    let sign = if h & 0x8000 != 0 { -1.0f32 } else { 1.0 };
    let exp = i32::from((h >> 10) & 0x1F);
    let mant = f32::from(h & 0x3FF);
    match exp {
        0 => sign * mant * 2f32.powi(-24),
        0x1F if mant == 0.0 => sign * f32::INFINITY,
        0x1F => f32::NAN,
        _ => sign * (1.0 + mant / 1024.0) * 2f32.powi(exp - 15),
    }
}

#[cfg(test)]
mod tests {
    use super::{debug_f32, debug_f64, f16_bits, f16_value};

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

    /// Rounding to the nearest `f16` and back: exact halves stay, others
    /// round to nearest even, past 65504 is infinity.
    #[test]
    fn f16_rounds_to_nearest_and_reads_back() {
        for (f, h) in [
            (1.5f32, 1.5f32),
            (-2.0, -2.0),
            (65504.0, 65504.0),
            (0.1, 0.099975586),
            (1.0 + 1.0 / 2048.0, 1.0),
            (1.0 + 3.0 / 2048.0, 1.0 + 2.0 / 1024.0),
            (2.0f32.powi(-24), 2.0f32.powi(-24)),
        ] {
            assert_eq!(f16_value(f16_bits(f)), h, "{f}");
        }
        assert_eq!(f16_value(f16_bits(100_000.0)), f32::INFINITY);
        assert_eq!(f16_value(f16_bits(-1e9)), f32::NEG_INFINITY);
        assert!(f16_value(f16_bits(f32::NAN)).is_nan());
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
