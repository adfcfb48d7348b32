//! Compiling the cases with the Legalis library and writing a staging
//! folder for the runner (feature `compile`).

use std::path::Path;

use crate::cases::Case;
use crate::{Manifest, Pipeline, StagedCase, StagedShader};

/// A case compiled: its manifest entry and each shader's SPIR-V words,
/// in the order of `StagedCase::shaders`.
#[derive(Debug)]
pub struct Compiled {
    pub case: StagedCase,
    pub spirv: Vec<Vec<u32>>,
}

/// Compiles one case's entry points to SPIR-V, linked as one pipeline
/// when there are several. Errors are Legalis' rendered diagnostics.
pub fn compile(case: &Case) -> Result<Compiled, String> {
    let request = legalis::Request::builder(case.file, case.source)
        .target(legalis::Target::Spirv)
        .policy(legalis::Policy {
            vertex_ids: if case.raw_vertex_ids {
                legalis_ir::VertexIdBase::Raw
            } else {
                legalis_ir::VertexIdBase::Rebased
            },
            widen_16bit_varyings: case.widen_16bit,
            ..legalis::Policy::default()
        })
        .build();
    let names: Vec<String> = case.entries.iter().map(|(e, _)| e.to_string()).collect();
    // Ray-tracing shaders are separate modules bound by the shader table,
    // not linked stages: each is compiled on its own, as is a lone shader.
    let separate = case.entries.len() == 1 || matches!(case.pipeline, Pipeline::Rays(_));
    let (outputs, diagnostics, text) = if separate {
        let mut outputs = Vec::new();
        let mut diagnostics = Vec::new();
        let mut text = String::new();
        for (entry, stage) in case.entries {
            let mut request = request.clone();
            request.entry = Some(entry.to_string());
            request.stage = legalis::ShaderStage::from_name(stage);
            let compiled = legalis::compile(&request);
            outputs.extend(compiled.output.map(|g| (entry.to_string(), g)));
            diagnostics.extend(compiled.diagnostics);
            text = compiled.source_text;
        }
        (outputs, diagnostics, text)
    } else {
        let linked = legalis::link(&request, &names);
        (linked.outputs, linked.diagnostics, linked.source_text)
    };
    if diagnostics.iter().any(|d| d.is_error()) || outputs.len() != case.entries.len() {
        return Err(format!(
            "{}: Legalis did not compile the case:\n{}",
            case.name,
            legalis::render::render_human(case.file, &text, &diagnostics, false)
        ));
    }
    let mut shaders = Vec::new();
    let mut spirv = Vec::new();
    for ((name, generated), (_, stage)) in outputs.into_iter().zip(case.entries) {
        let words: Vec<u32> = generated
            .bytes
            .chunks_exact(4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        shaders.push(StagedShader {
            stage: stage.to_string(),
            file: format!("{}.{name}.spv", case.name),
            // Legalis names every SPIR-V entry point `main` unless the
            // policy keeps the source name (`-fvk-use-entrypoint-name`).
            entry: "main".to_string(),
            capabilities: crate::capabilities(&words),
        });
        spirv.push(words);
    }
    Ok(Compiled {
        case: StagedCase {
            name: case.name.to_string(),
            purpose: case.purpose.to_string(),
            control: case.control,
            pipeline: case.pipeline.clone(),
            shaders,
            expect: case.expect.clone(),
        },
        spirv,
    })
}

/// Compiles every case and writes the SPIR-V files and the manifest into
/// `dir` (created if missing), and the OptiX test into `dir/optix`
/// ([`crate::optix::stage`]).
pub fn stage(dir: &Path) -> Result<Manifest, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut manifest = Manifest { cases: Vec::new() };
    for case in crate::cases::all() {
        let compiled = compile(&case)?;
        for (shader, words) in compiled.case.shaders.iter().zip(&compiled.spirv) {
            let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
            let path = dir.join(&shader.file);
            std::fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        manifest.cases.push(compiled.case);
    }
    let json = serde_json::to_string_pretty(&manifest).map_err(|e| e.to_string())?;
    let path = dir.join(crate::MANIFEST);
    std::fs::write(&path, json).map_err(|e| format!("{}: {e}", path.display()))?;
    crate::optix::stage(&dir.join("optix"))?;
    Ok(manifest)
}
