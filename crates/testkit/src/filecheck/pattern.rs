//! One check line's pattern: literal text, `{{regex}}`, `[[VAR:regex]]`
//! definitions, `[[VAR]]` uses and `[[@LINE]]`, compiled to a Rust regex.
//!
//! FileCheck's pattern language is POSIX-regex based; Rust's `regex` is close
//! enough for check lines (classes, `[[:alpha:]]`, repetition, alternation)
//! but differs in two places worth knowing: alternation is leftmost-first
//! rather than leftmost-longest, and there are no back-references, so a
//! variable may not be used in the line that defines it.

use std::collections::HashMap;

use regex::{Regex, RegexBuilder};

/// A piece of a pattern, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Piece {
    Literal(String),
    Regex(String),
    Define { name: String, regex: String },
    Use(String),
}

/// A compiled check pattern. Patterns with variable uses are recompiled at
/// each match because the regex text depends on the variables' values.
#[derive(Debug, Clone)]
pub struct Pattern {
    pieces: Vec<Piece>,
    /// Compiled once when the pattern uses no variables.
    fixed: Option<Regex>,
}

/// A successful match: byte range in the searched text and the values of
/// the variables the pattern defines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub start: usize,
    pub end: usize,
    pub defined: Vec<(String, String)>,
}

/// A use of a variable that no earlier match has defined.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UndefinedVariable(pub String);

impl Pattern {
    /// Parses canonicalized pattern text found on check-file line `line`.
    pub fn parse(text: &str, line: usize) -> Result<Pattern, String> {
        let pieces = split_pieces(text, line)?;
        let defined: Vec<&str> = pieces
            .iter()
            .filter_map(|piece| match piece {
                Piece::Define { name, .. } => Some(name.as_str()),
                _ => None,
            })
            .collect();
        for piece in &pieces {
            if let Piece::Use(name) = piece
                && defined.contains(&name.as_str())
            {
                return Err(format!(
                    "variable '{name}' is defined and used in the same pattern; \
                     back-references are not supported"
                ));
            }
        }
        let mut pattern = Pattern {
            pieces,
            fixed: None,
        };
        // Compiling with placeholder values reports a bad regex at parse time,
        // where the check line is known, instead of at the first match.
        let placeholder = |_: &str| Some(String::new());
        let compiled = pattern.compile(&placeholder).map_err(|e| e.to_string())?;
        if !pattern.uses_variables() {
            pattern.fixed = Some(compiled);
        }
        Ok(pattern)
    }

    /// A `{LITERAL}` check's pattern: the text itself, `{{`, `[[` and all.
    pub fn literal(text: &str) -> Pattern {
        let source = regex::escape(text);
        let fixed = RegexBuilder::new(&source)
            .multi_line(true)
            .build()
            .expect("an escaped literal is a valid regex");
        Pattern {
            pieces: vec![Piece::Literal(text.to_string())],
            fixed: Some(fixed),
        }
    }

    pub fn uses_variables(&self) -> bool {
        self.pieces.iter().any(|p| matches!(p, Piece::Use(_)))
    }

    pub fn defines_variables(&self) -> bool {
        self.pieces
            .iter()
            .any(|p| matches!(p, Piece::Define { .. }))
    }

    /// Names of the variables this pattern uses, in order.
    pub fn used_names(&self) -> impl Iterator<Item = &str> {
        self.pieces.iter().filter_map(|piece| match piece {
            Piece::Use(name) => Some(name.as_str()),
            _ => None,
        })
    }

    /// The regex text this pattern searches for with `vars` substituted.
    pub fn regex_text(&self, vars: &HashMap<String, String>) -> Result<String, UndefinedVariable> {
        let lookup = |name: &str| vars.get(name).cloned();
        regex_source(&self.pieces, &lookup)
    }

    fn compile(&self, lookup: &dyn Fn(&str) -> Option<String>) -> Result<Regex, CompileError> {
        let source = regex_source(&self.pieces, lookup).map_err(CompileError::Undefined)?;
        RegexBuilder::new(&source)
            .multi_line(true)
            .build()
            .map_err(|e| CompileError::Regex(e.to_string()))
    }

    /// The first match starting in `from..to` of `text`, one line at a time:
    /// FileCheck compiles patterns newline-sensitive, so no match (not even
    /// `[^;]*`) crosses a line break.
    pub fn find(
        &self,
        text: &str,
        from: usize,
        to: usize,
        vars: &HashMap<String, String>,
    ) -> Result<Option<Found>, UndefinedVariable> {
        let owned;
        let regex = match &self.fixed {
            Some(regex) => regex,
            None => {
                let lookup = |name: &str| vars.get(name).cloned();
                owned = match self.compile(&lookup) {
                    Ok(regex) => regex,
                    Err(CompileError::Undefined(undefined)) => return Err(undefined),
                    // Substituted values are escaped, so the regex parsed
                    // with placeholders still parses; keep going safely.
                    Err(CompileError::Regex(_)) => return Ok(None),
                };
                &owned
            }
        };
        Ok(self.find_in_lines(regex, text, from, to))
    }

    /// Like FileCheck, which matches on the buffer from `from` on, a `^`
    /// matches at `from` itself as well as at each line start, and a `$`
    /// at `to` as well as at each line end.
    fn find_in_lines(&self, regex: &Regex, text: &str, from: usize, to: usize) -> Option<Found> {
        let mut line_start = from;
        loop {
            let line_end = text[line_start..]
                .find('\n')
                .map_or(text.len(), |at| line_start + at);
            let hay = &text[line_start..line_end.min(to).max(line_start)];
            if let Some(captures) = regex.captures(hay) {
                let whole = captures.get(0).expect("group 0 always matches");
                let defined = self
                    .define_names()
                    .enumerate()
                    .map(|(index, name)| {
                        let value = captures
                            .name(&format!("fcvar{index}"))
                            .map_or("", |m| m.as_str());
                        (name.to_string(), value.to_string())
                    })
                    .collect();
                return Some(Found {
                    start: line_start + whole.start(),
                    end: line_start + whole.end(),
                    defined,
                });
            }
            if line_end >= to || line_end >= text.len() {
                return None;
            }
            line_start = line_end + 1;
        }
    }

    fn define_names(&self) -> impl Iterator<Item = &str> {
        self.pieces.iter().filter_map(|piece| match piece {
            Piece::Define { name, .. } => Some(name.as_str()),
            _ => None,
        })
    }
}

enum CompileError {
    Undefined(UndefinedVariable),
    Regex(String),
}

impl std::fmt::Display for CompileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CompileError::Undefined(UndefinedVariable(name)) => {
                write!(f, "undefined variable: {name}")
            }
            CompileError::Regex(message) => write!(f, "invalid regex: {message}"),
        }
    }
}

fn regex_source(
    pieces: &[Piece],
    lookup: &dyn Fn(&str) -> Option<String>,
) -> Result<String, UndefinedVariable> {
    let mut source = String::new();
    let mut define_index = 0;
    for piece in pieces {
        match piece {
            Piece::Literal(text) => source.push_str(&regex::escape(text)),
            Piece::Regex(regex) => source.push_str(&format!("(?:{regex})")),
            Piece::Define { regex, .. } => {
                source.push_str(&format!("(?P<fcvar{define_index}>{regex})"));
                define_index += 1;
            }
            Piece::Use(name) => {
                let value = lookup(name).ok_or_else(|| UndefinedVariable(name.clone()))?;
                source.push_str(&regex::escape(&value));
            }
        }
    }
    Ok(source)
}

/// Splits pattern text into pieces with FileCheck's rules: `{{` ends at the
/// first `}}`; `[[` ends at the first `]]` outside brackets and escapes.
fn split_pieces(mut text: &str, line: usize) -> Result<Vec<Piece>, String> {
    let mut pieces = Vec::new();
    let mut literal = String::new();
    while !text.is_empty() {
        if let Some(rest) = text.strip_prefix("{{") {
            let end = rest
                .find("}}")
                .ok_or("found start of regex string with no end '}}'")?;
            flush(&mut literal, &mut pieces);
            pieces.push(Piece::Regex(rest[..end].to_string()));
            text = &rest[end + 2..];
        } else if let Some(rest) = text.strip_prefix("[[") {
            let end = variable_end(rest)?;
            flush(&mut literal, &mut pieces);
            pieces.push(substitution(&rest[..end], line)?);
            text = &rest[end + 2..];
        } else {
            let next = text.chars().next().expect("text is not empty");
            literal.push(next);
            text = &text[next.len_utf8()..];
        }
    }
    flush(&mut literal, &mut pieces);
    Ok(pieces)
}

fn flush(literal: &mut String, pieces: &mut Vec<Piece>) {
    if !literal.is_empty() {
        pieces.push(Piece::Literal(std::mem::take(literal)));
    }
}

/// FileCheck's `FindRegexVarEnd`: `]]` closes the block unless it is inside
/// a bracket expression or escaped.
fn variable_end(text: &str) -> Result<usize, String> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut at = 0;
    while at < bytes.len() {
        if depth == 0 && text[at..].starts_with("]]") {
            return Ok(at);
        }
        match bytes[at] {
            b'\\' => at += 1,
            b'[' => depth += 1,
            b']' if depth == 0 => {
                return Err("missing closing \"]\" for regex variable".to_string());
            }
            b']' => depth -= 1,
            _ => {}
        }
        at += 1;
    }
    Err("invalid substitution block, no ]] found".to_string())
}

/// The inside of a `[[...]]` block.
fn substitution(inner: &str, line: usize) -> Result<Piece, String> {
    if inner.starts_with('#') {
        return Err(format!(
            "numeric substitution blocks ([[{inner}]]) are not supported"
        ));
    }
    if let Some(offset) = inner.strip_prefix("@LINE") {
        return line_value(offset, line).map(Piece::Literal);
    }
    let (name, regex) = match inner.split_once(':') {
        Some((name, regex)) => (name, Some(regex)),
        None => (inner, None),
    };
    let bare = name.strip_prefix('$').unwrap_or(name);
    if !is_variable_name(bare) {
        return Err(format!("invalid name in string variable: '{name}'"));
    }
    Ok(match regex {
        Some(regex) => Piece::Define {
            name: bare.to_string(),
            regex: regex.to_string(),
        },
        None => Piece::Use(bare.to_string()),
    })
}

fn line_value(offset: &str, line: usize) -> Result<String, String> {
    let offset = offset.replace(' ', "");
    let value = match offset.as_bytes().first() {
        None => Some(line as i64),
        Some(b'+') => offset[1..].parse::<i64>().ok().map(|n| line as i64 + n),
        Some(b'-') => offset[1..].parse::<i64>().ok().map(|n| line as i64 - n),
        Some(_) => None,
    };
    value
        .map(|value| value.to_string())
        .ok_or_else(|| format!("invalid @LINE expression '@LINE{offset}'"))
}

fn is_variable_name(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// FileCheck's default canonicalization: every run of spaces and tabs becomes
/// one space, in check patterns and input alike, so whitespace differences
/// never decide a match. Line breaks are kept, so line numbers survive.
pub fn canonicalize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_run = false;
    for c in text.chars() {
        if c == ' ' || c == '\t' {
            if !in_run {
                out.push(' ');
            }
            in_run = true;
        } else {
            out.push(c);
            in_run = false;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn find(pattern: &str, text: &str) -> Option<(usize, usize)> {
        let pattern = Pattern::parse(pattern, 1).unwrap();
        let found = pattern.find(text, 0, text.len(), &HashMap::new()).unwrap();
        found.map(|f| (f.start, f.end))
    }

    #[test]
    fn literal_text_is_not_a_regex() {
        assert_eq!(find("a.b(", "axb( a.b("), Some((5, 9)));
    }

    #[test]
    fn regex_blocks_are_grouped_so_alternation_stays_inside() {
        assert_eq!(find("x{{a|b}}y", "xay"), Some((0, 3)));
        assert_eq!(find("x{{a|b}}y", "a"), None);
    }

    #[test]
    fn regex_block_ends_at_first_close() {
        let pattern = Pattern::parse("{{a}}}", 1).unwrap();
        assert_eq!(pattern.regex_text(&HashMap::new()).unwrap(), "(?:a)\\}");
    }

    #[test]
    fn definitions_capture_and_uses_substitute_escaped() {
        let define = Pattern::parse("id [[ID:[0-9]+]]", 1).unwrap();
        let found = define
            .find("id 42", 0, 5, &HashMap::new())
            .unwrap()
            .unwrap();
        assert_eq!(found.defined, vec![("ID".to_string(), "42".to_string())]);
        let vars = HashMap::from([("V".to_string(), "a.b".to_string())]);
        let uses = Pattern::parse("x [[V]]", 1).unwrap();
        assert_eq!(
            uses.find("x axb x a.b", 0, 11, &vars)
                .unwrap()
                .unwrap()
                .start,
            6
        );
    }

    #[test]
    fn undefined_use_is_reported() {
        let uses = Pattern::parse("[[NOPE]]", 1).unwrap();
        let result = uses.find("x", 0, 1, &HashMap::new());
        assert_eq!(result, Err(UndefinedVariable("NOPE".to_string())));
    }

    #[test]
    fn brackets_inside_definition_do_not_close_it() {
        assert_eq!(find(r"[[X:[a-z\]]+]]", "a]b"), Some((0, 3)));
        assert!(
            Pattern::parse("[[X:a]b]]", 1)
                .unwrap_err()
                .contains("missing closing")
        );
    }

    #[test]
    fn malformed_blocks_are_errors() {
        assert!(Pattern::parse("{{abc", 1).unwrap_err().contains("no end"));
        assert!(Pattern::parse("[[abc", 1).unwrap_err().contains("no ]]"));
        assert!(
            Pattern::parse("[[1x]]", 1)
                .unwrap_err()
                .contains("invalid name")
        );
        assert!(Pattern::parse("[[#N]]", 1).unwrap_err().contains("numeric"));
        assert!(
            Pattern::parse("{{(}}", 1)
                .unwrap_err()
                .contains("invalid regex")
        );
        assert!(
            Pattern::parse("[[X:a]] [[X]]", 1)
                .unwrap_err()
                .contains("same pattern")
        );
    }

    #[test]
    fn at_line_expands_to_the_check_line() {
        let pattern = Pattern::parse("l[[@LINE]] m[[@LINE+2]] n[[@LINE-1]]", 7).unwrap();
        assert_eq!(pattern.regex_text(&HashMap::new()).unwrap(), "l7 m9 n6");
    }

    #[test]
    fn matches_never_cross_lines() {
        assert_eq!(find("a{{[^;]*}}b", "a\nb"), None);
        assert_eq!(find("a{{.*}}b", "xa\na b"), Some((3, 6)));
    }

    #[test]
    fn anchors_are_line_anchors() {
        assert_eq!(find("{{^}}b", "ab\nb"), Some((3, 4)));
        assert_eq!(find("a{{$}}", "ab\na"), Some((3, 4)));
    }

    #[test]
    fn search_starts_mid_line_and_stops_at_the_region_end() {
        let pattern = Pattern::parse("ab", 1).unwrap();
        let none = HashMap::new();
        assert_eq!(
            pattern.find("ab ab", 1, 5, &none).unwrap().unwrap().start,
            3
        );
        assert_eq!(pattern.find("ab ab", 1, 4, &none).unwrap(), None);
    }

    #[test]
    fn canonicalize_collapses_horizontal_whitespace_only() {
        assert_eq!(canonicalize("a \t  b\n\n\tc"), "a b\n\n c");
    }
}
