//! The command line and the library build no C++ unless asked: without the
//! `cpp-tools` feature neither glslang nor SPIRV-Tools is in the
//! dependency graph of `legalis-cli` (what the README's first command
//! builds), and with it both are.

use std::process::Command;

/// The packages `cargo tree` lists for `legalis-cli`'s normal dependencies
/// with `features`.
fn dependencies(features: &[&str]) -> String {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .args(["tree", "--offline", "-p", "legalis-cli", "-e", "normal"])
        .args(["--prefix", "none", "--format", "{p}"])
        .current_dir(env!("CARGO_MANIFEST_DIR"));
    for feature in features {
        command.args(["--features", feature]);
    }
    let output = command.output().expect("cargo runs");
    assert!(
        output.status.success(),
        "cargo tree failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("cargo tree prints UTF-8")
}

fn has(tree: &str, package: &str) -> bool {
    tree.lines()
        .any(|line| line.starts_with(&format!("{package} v")))
}

#[test]
fn the_cpp_tools_come_only_with_their_feature() {
    let default = dependencies(&[]);
    assert!(has(&default, "legalis"), "{default}");
    for cpp in ["glslang-sys", "spirv-tools-sys", "legalis-validate"] {
        assert!(
            !has(&default, cpp),
            "{cpp} in the default build:\n{default}"
        );
    }
    let with = dependencies(&["cpp-tools"]);
    for cpp in ["glslang-sys", "spirv-tools-sys", "legalis-validate"] {
        assert!(has(&with, cpp), "{cpp} missing with cpp-tools:\n{with}");
    }
}
