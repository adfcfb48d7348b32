//! Headless Chromium, which the HTML report test opens the drift report in,
//! installed by `setup.rs` (`cargo xtask setup`, `cargo xtask test`).
//!
//! CI runs as root on a fresh Debian machine, so a missing `chromium` is
//! installed with apt there (`apt-get update`, then `apt-get install -y
//! --no-install-recommends chromium`), the way `coverage.rs` installs
//! rustup's llvm-tools. Anyone else without it gets an error that says how
//! to install it; nothing is ever skipped for want of it.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The Debian package and the binary it puts on `PATH`.
const PACKAGE: &str = "chromium";

/// How long one page may take to load and serialize.
const TIMEOUT: Duration = Duration::from_secs(120);

/// Chromium starts headless here and hands back a page's DOM: a missing
/// library or a refused sandbox shows up now, not as a test failure.
pub fn smoke_test(chromium: &Path) -> Result<(), String> {
    let dir = std::env::temp_dir().join(format!("legalis-setup-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let page = dir.join("smoke.html");
    let result = std::fs::write(&page, "<!DOCTYPE html><p id=\"smoke\">ok</p>\n")
        .map_err(|e| e.to_string())
        .and_then(|()| dump_dom(chromium, &page, &dir));
    let _ = std::fs::remove_dir_all(&dir);
    match result {
        Ok(dom) if dom.contains("<p id=\"smoke\">ok</p>") => Ok(()),
        Ok(dom) => Err(format!(
            "headless Chromium rendered an unexpected DOM: {dom}"
        )),
        Err(error) => Err(error),
    }
}

/// The `chromium` binary, installed with apt first when it is missing and
/// we are root.
pub fn ensure() -> Result<PathBuf, String> {
    if let Some(path) = on_path(PACKAGE) {
        return Ok(path);
    }
    if !is_root() {
        return Err(format!(
            "headless Chromium is missing: `{PACKAGE}` is not on PATH. The HTML report test \
             opens the drift report in it. Install it (Debian: `sudo apt-get install \
             --no-install-recommends {PACKAGE}`), or run `cargo xtask setup` as root"
        ));
    }
    eprintln!(
        "xtask: {PACKAGE} is missing; installing it: apt-get update && apt-get install -y --no-install-recommends {PACKAGE}"
    );
    apt(&["update"])?;
    apt(&["install", "-y", "--no-install-recommends", PACKAGE])?;
    on_path(PACKAGE).ok_or_else(|| format!("apt-get installed {PACKAGE} but it is not on PATH"))
}

pub fn apt(args: &[&str]) -> Result<(), String> {
    let status = Command::new("apt-get")
        .args(args)
        .env("DEBIAN_FRONTEND", "noninteractive")
        .status()
        .map_err(|e| format!("cannot run apt-get: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("apt-get {} failed ({status})", args.join(" ")))
    }
}

fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}

pub fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|out| out.status.success() && out.stdout.trim_ascii() == b"0")
}

/// The DOM of `page` after Chromium has loaded it (and run its scripts),
/// serialized. `--no-sandbox` because CI runs as root, where Chromium's
/// sandbox refuses to start; the page is our own file. A profile folder of
/// its own keeps runs from sharing (and locking) one.
pub fn dump_dom(chromium: &Path, page: &Path, profile: &Path) -> Result<String, String> {
    let url = format!(
        "file://{}",
        std::path::absolute(page)
            .map_err(|e| e.to_string())?
            .display()
    );
    let stdout_path = profile.join("dom.html");
    let stderr_path = profile.join("stderr.txt");
    let stdout = std::fs::File::create(&stdout_path).map_err(|e| e.to_string())?;
    let stderr = std::fs::File::create(&stderr_path).map_err(|e| e.to_string())?;
    let mut child = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--no-first-run",
        ])
        .arg(format!(
            "--user-data-dir={}",
            profile.join("profile").display()
        ))
        .arg("--dump-dom")
        .arg(&url)
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(stderr)
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", chromium.display()))?;
    let started = Instant::now();
    let status = loop {
        match child.try_wait().map_err(|e| e.to_string())? {
            Some(status) => break status,
            None if started.elapsed() > TIMEOUT => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("{} took over {TIMEOUT:?}", chromium.display()));
            }
            None => std::thread::sleep(Duration::from_millis(100)),
        }
    };
    let dom = std::fs::read_to_string(&stdout_path).map_err(|e| e.to_string())?;
    if !status.success() || dom.is_empty() {
        let stderr = std::fs::read_to_string(&stderr_path).unwrap_or_default();
        return Err(format!(
            "{} --dump-dom {url} failed ({status}): {stderr}",
            chromium.display()
        ));
    }
    Ok(dom)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::drift::{Change, Outcome, Review, State};
    use crate::html::{self, Row};
    use crate::suite::Scratch;

    const BASELINE: &str = "\
#version 450
layout(location = 0) in vec4 a;
void main()
{
    if (a.x < 0.5 && a.y > 0.0) discard;
    gl_Position = a;
}
";

    /// A changed comparison, an inserted line that would be markup if it
    /// were not escaped, and an unchanged tail.
    const HEAD: &str = "\
#version 450
layout(location = 0) in vec4 a;
// </td></tr></table><b>not markup</b> & more
void main()
{
    if (a.x <= 0.5 && a.y > 0.0) discard;
    gl_Position = a;
}
";

    fn review() -> Review {
        let change = |test: &str, baseline: &str, head: &str| Change {
            test: test.into(),
            directive: "//TEST:SIMPLE(filecheck=GLSL):-target glsl -entry main -stage fragment"
                .into(),
            baseline: baseline.into(),
            head: head.into(),
        };
        let outcome = |test: &str, state| Outcome {
            test: test.into(),
            directive: "//TEST:SIMPLE(filecheck=GLSL):-target glsl -entry main -stage fragment"
                .into(),
            state,
        };
        Review {
            baseline: "HEAD~1".into(),
            baseline_commit: "1111111111111111111111111111111111111111".into(),
            head_commit: "2222222222222222222222222222222222222222".into(),
            dirty: false,
            commits: vec!["2222222 legalizer: <= for < & friends".into()],
            changes: vec![
                change("tests/legalize/a.slang@1", BASELINE, HEAD),
                change(
                    "tests/legalize/b.slang@1",
                    "(no such directive at the baseline)\n",
                    "void main() {}\n",
                ),
            ],
            outcomes: vec![
                outcome("tests/legalize/a.slang@1", State::Changed),
                outcome("tests/legalize/b.slang@1", State::New),
                outcome("tests/legalize/c.slang@1", State::Unchanged),
            ],
            stale: Vec::new(),
        }
    }

    /// Appended to the page under test only: reads back what Chromium
    /// built (each diff row's cells, their computed background, the marked
    /// words) into `#probe` as JSON, with `<`, `>` and `&` as `\u` escapes
    /// so that serializing the DOM leaves the JSON as it is.
    const PROBE: &str = r#"<pre id="probe"></pre>
<script>
const text = (nodes) => [...nodes].map((node) => node.textContent);
const sections = [...document.querySelectorAll("section.change")].map((section) => ({
  id: section.id,
  rows: [...section.querySelectorAll("table.diff tbody tr")].map((tr) => ({
    kind: tr.className,
    cells: text(tr.cells),
    backgrounds: [...tr.cells].map((td) => getComputedStyle(td).backgroundColor),
    marked: text(tr.querySelectorAll("span.x")),
  })),
}));
const report = {
  sections,
  commits: text(document.querySelectorAll("ul.commits li")),
  states: text(document.querySelectorAll("table.summary tbody td:last-child")),
  bold: document.querySelectorAll("b").length,
};
document.getElementById("probe").textContent = JSON.stringify(report)
  .replace(/[<>&]/g, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
</script>
"#;

    /// What a row of `side_by_side` must look like once rendered: its
    /// class and the text of its cells.
    fn expected(rows: &[Row]) -> Vec<(String, Vec<String>)> {
        let n = |line: &usize| line.to_string();
        rows.iter()
            .map(|row| match row {
                Row::Same { old, new, text } => {
                    ("same", vec![n(old), text.clone(), n(new), text.clone()])
                }
                Row::Changed {
                    old,
                    new,
                    old_text,
                    new_text,
                } => (
                    "changed",
                    vec![n(old), old_text.clone(), n(new), new_text.clone()],
                ),
                Row::Deleted { old, text } => (
                    "deleted",
                    vec![n(old), text.clone(), String::new(), String::new()],
                ),
                Row::Inserted { new, text } => (
                    "inserted",
                    vec![String::new(), String::new(), n(new), text.clone()],
                ),
                Row::Skipped { lines } => ("skipped", vec![format!("⋯ {lines} unchanged lines")]),
            })
            .map(|(kind, cells)| (kind.to_string(), cells))
            .collect()
    }

    fn rendered(section: &serde_json::Value) -> Vec<(String, Vec<String>)> {
        let strings = |value: &serde_json::Value| -> Vec<String> {
            value
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap().to_string())
                .collect()
        };
        section["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|row| {
                (
                    row["kind"].as_str().unwrap().to_string(),
                    strings(&row["cells"]),
                )
            })
            .collect()
    }

    #[test]
    fn the_drift_report_renders_its_diffs_in_headless_chromium() {
        let chromium = ensure().unwrap_or_else(|error| panic!("{error}"));
        let scratch = Scratch::new("html-chromium");
        let report = html::drift_report(&review());
        assert_eq!(report.matches("</body>").count(), 1);
        let page = scratch.0.join("drift.html");
        std::fs::write(&page, report.replace("</body>", &format!("{PROBE}</body>"))).unwrap();
        let dom = dump_dom(&chromium, &page, &scratch.0).unwrap_or_else(|error| panic!("{error}"));

        let json = dom
            .split_once("<pre id=\"probe\">")
            .and_then(|(_, rest)| rest.split_once("</pre>"))
            .map(|(json, _)| json)
            .unwrap_or_else(|| panic!("no probe in the DOM:\n{dom}"));
        let probe: serde_json::Value =
            serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {json}"));
        let sections = probe["sections"].as_array().unwrap();
        assert_eq!(sections.len(), 2, "{probe:#}");
        assert_eq!(sections[0]["id"], "change-1");

        // Every row of both diffs, as Chromium parsed them: the inserted
        // markup stays text in its cell, nothing is dropped or moved.
        assert_eq!(
            rendered(&sections[0]),
            expected(&html::side_by_side(BASELINE, HEAD, 3))
        );
        assert_eq!(
            rendered(&sections[1]),
            [(
                "inserted".to_string(),
                vec![
                    String::new(),
                    String::new(),
                    "1".into(),
                    "void main() {}".into()
                ]
            )],
            "a new directive is all insertion, no placeholder"
        );
        assert_eq!(probe["bold"], 0, "an output turned into markup: {probe:#}");
        let changed = sections[0]["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|row| row["kind"] == "changed")
            .unwrap_or_else(|| panic!("no changed row: {probe:#}"));
        assert_eq!(changed["marked"], serde_json::json!(["<", "<="]));
        assert!(
            changed["cells"][3]
                .as_str()
                .is_some_and(|t| t.contains("a.x <= 0.5 && a.y")),
            "{changed:#}"
        );

        // The colours: changed cells are red on the left and green on the
        // right, unchanged ones are not coloured at all.
        let backgrounds = |kind: &str| -> Vec<String> {
            let row = sections[0]["rows"]
                .as_array()
                .unwrap()
                .iter()
                .find(|row| row["kind"] == kind)
                .unwrap_or_else(|| panic!("no {kind} row: {probe:#}"));
            row["backgrounds"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap().to_string())
                .collect()
        };
        let transparent = "rgba(0, 0, 0, 0)";
        let changed = backgrounds("changed");
        assert_eq!(changed[1], "rgb(255, 235, 233)", "{changed:?}");
        assert_eq!(changed[3], "rgb(218, 251, 225)", "{changed:?}");
        let same = backgrounds("same");
        assert_eq!(same[1], transparent, "{same:?}");
        assert_eq!(same[3], transparent, "{same:?}");
        assert_eq!(backgrounds("inserted")[3], changed[3]);

        assert_eq!(
            probe["commits"],
            serde_json::json!(["2222222 legalizer: <= for < & friends"])
        );
        assert_eq!(
            probe["states"],
            serde_json::json!(["changed", "new", "unchanged"])
        );
    }
}
