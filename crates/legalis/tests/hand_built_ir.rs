//! The passes as a library: an IR module built by hand with the
//! `legalis_ir` API (no front end) is legalized and written for GLSL,
//! SPIR-V, WGSL and Metal by `legalis::passes::legalize_and_write`, and
//! each output goes through that target's validator (glslang, SPIRV-Tools
//! and naga's reader, naga, clang against the Metal model). The module is
//! also compiled from source, to show the helper writes what `compile`
//! writes for the same module.

use legalis::ir::{
    self, Binding, Expression, Function, FunctionParam, FunctionResult, Handle, IoAttrs, Module,
    ParamDirection, ParamRole, Scalar, Semantic, ShaderStage, Span, Statement, StructMember, Type,
    TypeInner,
};
use legalis::passes::{self, Options};
use legalis::{Target, codes};

/// The source the hand-built module stands for.
const SOURCE: &str = r#"
struct VsOut {
    float4 pos : SV_Position;
    float2 uv : TEXCOORD0;
};

[shader("vertex")]
VsOut main(float3 pos : POSITION, float2 uv : TEXCOORD0) {
    VsOut o;
    o.pos = float4(pos, 1.0);
    o.uv = uv;
    return o;
}
"#;

fn ty(module: &mut Module, name: Option<&str>, inner: TypeInner) -> Handle<Type> {
    let name = name.map(str::to_string);
    module.types.insert(Type { name, inner }, Span::UNDEFINED)
}

fn semantic(text: &str) -> IoAttrs {
    IoAttrs {
        binding: Some(Binding::Semantic(
            Semantic::parse(text).expect("a semantic"),
        )),
        ..IoAttrs::default()
    }
}

fn param(name: &str, ty: Handle<Type>, io: IoAttrs) -> FunctionParam {
    FunctionParam {
        name: name.to_string(),
        ty,
        direction: ParamDirection::In,
        role: ParamRole::Plain,
        io,
        span: Span::UNDEFINED,
    }
}

/// `SOURCE`, built with the IR API: a vertex entry point `main` reading
/// `POSITION` and `TEXCOORD0` and returning a struct of an `SV_Position`
/// and a `TEXCOORD0`.
fn vertex_module() -> Module {
    let mut m = Module::default();
    let float = ty(&mut m, None, TypeInner::Scalar(Scalar::F32));
    let vector = |size| TypeInner::Vector {
        size,
        scalar: Scalar::F32,
    };
    let float2 = ty(&mut m, None, vector(2));
    let float3 = ty(&mut m, None, vector(3));
    let float4 = ty(&mut m, None, vector(4));
    let member = |name: &str, ty, io| StructMember {
        name: name.to_string(),
        ty,
        io,
        matrix_layout: None,
        span: Span::UNDEFINED,
    };
    let members = vec![
        member("pos", float4, semantic("SV_Position")),
        member("uv", float2, semantic("TEXCOORD0")),
    ];
    let vs_out = ty(&mut m, Some("VsOut"), TypeInner::Struct { members });

    let mut f = Function {
        name: "main".to_string(),
        params: vec![
            param("pos", float3, semantic("POSITION")),
            param("uv", float2, semantic("TEXCOORD0")),
        ],
        result: Some(FunctionResult {
            ty: vs_out,
            io: IoAttrs::default(),
            span: Span::UNDEFINED,
        }),
        locals: ir::Arena::new(),
        expressions: ir::ExpressionArena::default(),
        body: ir::Block::default(),
        span: Span::UNDEFINED,
    };
    let o = f.locals.append(
        ir::LocalVariable {
            name: "o".to_string(),
            ty: vs_out,
            is_static: false,
            is_const: false,
        },
        Span::UNDEFINED,
    );
    let e = |f: &mut Function, expr, ty| f.expressions.append(expr, Some(ty), Span::UNDEFINED);
    f.body.push(
        Statement::Declare {
            local: o,
            init: None,
        },
        Span::UNDEFINED,
    );
    // o.pos = float4(pos, 1.0);
    let local = e(&mut f, Expression::Local(o), vs_out);
    let target = e(
        &mut f,
        Expression::Member {
            base: local,
            index: 0,
        },
        float4,
    );
    let pos = e(&mut f, Expression::Param(0), float3);
    let one = e(&mut f, Expression::Literal(ir::Literal::Float(1.0)), float);
    let components = vec![pos, one];
    let value = e(&mut f, Expression::Construct { components }, float4);
    f.body
        .push(Statement::Store { target, value }, Span::UNDEFINED);
    // o.uv = uv;
    let local = e(&mut f, Expression::Local(o), vs_out);
    let target = e(
        &mut f,
        Expression::Member {
            base: local,
            index: 1,
        },
        float2,
    );
    let value = e(&mut f, Expression::Param(1), float2);
    f.body
        .push(Statement::Store { target, value }, Span::UNDEFINED);
    // return o;
    let local = e(&mut f, Expression::Local(o), vs_out);
    f.body.push(Statement::Return(Some(local)), Span::UNDEFINED);

    let function = m.functions.append(f, Span::UNDEFINED);
    m.entry_points.push(ir::EntryPoint {
        name: "main".to_string(),
        stage: ShaderStage::Vertex,
        function,
        attributes: ir::EntryPointAttributes::default(),
        span: Span::UNDEFINED,
    });
    m
}

/// The helper's code for `target`, which must succeed without warnings.
fn written(module: &Module, target: Target) -> Vec<u8> {
    match passes::legalize_and_write(module, "main", target, &Options::default()) {
        Ok(written) => {
            assert!(
                written.warnings.is_empty(),
                "{target:?}: {:?}",
                written.warnings
            );
            assert_eq!(written.generated.stage, ShaderStage::Vertex);
            written.generated.bytes
        }
        Err(diagnostics) => panic!("{target:?}: {diagnostics:?}"),
    }
}

fn text(module: &Module, target: Target) -> String {
    String::from_utf8(written(module, target)).expect("text")
}

#[test]
fn the_hand_built_module_passes_the_ir_verifier() {
    ir::verify::verify(&vertex_module()).expect("a valid module");
}

#[test]
fn glsl_of_a_hand_built_module_is_valid() {
    let glsl = text(&vertex_module(), Target::Glsl);
    legalis_validate::validate_glsl(&glsl, ShaderStage::Vertex)
        .unwrap_or_else(|e| panic!("glslang: {e}\n{glsl}"));
    assert!(glsl.contains("gl_Position"), "{glsl}");
    assert!(glsl.contains("layout(location = 0) in vec3"), "{glsl}");
    assert!(glsl.contains("layout(location = 0) out vec2"), "{glsl}");
}

#[test]
fn spirv_of_a_hand_built_module_is_valid() {
    let bytes = written(&vertex_module(), Target::Spirv);
    assert_eq!(bytes.len() % 4, 0);
    let words: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .collect();
    assert_eq!(words[0], 0x0723_0203, "the SPIR-V magic number");
    legalis_validate::validate_spirv(&words, legalis_validate::TargetEnv::Vulkan_1_0)
        .unwrap_or_else(|e| panic!("spirv-val: {e}"));
    let read = legalis_validate::read_back_spirv(&words, ShaderStage::Vertex)
        .unwrap_or_else(|e| panic!("naga: {e}"));
    assert_eq!(read, legalis_validate::ReadBack::Read);
    let asm = text(&vertex_module(), Target::SpirvAsm);
    assert!(asm.contains("BuiltIn Position"), "{asm}");
}

#[test]
fn wgsl_of_a_hand_built_module_is_valid() {
    let wgsl = text(&vertex_module(), Target::Wgsl);
    legalis_validate::validate_wgsl(&wgsl, ShaderStage::Vertex)
        .unwrap_or_else(|e| panic!("naga: {e}\n{wgsl}"));
    assert!(wgsl.contains("@builtin(position)"), "{wgsl}");
    assert!(wgsl.contains("@location(0)"), "{wgsl}");
}

#[test]
fn metal_of_a_hand_built_module_is_valid() {
    let msl = text(&vertex_module(), Target::Metal);
    legalis_validate::metal::validate_metal(&msl).unwrap_or_else(|e| panic!("{e}\n{msl}"));
    assert!(msl.contains("[[position]]"), "{msl}");
    assert!(msl.contains("user(TEXCOORD)"), "{msl}");
}

/// The helper runs what `compile` runs after the front end: on the front
/// end's module of the same source it writes the same bytes.
#[test]
fn the_helper_writes_what_compile_writes() {
    for target in [Target::Glsl, Target::Spirv, Target::Wgsl, Target::Metal] {
        let request = legalis::Request::builder("vs.slang", SOURCE)
            .target(target)
            .build();
        let compiled = legalis::compile(&request);
        let module = compiled.module.expect("the source compiles");
        let from_source = compiled.output.expect("code").bytes;
        assert_eq!(written(&module, target), from_source, "{target:?}");
    }
}

#[test]
fn an_unknown_entry_point_is_e00007() {
    let errors =
        passes::legalize_and_write(&vertex_module(), "vmain", Target::Glsl, &Options::default())
            .unwrap_err();
    let [error] = errors.as_slice() else {
        panic!("one error: {errors:?}");
    };
    assert_eq!(error.code, codes::UNKNOWN_ENTRY_POINT);
    assert!(error.message.contains("`vmain`"), "{}", error.message);
    assert!(error.message.contains("main"), "{}", error.message);
}

/// A module the IR verifier refuses is a coded error, not a panic in a
/// legalizer.
#[test]
fn a_module_the_verifier_refuses_is_e00011() {
    let mut module = vertex_module();
    let function = module.entry_points[0].function;
    // `return o;` now reads a parameter the function does not have.
    let f = module.functions.get_mut(function);
    let vs_out = f.result.as_ref().expect("a result").ty;
    let missing = f
        .expressions
        .append(Expression::Param(7), Some(vs_out), Span::UNDEFINED);
    let last = f.body.stmts.len() - 1;
    f.body.stmts[last] = Statement::Return(Some(missing));
    for target in [Target::Glsl, Target::Wgsl, Target::Metal, Target::Cuda] {
        let errors =
            passes::legalize_and_write(&module, "main", target, &Options::default()).unwrap_err();
        assert!(
            errors.iter().any(|d| d.code == codes::INVALID_MODULE),
            "{target:?}: {errors:?}"
        );
    }
}

/// Several entry points: the one named is legalized, alone.
#[test]
fn the_named_entry_point_is_the_one_written() {
    let mut module = vertex_module();
    let mut other = module.entry_points[0].clone();
    other.name = "other".to_string();
    module.entry_points.insert(0, other);
    let glsl = text(&module, Target::Glsl);
    legalis_validate::validate_glsl(&glsl, ShaderStage::Vertex)
        .unwrap_or_else(|e| panic!("glslang: {e}\n{glsl}"));
    assert!(glsl.contains("entryPointParam_main"), "{glsl}");
    assert!(!glsl.contains("entryPointParam_other"), "{glsl}");
}
