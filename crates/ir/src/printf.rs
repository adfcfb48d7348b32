//! The format strings of debug printf (`printf("x = %d\n", x)`), as the
//! front end checks them and the CUDA writer rewrites them.
//!
//! The grammar is `GL_EXT_debug_printf`'s (the one the Vulkan validation
//! layers print by): `%%` is a percent sign; a conversion is `%`, flags
//! (`-+ #0`), a width, a precision (`.N`), an optional vector size (`v2`
//! to `v4`: the argument is a vector printed as its components separated
//! by `, `), an optional length (`h`, `hh`, `l`, `ll`) and a conversion
//! letter from `diouxXaAeEfFgG`.

use std::ops::Range;

/// One conversion of a format string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conversion {
    /// Where it is in the format, `%` to the conversion letter.
    pub range: Range<usize>,
    /// The vector size of `%vN...`; `None` for a scalar conversion.
    pub vector: Option<u8>,
    /// The conversion letter (`d`, `u`, `f` ...).
    pub letter: char,
}

impl Conversion {
    /// Whether the letter prints a float (`aAeEfFgG`); the others print
    /// integers.
    pub fn is_float(&self) -> bool {
        matches!(self.letter, 'a' | 'A' | 'e' | 'E' | 'f' | 'F' | 'g' | 'G')
    }

    /// The conversion's text without its vector size (`%5.2v3f` gives
    /// `%5.2f`): what C's `printf` prints one component with.
    pub fn scalar_text(&self, format: &str) -> String {
        let text = &format[self.range.clone()];
        match self.vector {
            Some(n) => text.replacen(&format!("v{n}"), "", 1),
            None => text.to_string(),
        }
    }
}

/// Why a format string does not parse: the byte range of the bad
/// conversion and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError {
    /// The byte range of the bad conversion in the format string.
    pub range: Range<usize>,
    /// What is wrong with it.
    pub message: String,
}

/// The conversions of `format`, in order.
pub fn conversions(format: &str) -> Result<Vec<Conversion>, FormatError> {
    let bytes = format.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'%' {
            i += 1;
            continue;
        }
        let start = i;
        i += 1;
        if bytes.get(i) == Some(&b'%') {
            i += 1;
            continue;
        }
        while matches!(bytes.get(i), Some(b'-' | b'+' | b' ' | b'#' | b'0')) {
            i += 1;
        }
        while bytes.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if bytes.get(i) == Some(&b'.') {
            i += 1;
            while bytes.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
        }
        let mut vector = None;
        if bytes.get(i) == Some(&b'v') {
            match bytes.get(i + 1) {
                Some(&d @ b'2'..=b'4') => {
                    vector = Some(d - b'0');
                    i += 2;
                }
                _ => {
                    return Err(FormatError {
                        range: start..(i + 1).min(bytes.len()),
                        message: "a vector conversion needs a size from 2 to 4 after `v` \
                                  (`%v3f`)"
                            .into(),
                    });
                }
            }
        }
        for length in [b'h', b'l'] {
            if bytes.get(i) == Some(&length) {
                i += 1;
                if bytes.get(i) == Some(&length) {
                    i += 1;
                }
            }
        }
        match bytes.get(i) {
            Some(&c) if b"diouxXaAeEfFgG".contains(&c) => {
                out.push(Conversion {
                    range: start..i + 1,
                    vector,
                    letter: c as char,
                });
                i += 1;
            }
            other => {
                let end = match other {
                    // The whole character, which may be several bytes.
                    Some(_) => i + format[i..].chars().next().map_or(1, char::len_utf8),
                    None => i,
                };
                return Err(FormatError {
                    range: start..end,
                    message: format!(
                        "`{}` is not a conversion debug printf has: it takes `%d`, `%i`, \
                         `%o`, `%u`, `%x`, `%X`, `%a`, `%A`, `%e`, `%E`, `%f`, `%F`, `%g` \
                         or `%G` (with `v2` to `v4` for a vector), and `%%` for a percent sign",
                        &format[start..end]
                    ),
                });
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_conversions_and_skips_percent_signs() {
        let f = "100%% of %d, %5.2f and %llu; %v3u";
        let c = conversions(f).unwrap();
        let texts: Vec<&str> = c.iter().map(|c| &f[c.range.clone()]).collect();
        assert_eq!(texts, ["%d", "%5.2f", "%llu", "%v3u"]);
        assert_eq!(c[3].vector, Some(3));
        assert!(c[1].is_float() && !c[2].is_float());
    }

    #[test]
    fn scalar_text_drops_the_vector_size() {
        let f = "%-4.1v2f";
        let c = conversions(f).unwrap();
        assert_eq!(c[0].scalar_text(f), "%-4.1f");
    }

    #[test]
    fn refuses_unknown_conversions() {
        let e = conversions("a %s b").unwrap_err();
        assert_eq!(e.range, 2..4);
        assert!(e.message.contains("`%s`"));
        assert_eq!(conversions("end %").unwrap_err().range, 4..5);
        assert_eq!(conversions("%v5f").unwrap_err().range, 0..2);
        assert_eq!(conversions("%é").unwrap_err().range, 0..3);
    }
}
