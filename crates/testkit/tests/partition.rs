//! `--partition K/N`: the shards split the suite's files (and the generated
//! matrices' cases) exactly, the same way on every machine.

use legalis_testkit::runner::Partition;
use std::path::Path;

fn suite_files() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/legalize");
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("tests/legalize")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".slang"))
        .collect();
    names.sort();
    names
}

#[test]
fn parse_accepts_only_k_of_n() {
    assert_eq!(
        Partition::parse("2/3"),
        Some(Partition { index: 2, count: 3 })
    );
    for bad in ["0/3", "4/3", "1/0", "3", "a/b", "1/2/3", ""] {
        assert_eq!(Partition::parse(bad), None, "{bad:?}");
    }
}

#[test]
fn every_file_is_in_exactly_one_shard() {
    let files = suite_files();
    assert!(files.len() > 20, "the suite has files");
    for count in 1..=5 {
        let mut sizes = vec![0usize; count as usize];
        for file in &files {
            let shards: Vec<u32> = (1..=count)
                .filter(|&index| Partition { index, count }.contains(Path::new(file)))
                .collect();
            assert_eq!(shards.len(), 1, "{file} in shards {shards:?} of {count}");
            sizes[shards[0] as usize - 1] += 1;
        }
        // No shard is empty: the hash spreads the files.
        assert!(sizes.iter().all(|&n| n > 0), "{count} shards: {sizes:?}");
    }
}

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
