//! `cargo xtask bench`: the criterion benchmarks (front end, then the
//! whole pipeline), then the figures they measured, read back from
//! criterion's estimates, as medians and ratios of one run against the
//! targets of issue 13:
//!
//! - scaling: time(4096) / time(1024) per target (linear growth: at most
//!   4.5) and the 4096-field time (at most 20 ms), for every target
//!   (`legalis_testkit::shapes::SCALING`);
//! - the suite: the mean time per directive (at most 0.3 ms);
//! - the command line as a process, the reference compiler and the
//!   scaling plot (`bench_process.rs`).

use std::ffi::OsString;
use std::path::Path;
use std::process::ExitCode;

/// The targets, as (figure, limit).
const RATIO_LIMIT: f64 = 4.5;
const LARGE_LIMIT_MS: f64 = 20.0;
const DIRECTIVE_LIMIT_MS: f64 = 0.3;

pub fn main(args: &[OsString], root: &Path) -> ExitCode {
    let steps = vec![
        super::with_args(&["bench", "-p", "legalis-front", "--bench", "front"], args),
        super::with_args(&["bench", "-p", "legalis-cli", "--bench", "pipeline"], args),
        super::words(
            &[
                &["build", "--profile", "dist", "--locked"],
                super::LEGALIS_BINARY,
            ]
            .concat(),
        ),
    ];
    let code = super::run_all(&steps);
    if code != ExitCode::SUCCESS {
        return code;
    }
    match figures(root) {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("xtask: bench: {error}");
            ExitCode::FAILURE
        }
    }
}

/// Criterion's figures, then the process figures and the plot.
fn figures(root: &Path) -> Result<String, String> {
    let criterion = root.join("target/criterion");
    let mut text = report(&criterion)?;
    let mut series = Vec::new();
    for target in crate::bench_process::SCALING.map(|s| s.target) {
        let points = crate::bench_process::SIZES
            .iter()
            .map(|&n| Ok((n, median_ms(&criterion, &format!("scaling/{target}/{n}"))?)))
            .collect::<Result<Vec<_>, String>>()?;
        series.push((target.to_string(), points));
    }
    let process = crate::bench_process::measure(root, &series)?;
    text.push_str(&process.text);
    let mut plotted: Vec<_> = series
        .into_iter()
        .map(|(name, points)| (format!("Legalis {name}"), points))
        .collect();
    plotted.extend(process.reference_series);
    let svg = root.join("target/reports/bench/scaling.svg");
    crate::bench_process::plot(&svg, &plotted)?;
    text.push_str(&format!("plot: {}\n", svg.display()));
    Ok(text)
}

/// The median of a benchmark in milliseconds.
fn median_ms(criterion: &Path, id: &str) -> Result<f64, String> {
    let file = criterion.join(id).join("new/estimates.json");
    let text = std::fs::read_to_string(&file)
        .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let value: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", file.display()))?;
    value["median"]["point_estimate"]
        .as_f64()
        .map(|ns| ns / 1e6)
        .ok_or_else(|| format!("{}: no median", file.display()))
}

/// `ok` or `MISSED`, for a figure against its target.
pub(crate) fn verdict(ok: bool) -> &'static str {
    if ok { "ok" } else { "MISSED" }
}

/// The figures table.
pub fn report(criterion: &Path) -> Result<String, String> {
    let mut out = String::from("\nfigures (bench and dist profiles, medians of this run)\n");
    out.push_str(&format!(
        "{:<10} {:>10} {:>10} {:>10} {:>18} {:>14}\n",
        "target", "N=256 ms", "N=1024 ms", "N=4096 ms", "4096/1024 (<=4.5)", "4096 (<=20 ms)"
    ));
    for target in crate::bench_process::SCALING.map(|s| s.target) {
        let at = |n: usize| median_ms(criterion, &format!("scaling/{target}/{n}"));
        let (a, b, c) = (at(256)?, at(1024)?, at(4096)?);
        let ratio = c / b;
        out.push_str(&format!(
            "{target:<10} {a:>10.3} {b:>10.3} {c:>10.3} {:>12.2} {:>5} {:>8.3} {:>5}\n",
            ratio,
            verdict(ratio <= RATIO_LIMIT),
            c,
            verdict(c <= LARGE_LIMIT_MS)
        ));
    }
    let suite = median_ms(criterion, "suite/directive")?;
    let count = std::fs::read_to_string(criterion.join("suite/directive/new/benchmark.json"))
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .and_then(|v| v["throughput"]["Elements"].as_f64())
        .ok_or("the suite benchmark recorded no directive count")?;
    let per = suite / count;
    out.push_str(&format!(
        "suite: {count} directives, {per:.3} ms per directive (<= {DIRECTIVE_LIMIT_MS} ms) {}\n",
        verdict(per <= DIRECTIVE_LIMIT_MS)
    ));
    let front = median_ms(criterion, "front/large_5000_lines")?;
    out.push_str(&format!(
        "front end, 5 000-line shader: {front:.3} ms (<= {LARGE_LIMIT_MS} ms) {}\n",
        verdict(front <= LARGE_LIMIT_MS)
    ));
    Ok(out)
}
