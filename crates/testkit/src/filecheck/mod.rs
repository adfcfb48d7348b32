//! An LLVM-FileCheck-compatible checker on the `regex` crate.
//!
//! Check lines are found the way FileCheck finds them: a prefix not glued to
//! a preceding word character, an optional suffix (`-NEXT`, `-SAME`,
//! `-NOT`, `-DAG`, `-LABEL`, `-EMPTY`, `-COUNT-n`) and a colon, anywhere in a
//! line. Matching follows FileCheck's `CheckString::Check`: CHECK-LABELs
//! first cut the input into blocks; inside a block each positive check first
//! matches the CHECK-DAGs before it (any order, no overlaps, groups split by
//! CHECK-NOTs), then itself, then tests the NEXT/SAME line rule and the
//! CHECK-NOTs in the skipped region. A failure in one block does not stop
//! the next block from being checked, so one run shows every broken block.

pub mod llvm;
mod pattern;
mod report;

use std::collections::HashMap;
use std::fmt;
use std::ops::Range;

pub use pattern::canonicalize;
use pattern::{Found, Pattern, UndefinedVariable};

/// What a check line asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckKind {
    Plain,
    Next,
    Same,
    Not,
    Dag,
    Label,
    Empty,
    Count(usize),
}

impl CheckKind {
    /// The directive's spelling after the prefix (`""`, `"-NEXT"`, ...).
    pub fn suffix(self) -> String {
        match self {
            CheckKind::Plain => String::new(),
            CheckKind::Next => "-NEXT".into(),
            CheckKind::Same => "-SAME".into(),
            CheckKind::Not => "-NOT".into(),
            CheckKind::Dag => "-DAG".into(),
            CheckKind::Label => "-LABEL".into(),
            CheckKind::Empty => "-EMPTY".into(),
            CheckKind::Count(n) => format!("-COUNT-{n}"),
        }
    }

    fn is_positive(self) -> bool {
        !matches!(self, CheckKind::Not | CheckKind::Dag)
    }
}

/// One check line of the check file.
#[derive(Debug, Clone)]
pub struct Check {
    pub kind: CheckKind,
    pub prefix: String,
    /// 1-based line in the check file.
    pub line: usize,
    /// The pattern as written (trimmed), for messages.
    pub text: String,
    pattern: Pattern,
}

impl Check {
    /// `PREFIX-KIND` as written in the file, e.g. `GLSL-DAG`.
    pub fn directive(&self) -> String {
        format!("{}{}", self.prefix, self.kind.suffix())
    }
}

/// An error in the check file itself (FileCheck exits 2 for these).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckFileError {
    pub file: String,
    pub line: usize,
    pub message: String,
}

impl fmt::Display for CheckFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: error: {}", self.file, self.message)
        } else {
            write!(f, "{}:{}: error: {}", self.file, self.line, self.message)
        }
    }
}

/// A check that did not hold, rendered FileCheck-style with the input around
/// the place where scanning stopped.
#[derive(Debug, Clone)]
pub struct CheckFailure {
    /// 1-based line of the failing check in the check file.
    pub line: usize,
    /// e.g. `GLSL-NEXT`.
    pub directive: String,
    /// e.g. `is not on the line after the previous match`.
    pub summary: String,
    /// The whole message: check line, what it looked for, input excerpts.
    pub rendered: String,
}

impl fmt::Display for CheckFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.rendered)
    }
}

/// The checks of one file for a set of prefixes.
#[derive(Debug, Clone)]
pub struct CheckFile {
    pub name: String,
    pub checks: Vec<Check>,
    /// FileCheck's `--allow-empty`: without it an empty input fails the run
    /// (as LLVM's FileCheck, which reports it and exits 2), whatever the
    /// checks are, so a directive that printed nothing never passes.
    pub allow_empty: bool,
}

/// Is `prefix` one FileCheck accepts: a letter, then letters, digits, `-`, `_`?
pub fn is_valid_prefix(prefix: &str) -> bool {
    let mut chars = prefix.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

impl CheckFile {
    /// Reads every check line for `prefixes` from `text`. All errors are
    /// returned, each with its line.
    pub fn parse(
        name: &str,
        text: &str,
        prefixes: &[&str],
    ) -> Result<CheckFile, Vec<CheckFileError>> {
        let mut checks = Vec::new();
        let mut errors = Vec::new();
        let error = |line, message: String| CheckFileError {
            file: name.to_string(),
            line,
            message,
        };
        for (index, line_text) in text.lines().enumerate() {
            let line = index + 1;
            let Some(found) = find_directive(line_text, prefixes) else {
                continue;
            };
            match parse_check(
                found,
                line,
                checks.iter().any(|c: &Check| c.kind.is_positive()),
            ) {
                Ok(check) => checks.push(check),
                Err(message) => errors.push(error(line, message)),
            }
        }
        if checks.is_empty() && errors.is_empty() {
            let shown: Vec<String> = prefixes.iter().map(|p| format!("'{p}:'")).collect();
            let message = format!("no check strings found with prefix {}", shown.join(", "));
            errors.push(error(0, message));
        }
        if errors.is_empty() {
            Ok(CheckFile {
                name: name.to_string(),
                checks,
                allow_empty: false,
            })
        } else {
            Err(errors)
        }
    }

    /// Runs the checks against `input` (named `input_name` in messages).
    /// Whitespace runs are canonicalized on both sides first.
    pub fn check(&self, input_name: &str, input: &str) -> Result<(), Vec<CheckFailure>> {
        if input.is_empty() && !self.allow_empty {
            return Err(vec![self.empty_input(input_name)]);
        }
        let input = canonicalize(input);
        let mut run = Run {
            file: self,
            input_name,
            input: &input,
            vars: HashMap::new(),
            failures: Vec::new(),
        };
        run.all();
        if run.failures.is_empty() {
            Ok(())
        } else {
            Err(run.failures)
        }
    }
}

/// FileCheck's default comment prefixes: a line whose first directive-like
/// word is `COM:` or `RUN:` is no check, even if a check prefix follows.
pub const COMMENT_PREFIXES: &[&str] = &["COM", "RUN"];

impl CheckFile {
    /// The failure of a run over an empty input, charged to the first check.
    fn empty_input(&self, input_name: &str) -> CheckFailure {
        let first = self.checks.first();
        let summary = "the input is empty".to_string();
        CheckFailure {
            line: first.map_or(0, |c| c.line),
            directive: first.map_or_else(String::new, Check::directive),
            rendered: format!(
                "{}: error: '{input_name}' is empty: there is no output to check \
                 (FileCheck fails on an empty input unless --allow-empty)\n",
                self.name
            ),
            summary,
        }
    }
}

/// A directive found on a line: the prefix, the text after the prefix
/// (starting at the suffix, modifiers or colon).
struct FoundDirective<'a> {
    prefix: &'a str,
    rest: &'a str,
}

/// The first prefix occurrence on the line that starts a directive; like
/// FileCheck, an occurrence glued to a word (`XCHECK:`) or followed by an
/// unknown suffix is not a directive and the search goes on. A comment
/// prefix (`COM:`) found first makes the line a comment: `None`.
fn find_directive<'a>(line: &'a str, prefixes: &[&'a str]) -> Option<FoundDirective<'a>> {
    let mut candidates: Vec<(usize, &str, bool)> = prefixes
        .iter()
        .map(|prefix| (*prefix, false))
        .chain(COMMENT_PREFIXES.iter().map(|prefix| (*prefix, true)))
        .flat_map(|(prefix, comment)| {
            line.match_indices(prefix)
                .map(move |(at, _)| (at, prefix, comment))
        })
        .collect();
    // Longest prefix first at one position, so `CHECK-A` wins over `CHECK`.
    candidates.sort_by_key(|(at, prefix, _)| (*at, std::cmp::Reverse(prefix.len())));
    for (at, prefix, comment) in candidates {
        let glued = line[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if glued {
            continue;
        }
        let rest = &line[at + prefix.len()..];
        if comment {
            // `COM:` only; `COM-NOT:` or `COM{LITERAL}:` is no comment.
            if rest.starts_with(':') {
                return None;
            }
        } else if split_kind(rest).is_some() {
            return Some(FoundDirective { prefix, rest });
        }
    }
    None
}

/// What a directive's spelling asks for: the kind and whether the pattern is
/// `{LITERAL}` (no `{{regex}}`, no `[[variables]]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spelling {
    pub kind: CheckKind,
    pub literal: bool,
}

/// The kind and the text after the colon, or `None` when `rest` (the text
/// right after a prefix) does not start a directive. Follows FileCheck's
/// `FindCheckType`: `:` or `{MODIFIERS}:` after the prefix or after
/// `-NEXT`, `-SAME`, ...; a malformed count, or `_` written for `-`
/// (`CHECK_NEXT:`), is a directive with an error.
pub fn split_kind(rest: &str) -> Option<(Result<Spelling, String>, &str)> {
    let plain = |kind| Spelling {
        kind,
        literal: false,
    };
    if rest.starts_with(':') || rest.starts_with('{') {
        return modifiers(rest, plain(CheckKind::Plain)).map(|(s, after)| (Ok(s), after));
    }
    let (misspelled, suffix) = match (rest.strip_prefix('_'), rest.strip_prefix('-')) {
        (Some(suffix), _) => (true, suffix),
        (None, Some(suffix)) => (false, suffix),
        (None, None) => return None,
    };
    let (spelling, after) = if let Some(count) = suffix.strip_prefix("COUNT-") {
        let digits = count.len() - count.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let (number, tail) = count.split_at(digits);
        let bad = || format!("invalid count in -COUNT specification: '{number}'");
        let n = match number.parse::<u32>() {
            Ok(n) if n > 0 && n <= i32::MAX as u32 && (tail.starts_with([':', '{'])) => n,
            _ => return Some((Err(bad()), tail)),
        };
        modifiers(tail, plain(CheckKind::Count(n as usize)))?
    } else {
        let simple = [
            ("NEXT", CheckKind::Next),
            ("SAME", CheckKind::Same),
            ("NOT", CheckKind::Not),
            ("DAG", CheckKind::Dag),
            ("LABEL", CheckKind::Label),
            ("EMPTY", CheckKind::Empty),
        ];
        let (word, kind) = simple
            .into_iter()
            .find(|(word, _)| suffix.starts_with(word))?;
        modifiers(&suffix[word.len()..], plain(kind))?
    };
    if misspelled {
        let written = &rest[..rest.len() - after.len()];
        let message = format!("misspelled directive: '_' written for '-' in '{written}'");
        return Some((Err(message), after));
    }
    Some((Ok(spelling), after))
}

/// FileCheck's `ConsumeModifiers`: `:` or `{LITERAL[, LITERAL]}:`.
fn modifiers(rest: &str, mut spelling: Spelling) -> Option<(Spelling, &str)> {
    if let Some(after) = rest.strip_prefix(':') {
        return Some((spelling, after));
    }
    let mut rest = rest.strip_prefix('{')?;
    loop {
        rest = rest.trim_start().strip_prefix("LITERAL")?.trim_start();
        spelling.literal = true;
        match rest.strip_prefix(',') {
            Some(more) => rest = more,
            None => break,
        }
    }
    rest.strip_prefix("}:").map(|after| (spelling, after))
}

fn parse_check(
    found: FoundDirective<'_>,
    line: usize,
    has_positive: bool,
) -> Result<Check, String> {
    let (spelling, after) = split_kind(found.rest).expect("find_directive checked the kind");
    let Spelling { kind, literal } = spelling.map_err(|message| {
        if found.rest.starts_with('_') {
            let written = &found.rest[..found.rest.len() - after.len()];
            format!("misspelled directive '{}{written}'", found.prefix)
        } else {
            message
        }
    })?;
    let directive = format!("{}{}", found.prefix, kind.suffix());
    let text = after.trim_matches([' ', '\t']).to_string();
    let needs_previous = matches!(kind, CheckKind::Next | CheckKind::Same | CheckKind::Empty);
    if needs_previous && !has_positive {
        return Err(format!(
            "found '{directive}' without previous '{}: line",
            found.prefix
        ));
    }
    match (kind, text.is_empty()) {
        (CheckKind::Empty, false) => {
            return Err(format!(
                "found non-empty check string for empty check with prefix '{directive}:'"
            ));
        }
        (CheckKind::Empty, true) => {}
        (_, true) => {
            return Err(format!(
                "found empty check string with prefix '{directive}:'"
            ));
        }
        (_, false) => {}
    }
    let pattern = if literal {
        Pattern::literal(&canonicalize(&text))
    } else {
        Pattern::parse(&canonicalize(&text), line)?
    };
    if kind == CheckKind::Label && (pattern.uses_variables() || pattern.defines_variables()) {
        return Err(format!(
            "found '{directive}:' with variable definition or use"
        ));
    }
    Ok(Check {
        kind,
        prefix: found.prefix.to_string(),
        line,
        text,
        pattern,
    })
}

/// FileCheck's `CheckString`: a positive check (or the end of the input)
/// with the DAG and NOT checks written before it.
struct Step {
    check: Option<usize>,
    dag_not: Vec<usize>,
}

fn steps(checks: &[Check]) -> Vec<Step> {
    let mut steps = Vec::new();
    let mut pending = Vec::new();
    for (index, check) in checks.iter().enumerate() {
        if check.kind.is_positive() {
            steps.push(Step {
                check: Some(index),
                dag_not: std::mem::take(&mut pending),
            });
        } else {
            pending.push(index);
        }
    }
    steps.push(Step {
        check: None,
        dag_not: pending,
    });
    steps
}

/// One checking run over one input.
struct Run<'a> {
    file: &'a CheckFile,
    input_name: &'a str,
    input: &'a str,
    vars: HashMap<String, String>,
    failures: Vec<CheckFailure>,
}

impl Run<'_> {
    /// FileCheck's `checkInput`: scan to each label, then check the region
    /// before it (including the label again, so its DAG/NOTs are tested).
    fn all(&mut self) {
        let steps = steps(&self.file.checks);
        let mut buffer_start = 0;
        let (mut i, mut j) = (0, 0);
        loop {
            let block_start = buffer_start;
            let region_end;
            if j == steps.len() {
                region_end = self.input.len();
            } else {
                let Some(label) = steps[j]
                    .check
                    .filter(|&c| self.file.checks[c].kind == CheckKind::Label)
                else {
                    j += 1;
                    continue;
                };
                let Some(found) = self.scan_label(label, buffer_start) else {
                    return;
                };
                region_end = found.end;
                buffer_start = found.end;
                j += 1;
            }
            let mut position = block_start;
            while i < j {
                match self.step(&steps[i], position..region_end) {
                    Some(end) => position = end,
                    None => {
                        i = j;
                        break;
                    }
                }
                i += 1;
            }
            if j == steps.len() {
                break;
            }
        }
    }

    fn scan_label(&mut self, check: usize, from: usize) -> Option<Found> {
        let label = &self.file.checks[check];
        match self.find(label, from, self.input.len()) {
            Ok(Some(found)) => Some(found),
            Ok(None) => {
                self.not_found(label, from);
                None
            }
            Err(undefined) => {
                self.undefined(label, from, undefined);
                None
            }
        }
    }

    fn find(
        &mut self,
        check: &Check,
        from: usize,
        to: usize,
    ) -> Result<Option<Found>, UndefinedVariable> {
        let found = check.pattern.find(self.input, from, to, &self.vars)?;
        if let Some(found) = &found {
            for (name, value) in &found.defined {
                self.vars.insert(name.clone(), value.clone());
            }
        }
        Ok(found)
    }

    /// Checks one step inside `region`; the end of its match, or `None`
    /// after recording a failure.
    fn step(&mut self, step: &Step, region: Range<usize>) -> Option<usize> {
        let mut nots = Vec::new();
        let last = self.dags(&step.dag_not, region.clone(), &mut nots)?;
        let Some(index) = step.check else {
            self.nots(&nots, last..region.end)?;
            return Some(region.end);
        };
        let check = &self.file.checks[index];
        let matched = self.match_positive(check, last, region.end)?;
        let skipped = last..matched.start;
        match check.kind {
            CheckKind::Next | CheckKind::Empty => {
                self.next_rule(check, skipped.clone(), &matched)?
            }
            CheckKind::Same => self.same_rule(check, skipped.clone(), &matched)?,
            _ => {}
        }
        self.nots(&nots, skipped)?;
        Some(matched.end)
    }

    /// The check itself, `n` times for COUNT-n; the range from the first
    /// match's start to the last match's end.
    fn match_positive(&mut self, check: &Check, from: usize, to: usize) -> Option<Range<usize>> {
        if check.kind == CheckKind::Empty {
            return match first_empty_line(self.input, from, to) {
                Some(at) => Some(at..at),
                None => {
                    self.not_found(check, from);
                    None
                }
            };
        }
        let times = match check.kind {
            CheckKind::Count(n) => n,
            _ => 1,
        };
        let mut first = None;
        let mut end = from;
        for _ in 0..times {
            match self.find(check, end, to) {
                Ok(Some(found)) => {
                    first.get_or_insert(found.start);
                    end = found.end;
                }
                Ok(None) => {
                    self.not_found(check, end);
                    return None;
                }
                Err(undefined) => {
                    self.undefined(check, end, undefined);
                    return None;
                }
            }
        }
        Some(first.unwrap_or(from)..end)
    }

    /// FileCheck's `CheckDag`: each DAG matches from the start of its
    /// group's search range, skipping past earlier matches it would overlap;
    /// a NOT ends the group and is tested between the groups.
    fn dags(
        &mut self,
        dag_not: &[usize],
        region: Range<usize>,
        nots: &mut Vec<usize>,
    ) -> Option<usize> {
        let mut start = region.start;
        let mut ranges: Vec<Range<usize>> = Vec::new();
        for (at, &index) in dag_not.iter().enumerate() {
            let check = &self.file.checks[index];
            if check.kind == CheckKind::Not {
                nots.push(index);
                continue;
            }
            let found = self.dag_match(check, start, region.end, &ranges)?;
            let insert_at = ranges.partition_point(|r| r.start <= found.start);
            ranges.insert(insert_at, found);
            let group_ends = dag_not
                .get(at + 1)
                .is_none_or(|&next| self.file.checks[next].kind == CheckKind::Not);
            if group_ends {
                if !nots.is_empty() {
                    let first = ranges.first().map_or(start, |r| r.start);
                    self.nots(nots, start..first)?;
                    nots.clear();
                }
                start = ranges.iter().map(|r| r.end).max().unwrap_or(start);
                ranges.clear();
            }
        }
        Some(start)
    }

    fn dag_match(
        &mut self,
        check: &Check,
        start: usize,
        end: usize,
        taken: &[Range<usize>],
    ) -> Option<Range<usize>> {
        let mut from = start;
        loop {
            let found = match self.find(check, from, end) {
                Ok(Some(found)) => found.start..found.end,
                Ok(None) => {
                    self.not_found(check, start);
                    return None;
                }
                Err(undefined) => {
                    self.undefined(check, start, undefined);
                    return None;
                }
            };
            let overlap = taken
                .iter()
                .find(|r| found.start < r.end && r.start < found.end);
            match overlap {
                None => return Some(found),
                // Like FileCheck, resume after the match it collided with;
                // that end lies past `found.start`, so the loop advances.
                Some(r) => from = r.end,
            }
            if from > end {
                self.not_found(check, start);
                return None;
            }
        }
    }

    /// The CHECK-NOTs must not match anywhere in `region`.
    fn nots(&mut self, nots: &[usize], region: Range<usize>) -> Option<()> {
        for &index in nots {
            let check = &self.file.checks[index];
            match self.find(check, region.start, region.end) {
                Ok(None) => {}
                Ok(Some(found)) => {
                    self.excluded_found(check, found.start..found.end);
                    return None;
                }
                Err(undefined) => {
                    self.undefined(check, region.start, undefined);
                    return None;
                }
            }
        }
        Some(())
    }

    fn next_rule(
        &mut self,
        check: &Check,
        skipped: Range<usize>,
        matched: &Range<usize>,
    ) -> Option<()> {
        let newlines = self.input[skipped.clone()].matches('\n').count();
        let summary = match newlines {
            1 => return Some(()),
            0 => "is on the same line as previous match",
            _ => "is not on the line after the previous match",
        };
        self.line_rule_failed(check, summary, skipped, matched);
        None
    }

    fn same_rule(
        &mut self,
        check: &Check,
        skipped: Range<usize>,
        matched: &Range<usize>,
    ) -> Option<()> {
        if !self.input[skipped.clone()].contains('\n') {
            return Some(());
        }
        self.line_rule_failed(
            check,
            "is not on the same line as the previous match",
            skipped,
            matched,
        );
        None
    }
}

/// FileCheck's CHECK-EMPTY regex is `\n$` with the match starting after the
/// newline: the first empty line that begins after `from`.
fn first_empty_line(text: &str, from: usize, to: usize) -> Option<usize> {
    let mut at = from;
    while let Some(newline) = text[at..to].find('\n') {
        let line_start = at + newline + 1;
        if line_start > to {
            return None;
        }
        if line_start == text.len() || text.as_bytes()[line_start] == b'\n' {
            return Some(line_start);
        }
        at = line_start;
    }
    None
}

#[cfg(test)]
mod tests;
