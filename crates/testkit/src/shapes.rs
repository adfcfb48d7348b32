//! Generated shaders shared by the benchmarks and `cargo xtask bench`.

use std::fmt::Write as _;

/// The field counts of the scaling series.
pub const SIZES: [usize; 5] = [16, 64, 256, 1024, 4096];

/// A vertex shader passing `n` `float4` fields from its input struct to
/// its output struct.
pub fn passthrough(n: usize) -> String {
    let mut s = String::from("struct VertexIn\n{\n");
    for i in 0..n {
        let _ = writeln!(s, "    float4 f{i} : TEXCOORD{i};");
    }
    s.push_str("};\n\nstruct VertexOut\n{\n    float4 position : SV_Position;\n");
    for i in 0..n {
        let _ = writeln!(s, "    float4 f{i} : TEXCOORD{i};");
    }
    s.push_str("};\n\n[shader(\"vertex\")]\nVertexOut main(VertexIn input)\n{\n    VertexOut output;\n    output.position = input.f0;\n");
    for i in 0..n {
        let _ = writeln!(s, "    output.f{i} = input.f{i} * 2.0;");
    }
    s.push_str("    return output;\n}\n");
    s
}

#[cfg(test)]
mod tests {
    #[test]
    fn passthrough_has_n_fields_each_way() {
        let text = super::passthrough(3);
        assert_eq!(text.matches(": TEXCOORD").count(), 6);
        assert!(text.contains("output.f2 = input.f2 * 2.0;"));
        assert!(!text.contains("f3"));
    }
}
