//! The API-convention choices that change legalization, as one plain value.
//!
//! Every legalizer (GLSL/SPIR-V today; WGSL, Metal and CUDA later) takes the
//! same [`Policy`], so an option such as `-fvk-invert-y` means one thing on
//! every target. The command line sets it from `slangc`'s option spellings;
//! [`Policy::default`] is what no option gives.

/// API-convention choices, each named after the option that sets it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Policy {
    /// `-fvk-invert-y`: every write of an `SV_Position` output is followed
    /// by `position.y = -position.y`, whatever the stage (vertex today;
    /// the same rule for hull, domain, geometry and mesh outputs).
    pub invert_y: bool,
    /// `-fvk-use-dx-position-w`: a fragment `SV_Position` input's `w` is
    /// `1.0 / gl_FragCoord.w`, the reciprocal Direct3D passes, instead of
    /// Vulkan's `gl_FragCoord.w`.
    pub dx_position_w: bool,
    /// `-fvk-use-entrypoint-name`: the SPIR-V `OpEntryPoint` is named after
    /// the source entry point instead of `main`. GLSL is always `main`.
    pub use_entry_point_name: bool,
    /// How `SV_VertexID` and `SV_InstanceID` count.
    pub vertex_ids: VertexIdBase,
    /// `-emit-spirv-via-glsl`: SPIR-V is glslang's compilation of the GLSL
    /// Legalis writes, not the direct SPIR-V writer's output.
    pub spirv_via_glsl: bool,
    /// `-fvk-widen-16bit-varyings` (Legalis' own): GLSL and SPIR-V
    /// varyings of 16-bit scalars and vectors travel as their 32-bit
    /// counterparts, converted where the entry point reads and writes them,
    /// so they need no `storageInputOutput16` (which some drivers lack).
    pub widen_16bit_varyings: bool,
    /// `-O0`..`-O3`; `None` when no `-O` was given (`slangc`'s default,
    /// `-O1`). Recorded; no pass depends on it yet.
    pub optimization: Option<OptimizationLevel>,
    /// `-g`, `-g0`..`-g3`; `None` when no `-g` was given.
    pub debug: Option<DebugLevel>,
    /// `-profile glsl_NNN`: the lowest GLSL `#version` to write (raised
    /// when the output needs more; Vulkan GLSL starts at 450).
    pub glsl_version: Option<u32>,
    /// `-profile spirv_1_N`: the lowest SPIR-V version to declare (raised
    /// when a used feature needs more).
    pub spirv_version: Option<(u8, u8)>,
    /// `-capability spvBindlessTextureNV` or `spvDescriptorHeapEXT`: the
    /// reference then reads a `DescriptorHandle<T>` another way than
    /// through the default descriptor-heap arrays, which the SPIR-V writer
    /// refuses (E56101) rather than ignore.
    pub handle_capability: Option<HandleCapability>,
    /// `-preserve-params`: every resource, constant buffer and plain
    /// uniform the module declares stays in GLSL, SPIR-V and WGSL output
    /// (and in the binding plan's numbering) even when the entry point does
    /// not use it, as the reference keeps them; Metal and CUDA entry points
    /// still take only what they use.
    pub preserve_params: bool,
    /// `-fvk-use-scalar-layout` (`-force-glsl-scalar-layout`) and
    /// `-fvk-use-c-layout`: the layout of every GLSL/SPIR-V constant
    /// buffer, storage buffer and pointee in place of std140/std430.
    pub buffer_layout: BufferLayout,
}

/// The layout GLSL and SPIR-V buffers follow (`legalis_layout::Rule`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BufferLayout {
    /// std140 for constant buffers, std430 for storage buffers and
    /// pointees: what Vulkan requires without features.
    #[default]
    Standard,
    /// Vulkan's scalar block layout (`scalarBlockLayout`): GLSL
    /// `layout(scalar)`, SPIR-V offsets by the scalar rules.
    Scalar,
    /// The C/C++ struct rules: the scalar rules with a struct's size
    /// rounded up to its alignment. SPIR-V only (GLSL cannot say it).
    C,
}

impl BufferLayout {
    /// The option that chooses it (`None` for the default).
    pub fn option(self) -> Option<&'static str> {
        match self {
            BufferLayout::Standard => None,
            BufferLayout::Scalar => Some("-fvk-use-scalar-layout"),
            BufferLayout::C => Some("-fvk-use-c-layout"),
        }
    }
}

/// A `-capability` that changes what a `DescriptorHandle<T>` is in SPIR-V.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HandleCapability {
    /// `spvBindlessTextureNV` (`SPV_NV_bindless_texture`): a handle is a
    /// 64-bit texture or sampler handle (`OpConvertUToImageNV` ...).
    BindlessTextureNv,
    /// `spvDescriptorHeapEXT` (`SPV_EXT_descriptor_heap`): handles index
    /// untyped descriptor heaps (`OpUntypedAccessChainKHR`).
    DescriptorHeapExt,
}

impl HandleCapability {
    /// The capability as `-capability` spells it.
    pub fn name(self) -> &'static str {
        match self {
            HandleCapability::BindlessTextureNv => "spvBindlessTextureNV",
            HandleCapability::DescriptorHeapExt => "spvDescriptorHeapEXT",
        }
    }

    /// The capability `-capability NAME` names, if it is one of these.
    pub fn from_name(name: &str) -> Option<HandleCapability> {
        [
            HandleCapability::BindlessTextureNv,
            HandleCapability::DescriptorHeapExt,
        ]
        .into_iter()
        .find(|c| c.name() == name)
    }
}

impl Policy {
    /// Whether SPIR-V carries `OpName`/`OpMemberName`: always, except
    /// under an explicit `-g0`.
    pub fn debug_names(&self) -> bool {
        self.debug != Some(DebugLevel::None)
    }
}

/// What `SV_VertexID` and `SV_InstanceID` read (B6).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum VertexIdBase {
    /// `gl_VertexIndex - gl_BaseVertex`, `gl_InstanceIndex -
    /// gl_BaseInstance`: zero for the first vertex of each draw, as in
    /// Direct3D and as the reference compiler does.
    #[default]
    Rebased,
    /// `gl_VertexIndex` and `gl_InstanceIndex` as they are, counting from
    /// the draw's base (`-fvk-raw-vertex-id`, Legalis's own option).
    Raw,
}

/// `-O<level>`, as `slangc` names the levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum OptimizationLevel {
    /// `-O0`, `-Onone`.
    None,
    /// `-O1`, `-Odefault`.
    Default,
    /// `-O2`, `-Ohigh`.
    High,
    /// `-O3`, `-Omaximal`.
    Maximal,
}

/// `-g<level>`, as `slangc` names the levels; a bare `-g` is `Standard`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DebugLevel {
    /// `-g0`, `-gnone`.
    None,
    /// `-g1`, `-gminimal`.
    Minimal,
    /// `-g2`, `-gstandard`, `-g`.
    Standard,
    /// `-g3`, `-gmaximal`.
    Maximal,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_is_the_reference_default() {
        let policy = Policy::default();
        assert!(!policy.invert_y && !policy.dx_position_w);
        assert!(!policy.use_entry_point_name && !policy.spirv_via_glsl);
        assert_eq!(policy.vertex_ids, VertexIdBase::Rebased);
        assert_eq!(policy.optimization, None);
        assert!(policy.debug_names());
    }

    #[test]
    fn only_g0_drops_debug_names() {
        for (debug, names) in [
            (None, true),
            (Some(DebugLevel::None), false),
            (Some(DebugLevel::Minimal), true),
            (Some(DebugLevel::Standard), true),
            (Some(DebugLevel::Maximal), true),
        ] {
            let policy = Policy {
                debug,
                ..Policy::default()
            };
            assert_eq!(policy.debug_names(), names, "{debug:?}");
        }
    }
}
