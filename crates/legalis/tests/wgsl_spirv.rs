//! `-target wgsl-spirv-asm`: the WGSL Legalis writes, then naga's SPIR-V
//! writer on it. Every output the shipped examples give is valid SPIR-V
//! (assembled and validated by SPIRV-Tools), its entry point is the
//! example's stage, and it is the disassembly of `wgsl_to_spirv` of the
//! `-target wgsl` output. WGSL naga cannot make valid SPIR-V of is
//! `E00009`, never an invalid module.

use std::path::Path;

use legalis::{Request, Target};

fn compile(file: &str, target: Target) -> legalis::Compiled {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(file);
    let source = std::fs::read(&path).expect("the example exists");
    legalis::compile(&Request::builder(file, source).target(target).build())
}

#[test]
fn the_examples_become_valid_spirv_through_wgsl() {
    let examples = [
        ("vertex.slang", "OpEntryPoint Vertex"),
        ("fragment.slang", "OpEntryPoint Fragment"),
    ];
    for (file, entry) in examples {
        let compiled = compile(file, Target::WgslSpirvAsm);
        assert!(!compiled.has_errors(), "{file}: {:?}", compiled.diagnostics);
        let text = String::from_utf8(compiled.output.expect("an output").bytes).expect("text");
        assert!(text.contains(entry), "{file}: {text}");
        legalis_validate::validate_spirv_asm(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
        let wgsl = compile(file, Target::Wgsl).output.expect("WGSL").bytes;
        let words = legalis::wgsl_to_spirv(std::str::from_utf8(&wgsl).expect("text"))
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(text, legalis_emit::spirv::disassemble(&words), "{file}");
    }
}

#[test]
fn wgsl_naga_cannot_make_valid_spirv_of_is_a_coded_error() {
    assert!(legalis::wgsl_to_spirv("fn broken( {").is_err());
    // naga decorates a workgroup array with an ArrayStride, which the
    // SPIR-V validator rejects: E00009, not an invalid module.
    let compiled = compile("compute.slang", Target::WgslSpirvAsm);
    let codes: Vec<String> = compiled.diagnostics.iter().map(|d| d.code_str()).collect();
    assert!(compiled.output.is_none());
    assert_eq!(codes, ["E00009"], "{:?}", compiled.diagnostics);
    assert!(
        compiled.diagnostics[0].message.contains("Workgroup"),
        "{}",
        compiled.diagnostics[0].message
    );
}
