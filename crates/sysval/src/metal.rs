//! The Metal column: which Metal attribute (`[[position]]`,
//! `[[color(n)]]`, `[[thread_position_in_grid]]` ...) a system value is,
//! with the attribute's MSL type, or that it is an ordinary user varying,
//! or that it is synthesised (`SV_GroupIndex`, B20), or that Metal cannot
//! express it (`E55302`, at the declaration: never dropped, never made a
//! user varying; the reference drops clip distances and conservative
//! depth on a vertex result silently). A vertex function's clip
//! distances are one `[[clip_distance]]` float array that the legalizer
//! packs every `SV_ClipDistanceN` output into.
//!
//! Stages: Metal has vertex, fragment and kernel (compute) functions and,
//! for amplification and mesh shaders, object and mesh functions (B21).
//! It has no geometry, hull, domain or ray-tracing stages: every cell of
//! those is a refusal.
//!
//! Conversions are not rows: the legalizer converts whenever the declared
//! type differs from the attribute's (`int` vertex ids from `uint`, a
//! `uint2` dispatch id from `uint3`).

use legalis_ir::{ShaderStage as S, SystemValue as SV};

use crate::{BuiltinType, Direction};

/// The code of every system value Metal cannot express.
pub const UNSUPPORTED_SYSTEM_VALUE: u32 = crate::codes::METAL_UNSUPPORTED_SYSTEM_VALUE;
/// The system value exists but this stage/direction cannot use it; the
/// front end's check (`E49990`) normally reports it first.
pub const NOT_IN_STAGE: u32 = crate::codes::NOT_IN_STAGE;

/// A Metal attribute: its spelling inside `[[...]]` and its MSL type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MetalBuiltin {
    /// The text inside `[[...]]`; `color` takes the semantic index
    /// (`[[color(2)]]`), see [`MetalBuiltin::by_index`].
    pub name: &'static str,
    /// The attribute's MSL type; the legalizer converts a value declared
    /// with another.
    pub ty: BuiltinType,
    /// `SV_Target2` → `[[color(2)]]`: the semantic index is the argument.
    pub by_index: bool,
}

impl MetalBuiltin {
    /// The attribute text for a value declared with semantic index
    /// `index`: `color(2)`, `position`.
    pub fn attribute(&self, index: u32) -> String {
        if self.by_index {
            format!("{}({index})", self.name)
        } else {
            self.name.to_string()
        }
    }

    /// [`MetalBuiltin::attribute`] with the value's declared
    /// interpolation, for the one attribute that takes it:
    /// `barycentric_coord, center_no_perspective`.
    pub fn attribute_with(&self, index: u32, interpolation: legalis_ir::Interpolation) -> String {
        let attribute = self.attribute(index);
        match interpolation_attribute(interpolation) {
            Some(i) if self.name == "barycentric_coord" => format!("{attribute}, {i}"),
            _ => attribute,
        }
    }
}

/// How a system value reaches a Metal entry point: the answer of [`metal`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MetalMapping {
    /// A Metal attribute on the parameter or result member.
    BuiltIn(MetalBuiltin),
    /// An ordinary varying: `[[attribute(n)]]` on a vertex input,
    /// `[[user(SEMANTIC)]]` between vertex and fragment.
    User,
    /// No attribute: the legalizer computes the value from others
    /// (`SV_GroupIndex` from `[[thread_position_in_threadgroup]]` and
    /// `[numthreads]`, B20).
    Synthesized,
    /// Metal cannot express it here.
    Unsupported {
        /// [`UNSUPPORTED_SYSTEM_VALUE`] (`E55302`) or, for a system value
        /// this stage or direction cannot use, [`NOT_IN_STAGE`] (`E49990`).
        code: u32,
    },
}

const fn builtin(name: &'static str, ty: BuiltinType) -> MetalMapping {
    MetalMapping::BuiltIn(MetalBuiltin {
        name,
        ty,
        by_index: false,
    })
}

const UNSUPPORTED: MetalMapping = MetalMapping::Unsupported {
    code: UNSUPPORTED_SYSTEM_VALUE,
};
const NOT_HERE: MetalMapping = MetalMapping::Unsupported { code: NOT_IN_STAGE };

const FLOAT2: BuiltinType = BuiltinType::Vector(legalis_ir::Scalar::F32, 2);
const FLOAT3: BuiltinType = BuiltinType::Vector(legalis_ir::Scalar::F32, 3);

/// The message of [`UNSUPPORTED_SYSTEM_VALUE`]: the reference's wording
/// for unsupported system values, naming Metal.
pub fn unsupported_message(sv: SV) -> String {
    format!(
        "system value semantic '{}' is not supported for the Metal target.",
        sv.name().to_ascii_lowercase()
    )
}

/// Whether a mesh function writes `sv` once per primitive (a member of
/// the `metal::mesh` primitive struct) rather than once per vertex (B21).
pub fn per_primitive(sv: SV) -> bool {
    matches!(
        sv,
        SV::PrimitiveId
            | SV::RenderTargetArrayIndex
            | SV::ViewportArrayIndex
            | SV::CullPrimitive
            | SV::ShadingRate
    )
}

/// Whether Metal has entry points of `stage`.
pub fn has_stage(stage: S) -> bool {
    matches!(
        stage,
        S::Vertex | S::Fragment | S::Compute | S::Amplification | S::Mesh
    )
}

/// The Metal row for `sv` read or written by a `stage` entry point.
pub fn metal(sv: SV, stage: S, dir: Direction) -> MetalMapping {
    use Direction::{Input as In, Output as Out};
    if !has_stage(stage) {
        return UNSUPPORTED;
    }
    let threads = stage.has_workgroups();
    match sv {
        SV::Position => match (stage, dir) {
            // A vertex shader's `SV_Position` input is an ordinary attribute.
            (S::Vertex, In) => MetalMapping::User,
            (S::Vertex | S::Mesh, Out) | (S::Fragment, In) => {
                builtin("position", BuiltinType::FLOAT4)
            }
            _ => NOT_HERE,
        },
        SV::Target => match (stage, dir) {
            (S::Fragment, Out) => MetalMapping::BuiltIn(MetalBuiltin {
                name: "color",
                ty: BuiltinType::FLOAT4,
                by_index: true,
            }),
            _ => NOT_HERE,
        },
        SV::Depth => fragment_output(stage, dir, "depth(any)", BuiltinType::FLOAT),
        // B19: conservative depth.
        SV::DepthGreaterEqual => fragment_output(stage, dir, "depth(greater)", BuiltinType::FLOAT),
        SV::DepthLessEqual => fragment_output(stage, dir, "depth(less)", BuiltinType::FLOAT),
        SV::StencilRef => fragment_output(stage, dir, "stencil", BuiltinType::UINT),
        SV::Coverage => match stage {
            S::Fragment => builtin("sample_mask", BuiltinType::UINT),
            _ => NOT_HERE,
        },
        SV::IsFrontFace => fragment_input(stage, dir, "front_facing", BuiltinType::BOOL),
        SV::SampleIndex => fragment_input(stage, dir, "sample_id", BuiltinType::UINT),
        SV::Barycentrics => fragment_input(stage, dir, "barycentric_coord", FLOAT3),
        SV::PointCoord => fragment_input(stage, dir, "point_coord", FLOAT2),
        SV::PrimitiveId => match (stage, dir) {
            (S::Fragment, In) | (S::Mesh, Out) => builtin("primitive_id", BuiltinType::UINT),
            _ => NOT_HERE,
        },
        SV::VertexId | SV::VulkanVertexId => vertex_input(stage, dir, "vertex_id"),
        SV::InstanceId | SV::VulkanInstanceId => vertex_input(stage, dir, "instance_id"),
        SV::StartVertexLocation => vertex_input(stage, dir, "base_vertex"),
        SV::StartInstanceLocation => vertex_input(stage, dir, "base_instance"),
        // B19: the view index of vertex amplification.
        SV::ViewId => match (stage, dir) {
            (S::Vertex | S::Fragment, In) => builtin("amplification_id", BuiltinType::UINT),
            _ => NOT_HERE,
        },
        SV::RenderTargetArrayIndex => layered(stage, dir, "render_target_array_index"),
        SV::ViewportArrayIndex => layered(stage, dir, "viewport_array_index"),
        SV::PointSize => match (stage, dir) {
            (S::Vertex | S::Mesh, Out) => builtin("point_size", BuiltinType::FLOAT),
            _ => NOT_HERE,
        },
        SV::CullPrimitive => match (stage, dir) {
            (S::Mesh, Out) => builtin("primitive_culled", BuiltinType::BOOL),
            _ => NOT_HERE,
        },
        SV::DispatchThreadId if threads => thread_id(dir, "thread_position_in_grid"),
        SV::GroupId if threads => thread_id(dir, "threadgroup_position_in_grid"),
        SV::GroupThreadId if threads => thread_id(dir, "thread_position_in_threadgroup"),
        SV::GroupIndex if threads => match dir {
            // B20: `(z*Y + y)*X + x` from the threadgroup-local id.
            In => MetalMapping::Synthesized,
            Out => NOT_HERE,
        },
        SV::WaveLaneIndex if threads => match dir {
            In => builtin("thread_index_in_simdgroup", BuiltinType::UINT),
            Out => NOT_HERE,
        },
        SV::WaveLaneCount if threads => match dir {
            In => builtin("threads_per_simdgroup", BuiltinType::UINT),
            Out => NOT_HERE,
        },
        // The wave's index in the thread group (the SIMD-group's); compute
        // only, as the front end's stage check (the reference's) allows it.
        SV::WaveIndex => match (stage, dir) {
            (S::Compute, In) => builtin("simdgroup_index_in_threadgroup", BuiltinType::UINT),
            _ => NOT_HERE,
        },
        SV::DispatchThreadId
        | SV::GroupId
        | SV::GroupThreadId
        | SV::GroupIndex
        | SV::WaveLaneIndex
        | SV::WaveLaneCount => NOT_HERE,
        // Every `SV_ClipDistanceN` output of a vertex function (or of a
        // mesh function's vertex) is elements of one `float name
        // [[clip_distance]] [N]` member, which the legalizer sizes (issue
        // 29). A fragment function cannot read them and Metal has no cull
        // distances: refused rather than dropped as the reference does.
        SV::ClipDistance if matches!((stage, dir), (S::Vertex | S::Mesh, Out)) => {
            builtin("clip_distance", BuiltinType::DISTANCES)
        }
        SV::ClipDistance
        | SV::CullDistance
        | SV::InnerCoverage
        | SV::DrawIndex
        | SV::DeviceIndex
        | SV::ShadingRate
        | SV::VulkanSamplePosition
        | SV::FragInvocationCount
        | SV::FragSize
        | SV::GsInstanceId
        | SV::OutputControlPointId
        | SV::DomainLocation
        | SV::TessFactor
        | SV::InsideTessFactor
        | SV::QuadLaneIndex => UNSUPPORTED,
    }
}

fn fragment_output(stage: S, dir: Direction, name: &'static str, ty: BuiltinType) -> MetalMapping {
    match (stage, dir) {
        (S::Fragment, Direction::Output) => builtin(name, ty),
        _ => NOT_HERE,
    }
}

fn fragment_input(stage: S, dir: Direction, name: &'static str, ty: BuiltinType) -> MetalMapping {
    match (stage, dir) {
        (S::Fragment, Direction::Input) => builtin(name, ty),
        _ => NOT_HERE,
    }
}

fn vertex_input(stage: S, dir: Direction, name: &'static str) -> MetalMapping {
    match (stage, dir) {
        (S::Vertex, Direction::Input) => builtin(name, BuiltinType::UINT),
        _ => NOT_HERE,
    }
}

/// Layer and viewport: written by vertex (and mesh, per primitive), read
/// by fragment.
fn layered(stage: S, dir: Direction, name: &'static str) -> MetalMapping {
    match (stage, dir) {
        (S::Vertex | S::Mesh, Direction::Output) | (S::Fragment, Direction::Input) => {
            builtin(name, BuiltinType::UINT)
        }
        _ => NOT_HERE,
    }
}

fn thread_id(dir: Direction, name: &'static str) -> MetalMapping {
    match dir {
        Direction::Input => builtin(name, BuiltinType::UINT3),
        Direction::Output => NOT_HERE,
    }
}

/// The attribute of a user varying at `location`: `attribute(n)` on a
/// vertex input, `color(n)` on a fragment output, and `user(NAME)` between
/// stages (vertex or mesh outputs, fragment inputs), followed by the
/// interpolation where it has one (`user(TEXCOORD_1), flat`) on a fragment
/// input: the text inside `[[...]]`. `NAME` is the varying's link name
/// ([`link_name`], from its semantic) so that stages compiled apart match
/// by semantic, as the reference names them; `locnN` for a varying without
/// a semantic.
pub fn location_attribute(
    stage: S,
    direction: Direction,
    location: u32,
    interpolation: legalis_ir::Interpolation,
    link: Option<&str>,
) -> String {
    let user = match link {
        Some(name) => format!("user({name})"),
        None => format!("user(locn{location})"),
    };
    match (stage, direction) {
        (S::Vertex, Direction::Input) => format!("attribute({location})"),
        (S::Fragment, Direction::Output) => format!("color({location})"),
        (S::Fragment, Direction::Input) => match interpolation_attribute(interpolation) {
            Some(i) => format!("{user}, {i}"),
            None => user,
        },
        _ => user,
    }
}

/// A fragment output's attribute with its dual-source blending source:
/// `color(0), index(1)` for `[[vk::index(1)]]`; unchanged without one.
pub fn with_blend(attribute: String, blend: Option<u32>) -> String {
    match blend {
        Some(index) => format!("{attribute}, index({index})"),
        None => attribute,
    }
}

/// The name a user varying of semantic `name` and index `index` links by
/// between Metal stages: the semantic in upper case (HLSL semantics ignore
/// case), with `_index` after it unless the index is 0 (`TEXCOORD`,
/// `TEXCOORD_1`), as the reference spells it.
pub fn link_name(name: &str, index: u32) -> String {
    let name: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect();
    if index == 0 {
        name
    } else {
        format!("{name}_{index}")
    }
}

/// Metal's interpolation attribute: `flat`, or
/// `{center,centroid,sample}_{perspective,no_perspective}`; `None` for
/// the default (`center_perspective`).
fn interpolation_attribute(i: legalis_ir::Interpolation) -> Option<&'static str> {
    use legalis_ir::{InterpolationMode as M, Sampling};
    Some(match (i.mode, i.sampling) {
        (Some(M::Flat), _) => "flat",
        (None | Some(M::Linear), None) => return None,
        (None | Some(M::Linear), Some(Sampling::Centroid)) => "centroid_perspective",
        (None | Some(M::Linear), Some(Sampling::Sample)) => "sample_perspective",
        (Some(M::NoPerspective), None) => "center_no_perspective",
        (Some(M::NoPerspective), Some(Sampling::Centroid)) => "centroid_no_perspective",
        (Some(M::NoPerspective), Some(Sampling::Sample)) => "sample_no_perspective",
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Only `barycentric_coord` carries its declared interpolation.
    #[test]
    fn barycentrics_keep_their_interpolation() {
        let noperspective = legalis_ir::Interpolation {
            mode: Some(legalis_ir::InterpolationMode::NoPerspective),
            ..Default::default()
        };
        let row = |value| match metal(value, S::Fragment, Direction::Input) {
            MetalMapping::BuiltIn(row) => row,
            other => panic!("{value:?}: {other:?}"),
        };
        let bary = row(legalis_ir::SystemValue::Barycentrics);
        assert_eq!(
            bary.attribute_with(0, noperspective),
            "barycentric_coord, center_no_perspective"
        );
        assert_eq!(
            bary.attribute_with(0, Default::default()),
            "barycentric_coord"
        );
        let position = row(legalis_ir::SystemValue::Position);
        assert_eq!(position.attribute_with(0, noperspective), "position");
    }

    const STAGES: [S; 5] = [
        S::Vertex,
        S::Fragment,
        S::Compute,
        S::Amplification,
        S::Mesh,
    ];

    fn attributes_of(stage: S, dir: Direction) -> Vec<(SV, String)> {
        SV::ALL
            .into_iter()
            .filter_map(|sv| match metal(sv, stage, dir) {
                MetalMapping::BuiltIn(b) => Some((sv, b.attribute(0))),
                _ => None,
            })
            .collect()
    }

    fn names(rows: &[(SV, &str)]) -> Vec<(SV, String)> {
        rows.iter().map(|(sv, n)| (*sv, n.to_string())).collect()
    }

    #[test]
    fn vertex_table() {
        assert_eq!(
            attributes_of(S::Vertex, Direction::Input),
            names(&[
                (SV::VertexId, "vertex_id"),
                (SV::InstanceId, "instance_id"),
                (SV::VulkanVertexId, "vertex_id"),
                (SV::VulkanInstanceId, "instance_id"),
                (SV::StartVertexLocation, "base_vertex"),
                (SV::StartInstanceLocation, "base_instance"),
                (SV::ViewId, "amplification_id"),
            ])
        );
        assert_eq!(
            attributes_of(S::Vertex, Direction::Output),
            names(&[
                (SV::Position, "position"),
                (SV::ClipDistance, "clip_distance"),
                (SV::RenderTargetArrayIndex, "render_target_array_index"),
                (SV::ViewportArrayIndex, "viewport_array_index"),
                (SV::PointSize, "point_size"),
            ])
        );
        assert_eq!(
            metal(SV::Position, S::Vertex, Direction::Input),
            MetalMapping::User
        );
    }

    #[test]
    fn fragment_table() {
        assert_eq!(
            attributes_of(S::Fragment, Direction::Input),
            names(&[
                (SV::Position, "position"),
                (SV::Coverage, "sample_mask"),
                (SV::IsFrontFace, "front_facing"),
                (SV::SampleIndex, "sample_id"),
                (SV::PrimitiveId, "primitive_id"),
                (SV::ViewId, "amplification_id"),
                (SV::RenderTargetArrayIndex, "render_target_array_index"),
                (SV::ViewportArrayIndex, "viewport_array_index"),
                (SV::Barycentrics, "barycentric_coord"),
                (SV::PointCoord, "point_coord"),
            ])
        );
        assert_eq!(
            attributes_of(S::Fragment, Direction::Output),
            names(&[
                (SV::Target, "color(0)"),
                (SV::Depth, "depth(any)"),
                (SV::DepthGreaterEqual, "depth(greater)"),
                (SV::DepthLessEqual, "depth(less)"),
                (SV::Coverage, "sample_mask"),
                (SV::StencilRef, "stencil"),
            ])
        );
        let MetalMapping::BuiltIn(color) = metal(SV::Target, S::Fragment, Direction::Output) else {
            panic!("SV_Target has no row");
        };
        assert_eq!(color.attribute(3), "color(3)");
    }

    #[test]
    fn compute_table_and_synthesized_group_index() {
        for stage in [S::Compute, S::Amplification, S::Mesh] {
            let mut expected = vec![
                (SV::DispatchThreadId, "thread_position_in_grid"),
                (SV::GroupId, "threadgroup_position_in_grid"),
                (SV::GroupThreadId, "thread_position_in_threadgroup"),
                (SV::WaveLaneIndex, "thread_index_in_simdgroup"),
                (SV::WaveLaneCount, "threads_per_simdgroup"),
            ];
            if stage == S::Compute {
                expected.push((SV::WaveIndex, "simdgroup_index_in_threadgroup"));
            }
            assert_eq!(attributes_of(stage, Direction::Input), names(&expected));
            assert_eq!(
                metal(SV::GroupIndex, stage, Direction::Input),
                MetalMapping::Synthesized
            );
        }
        assert!(attributes_of(S::Compute, Direction::Output).is_empty());
    }

    #[test]
    fn mesh_outputs() {
        assert_eq!(
            attributes_of(S::Mesh, Direction::Output),
            names(&[
                (SV::Position, "position"),
                (SV::PrimitiveId, "primitive_id"),
                (SV::ClipDistance, "clip_distance"),
                (SV::RenderTargetArrayIndex, "render_target_array_index"),
                (SV::ViewportArrayIndex, "viewport_array_index"),
                (SV::CullPrimitive, "primitive_culled"),
                (SV::PointSize, "point_size"),
            ])
        );
    }

    #[test]
    fn every_other_cell_is_a_coded_refusal() {
        let mut unsupported = 0;
        let mut not_here = 0;
        let mut rows = 0;
        for sv in SV::ALL {
            for stage in STAGES {
                for dir in [Direction::Input, Direction::Output] {
                    match metal(sv, stage, dir) {
                        MetalMapping::Unsupported {
                            code: UNSUPPORTED_SYSTEM_VALUE,
                        } => unsupported += 1,
                        MetalMapping::Unsupported { code: NOT_IN_STAGE } => not_here += 1,
                        MetalMapping::Unsupported { code } => panic!("{sv:?}: code {code}"),
                        _ => rows += 1,
                    }
                }
            }
        }
        // 15 system values Metal cannot express, in 5 stages, both ways,
        // but for a vertex and a mesh function's clip distances.
        assert_eq!(unsupported, 15 * 10 - 2);
        assert_eq!(rows + not_here + unsupported, 45 * 10);
        // Vertex 8 in (one a user attribute) and 5 out, fragment 10 in and
        // 6 out, 6 in each of the three thread stages (one synthesised)
        // and the wave index in compute, mesh 7 out.
        assert_eq!(rows, 8 + 5 + 10 + 6 + 3 * 6 + 1 + 7);
    }

    /// Stages compiled apart link by semantic: the name is the semantic's.
    #[test]
    fn user_varyings_link_by_semantic() {
        let none = legalis_ir::Interpolation::default();
        assert_eq!(link_name("TexCoord", 0), "TEXCOORD");
        assert_eq!(link_name("texcoord", 1), "TEXCOORD_1");
        assert_eq!(link_name("BLENDINDICES", 2), "BLENDINDICES_2");
        let link = Some("TEXCOORD_1");
        assert_eq!(
            location_attribute(S::Vertex, Direction::Output, 3, none, link),
            "user(TEXCOORD_1)"
        );
        assert_eq!(
            location_attribute(S::Vertex, Direction::Input, 3, none, link),
            "attribute(3)"
        );
        assert_eq!(
            location_attribute(S::Fragment, Direction::Output, 3, none, link),
            "color(3)"
        );
    }

    #[test]
    fn user_varyings_and_interpolation() {
        use legalis_ir::{Interpolation, InterpolationMode as M, Sampling};
        let i = |mode, sampling| Interpolation { mode, sampling };
        let at = |stage, dir, interp| location_attribute(stage, dir, 2, interp, None);
        let none = Interpolation::default();
        assert_eq!(at(S::Vertex, Direction::Input, none), "attribute(2)");
        assert_eq!(
            at(S::Vertex, Direction::Output, i(Some(M::Flat), None)),
            "user(locn2)"
        );
        assert_eq!(at(S::Fragment, Direction::Output, none), "color(2)");
        assert_eq!(at(S::Fragment, Direction::Input, none), "user(locn2)");
        let cases = [
            (i(Some(M::Flat), Some(Sampling::Sample)), "flat"),
            (
                i(Some(M::Linear), Some(Sampling::Centroid)),
                "centroid_perspective",
            ),
            (i(None, Some(Sampling::Sample)), "sample_perspective"),
            (i(Some(M::NoPerspective), None), "center_no_perspective"),
            (
                i(Some(M::NoPerspective), Some(Sampling::Centroid)),
                "centroid_no_perspective",
            ),
            (
                i(Some(M::NoPerspective), Some(Sampling::Sample)),
                "sample_no_perspective",
            ),
        ];
        for (interp, name) in cases {
            assert_eq!(
                at(S::Fragment, Direction::Input, interp),
                format!("user(locn2), {name}")
            );
        }
    }

    #[test]
    fn other_stages_are_refused_and_the_message_names_metal() {
        for stage in [S::Geometry, S::Hull, S::Domain] {
            assert_eq!(metal(SV::Position, stage, Direction::Output), UNSUPPORTED);
        }
        assert_eq!(
            unsupported_message(SV::ClipDistance),
            "system value semantic 'sv_clipdistance' is not supported for the Metal target."
        );
    }
}
