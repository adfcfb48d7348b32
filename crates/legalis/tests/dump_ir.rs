//! Pins the whole `-dump-ir` output of every shader in `examples/` (one per
//! stage) as an insta snapshot under `snapshots/dump-ir/`, so any change in
//! what the front end produces shows up as a reviewable diff
//! (`cargo insta review`). With `CI=true` insta writes nothing and fails on
//! any difference.

use std::fs;
use std::path::{Path, PathBuf};

fn repository_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The arguments on an example's second line (`// legalis FILE ARGS`).
fn example_request(root: &Path, name: &str) -> (legalis::Request, String) {
    let path = root.join("examples").join(name);
    let text = fs::read_to_string(&path).expect("example file");
    let command = text
        .lines()
        .nth(1)
        .and_then(|l| l.strip_prefix("// legalis "))
        .expect("line 2 is `// legalis ARGS`");
    let args: Vec<&str> = command.split_whitespace().collect();
    let mut request = legalis::Request::builder(format!("examples/{name}"), text.as_str()).build();
    let mut i = 0;
    while i < args.len() {
        match args[i] {
            "-entry" => {
                request.entry = Some(args[i + 1].to_string());
                i += 1;
            }
            "-stage" => {
                request.stage = Some(legalis::ShaderStage::from_name(args[i + 1]).expect("stage"));
                i += 1;
            }
            _ => {}
        }
        i += 1;
    }
    (request, command.to_string())
}

#[test]
fn every_example_dump_ir_is_pinned() {
    let root = repository_root();
    let mut names: Vec<String> = fs::read_dir(root.join("examples"))
        .expect("examples/")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".slang"))
        .collect();
    names.sort();
    assert_eq!(names.len(), 14, "one example per stage");
    for name in names {
        let (request, command) = example_request(&root, &name);
        let compiled = legalis::compile(&request);
        let rendered = legalis::render::render_human(
            &request.path,
            &compiled.source_text,
            &compiled.diagnostics,
            false,
        );
        let module = compiled
            .module
            .unwrap_or_else(|| panic!("{command}:\n{rendered}"));
        if let Err(errors) = legalis_ir::verify::verify(&module) {
            panic!("{command}: the verifier rejects the module: {errors:?}");
        }
        let stem = name.trim_end_matches(".slang").to_string();
        insta::with_settings!({
            snapshot_path => root.join("snapshots/dump-ir"),
            prepend_module_to_snapshot => false,
            description => format!("legalis {command}"),
            input_file => format!("examples/{name}"),
            omit_expression => true,
        }, {
            insta::assert_snapshot!(stem, legalis::dump_ir(&module));
        });
    }
}
