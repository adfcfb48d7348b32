//! The figures of `cargo xtask bench` that criterion cannot take: the
//! command line as a process (cold start, peak memory), the reference
//! compiler in the same run, and the scaling plot.
//!
//! - cold process: the `dist` profile's `legalis` compiling `examples/vertex.slang`
//!   to GLSL, started [`COLD_RUNS`] times; the median wall time;
//! - peak RSS: the `dist` profile's `legalis` at N = 4096 per target (each
//!   target's scaling shader), read with
//!   `getrusage(RUSAGE_CHILDREN)` in a fresh `xtask peak-rss` process, so
//!   no other child (cargo, the compiler) counts;
//! - the reference (`slangc.py`, when Python and the reference are there):
//!   in process through its own API (`xtask/bench/reference.py`) at every
//!   N for GLSL and SPIR-V, and as a process on the cold-start shader;
//!   printed as ratios reference / Legalis;
//! - `target/reports/bench/scaling.svg`: time against N, log-log, every
//!   series of this run (plotters).

use std::ffi::OsString;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::Instant;

use plotters::prelude::*;

use crate::bench::verdict;

pub use legalis_testkit::shapes::{SCALING, SIZES, ScalingSeries};
pub const COLD_RUNS: usize = 50;
pub const COLD_LIMIT_MS: f64 = 5.0;
pub const RSS_LIMIT_MB: f64 = 64.0;
/// In-process repetitions of the reference per shader (it is slow).
const REFERENCE_REPEATS: usize = 5;
const REFERENCE_PROCESS_RUNS: usize = 5;

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    if values.len().is_multiple_of(2) {
        (values[mid - 1] + values[mid]) / 2.0
    } else {
        values[mid]
    }
}

/// One series of the plot: a name and (N, ms) points.
pub type Series = (String, Vec<(usize, f64)>);

/// Everything measured here, for the report and the plot.
#[derive(Debug, Default)]
pub struct ProcessFigures {
    pub text: String,
    pub reference_series: Vec<Series>,
}

/// Wall time of one run of `command`, which must succeed.
fn timed(command: &mut Command) -> Result<f64, String> {
    let start = Instant::now();
    let output = command
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run {command:?}: {e}"))?;
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    if !output.status.success() {
        return Err(format!(
            "{command:?} failed: {}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    Ok(ms)
}

/// Writes the shaders of one scaling series into `dir`; returns their
/// paths by N.
pub fn write_shaders(dir: &Path, series: &ScalingSeries) -> Result<Vec<(usize, PathBuf)>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    SIZES
        .iter()
        .map(|&n| {
            let path = dir.join(format!("{}{n}.slang", series.stem));
            std::fs::write(&path, (series.shader)(n))
                .map_err(|e| format!("{}: {e}", path.display()))?;
            Ok((n, path))
        })
        .collect()
}

/// The cold-process, peak-memory and reference figures.
pub fn measure(root: &Path, legalis_ms: &[Series]) -> Result<ProcessFigures, String> {
    let binary = root.join("target/dist/legalis");
    let work = root.join("target/reports/bench/work");
    // The vertex pass-through, which the reference compiles too.
    let shaders = write_shaders(&work, &SCALING[0])?;
    let example = root.join("examples/vertex.slang");
    let mut figures = ProcessFigures::default();
    let out = &mut figures.text;

    // Cold process: the first run warms the page cache; all are counted
    // (the median ignores the outlier).
    let cold_output = work.join("cold.glsl");
    let mut cold = Vec::with_capacity(COLD_RUNS);
    for _ in 0..COLD_RUNS {
        cold.push(timed(
            Command::new(&binary)
                .arg(&example)
                .args(["-target", "glsl", "-o"])
                .arg(&cold_output),
        )?);
    }
    let cold = median(cold);
    let _ = writeln!(
        out,
        "CLI cold process, examples/vertex.slang to GLSL: {cold:.2} ms median of {COLD_RUNS} (<= {COLD_LIMIT_MS} ms) {}",
        verdict(cold <= COLD_LIMIT_MS)
    );

    // Peak RSS at the largest N, per target.
    let xtask = std::env::current_exe().map_err(|e| e.to_string())?;
    for series in SCALING {
        let target = series.target;
        let largest = write_shaders(&work, &series)?.pop().ok_or("no shaders")?.1;
        let output = Command::new(&xtask)
            .arg("peak-rss")
            .arg(&binary)
            .arg(&largest)
            .args([
                "-target",
                target,
                "-entry",
                "main",
                "-stage",
                series.stage,
                "-o",
            ])
            .arg(work.join(format!("rss.{target}")))
            .stdin(Stdio::null())
            .output()
            .map_err(|e| e.to_string())?;
        let text = String::from_utf8_lossy(&output.stdout);
        if !output.status.success() {
            return Err(format!(
                "peak-rss {target}: {}{}",
                text,
                String::from_utf8_lossy(&output.stderr)
            ));
        }
        let kb: f64 = text
            .trim()
            .parse()
            .map_err(|_| format!("peak-rss printed {text:?}"))?;
        let mb = kb / 1024.0;
        let _ = writeln!(
            out,
            "CLI peak RSS at N = 4096, {target}: {mb:.1} MB (<= {RSS_LIMIT_MB} MB) {}",
            verdict(mb <= RSS_LIMIT_MB)
        );
    }

    // The reference, when it is there.
    match reference(root, &work, &shaders, &example, cold, legalis_ms) {
        Ok((text, series)) => {
            out.push_str(&text);
            figures.reference_series = series;
        }
        Err(reason) => {
            let _ = writeln!(out, "reference compiler: not compared ({reason})");
        }
    }
    Ok(figures)
}

/// `LEGALIS_SLANG_REFERENCE`, or the shared tools folder beside the
/// repository.
fn reference_script(root: &Path) -> PathBuf {
    std::env::var_os("LEGALIS_SLANG_REFERENCE")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("../shared/tools/slang-reference/slangc.py"))
}

fn reference(
    root: &Path,
    work: &Path,
    shaders: &[(usize, PathBuf)],
    example: &Path,
    legalis_cold: f64,
    legalis_ms: &[Series],
) -> Result<(String, Vec<Series>), String> {
    let script = reference_script(root);
    if !script.is_file() {
        return Err(format!(
            "no {} (set LEGALIS_SLANG_REFERENCE)",
            script.display()
        ));
    }
    let mut args: Vec<OsString> = vec![
        root.join("xtask/bench/reference.py").into(),
        script.clone().into(),
        work.into(),
        REFERENCE_REPEATS.to_string().into(),
    ];
    let targets = ["glsl", "spirv"];
    for (_, path) in shaders {
        for target in targets {
            args.push(path.into());
            args.push(target.into());
        }
    }
    let output = Command::new("python3")
        .args(&args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("python3: {e}"))?;
    let text = String::from_utf8_lossy(&output.stdout);
    let value: serde_json::Value = serde_json::from_str(text.trim()).map_err(|_| {
        format!(
            "reference.py printed no figures: {}",
            String::from_utf8_lossy(&output.stderr)
                .lines()
                .last()
                .unwrap_or("")
        )
    })?;
    if let Some(error) = value.get("error") {
        return Err(format!("the reference failed: {error}"));
    }
    let mut out = String::new();
    let mut series = Vec::new();
    let _ = writeln!(
        out,
        "reference in process (median of {REFERENCE_REPEATS}) against Legalis (criterion median):"
    );
    for target in targets {
        let mut points = Vec::new();
        let ours = legalis_ms.iter().find(|(name, _)| name == target);
        for (n, path) in shaders {
            let key = format!("{} {target}", path.display());
            let ms = value[&key]
                .as_f64()
                .ok_or_else(|| format!("no figure for {key}"))?;
            points.push((*n, ms));
            let legalis = ours
                .and_then(|(_, p)| p.iter().find(|(m, _)| m == n))
                .map(|(_, ms)| *ms);
            if let Some(legalis) = legalis {
                let _ = writeln!(
                    out,
                    "  {target:<6} N = {n:>4}: reference {ms:>9.3} ms, Legalis {legalis:>8.3} ms, ratio {:>6.1}x",
                    ms / legalis
                );
            }
        }
        if let (Some(a), Some(b)) = (
            points.iter().find(|(n, _)| *n == 1024),
            points.iter().find(|(n, _)| *n == 4096),
        ) {
            let _ = writeln!(
                out,
                "  {target:<6} reference time(4096) / time(1024): {:.2}",
                b.1 / a.1
            );
        }
        series.push((format!("reference {target}"), points));
    }
    let mut process = Vec::new();
    for _ in 0..REFERENCE_PROCESS_RUNS {
        process.push(timed(
            Command::new("python3")
                .arg(&script)
                .arg(example)
                .args([
                    "-target", "glsl", "-entry", "main", "-stage", "vertex", "-o",
                ])
                .arg(work.join("reference-cold.glsl")),
        )?);
    }
    let process = median(process);
    let _ = writeln!(
        out,
        "reference as a process (median of {REFERENCE_PROCESS_RUNS}): {process:.1} ms, ratio to the Legalis CLI {:.1}x",
        process / legalis_cold
    );
    Ok((out, series))
}

/// `xtask peak-rss COMMAND ARGS...`: runs the command and prints its peak
/// resident set in KiB. Run as a fresh process, so the command is the only
/// child `RUSAGE_CHILDREN` has seen.
pub fn peak_rss(args: &[OsString]) -> ExitCode {
    let Some((program, rest)) = args.split_first() else {
        eprintln!("xtask peak-rss: no command");
        return ExitCode::from(2);
    };
    let status = Command::new(program)
        .args(rest)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .status();
    match status {
        Ok(status) if status.success() => {}
        Ok(status) => {
            eprintln!(
                "xtask peak-rss: {} failed ({status})",
                program.to_string_lossy()
            );
            return ExitCode::FAILURE;
        }
        Err(error) => {
            eprintln!("xtask peak-rss: {}: {error}", program.to_string_lossy());
            return ExitCode::FAILURE;
        }
    }
    match nix::sys::resource::getrusage(nix::sys::resource::UsageWho::RUSAGE_CHILDREN) {
        Ok(usage) => {
            // Linux reports ru_maxrss in KiB.
            println!("{}", usage.max_rss());
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("xtask peak-rss: getrusage: {error}");
            ExitCode::FAILURE
        }
    }
}

/// Draws time against N, log-log, one line per series.
pub fn plot(path: &Path, series: &[Series]) -> Result<(), String> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
    }
    let points = series.iter().flat_map(|(_, p)| p.iter());
    let (mut low, mut high) = (f64::MAX, f64::MIN);
    for &(_, ms) in points {
        low = low.min(ms);
        high = high.max(ms);
    }
    if low > high {
        return Err("nothing to plot".into());
    }
    let backend = SVGBackend::new(path, (800, 560));
    let area = backend.into_drawing_area();
    area.fill(&WHITE).map_err(|e| e.to_string())?;
    let mut chart = ChartBuilder::on(&area)
        .caption(
            "Compile time against N float4 varyings (log-log)",
            ("sans-serif", 20),
        )
        .margin(16)
        .x_label_area_size(40)
        .y_label_area_size(64)
        .build_cartesian_2d(
            (12f64..5000f64).log_scale(),
            (low * 0.7..high * 1.4).log_scale(),
        )
        .map_err(|e| e.to_string())?;
    chart
        .configure_mesh()
        .x_desc("N (float4 fields in and out)")
        .y_desc("ms per compile (median)")
        .draw()
        .map_err(|e| e.to_string())?;
    const ORANGE: RGBColor = RGBColor(230, 120, 0);
    const GREY: RGBColor = RGBColor(120, 120, 120);
    let colours = [&BLUE, &GREEN, &MAGENTA, &ORANGE, &CYAN, &RED, &BLACK, &GREY];
    for (i, (name, points)) in series.iter().enumerate() {
        let colour = colours[i % colours.len()];
        let line: Vec<(f64, f64)> = points.iter().map(|&(n, ms)| (n as f64, ms)).collect();
        chart
            .draw_series(LineSeries::new(line.clone(), colour.stroke_width(2)))
            .map_err(|e| e.to_string())?
            .label(name.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour));
        chart
            .draw_series(line.iter().map(|&p| Circle::new(p, 3, colour.filled())))
            .map_err(|e| e.to_string())?;
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperLeft)
        .draw()
        .map_err(|e| e.to_string())?;
    area.present().map_err(|e| e.to_string())?;
    Ok(())
}
