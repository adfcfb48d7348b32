//! `--partition K/N` must pick the same shard on every machine (the exact
//! split itself is tested in `runner.rs`).

use legalis_testkit::runner::Partition;
use std::path::Path;

#[test]
fn the_hash_is_pinned_so_machines_agree() {
    // FNV-1a 64 of the file name, modulo N: fixed values, so a change of
    // hash (which would reshuffle every CI job's shard) fails here.
    let at = |name: &str, count: u32| {
        (1..=count)
            .find(|&index| Partition { index, count }.contains_name(name))
            .expect("some shard")
    };
    assert_eq!(at("b8-domain.slang", 4), PINNED_B8_OF_4);
    assert_eq!(at("vertex-struct-flatten.slang", 3), PINNED_VSF_OF_3);
    // A path names the file by its last component.
    let shard = Partition {
        index: PINNED_B8_OF_4,
        count: 4,
    };
    assert!(shard.contains(Path::new("tests/legalize/b8-domain.slang")));
}

/// Computed by hand: FNV-1a("b8-domain.slang") % 4 == 1, so shard 2 of 4;
/// FNV-1a("vertex-struct-flatten.slang") % 3 == 0, so shard 1 of 3.
const PINNED_B8_OF_4: u32 = 2;
const PINNED_VSF_OF_3: u32 = 1;
