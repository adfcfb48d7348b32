//! Line structure, recovered from the gaps between raw tokens (the lexer
//! skips whitespace and comments, so a line break lives in a gap).

use crate::lexer::Token;

/// For each token, whether it is the first on its logical line. A newline
/// counts unless a backslash escapes it; newlines inside block comments do
/// not count, because C replaces a comment by one space.
pub(super) fn line_starts(source: &str, toks: &[Token]) -> Vec<bool> {
    let bytes = source.as_bytes();
    let mut prev_end = 0usize;
    toks.iter()
        .enumerate()
        .map(|(i, tok)| {
            let start = tok.span.start as usize;
            let gap = bytes.get(prev_end..start).unwrap_or_default();
            prev_end = tok.span.end as usize;
            i == 0 || gap_has_line_break(gap)
        })
        .collect()
}

fn gap_has_line_break(gap: &[u8]) -> bool {
    let mut i = 0;
    while let Some(&b) = gap.get(i) {
        match (b, gap.get(i + 1)) {
            (b'\n', _) => return true,
            (b'/', Some(b'*')) => {
                let close = gap[i + 2..].windows(2).position(|w| w == b"*/");
                i = close.map_or(gap.len(), |p| i + 2 + p + 2);
            }
            (b'/', Some(b'/')) => {
                let newline = gap[i..].iter().position(|&c| c == b'\n');
                i = newline.map_or(gap.len(), |p| i + p);
            }
            // A continuation: the lexer only leaves a backslash in a gap when
            // a line break follows it.
            (b'\\', _) => {
                let after = &gap[i + 1..];
                let skip = if after.starts_with(b"\r\n") { 2 } else { 1 };
                i += 1 + skip;
            }
            _ => i += 1,
        }
    }
    false
}
