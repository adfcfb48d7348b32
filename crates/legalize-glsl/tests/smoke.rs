//! Plans and rewrites of the vertical slice, read back from the IR printer.

fn legalize(
    src: &str,
    entry: &str,
    stage: legalis_ir::ShaderStage,
) -> legalis_legalize_glsl::Legalized {
    let options = legalis_front::Options {
        entry: Some(entry.into()),
        stage: Some(stage),
        ..Default::default()
    };
    let out = legalis_front::compile(src, &options);
    let module = out
        .module
        .unwrap_or_else(|| panic!("{:#?}", out.diagnostics));
    legalis_legalize_glsl::legalize(&module, 0).unwrap_or_else(|e| panic!("{e:#?}"))
}

#[test]
fn vertex_struct_flattens() {
    let src = r#"
struct VsIn { float3 pos : POSITION; float2 uv : TEXCOORD0; uint vid : SV_VertexID; };
struct VsOut { float4 pos : SV_Position; float2 uv : TEXCOORD0; nointerpolation uint id : BLENDINDICES; };
VsOut main(VsIn input, uint iid : SV_InstanceID)
{
    VsOut o;
    o.pos = float4(input.pos, 1);
    o.uv = input.uv;
    o.id = input.vid + iid;
    return o;
}
"#;
    let l = legalize(src, "main", legalis_ir::ShaderStage::Vertex);
    let text = legalis_ir::print::print_module(&l.module);
    println!("{text}");
    assert!(text.contains("gl_VertexIndex"));
    assert_eq!(l.version, 460);
}
