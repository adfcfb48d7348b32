//! The shipped examples whose stages the GLSL/SPIR-V legalizer handles
//! compile to GLSL that glslang and the SPIR-V validator accept, and to
//! SPIR-V the validator accepts: the README's first command must produce
//! valid code.

use std::path::Path;

use legalis_testkit::legalis::{DownstreamValidator, InProcessLegalis};
use legalis_testkit::runner::{Compiler, Validator};

#[test]
fn vertex_fragment_compute_geometry_and_domain_examples_validate() {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    for (stage, target) in ["vertex", "fragment", "compute", "geometry", "domain"]
        .into_iter()
        .flat_map(|s| [(s, "glsl"), (s, "spirv-asm")])
    {
        let file = examples.join(format!("{stage}.slang"));
        let args: Vec<String> = ["-target", target, "-entry", "main", "-stage", stage]
            .map(String::from)
            .to_vec();
        let out = InProcessLegalis.run(&file, &args);
        assert_eq!(out.exit_code, Some(0), "{stage}: {}", out.stderr);
        let entry = if target == "glsl" {
            "void main()"
        } else {
            "OpEntryPoint"
        };
        assert!(out.stdout.contains(entry), "{stage}: {}", out.stdout);
        if let Err(error) = DownstreamValidator.validate(target, Some(stage), &out.stdout) {
            panic!(
                "{stage}: the validator rejects the example's {target}:\n{error}\n{}",
                out.stdout
            );
        }
    }
}
