//! Every input in `tests/fuzz-regressions/` (crashes and internal errors
//! the fuzz targets found, kept once fixed) compiled by the front end and
//! for every target, as the fuzz targets do (`legalis::fuzz::pipeline`):
//! no panic, no internal error.

use legalis::Target;
use std::path::Path;

const TARGETS: [Option<Target>; 7] = [
    None,
    Some(Target::Glsl),
    Some(Target::Spirv),
    Some(Target::SpirvAsm),
    Some(Target::Wgsl),
    Some(Target::Metal),
    Some(Target::Cuda),
];

#[test]
fn every_fuzz_regression_compiles_without_panic_or_internal_error() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fuzz-regressions");
    let mut inputs: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/fuzz-regressions")
        .map(|entry| entry.expect("entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "slang"))
        .collect();
    inputs.sort();
    assert!(
        !inputs.is_empty(),
        "no regression inputs in {}",
        dir.display()
    );
    for input in &inputs {
        let bytes = std::fs::read(input).expect("readable input");
        for target in TARGETS {
            let name = target.map_or("front end", Target::name);
            let run = std::panic::catch_unwind(|| legalis::fuzz::pipeline(&bytes, target));
            assert!(
                run.is_ok(),
                "{} ({name}) panicked or reported an internal error",
                input.display()
            );
        }
    }
}
