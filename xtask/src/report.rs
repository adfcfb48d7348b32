//! The suite's results for CI systems: `--format json` (one object per
//! directive) and `--format junit` (JUnit XML: a test suite per file, a test
//! case per directive, failures with their reasons).

use legalis_testkit::runner::{Record, Status, Summary};

/// How `cargo xtask test legalize` reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    #[default]
    Text,
    Json,
    Junit,
}

impl Format {
    pub fn from_name(name: &str) -> Option<Format> {
        match name {
            "text" => Some(Format::Text),
            "json" => Some(Format::Json),
            "junit" => Some(Format::Junit),
            _ => None,
        }
    }
}

fn status_name(status: Status) -> &'static str {
    match status {
        Status::Pass => "pass",
        Status::Fail => "fail",
        Status::Skip => "skip",
    }
}

/// `{"summary": {...}, "results": [{file, line, number, directive, status,
/// reasons, notes, output}]}`.
pub fn json(summary: &Summary, records: &[Record]) -> String {
    let results: Vec<serde_json::Value> = records
        .iter()
        .map(|r| {
            serde_json::json!({
                "file": r.file,
                "line": r.line,
                "number": r.number,
                "directive": r.directive,
                "status": status_name(r.status),
                "reasons": r.reasons,
                "notes": r.notes,
                "output": r.output,
            })
        })
        .collect();
    let value = serde_json::json!({
        "summary": {
            "passed": summary.passed,
            "failed": summary.failed,
            "skipped": summary.skipped,
        },
        "results": results,
    });
    serde_json::to_string_pretty(&value).expect("JSON values serialize") + "\n"
}

/// JUnit XML, one `<testsuite>` per test file.
pub fn junit(summary: &Summary, records: &[Record]) -> String {
    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let total = summary.passed + summary.failed + summary.skipped;
    xml += &format!(
        "<testsuites name=\"legalize\" tests=\"{total}\" failures=\"{}\" skipped=\"{}\">\n",
        summary.failed, summary.skipped
    );
    let mut files: Vec<&str> = records.iter().map(|r| r.file.as_str()).collect();
    files.dedup();
    for file in files {
        let cases: Vec<&Record> = records.iter().filter(|r| r.file == file).collect();
        let count = |s| cases.iter().filter(|r| r.status == s).count();
        xml += &format!(
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" skipped=\"{}\">\n",
            escape(file),
            cases.len(),
            count(Status::Fail),
            count(Status::Skip)
        );
        for case in cases {
            xml += &testcase(case);
        }
        xml += "  </testsuite>\n";
    }
    xml + "</testsuites>\n"
}

fn testcase(record: &Record) -> String {
    let name = format!("{}:{} {}", record.file, record.line, record.directive);
    let mut xml = format!(
        "    <testcase classname=\"{}\" name=\"{}\"",
        escape(&record.file),
        escape(&name)
    );
    let reasons = escape(&record.reasons.join("\n"));
    match record.status {
        Status::Pass => xml += "/>\n",
        Status::Skip => {
            xml += &format!(">\n      <skipped message=\"{reasons}\"/>\n    </testcase>\n")
        }
        Status::Fail => {
            let first = escape(
                record
                    .reasons
                    .first()
                    .map_or("failed", |r| r.lines().next().unwrap_or("failed")),
            );
            xml += &format!(
                ">\n      <failure message=\"{first}\">{reasons}</failure>\n    </testcase>\n"
            );
        }
    }
    xml
}

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\n' | '\t' => out.push(ch),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn records() -> Vec<Record> {
        let record = |line, status, reasons: &[&str]| Record {
            file: "tests/legalize/a.slang".into(),
            line,
            number: 1,
            directive: "//TEST:SIMPLE(filecheck=GLSL):-target glsl".into(),
            status,
            reasons: reasons.iter().map(ToString::to_string).collect(),
            output: Some("out <x>\n".into()),
            notes: Vec::new(),
        };
        vec![
            record(3, Status::Pass, &[]),
            record(9, Status::Fail, &["expected \"a\" & <b>"]),
        ]
    }

    #[test]
    fn junit_reports_a_failure_with_escaped_reasons() {
        let summary = Summary {
            passed: 1,
            failed: 1,
            skipped: 0,
        };
        let xml = junit(&summary, &records());
        assert!(
            xml.contains("<testsuites name=\"legalize\" tests=\"2\" failures=\"1\" skipped=\"0\">"),
            "{xml}"
        );
        assert!(
            xml.contains("<failure message=\"expected &quot;a&quot; &amp; &lt;b&gt;\">"),
            "{xml}"
        );
        assert_eq!(xml.matches("<testcase ").count(), 2);
    }

    #[test]
    fn json_carries_status_and_output() {
        let summary = Summary {
            passed: 1,
            failed: 1,
            skipped: 0,
        };
        let value: serde_json::Value = serde_json::from_str(&json(&summary, &records())).unwrap();
        assert_eq!(value["summary"]["failed"], 1);
        assert_eq!(value["results"][1]["status"], "fail");
        assert_eq!(value["results"][0]["output"], "out <x>\n");
    }
}
