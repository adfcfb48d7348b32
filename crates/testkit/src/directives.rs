//! Reads a test file in the reference compiler's format.
//!
//! - The `//META:` block: `key=value` lines at the very top (`intent`,
//!   `covers`, `behaviour`, `purpose`, optional
//!   `characterization-unverified=true|false`). Unknown or repeated keys,
//!   and META lines below the block, are errors.
//! - Test directives, as the reference's test runner spells them:
//!   `//TEST[(categories)]:KIND[(options)]:ARGS` and the same with
//!   `//DIAGNOSTIC_TEST`. Supported: `SIMPLE(filecheck=P)` (FileCheck with
//!   prefix `P` over the compiler's output) and `SIMPLE(diag=P)` /
//!   `SIMPLE(diag=P, non-exhaustive)` (caret annotations). Every other kind
//!   (`COMPUTE_TEST`, `CROSS_COMPILE`, `SIMPLE` against an `.expected`
//!   file...) is kept as [`DirectiveKind::Unsupported`] so the runner reports
//!   it; `//DISABLE_TEST` lines are kept as disabled. `//TEST_INPUT:` lines
//!   only feed compute tests and are not directives.
//! - Check lines of FileCheck prefixes: a `//P-SUFFIX:` with an unknown
//!   suffix is an error here, although FileCheck itself would skip it,
//!   because a typo must not silently drop a check.
//! - Caret annotations of diag prefixes, in the reference's convention:
//!
//!   ```text
//!       float4 c : SV_Bogus;
//!   //CHECK:   ^ unknown system-value semantic
//!   ```
//!
//!   The annotation refers to the nearest line above it that is not itself
//!   an annotation (so several can stack under one source line). Read it as
//!   if `//CHECK:` were blanked to spaces: the column of the first `^` in
//!   the annotation line is the diagnostic's begin column in that source
//!   line, and the number of carets is its width (end column minus begin
//!   column; a zero-width span takes one caret). Columns are 1-based and
//!   count characters, a tab as one, like the machine-readable diagnostics;
//!   a span that begins inside the width of `//CHECK:` cannot be annotated.
//!   The text after the carets is a substring the diagnostic's message (or
//!   its label's) must contain.
//!
//! Every malformed line is an error with its line number; nothing that looks
//! like a directive is skipped silently.

use std::collections::BTreeMap;
use std::fmt;

use crate::filecheck;

/// The `//META:` block.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Meta {
    pub intent: String,
    pub covers: String,
    pub behaviour: String,
    pub purpose: String,
    pub characterization_unverified: bool,
}

/// What a test directive asks the runner to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DirectiveKind {
    /// Run FileCheck with this prefix over the compiler's output.
    FileCheck { prefix: String },
    /// Match the caret annotations of this prefix against the diagnostics.
    Diagnostic { prefix: String, exhaustive: bool },
    /// A kind this harness cannot run, with the reason.
    Unsupported { reason: String },
    /// `//DISABLE_TEST`: written down, not run.
    Disabled,
}

/// One `//TEST` or `//DIAGNOSTIC_TEST` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Directive {
    /// 1-based line number.
    pub line: usize,
    /// The line as written, for reports.
    pub text: String,
    pub kind: DirectiveKind,
    /// The compiler arguments after the last `:` (split on whitespace).
    pub args: Vec<String>,
}

/// One caret annotation under a source line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Annotation {
    pub prefix: String,
    /// Line of the annotation itself.
    pub line: usize,
    /// The source line it points into.
    pub target_line: usize,
    /// 1-based character column of the first caret.
    pub column: usize,
    /// Number of carets.
    pub width: usize,
    /// Expected message substring (may be empty).
    pub message: String,
}

/// A parsed test file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestFile {
    pub meta: Option<Meta>,
    pub directives: Vec<Directive>,
    pub annotations: Vec<Annotation>,
}

/// A malformed line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirectiveError {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for DirectiveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl TestFile {
    /// The annotations of one diag prefix.
    pub fn annotations_for<'a>(&'a self, prefix: &'a str) -> impl Iterator<Item = &'a Annotation> {
        self.annotations.iter().filter(move |a| a.prefix == prefix)
    }
}

/// Parses `text`; every malformed line is reported, none is skipped.
pub fn parse(text: &str) -> Result<TestFile, Vec<DirectiveError>> {
    let lines: Vec<&str> = text.lines().collect();
    let mut errors = Vec::new();
    let meta = parse_meta(&lines, &mut errors);
    let directives = parse_directives(&lines, &mut errors);
    let (check_prefixes, diag_prefixes) = declared_prefixes(&directives, &mut errors);
    check_lines(
        &lines,
        &directives,
        &check_prefixes,
        &diag_prefixes,
        &mut errors,
    );
    let annotations = parse_annotations(&lines, &diag_prefixes, &mut errors);
    if errors.is_empty() {
        Ok(TestFile {
            meta,
            directives,
            annotations,
        })
    } else {
        errors.sort_by_key(|e| e.line);
        Err(errors)
    }
}

fn error(errors: &mut Vec<DirectiveError>, line: usize, message: impl Into<String>) {
    errors.push(DirectiveError {
        line,
        message: message.into(),
    });
}

/// The text after `//` on a comment line (leading whitespace allowed).
fn comment(line: &str) -> Option<&str> {
    line.trim_start().strip_prefix("//")
}

const META_KEYS: [&str; 5] = [
    "intent",
    "covers",
    "behaviour",
    "purpose",
    "characterization-unverified",
];

fn parse_meta(lines: &[&str], errors: &mut Vec<DirectiveError>) -> Option<Meta> {
    let block_len = lines
        .iter()
        .take_while(|l| comment(l).is_some_and(|c| c.starts_with("META:")))
        .count();
    for (index, line) in lines.iter().enumerate().skip(block_len) {
        if comment(line).is_some_and(|c| c.trim_start().starts_with("META")) {
            error(
                errors,
                index + 1,
                "META line outside the block at the top of the file",
            );
        }
    }
    if block_len == 0 {
        return None;
    }
    let mut values = BTreeMap::new();
    for (index, line) in lines[..block_len].iter().enumerate() {
        let body = comment(line)
            .and_then(|c| c.strip_prefix("META:"))
            .unwrap_or("");
        let Some((key, value)) = body.split_once('=') else {
            error(
                errors,
                index + 1,
                format!("META line without key=value: '{}'", body.trim()),
            );
            continue;
        };
        let (key, value) = (key.trim(), value.trim());
        if !META_KEYS.contains(&key) {
            let known = META_KEYS.join(", ");
            error(
                errors,
                index + 1,
                format!("unknown META key '{key}' (known: {known})"),
            );
        } else if value.is_empty() {
            error(errors, index + 1, format!("META key '{key}' has no value"));
        } else if values.insert(key, value.to_string()).is_some() {
            error(errors, index + 1, format!("META key '{key}' repeated"));
        }
    }
    meta_from_values(values, block_len, errors)
}

fn meta_from_values(
    mut values: BTreeMap<&str, String>,
    block_len: usize,
    errors: &mut Vec<DirectiveError>,
) -> Option<Meta> {
    let unverified = match values.remove("characterization-unverified").as_deref() {
        None | Some("false") => false,
        Some("true") => true,
        Some(other) => {
            error(
                errors,
                block_len,
                format!("characterization-unverified must be true or false, not '{other}'"),
            );
            false
        }
    };
    let mut take = |key: &str| {
        values.remove(key).unwrap_or_else(|| {
            error(errors, block_len, format!("META block lacks '{key}='"));
            String::new()
        })
    };
    Some(Meta {
        intent: take("intent"),
        covers: take("covers"),
        behaviour: take("behaviour"),
        purpose: take("purpose"),
        characterization_unverified: unverified,
    })
}

fn parse_directives(lines: &[&str], errors: &mut Vec<DirectiveError>) -> Vec<Directive> {
    let mut directives = Vec::new();
    for (index, line) in lines.iter().enumerate() {
        let Some(body) = comment(line) else { continue };
        let line_number = index + 1;
        match directive_head(body) {
            Head::NotDirective | Head::Input => {}
            Head::Unknown(word) => {
                error(errors, line_number, format!("unknown directive '//{word}'"));
            }
            Head::Test { rest, disabled } => match parse_test(rest, disabled) {
                Ok((kind, args)) => directives.push(Directive {
                    line: line_number,
                    text: line.trim().to_string(),
                    kind,
                    args,
                }),
                Err(message) => error(errors, line_number, message),
            },
        }
    }
    directives
}

enum Head<'a> {
    NotDirective,
    /// `//TEST_INPUT:` and friends: data for kinds this harness skips.
    Input,
    Unknown(&'a str),
    /// The text after `TEST` / `DIAGNOSTIC_TEST` / `DISABLE_TEST`.
    Test {
        rest: &'a str,
        disabled: bool,
    },
}

fn directive_head(body: &str) -> Head<'_> {
    let word_len = body
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(body.len());
    let (word, rest) = body.split_at(word_len);
    if !word.contains("TEST") || !(rest.starts_with(':') || rest.starts_with('(')) {
        return Head::NotDirective;
    }
    match word {
        "TEST" | "DIAGNOSTIC_TEST" => Head::Test {
            rest,
            disabled: false,
        },
        "DISABLE_TEST" => Head::Test {
            rest,
            disabled: true,
        },
        "TEST_INPUT" | "TEST_IGNORE_FILE" => Head::Input,
        _ => Head::Unknown(word),
    }
}

/// `[(categories)]:KIND[(options)]:ARGS` after the directive word.
fn parse_test(rest: &str, disabled: bool) -> Result<(DirectiveKind, Vec<String>), String> {
    let rest = match rest.strip_prefix('(') {
        Some(inner) => inner
            .split_once(')')
            .map(|(_, after)| after)
            .ok_or("unclosed '(' after TEST")?,
        None => rest,
    };
    let rest = rest.strip_prefix(':').ok_or("expected ':' after TEST")?;
    let kind_len = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    let (kind, rest) = rest.split_at(kind_len);
    if kind.is_empty() {
        return Err("missing test kind after 'TEST:'".to_string());
    }
    let (options, rest) = match rest.strip_prefix('(') {
        Some(inner) => inner
            .split_once(')')
            .ok_or(format!("unclosed '(' after {kind}"))?,
        None => ("", rest),
    };
    let args_text = rest.strip_prefix(':').ok_or(format!(
        "expected ':' and the compiler arguments after {kind}"
    ))?;
    let args = args_text.split_whitespace().map(str::to_string).collect();
    if disabled {
        return Ok((DirectiveKind::Disabled, args));
    }
    Ok((test_kind(kind, options)?, args))
}

fn test_kind(kind: &str, options: &str) -> Result<DirectiveKind, String> {
    if kind != "SIMPLE" {
        let reason = format!("unsupported directive kind '{kind}'");
        return Ok(DirectiveKind::Unsupported { reason });
    }
    let mut filecheck = None;
    let mut diag = None;
    let mut exhaustive = true;
    for option in options.split(',').map(str::trim).filter(|o| !o.is_empty()) {
        match option.split_once('=').map(|(k, v)| (k.trim(), v.trim())) {
            Some(("filecheck", prefix)) => filecheck = Some(valid_prefix(prefix)?),
            Some(("diag", prefix)) => diag = Some(valid_prefix(prefix)?),
            None if option == "non-exhaustive" => exhaustive = false,
            _ => return Err(format!("unknown SIMPLE option '{option}'")),
        }
    }
    match (filecheck, diag) {
        (Some(_), Some(_)) => Err("a directive takes filecheck= or diag=, not both".to_string()),
        (Some(_), None) if !exhaustive => Err("non-exhaustive applies to diag= only".to_string()),
        (Some(prefix), None) => Ok(DirectiveKind::FileCheck { prefix }),
        (None, Some(prefix)) => Ok(DirectiveKind::Diagnostic { prefix, exhaustive }),
        (None, None) => Ok(DirectiveKind::Unsupported {
            reason: "unsupported directive kind 'SIMPLE' without filecheck= or diag= \
                     (it compares with an .expected file)"
                .to_string(),
        }),
    }
}

fn valid_prefix(prefix: &str) -> Result<String, String> {
    if filecheck::is_valid_prefix(prefix) {
        Ok(prefix.to_string())
    } else {
        Err(format!("invalid check prefix '{prefix}'"))
    }
}

/// The FileCheck prefixes and diag prefixes the directives declare; one
/// prefix cannot serve both.
fn declared_prefixes(
    directives: &[Directive],
    errors: &mut Vec<DirectiveError>,
) -> (Vec<String>, Vec<String>) {
    let mut checks: Vec<String> = Vec::new();
    let mut diags: Vec<String> = Vec::new();
    for directive in directives {
        match &directive.kind {
            DirectiveKind::FileCheck { prefix } if !checks.contains(prefix) => {
                checks.push(prefix.clone())
            }
            DirectiveKind::Diagnostic { prefix, .. } if !diags.contains(prefix) => {
                diags.push(prefix.clone())
            }
            _ => {}
        }
    }
    for directive in directives {
        if let DirectiveKind::FileCheck { prefix } = &directive.kind
            && diags.contains(prefix)
        {
            let message = format!("prefix '{prefix}' is used for both filecheck= and diag=");
            error(errors, directive.line, message);
        }
    }
    (checks, diags)
}

/// `//P...:` lines of declared prefixes: the suffix must be one FileCheck
/// knows (checks) or absent (annotations), and every prefix must be used.
fn check_lines(
    lines: &[&str],
    directives: &[Directive],
    checks: &[String],
    diags: &[String],
    errors: &mut Vec<DirectiveError>,
) {
    let mut used = vec![false; checks.len()];
    for (index, line) in lines.iter().enumerate() {
        let Some(body) = comment(line).map(str::trim_start) else {
            continue;
        };
        let mut valid = false;
        let mut attempted = None;
        for (at, prefix) in checks.iter().enumerate() {
            let Some(rest) = body.strip_prefix(prefix.as_str()) else {
                continue;
            };
            match filecheck::split_kind(rest) {
                Some((Ok(_), _)) => {
                    valid = true;
                    used[at] = true;
                }
                Some((Err(message), _)) => attempted = Some(message),
                None if rest.starts_with('-') => {
                    let word: String = rest.chars().take_while(|&c| c != ':' && c != ' ').collect();
                    attempted = Some(format!("unknown check suffix in '{prefix}{word}'"));
                }
                None => {}
            }
        }
        for prefix in diags {
            if let Some(rest) = body.strip_prefix(prefix.as_str())
                && rest.starts_with('-')
                && rest.contains(':')
            {
                attempted = Some(format!(
                    "'{prefix}' is a diag= prefix: its lines are caret annotations, not '{prefix}-...' checks"
                ));
            }
        }
        if let (false, Some(message)) = (valid, attempted) {
            error(errors, index + 1, message);
        }
    }
    for (prefix, used) in checks.iter().zip(used) {
        let declared_at = directives
            .iter()
            .find(|d| matches!(&d.kind, DirectiveKind::FileCheck { prefix: p } if p == prefix))
            .map_or(0, |d| d.line);
        if !used {
            let message =
                format!("filecheck={prefix} declared but the file has no //{prefix}: check lines");
            error(errors, declared_at, message);
        }
    }
}

fn parse_annotations(
    lines: &[&str],
    diags: &[String],
    errors: &mut Vec<DirectiveError>,
) -> Vec<Annotation> {
    let is_annotation = |line: &str| {
        comment(line).is_some_and(|body| {
            diags.iter().any(|p| {
                body.strip_prefix(p.as_str())
                    .is_some_and(|r| r.starts_with(':'))
            })
        })
    };
    let mut annotations = Vec::new();
    let mut target = None;
    for (index, line) in lines.iter().enumerate() {
        if !is_annotation(line) {
            target = Some(index + 1);
            continue;
        }
        match annotation(line, index + 1, target, diags) {
            Ok(found) => annotations.push(found),
            Err(message) => error(errors, index + 1, message),
        }
    }
    annotations
}

fn annotation(
    line: &str,
    number: usize,
    target: Option<usize>,
    diags: &[String],
) -> Result<Annotation, String> {
    let body = comment(line).expect("is_annotation saw a comment");
    let prefix = diags
        .iter()
        .find(|p| body.starts_with(&format!("{p}:")))
        .expect("is_annotation matched a prefix");
    let after_colon = line
        .find(&format!("{prefix}:"))
        .expect("prefix is on the line")
        + prefix.len()
        + 1;
    let rest = &line[after_colon..];
    let carets_at = rest
        .find(|c: char| c != ' ' && c != '\t')
        .filter(|&at| rest[at..].starts_with('^'))
        .ok_or("a diagnostic annotation needs carets: '//P:   ^^^ message'")?;
    if rest[..carets_at].contains('\t') || line[..after_colon].contains('\t') {
        return Err("indent annotations with spaces: a tab's column is ambiguous".to_string());
    }
    let width = rest[carets_at..].chars().take_while(|&c| c == '^').count();
    let target_line = target.ok_or("an annotation needs a source line above it")?;
    Ok(Annotation {
        prefix: prefix.clone(),
        line: number,
        target_line,
        column: line[..after_colon + carets_at].chars().count() + 1,
        width,
        message: rest[carets_at + width..].trim().to_string(),
    })
}

#[cfg(test)]
mod tests;
