//! What a compilation is asked to do: [`Request`], and the code-generation
//! [`Target`]s.

use crate::{Policy, ShaderStage, front, trace};

/// One compilation: a source file and what to do with it.
#[derive(Clone, Debug, Default)]
pub struct Request {
    /// Name shown in diagnostics; never opened.
    pub path: String,
    pub source: Vec<u8>,
    /// Entry point to check; `None` means every `[shader("...")]` function.
    pub entry: Option<String>,
    /// Stage of `entry`; overrides its `[shader]` attribute.
    pub stage: Option<ShaderStage>,
    /// Macro definitions, as `-D NAME=VALUE` gives them.
    pub defines: Vec<(String, String)>,
    /// Code to generate; `None` checks only.
    pub target: Option<Target>,
    /// API-convention choices (`-fvk-invert-y` and friends), the same for
    /// every target.
    pub policy: Policy,
    /// `--trace-legalization`: also render the legalization plan.
    pub trace: Option<trace::TraceFormat>,
    /// The binding options (`-fvk-<class>-shift`, `-fvk-bind-globals`).
    pub bindings: legalis_bind::Options,
    /// `-dump-bindings`: also render the binding plan.
    pub dump_bindings: Option<trace::TraceFormat>,
    /// `-allow-glsl`: the front end reads GLSL type names and functions
    /// (`legalis_front::Options::allow_glsl`).
    pub allow_glsl: bool,
    /// `-conformance TYPE:IFACE[=N]`: tags of interface values
    /// (`legalis_front::Options::conformances`).
    pub conformances: Vec<front::Conformance>,
}

/// The code-generation targets of the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    Glsl,
    Spirv,
    SpirvAsm,
    Metal,
    Wgsl,
    /// WGSL, then SPIR-V assembly from it: naga's SPIR-V writer on the WGSL
    /// Legalis wrote (the reference's `wgsl-spirv-asm`).
    WgslSpirvAsm,
    Cuda,
}

impl Target {
    pub const ALL: [Target; 7] = [
        Target::Glsl,
        Target::Spirv,
        Target::SpirvAsm,
        Target::Metal,
        Target::Wgsl,
        Target::WgslSpirvAsm,
        Target::Cuda,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Target::Glsl => "glsl",
            Target::Spirv => "spirv",
            Target::SpirvAsm => "spirv-asm",
            Target::Metal => "metal",
            Target::Wgsl => "wgsl",
            Target::WgslSpirvAsm => "wgsl-spirv-asm",
            Target::Cuda => "cuda",
        }
    }

    /// The target a `-target` name means: its [`Target::name`], or
    /// `spirv-assembly`, the reference's name for `spirv-asm`.
    pub fn from_name(name: &str) -> Option<Target> {
        match name {
            "spirv-assembly" => Some(Target::SpirvAsm),
            _ => Target::ALL.into_iter().find(|t| t.name() == name),
        }
    }

    /// Whether this build can generate code for the target.
    pub fn is_implemented(self) -> bool {
        matches!(
            self,
            Target::Glsl
                | Target::Spirv
                | Target::SpirvAsm
                | Target::Wgsl
                | Target::WgslSpirvAsm
                | Target::Metal
                | Target::Cuda
        )
    }
}
