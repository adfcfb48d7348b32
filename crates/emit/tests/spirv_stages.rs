//! SPIR-V writer, end to end: shaders go through the front end, the
//! GLSL/SPIR-V legalizer, the binding pass that reads entry-point resource
//! parameters as their globals (as the facade runs it) and the SPIR-V
//! writer; every module must pass
//! spirv-val (Vulkan 1.3), and the disassembly pins the tokens that show
//! each behaviour (B2, B3, B4, B6) was lowered the intended way.

use legalis_emit::spirv;
use legalis_ir::ShaderStage;
use legalis_legalize::Family;
use legalis_validate::TargetEnv;

/// Compiles, legalizes, writes and validates; returns the disassembly.
fn spirv_asm(src: &str, entry: &str, stage: ShaderStage) -> String {
    spirv_asm_with(src, entry, stage, false)
}

/// [`spirv_asm`], with `-allow-glsl`'s front-end option when `allow_glsl`.
fn spirv_asm_with(src: &str, entry: &str, stage: ShaderStage, allow_glsl: bool) -> String {
    let options = legalis_front::Options {
        entry: Some(entry.to_string()),
        stage: Some(stage),
        allow_glsl,
        ..Default::default()
    };
    let out = legalis_front::compile(src, &options);
    let module = out
        .module
        .unwrap_or_else(|| panic!("front end rejected the shader: {:#?}", out.diagnostics));
    let legalized =
        legalis_legalize::glsl::Glsl::legalize(&module, 0, &legalis_ir::Policy::default())
            .unwrap_or_else(|d| panic!("legalizer rejected the shader: {d:#?}"));
    let words = spirv::write(&legalized.module, 0, &spirv::Options::default())
        .unwrap_or_else(|e| panic!("writer failed: {e} at {:?}", e.span()));
    // The byte writer gives the same module, word for word.
    let bytes = spirv::write_le_bytes(&legalized.module, 0, &spirv::Options::default())
        .unwrap_or_else(|e| panic!("byte writer failed: {e} at {:?}", e.span()));
    let expected: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    assert_eq!(bytes, expected, "write_le_bytes differs from write");
    let text = spirv::disassemble(&words);
    if let Err(e) = legalis_validate::validate_spirv(&words, TargetEnv::Vulkan_1_3) {
        panic!("module does not validate:\n{text}\n{e}");
    }
    text
}

fn has(out: &str, tokens: &[&str]) {
    for t in tokens {
        assert!(out.contains(t), "missing {t:?} in:\n{out}");
    }
}

fn example(path: &str) -> String {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../");
    std::fs::read_to_string(format!("{root}{path}")).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn b2_struct_flatten_gives_one_variable_per_field_and_builtin_position() {
    let out = spirv_asm(
        &example("tests/legalize/vertex-struct-flatten.slang"),
        "main",
        ShaderStage::Vertex,
    );
    has(
        &out,
        &[
            "OpEntryPoint Vertex %main \"main\"",
            "OpDecorate %input_pos Location 0",
            "OpDecorate %input_normal Location 1",
            "OpDecorate %input_uv Location 2",
            "OpDecorate %gl_Position BuiltIn Position",
            "%input_pos = OpVariable %_ptr_Input_v3float Input",
            "%gl_Position = OpVariable %_ptr_Output_v4float Output",
        ],
    );
    assert!(!out.contains("%gl_Position Location"), "{out}");
}

#[test]
fn b3_compute_ids_are_builtins_and_numthreads_is_the_local_size() {
    let out = spirv_asm(
        &example("tests/legalize/compute-ids.slang"),
        "main",
        ShaderStage::Compute,
    );
    has(
        &out,
        &[
            "OpEntryPoint GLCompute %main \"main\"",
            "OpExecutionMode %main LocalSize 8 4 1",
            "BuiltIn GlobalInvocationId",
            "BuiltIn WorkgroupId",
            "BuiltIn LocalInvocationId",
            "BuiltIn LocalInvocationIndex",
            "%_ptr_Input_v3uint",
            "OpDecorate %results DescriptorSet 0",
            "OpDecorate %results Binding 0",
            "%_runtimearr_uint",
        ],
    );
}

#[test]
fn b4_fragment_position_and_face() {
    let out = spirv_asm(
        &example("tests/legalize/fragment-position-face.slang"),
        "main",
        ShaderStage::Fragment,
    );
    has(
        &out,
        &[
            "OpEntryPoint Fragment %main \"main\"",
            "OpExecutionMode %main OriginUpperLeft",
            "BuiltIn FragCoord",
            "BuiltIn FrontFacing",
            "%_ptr_Input_bool",
            "OpDecorate %input_uv Location 0",
        ],
    );
}

#[test]
fn b6_vertex_and_instance_are_rebased_with_draw_parameters() {
    let out = spirv_asm(
        &example("tests/legalize/vertex-instance-rebasing.slang"),
        "main",
        ShaderStage::Vertex,
    );
    has(
        &out,
        &[
            "OpCapability DrawParameters",
            "OpExtension \"SPV_KHR_shader_draw_parameters\"",
            "BuiltIn VertexIndex",
            "BuiltIn BaseVertex",
            "BuiltIn InstanceIndex",
            "BuiltIn BaseInstance",
            "OpISub %int",
            "Flat",
        ],
    );
}

#[test]
fn examples_validate() {
    for (path, stage) in [
        ("examples/vertex.slang", ShaderStage::Vertex),
        ("examples/fragment.slang", ShaderStage::Fragment),
        ("examples/compute.slang", ShaderStage::Compute),
        ("examples/geometry.slang", ShaderStage::Geometry),
        ("examples/hull.slang", ShaderStage::Hull),
        ("examples/domain.slang", ShaderStage::Domain),
        ("examples/mesh.slang", ShaderStage::Mesh),
        ("examples/amplification.slang", ShaderStage::Amplification),
    ] {
        let out = spirv_asm(&example(path), "main", stage);
        assert!(out.contains("OpFunctionEnd"), "{path}:\n{out}");
    }
}

#[test]
fn every_legalize_test_source_validates_where_it_legalizes() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/legalize");
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    let mut written = 0;
    for p in paths {
        let src = std::fs::read_to_string(&p).unwrap();
        if src.contains("//DIAGNOSTIC_TEST") {
            continue;
        }
        // The entry point and stage of the first directive.
        let Some(directive) = src
            .lines()
            .find(|l| l.starts_with("//TEST:") && l.contains("-stage "))
        else {
            continue;
        };
        let option = |name: &str| {
            directive
                .split_once(name)
                .and_then(|(_, rest)| rest.split_whitespace().next())
        };
        let Some(stage) = option("-stage ").and_then(ShaderStage::from_name) else {
            continue;
        };
        let entry = option("-entry ").unwrap_or("main");
        spirv_asm_with(&src, entry, stage, directive.contains("-allow-glsl"));
        written += 1;
    }
    assert!(written >= 4, "only {written} sources were written");
}

#[test]
fn disassembly_is_stable_and_names_are_unique() {
    let src = example("examples/vertex.slang");
    let a = spirv_asm(&src, "main", ShaderStage::Vertex);
    let b = spirv_asm(&src, "main", ShaderStage::Vertex);
    assert_eq!(a, b);
    let mut defined = std::collections::HashSet::new();
    for line in a.lines() {
        if let Some((lhs, _)) = line.split_once(" = ") {
            assert!(
                defined.insert(lhs.trim().to_string()),
                "{lhs} defined twice:\n{a}"
            );
        }
    }
    has(
        &a,
        &[
            "%float = OpTypeFloat 32",
            "%v4float = OpTypeVector %float 4",
            "%mat4v4float",
            "%float_1 = OpConstant %float 1",
            "RowMajor",
            "MatrixStride 16",
            "OpDecorate %type_PerFrame Block",
        ],
    );
}
