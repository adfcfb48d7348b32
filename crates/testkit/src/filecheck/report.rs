//! Failure messages in FileCheck's spirit: which check line failed and why,
//! what it looked for (with variable values), and numbered input lines
//! around the place where scanning stopped, with a marker.

use std::fmt::Write as _;
use std::ops::Range;

use super::pattern::UndefinedVariable;
use super::{Check, CheckFailure, Run};

/// Input lines shown before and after the marked line.
const CONTEXT_BEFORE: usize = 1;
const CONTEXT_AFTER: usize = 3;

impl Run<'_> {
    pub(super) fn not_found(&mut self, check: &Check, from: usize) {
        let mut out = self.headline(check, "expected string not found in input");
        let from = skip_blank(self.input, from);
        self.note(&mut out, "scanning from here", from..from);
        self.push(check, "expected string not found in input", out);
    }

    pub(super) fn undefined(&mut self, check: &Check, from: usize, undefined: UndefinedVariable) {
        let summary = format!("uses undefined variable '{}'", undefined.0);
        let mut out = self.headline(check, &summary);
        self.note(&mut out, "scanning from here", from..from);
        self.push(check, &summary, out);
    }

    pub(super) fn excluded_found(&mut self, check: &Check, found: Range<usize>) {
        let summary = "excluded string found in input";
        let mut out = self.headline(check, summary);
        let _ = writeln!(out, "  found: {:?}", &self.input[found.clone()]);
        self.note(&mut out, "found here", found);
        self.push(check, summary, out);
    }

    pub(super) fn line_rule_failed(
        &mut self,
        check: &Check,
        summary: &str,
        skipped: Range<usize>,
        matched: &Range<usize>,
    ) {
        let mut out = self.headline(check, summary);
        let label = if check.kind == super::CheckKind::Same {
            "'same' match was here"
        } else {
            "'next' match was here"
        };
        self.note(&mut out, label, matched.clone());
        self.note(
            &mut out,
            "previous match ended here",
            skipped.start..skipped.start,
        );
        self.push(check, summary, out);
    }

    fn push(&mut self, check: &Check, summary: &str, rendered: String) {
        self.failures.push(CheckFailure {
            line: check.line,
            directive: check.directive(),
            summary: summary.to_string(),
            rendered,
        });
    }

    /// `file:line: error: P-KIND: summary`, the check line, and the regex it
    /// searched for with the variables it used.
    fn headline(&self, check: &Check, summary: &str) -> String {
        let directive = check.directive();
        let mut out = format!(
            "{}:{}: error: {directive}: {summary}\n  {directive}: {}\n",
            self.file.name, check.line, check.text
        );
        if check.kind == super::CheckKind::Empty {
            let _ = writeln!(
                out,
                "  looked for: an empty line right after the previous match"
            );
            return out;
        }
        if let Ok(regex) = check.pattern.regex_text(&self.vars) {
            let _ = writeln!(out, "  looked for (regex): {regex}");
        }
        for name in check.pattern.used_names() {
            match self.vars.get(name) {
                Some(value) => {
                    let _ = writeln!(out, "  with [[{name}]] = {value:?}");
                }
                None => {
                    let _ = writeln!(out, "  with [[{name}]] undefined");
                }
            }
        }
        out
    }

    /// `input:line:col: note: label` and the numbered lines around `at`.
    fn note(&self, out: &mut String, label: &str, at: Range<usize>) {
        let (line, col) = line_col(self.input, at.start);
        let _ = writeln!(out, "{}:{line}:{col}: note: {label}", self.input_name);
        out.push_str(&excerpt(self.input, at));
    }
}

/// FileCheck points "scanning from here" at the first non-blank character.
fn skip_blank(text: &str, from: usize) -> usize {
    text[from..]
        .find(|c: char| !c.is_whitespace())
        .map_or(text.len(), |at| from + at)
}

/// 1-based line and character column of byte offset `at`.
fn line_col(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, text[line_start..at].chars().count() + 1)
}

/// Numbered input lines around `at`, the line holding `at.start` marked
/// with `>` and underlined from its column (`^~~~` over the range).
pub(super) fn excerpt(text: &str, at: Range<usize>) -> String {
    let (line, col) = line_col(text, at.start);
    let lines: Vec<&str> = text.split('\n').collect();
    let first = line.saturating_sub(CONTEXT_BEFORE).max(1);
    let last = (line + CONTEXT_AFTER).min(lines.len());
    let width = last.to_string().len();
    let mut out = String::new();
    for number in first..=last {
        let marker = if number == line { '>' } else { ' ' };
        let _ = writeln!(out, "  {marker} {number:>width$} | {}", lines[number - 1]);
        if number == line {
            let end_in_line = at.end.min(
                text[at.start..]
                    .find('\n')
                    .map_or(text.len(), |i| at.start + i),
            );
            let length = text[at.start..end_in_line.max(at.start)].chars().count();
            let underline = format!("^{}", "~".repeat(length.saturating_sub(1)));
            let _ = writeln!(
                out,
                "    {:width$} | {}{underline}",
                "",
                " ".repeat(col - 1)
            );
        }
    }
    if line > lines.len() {
        let _ = writeln!(out, "  > (end of input)");
    }
    out
}
