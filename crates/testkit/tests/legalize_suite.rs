//! `cargo test` runs the characterization suite (`tests/legalize/`) with the
//! same driver as `cargo xtask test legalize`: Legalis in-process, every
//! output through its downstream validator, checks, and the insta snapshot
//! of the whole output (`snapshots/legalize/`).

use std::path::{Path, PathBuf};

use legalis_testkit::legalis::{self, DownstreamValidator, InProcessLegalis};
use legalis_testkit::runner::{self, Options, UnsupportedPolicy};

fn repository_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn characterization_suite_passes() {
    let root = repository_root();
    // Paths in reports and snapshot metadata are repository-relative.
    std::env::set_current_dir(&root).expect("enter the repository root");
    let options = Options {
        compiler: &InProcessLegalis,
        validator: Some(&DownstreamValidator),
        snapshot_dir: Some(root.join("snapshots/legalize")),
        require_meta: true,
        unsupported: UnsupportedPolicy::Fail,
        filter: None,
        partition: None,
    };
    runner::quiet_snapshot_panics();
    let dir = Path::new("tests/legalize");
    let expected = runner::expected_results(dir, &options).expect("read tests/legalize");
    let mut report = Vec::new();
    let (summary, records) =
        runner::run_dir_recorded(dir, &options, &mut report).expect("read tests/legalize");
    let report = String::from_utf8_lossy(&report);
    println!("{report}");
    let (read, _) = legalis::readback_counts(&records);
    println!("{}", legalis::readback_line(&records));
    // naga reads back the SPIR-V of the stages it supports (any other
    // naga error fails its directive); none read means the read-back is off.
    assert!(read > 0, "naga read back no SPIR-V output:\n{report}");
    // No result lost: one record per directive parsed, each counted once.
    assert_eq!(
        records.len(),
        expected,
        "the suite parsed {expected} directives but gave {} results:\n{report}",
        records.len()
    );
    assert_eq!(summary.total(), records.len(), "{report}");
    assert!(
        summary.passed >= 5,
        "expected the suite's directives to run:\n{report}"
    );
    assert_eq!(summary.failed, 0, "{report}");
    assert_eq!(summary.skipped, 0, "{report}");
}
