//! Diagnostics as text: codespan-rendered for people, tab-separated for
//! machines.
//!
//! The machine form is the one the reference compiler prints under
//! `-enable-machine-readable-diagnostics`, so a test harness can read either
//! compiler's output. Spans come from many producers and may be stale,
//! reversed or past the end of the text; both renderers clamp them instead of
//! trusting them, and never panic.

use std::fmt::Write as _;
use std::ops::Range;

use codespan_reporting::diagnostic as cs;
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term;
use legalis_ir::Span;
use legalis_ir::diag::{Diagnostic, Severity};

/// Renders `diagnostics` rustc-style (`error[E30001]: message`, ` --> file:line:col`,
/// the source line and carets), with ANSI colours when `color` is set.
pub fn render_human(path: &str, text: &str, diagnostics: &[Diagnostic], color: bool) -> String {
    let file = SimpleFile::new(path, text);
    let config = term::Config {
        chars: term::Chars::ascii(),
        ..term::Config::default()
    };
    let mut out = String::new();
    for diagnostic in diagnostics {
        let rendered = to_codespan(diagnostic, text);
        match emit(&config, &file, &rendered, color) {
            Some(text) => out.push_str(&text),
            // Clamping should leave codespan nothing to reject; if it still
            // does, the header alone keeps the diagnostic visible.
            None => {
                let _ = writeln!(
                    out,
                    "{}[{}]: {}",
                    diagnostic.severity.as_str(),
                    diagnostic.code_str(),
                    diagnostic.message
                );
            }
        }
    }
    out
}

fn emit(
    config: &term::Config,
    file: &SimpleFile<&str, &str>,
    diagnostic: &cs::Diagnostic<()>,
    color: bool,
) -> Option<String> {
    if !color {
        return term::emit_into_string(config, file, diagnostic).ok();
    }
    let mut buffer = term::termcolor::Buffer::ansi();
    term::emit_to_write_style(&mut buffer, config, file, diagnostic).ok()?;
    Some(String::from_utf8_lossy(buffer.as_slice()).into_owned())
}

/// The first label with a usable span is primary; labels without one keep
/// their message as a note so nothing said is lost.
fn to_codespan(diagnostic: &Diagnostic, text: &str) -> cs::Diagnostic<()> {
    let severity = match diagnostic.severity {
        Severity::Warning => cs::Severity::Warning,
        Severity::Error => cs::Severity::Error,
    };
    let mut labels: Vec<cs::Label<()>> = Vec::new();
    let mut notes = Vec::new();
    for label in &diagnostic.labels {
        match clamp(label.span, text) {
            Some(range) if labels.is_empty() => {
                labels.push(cs::Label::primary((), range).with_message(&label.message));
            }
            Some(range) => {
                labels.push(cs::Label::secondary((), range).with_message(&label.message));
            }
            None if !label.message.is_empty() => notes.push(label.message.clone()),
            None => {}
        }
    }
    notes.extend(diagnostic.notes.iter().cloned());
    cs::Diagnostic::new(severity)
        .with_code(diagnostic.code_str())
        .with_message(&diagnostic.message)
        .with_labels(labels)
        .with_notes(notes)
}

/// Renders one line per diagnostic and one per label:
/// `E<code>\t<severity or span>\t<file>\t<line>\t<col>\t<end line>\t<end col>\t<message>`.
///
/// Lines and columns are 1-based, columns count characters, and the end is
/// the position just past the span, as the reference prints them. A
/// diagnostic without a location prints an empty file and zeros.
pub fn render_machine(path: &str, text: &str, diagnostics: &[Diagnostic]) -> String {
    let lines = LineIndex::new(text);
    let path = one_field(path);
    let mut out = String::new();
    for diagnostic in diagnostics {
        let code = diagnostic.code_str();
        let location = |span| match clamp(span, text) {
            Some(range) => {
                let (line, col) = lines.line_col(text, range.start);
                let (end_line, end_col) = lines.line_col(text, range.end);
                format!("{path}\t{line}\t{col}\t{end_line}\t{end_col}")
            }
            None => "\t0\t0\t0\t0".to_string(),
        };
        let severity = diagnostic.severity.as_str();
        let primary = location(diagnostic.primary_span());
        let message = one_field(&diagnostic.message);
        let _ = writeln!(out, "{code}\t{severity}\t{primary}\t{message}");
        for label in &diagnostic.labels {
            let message = match label.message.as_str() {
                "" => &diagnostic.message,
                text => text,
            };
            let message = one_field(message);
            let _ = writeln!(out, "{code}\tspan\t{}\t{message}", location(label.span));
        }
    }
    out
}

/// A field of the tab-separated form: tabs and line breaks would split it.
fn one_field(text: &str) -> String {
    text.replace(['\t', '\n', '\r'], " ")
}

/// The span as a byte range inside `text` on character boundaries, widened
/// to whole characters and cut at the end of the text; `None` for
/// `Span::UNDEFINED`.
fn clamp(span: Span, text: &str) -> Option<Range<usize>> {
    if !span.is_defined() {
        return None;
    }
    let mut start = (span.start as usize).min(text.len());
    let mut end = (span.end as usize).clamp(start, text.len());
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    while !text.is_char_boundary(end) {
        end += 1;
    }
    Some(start..end)
}

/// Byte offsets of line starts, so each position costs a binary search
/// rather than a scan from the top of the file.
struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    fn new(text: &str) -> Self {
        let newlines = text.match_indices('\n').map(|(at, _)| at + 1);
        LineIndex {
            starts: std::iter::once(0).chain(newlines).collect(),
        }
    }

    /// 1-based line and character column of `offset`, a char boundary.
    fn line_col(&self, text: &str, offset: usize) -> (usize, usize) {
        let line = self.starts.partition_point(|&start| start <= offset);
        let start = self.starts[line - 1];
        (line, text[start..offset].chars().count() + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn undefined_name(span: Span) -> Diagnostic {
        Diagnostic::error(30001, "undefined name", span)
            .with_primary_message("`foo` is not defined")
    }

    #[test]
    fn human_form_is_rustc_like() {
        let text = "float4 main() {\n    return foo;\n}\n";
        let out = render_human("f.slang", text, &[undefined_name(Span::new(27, 30))], false);
        assert!(out.starts_with("error[E30001]: undefined name\n"), "{out}");
        assert!(out.contains("--> f.slang:2:12\n"), "{out}");
        assert!(out.contains("2 |     return foo;\n"), "{out}");
        assert!(out.contains("^^^ `foo` is not defined"), "{out}");
    }

    #[test]
    fn warnings_render_as_warnings() {
        let warning = Diagnostic::warning(31000, "unknown attribute", Span::new(0, 1));
        let out = render_human("f.slang", "x", &[warning], false);
        assert!(
            out.starts_with("warning[E31000]: unknown attribute\n"),
            "{out}"
        );
    }

    #[test]
    fn colour_only_when_asked() {
        let diagnostics = [undefined_name(Span::new(0, 1))];
        assert!(!render_human("f", "x", &diagnostics, false).contains('\x1b'));
        assert!(render_human("f", "x", &diagnostics, true).contains('\x1b'));
    }

    #[test]
    fn undefined_span_renders_without_snippet() {
        let diagnostic = Diagnostic::error(1, "cannot read f", Span::UNDEFINED);
        let human = render_human("f", "text", std::slice::from_ref(&diagnostic), false);
        assert_eq!(human.trim_end(), "error[E00001]: cannot read f");
        let machine = render_machine("f", "text", &[diagnostic]);
        assert_eq!(
            machine,
            "E00001\terror\t\t0\t0\t0\t0\tcannot read f\nE00001\tspan\t\t0\t0\t0\t0\tcannot read f\n"
        );
    }

    #[test]
    fn machine_form_counts_characters_and_ends_past_the_span() {
        let text = "int a;\n\t/* é */ foo;\n";
        let out = render_machine("f.slang", text, &[undefined_name(Span::new(17, 20))]);
        assert_eq!(
            out,
            "E30001\terror\tf.slang\t2\t10\t2\t13\tundefined name\n\
             E30001\tspan\tf.slang\t2\t10\t2\t13\t`foo` is not defined\n"
        );
    }

    #[test]
    fn machine_form_keeps_each_record_on_one_line() {
        let diagnostic = Diagnostic::error(20001, "expected `;`\tfound\nend", Span::new(0, 0));
        let out = render_machine("a\tb.slang", "", &[diagnostic]);
        assert_eq!(out.lines().count(), 2);
        assert!(
            out.lines().all(|line| line.split('\t').count() == 8),
            "{out}"
        );
    }

    /// Every span a producer could hand over, against texts with multi-byte
    /// characters, CRLF, no trailing newline and nothing at all.
    #[test]
    fn no_span_panics() {
        let texts = ["", "a", "é\r\nx", "ab\n\ncd", "日本\n語\n"];
        for text in texts {
            let limit = text.len() as u32 + 3;
            for start in (0..limit).chain([u32::MAX - 1, u32::MAX]) {
                for end in (0..limit).chain([u32::MAX - 1, u32::MAX]) {
                    let diagnostic = undefined_name(Span::new(start, end))
                        .with_label(Span::new(end, start), "")
                        .with_note("a note");
                    let diagnostics = [diagnostic];
                    let human = render_human("f", text, &diagnostics, false);
                    assert!(human.starts_with("error[E30001]"), "{human}");
                    assert_eq!(render_machine("f", text, &diagnostics).lines().count(), 3);
                }
            }
        }
    }
}
