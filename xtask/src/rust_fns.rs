//! Where the functions of a Rust source file begin and end, found by a small
//! scanner instead of a parser: the README's `file.rs:LINE (fn)` references
//! and the coverage table both need "which `fn` encloses line N", and the
//! watched crates are ordinary rustfmt-formatted code, so a line-based scan
//! with brace matching (skipping comments, strings and char literals) is
//! exact for them without a dependency on `syn`.

use std::sync::LazyLock;

use regex::Regex;

/// One `fn` item with a body: its name and its 1-based line span, from the
/// `fn` line to the line of the closing brace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RustFn {
    pub name: String,
    pub start: usize,
    pub end: usize,
}

static FN_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*(?:pub(?:\([^)]*\))?\s+)?(?:(?:const|async|unsafe|extern(?:\s+\x22[^\x22]*\x22)?)\s+)*fn\s+([A-Za-z_][A-Za-z0-9_]*)")
        .expect("valid regex")
});

/// Every `fn` with a body in `source`, in source order (nested ones too).
pub fn functions(source: &str) -> Vec<RustFn> {
    let code = code_only(source);
    let lines: Vec<&str> = code.lines().collect();
    let mut found = Vec::new();
    for (index, line) in lines.iter().enumerate() {
        let Some(captures) = FN_LINE.captures(line) else {
            continue;
        };
        if let Some(end) = body_end(&lines, index) {
            found.push(RustFn {
                name: captures[1].to_string(),
                start: index + 1,
                end,
            });
        }
    }
    found
}

/// The innermost function whose span contains `line` (1-based).
pub fn enclosing(fns: &[RustFn], line: usize) -> Option<&RustFn> {
    fns.iter()
        .filter(|f| f.start <= line && line <= f.end)
        .max_by_key(|f| f.start)
}

/// The line of the brace that closes the body opened after the `fn` on
/// line `index` (0-based); `None` for a declaration without a body.
fn body_end(lines: &[&str], index: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut opened = false;
    // Parentheses and angle brackets of the signature never hold `{` in this
    // code base except in const-generic defaults, which the watched crates
    // do not use; a `;` before any `{` ends a body-less declaration.
    for (at, line) in lines.iter().enumerate().skip(index) {
        for ch in line.chars() {
            match ch {
                '{' => {
                    depth += 1;
                    opened = true;
                }
                '}' if opened => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(at + 1);
                    }
                }
                ';' if !opened => return None,
                _ => {}
            }
        }
    }
    None
}

/// `source` with comments, string literals and char literals blanked to
/// spaces (line breaks kept), so braces inside them do not count.
fn code_only(source: &str) -> String {
    let chars: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len());
    let mut i = 0;
    while i < chars.len() {
        let rest = &chars[i..];
        let skip = match rest {
            ['/', '/', ..] => rest.iter().position(|&c| c == '\n').unwrap_or(rest.len()),
            ['/', '*', ..] => block_comment_len(rest),
            ['"', ..] => quoted_len(rest, '"'),
            ['r', '#', ..] | ['r', '"', ..] => raw_string_len(rest),
            ['\'', '\\', ..] => quoted_len(rest, '\''),
            ['\'', _, '\'', ..] => 3,
            _ => 0,
        };
        if skip == 0 {
            out.push(chars[i]);
            i += 1;
        } else {
            out.extend(
                rest[..skip]
                    .iter()
                    .map(|&c| if c == '\n' { '\n' } else { ' ' }),
            );
            i += skip;
        }
    }
    out
}

fn block_comment_len(rest: &[char]) -> usize {
    let mut depth = 0;
    let mut i = 0;
    while i + 1 < rest.len() {
        match (rest[i], rest[i + 1]) {
            ('/', '*') => {
                depth += 1;
                i += 2;
            }
            ('*', '/') => {
                depth -= 1;
                i += 2;
                if depth == 0 {
                    return i;
                }
            }
            _ => i += 1,
        }
    }
    rest.len()
}

/// Length of a literal opened by `quote` at `rest[0]`, escapes honoured.
fn quoted_len(rest: &[char], quote: char) -> usize {
    let mut i = 1;
    while i < rest.len() {
        match rest[i] {
            '\\' => i += 2,
            c if c == quote => return i + 1,
            _ => i += 1,
        }
    }
    rest.len()
}

fn raw_string_len(rest: &[char]) -> usize {
    let hashes = rest[1..].iter().take_while(|&&c| c == '#').count();
    if rest.get(1 + hashes) != Some(&'"') {
        return 0;
    }
    let mut i = 2 + hashes;
    while i < rest.len() {
        if rest[i] == '"'
            && rest[i + 1..]
                .iter()
                .take(hashes)
                .filter(|&&c| c == '#')
                .count()
                == hashes
        {
            return i + 1 + hashes;
        }
        i += 1;
    }
    rest.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOURCE: &str = "//! doc { not a brace\n\
pub fn outer(a: u32) -> u32 {\n\
    let s = \"}\";\n\
    let c = '{';\n\
    fn inner() {\n\
    }\n\
    a\n\
}\n\
\n\
pub(crate) const fn later<'a>(x: &'a str) -> &'a str {\n\
    x\n\
}\n\
trait T { fn decl(&self); }\n";

    #[test]
    fn finds_functions_with_their_spans() {
        let fns = functions(SOURCE);
        let spans: Vec<_> = fns
            .iter()
            .map(|f| (f.name.as_str(), f.start, f.end))
            .collect();
        assert_eq!(spans, [("outer", 2, 8), ("inner", 5, 6), ("later", 10, 12)]);
    }

    #[test]
    fn the_innermost_function_encloses_a_line() {
        let fns = functions(SOURCE);
        assert_eq!(enclosing(&fns, 5).map(|f| f.name.as_str()), Some("inner"));
        assert_eq!(enclosing(&fns, 7).map(|f| f.name.as_str()), Some("outer"));
        assert_eq!(enclosing(&fns, 9), None);
    }
}
