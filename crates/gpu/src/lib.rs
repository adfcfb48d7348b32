//! GPU execution tests: Legalis' SPIR-V run on a Vulkan device, its results
//! compared with values computed on the CPU.
//!
//! Validators prove that Legalis' output is well-formed; only running it
//! proves that legalization kept the meaning (a rebased `SV_VertexID`, a
//! flattened varying arriving intact). A test is data ([`Case`](cases::Case)): the
//! shaders, the pipeline to run them in, and the words it must produce.
//!
//! The work is split over two machines. Where Rust is (`cargo xtask gpu`,
//! `cargo test`), [`stage`] compiles every case's shaders with the Legalis
//! library and writes them, with a [`Manifest`] of pipelines and expected
//! words, into a folder. Where the GPU is, the `legalis-gpu` binary (built
//! without the `compile` feature, so it carries only the Vulkan runner in
//! [`vk`]) reads that folder, runs each case and compares.

#![deny(unsafe_code)]

pub mod cases;
pub mod optix;
#[cfg(feature = "compile")]
pub mod stage;
pub mod vk;

use serde::{Deserialize, Serialize};

/// The name of the manifest inside a staging folder.
pub const MANIFEST: &str = "manifest.json";

/// What one case runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Pipeline {
    /// One compute dispatch writing a storage buffer of `words` 32-bit
    /// words at set 0, binding 0 (filled with [`SENTINEL`] first).
    Compute { groups: [u32; 3], words: u32 },
    /// One draw ([`Draw`]).
    Draw(Draw),
    /// One `vkCmdTraceRaysKHR` of `launch` rays ([`Rays`]).
    Rays(Rays),
}

/// A ray-tracing launch: the scene is one triangle or one axis-aligned box
/// ([`Scene`]), in a bottom-level acceleration structure instanced once
/// (identity transform, custom index `custom_index`, mask 0xFF, culling
/// off) in the top-level one bound at set 0, binding 0; a storage buffer of
/// `words` words (filled with [`SENTINEL`]) is at binding 1. The shaders
/// are one ray generation shader, one miss shader, then the hit group's
/// (closest hit, any hit, intersection: whichever the case has, a
/// procedural group for a box) and optionally one callable shader: one
/// shader-table record each for ray generation, miss, the hit group and
/// the callable shader.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rays {
    pub launch: [u32; 3],
    pub words: u32,
    pub scene: Scene,
    pub custom_index: u32,
}

/// The one primitive of a ray-tracing scene.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Scene {
    /// A triangle's three vertices (an opaque triangle geometry).
    Triangle([[f32; 3]; 3]),
    /// A box's minimum and maximum corners (a non-opaque AABB geometry,
    /// whose hits an intersection shader reports).
    Aabb([f32; 6]),
}

/// One non-indexed draw without vertex buffers, of a triangle list
/// (`patch_points` 0) or of a list of patches of `patch_points` points,
/// into `targets` colour attachments of `width` x `height` pixels, each
/// `R32G32B32A32_UINT` and cleared to [`SENTINEL`], with a storage buffer
/// of `buffer_words` words (filled with [`SENTINEL`]) at set 0, binding 0
/// when that is not 0. With `mesh_groups` not all 0 the pipeline's
/// geometry stages are amplification (optional) and mesh, and the draw is
/// `vkCmdDrawMeshTasksEXT(mesh_groups)` instead. When `capture_words` has
/// a slot that is not 0, the draw runs inside transform feedback
/// (VK_EXT_transform_feedback), and each such slot `n` binds a buffer of
/// that many words (filled with [`SENTINEL`]) as transform-feedback
/// buffer `n`. The result is the attachments' texels, attachment by
/// attachment, row by row, then the storage buffer's words, then each
/// capture buffer's words, slot by slot.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Draw {
    pub width: u32,
    pub height: u32,
    pub targets: u32,
    pub patch_points: u32,
    pub buffer_words: u32,
    pub vertex_count: u32,
    pub instance_count: u32,
    pub first_vertex: u32,
    pub first_instance: u32,
    pub mesh_groups: [u32; 3],
    pub capture_words: [u32; 4],
}

/// What a word that the pipeline writes is expected to be.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Expect {
    /// Exactly these bits.
    U(u32),
    /// A float within a relative 1e-5 (an interpolated value: the
    /// barycentric weights need not sum to exactly 1).
    F(f32),
}

impl Expect {
    /// Whether `got` meets the expectation.
    pub fn matches(self, got: u32) -> bool {
        match self {
            Expect::U(bits) => bits == got,
            Expect::F(value) => {
                let got = f32::from_bits(got);
                (got - value).abs() <= 1e-5 * value.abs().max(1.0)
            }
        }
    }
}

impl std::fmt::Display for Expect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Expect::U(bits) => write!(f, "{bits:#010x}"),
            Expect::F(value) => write!(f, "{value:?} ({:#010x})", value.to_bits()),
        }
    }
}

/// The value every result word holds before the pipeline runs: a word the
/// GPU did not write reads as this.
pub const SENTINEL: u32 = 0xDEAD_BEEF;

/// One shader of a staged case.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StagedShader {
    /// The stage's name as `ShaderStage::name` writes it (`vertex`, ...).
    pub stage: String,
    /// The SPIR-V file, relative to the staging folder.
    pub file: String,
    /// The entry point's name inside the SPIR-V module.
    pub entry: String,
    /// The module's `OpCapability`s, for the runner's feature checks.
    pub capabilities: Vec<String>,
}

/// One case, as the runner reads it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StagedCase {
    pub name: String,
    /// What the case proves, one line.
    pub purpose: String,
    /// A negative control: compiled so that it must not produce
    /// `expect` (it shows the comparison can fail); it passes when the
    /// results differ.
    pub control: bool,
    pub pipeline: Pipeline,
    pub shaders: Vec<StagedShader>,
    pub expect: Vec<Expect>,
}

/// A staging folder's table of contents.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub cases: Vec<StagedCase>,
}

/// The words of `got` that miss `expect`: `(index, expected, got)`, and a
/// length mismatch as one entry at the shorter length.
pub fn mismatches(expect: &[Expect], got: &[u32]) -> Vec<(usize, Expect, Option<u32>)> {
    let mut out: Vec<_> = expect
        .iter()
        .zip(got)
        .enumerate()
        .filter(|(_, (e, g))| !e.matches(**g))
        .map(|(i, (e, g))| (i, *e, Some(*g)))
        .collect();
    if expect.len() != got.len() {
        let at = expect.len().min(got.len());
        out.push((
            at,
            expect.get(at).copied().unwrap_or(Expect::U(SENTINEL)),
            got.get(at).copied(),
        ));
    }
    out
}

/// Reads the `OpCapability` names of a SPIR-V module (the ones the runner
/// knows; others as `Capability<N>`).
pub fn capabilities(words: &[u32]) -> Vec<String> {
    let mut out = Vec::new();
    let mut at = 5;
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        let opcode = words[at] & 0xFFFF;
        if count == 0 {
            break;
        }
        if opcode == 17 && at + 1 < words.len() {
            out.push(capability_name(words[at + 1]));
        }
        at += count;
    }
    out
}

fn capability_name(value: u32) -> String {
    match value {
        0 => "Matrix".into(),
        1 => "Shader".into(),
        32 => "ClipDistance".into(),
        2 => "Geometry".into(),
        3 => "Tessellation".into(),
        9 => "Float16".into(),
        10 => "Float64".into(),
        11 => "Int64".into(),
        22 => "Int16".into(),
        39 => "Int8".into(),
        4427 => "DrawParameters".into(),
        4433 => "StorageBuffer16BitAccess".into(),
        4436 => "StorageInputOutput16".into(),
        5283 => "MeshShadingEXT".into(),
        4479 => "RayTracingKHR".into(),
        53 => "TransformFeedback".into(),
        54 => "GeometryStreams".into(),
        other => format!("Capability{other}"),
    }
}
