//! The Metal legalization plan: for every leaf of every entry-point
//! parameter and of the result (`input.pos`, `return.color`, `iid`), the
//! attribute it becomes and why. Plain data, computed before the rewrite,
//! which only applies it; the harness compares the written MSL signature
//! with it (issue 9, item 5).

use legalis_ir as ir;
use legalis_ir::SystemValue;
use legalis_sysval::metal::with_blend;
use legalis_sysval::{Direction, MetalBuiltin};

pub use crate::common::plan::{Reason, Root};

/// Where a leaf goes: a Metal attribute, a location, or something the
/// rewrite makes.
#[derive(Clone, Debug, PartialEq)]
pub enum Target {
    /// A Metal attribute; `index` is the semantic index (`color(index)`).
    BuiltIn {
        /// The system value the leaf's semantic names.
        value: SystemValue,
        /// The system-value table's Metal row: the attribute and type.
        row: MetalBuiltin,
        /// The semantic index (`SV_Target2` → 2).
        index: u32,
        /// The declared interpolation, which `SV_Barycentrics` keeps
        /// (`[[barycentric_coord, center_no_perspective]]`); unused by
        /// every other builtin.
        interpolation: ir::Interpolation,
        /// `[[vk::index(n)]]` of a fragment output: the dual-source
        /// blending source (`[[color(0), index(1)]]`).
        blend: Option<u32>,
        /// For a clip distance: the first element of the one
        /// `[[clip_distance]]` array that the leaf's values fill, in
        /// order (`common::leaves::pack_distances`).
        element: Option<u32>,
    },
    /// A user varying: `[[attribute(location)]]` on a vertex input,
    /// `[[user(SEMANTIC)]]` with its interpolation between vertex and
    /// fragment, `[[color(location)]]` on a fragment output.
    Location {
        /// The location, numbered apart for inputs and for outputs.
        location: u32,
        /// The declared interpolation (`[[flat]]`, `[[center_no_perspective]]`,
        /// ...), written between vertex and fragment.
        interpolation: ir::Interpolation,
        /// The name stages link by (`legalis_sysval::metal::link_name`
        /// of the semantic); `None` without a semantic (`locnN`).
        link: Option<String>,
        /// As [`Target::BuiltIn`]'s: `[[color(0), index(1)]]`.
        blend: Option<u32>,
    },
    /// `SV_GroupIndex`: `(z*Y + y)*X + x` of the threadgroup-local id and
    /// the `[numthreads(X, Y, Z)]` extents.
    GroupIndex {
        /// `X` of `[numthreads(X, Y, Z)]`.
        x: u32,
        /// `Y` of `[numthreads(X, Y, Z)]`.
        y: u32,
    },
    /// An entry-point `uniform` parameter: becomes a uniform global.
    Uniform,
    /// A mesh function's `in payload` parameter (B21).
    Payload,
    /// A mesh function's `out indices` array: `set_index` with
    /// `per_primitive` indices per primitive (B21).
    Indices {
        /// The components of the index element type (3 for `uint3`,
        /// triangles; 1 for a scalar).
        per_primitive: u32,
    },
}

/// The `metal::mesh<V, P, NV, NP, metal::topology::T>` parameter of a
/// mesh function (B21): `V` and `P` are the structs of the leaves whose
/// [`Leaf::mesh`] is `Vertices` and `Primitives`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MeshShape {
    /// `NV`: the length of the `out vertices` array (0 without one).
    pub vertices: u32,
    /// `NP`: the length of the longer of the `out primitives` and `out
    /// indices` arrays.
    pub primitives: u32,
    /// `triangle`, `line` or `point`.
    pub topology: &'static str,
}

/// One leaf of the entry point's signature and where it goes.
pub type Leaf = crate::common::plan::Leaf<Target>;

/// The legalization plan of one entry point.
pub type Plan = crate::common::plan::Plan<Leaf, Mesh>;

/// What a Metal plan decides besides the leaves (B21).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Mesh {
    /// A mesh function's `metal::mesh` parameter.
    pub shape: Option<MeshShape>,
    /// An object function's payload type name, when it calls
    /// `DispatchMesh`: the `object_data T* [[payload]]` and
    /// `mesh_grid_properties` parameters.
    pub object_payload: Option<String>,
}

impl Plan {
    /// The attribute text each input parameter and result member of the
    /// written entry point must carry, in order: what the harness reads
    /// back from the MSL signature. Uniform leaves are resources, checked
    /// apart; synthesised leaves have no attribute.
    pub fn expected_attributes(&self, direction: Direction) -> Vec<(String, String)> {
        self.leaves
            .iter()
            .filter(|l| l.direction == direction && l.mesh.is_none())
            .filter_map(|l| {
                let attribute = match &l.target {
                    Target::BuiltIn {
                        row,
                        index,
                        interpolation,
                        blend,
                        ..
                    } => with_blend(row.attribute_with(*index, *interpolation), *blend),
                    Target::Location {
                        location,
                        interpolation,
                        link,
                        blend,
                    } => with_blend(
                        legalis_sysval::metal::location_attribute(
                            self.stage,
                            direction,
                            *location,
                            *interpolation,
                            link.as_deref(),
                        ),
                        *blend,
                    ),
                    Target::GroupIndex { .. }
                    | Target::Uniform
                    | Target::Payload
                    | Target::Indices { .. } => return None,
                };
                Some((l.name.clone(), attribute))
            })
            .collect()
    }

    /// The attribute text of each member of a mesh function's vertex
    /// (`Vertices`) or primitive (`Primitives`) struct, in order (B21).
    pub fn mesh_attributes(&self, kind: ir::MeshOutputKind) -> Vec<(String, String)> {
        self.leaves
            .iter()
            .filter(|l| l.mesh == Some(kind))
            .filter_map(|l| {
                let attribute = match &l.target {
                    Target::BuiltIn { row, index, .. } => row.attribute(*index),
                    Target::Location { location, link, .. } => {
                        legalis_sysval::metal::location_attribute(
                            self.stage,
                            Direction::Output,
                            *location,
                            ir::Interpolation::default(),
                            link.as_deref(),
                        )
                    }
                    _ => return None,
                };
                Some((l.name.clone(), attribute))
            })
            .collect()
    }
}
