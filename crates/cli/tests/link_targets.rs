//! Every target × linking: several `-entry` that are the stages of one
//! graphics pipeline give each stage's code in the target's own language
//! (under a `legalis link:` header on standard output, one file per stage
//! with the target's extension under `-o FOLDER`), with the fragment
//! stage's inputs where the vertex stage writes them; or a coded error.
//! Never another target's code (issue 27: Metal and WGSL linking once
//! wrote one module that did not link, or SPIR-V, in `.glsl` files).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use legalis::{ShaderStage, Target};

/// A vertex and a fragment stage; the fragment reads a subset of the
/// vertex outputs in another order, so numbering it alone would disagree.
const PIPELINE: &str = "\
struct VertexOut
{
    float4 position : SV_Position;
    float2 uv : TEXCOORD0;
    float3 normal : NORMAL;
    float4 tint : COLOR1;
};

[shader(\"vertex\")]
VertexOut vs(float3 position : POSITION)
{
    VertexOut o;
    o.position = float4(position, 1.0);
    o.uv = position.xy;
    o.normal = position;
    o.tint = float4(position, 0.5);
    return o;
}

[shader(\"fragment\")]
float4 fs(float4 tint : COLOR1, float2 uv : TEXCOORD0) : SV_Target
{
    return tint * uv.x;
}
";

const STAGES: [(&str, ShaderStage); 2] =
    [("vs", ShaderStage::Vertex), ("fs", ShaderStage::Fragment)];

struct Run {
    code: Option<i32>,
    stdout: Vec<u8>,
    stderr: String,
}

fn legalis(dir: &Path, args: &[&str]) -> Run {
    let output = Command::new(env!("CARGO_BIN_EXE_legalis"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the legalis binary runs");
    let run = Run {
        code: output.status.code(),
        stdout: output.stdout,
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    };
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    run
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("link-targets")
        .join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("scratch folder");
    fs::write(dir.join("p.slang"), PIPELINE).expect("scratch file");
    dir
}

/// What linking for `target` must give: `(comment, extension)` of the
/// stages' code, or the code of the error that refuses it.
fn expected(target: Target) -> Result<(&'static str, &'static str), &'static str> {
    match target {
        Target::Glsl => Ok(("//", "glsl")),
        Target::Spirv => Ok((";", "spv")),
        Target::SpirvAsm | Target::WgslSpirvAsm => Ok((";", "spvasm")),
        Target::Wgsl => Ok(("//", "wgsl")),
        Target::Metal => Ok(("//", "metal")),
        Target::Cuda => Err("E00012"),
        other => panic!("no expectation for `{}`: add one", other.name()),
    }
}

const SPIRV_MAGIC: [u8; 4] = 0x0723_0203_u32.to_le_bytes();

/// Asserts that `code` is one `stage`'s code for `target`, valid by the
/// target's validator (for Metal, whose compiler does not run here, its
/// entry-point signature read back).
fn assert_is_code(target: Target, stage: ShaderStage, code: &[u8]) {
    let what = format!("{} {}", target.name(), stage.name());
    if target == Target::Spirv {
        assert!(code.starts_with(&SPIRV_MAGIC), "{what}: not SPIR-V");
        let words: Vec<u32> = code
            .chunks_exact(4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        legalis_validate::validate_spirv(&words, legalis_validate::TargetEnv::Vulkan_1_3)
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        return;
    }
    assert!(!code.starts_with(&SPIRV_MAGIC), "{what}: a SPIR-V binary");
    let text = std::str::from_utf8(code).unwrap_or_else(|e| panic!("{what}: not text: {e}"));
    match target {
        Target::Glsl => {
            assert!(text.starts_with("#version "), "{what}:\n{text}");
            legalis_validate::validate_glsl(text, stage).unwrap_or_else(|e| panic!("{what}: {e}"));
        }
        Target::SpirvAsm | Target::WgslSpirvAsm => {
            assert!(text.starts_with("; SPIR-V"), "{what}:\n{text}");
            legalis_validate::validate_spirv_asm(text).unwrap_or_else(|e| panic!("{what}: {e}"));
        }
        Target::Wgsl => {
            legalis_validate::validate_wgsl(text, stage).unwrap_or_else(|e| panic!("{what}: {e}"));
        }
        Target::Metal => {
            assert!(
                text.starts_with("#include <metal_stdlib>"),
                "{what}:\n{text}"
            );
            let signature = legalis_testkit::msl_signature::read(text)
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_eq!(signature.qualifier, stage.name(), "{what}");
        }
        _ => panic!("{what}: no check"),
    }
}

/// The `(entry (stage), code)` sections of a linked output on standard
/// output, each under its `COMMENT legalis link: ENTRY (STAGE)` line.
fn sections(stdout: &[u8], comment: &str) -> Vec<(String, Vec<u8>)> {
    let header = format!("{comment} legalis link: ");
    let mut sections: Vec<(String, Vec<u8>)> = Vec::new();
    for line in stdout.split_inclusive(|&b| b == b'\n') {
        let named = std::str::from_utf8(line)
            .ok()
            .and_then(|l| l.strip_prefix(&header));
        match (named, sections.last_mut()) {
            (Some(named), _) => sections.push((named.trim_end().to_string(), Vec::new())),
            (None, Some((_, code))) => code.extend_from_slice(line),
            (None, None) => panic!(
                "text before the first `{header}` line:\n{}",
                String::from_utf8_lossy(stdout)
            ),
        }
    }
    sections
}

/// WGSL: `@location(N) NAME: TYPE` of a parameter list or struct body,
/// by name.
fn wgsl_locations(text: &str) -> Vec<(String, String)> {
    text.split("@location(")
        .skip(1)
        .map(|rest| {
            let (location, rest) = rest.split_once(')').expect("@location(N)");
            let rest = rest.trim_start();
            let rest = match rest.strip_prefix("@interpolate(") {
                Some(r) => r.split_once(')').expect("@interpolate(...)").1.trim_start(),
                None => rest,
            };
            let (name, ty) = rest.split_once(':').expect("NAME: TYPE");
            let ty = ty.trim_start();
            let end = ty.find([',', ')', '\n']).unwrap_or(ty.len());
            (
                name.trim().to_string(),
                format!("{location} {}", ty[..end].trim()),
            )
        })
        .collect()
}

/// The fragment stage reads every input where the vertex stage writes it,
/// with its type: WGSL by `@location`, Metal by `[[user(NAME)]]`.
fn assert_stages_agree(target: Target, vertex: &str, fragment: &str) {
    match target {
        Target::Wgsl => {
            let written = vertex
                .split_once("struct vsOutput {")
                .and_then(|(_, rest)| rest.split_once('}'))
                .map(|(body, _)| wgsl_locations(body))
                .expect("the vertex stage's result struct");
            let read = fragment
                .split_once("fn fs(")
                .and_then(|(_, rest)| rest.split_once("->"))
                .map(|(params, _)| wgsl_locations(params))
                .expect("the fragment entry point");
            assert_eq!(read.len(), 2, "{fragment}");
            for (name, slot) in read {
                let wrote = written.iter().find(|(n, _)| *n == name);
                assert_eq!(
                    wrote.map(|(_, s)| s),
                    Some(&slot),
                    "`{name}`: the fragment stage reads `{slot}`, the vertex stage writes {wrote:?}"
                );
            }
        }
        Target::Metal => {
            let user = |declared: &legalis_testkit::msl_signature::Declared| {
                let attribute = declared.attribute.as_deref()?;
                let name = attribute.strip_prefix("user(")?.split(')').next()?;
                Some((name.to_string(), declared.ty.clone()))
            };
            let members = |text: &str, name: &str| -> Vec<(String, String)> {
                let signature = legalis_testkit::msl_signature::read(text).expect("MSL");
                signature.structs[name].iter().filter_map(user).collect()
            };
            let written = members(vertex, "vsOutput");
            let read = members(fragment, "fs_in");
            assert_eq!(read.len(), 2, "{fragment}");
            for input in read {
                assert!(written.contains(&input), "{input:?} is not in {written:?}");
            }
        }
        _ => {}
    }
}

#[test]
fn every_target_links_a_pipeline_or_refuses_with_a_code() {
    for target in Target::ALL {
        let name = target.name();
        let dir = scratch(name);
        let args = ["p.slang", "-target", name, "-entry", "vs", "-entry", "fs"];
        // Standard output: one section per stage.
        let run = legalis(&dir, &args);
        let (comment, extension) = match expected(target) {
            Err(code) => {
                assert_eq!(run.code, Some(1), "{name}");
                assert!(run.stderr.contains(code), "{name}: {}", run.stderr);
                assert!(
                    run.stderr.contains(&format!("`-target {name}`")),
                    "{}",
                    run.stderr
                );
                assert!(run.stdout.is_empty(), "{name}");
                // Nor any file in a folder.
                fs::create_dir(dir.join("out")).expect("out");
                let run = legalis(&dir, &[&args[..], &["-o", "out"]].concat());
                assert_eq!(run.code, Some(1), "{name}");
                assert!(run.stderr.contains(code), "{name}: {}", run.stderr);
                let left = fs::read_dir(dir.join("out")).expect("out").count();
                assert_eq!(left, 0, "{name}: files written");
                continue;
            }
            Ok(kind) => kind,
        };
        if target == Target::Spirv {
            // Binaries need a folder.
            assert_eq!(run.code, Some(1), "{name}");
            assert!(run.stderr.contains("E00008"), "{}", run.stderr);
        } else {
            assert_eq!(run.code, Some(0), "{name}: {}", run.stderr);
            let sections = sections(&run.stdout, comment);
            let names: Vec<&str> = sections.iter().map(|(n, _)| n.as_str()).collect();
            assert_eq!(names, ["vs (vertex)", "fs (fragment)"], "{name}");
            for ((_, code), (_, stage)) in sections.iter().zip(STAGES) {
                assert_is_code(target, stage, code);
            }
            let text = |k: usize| String::from_utf8_lossy(&sections[k].1).into_owned();
            assert_stages_agree(target, &text(0), &text(1));
        }
        // A folder: one file per stage, named for the target.
        fs::create_dir(dir.join("out")).expect("out");
        let run = legalis(&dir, &[&args[..], &["-o", "out"]].concat());
        assert_eq!(run.code, Some(0), "{name}: {}", run.stderr);
        assert!(run.stdout.is_empty(), "{name}");
        let mut files: Vec<String> = fs::read_dir(dir.join("out"))
            .expect("out")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        files.sort();
        assert_eq!(
            files,
            [format!("fs.{extension}"), format!("vs.{extension}")],
            "{name}"
        );
        let codes: Vec<Vec<u8>> = STAGES
            .iter()
            .map(|(entry, stage)| {
                let code = fs::read(dir.join("out").join(format!("{entry}.{extension}")))
                    .expect("the stage's file");
                assert_is_code(target, *stage, &code);
                code
            })
            .collect();
        let text = |k: usize| String::from_utf8_lossy(&codes[k]).into_owned();
        assert_stages_agree(target, &text(0), &text(1));
    }
}

/// The library gives the same: each stage's code in pipeline order, or
/// a coded error.
#[test]
fn the_library_links_every_target_or_refuses_with_a_code() {
    for target in Target::ALL {
        let request = legalis::Request::builder("p.slang", PIPELINE)
            .target(target)
            .build();
        // Named fragment first: the pipeline puts the vertex stage first.
        let linked = legalis::link(&request, &["fs".to_string(), "vs".to_string()]);
        let name = target.name();
        match expected(target) {
            Err(code) => {
                let codes: Vec<String> = linked.diagnostics.iter().map(|d| d.code_str()).collect();
                assert_eq!(codes, [code], "{name}");
                assert!(linked.outputs.is_empty(), "{name}");
            }
            Ok(_) => {
                assert!(!linked.has_errors(), "{name}: {:?}", linked.diagnostics);
                assert!(!linked.one_module, "{name}");
                let stages: Vec<(&str, ShaderStage)> = linked
                    .outputs
                    .iter()
                    .map(|(n, g)| (n.as_str(), g.stage))
                    .collect();
                assert_eq!(stages, STAGES, "{name}");
                for ((_, generated), (_, stage)) in linked.outputs.iter().zip(STAGES) {
                    assert_is_code(target, stage, &generated.bytes);
                }
            }
        }
    }
}
