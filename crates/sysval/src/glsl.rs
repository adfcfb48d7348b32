//! The GLSL/SPIR-V column: builtin names (`gl_Position`), their GLSL types,
//! SPIR-V `BuiltIn` names, capabilities, extensions, execution modes and
//! versions they need, how they are reached (a plain global, an element of
//! an arrayed builtin, a member of `gl_in[]`/`gl_out[]` or of a mesh output
//! block), and how a value is adapted (vertex/instance rebasing, B6).
//!
//! The rows follow a survey of the reference compiler, per system value,
//! stage and direction. Where the reference is wrong the row says what is
//! right and names the difference in its comment (a `D` label from the
//! mission where there is one). Right means what glslang, the downstream
//! validator, accepts and itself declares for the same GLSL.
//!
//! The SPIR-V facts are those of a SPIR-V 1.5 module, like the reference
//! emits: `DrawParameters` and `MultiView` are core there and need no
//! `OpExtension`. Capabilities implied by the stage itself (`Geometry`,
//! `Tessellation`, `MeshShadingEXT`) are not repeated per row.
//!
//! Conversions between the user's declared type and the builtin's type are
//! not rows of their own: the legalizer converts whenever the types differ
//! (`uint(gl_SampleMaskIn[0])`, `gl_Layer = int(x)`).

use legalis_ir::{ShaderStage as S, SystemValue as SV};

use crate::{BuiltinType, Direction, codes};

/// `gl_VertexIndex - gl_BaseVertex`: the Vulkan index counts from the draw's
/// base; HLSL's `SV_VertexID` counts from zero per draw (B6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rebase {
    /// The builtin subtracted (`gl_BaseVertex`).
    pub base_name: &'static str,
    /// The base's SPIR-V `BuiltIn` (`BaseVertex`, `BaseInstance`).
    pub base_spirv: &'static str,
}

/// Which element of an arrayed builtin ([`BuiltinType::Array`]) the value is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArrayIndex {
    /// Always this element: HLSL's 32-bit coverage is the first word of the
    /// sample mask (`gl_SampleMaskIn[0]`, B14).
    Fixed(u32),
    /// The semantic's own index: `SV_ClipDistance1` is `gl_ClipDistance[1]`,
    /// so every indexed semantic shares the one array (B15).
    SemanticIndex,
}

/// Where the builtin lives in GLSL, and so how an access is spelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Access {
    /// A global of its own (`gl_FragCoord`, `gl_Layer`).
    Global,
    /// A member of the per-vertex input block array of tessellation and
    /// geometry stages: `gl_in[i].gl_Position`.
    PerVertexIn,
    /// A member of the hull (tessellation control) output block array, written
    /// by each invocation at its own control point:
    /// `gl_out[gl_InvocationID].gl_Position`.
    PerControlPointOut,
    /// A member of the mesh per-vertex output block:
    /// `gl_MeshVerticesEXT[i].gl_Position` (B10).
    MeshPerVertex,
    /// A member of the mesh per-primitive output block
    /// (`perprimitiveEXT`, SPIR-V `PerPrimitiveEXT`):
    /// `gl_MeshPrimitivesEXT[i].gl_Layer` (B10).
    MeshPerPrimitive,
}

impl Access {
    /// The block array the builtin is a member of, if any.
    pub fn block_array(self) -> Option<&'static str> {
        match self {
            Access::Global => None,
            Access::PerVertexIn => Some("gl_in"),
            Access::PerControlPointOut => Some("gl_out"),
            Access::MeshPerVertex => Some("gl_MeshVerticesEXT"),
            Access::MeshPerPrimitive => Some("gl_MeshPrimitivesEXT"),
        }
    }

    /// The block type of [`Access::block_array`] (`gl_PerVertex`, the
    /// mesh output blocks `gl_MeshPerVertexEXT`, `gl_MeshPerPrimitiveEXT`),
    /// which a shader redeclares with the members it uses.
    pub fn block_name(self) -> Option<&'static str> {
        match self {
            Access::Global => None,
            Access::PerVertexIn | Access::PerControlPointOut => Some("gl_PerVertex"),
            Access::MeshPerVertex => Some("gl_MeshPerVertexEXT"),
            Access::MeshPerPrimitive => Some("gl_MeshPerPrimitiveEXT"),
        }
    }
}

/// Another builtin the same system value maps to under an interpolation
/// modifier (`noperspective` `SV_Barycentrics` is `gl_BaryCoordNoPerspEXT`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Alternate {
    /// The GLSL builtin variable (`gl_BaryCoordNoPerspEXT`).
    pub glsl_name: &'static str,
    /// Its SPIR-V `BuiltIn` decoration (`BaryCoordNoPerspKHR`).
    pub spirv_builtin: &'static str,
}

/// A GLSL builtin variable and its SPIR-V `BuiltIn` decoration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GlslBuiltin {
    /// The GLSL builtin variable (`gl_Position`); for a member of a block
    /// array (see [`GlslBuiltin::access`]) the member's name.
    pub glsl_name: &'static str,
    /// The SPIR-V `BuiltIn` decoration (`Position`, `FragCoord`).
    pub spirv_builtin: &'static str,
    /// The builtin's own GLSL type (the whole array for arrayed builtins).
    pub ty: BuiltinType,
    /// `#extension` the builtin needs at `min_version`, if any.
    pub extension: Option<&'static str>,
    /// The lowest GLSL `#version` that has the builtin: 450, or 460 for
    /// the draw parameters (`gl_BaseVertex`, `gl_DrawID` ...).
    pub min_version: u32,
    /// The base to subtract from the builtin to get the HLSL value
    /// (`SV_VertexID` is `gl_VertexIndex - gl_BaseVertex`); `None` when the
    /// builtin is the value.
    pub rebase: Option<Rebase>,
    /// The element of an arrayed builtin this value is; `None` for the
    /// whole builtin (`gl_TessLevelOuter`, copied element by element).
    pub array_index: Option<ArrayIndex>,
    /// Whether the builtin is a global or a member of a block array, and so
    /// how an access to it is spelled.
    pub access: Access,
    /// A layout qualifier the builtin is redeclared with
    /// (`layout(depth_greater) out float gl_FragDepth;`, B14).
    pub layout: Option<&'static str>,
    /// `OpCapability` beyond `Shader` and the stage's own capability.
    pub spirv_capability: Option<&'static str>,
    /// `OpExtension` (`SPV_...`), independent of the GLSL `#extension`.
    pub spirv_extension: Option<&'static str>,
    /// `OpExecutionMode`s writing the builtin requires (`DepthReplacing`).
    pub spirv_execution_modes: &'static [&'static str],
    /// SPIR-V `Flat` on the variable: integer fragment inputs must be flat.
    pub flat: bool,
    /// SPIR-V `Patch` (and GLSL `patch`): one value per patch, not per
    /// control point.
    pub patch: bool,
    /// The builtin to use instead when the declaration is `noperspective`.
    pub noperspective: Option<Alternate>,
}

impl GlslBuiltin {
    /// A plain builtin global at GLSL 4.50 with nothing else to declare.
    const fn new(glsl_name: &'static str, spirv_builtin: &'static str, ty: BuiltinType) -> Self {
        GlslBuiltin {
            glsl_name,
            spirv_builtin,
            ty,
            extension: None,
            min_version: 450,
            rebase: None,
            array_index: None,
            access: Access::Global,
            layout: None,
            spirv_capability: None,
            spirv_extension: None,
            spirv_execution_modes: &[],
            flat: false,
            patch: false,
            noperspective: None,
        }
    }

    const fn ext(self, extension: &'static str) -> Self {
        GlslBuiltin {
            extension: Some(extension),
            ..self
        }
    }

    const fn version(self, min_version: u32) -> Self {
        GlslBuiltin {
            min_version,
            ..self
        }
    }

    const fn cap(self, capability: &'static str) -> Self {
        GlslBuiltin {
            spirv_capability: Some(capability),
            ..self
        }
    }

    const fn spv_ext(self, extension: &'static str) -> Self {
        GlslBuiltin {
            spirv_extension: Some(extension),
            ..self
        }
    }

    const fn modes(self, spirv_execution_modes: &'static [&'static str]) -> Self {
        GlslBuiltin {
            spirv_execution_modes,
            ..self
        }
    }

    const fn element(self, index: ArrayIndex) -> Self {
        GlslBuiltin {
            array_index: Some(index),
            ..self
        }
    }

    const fn at(self, access: Access) -> Self {
        GlslBuiltin { access, ..self }
    }

    const fn layout(self, qualifier: &'static str) -> Self {
        GlslBuiltin {
            layout: Some(qualifier),
            ..self
        }
    }

    const fn flat(self) -> Self {
        GlslBuiltin { flat: true, ..self }
    }

    const fn patch(self) -> Self {
        GlslBuiltin {
            patch: true,
            ..self
        }
    }

    const fn row(self) -> GlslMapping {
        GlslMapping::BuiltIn(self)
    }
}

// A row is looked up a few times per entry point and copied into the plan;
// keeping it `Copy` and by value is worth its 200 bytes.
#[allow(
    clippy::large_enum_variant,
    reason = "rows are few and short-lived; legalizers copy them by value"
)]
/// How a system value reaches a GLSL or SPIR-V entry point: the answer of
/// [`glsl`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GlslMapping {
    /// A builtin variable, or an element or block member of one.
    BuiltIn(GlslBuiltin),
    /// Not a builtin: an ordinary varying at a location. With `by_index`
    /// the semantic index is the location (`SV_Target3` → location 3).
    Location {
        /// The semantic index is the location; when `false` the legalizer
        /// assigns one as for any user varying.
        by_index: bool,
    },
    /// GLSL and SPIR-V cannot express it here.
    Unsupported {
        /// `E49990` (`codes::NOT_IN_STAGE`: not in this stage or direction)
        /// or `E49991` (`codes::NOT_SUPPORTED_YET`).
        code: u32,
    },
}

const fn builtin(
    glsl_name: &'static str,
    spirv_builtin: &'static str,
    ty: BuiltinType,
) -> GlslMapping {
    GlslBuiltin::new(glsl_name, spirv_builtin, ty).row()
}

const NOT_IN_STAGE: GlslMapping = GlslMapping::Unsupported {
    code: codes::NOT_IN_STAGE,
};
const NOT_YET: GlslMapping = GlslMapping::Unsupported {
    code: codes::NOT_SUPPORTED_YET,
};

const FLOAT2: BuiltinType = BuiltinType::Vector(legalis_ir::Scalar::F32, 2);
const FLOAT3: BuiltinType = BuiltinType::Vector(legalis_ir::Scalar::F32, 3);
const INT2: BuiltinType = BuiltinType::Vector(legalis_ir::Scalar::I32, 2);
/// `gl_ClipDistance[]`/`gl_CullDistance[]`: the legalizer sizes the
/// redeclaration from the distances packed into it.
const DISTANCES: BuiltinType = BuiltinType::DISTANCES;
/// `gl_SampleMask[]`: one 32-bit word covers HLSL's 32 samples.
const SAMPLE_MASK: BuiltinType = BuiltinType::Array(legalis_ir::Scalar::I32, Some(1));

/// The GLSL/SPIR-V row for `sv` read or written by a `stage` entry point.
pub fn glsl(sv: SV, stage: S, dir: Direction) -> GlslMapping {
    use Direction::{Input as In, Output as Out};
    match sv {
        SV::Position => per_vertex(
            stage,
            dir,
            GlslBuiltin::new("gl_Position", "Position", BuiltinType::FLOAT4),
            Some(builtin("gl_FragCoord", "FragCoord", BuiltinType::FLOAT4)),
            // A vertex shader's `SV_Position` input is an ordinary vertex
            // attribute in D3D; the reference rejects it (E30702).
            GlslMapping::Location { by_index: false },
        ),
        SV::Target => match (stage, dir) {
            // The reference accepts `SV_Target` anywhere as a plain varying;
            // only fragment outputs mean a render target.
            (S::Fragment, Out) => GlslMapping::Location { by_index: true },
            _ => NOT_IN_STAGE,
        },
        SV::Depth => fragment_output(
            stage,
            dir,
            GlslBuiltin::new("gl_FragDepth", "FragDepth", BuiltinType::FLOAT)
                .modes(&["DepthReplacing"]),
        ),
        // B14. The reference (this build) drops the layout qualifier; SPIR-V
        // gets the matching execution mode. No extension: conservative depth
        // is core from GLSL 4.20 and Legalis writes 450 and up (requiring
        // GL_ARB_conservative_depth there only breaks glslang before 14).
        SV::DepthGreaterEqual => fragment_output(
            stage,
            dir,
            GlslBuiltin::new("gl_FragDepth", "FragDepth", BuiltinType::FLOAT)
                .layout("depth_greater")
                .modes(&["DepthReplacing", "DepthGreater"]),
        ),
        SV::DepthLessEqual => fragment_output(
            stage,
            dir,
            GlslBuiltin::new("gl_FragDepth", "FragDepth", BuiltinType::FLOAT)
                .layout("depth_less")
                .modes(&["DepthReplacing", "DepthLess"]),
        ),
        // B14: HLSL's uint coverage is word 0 of the int sample mask.
        SV::Coverage => match (stage, dir) {
            (S::Fragment, In) => GlslBuiltin::new("gl_SampleMaskIn", "SampleMask", SAMPLE_MASK)
                .element(ArrayIndex::Fixed(0))
                .flat()
                .row(),
            (S::Fragment, Out) => GlslBuiltin::new("gl_SampleMask", "SampleMask", SAMPLE_MASK)
                .element(ArrayIndex::Fixed(0))
                .row(),
            _ => NOT_IN_STAGE,
        },
        SV::InnerCoverage => fragment_input(
            stage,
            dir,
            GlslBuiltin::new(
                "gl_FragFullyCoveredNV",
                "FullyCoveredEXT",
                BuiltinType::BOOL,
            )
            .ext("GL_NV_conservative_raster_underestimation")
            .cap("FragmentFullyCoveredEXT")
            .spv_ext("SPV_EXT_fragment_fully_covered"),
        ),
        SV::StencilRef => fragment_output(stage, dir, STENCIL_REF),
        // The reference also lets a geometry shader write `gl_FrontFacing`,
        // which is an input only.
        SV::IsFrontFace => fragment_input(
            stage,
            dir,
            GlslBuiltin::new("gl_FrontFacing", "FrontFacing", BuiltinType::BOOL),
        ),
        SV::SampleIndex => fragment_input(
            stage,
            dir,
            GlslBuiltin::new("gl_SampleID", "SampleId", BuiltinType::INT)
                .cap("SampleRateShading")
                .flat(),
        ),
        // B9: a geometry shader reads `gl_PrimitiveIDIn` and writes
        // `gl_PrimitiveID`.
        SV::PrimitiveId => {
            let id = GlslBuiltin::new("gl_PrimitiveID", "PrimitiveId", BuiltinType::INT);
            match (stage, dir) {
                (S::Hull | S::Domain, In) | (S::Geometry, Out) => id.row(),
                (S::Geometry, In) => {
                    GlslBuiltin::new("gl_PrimitiveIDIn", "PrimitiveId", BuiltinType::INT).row()
                }
                // A fragment shader reading the primitive id needs a
                // capability that declares it (`Geometry`, as the
                // reference and glslang pick).
                (S::Fragment, In) => id.cap("Geometry").flat().row(),
                (S::Mesh, Out) => id.at(Access::MeshPerPrimitive).row(),
                _ => NOT_IN_STAGE,
            }
        }
        SV::VertexId => match (stage, dir) {
            (S::Vertex, In) => rebased(
                "gl_VertexIndex",
                "VertexIndex",
                "gl_BaseVertex",
                "BaseVertex",
            ),
            _ => NOT_IN_STAGE,
        },
        // The reference also accepts `SV_InstanceID` as a vertex output and a
        // fragment input, emitting `gl_InstanceIndex` where GLSL has none.
        SV::InstanceId => match (stage, dir) {
            (S::Vertex, In) => rebased(
                "gl_InstanceIndex",
                "InstanceIndex",
                "gl_BaseInstance",
                "BaseInstance",
            ),
            _ => NOT_IN_STAGE,
        },
        SV::VulkanVertexId => vertex_input(
            stage,
            dir,
            GlslBuiltin::new("gl_VertexIndex", "VertexIndex", BuiltinType::INT),
        ),
        SV::VulkanInstanceId => vertex_input(
            stage,
            dir,
            GlslBuiltin::new("gl_InstanceIndex", "InstanceIndex", BuiltinType::INT),
        ),
        // B15: core in GLSL 4.60, which they force.
        SV::StartVertexLocation => vertex_input(
            stage,
            dir,
            GlslBuiltin::new("gl_BaseVertex", "BaseVertex", BuiltinType::INT)
                .version(460)
                .cap("DrawParameters"),
        ),
        SV::StartInstanceLocation => vertex_input(
            stage,
            dir,
            GlslBuiltin::new("gl_BaseInstance", "BaseInstance", BuiltinType::INT)
                .version(460)
                .cap("DrawParameters"),
        ),
        // Core in GLSL 4.60; the reference adds a redundant
        // `GL_ARB_shader_draw_parameters` beside `#version 460`.
        SV::DrawIndex => match (stage, dir) {
            (S::Vertex | S::Mesh | S::Amplification, In) => {
                GlslBuiltin::new("gl_DrawID", "DrawIndex", BuiltinType::INT)
                    .version(460)
                    .cap("DrawParameters")
                    .row()
            }
            _ => NOT_IN_STAGE,
        },
        SV::DeviceIndex => match (stage, dir) {
            (
                S::Vertex
                | S::Hull
                | S::Domain
                | S::Geometry
                | S::Fragment
                | S::Compute
                | S::Mesh
                | S::Amplification,
                In,
            ) => GlslBuiltin::new("gl_DeviceIndex", "DeviceIndex", BuiltinType::INT)
                .ext("GL_EXT_device_group")
                .cap("DeviceGroup")
                .spv_ext("SPV_KHR_device_group")
                .flat_in_fragment(stage)
                .row(),
            _ => NOT_IN_STAGE,
        },
        SV::ViewId => match (stage, dir) {
            (S::Vertex | S::Hull | S::Domain | S::Geometry | S::Fragment | S::Mesh, In) => {
                GlslBuiltin::new("gl_ViewIndex", "ViewIndex", BuiltinType::INT)
                    .ext("GL_EXT_multiview")
                    .cap("MultiView")
                    .flat_in_fragment(stage)
                    .row()
            }
            _ => NOT_IN_STAGE,
        },
        // B15, and a fix: for tessellation and geometry inputs and hull
        // outputs the reference indexes the distance array with the vertex
        // (`gl_ClipDistance[gl_InvocationID]`) instead of going through
        // `gl_in[i]`/`gl_out[gl_InvocationID]`.
        SV::ClipDistance => distance(
            stage,
            dir,
            GlslBuiltin::new("gl_ClipDistance", "ClipDistance", DISTANCES).cap("ClipDistance"),
        ),
        SV::CullDistance => distance(stage, dir, CULL_DISTANCE),
        // B9/B16: the layer is `int`; writes narrow (`gl_Layer = int(x)`).
        SV::RenderTargetArrayIndex => layer_or_viewport(
            stage,
            dir,
            GlslBuiltin::new("gl_Layer", "Layer", BuiltinType::INT),
            ["ShaderLayer", "Geometry"],
        ),
        // The reference does not request `GL_ARB_shader_viewport_layer_array`
        // for vertex and domain writes of `gl_ViewportIndex`, which GLSL
        // only allows in geometry shaders without it.
        SV::ViewportArrayIndex => layer_or_viewport(
            stage,
            dir,
            GlslBuiltin::new("gl_ViewportIndex", "ViewportIndex", BuiltinType::INT),
            ["ShaderViewportIndex", "MultiViewport"],
        ),
        // B16.
        SV::Barycentrics => fragment_input(
            stage,
            dir,
            GlslBuiltin {
                noperspective: Some(Alternate {
                    glsl_name: "gl_BaryCoordNoPerspEXT",
                    spirv_builtin: "BaryCoordNoPerspKHR",
                }),
                ..GlslBuiltin::new("gl_BaryCoordEXT", "BaryCoordKHR", FLOAT3)
            }
            .ext("GL_EXT_fragment_shader_barycentric")
            .cap("FragmentBarycentricKHR")
            .spv_ext("SPV_KHR_fragment_shader_barycentric"),
        ),
        SV::ShadingRate => shading_rate(stage, dir),
        // B10: per primitive, `bool`.
        SV::CullPrimitive => match (stage, dir) {
            (S::Mesh, Out) => {
                GlslBuiltin::new("gl_CullPrimitiveEXT", "CullPrimitiveEXT", BuiltinType::BOOL)
                    .at(Access::MeshPerPrimitive)
                    .row()
            }
            _ => NOT_IN_STAGE,
        },
        // The reference rejects hull and domain outputs and every input.
        SV::PointSize => {
            let size = GlslBuiltin::new("gl_PointSize", "PointSize", BuiltinType::FLOAT);
            match (stage, dir) {
                (S::Vertex, Out) => size.row(),
                // Vulkan declares point size in a geometry shader with
                // `GeometryPointSize`; the reference leaves it out.
                (S::Geometry, Out) => size.cap("GeometryPointSize").row(),
                (S::Mesh, Out) => size.at(Access::MeshPerVertex).row(),
                _ => NOT_IN_STAGE,
            }
        }
        SV::PointCoord => fragment_input(
            stage,
            dir,
            GlslBuiltin::new("gl_PointCoord", "PointCoord", FLOAT2),
        ),
        SV::VulkanSamplePosition => fragment_input(
            stage,
            dir,
            GlslBuiltin::new("gl_SamplePosition", "SamplePosition", FLOAT2)
                .cap("SampleRateShading"),
        ),
        SV::FragInvocationCount => fragment_input(
            stage,
            dir,
            GlslBuiltin::new(
                "gl_FragInvocationCountEXT",
                "FragInvocationCountEXT",
                BuiltinType::INT,
            )
            .ext("GL_EXT_fragment_invocation_density")
            .cap("FragmentDensityEXT")
            .spv_ext("SPV_EXT_fragment_invocation_density")
            .flat(),
        ),
        SV::FragSize => fragment_input(
            stage,
            dir,
            GlslBuiltin::new("gl_FragSizeEXT", "FragSizeEXT", INT2)
                .ext("GL_EXT_fragment_invocation_density")
                .cap("FragmentDensityEXT")
                .spv_ext("SPV_EXT_fragment_invocation_density")
                .flat(),
        ),
        // B9.
        SV::GsInstanceId => match (stage, dir) {
            (S::Geometry, In) => builtin("gl_InvocationID", "InvocationId", BuiltinType::INT),
            _ => NOT_IN_STAGE,
        },
        // B7.
        SV::OutputControlPointId => match (stage, dir) {
            (S::Hull, In) => builtin("gl_InvocationID", "InvocationId", BuiltinType::INT),
            _ => NOT_IN_STAGE,
        },
        // B8: `float2` for quads reads `gl_TessCoord.xy`.
        SV::DomainLocation => match (stage, dir) {
            (S::Domain, In) => builtin("gl_TessCoord", "TessCoord", FLOAT3),
            _ => NOT_IN_STAGE,
        },
        // B7/B8: whole arrays, copied element by element from the declared
        // `float[2..4]`; the reference writes them per control point when
        // the factors sit in the per-control-point output.
        SV::TessFactor => tess_level(
            stage,
            dir,
            GlslBuiltin::new(
                "gl_TessLevelOuter",
                "TessLevelOuter",
                BuiltinType::Array(legalis_ir::Scalar::F32, Some(4)),
            ),
        ),
        // A scalar inside factor (triangles) is element 0 on read; the
        // reference stores it to both elements.
        SV::InsideTessFactor => tess_level(
            stage,
            dir,
            GlslBuiltin::new(
                "gl_TessLevelInner",
                "TessLevelInner",
                BuiltinType::Array(legalis_ir::Scalar::F32, Some(2)),
            ),
        ),
        SV::DispatchThreadId => {
            compute_id(stage, dir, "gl_GlobalInvocationID", "GlobalInvocationId")
        }
        SV::GroupId => compute_id(stage, dir, "gl_WorkGroupID", "WorkgroupId"),
        SV::GroupThreadId => compute_id(stage, dir, "gl_LocalInvocationID", "LocalInvocationId"),
        SV::GroupIndex => match (stage, dir) {
            (S::Compute | S::Mesh | S::Amplification, In) => builtin(
                "gl_LocalInvocationIndex",
                "LocalInvocationIndex",
                BuiltinType::UINT,
            ),
            _ => NOT_IN_STAGE,
        },
        // The reference's stage check accepts the wave semantics but its
        // GLSL/SPIR-V legalizer does not know them (E49999); they are the
        // subgroup builtins of `GL_KHR_shader_subgroup_basic`.
        SV::WaveLaneIndex => subgroup(
            stage,
            dir,
            GlslBuiltin::new(
                "gl_SubgroupInvocationID",
                "SubgroupLocalInvocationId",
                BuiltinType::UINT,
            ),
        ),
        SV::WaveLaneCount => subgroup(
            stage,
            dir,
            GlslBuiltin::new("gl_SubgroupSize", "SubgroupSize", BuiltinType::UINT),
        ),
        // The wave's index in the thread group, compute only (as the
        // reference's stage check says); the reference's legalizer does not
        // know it (E49999).
        SV::WaveIndex => match (stage, dir) {
            (S::Compute, In) => GlslBuiltin::new("gl_SubgroupID", "SubgroupId", BuiltinType::UINT)
                .ext("GL_KHR_shader_subgroup_basic")
                .cap("GroupNonUniform")
                .row(),
            _ => NOT_IN_STAGE,
        },
        // Unknown to the reference everywhere (E49999). GLSL has no builtin:
        // the lane within a quad is `gl_SubgroupInvocationID & 3`, a
        // derived value the table cannot express yet.
        SV::QuadLaneIndex => match (stage, dir) {
            (S::Fragment | S::Compute, In) => NOT_YET,
            _ => NOT_IN_STAGE,
        },
    }
}

impl GlslBuiltin {
    const fn flat_in_fragment(self, stage: S) -> Self {
        match stage {
            S::Fragment => self.flat(),
            S::Vertex
            | S::Hull
            | S::Domain
            | S::Geometry
            | S::Compute
            | S::Mesh
            | S::Amplification
            | S::RayGeneration
            | S::Intersection
            | S::AnyHit
            | S::ClosestHit
            | S::Miss
            | S::Callable => self,
        }
    }
}

/// Position-like per-vertex values: written by every pre-rasterization stage
/// (hull per control point, mesh per vertex), read per vertex through
/// `gl_in[]` by hull, domain and geometry shaders. `fragment` is the
/// fragment input row, `vertex_in` the vertex input row.
fn per_vertex(
    stage: S,
    dir: Direction,
    b: GlslBuiltin,
    fragment: Option<GlslMapping>,
    vertex_in: GlslMapping,
) -> GlslMapping {
    use Direction::{Input as In, Output as Out};
    match (stage, dir) {
        (S::Vertex, In) => vertex_in,
        (S::Vertex | S::Domain | S::Geometry, Out) => b.row(),
        (S::Hull, Out) => b.at(Access::PerControlPointOut).row(),
        (S::Hull | S::Domain | S::Geometry, In) => b.at(Access::PerVertexIn).row(),
        (S::Mesh, Out) => b.at(Access::MeshPerVertex).row(),
        (S::Fragment, In) => fragment.unwrap_or(NOT_IN_STAGE),
        _ => NOT_IN_STAGE,
    }
}

/// `SV_ClipDistanceN`/`SV_CullDistanceN`: element N of the distance array
/// wherever a position goes, and readable by the fragment shader.
fn distance(stage: S, dir: Direction, b: GlslBuiltin) -> GlslMapping {
    let b = b.element(ArrayIndex::SemanticIndex);
    let fragment = b.row();
    per_vertex(stage, dir, b, Some(fragment), NOT_IN_STAGE)
}

/// `gl_Layer`/`gl_ViewportIndex`: written by vertex, domain and geometry
/// shaders and per mesh primitive, read by the fragment shader. Vertex and
/// domain (tessellation evaluation) writes need
/// `GL_ARB_shader_viewport_layer_array`; geometry has them in core. A hull
/// shader cannot write them (the reference lets it, indexing by the
/// invocation).
///
/// `caps` are the SPIR-V capabilities of the vertex/domain writes and of the
/// other uses (geometry viewport writes, fragment reads), as glslang declares
/// them; the reference uses the first everywhere. A geometry shader's layer
/// and every mesh write need nothing beyond the stage's capability.
fn layer_or_viewport(
    stage: S,
    dir: Direction,
    b: GlslBuiltin,
    caps: [&'static str; 2],
) -> GlslMapping {
    use Direction::{Input as In, Output as Out};
    let [pre_raster, other] = caps;
    match (stage, dir) {
        (S::Vertex | S::Domain, Out) => b
            .ext("GL_ARB_shader_viewport_layer_array")
            .cap(pre_raster)
            .row(),
        (S::Geometry, Out) if b.spirv_builtin == "Layer" => b.row(),
        (S::Geometry, Out) => b.cap(other).row(),
        (S::Fragment, In) => b.cap(other).flat().row(),
        (S::Mesh, Out) => b.at(Access::MeshPerPrimitive).row(),
        _ => NOT_IN_STAGE,
    }
}

/// `SV_ShadingRate`: the fragment's rate in, the primitive's rate out of
/// vertex, geometry and mesh (per primitive) shaders. Both builtins are
/// `int` in GLSL.
fn shading_rate(stage: S, dir: Direction) -> GlslMapping {
    use Direction::{Input as In, Output as Out};
    match (stage, dir) {
        (S::Fragment, In) => {
            GlslBuiltin::new("gl_ShadingRateEXT", "ShadingRateKHR", BuiltinType::INT)
                .ext("GL_EXT_fragment_shading_rate")
                .cap("FragmentShadingRateKHR")
                .spv_ext("SPV_KHR_fragment_shading_rate")
                .flat()
                .row()
        }
        // The reference stores a `uint` into the `int` builtin without a
        // conversion, which GLSL does not allow implicitly.
        (S::Vertex | S::Geometry, Out) => PRIMITIVE_SHADING_RATE.row(),
        (S::Mesh, Out) => MESH_SHADING_RATE.row(),
        _ => NOT_IN_STAGE,
    }
}

/// The primitive's shading rate out of vertex and geometry shaders.
const PRIMITIVE_SHADING_RATE: GlslBuiltin = GlslBuiltin::new(
    "gl_PrimitiveShadingRateEXT",
    "PrimitiveShadingRateKHR",
    BuiltinType::INT,
)
.ext("GL_EXT_fragment_shading_rate")
.cap("FragmentShadingRateKHR")
.spv_ext("SPV_KHR_fragment_shading_rate");

/// D6: `SV_ShadingRate` as a mesh per-primitive output is the `int` member
/// `gl_PrimitiveShadingRateEXT` of `gl_MeshPerPrimitiveEXT`; the reference
/// declares the member `uint`, which glslang rejects as a redeclaration of
/// the built-in block.
const MESH_SHADING_RATE: GlslBuiltin = PRIMITIVE_SHADING_RATE.at(Access::MeshPerPrimitive);

/// D1: `SV_StencilRef` requests `GL_ARB_shader_stencil_export`; the reference
/// writes `ARB_shader_stencil_export`, without the `GL_` prefix, which
/// glslang rejects. The extension names the builtin `gl_FragStencilRefARB`
/// (the reference's `gl_FragStencilRef` is undeclared in glslang), and a
/// shader writing it declares `StencilRefReplacingEXT`, which the reference
/// leaves out.
const STENCIL_REF: GlslBuiltin = GlslBuiltin::new(
    "gl_FragStencilRefARB",
    "FragStencilRefEXT",
    BuiltinType::INT,
)
.ext("GL_ARB_shader_stencil_export")
.cap("StencilExportEXT")
.spv_ext("SPV_EXT_shader_stencil_export")
.modes(&["StencilRefReplacingEXT"]);

/// D1: the reference requests `ARB_cull_distance`, without the `GL_` prefix,
/// which glslang rejects. The prefixed `GL_ARB_cull_distance` is rejected
/// too (glslang does not know it: "extension not supported"), and
/// `gl_CullDistance` is core in GLSL 4.50, so the row requests no extension
/// at all. The reference also treats `gl_CullDistance` as a scalar; like
/// `gl_ClipDistance` it is an array, indexed by the semantic index.
const CULL_DISTANCE: GlslBuiltin =
    GlslBuiltin::new("gl_CullDistance", "CullDistance", DISTANCES).cap("CullDistance");

/// Tessellation levels: written once per patch by the hull shader's
/// patch-constant function, read by the domain shader.
fn tess_level(stage: S, dir: Direction, b: GlslBuiltin) -> GlslMapping {
    match (stage, dir) {
        (S::Hull, Direction::Output) | (S::Domain, Direction::Input) => b.patch().row(),
        _ => NOT_IN_STAGE,
    }
}

fn fragment_input(stage: S, dir: Direction, b: GlslBuiltin) -> GlslMapping {
    match (stage, dir) {
        (S::Fragment, Direction::Input) => b.row(),
        _ => NOT_IN_STAGE,
    }
}

fn fragment_output(stage: S, dir: Direction, b: GlslBuiltin) -> GlslMapping {
    match (stage, dir) {
        (S::Fragment, Direction::Output) => b.row(),
        _ => NOT_IN_STAGE,
    }
}

fn vertex_input(stage: S, dir: Direction, b: GlslBuiltin) -> GlslMapping {
    match (stage, dir) {
        (S::Vertex, Direction::Input) => b.row(),
        _ => NOT_IN_STAGE,
    }
}

/// Subgroup builtins: readable by every graphics and compute-like stage the
/// reference's stage check allows (not ray tracing).
fn subgroup(stage: S, dir: Direction, b: GlslBuiltin) -> GlslMapping {
    match (stage, dir) {
        (
            S::Vertex
            | S::Hull
            | S::Domain
            | S::Geometry
            | S::Fragment
            | S::Compute
            | S::Mesh
            | S::Amplification,
            Direction::Input,
        ) => b
            .ext("GL_KHR_shader_subgroup_basic")
            .cap("GroupNonUniform")
            .flat_in_fragment(stage)
            .row(),
        _ => NOT_IN_STAGE,
    }
}

fn compute_id(
    stage: S,
    dir: Direction,
    glsl_name: &'static str,
    spirv: &'static str,
) -> GlslMapping {
    match (stage, dir) {
        (S::Compute | S::Mesh | S::Amplification, Direction::Input) => {
            builtin(glsl_name, spirv, BuiltinType::UINT3)
        }
        _ => NOT_IN_STAGE,
    }
}

/// `gl_VertexIndex`/`gl_InstanceIndex` with the base subtracted. The bases
/// are core in GLSL 4.60 (SPIR-V `DrawParameters`); the reference also adds
/// a redundant `GL_ARB_shader_draw_parameters`.
fn rebased(
    glsl_name: &'static str,
    spirv_builtin: &'static str,
    base_name: &'static str,
    base_spirv: &'static str,
) -> GlslMapping {
    GlslMapping::BuiltIn(GlslBuiltin {
        rebase: Some(Rebase {
            base_name,
            base_spirv,
        }),
        ..GlslBuiltin::new(glsl_name, spirv_builtin, BuiltinType::INT)
            .version(460)
            .cap("DrawParameters")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use legalis_ir::ScalarKind;

    const DIRS: [Direction; 2] = [Direction::Input, Direction::Output];

    fn glsl_type(ty: BuiltinType) -> String {
        let scalar = |kind| match kind {
            ScalarKind::Bool => "bool",
            ScalarKind::Sint => "int",
            ScalarKind::Uint => "uint",
            ScalarKind::Float => "float",
        };
        let prefix = |kind| match kind {
            ScalarKind::Bool => "b",
            ScalarKind::Sint => "i",
            ScalarKind::Uint => "u",
            ScalarKind::Float => "",
        };
        match ty {
            BuiltinType::Scalar(s) => scalar(s.kind).to_string(),
            BuiltinType::Vector(s, n) => format!("{}vec{n}", prefix(s.kind)),
            BuiltinType::Array(s, None) => format!("{}[]", scalar(s.kind)),
            BuiltinType::Array(s, Some(n)) => format!("{}[{n}]", scalar(s.kind)),
        }
    }

    /// One line per row, every field in it, so that any change to a row
    /// changes its line.
    fn describe(m: GlslMapping) -> String {
        let b = match m {
            GlslMapping::BuiltIn(b) => b,
            GlslMapping::Location { by_index: true } => return "location = semantic index".into(),
            GlslMapping::Location { by_index: false } => return "location".into(),
            GlslMapping::Unsupported { code } if code == codes::NOT_SUPPORTED_YET => {
                return "not yet".into();
            }
            GlslMapping::Unsupported { code } => return format!("E{code}"),
        };
        let mut s = String::new();
        if let Some(block) = b.access.block_array() {
            s += &format!("{block}[].");
        }
        s += b.glsl_name;
        match b.array_index {
            Some(ArrayIndex::Fixed(i)) => s += &format!("[{i}]"),
            Some(ArrayIndex::SemanticIndex) => s += "[N]",
            None => {}
        }
        s += &format!(" : {}", glsl_type(b.ty));
        if let Some(r) = b.rebase {
            s += &format!(" - {} ({})", r.base_name, r.base_spirv);
        }
        if b.min_version != 450 {
            s += &format!(" #{}", b.min_version);
        }
        if let Some(e) = b.extension {
            s += &format!(" +{e}");
        }
        if let Some(l) = b.layout {
            s += &format!(" layout({l})");
        }
        s += &format!(" | {}", b.spirv_builtin);
        if let Some(c) = b.spirv_capability {
            s += &format!(" cap {c}");
        }
        if let Some(e) = b.spirv_extension {
            s += &format!(" +{e}");
        }
        for mode in b.spirv_execution_modes {
            s += &format!(" mode {mode}");
        }
        if b.flat {
            s += " Flat";
        }
        if b.patch {
            s += " Patch";
        }
        if let Some(alt) = b.noperspective {
            s += &format!(" | noperspective {} ({})", alt.glsl_name, alt.spirv_builtin);
        }
        s
    }

    #[test]
    fn every_system_value_has_a_decision_for_every_stage_and_direction() {
        for sv in SV::ALL {
            for stage in S::ALL {
                for dir in DIRS {
                    let at = format!("{sv:?} {stage:?} {dir:?}");
                    let ray_tracing = matches!(
                        stage,
                        S::RayGeneration
                            | S::Intersection
                            | S::AnyHit
                            | S::ClosestHit
                            | S::Miss
                            | S::Callable
                    );
                    match glsl(sv, stage, dir) {
                        GlslMapping::BuiltIn(b) => {
                            // Ray-tracing stages reach their values through
                            // intrinsics (`DispatchRaysIndex()`), never
                            // through semantics; the reference rejects them.
                            assert!(!ray_tracing, "{at}");
                            assert!(b.glsl_name.starts_with("gl_"), "{at}");
                            assert!(b.min_version >= 450, "{at}");
                            // D1: a GLSL extension is always spelled in full.
                            if let Some(e) = b.extension {
                                assert!(e.starts_with("GL_"), "{at}: {e}");
                            }
                            if let Some(e) = b.spirv_extension {
                                assert!(e.starts_with("SPV_"), "{at}: {e}");
                            }
                            if b.array_index.is_some() {
                                assert!(matches!(b.ty, BuiltinType::Array(..)), "{at}");
                            }
                            // Vulkan: integer fragment inputs are `Flat`, and
                            // nothing else needs to be.
                            let integer =
                                matches!(b.ty.scalar_kind(), ScalarKind::Sint | ScalarKind::Uint);
                            let fragment_in = stage == S::Fragment && dir == Direction::Input;
                            assert_eq!(b.flat, fragment_in && integer, "{at}");
                            if stage == S::Mesh && dir == Direction::Output {
                                assert!(
                                    matches!(
                                        b.access,
                                        Access::MeshPerVertex | Access::MeshPerPrimitive
                                    ),
                                    "{at}"
                                );
                            }
                            if b.patch {
                                assert!(matches!(stage, S::Hull | S::Domain), "{at}");
                            }
                            if b.layout.is_some() {
                                assert_eq!(b.glsl_name, "gl_FragDepth", "{at}");
                            }
                        }
                        GlslMapping::Location { .. } => assert!(!ray_tracing, "{at}"),
                        GlslMapping::Unsupported { code } => assert!(
                            code == codes::NOT_IN_STAGE || code == codes::NOT_SUPPORTED_YET,
                            "{at}"
                        ),
                    }
                }
            }
        }
    }

    #[test]
    fn rows_of_the_vertical_slice() {
        let row = |sv, stage, dir| match glsl(sv, stage, dir) {
            GlslMapping::BuiltIn(b) => b.glsl_name,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            row(SV::Position, S::Vertex, Direction::Output),
            "gl_Position"
        );
        assert_eq!(
            row(SV::Position, S::Fragment, Direction::Input),
            "gl_FragCoord"
        );
        assert_eq!(
            row(SV::IsFrontFace, S::Fragment, Direction::Input),
            "gl_FrontFacing"
        );
        assert_eq!(
            row(SV::DispatchThreadId, S::Compute, Direction::Input),
            "gl_GlobalInvocationID"
        );
        assert_eq!(
            row(SV::GroupIndex, S::Compute, Direction::Input),
            "gl_LocalInvocationIndex"
        );
        assert_eq!(
            glsl(SV::Target, S::Fragment, Direction::Output),
            GlslMapping::Location { by_index: true }
        );
        assert_eq!(
            glsl(SV::DispatchThreadId, S::Vertex, Direction::Input),
            GlslMapping::Unsupported {
                code: codes::NOT_IN_STAGE
            }
        );
    }

    /// Every row that is not `NOT_IN_STAGE`, as surveyed from the reference
    /// and corrected where it is wrong (see the rows' comments).
    const EXPECTED: &[(SV, S, Direction, &str)] = &[
        (SV::Position, S::Vertex, IN, "location"),
        (
            SV::Position,
            S::Vertex,
            OUT,
            "gl_Position : vec4 | Position",
        ),
        (
            SV::Position,
            S::Hull,
            IN,
            "gl_in[].gl_Position : vec4 | Position",
        ),
        (
            SV::Position,
            S::Hull,
            OUT,
            "gl_out[].gl_Position : vec4 | Position",
        ),
        (
            SV::Position,
            S::Domain,
            IN,
            "gl_in[].gl_Position : vec4 | Position",
        ),
        (
            SV::Position,
            S::Domain,
            OUT,
            "gl_Position : vec4 | Position",
        ),
        (
            SV::Position,
            S::Geometry,
            IN,
            "gl_in[].gl_Position : vec4 | Position",
        ),
        (
            SV::Position,
            S::Geometry,
            OUT,
            "gl_Position : vec4 | Position",
        ),
        (
            SV::Position,
            S::Fragment,
            IN,
            "gl_FragCoord : vec4 | FragCoord",
        ),
        (
            SV::Position,
            S::Mesh,
            OUT,
            "gl_MeshVerticesEXT[].gl_Position : vec4 | Position",
        ),
        (SV::Target, S::Fragment, OUT, "location = semantic index"),
        (
            SV::Depth,
            S::Fragment,
            OUT,
            "gl_FragDepth : float | FragDepth mode DepthReplacing",
        ),
        (
            SV::DepthGreaterEqual,
            S::Fragment,
            OUT,
            "gl_FragDepth : float layout(depth_greater) | FragDepth mode DepthReplacing mode DepthGreater",
        ),
        (
            SV::DepthLessEqual,
            S::Fragment,
            OUT,
            "gl_FragDepth : float layout(depth_less) | FragDepth mode DepthReplacing mode DepthLess",
        ),
        (
            SV::Coverage,
            S::Fragment,
            IN,
            "gl_SampleMaskIn[0] : int[1] | SampleMask Flat",
        ),
        (
            SV::Coverage,
            S::Fragment,
            OUT,
            "gl_SampleMask[0] : int[1] | SampleMask",
        ),
        (
            SV::InnerCoverage,
            S::Fragment,
            IN,
            "gl_FragFullyCoveredNV : bool +GL_NV_conservative_raster_underestimation | FullyCoveredEXT cap FragmentFullyCoveredEXT +SPV_EXT_fragment_fully_covered",
        ),
        (
            SV::StencilRef,
            S::Fragment,
            OUT,
            "gl_FragStencilRefARB : int +GL_ARB_shader_stencil_export | FragStencilRefEXT cap StencilExportEXT +SPV_EXT_shader_stencil_export mode StencilRefReplacingEXT",
        ),
        (
            SV::IsFrontFace,
            S::Fragment,
            IN,
            "gl_FrontFacing : bool | FrontFacing",
        ),
        (
            SV::SampleIndex,
            S::Fragment,
            IN,
            "gl_SampleID : int | SampleId cap SampleRateShading Flat",
        ),
        (
            SV::PrimitiveId,
            S::Hull,
            IN,
            "gl_PrimitiveID : int | PrimitiveId",
        ),
        (
            SV::PrimitiveId,
            S::Domain,
            IN,
            "gl_PrimitiveID : int | PrimitiveId",
        ),
        (
            SV::PrimitiveId,
            S::Geometry,
            IN,
            "gl_PrimitiveIDIn : int | PrimitiveId",
        ),
        (
            SV::PrimitiveId,
            S::Geometry,
            OUT,
            "gl_PrimitiveID : int | PrimitiveId",
        ),
        (
            SV::PrimitiveId,
            S::Fragment,
            IN,
            "gl_PrimitiveID : int | PrimitiveId cap Geometry Flat",
        ),
        (
            SV::PrimitiveId,
            S::Mesh,
            OUT,
            "gl_MeshPrimitivesEXT[].gl_PrimitiveID : int | PrimitiveId",
        ),
        (
            SV::VertexId,
            S::Vertex,
            IN,
            "gl_VertexIndex : int - gl_BaseVertex (BaseVertex) #460 | VertexIndex cap DrawParameters",
        ),
        (
            SV::InstanceId,
            S::Vertex,
            IN,
            "gl_InstanceIndex : int - gl_BaseInstance (BaseInstance) #460 | InstanceIndex cap DrawParameters",
        ),
        (
            SV::VulkanVertexId,
            S::Vertex,
            IN,
            "gl_VertexIndex : int | VertexIndex",
        ),
        (
            SV::VulkanInstanceId,
            S::Vertex,
            IN,
            "gl_InstanceIndex : int | InstanceIndex",
        ),
        (
            SV::StartVertexLocation,
            S::Vertex,
            IN,
            "gl_BaseVertex : int #460 | BaseVertex cap DrawParameters",
        ),
        (
            SV::StartInstanceLocation,
            S::Vertex,
            IN,
            "gl_BaseInstance : int #460 | BaseInstance cap DrawParameters",
        ),
        (
            SV::DrawIndex,
            S::Vertex,
            IN,
            "gl_DrawID : int #460 | DrawIndex cap DrawParameters",
        ),
        (
            SV::DrawIndex,
            S::Mesh,
            IN,
            "gl_DrawID : int #460 | DrawIndex cap DrawParameters",
        ),
        (
            SV::DrawIndex,
            S::Amplification,
            IN,
            "gl_DrawID : int #460 | DrawIndex cap DrawParameters",
        ),
        (
            SV::DeviceIndex,
            S::Vertex,
            IN,
            "gl_DeviceIndex : int +GL_EXT_device_group | DeviceIndex cap DeviceGroup +SPV_KHR_device_group",
        ),
        (
            SV::DeviceIndex,
            S::Hull,
            IN,
            "gl_DeviceIndex : int +GL_EXT_device_group | DeviceIndex cap DeviceGroup +SPV_KHR_device_group",
        ),
        (
            SV::DeviceIndex,
            S::Domain,
            IN,
            "gl_DeviceIndex : int +GL_EXT_device_group | DeviceIndex cap DeviceGroup +SPV_KHR_device_group",
        ),
        (
            SV::DeviceIndex,
            S::Geometry,
            IN,
            "gl_DeviceIndex : int +GL_EXT_device_group | DeviceIndex cap DeviceGroup +SPV_KHR_device_group",
        ),
        (
            SV::DeviceIndex,
            S::Fragment,
            IN,
            "gl_DeviceIndex : int +GL_EXT_device_group | DeviceIndex cap DeviceGroup +SPV_KHR_device_group Flat",
        ),
        (
            SV::DeviceIndex,
            S::Compute,
            IN,
            "gl_DeviceIndex : int +GL_EXT_device_group | DeviceIndex cap DeviceGroup +SPV_KHR_device_group",
        ),
        (
            SV::DeviceIndex,
            S::Mesh,
            IN,
            "gl_DeviceIndex : int +GL_EXT_device_group | DeviceIndex cap DeviceGroup +SPV_KHR_device_group",
        ),
        (
            SV::DeviceIndex,
            S::Amplification,
            IN,
            "gl_DeviceIndex : int +GL_EXT_device_group | DeviceIndex cap DeviceGroup +SPV_KHR_device_group",
        ),
        (
            SV::ViewId,
            S::Vertex,
            IN,
            "gl_ViewIndex : int +GL_EXT_multiview | ViewIndex cap MultiView",
        ),
        (
            SV::ViewId,
            S::Hull,
            IN,
            "gl_ViewIndex : int +GL_EXT_multiview | ViewIndex cap MultiView",
        ),
        (
            SV::ViewId,
            S::Domain,
            IN,
            "gl_ViewIndex : int +GL_EXT_multiview | ViewIndex cap MultiView",
        ),
        (
            SV::ViewId,
            S::Geometry,
            IN,
            "gl_ViewIndex : int +GL_EXT_multiview | ViewIndex cap MultiView",
        ),
        (
            SV::ViewId,
            S::Fragment,
            IN,
            "gl_ViewIndex : int +GL_EXT_multiview | ViewIndex cap MultiView Flat",
        ),
        (
            SV::ViewId,
            S::Mesh,
            IN,
            "gl_ViewIndex : int +GL_EXT_multiview | ViewIndex cap MultiView",
        ),
        (
            SV::ClipDistance,
            S::Vertex,
            OUT,
            "gl_ClipDistance[N] : float[] | ClipDistance cap ClipDistance",
        ),
        (
            SV::ClipDistance,
            S::Hull,
            IN,
            "gl_in[].gl_ClipDistance[N] : float[] | ClipDistance cap ClipDistance",
        ),
        (
            SV::ClipDistance,
            S::Hull,
            OUT,
            "gl_out[].gl_ClipDistance[N] : float[] | ClipDistance cap ClipDistance",
        ),
        (
            SV::ClipDistance,
            S::Domain,
            IN,
            "gl_in[].gl_ClipDistance[N] : float[] | ClipDistance cap ClipDistance",
        ),
        (
            SV::ClipDistance,
            S::Domain,
            OUT,
            "gl_ClipDistance[N] : float[] | ClipDistance cap ClipDistance",
        ),
        (
            SV::ClipDistance,
            S::Geometry,
            IN,
            "gl_in[].gl_ClipDistance[N] : float[] | ClipDistance cap ClipDistance",
        ),
        (
            SV::ClipDistance,
            S::Geometry,
            OUT,
            "gl_ClipDistance[N] : float[] | ClipDistance cap ClipDistance",
        ),
        (
            SV::ClipDistance,
            S::Fragment,
            IN,
            "gl_ClipDistance[N] : float[] | ClipDistance cap ClipDistance",
        ),
        (
            SV::ClipDistance,
            S::Mesh,
            OUT,
            "gl_MeshVerticesEXT[].gl_ClipDistance[N] : float[] | ClipDistance cap ClipDistance",
        ),
        (
            SV::CullDistance,
            S::Vertex,
            OUT,
            "gl_CullDistance[N] : float[] | CullDistance cap CullDistance",
        ),
        (
            SV::CullDistance,
            S::Hull,
            IN,
            "gl_in[].gl_CullDistance[N] : float[] | CullDistance cap CullDistance",
        ),
        (
            SV::CullDistance,
            S::Hull,
            OUT,
            "gl_out[].gl_CullDistance[N] : float[] | CullDistance cap CullDistance",
        ),
        (
            SV::CullDistance,
            S::Domain,
            IN,
            "gl_in[].gl_CullDistance[N] : float[] | CullDistance cap CullDistance",
        ),
        (
            SV::CullDistance,
            S::Domain,
            OUT,
            "gl_CullDistance[N] : float[] | CullDistance cap CullDistance",
        ),
        (
            SV::CullDistance,
            S::Geometry,
            IN,
            "gl_in[].gl_CullDistance[N] : float[] | CullDistance cap CullDistance",
        ),
        (
            SV::CullDistance,
            S::Geometry,
            OUT,
            "gl_CullDistance[N] : float[] | CullDistance cap CullDistance",
        ),
        (
            SV::CullDistance,
            S::Fragment,
            IN,
            "gl_CullDistance[N] : float[] | CullDistance cap CullDistance",
        ),
        (
            SV::CullDistance,
            S::Mesh,
            OUT,
            "gl_MeshVerticesEXT[].gl_CullDistance[N] : float[] | CullDistance cap CullDistance",
        ),
        (
            SV::RenderTargetArrayIndex,
            S::Vertex,
            OUT,
            "gl_Layer : int +GL_ARB_shader_viewport_layer_array | Layer cap ShaderLayer",
        ),
        (
            SV::RenderTargetArrayIndex,
            S::Domain,
            OUT,
            "gl_Layer : int +GL_ARB_shader_viewport_layer_array | Layer cap ShaderLayer",
        ),
        (
            SV::RenderTargetArrayIndex,
            S::Geometry,
            OUT,
            "gl_Layer : int | Layer",
        ),
        (
            SV::RenderTargetArrayIndex,
            S::Fragment,
            IN,
            "gl_Layer : int | Layer cap Geometry Flat",
        ),
        (
            SV::RenderTargetArrayIndex,
            S::Mesh,
            OUT,
            "gl_MeshPrimitivesEXT[].gl_Layer : int | Layer",
        ),
        (
            SV::ViewportArrayIndex,
            S::Vertex,
            OUT,
            "gl_ViewportIndex : int +GL_ARB_shader_viewport_layer_array | ViewportIndex cap ShaderViewportIndex",
        ),
        (
            SV::ViewportArrayIndex,
            S::Domain,
            OUT,
            "gl_ViewportIndex : int +GL_ARB_shader_viewport_layer_array | ViewportIndex cap ShaderViewportIndex",
        ),
        (
            SV::ViewportArrayIndex,
            S::Geometry,
            OUT,
            "gl_ViewportIndex : int | ViewportIndex cap MultiViewport",
        ),
        (
            SV::ViewportArrayIndex,
            S::Fragment,
            IN,
            "gl_ViewportIndex : int | ViewportIndex cap MultiViewport Flat",
        ),
        (
            SV::ViewportArrayIndex,
            S::Mesh,
            OUT,
            "gl_MeshPrimitivesEXT[].gl_ViewportIndex : int | ViewportIndex",
        ),
        (
            SV::Barycentrics,
            S::Fragment,
            IN,
            "gl_BaryCoordEXT : vec3 +GL_EXT_fragment_shader_barycentric | BaryCoordKHR cap FragmentBarycentricKHR +SPV_KHR_fragment_shader_barycentric | noperspective gl_BaryCoordNoPerspEXT (BaryCoordNoPerspKHR)",
        ),
        (
            SV::ShadingRate,
            S::Vertex,
            OUT,
            "gl_PrimitiveShadingRateEXT : int +GL_EXT_fragment_shading_rate | PrimitiveShadingRateKHR cap FragmentShadingRateKHR +SPV_KHR_fragment_shading_rate",
        ),
        (
            SV::ShadingRate,
            S::Geometry,
            OUT,
            "gl_PrimitiveShadingRateEXT : int +GL_EXT_fragment_shading_rate | PrimitiveShadingRateKHR cap FragmentShadingRateKHR +SPV_KHR_fragment_shading_rate",
        ),
        (
            SV::ShadingRate,
            S::Fragment,
            IN,
            "gl_ShadingRateEXT : int +GL_EXT_fragment_shading_rate | ShadingRateKHR cap FragmentShadingRateKHR +SPV_KHR_fragment_shading_rate Flat",
        ),
        (
            SV::ShadingRate,
            S::Mesh,
            OUT,
            "gl_MeshPrimitivesEXT[].gl_PrimitiveShadingRateEXT : int +GL_EXT_fragment_shading_rate | PrimitiveShadingRateKHR cap FragmentShadingRateKHR +SPV_KHR_fragment_shading_rate",
        ),
        (
            SV::CullPrimitive,
            S::Mesh,
            OUT,
            "gl_MeshPrimitivesEXT[].gl_CullPrimitiveEXT : bool | CullPrimitiveEXT",
        ),
        (
            SV::PointSize,
            S::Vertex,
            OUT,
            "gl_PointSize : float | PointSize",
        ),
        (
            SV::PointSize,
            S::Geometry,
            OUT,
            "gl_PointSize : float | PointSize cap GeometryPointSize",
        ),
        (
            SV::PointSize,
            S::Mesh,
            OUT,
            "gl_MeshVerticesEXT[].gl_PointSize : float | PointSize",
        ),
        (
            SV::PointCoord,
            S::Fragment,
            IN,
            "gl_PointCoord : vec2 | PointCoord",
        ),
        (
            SV::VulkanSamplePosition,
            S::Fragment,
            IN,
            "gl_SamplePosition : vec2 | SamplePosition cap SampleRateShading",
        ),
        (
            SV::FragInvocationCount,
            S::Fragment,
            IN,
            "gl_FragInvocationCountEXT : int +GL_EXT_fragment_invocation_density | FragInvocationCountEXT cap FragmentDensityEXT +SPV_EXT_fragment_invocation_density Flat",
        ),
        (
            SV::FragSize,
            S::Fragment,
            IN,
            "gl_FragSizeEXT : ivec2 +GL_EXT_fragment_invocation_density | FragSizeEXT cap FragmentDensityEXT +SPV_EXT_fragment_invocation_density Flat",
        ),
        (
            SV::GsInstanceId,
            S::Geometry,
            IN,
            "gl_InvocationID : int | InvocationId",
        ),
        (
            SV::OutputControlPointId,
            S::Hull,
            IN,
            "gl_InvocationID : int | InvocationId",
        ),
        (
            SV::DomainLocation,
            S::Domain,
            IN,
            "gl_TessCoord : vec3 | TessCoord",
        ),
        (
            SV::TessFactor,
            S::Hull,
            OUT,
            "gl_TessLevelOuter : float[4] | TessLevelOuter Patch",
        ),
        (
            SV::TessFactor,
            S::Domain,
            IN,
            "gl_TessLevelOuter : float[4] | TessLevelOuter Patch",
        ),
        (
            SV::InsideTessFactor,
            S::Hull,
            OUT,
            "gl_TessLevelInner : float[2] | TessLevelInner Patch",
        ),
        (
            SV::InsideTessFactor,
            S::Domain,
            IN,
            "gl_TessLevelInner : float[2] | TessLevelInner Patch",
        ),
        (
            SV::DispatchThreadId,
            S::Compute,
            IN,
            "gl_GlobalInvocationID : uvec3 | GlobalInvocationId",
        ),
        (
            SV::DispatchThreadId,
            S::Mesh,
            IN,
            "gl_GlobalInvocationID : uvec3 | GlobalInvocationId",
        ),
        (
            SV::DispatchThreadId,
            S::Amplification,
            IN,
            "gl_GlobalInvocationID : uvec3 | GlobalInvocationId",
        ),
        (
            SV::GroupId,
            S::Compute,
            IN,
            "gl_WorkGroupID : uvec3 | WorkgroupId",
        ),
        (
            SV::GroupId,
            S::Mesh,
            IN,
            "gl_WorkGroupID : uvec3 | WorkgroupId",
        ),
        (
            SV::GroupId,
            S::Amplification,
            IN,
            "gl_WorkGroupID : uvec3 | WorkgroupId",
        ),
        (
            SV::GroupThreadId,
            S::Compute,
            IN,
            "gl_LocalInvocationID : uvec3 | LocalInvocationId",
        ),
        (
            SV::GroupThreadId,
            S::Mesh,
            IN,
            "gl_LocalInvocationID : uvec3 | LocalInvocationId",
        ),
        (
            SV::GroupThreadId,
            S::Amplification,
            IN,
            "gl_LocalInvocationID : uvec3 | LocalInvocationId",
        ),
        (
            SV::GroupIndex,
            S::Compute,
            IN,
            "gl_LocalInvocationIndex : uint | LocalInvocationIndex",
        ),
        (
            SV::GroupIndex,
            S::Mesh,
            IN,
            "gl_LocalInvocationIndex : uint | LocalInvocationIndex",
        ),
        (
            SV::GroupIndex,
            S::Amplification,
            IN,
            "gl_LocalInvocationIndex : uint | LocalInvocationIndex",
        ),
        (
            SV::WaveLaneIndex,
            S::Vertex,
            IN,
            "gl_SubgroupInvocationID : uint +GL_KHR_shader_subgroup_basic | SubgroupLocalInvocationId cap GroupNonUniform",
        ),
        (
            SV::WaveLaneIndex,
            S::Hull,
            IN,
            "gl_SubgroupInvocationID : uint +GL_KHR_shader_subgroup_basic | SubgroupLocalInvocationId cap GroupNonUniform",
        ),
        (
            SV::WaveLaneIndex,
            S::Domain,
            IN,
            "gl_SubgroupInvocationID : uint +GL_KHR_shader_subgroup_basic | SubgroupLocalInvocationId cap GroupNonUniform",
        ),
        (
            SV::WaveLaneIndex,
            S::Geometry,
            IN,
            "gl_SubgroupInvocationID : uint +GL_KHR_shader_subgroup_basic | SubgroupLocalInvocationId cap GroupNonUniform",
        ),
        (
            SV::WaveLaneIndex,
            S::Fragment,
            IN,
            "gl_SubgroupInvocationID : uint +GL_KHR_shader_subgroup_basic | SubgroupLocalInvocationId cap GroupNonUniform Flat",
        ),
        (
            SV::WaveLaneIndex,
            S::Compute,
            IN,
            "gl_SubgroupInvocationID : uint +GL_KHR_shader_subgroup_basic | SubgroupLocalInvocationId cap GroupNonUniform",
        ),
        (
            SV::WaveLaneIndex,
            S::Mesh,
            IN,
            "gl_SubgroupInvocationID : uint +GL_KHR_shader_subgroup_basic | SubgroupLocalInvocationId cap GroupNonUniform",
        ),
        (
            SV::WaveLaneIndex,
            S::Amplification,
            IN,
            "gl_SubgroupInvocationID : uint +GL_KHR_shader_subgroup_basic | SubgroupLocalInvocationId cap GroupNonUniform",
        ),
        (
            SV::WaveLaneCount,
            S::Vertex,
            IN,
            "gl_SubgroupSize : uint +GL_KHR_shader_subgroup_basic | SubgroupSize cap GroupNonUniform",
        ),
        (
            SV::WaveLaneCount,
            S::Hull,
            IN,
            "gl_SubgroupSize : uint +GL_KHR_shader_subgroup_basic | SubgroupSize cap GroupNonUniform",
        ),
        (
            SV::WaveLaneCount,
            S::Domain,
            IN,
            "gl_SubgroupSize : uint +GL_KHR_shader_subgroup_basic | SubgroupSize cap GroupNonUniform",
        ),
        (
            SV::WaveLaneCount,
            S::Geometry,
            IN,
            "gl_SubgroupSize : uint +GL_KHR_shader_subgroup_basic | SubgroupSize cap GroupNonUniform",
        ),
        (
            SV::WaveLaneCount,
            S::Fragment,
            IN,
            "gl_SubgroupSize : uint +GL_KHR_shader_subgroup_basic | SubgroupSize cap GroupNonUniform Flat",
        ),
        (
            SV::WaveLaneCount,
            S::Compute,
            IN,
            "gl_SubgroupSize : uint +GL_KHR_shader_subgroup_basic | SubgroupSize cap GroupNonUniform",
        ),
        (
            SV::WaveLaneCount,
            S::Mesh,
            IN,
            "gl_SubgroupSize : uint +GL_KHR_shader_subgroup_basic | SubgroupSize cap GroupNonUniform",
        ),
        (
            SV::WaveLaneCount,
            S::Amplification,
            IN,
            "gl_SubgroupSize : uint +GL_KHR_shader_subgroup_basic | SubgroupSize cap GroupNonUniform",
        ),
        (
            SV::WaveIndex,
            S::Compute,
            IN,
            "gl_SubgroupID : uint +GL_KHR_shader_subgroup_basic | SubgroupId cap GroupNonUniform",
        ),
        (SV::QuadLaneIndex, S::Fragment, IN, "not yet"),
        (SV::QuadLaneIndex, S::Compute, IN, "not yet"),
    ];

    const IN: Direction = Direction::Input;
    const OUT: Direction = Direction::Output;

    #[test]
    fn every_row_is_pinned() {
        let mut seen = std::collections::HashSet::new();
        for &(sv, stage, dir, want) in EXPECTED {
            assert!(
                seen.insert((sv, stage, dir)),
                "{sv:?} {stage:?} {dir:?} listed twice"
            );
            assert_eq!(
                describe(glsl(sv, stage, dir)),
                want,
                "{sv:?} {stage:?} {dir:?}"
            );
        }
        for sv in SV::ALL {
            for stage in S::ALL {
                for dir in DIRS {
                    if !seen.contains(&(sv, stage, dir)) {
                        assert_eq!(
                            glsl(sv, stage, dir),
                            NOT_IN_STAGE,
                            "{sv:?} {stage:?} {dir:?} is not in EXPECTED"
                        );
                    }
                }
            }
        }
    }
}
