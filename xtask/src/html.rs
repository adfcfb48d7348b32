//! The HTML reports a reviewer opens from a CI artifact: `drift --html
//! FILE` and `coverage legalize --html DIR`.
//!
//! Each report is one self-contained page: inline CSS, no script, no
//! external fetch, nothing that depends on the date or the machine, so the
//! same review renders the same bytes. Every piece of text from outside
//! (outputs, commit subjects, directives, paths) goes through `escape`.
//!
//! A drift report has the revisions, the commits since the baseline that
//! touched the watched paths, a table of every directive with what happened
//! to its output, and per changed output a side-by-side diff (`side_by_side`:
//! baseline left, head right, both numbered, changed lines coloured and the
//! changed words within a line marked). A coverage report has per-crate
//! totals against the floors and a per-function table.

use crate::coverage::{self, FnCoverage};
use crate::drift::{Change, Review, State};
use crate::readme::CodeRef;
use crate::suite;

/// Unchanged lines kept around each change, as in the unified diff.
const CONTEXT: usize = 3;

/// `text` safe inside an element or a double- or single-quoted attribute.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// One row of a side-by-side diff; line numbers are 1-based.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Row {
    /// The same line on both sides.
    Same {
        old: usize,
        new: usize,
        text: String,
    },
    /// A baseline line and the head line that took its place.
    Changed {
        old: usize,
        new: usize,
        old_text: String,
        new_text: String,
    },
    /// A baseline line with nothing in its place.
    Deleted { old: usize, text: String },
    /// A head line with nothing before it.
    Inserted { new: usize, text: String },
    /// Unchanged lines left out between hunks.
    Skipped { lines: usize },
}

/// The rows of a side-by-side diff of `old` and `new` with `context`
/// unchanged lines around each change. A replaced block pairs its lines in
/// order; what one side has more of is a deletion or an insertion.
pub fn side_by_side(old: &str, new: &str, context: usize) -> Vec<Row> {
    let diff = similar::TextDiff::from_lines(old, new);
    let old_lines: Vec<String> = diff.iter_old_slices().map(line_text).collect();
    let new_lines: Vec<String> = diff.iter_new_slices().map(line_text).collect();
    let mut rows = Vec::new();
    let mut next_old = 0;
    for group in diff.grouped_ops(context) {
        let Some(first) = group.first() else {
            continue;
        };
        let start = first.old_range().start;
        if start > next_old {
            rows.push(Row::Skipped {
                lines: start - next_old,
            });
        }
        for op in &group {
            let (tag, olds, news) = op.as_tag_tuple();
            match tag {
                similar::DiffTag::Equal => {
                    for (o, n) in olds.clone().zip(news) {
                        rows.push(Row::Same {
                            old: o + 1,
                            new: n + 1,
                            text: old_lines[o].clone(),
                        });
                    }
                }
                similar::DiffTag::Delete | similar::DiffTag::Insert | similar::DiffTag::Replace => {
                    let paired = olds.len().min(news.len());
                    for (o, n) in olds.clone().zip(news.clone()) {
                        rows.push(Row::Changed {
                            old: o + 1,
                            new: n + 1,
                            old_text: old_lines[o].clone(),
                            new_text: new_lines[n].clone(),
                        });
                    }
                    for o in olds.clone().skip(paired) {
                        rows.push(Row::Deleted {
                            old: o + 1,
                            text: old_lines[o].clone(),
                        });
                    }
                    for n in news.clone().skip(paired) {
                        rows.push(Row::Inserted {
                            new: n + 1,
                            text: new_lines[n].clone(),
                        });
                    }
                }
            }
            next_old = olds.end;
        }
    }
    if old_lines.len() > next_old {
        rows.push(Row::Skipped {
            lines: old_lines.len() - next_old,
        });
    }
    rows
}

fn line_text(line: &str) -> String {
    line.strip_suffix('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .unwrap_or(line)
        .to_string()
}

/// A changed line pair with the words that differ wrapped in
/// `<span class="x">` (one span per run of them, spaces between two changed
/// words included), escaped: (baseline cell, head cell). Lines that have
/// less than half in common are different lines, not edited ones: nothing
/// is marked in them.
fn word_diff(old: &str, new: &str) -> (String, String) {
    let diff = similar::TextDiff::from_words(old, new);
    if diff.ratio() < 0.5 {
        return (escape(old), escape(new));
    }
    let (mut left, mut right) = (Vec::new(), Vec::new());
    for op in diff.ops() {
        for change in diff.iter_changes(op) {
            let text = change.value();
            match change.tag() {
                similar::ChangeTag::Equal => {
                    left.push((false, text));
                    right.push((false, text));
                }
                similar::ChangeTag::Delete => left.push((true, text)),
                similar::ChangeTag::Insert => right.push((true, text)),
            }
        }
    }
    (marked(&left), marked(&right))
}

/// Escaped pieces, each run of marked ones in one span.
fn marked(pieces: &[(bool, &str)]) -> String {
    let mut pieces = pieces.to_vec();
    for at in 1..pieces.len().saturating_sub(1) {
        if !pieces[at].0 && pieces[at].1.trim().is_empty() && pieces[at - 1].0 && pieces[at + 1].0 {
            pieces[at].0 = true;
        }
    }
    let mut out = String::new();
    for run in pieces.chunk_by(|a, b| a.0 == b.0) {
        let text: String = run.iter().map(|piece| escape(piece.1)).collect();
        if run[0].0 {
            out += &format!("<span class=\"x\">{text}</span>");
        } else {
            out += &text;
        }
    }
    out
}

/// The `<table class="diff">` of one change.
pub fn diff_table(old: &str, new: &str) -> String {
    let mut out = String::from(
        "<table class=\"diff\">\n<colgroup><col class=\"n\"><col class=\"t\"><col class=\"n\"><col class=\"t\"></colgroup>\n\
         <thead><tr><th colspan=\"2\">baseline</th><th colspan=\"2\">head</th></tr></thead>\n<tbody>\n",
    );
    for row in side_by_side(old, new, CONTEXT) {
        out += &match row {
            Row::Same { old, new, text } => {
                let text = escape(&text);
                format!(
                    "<tr class=\"same\"><td class=\"ln\">{old}</td><td>{text}</td><td class=\"ln\">{new}</td><td>{text}</td></tr>\n"
                )
            }
            Row::Changed {
                old,
                new,
                old_text,
                new_text,
            } => {
                let (left, right) = word_diff(&old_text, &new_text);
                format!(
                    "<tr class=\"changed\"><td class=\"ln\">{old}</td><td class=\"del\">{left}</td><td class=\"ln\">{new}</td><td class=\"ins\">{right}</td></tr>\n"
                )
            }
            Row::Deleted { old, text } => format!(
                "<tr class=\"deleted\"><td class=\"ln\">{old}</td><td class=\"del\">{}</td><td class=\"ln\"></td><td class=\"none\"></td></tr>\n",
                escape(&text)
            ),
            Row::Inserted { new, text } => format!(
                "<tr class=\"inserted\"><td class=\"ln\"></td><td class=\"none\"></td><td class=\"ln\">{new}</td><td class=\"ins\">{}</td></tr>\n",
                escape(&text)
            ),
            Row::Skipped { lines } => format!(
                "<tr class=\"skipped\"><td colspan=\"4\">⋯ {lines} unchanged line{}</td></tr>\n",
                if lines == 1 { "" } else { "s" }
            ),
        };
    }
    out + "</tbody>\n</table>\n"
}

const STYLE: &str = "\
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #1f2328; }
code, .diff td { font-family: ui-monospace, monospace; font-size: 0.85em; }
table { border-collapse: collapse; }
th, td { padding: 0.15em 0.5em; text-align: left; vertical-align: top; }
table.summary td, table.summary th, table.functions td, table.functions th, table.totals td, table.totals th { border: 1px solid #d0d7de; }
table.diff { width: 100%; table-layout: fixed; border: 1px solid #d0d7de; margin-bottom: 1.5em; }
table.diff col.n { width: 3.5em; }
table.diff td { white-space: pre-wrap; overflow-wrap: anywhere; }
table.diff td.ln { color: #6e7781; text-align: right; user-select: none; background: #f6f8fa; }
td.del { background: #ffebe9; }
td.ins { background: #dafbe1; }
td.del span.x { background: #ff8182; }
td.ins span.x { background: #4ac26b; }
td.none { background: #f6f8fa; }
tr.skipped td { color: #6e7781; background: #ddf4ff; text-align: center; }
.state-changed, .state-removed, p.under, td.under, tr.under td.cover, .unlisted { color: #cf222e; font-weight: 600; }
.state-new { color: #0969da; font-weight: 600; }
.state-unchanged, p.ok, td.ok, tr.full td.cover { color: #1a7f37; }
tr.under td { background: #ffebe9; }
tr.low td { background: #fff8c5; }
.gap { color: #6e7781; }
.verdict { font-size: 1.1em; font-weight: 600; }
";

fn page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n{body}</body>\n</html>\n",
        escape(title)
    )
}

fn short(commit: &str) -> &str {
    &commit[..12.min(commit.len())]
}

/// The drift report: revisions, commits, every directive, a diff per change.
pub fn drift_report(review: &Review) -> String {
    let mut body = String::from("<h1>Drift review</h1>\n");
    body += &format!(
        "<p class=\"revs\">Baseline <code>{}</code> (<code>{}</code>), head <code>{}</code>{}.</p>\n",
        escape(&review.baseline),
        escape(short(&review.baseline_commit)),
        escape(short(&review.head_commit)),
        if review.dirty {
            " with uncommitted changes to the watched paths"
        } else {
            ""
        }
    );
    body += &format!(
        "<p class=\"verdict {}\">{} output(s) changed, {} stale README reference(s).</p>\n",
        if review.drifted() { "under" } else { "ok" },
        review.changes.len(),
        review.stale.len()
    );
    body += &format!(
        "<h2>Commits since the baseline touching {} ({})</h2>\n",
        escape(&suite::WATCHED_PATHS.join(", ")),
        review.commits.len()
    );
    if review.commits.is_empty() {
        body += "<p>None.</p>\n";
    } else {
        body += "<ul class=\"commits\">\n";
        for commit in &review.commits {
            let (hash, subject) = commit.split_once(' ').unwrap_or((commit, ""));
            body += &format!(
                "<li><code>{}</code> {}</li>\n",
                escape(hash),
                escape(subject)
            );
        }
        body += "</ul>\n";
    }
    if !review.stale.is_empty() {
        body += "<h2>Stale README references</h2>\n<ul class=\"stale\">\n";
        for problem in &review.stale {
            body += &format!("<li>{}</li>\n", escape(&problem.to_string()));
        }
        body += "</ul>\n";
    }
    body += &format!(
        "<h2>Directives ({})</h2>\n<table class=\"summary\">\n<thead><tr><th>test</th><th>directive</th><th>output</th></tr></thead>\n<tbody>\n",
        review.outcomes.len()
    );
    for outcome in &review.outcomes {
        let test = match review.changes.iter().position(|c| c.test == outcome.test) {
            Some(at) => format!(
                "<a href=\"#change-{}\">{}</a>",
                at + 1,
                escape(&outcome.test)
            ),
            None => escape(&outcome.test),
        };
        let state = outcome.state.name();
        body += &format!(
            "<tr><td>{test}</td><td><code>{}</code></td><td class=\"state-{state}\">{state}</td></tr>\n",
            escape(&outcome.directive)
        );
    }
    body += "</tbody>\n</table>\n";
    if !review.changes.is_empty() {
        body += "<h2>Changed outputs</h2>\n";
    }
    for (at, change) in review.changes.iter().enumerate() {
        let state = review
            .outcomes
            .iter()
            .find(|o| o.test == change.test)
            .map_or(State::Changed, |o| o.state);
        body += &change_section(at + 1, change, state);
    }
    page(
        &format!(
            "Drift review: {} against {}",
            short(&review.head_commit),
            review.baseline
        ),
        &body,
    )
}

fn change_section(number: usize, change: &Change, state: State) -> String {
    // A directive on one side only has nothing on the other, not a placeholder.
    let (old, new) = match state {
        State::New => ("", change.head.as_str()),
        State::Removed => (change.baseline.as_str(), ""),
        State::Changed | State::Unchanged => (change.baseline.as_str(), change.head.as_str()),
    };
    let state = state.name();
    format!(
        "<section class=\"change\" id=\"change-{number}\">\n<h3>{} <span class=\"state-{state}\">{state}</span></h3>\n<p><code>{}</code></p>\n{}</section>\n",
        escape(&change.test),
        escape(&change.directive),
        diff_table(old, new)
    )
}

/// The coverage report: per-crate totals against the floors, then each
/// crate's functions with their uncovered lines, those listed as gaps
/// told apart from those no one has explained.
pub fn coverage_report(functions: &[FnCoverage], gaps: &[CodeRef], commit: Option<&str>) -> String {
    let mut body = String::from("<h1>Line coverage of the watched crates</h1>\n");
    if let Some(commit) = commit {
        body += &format!(
            "<p class=\"revs\">At <code>{}</code>.</p>\n",
            escape(short(commit))
        );
    }
    body += "<table class=\"totals\">\n<thead><tr><th>crate</th><th>lines</th><th>cover</th><th>floor</th></tr></thead>\n<tbody>\n";
    for (krate, floor) in coverage::FLOORS {
        let (covered, total, _) = coverage::crate_totals(functions, krate);
        let measured = coverage::percent(covered, total);
        let class = if measured < *floor { "under" } else { "ok" };
        body += &format!(
            "<tr class=\"{class}\"><td><a href=\"#{}\">{}</a></td><td>{covered}/{total}</td><td class=\"{class}\">{measured:.1}%</td><td>{floor:.1}%</td></tr>\n",
            anchor(krate),
            escape(krate)
        );
    }
    body += "</tbody>\n</table>\n";
    body += "<p>A function under its crate's floor is red, one under 100% yellow. \
             Uncovered lines listed under \u{201c}Unreachable gaps\u{201d} in the \
             bundle README are grey; the others, red, need a test or a listed reason.</p>\n";
    for (krate, floor) in coverage::FLOORS {
        let (covered, total, mine) = coverage::crate_totals(functions, krate);
        body += &format!(
            "<h2 id=\"{}\">{} \u{2014} {covered}/{total} lines, {:.1}% (floor {floor:.1}%)</h2>\n",
            anchor(krate),
            escape(krate),
            coverage::percent(covered, total)
        );
        body += "<table class=\"functions\">\n<thead><tr><th>function</th><th>line</th><th>lines</th><th>cover</th><th>uncovered lines</th></tr></thead>\n<tbody>\n";
        for function in mine {
            let measured = coverage::percent(function.covered(), function.lines.len());
            let class = if measured < *floor {
                "under"
            } else if function.covered() < function.lines.len() {
                "low"
            } else {
                "full"
            };
            let runs: Vec<String> = function
                .uncovered()
                .into_iter()
                .map(|(first, last)| {
                    let listed = coverage::listed_gap(function, first, last, gaps);
                    let shown = if first == last {
                        first.to_string()
                    } else {
                        format!("{first}\u{2013}{last}")
                    };
                    if listed {
                        format!(
                            "<span class=\"gap\" title=\"listed under Unreachable gaps\">{shown}</span>"
                        )
                    } else {
                        format!("<span class=\"unlisted\" title=\"not listed\">{shown}</span>")
                    }
                })
                .collect();
            body += &format!(
                "<tr class=\"{class}\"><td><code>{}::{}</code></td><td>{}</td><td>{}/{}</td><td class=\"cover\">{measured:.1}%</td><td>{}</td></tr>\n",
                escape(&function.file),
                escape(&function.name),
                function.start,
                function.covered(),
                function.lines.len(),
                runs.join(", ")
            );
        }
        body += "</tbody>\n</table>\n";
    }
    page("Line coverage of the watched crates", &body)
}

/// An `id` for a crate path: letters, digits and `-`.
fn anchor(path: &str) -> String {
    path.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::drift::Outcome;

    #[test]
    fn escape_covers_markup_and_both_quotes() {
        assert_eq!(
            escape("a < b && c > \"d\" 'e'"),
            "a &lt; b &amp;&amp; c &gt; &quot;d&quot; &#39;e&#39;"
        );
    }

    #[test]
    fn lines_with_little_in_common_mark_no_words() {
        let table = diff_table("--- stderr ---\n", "#version 450\n");
        assert!(
            table.contains("<td class=\"del\">--- stderr ---</td>"),
            "{table}"
        );
        assert!(!table.contains("class=\"x\""), "{table}");
    }

    #[test]
    fn a_replaced_block_pairs_lines_and_the_longer_side_inserts() {
        let old = "a\nb\nc\nd\n";
        let new = "a\nB\nC\nC2\nd\n";
        let rows = side_by_side(old, new, 3);
        let changed = |old: usize, new: usize, o: &str, n: &str| Row::Changed {
            old,
            new,
            old_text: o.into(),
            new_text: n.into(),
        };
        assert_eq!(
            rows,
            [
                Row::Same {
                    old: 1,
                    new: 1,
                    text: "a".into()
                },
                changed(2, 2, "b", "B"),
                changed(3, 3, "c", "C"),
                Row::Inserted {
                    new: 4,
                    text: "C2".into()
                },
                Row::Same {
                    old: 4,
                    new: 5,
                    text: "d".into()
                },
            ]
        );
    }

    #[test]
    fn a_deletion_leaves_the_head_side_empty_and_far_lines_are_skipped() {
        let old: String = (1..=12).map(|n| format!("l{n}\n")).collect();
        let new = old.replace("l6\n", "");
        let rows = side_by_side(&old, &new, 2);
        assert_eq!(rows[0], Row::Skipped { lines: 3 });
        assert_eq!(
            rows[3],
            Row::Deleted {
                old: 6,
                text: "l6".into()
            }
        );
        assert_eq!(
            rows[4],
            Row::Same {
                old: 7,
                new: 6,
                text: "l7".into()
            }
        );
        assert_eq!(rows.last(), Some(&Row::Skipped { lines: 4 }));
        assert_eq!(rows.len(), 7);
    }

    #[test]
    fn a_last_line_without_newline_is_compared_by_its_text() {
        let rows = side_by_side("x\ny", "x\nz\n", 3);
        assert_eq!(
            rows[1],
            Row::Changed {
                old: 2,
                new: 2,
                old_text: "y".into(),
                new_text: "z".into()
            }
        );
    }

    #[test]
    fn the_diff_table_escapes_outputs_and_marks_changed_words() {
        let table = diff_table("if (a < b) x;\n", "if (a <= b && c) x;\n");
        assert!(
            table.contains("<td class=\"del\">if (a <span class=\"x\">&lt; b)</span> x;</td>"),
            "{table}"
        );
        assert!(
            table.contains(
                "<td class=\"ins\">if (a <span class=\"x\">&lt;= b &amp;&amp; c)</span> x;</td>"
            ),
            "{table}"
        );
        assert!(!table.contains("a < b"), "{table}");
    }

    fn review() -> Review {
        Review {
            baseline: "main~2".into(),
            baseline_commit: "0123456789abcdef".into(),
            head_commit: "fedcba9876543210".into(),
            dirty: true,
            commits: vec!["abc1234 legalizer: <b> & \"c\"".into()],
            changes: vec![Change {
                test: "tests/legalize/n.slang@1".into(),
                directive: "//TEST:SIMPLE:-target glsl".into(),
                baseline: "(no such directive at the baseline)\n".into(),
                head: "void main() {}\n".into(),
            }],
            outcomes: vec![
                Outcome {
                    test: "tests/legalize/a.slang@1".into(),
                    directive: "//TEST:SIMPLE:-target spirv-asm".into(),
                    state: State::Unchanged,
                },
                Outcome {
                    test: "tests/legalize/n.slang@1".into(),
                    directive: "//TEST:SIMPLE:-target glsl".into(),
                    state: State::New,
                },
            ],
            stale: Vec::new(),
        }
    }

    #[test]
    fn the_drift_report_lists_commits_directives_and_new_outputs_without_placeholders() {
        let html = drift_report(&review());
        assert!(html.starts_with("<!DOCTYPE html>"), "{html}");
        assert!(
            html.contains("<li><code>abc1234</code> legalizer: &lt;b&gt; &amp; &quot;c&quot;</li>"),
            "{html}"
        );
        assert!(html.contains("with uncommitted changes"), "{html}");
        assert!(
            html.contains("<td class=\"state-unchanged\">unchanged</td>"),
            "{html}"
        );
        assert!(
            html.contains("<a href=\"#change-1\">tests/legalize/n.slang@1</a>"),
            "{html}"
        );
        assert!(
            html.contains("<td class=\"ins\">void main() {}</td>"),
            "{html}"
        );
        assert!(!html.contains("no such directive"), "{html}");
        assert!(!html.contains("<script"), "{html}");
        assert!(!html.contains("http"), "no external fetch: {html}");
    }

    #[test]
    fn the_coverage_report_colours_functions_against_the_floor_and_tells_gaps_apart() {
        let function = |name: &str, lines: &[(usize, u64)]| FnCoverage {
            file: "crates/sysval/src/glsl.rs".into(),
            name: name.into(),
            start: lines[0].0,
            lines: lines.iter().copied().collect(),
        };
        let functions = [
            function("full", &[(1, 1), (2, 3)]),
            function(
                "most",
                &[
                    (10, 1),
                    (11, 1),
                    (12, 1),
                    (13, 1),
                    (14, 1),
                    (15, 1),
                    (16, 1),
                    (17, 1),
                    (18, 1),
                    (19, 1),
                    (20, 1),
                    (21, 1),
                    (22, 1),
                    (23, 1),
                    (24, 1),
                    (25, 1),
                    (26, 1),
                    (27, 1),
                    (28, 1),
                    (29, 1),
                    (30, 0),
                ],
            ),
            function("little", &[(40, 1), (41, 0), (42, 0), (43, 1), (44, 0)]),
        ];
        let gap = CodeRef {
            line: 1,
            text: String::new(),
            path: "crates/sysval/src/glsl.rs".into(),
            lines: Some((41, 42)),
            function: "little".into(),
        };
        let html = coverage_report(&functions, &[gap], Some("fedcba9876543210"));
        assert!(html.contains("<code>fedcba987654</code>"), "{html}");
        assert!(
            html.contains("<tr class=\"full\"><td><code>crates/sysval/src/glsl.rs::full</code></td><td>1</td><td>2/2</td><td class=\"cover\">100.0%</td><td></td></tr>"),
            "{html}"
        );
        assert!(
            html.contains("<tr class=\"low\"><td><code>crates/sysval/src/glsl.rs::most</code>"),
            "{html}"
        );
        assert!(
            html.contains("<tr class=\"under\"><td><code>crates/sysval/src/glsl.rs::little</code>"),
            "{html}"
        );
        assert!(
            html.contains("<span class=\"gap\" title=\"listed under Unreachable gaps\">41\u{2013}42</span>, <span class=\"unlisted\" title=\"not listed\">44</span>"),
            "{html}"
        );
        // 24/28 lines of crates/sysval: 85.7%, under its 95% floor.
        assert!(
            html.contains("<td>24/28</td><td class=\"under\">85.7%</td><td>95.0%</td>"),
            "{html}"
        );
    }
}
