//! Whole-pipeline speed: source to target code, in process.
//!
//! - `scaling/{glsl,spirv,wgsl,metal}/N`: a vertex shader passing N
//!   `float4` fields through (N inputs, N + 1 outputs) for N = 16 ...
//!   4096; `scaling/cuda/N`: a closest-hit shader scaling N `float4`
//!   fields of its payload (CUDA has no vertex stage). The target is
//!   linear growth: time(4096) / time(1024) at most 4.5, and 4096 under
//!   20 ms per target in a release build.
//! - `suite/directive`: every directive of `tests/legalize/` that writes
//!   code, compiled in turn through the command-line function the binary
//!   uses; the figure is the mean per directive (target: 0.3 ms).
//!
//! Run with `cargo xtask bench`, which also prints the ratios. The bench
//! runs on the allocator the `legalis` binary ships with (mimalloc), so the
//! in-process figures and the command line's agree; an application that
//! embeds the library measures with its own.

use std::ffi::OsString;
use std::hint::black_box;
use std::path::{Path, PathBuf};

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use legalis::{Request, ShaderStage, Target};

use legalis_testkit::shapes::{SCALING, SIZES};

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn scaling(c: &mut Criterion) {
    let mut group = c.benchmark_group("scaling");
    group.sample_size(10);
    for series in SCALING {
        let target = Target::from_name(series.target).expect("a scaling target");
        for n in SIZES {
            let mut request =
                Request::builder(format!("{}{n}.slang", series.stem), (series.shader)(n))
                    .entry("main")
                    .target(target)
                    .build();
            request.stage = ShaderStage::from_name(series.stage);
            let compiled = legalis::compile(&request);
            assert!(
                compiled.output.is_some(),
                "{n} fields do not compile for {}: {:?}",
                target.name(),
                compiled.diagnostics
            );
            group.throughput(Throughput::Elements(n as u64));
            group.bench_with_input(BenchmarkId::new(target.name(), n), &request, |b, r| {
                b.iter(|| legalis::compile(black_box(r)))
            });
        }
    }
    group.finish();
}

/// `(file, arguments)` of every directive of the suite that writes code.
fn suite_directives(root: &Path) -> Vec<(PathBuf, Vec<String>)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root.join("tests/legalize"))
        .map(|dir| dir.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.sort();
    let mut directives = Vec::new();
    for file in files {
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        for line in text.lines() {
            let Some(rest) = line.strip_prefix("//TEST:SIMPLE(") else {
                continue;
            };
            let Some((_, args)) = rest.split_once("):") else {
                continue;
            };
            let args: Vec<String> = args.split_whitespace().map(String::from).collect();
            if args.iter().any(|a| a == "-target") {
                directives.push((file.clone(), args));
            }
        }
    }
    directives
}

fn suite(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let directives = suite_directives(&root);
    assert!(!directives.is_empty(), "no directives under tests/legalize");
    let env = legalis_cli::Environment::new(root.join("tests/legalize"));
    let runs: Vec<Vec<OsString>> = directives
        .iter()
        .map(|(file, args)| {
            let mut run = vec![OsString::from(file.file_name().unwrap_or_default())];
            run.extend(args.iter().map(OsString::from));
            run
        })
        .collect();
    let mut group = c.benchmark_group("suite");
    group.sample_size(10);
    group.throughput(Throughput::Elements(runs.len() as u64));
    group.bench_function("directive", |b| {
        b.iter(|| {
            for run in &runs {
                black_box(legalis_cli::run(run.clone(), &env));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, scaling, suite);
criterion_main!(benches);
