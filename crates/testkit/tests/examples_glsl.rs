//! The shipped examples whose stages the GLSL target handles compile to
//! GLSL that glslang and the SPIR-V validator accept: the README's first
//! command must produce valid code.

use std::path::Path;

use legalis_testkit::legalis::{DownstreamValidator, InProcessLegalis};
use legalis_testkit::runner::{Compiler, Validator};

#[test]
fn vertex_fragment_and_compute_examples_validate() {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    for stage in ["vertex", "fragment", "compute"] {
        let file = examples.join(format!("{stage}.slang"));
        let args: Vec<String> = ["-target", "glsl", "-entry", "main", "-stage", stage]
            .map(String::from)
            .to_vec();
        let out = InProcessLegalis.run(&file, &args);
        assert_eq!(out.exit_code, Some(0), "{stage}: {}", out.stderr);
        assert!(
            out.stdout.contains("void main()"),
            "{stage}: {}",
            out.stdout
        );
        if let Err(error) = DownstreamValidator.validate("glsl", Some(stage), &out.stdout) {
            panic!(
                "{stage}: the validator rejects the example's GLSL:\n{error}\n{}",
                out.stdout
            );
        }
    }
}
