//! Semantics, interpolation and the [`Binding`] a varying has reached.
//!
//! Semantics are parsed once, by [`Semantic::parse`]: case-insensitive, with the
//! trailing decimal index split off (`TEXCOORD3` is user semantic `TEXCOORD`
//! index 3, `SV_ClipDistance1` is [`SystemValue::ClipDistance`] index 1).

use std::fmt;

/// Every `SV_*` system value the front end recognises.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SystemValue {
    /// `SV_Position`: the clip-space position a vertex-processing stage writes; the window-space
    /// fragment coordinate a fragment shader reads.
    Position,
    /// `SV_Target`N: fragment output to render target N.
    Target,
    /// `SV_Depth`: the fragment's depth output.
    Depth,
    /// `SV_DepthGreaterEqual`: a depth output no less than the rasterized depth (conservative
    /// depth).
    DepthGreaterEqual,
    /// `SV_DepthLessEqual`: a depth output no greater than the rasterized depth (conservative
    /// depth).
    DepthLessEqual,
    /// `SV_Coverage`: the fragment's sample coverage mask (input or output).
    Coverage,
    /// `SV_InnerCoverage`: whether the primitive fully covers the pixel (conservative
    /// rasterization).
    InnerCoverage,
    /// `SV_StencilRef`: the stencil reference value a fragment shader writes.
    StencilRef,
    /// `SV_IsFrontFace`: whether the primitive faces the viewer.
    IsFrontFace,
    /// `SV_SampleIndex`: the sample being shaded; reading it makes the shader run per sample.
    SampleIndex,
    /// `SV_PrimitiveID`: the index of the primitive in the draw.
    PrimitiveId,
    /// `SV_VertexID`: the vertex index, counted from the draw's first vertex as in D3D.
    VertexId,
    /// `SV_InstanceID`: the instance index, counted from the draw's first instance as in D3D.
    InstanceId,
    /// `SV_VulkanVertexID`: the vertex index as Vulkan counts it (including the base vertex).
    VulkanVertexId,
    /// `SV_VulkanInstanceID`: the instance index as Vulkan counts it (including the base instance).
    VulkanInstanceId,
    /// `SV_StartVertexLocation`: the draw's first vertex (base vertex).
    StartVertexLocation,
    /// `SV_StartInstanceLocation`: the draw's first instance (base instance).
    StartInstanceLocation,
    /// `SV_DrawIndex`: the index of the draw in a multi-draw.
    DrawIndex,
    /// `SV_DeviceIndex`: the index of the device in a device group.
    DeviceIndex,
    /// `SV_ViewID`: the view of a multiview render pass.
    ViewId,
    /// `SV_ClipDistance`N: user clip distances (arrayed builtin).
    ClipDistance,
    /// `SV_CullDistance`N: user cull distances (arrayed builtin).
    CullDistance,
    /// `SV_RenderTargetArrayIndex`: the layer of a layered render target.
    RenderTargetArrayIndex,
    /// `SV_ViewportArrayIndex`: the viewport the primitive goes to.
    ViewportArrayIndex,
    /// `SV_Barycentrics`: the fragment's barycentric coordinates in the primitive.
    Barycentrics,
    /// `SV_ShadingRate`: the variable-rate-shading rate.
    ShadingRate,
    /// `SV_CullPrimitive`: a mesh shader's per-primitive flag that culls the primitive.
    CullPrimitive,
    /// `SV_PointSize`: the size of a point primitive, in pixels.
    PointSize,
    /// `SV_PointCoord`: the fragment's coordinate within a point sprite.
    PointCoord,
    /// `SV_VulkanSamplePosition`: the sample's position within the pixel.
    VulkanSamplePosition,
    /// `SV_FragInvocationCount`: the fragment invocations per pixel (fragment density).
    FragInvocationCount,
    /// `SV_FragSize`: the fragment's size in pixels (fragment density).
    FragSize,
    /// `SV_GSInstanceID`: the instance of an instanced geometry shader (`[instance(n)]`).
    GsInstanceId,
    /// `SV_OutputControlPointID`: the control point a hull shader invocation writes.
    OutputControlPointId,
    /// `SV_DomainLocation`: a domain shader's coordinate in the patch.
    DomainLocation,
    /// `SV_TessFactor`: the outer tessellation factors.
    TessFactor,
    /// `SV_InsideTessFactor`: the inner tessellation factors.
    InsideTessFactor,
    /// `SV_DispatchThreadID`: the invocation's id in the whole dispatch.
    DispatchThreadId,
    /// `SV_GroupID`: the workgroup's id in the dispatch.
    GroupId,
    /// `SV_GroupThreadID`: the invocation's id in its workgroup.
    GroupThreadId,
    /// `SV_GroupIndex`: the invocation's flattened index in its workgroup.
    GroupIndex,
    /// `SV_WaveLaneIndex`: the invocation's lane in its wave (subgroup).
    WaveLaneIndex,
    /// `SV_WaveLaneCount`: the lanes of a wave (subgroup size).
    WaveLaneCount,
    /// `SV_WaveIndex`: the wave's index in its workgroup.
    WaveIndex,
    /// `SV_QuadLaneIndex`: the invocation's lane in its quad.
    QuadLaneIndex,
}

impl SystemValue {
    /// All system values, in declaration order.
    pub const ALL: [SystemValue; 45] = {
        use SystemValue::*;
        [
            Position,
            Target,
            Depth,
            DepthGreaterEqual,
            DepthLessEqual,
            Coverage,
            InnerCoverage,
            StencilRef,
            IsFrontFace,
            SampleIndex,
            PrimitiveId,
            VertexId,
            InstanceId,
            VulkanVertexId,
            VulkanInstanceId,
            StartVertexLocation,
            StartInstanceLocation,
            DrawIndex,
            DeviceIndex,
            ViewId,
            ClipDistance,
            CullDistance,
            RenderTargetArrayIndex,
            ViewportArrayIndex,
            Barycentrics,
            ShadingRate,
            CullPrimitive,
            PointSize,
            PointCoord,
            VulkanSamplePosition,
            FragInvocationCount,
            FragSize,
            GsInstanceId,
            OutputControlPointId,
            DomainLocation,
            TessFactor,
            InsideTessFactor,
            DispatchThreadId,
            GroupId,
            GroupThreadId,
            GroupIndex,
            WaveLaneIndex,
            WaveLaneCount,
            WaveIndex,
            QuadLaneIndex,
        ]
    };

    /// The canonical spelling, without index (`SV_Position`).
    pub fn name(self) -> &'static str {
        use SystemValue::*;
        match self {
            Position => "SV_Position",
            Target => "SV_Target",
            Depth => "SV_Depth",
            DepthGreaterEqual => "SV_DepthGreaterEqual",
            DepthLessEqual => "SV_DepthLessEqual",
            Coverage => "SV_Coverage",
            InnerCoverage => "SV_InnerCoverage",
            StencilRef => "SV_StencilRef",
            IsFrontFace => "SV_IsFrontFace",
            SampleIndex => "SV_SampleIndex",
            PrimitiveId => "SV_PrimitiveID",
            VertexId => "SV_VertexID",
            InstanceId => "SV_InstanceID",
            VulkanVertexId => "SV_VulkanVertexID",
            VulkanInstanceId => "SV_VulkanInstanceID",
            StartVertexLocation => "SV_StartVertexLocation",
            StartInstanceLocation => "SV_StartInstanceLocation",
            DrawIndex => "SV_DrawIndex",
            DeviceIndex => "SV_DeviceIndex",
            ViewId => "SV_ViewID",
            ClipDistance => "SV_ClipDistance",
            CullDistance => "SV_CullDistance",
            RenderTargetArrayIndex => "SV_RenderTargetArrayIndex",
            ViewportArrayIndex => "SV_ViewportArrayIndex",
            Barycentrics => "SV_Barycentrics",
            ShadingRate => "SV_ShadingRate",
            CullPrimitive => "SV_CullPrimitive",
            PointSize => "SV_PointSize",
            PointCoord => "SV_PointCoord",
            VulkanSamplePosition => "SV_VulkanSamplePosition",
            FragInvocationCount => "SV_FragInvocationCount",
            FragSize => "SV_FragSize",
            GsInstanceId => "SV_GSInstanceID",
            OutputControlPointId => "SV_OutputControlPointID",
            DomainLocation => "SV_DomainLocation",
            TessFactor => "SV_TessFactor",
            InsideTessFactor => "SV_InsideTessFactor",
            DispatchThreadId => "SV_DispatchThreadID",
            GroupId => "SV_GroupID",
            GroupThreadId => "SV_GroupThreadID",
            GroupIndex => "SV_GroupIndex",
            WaveLaneIndex => "SV_WaveLaneIndex",
            WaveLaneCount => "SV_WaveLaneCount",
            WaveIndex => "SV_WaveIndex",
            QuadLaneIndex => "SV_QuadLaneIndex",
        }
    }

    /// Looks a name up case-insensitively; `name` has no trailing index.
    pub fn from_name(name: &str) -> Option<SystemValue> {
        SystemValue::ALL
            .into_iter()
            .find(|sv| sv.name().eq_ignore_ascii_case(name))
    }

    /// Whether the semantic carries a meaningful index (`SV_Target3`,
    /// `SV_ClipDistance1`); for the others only index 0 is allowed.
    pub fn is_indexed(self) -> bool {
        matches!(
            self,
            SystemValue::Target | SystemValue::ClipDistance | SystemValue::CullDistance
        )
    }
}

/// A parsed semantic annotation (`: SV_Position`, `: TEXCOORD3`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Semantic {
    /// A known `SV_*` system value.
    System {
        /// The system value.
        value: SystemValue,
        /// The trailing index (`SV_Target2` is 2); 0 when none is written.
        index: u32,
    },
    /// An `SV_` name the front end does not know. Kept so that the legalizers
    /// can reject it with a coded diagnostic at the declaration (B5).
    UnknownSystem {
        /// The name as written, `SV_` prefix and any digits that are part of it included.
        name: String,
        /// The trailing index; 0 when none is written.
        index: u32,
    },
    /// A user semantic; `name` keeps the source spelling (comparisons are
    /// case-insensitive).
    User {
        /// The name without the trailing index.
        name: String,
        /// The trailing index (`TEXCOORD3` is 3); 0 when none is written.
        index: u32,
    },
}

impl Semantic {
    /// Parses a semantic as written. Returns `None` for a name that ends in an
    /// index too large for `u32`.
    pub fn parse(text: &str) -> Option<Semantic> {
        let digits = text.len() - text.bytes().rev().take_while(u8::is_ascii_digit).count();
        let (base, index_text) = text.split_at(digits);
        let (base, index, explicit_index) = if base.is_empty() {
            (text, 0, false)
        } else if index_text.is_empty() {
            (base, 0, false)
        } else {
            (base, index_text.parse::<u32>().ok()?, true)
        };
        let is_sv = base.len() >= 3 && base[..3].eq_ignore_ascii_case("sv_");
        if !is_sv {
            return Some(Semantic::User {
                name: base.to_string(),
                index,
            });
        }
        match SystemValue::from_name(base) {
            Some(value) => Some(Semantic::System { value, index }),
            // `SV_` names that end in digits as part of the name do not exist;
            // keep the whole spelling for the diagnostic.
            None if explicit_index => Some(Semantic::UnknownSystem {
                name: text.to_string(),
                index: 0,
            }),
            None => Some(Semantic::UnknownSystem {
                name: base.to_string(),
                index,
            }),
        }
    }

    /// The semantic index, whatever the kind.
    pub fn index(&self) -> u32 {
        match *self {
            Semantic::System { index, .. }
            | Semantic::UnknownSystem { index, .. }
            | Semantic::User { index, .. } => index,
        }
    }

    /// The system value, for [`Semantic::System`]; `None` otherwise.
    pub fn system_value(&self) -> Option<SystemValue> {
        match *self {
            Semantic::System { value, .. } => Some(value),
            _ => None,
        }
    }
}

impl fmt::Display for Semantic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (name, index) = match self {
            Semantic::System { value, index } => (value.name(), *index),
            Semantic::UnknownSystem { name, index } => (name.as_str(), *index),
            Semantic::User { name, index } => (name.as_str(), *index),
        };
        let explicit = match self {
            Semantic::System { value, .. } => value.is_indexed() && index != 0,
            _ => index != 0,
        };
        if explicit {
            write!(f, "{name}{index}")
        } else {
            write!(f, "{name}")
        }
    }
}

/// How a fragment input is interpolated (`linear`, `nointerpolation`, `noperspective`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InterpolationMode {
    /// `linear`: perspective-correct (the default when no mode is written).
    Linear,
    /// `nointerpolation`: the provoking vertex's value (GLSL `flat`).
    Flat,
    /// `noperspective`: linear in screen space.
    NoPerspective,
}

/// Where within the pixel interpolation samples (`centroid`, `sample`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sampling {
    /// `centroid`: at a covered point of the pixel.
    Centroid,
    /// `sample`: at each sample (per-sample shading).
    Sample,
}

/// The interpolation modifiers of a varying; both `None` is the default (perspective, at the pixel
/// center).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Interpolation {
    /// The mode, if one is written.
    pub mode: Option<InterpolationMode>,
    /// Where it samples, if written.
    pub sampling: Option<Sampling>,
}

impl Interpolation {
    /// Whether no modifier is written.
    pub fn is_default(self) -> bool {
        self.mode.is_none() && self.sampling.is_none()
    }
}

/// A target builtin a legalizer substituted for a system value. The names are
/// target-neutral; each emitter spells them.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BuiltIn {
    /// The system value this builtin implements.
    pub value: SystemValue,
    /// Element of an arrayed builtin (`gl_ClipDistance[1]`, `gl_SampleMask[0]`).
    pub array_index: Option<u32>,
}

/// How far legalization got with a varying.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Binding {
    /// As written in the source; the only form the front end produces.
    Semantic(Semantic),
    /// Substituted by a target builtin.
    BuiltIn(BuiltIn),
    /// A user varying at an interface location.
    Location {
        /// The first location it occupies.
        location: u32,
        /// The first component within the location (GLSL `component`); 0 for the whole location.
        component: u32,
        /// Dual-source blending index (`[[vk::index(n)]]`).
        index: Option<u32>,
        /// The interpolation modifiers it keeps.
        interpolation: Interpolation,
        /// Tessellation per-patch varying.
        patch: bool,
        /// Mesh per-primitive varying.
        per_primitive: bool,
        /// Fragment per-vertex input (GLSL `pervertexEXT`, SPIR-V
        /// `PerVertexKHR`): an array of the primitive's three vertex values,
        /// uninterpolated (B13).
        per_vertex: bool,
    },
    /// A mesh shader's `out indices` array, made by legalization: GLSL
    /// `gl_PrimitiveTriangleIndicesEXT` (`gl_PrimitiveLineIndicesEXT`,
    /// `gl_PrimitivePointIndicesEXT`), after the entry point's
    /// `[outputtopology]` (B10).
    PrimitiveIndices,
}

/// Everything a declaration says about itself as a varying: semantic,
/// interpolation modifiers and explicit `[[vk::location]]` / `[[vk::index]]`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct IoAttrs {
    /// The semantic as written, or where legalization put it; `None` for a declaration without a
    /// semantic.
    pub binding: Option<Binding>,
    /// Interpolation modifiers (`linear`, `centroid`, ...).
    pub interpolation: Interpolation,
    /// `[[vk::location(n)]]`.
    pub explicit_location: Option<u32>,
    /// `[[vk::index(n)]]`: the dual-source blending index of a fragment output.
    pub explicit_index: Option<u32>,
    /// The geometry output stream a legalized output belongs to (GLSL
    /// `layout(stream = N)`, SPIR-V `Stream`); `None` is stream 0.
    pub stream: Option<u32>,
    /// Transform-feedback capture of a legalized output.
    pub xfb: Option<Xfb>,
    /// Metal: the name a legalized user varying links by between stages
    /// (`[[user(TEXCOORD_1)]]`), made from its semantic, so stages compiled
    /// apart match by semantic; `None` without one (`user(locnN)`).
    pub link_name: Option<String>,
}

/// Where transform feedback writes an output: GLSL `xfb_buffer`,
/// `xfb_offset`, `xfb_stride`; SPIR-V `XfbBuffer`, `Offset`, `XfbStride`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Xfb {
    /// The buffer slot (`xfb_buffer`, SPIR-V `XfbBuffer`).
    pub buffer: u32,
    /// Byte offset of the output within the buffer's vertex record.
    pub offset: u32,
    /// Bytes per vertex record in the buffer.
    pub stride: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn semantics_split_trailing_index_case_insensitively() {
        assert_eq!(
            Semantic::parse("TEXCOORD3"),
            Some(Semantic::User {
                name: "TEXCOORD".into(),
                index: 3
            })
        );
        assert_eq!(
            Semantic::parse("sv_clipdistance1"),
            Some(Semantic::System {
                value: SystemValue::ClipDistance,
                index: 1
            })
        );
        assert_eq!(
            Semantic::parse("SV_POSITION"),
            Some(Semantic::System {
                value: SystemValue::Position,
                index: 0
            })
        );
        assert_eq!(
            Semantic::parse("SV_Bogus"),
            Some(Semantic::UnknownSystem {
                name: "SV_Bogus".into(),
                index: 0
            })
        );
        assert_eq!(Semantic::parse("COLOR99999999999"), None);
    }

    #[test]
    fn every_system_value_name_round_trips() {
        for sv in SystemValue::ALL {
            assert_eq!(SystemValue::from_name(sv.name()), Some(sv));
            assert_eq!(
                Semantic::parse(sv.name()).and_then(|s| s.system_value()),
                Some(sv)
            );
        }
    }

    #[test]
    fn display_is_canonical() {
        assert_eq!(
            Semantic::parse("sv_target2").unwrap().to_string(),
            "SV_Target2"
        );
        assert_eq!(
            Semantic::parse("sv_position").unwrap().to_string(),
            "SV_Position"
        );
        assert_eq!(Semantic::parse("Color0").unwrap().to_string(), "Color");
        assert_eq!(Semantic::parse("Color1").unwrap().to_string(), "Color1");
    }
}
