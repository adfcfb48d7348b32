//! Machine-readable diagnostics and caret matching.
//!
//! Both compilers print, under `-enable-machine-readable-diagnostics`, one
//! tab-separated record per diagnostic and one per label:
//! `E<code>\t<severity|span>\t<file>\t<line>\t<col>\t<end line>\t<end col>\t<message>`
//! (1-based, columns in characters, the end just past the span). A caret
//! annotation matches a diagnostic when one of its locations (the primary
//! one or a label's) lies on the annotated line with exactly the carets'
//! columns, and the annotation's text is a substring of that record's
//! message or of the diagnostic's message. With `exhaustive`, every error
//! and warning must be matched; notes may be left unannotated.

use std::fmt::Write as _;

use crate::directives::Annotation;

/// One location record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    pub file: String,
    pub line: usize,
    pub col: usize,
    pub end_line: usize,
    pub end_col: usize,
    pub message: String,
}

/// A diagnostic with its primary location and its labels.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub code: String,
    pub severity: String,
    pub primary: Location,
    pub labels: Vec<Location>,
}

/// Reads every machine-readable record in `text`; other lines are
/// returned separately so a report can show them.
pub fn parse(text: &str) -> (Vec<Diagnostic>, Vec<String>) {
    let mut diagnostics: Vec<Diagnostic> = Vec::new();
    let mut other = Vec::new();
    for line in text.lines() {
        let Some((code, severity, location)) = record(line) else {
            if !line.trim().is_empty() {
                other.push(line.to_string());
            }
            continue;
        };
        match diagnostics.last_mut() {
            Some(last) if severity == "span" && last.code == code => last.labels.push(location),
            _ => diagnostics.push(Diagnostic {
                code: code.to_string(),
                severity: severity.to_string(),
                primary: location,
                labels: Vec::new(),
            }),
        }
    }
    (diagnostics, other)
}

fn record(line: &str) -> Option<(&str, &str, Location)> {
    let fields: Vec<&str> = line.trim_end_matches('\r').splitn(8, '\t').collect();
    let [code, severity, file, line, col, end_line, end_col, message] = fields[..] else {
        return None;
    };
    let is_code =
        code.len() > 1 && code.starts_with('E') && code[1..].bytes().all(|b| b.is_ascii_digit());
    if !is_code {
        return None;
    }
    let number = |text: &str| text.parse::<usize>().ok();
    let location = Location {
        file: file.to_string(),
        line: number(line)?,
        col: number(col)?,
        end_line: number(end_line)?,
        end_col: number(end_col)?,
        message: message.to_string(),
    };
    Some((code, severity, location))
}

impl Diagnostic {
    fn locations(&self) -> impl Iterator<Item = &Location> {
        std::iter::once(&self.primary).chain(&self.labels)
    }

    fn one_line(&self) -> String {
        let at = &self.primary;
        format!(
            "{}[{}] at {}:{}:{}-{}:{}: {}",
            self.severity, self.code, at.file, at.line, at.col, at.end_line, at.end_col, at.message
        )
    }
}

/// Does the annotation point at `location` in `file_name`, with its text?
fn matches(
    annotation: &Annotation,
    diagnostic: &Diagnostic,
    location: &Location,
    file_name: &str,
) -> bool {
    let same_file = std::path::Path::new(&location.file)
        .file_name()
        .is_some_and(|name| name == file_name);
    let width = location.end_col.saturating_sub(location.col).max(1);
    same_file
        && location.line == annotation.target_line
        && location.end_line == annotation.target_line
        && location.col == annotation.column
        && width == annotation.width
        && (location.message.contains(&annotation.message)
            || diagnostic.primary.message.contains(&annotation.message))
}

/// Matches `annotations` against `diagnostics` of the test file named
/// `file_name`; on failure, a report listing every unmatched annotation and
/// (when exhaustive) every unmatched error or warning.
pub fn check(
    test_path: &str,
    file_name: &str,
    annotations: &[&Annotation],
    diagnostics: &[Diagnostic],
    exhaustive: bool,
) -> Result<(), String> {
    let mut used = vec![false; diagnostics.len()];
    let mut report = String::new();
    for annotation in annotations {
        let found = diagnostics.iter().enumerate().find(|(at, d)| {
            !used[*at] && d.locations().any(|l| matches(annotation, d, l, file_name))
        });
        match found {
            Some((at, _)) => used[at] = true,
            None => unmatched_annotation(&mut report, test_path, annotation, diagnostics),
        }
    }
    if exhaustive {
        for (diagnostic, used) in diagnostics.iter().zip(&used) {
            if !used && diagnostic.severity != "note" {
                let _ = writeln!(
                    report,
                    "unexpected diagnostic (no annotation): {}",
                    diagnostic.one_line()
                );
            }
        }
    }
    if report.is_empty() {
        Ok(())
    } else {
        Err(report)
    }
}

fn unmatched_annotation(
    report: &mut String,
    path: &str,
    annotation: &Annotation,
    diagnostics: &[Diagnostic],
) {
    let _ = writeln!(
        report,
        "{path}:{}: no diagnostic matches the annotation: line {}, columns {}..{}, message containing {:?}",
        annotation.line,
        annotation.target_line,
        annotation.column,
        annotation.column + annotation.width,
        annotation.message
    );
    let near: Vec<&Diagnostic> = diagnostics
        .iter()
        .filter(|d| d.locations().any(|l| l.line == annotation.target_line))
        .collect();
    let shown = if near.is_empty() {
        diagnostics.iter().collect()
    } else {
        near
    };
    if shown.is_empty() {
        let _ = writeln!(report, "  the compiler reported no diagnostics");
    }
    for diagnostic in shown {
        let _ = writeln!(report, "  reported: {}", diagnostic.one_line());
        for label in &diagnostic.labels {
            let _ = writeln!(
                report,
                "    label at {}:{}-{}:{}: {}",
                label.line, label.col, label.end_line, label.end_col, label.message
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOGUS: &str = "E49999\terror\tbogus.slang\t4\t12\t4\t13\tunknown system-value semantic\n\
                         E49999\tspan\tbogus.slang\t4\t12\t4\t13\tunknown system-value semantic 'SV_Bogus'\n";

    fn annotation(target_line: usize, column: usize, width: usize, message: &str) -> Annotation {
        Annotation {
            prefix: "CHECK".into(),
            line: target_line + 1,
            target_line,
            column,
            width,
            message: message.into(),
        }
    }

    fn run(annotations: &[Annotation], text: &str, exhaustive: bool) -> Result<(), String> {
        let (diagnostics, _) = parse(text);
        let refs: Vec<&Annotation> = annotations.iter().collect();
        check(
            "t/bogus.slang",
            "bogus.slang",
            &refs,
            &diagnostics,
            exhaustive,
        )
    }

    #[test]
    fn parses_records_and_groups_labels() {
        let (diagnostics, other) = parse(&format!("noise\n{BOGUS}"));
        assert_eq!(other, ["noise"]);
        assert_eq!(diagnostics.len(), 1);
        let d = &diagnostics[0];
        assert_eq!((d.code.as_str(), d.severity.as_str()), ("E49999", "error"));
        assert_eq!(
            (d.primary.line, d.primary.col, d.primary.end_col),
            (4, 12, 13)
        );
        assert_eq!(
            d.labels[0].message,
            "unknown system-value semantic 'SV_Bogus'"
        );
    }

    #[test]
    fn message_may_contain_tabs_in_the_last_field() {
        let (diagnostics, _) = parse("E1\terror\tf\t1\t1\t1\t2\ta\tb\n");
        assert_eq!(diagnostics[0].primary.message, "a\tb");
    }

    #[test]
    fn matching_annotation_passes() {
        assert_eq!(
            run(&[annotation(4, 12, 1, "'SV_Bogus'")], BOGUS, true),
            Ok(())
        );
        assert_eq!(run(&[annotation(4, 12, 1, "")], BOGUS, true), Ok(()));
    }

    #[test]
    fn wrong_column_width_line_or_text_fails() {
        for wrong in [
            annotation(4, 11, 1, ""),
            annotation(4, 12, 2, ""),
            annotation(5, 12, 1, ""),
            annotation(4, 12, 1, "SV_Other"),
        ] {
            let report = run(&[wrong], BOGUS, false).unwrap_err();
            assert!(report.contains("t/bogus.slang:"), "{report}");
            assert!(report.contains("no diagnostic matches"), "{report}");
            assert!(
                report.contains("reported: error[E49999] at bogus.slang:4:12-4:13"),
                "{report}"
            );
        }
    }

    #[test]
    fn exhaustive_requires_every_error_annotated() {
        let report = run(&[], BOGUS, true).unwrap_err();
        assert!(
            report.contains("unexpected diagnostic (no annotation): error[E49999]"),
            "{report}"
        );
        assert_eq!(run(&[], BOGUS, false), Ok(()));
        assert_eq!(
            run(&[], "E1\tnote\tbogus.slang\t1\t1\t1\t2\tsee here\n", true),
            Ok(())
        );
    }

    #[test]
    fn one_diagnostic_satisfies_one_annotation() {
        let twice = [annotation(4, 12, 1, ""), annotation(4, 12, 1, "")];
        assert!(run(&twice, BOGUS, false).is_err());
    }

    #[test]
    fn zero_width_spans_take_one_caret() {
        assert_eq!(
            run(
                &[annotation(1, 5, 1, "")],
                "E2\terror\tbogus.slang\t1\t5\t1\t5\texpected ;\n",
                true
            ),
            Ok(())
        );
    }

    #[test]
    fn other_files_do_not_match() {
        let other = "E1\terror\tinclude.slang\t4\t12\t4\t13\tm\n";
        assert!(run(&[annotation(4, 12, 1, "")], other, false).is_err());
    }

    #[test]
    fn no_diagnostics_is_said() {
        let report = run(&[annotation(4, 12, 1, "")], "", true).unwrap_err();
        assert!(
            report.contains("the compiler reported no diagnostics"),
            "{report}"
        );
    }
}
