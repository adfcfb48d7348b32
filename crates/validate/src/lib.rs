//! Downstream validators for Legalis outputs, as a small library for tests
//! and the characterization harness.
//!
//! GLSL is compiled to SPIR-V by glslang (Vulkan 1.3 rules, SPIR-V 1.6) and
//! that SPIR-V is checked by the SPIRV-Tools validator; WGSL is parsed and
//! validated by naga in-process; CUDA and OptiX device code is compiled by
//! `nvcc -ptx` from the toolchain `cargo xtask setup` caches (`cuda`).
//! Every error string
//! carries the tool's own message, so a failing test shows what the real
//! validator said rather than a paraphrase.
//!
//! ```
//! use legalis_ir::ShaderStage;
//!
//! let wgsl = "@fragment fn main() -> @location(0) vec4<f32> { return vec4<f32>(1.0); }";
//! assert!(legalis_validate::validate_wgsl(wgsl, ShaderStage::Fragment).is_ok());
//! // The validator's own message comes back.
//! let error = legalis_validate::validate_wgsl("fn main( {", ShaderStage::Fragment).unwrap_err();
//! assert!(!error.is_empty());
//!
//! let glsl = "#version 450\nlayout(location = 0) out vec4 color;\nvoid main() { color = vec4(1.0); }";
//! let words = legalis_validate::validate_glsl(glsl, ShaderStage::Fragment).unwrap();
//! assert_eq!(words[0], 0x0723_0203); // the SPIR-V magic number
//! ```

#![warn(missing_docs)]

pub mod cuda;
pub mod metal;

use legalis_ir::ShaderStage;
use spirv_tools::val::Validator as _;

pub use spirv_tools::TargetEnv;

/// Compiles Vulkan GLSL for `stage` to SPIR-V 1.6 words with glslang.
pub fn glsl_to_spirv(source: &str, stage: ShaderStage) -> Result<Vec<u32>, String> {
    use glslang::{
        Compiler, CompilerOptions, ShaderInput, ShaderMessage, ShaderSource, SpirvVersion, Target,
        VulkanVersion,
    };
    let compiler = Compiler::acquire().ok_or("glslang could not be initialised")?;
    let source = ShaderSource::from(source.to_string());
    let options = CompilerOptions {
        target: Target::Vulkan {
            version: VulkanVersion::Vulkan1_3,
            spirv_version: SpirvVersion::SPIRV1_6,
        },
        messages: ShaderMessage::VULKAN_RULES | ShaderMessage::SPV_RULES,
        ..CompilerOptions::default()
    };
    let input = ShaderInput::new(
        &source,
        glslang_stage(stage),
        &options,
        None::<&[(&str, Option<&str>)]>,
        None,
    )
    .map_err(|e| format!("glslang: {e}"))?;
    let shader = compiler
        .create_shader(input)
        .map_err(|e| format!("glslang: {e}"))?;
    let mut program = compiler.create_program();
    program.add_shader(&shader);
    program
        .compile(glslang_stage(stage))
        .map_err(|e| format!("glslang: {e}"))
}

/// Validates a SPIR-V module with the SPIRV-Tools validator for `env`
/// (use [`TargetEnv::Vulkan_1_3`] unless a caller needs another).
///
/// A module that says `OpSourceExtension "GL_EXT_scalar_block_layout"`
/// (glslang's output of GLSL `layout(scalar)`, the SPIR-V writer's under
/// `-fvk-use-scalar-layout` or `-fvk-use-c-layout`) is checked with the
/// scalar block layout rules, as a device with `scalarBlockLayout` runs it;
/// every other module with the standard ones.
pub fn validate_spirv(words: &[u32], env: TargetEnv) -> Result<(), String> {
    let options = spirv_tools::val::ValidatorOptions {
        scalar_block_layout: source_extensions(words).any(|e| e == "GL_EXT_scalar_block_layout"),
        ..Default::default()
    };
    spirv_tools::val::create(Some(env))
        .validate(words, Some(options))
        .map_err(|e| format!("spirv-val: {e}"))
}

/// The strings of a module's `OpSourceExtension` instructions (none for
/// words that are not a module).
fn source_extensions(words: &[u32]) -> impl Iterator<Item = String> + '_ {
    const OP_SOURCE_EXTENSION: u32 = 4;
    let mut at = 5;
    std::iter::from_fn(move || {
        while let Some(&first) = words.get(at) {
            let (len, op) = ((first >> 16) as usize, first & 0xffff);
            let operands = words.get(at + 1..at + len.max(1))?;
            at += len.max(1);
            if op == OP_SOURCE_EXTENSION {
                let bytes: Vec<u8> = operands.iter().flat_map(|w| w.to_le_bytes()).collect();
                let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
                return Some(String::from_utf8_lossy(&bytes[..end]).into_owned());
            }
        }
        None
    })
}

/// Compiles GLSL with glslang and validates the result for Vulkan 1.3;
/// returns the SPIR-V words on success.
pub fn validate_glsl(source: &str, stage: ShaderStage) -> Result<Vec<u32>, String> {
    let words = glsl_to_spirv(source, stage)?;
    validate_spirv(&words, TargetEnv::Vulkan_1_3)?;
    Ok(words)
}

fn glslang_stage(stage: ShaderStage) -> glslang::ShaderStage {
    use glslang::ShaderStage as G;
    match stage {
        ShaderStage::Vertex => G::Vertex,
        ShaderStage::Hull => G::TesselationControl,
        ShaderStage::Domain => G::TesselationEvaluation,
        ShaderStage::Geometry => G::Geometry,
        ShaderStage::Fragment => G::Fragment,
        ShaderStage::Compute => G::Compute,
        ShaderStage::Mesh => G::Mesh,
        ShaderStage::Amplification => G::Task,
        ShaderStage::RayGeneration => G::RayGeneration,
        ShaderStage::Intersection => G::Intersect,
        ShaderStage::AnyHit => G::AnyHit,
        ShaderStage::ClosestHit => G::ClosestHit,
        ShaderStage::Miss => G::Miss,
        ShaderStage::Callable => G::Callable,
    }
}

/// Assembles SPIR-V assembly text (the `spirv-asm` form) with the SPIRV-Tools
/// assembler, so a text output can be validated like a binary one. The
/// module keeps the version its `; Version: 1.x` header names (the
/// assembler would otherwise stamp its environment's newest version, whose
/// rules differ).
pub fn assemble_spirv(text: &str) -> Result<Vec<u32>, String> {
    use spirv_tools::assembler::Assembler as _;
    let env = match declared_version(text) {
        Some(0) => TargetEnv::Universal_1_0,
        Some(1) => TargetEnv::Universal_1_1,
        Some(2) => TargetEnv::Universal_1_2,
        Some(3) => TargetEnv::Universal_1_3,
        Some(4) => TargetEnv::Universal_1_4,
        Some(5) => TargetEnv::Universal_1_5,
        _ => TargetEnv::Universal_1_6,
    };
    let assembler = spirv_tools::assembler::create(Some(env));
    let options = spirv_tools::assembler::AssemblerOptions::default();
    match assembler.assemble(text, options) {
        Ok(binary) => Ok(binary.as_words().to_vec()),
        Err(error) => Err(format!("spirv-as: {error}")),
    }
}

/// Assembles `spirv-asm` text and validates the module (Vulkan 1.3).
pub fn validate_spirv_asm(text: &str) -> Result<Vec<u32>, String> {
    let words = assemble_spirv(text)?;
    validate_spirv(&words, TargetEnv::Vulkan_1_3)?;
    Ok(words)
}

/// The minor version of a `; Version: 1.x` header line.
fn declared_version(text: &str) -> Option<u32> {
    text.lines()
        .take_while(|l| l.starts_with(';'))
        .find_map(|l| l.strip_prefix("; Version: 1."))
        .and_then(|minor| minor.trim().parse().ok())
}

/// What naga's SPIR-V front end made of a module (see [`read_back_spirv`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadBack {
    /// naga read the module, and found an entry point of the stage in it.
    Read,
    /// naga does not support something the module uses: its message (an
    /// unsupported execution model, capability, instruction, builtin...).
    Declined(String),
}

/// Reads a validated SPIR-V module back with naga's SPIR-V front end, a
/// second, independent reader. Every module is handed to naga, whatever
/// its stage: naga itself declines what it does not support (tessellation,
/// geometry and ray-tracing execution models, some capabilities and
/// instructions), which is [`ReadBack::Declined`] with naga's reason. Any
/// other error naga reports is an error, and so is a module naga reads
/// without an entry point of `stage`.
pub fn read_back_spirv(words: &[u32], stage: ShaderStage) -> Result<ReadBack, String> {
    let options = naga::front::spv::Options::default();
    let module = match naga::front::spv::Frontend::new(words.iter().copied(), &options).parse() {
        Ok(module) => module,
        Err(error)
            if naga_declines(&error)
                || naga_image_array_limit(&error, words)
                || naga_combined_sampler_limit(&error, words) =>
        {
            return Ok(ReadBack::Declined(error.to_string()));
        }
        Err(error) => return Err(format!("naga spv-in: {error}")),
    };
    let expected = naga_stage(stage);
    if module
        .entry_points
        .iter()
        .any(|entry| Some(entry.stage) == expected)
    {
        Ok(ReadBack::Read)
    } else {
        let found: Vec<String> = module
            .entry_points
            .iter()
            .map(|entry| format!("{:?}", entry.stage))
            .collect();
        Err(format!(
            "naga spv-in: no {} entry point in the module (found: {})",
            stage.name(),
            if found.is_empty() {
                "none".to_string()
            } else {
                found.join(", ")
            }
        ))
    }
}

/// naga's stage for one of ours, where naga has it.
fn naga_stage(stage: ShaderStage) -> Option<naga::ShaderStage> {
    Some(match stage {
        ShaderStage::Vertex => naga::ShaderStage::Vertex,
        ShaderStage::Fragment => naga::ShaderStage::Fragment,
        ShaderStage::Compute => naga::ShaderStage::Compute,
        ShaderStage::Mesh => naga::ShaderStage::Mesh,
        ShaderStage::Amplification => naga::ShaderStage::Task,
        ShaderStage::RayGeneration => naga::ShaderStage::RayGeneration,
        ShaderStage::Miss => naga::ShaderStage::Miss,
        ShaderStage::AnyHit => naga::ShaderStage::AnyHit,
        ShaderStage::ClosestHit => naga::ShaderStage::ClosestHit,
        _ => return None,
    })
}

/// Whether a naga SPIR-V front-end error is one of naga's own limits (a
/// feature it does not support) rather than a defect of the module, which
/// the SPIR-V validator has accepted. Decided by the error's kind, not its
/// wording; every kind not named here is a failure.
fn naga_declines(error: &naga::front::spv::Error) -> bool {
    use naga::front::spv::Error as E;
    matches!(
        error,
        E::UnsupportedInstruction(..)
            | E::UnsupportedCapability(_)
            | E::UnsupportedExtension(_)
            | E::UnsupportedExtSet(_)
            | E::UnsupportedExtInstSet(_)
            | E::UnsupportedExtInst(_)
            | E::UnsupportedType(_)
            | E::UnsupportedExecutionModel(_)
            | E::UnsupportedExecutionMode(_)
            | E::UnsupportedStorageClass(_)
            | E::UnsupportedImageDim(_)
            | E::UnsupportedImageFormat(_)
            | E::UnsupportedBuiltIn(_)
            | E::UnsupportedControlFlow(_)
            | E::UnsupportedBinaryOperator(_)
            | E::UnsupportedRuntimeArrayStorageClass
            | E::UnsupportedMatrixStride { .. }
            | E::UnsupportedGroupOperation(_)
            // "image read/write without format is not currently supported"
            | E::InvalidStorageImageWithoutFormat
            // "arrays of images / samplers are supported only through
            // bindings for now"
            | E::NonBindingArrayOfImageOrSamplers
            // "naga only supports specialization constant IDs up to 65535"
            | E::SpecIdTooHigh(_)
    )
}

/// naga 30's SPIR-V reader cannot take an image out of an array of images
/// (an indexed `Texture2D t[N]`): it takes the array's type for the
/// image's and reports `InvalidImage`. That error counts as declined only
/// in a module that has an array of images; anywhere else it is a failure.
fn naga_image_array_limit(error: &naga::front::spv::Error, words: &[u32]) -> bool {
    matches!(error, naga::front::spv::Error::InvalidImage(_)) && has_image_array(words)
}

/// naga 30's SPIR-V reader knows sampled images only as the result of
/// `OpSampledImage`: one loaded from a variable (a GLSL `sampler2D`, a
/// Slang `Sampler2D`) is an id it never recorded, `InvalidId`. That error
/// counts as declined only in a module with a pointer to a sampled image.
fn naga_combined_sampler_limit(error: &naga::front::spv::Error, words: &[u32]) -> bool {
    matches!(error, naga::front::spv::Error::InvalidId(_)) && has_sampled_image_pointer(words)
}

/// Whether a SPIR-V module declares a pointer to a sampled image (or to an
/// array of them).
fn has_sampled_image_pointer(words: &[u32]) -> bool {
    const TYPE_SAMPLED_IMAGE: u32 = 27;
    const TYPE_ARRAY: u32 = 28;
    const TYPE_RUNTIME_ARRAY: u32 = 29;
    const TYPE_POINTER: u32 = 32;
    let mut sampled = Vec::new();
    let mut at = 5; // past the header
    while let Some(&first) = words.get(at) {
        let (count, opcode) = ((first >> 16) as usize, first & 0xffff);
        let operands = words.get(at + 1..at + count.max(1)).unwrap_or(&[]);
        match opcode {
            TYPE_SAMPLED_IMAGE => sampled.extend(operands.first()),
            TYPE_ARRAY | TYPE_RUNTIME_ARRAY
                if operands.get(1).is_some_and(|e| sampled.contains(e)) =>
            {
                sampled.extend(operands.first());
            }
            TYPE_POINTER if operands.get(2).is_some_and(|p| sampled.contains(p)) => {
                return true;
            }
            _ => {}
        }
        at += count.max(1);
    }
    false
}

/// Whether a SPIR-V module declares an array (sized or runtime) of images
/// or of sampled images.
fn has_image_array(words: &[u32]) -> bool {
    const TYPE_IMAGE: u32 = 25;
    const TYPE_SAMPLED_IMAGE: u32 = 27;
    const TYPE_ARRAY: u32 = 28;
    const TYPE_RUNTIME_ARRAY: u32 = 29;
    let mut images = Vec::new();
    let mut at = 5; // past the header
    while let Some(&first) = words.get(at) {
        let (count, opcode) = ((first >> 16) as usize, first & 0xffff);
        let operands = words.get(at + 1..at + count.max(1)).unwrap_or(&[]);
        match opcode {
            TYPE_IMAGE | TYPE_SAMPLED_IMAGE => images.extend(operands.first()),
            TYPE_ARRAY | TYPE_RUNTIME_ARRAY
                if operands
                    .get(1)
                    .is_some_and(|element| images.contains(element)) =>
            {
                return true;
            }
            _ => {}
        }
        at += count.max(1);
    }
    false
}

/// The capabilities naga validates WGSL under: core WebGPU (naga's
/// defaults plus `SHADER_FLOAT16_IN_FLOAT32`: `pack2x16float` and
/// `unpack2x16float` are core WGSL that naga gates for old GL backends)
/// and WebGPU's optional features that a module asks for with `enable`
/// (`f16`, `dual_source_blending`, `clip_distances`). naga's WGSL front
/// end refuses a feature's use without its `enable`, so granting them
/// lets no module through that does not ask.
pub const WGSL_CAPABILITIES: naga::valid::Capabilities =
    naga::valid::Capabilities::SHADER_FLOAT16_IN_FLOAT32
        .union(naga::valid::Capabilities::SHADER_FLOAT16)
        .union(naga::valid::Capabilities::DUAL_SOURCE_BLENDING)
        .union(naga::valid::Capabilities::CLIP_DISTANCES);

/// Parses and validates WGSL with naga, in-process: the WGSL front end,
/// then naga's validator with every check on (uniformity included) and
/// [`WGSL_CAPABILITIES`]. The module must have exactly one
/// entry point, of `stage`. Errors carry naga's own rendering, with the
/// offending line.
pub fn validate_wgsl(source: &str, stage: ShaderStage) -> Result<naga::Module, String> {
    let module = naga::front::wgsl::parse_str(source)
        .map_err(|e| format!("naga (WGSL): {}", e.emit_to_string(source)))?;
    let mut validator = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::default() | WGSL_CAPABILITIES,
    );
    validator
        .validate(&module)
        .map_err(|e| format!("naga (WGSL validation): {}", e.emit_to_string(source)))?;
    let expected = match stage {
        ShaderStage::Vertex => naga::ShaderStage::Vertex,
        ShaderStage::Fragment => naga::ShaderStage::Fragment,
        ShaderStage::Compute => naga::ShaderStage::Compute,
        other => return Err(format!("WGSL has no {} stage", other.name())),
    };
    match module.entry_points.as_slice() {
        [entry] if entry.stage == expected => Ok(module),
        entries => Err(format!(
            "naga (WGSL): expected one {} entry point, found {}",
            stage.name(),
            entries.len()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_version(body: &str) -> String {
        if body.starts_with("#version") {
            body.to_string()
        } else {
            format!("#version 450\n{body}")
        }
    }

    fn ok(stage: ShaderStage, body: &str) {
        let src = with_version(body);
        if let Err(e) = validate_glsl(&src, stage) {
            panic!("{stage:?} should validate:\n{src}\n{e}");
        }
    }

    fn bad(stage: ShaderStage, body: &str, expect: &str) {
        let src = with_version(body);
        let err = validate_glsl(&src, stage).expect_err("invalid shader was accepted");
        assert!(err.contains(expect), "message lacks {expect:?}: {err}");
    }

    /// A scalar block (`vec3` array elements 12 bytes apart) is valid as
    /// glslang writes it, saying `GL_EXT_scalar_block_layout`, and invalid
    /// under the standard rules once that is taken out.
    #[test]
    fn scalar_block_layout_follows_the_source_extension() {
        let src = "#version 450\n#extension GL_EXT_scalar_block_layout : require\n\
            layout(scalar, binding = 0) buffer B { float f; vec3 v[2]; } b;\n\
            layout(local_size_x = 1) in;\nvoid main() { b.v[1] = vec3(b.f); }";
        let words = validate_glsl(src, ShaderStage::Compute).expect("scalar block");
        assert_eq!(
            source_extensions(&words).collect::<Vec<_>>(),
            ["GL_EXT_scalar_block_layout"]
        );
        let mut at = 5;
        let mut without = words.clone();
        while at < without.len() {
            let len = (without[at] >> 16) as usize;
            if without[at] & 0xffff == 4 {
                without.drain(at..at + len);
                continue;
            }
            at += len;
        }
        assert_eq!(source_extensions(&without).count(), 0);
        let err = validate_spirv(&without, TargetEnv::Vulkan_1_3).expect_err("std430 rules");
        assert!(err.contains("layout"), "{err}");
    }

    #[test]
    fn vertex() {
        ok(
            ShaderStage::Vertex,
            "layout(location = 0) in vec3 p; void main() { gl_Position = vec4(p, 1.0); }",
        );
        bad(
            ShaderStage::Vertex,
            "void main() { gl_Position = vec3(1.0); }",
            "ERROR",
        );
    }

    #[test]
    fn fragment() {
        ok(
            ShaderStage::Fragment,
            "layout(location = 0) out vec4 c; void main() { c = vec4(gl_FragCoord.xy, 0.0, 1.0); }",
        );
        bad(
            ShaderStage::Fragment,
            "void main() { undeclared = 1.0; }",
            "undeclared",
        );
    }

    #[test]
    fn compute() {
        ok(
            ShaderStage::Compute,
            "layout(local_size_x = 8) in; layout(std430, binding = 0) buffer B { uint d[]; } b;\n\
             void main() { b.d[gl_GlobalInvocationID.x] = 1u; }",
        );
        bad(
            ShaderStage::Compute,
            "layout(local_size_x = 1) in; void main() { int x = 1.5; }",
            "cannot convert",
        );
    }

    #[test]
    fn hull_and_mesh_and_raygen() {
        ok(
            ShaderStage::Hull,
            "layout(vertices = 3) out; void main() { gl_TessLevelOuter[0] = 1.0; }",
        );
        ok(
            ShaderStage::Mesh,
            "#extension GL_EXT_mesh_shader : require\nlayout(local_size_x = 1) in;\n\
             layout(triangles, max_vertices = 3, max_primitives = 1) out;\n\
             void main() { SetMeshOutputsEXT(0, 0); }",
        );
        ok(
            ShaderStage::RayGeneration,
            "#version 460\n#extension GL_EXT_ray_tracing : require\nvoid main() { uvec3 i = gl_LaunchIDEXT; }",
        );
        bad(
            ShaderStage::Geometry,
            "void main() { EmitVertex(); }",
            "ERROR",
        );
    }

    /// `OpCapability Shader; OpMemoryModel Logical GLSL450` and nothing else.
    fn header(extra: &[u32]) -> Vec<u32> {
        let mut words = vec![0x0723_0203, 0x0001_0600, 0, 100, 0];
        words.extend([0x0002_0011, 1]);
        words.extend(extra);
        words
    }

    #[test]
    fn spirv_modules() {
        let valid = validate_glsl(
            "#version 450\nlayout(local_size_x = 1) in; void main() {}",
            ShaderStage::Compute,
        )
        .expect("valid compute shader");
        assert!(validate_spirv(&valid, TargetEnv::Vulkan_1_3).is_ok());
        // Without an OpMemoryModel the module is malformed.
        let err = validate_spirv(&header(&[]), TargetEnv::Vulkan_1_3).unwrap_err();
        assert!(err.contains("MemoryModel"), "{err}");
        let mut bad_magic = valid.clone();
        bad_magic[0] = 0xdead_beef;
        let err = validate_spirv(&bad_magic, TargetEnv::Vulkan_1_3).unwrap_err();
        assert!(err.starts_with("spirv-val:"), "{err}");
    }

    const TINY_COMPUTE: &str = "; SPIR-V\n; Version: 1.0\n\
               OpCapability Shader\n\
               OpMemoryModel Logical GLSL450\n\
               OpEntryPoint GLCompute %main \"main\"\n\
               OpExecutionMode %main LocalSize 1 1 1\n\
       %void = OpTypeVoid\n\
         %fn = OpTypeFunction %void\n\
       %main = OpFunction %void None %fn\n\
      %entry = OpLabel\n\
               OpReturn\n\
               OpFunctionEnd\n";

    #[test]
    fn spirv_assembly_is_assembled_at_its_declared_version_and_read_back() {
        let words = validate_spirv_asm(TINY_COMPUTE).expect("a valid module");
        assert_eq!(words[1], 0x0001_0000, "the header's version 1.0 is kept");
        assert_eq!(
            read_back_spirv(&words, ShaderStage::Compute),
            Ok(ReadBack::Read)
        );
        let broken = TINY_COMPUTE.replace("OpReturn\n", "");
        assert!(
            validate_spirv_asm(&broken).is_err(),
            "a block without a terminator"
        );
        assert!(
            assemble_spirv("OpBogus %x")
                .unwrap_err()
                .starts_with("spirv-as:")
        );
    }

    /// naga cannot take an image out of an array of images; that one
    /// error is declined in such a module only.
    #[test]
    fn an_image_array_is_a_naga_limit_and_nothing_else_is() {
        let words = validate_glsl(
            "#version 450\nlayout(local_size_x = 1) in;\n\
             layout(set = 0, binding = 0) uniform sampler2D s[2];\n\
             layout(set = 0, binding = 1, std430) buffer B { vec4 o; };\n\
             void main() { o = texelFetch(s[int(o.x)], ivec2(0), 0); }",
            ShaderStage::Compute,
        )
        .expect("a valid shader");
        assert!(has_image_array(&words));
        let plain = validate_spirv_asm(TINY_COMPUTE).expect("a valid module");
        assert!(!has_image_array(&plain));
        let mut types = naga::UniqueArena::new();
        let ty = naga::Type {
            name: None,
            inner: naga::TypeInner::Scalar(naga::Scalar::F32),
        };
        let image = naga::front::spv::Error::InvalidImage(types.insert(ty, naga::Span::UNDEFINED));
        assert!(!naga_image_array_limit(&image, &plain));
        assert!(naga_image_array_limit(&image, &words));
    }

    /// naga cannot read a sampled image loaded from a variable; its
    /// `InvalidId` is declined in a module with such a variable only.
    #[test]
    fn a_combined_sampler_variable_is_a_naga_limit_and_nothing_else_is() {
        let words = validate_glsl(
            "#version 450\nlayout(local_size_x = 1) in;\n\
             layout(set = 0, binding = 0) uniform sampler2D s;\n\
             layout(set = 0, binding = 1, std430) buffer B { vec4 o; };\n\
             void main() { o = textureLod(s, vec2(0.5), 0.0); }",
            ShaderStage::Compute,
        )
        .expect("a valid shader");
        assert!(has_sampled_image_pointer(&words));
        match read_back_spirv(&words, ShaderStage::Compute) {
            Ok(ReadBack::Declined(reason)) => assert!(reason.contains("id"), "{reason}"),
            other => panic!("naga 30 cannot read a sampler2D variable: {other:?}"),
        }
        let plain = validate_spirv_asm(TINY_COMPUTE).expect("a valid module");
        assert!(!has_sampled_image_pointer(&plain));
        let invalid = naga::front::spv::Error::InvalidId(7);
        assert!(!naga_combined_sampler_limit(&invalid, &plain));
        assert!(naga_combined_sampler_limit(&invalid, &words));
    }

    #[test]
    fn naga_reads_back_every_stage_it_supports_and_declines_the_others() {
        let glsl = |stage, body: &str| validate_glsl(body, stage).expect("a valid shader");
        let mesh = glsl(
            ShaderStage::Mesh,
            "#version 450\n#extension GL_EXT_mesh_shader : require\nlayout(local_size_x = 1) in;\n\
             layout(triangles, max_vertices = 3, max_primitives = 1) out;\n\
             void main() { SetMeshOutputsEXT(0, 0); }",
        );
        // naga's reader knows the mesh execution model, not yet its
        // capability: declined by naga, not skipped by us.
        match read_back_spirv(&mesh, ShaderStage::Mesh) {
            Ok(ReadBack::Declined(reason)) => {
                assert!(reason.contains("MeshShadingEXT"), "{reason}")
            }
            other => panic!("naga 30 declines MeshShadingEXT: {other:?}"),
        }
        let hull = glsl(
            ShaderStage::Hull,
            "#version 450\nlayout(vertices = 3) out; void main() { gl_TessLevelOuter[0] = 1.0; }",
        );
        match read_back_spirv(&hull, ShaderStage::Hull) {
            Ok(ReadBack::Declined(reason)) => {
                assert!(reason.contains("Tessellation"), "{reason}")
            }
            other => panic!("naga has no tessellation stage: {other:?}"),
        }
    }

    #[test]
    fn a_module_naga_rejects_for_another_reason_fails_the_read_back() {
        // A module of a stage naga does not read is still handed to naga:
        // broken, it fails, it is not "not read".
        let words = validate_spirv_asm(TINY_COMPUTE).expect("a valid module");
        let truncated = &words[..words.len() - 3];
        let error = read_back_spirv(truncated, ShaderStage::Hull).unwrap_err();
        assert!(error.starts_with("naga spv-in:"), "{error}");
        let mut bad_magic = words.clone();
        bad_magic[0] = 0xdead_beef;
        assert!(read_back_spirv(&bad_magic, ShaderStage::Geometry).is_err());
        // Read, but without the stage's entry point.
        let error = read_back_spirv(&words, ShaderStage::Vertex).unwrap_err();
        assert!(error.contains("no vertex entry point"), "{error}");
    }

    #[test]
    fn wgsl_is_validated_and_rejections_carry_nagas_message() {
        let good = "@fragment fn main() -> @location(0) vec4<f32> { return vec4<f32>(1.0); }";
        assert!(validate_wgsl(good, ShaderStage::Fragment).is_ok());
        let wrong_stage = validate_wgsl(good, ShaderStage::Vertex).unwrap_err();
        assert!(
            wrong_stage.contains("expected one vertex entry point"),
            "{wrong_stage}"
        );
        let bad = "@fragment fn main() -> @location(0) vec4<f32> { return 1; }";
        let error = validate_wgsl(bad, ShaderStage::Fragment).unwrap_err();
        assert!(error.starts_with("naga (WGSL"), "{error}");
    }
}
