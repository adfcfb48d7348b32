//! The plan the WGSL and Metal legalizers share: for every leaf of every
//! entry-point parameter and of the result (`input.pos`, `return.color`,
//! `iid`), the family's target it becomes (`T`: a WGSL builtin or
//! location, a Metal attribute) and why. Plain data, computed before the
//! rewrite, which only applies it.

use legalis_ir as ir;
use legalis_ir::{FastHashSet, Handle, Span, SystemValue, Type};
use legalis_sysval::{BuiltinType, Direction};

use super::leaves::{self, RawLeaf};
use super::wrap::{WrapLeaf, WrapRoot};

/// Where a leaf lives in the entry point's signature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Root {
    /// The entry point's parameter of this index.
    Param(u32),
    /// The entry point's result.
    Result,
    /// A parameter the source does not have: Metal's threadgroup-local id
    /// that `SV_GroupIndex` is computed from when the source does not read
    /// it (B20).
    Added,
}

/// Why a leaf went where it went, on every target family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// A row of the system-value table's column of the target (GLSL also
    /// gives it to an entry-point `uniform` parameter).
    TableRow,
    /// `[[vk::location(n)]]`.
    ExplicitLocation,
    /// The semantic index decides (`SV_Target2` → `@location(2)`,
    /// `[[color(2)]]`, GLSL location 2).
    SemanticIndex,
    /// The next location not yet taken in its direction, in declaration
    /// order.
    NextFreeLocation,
    /// Where the previous stage of a linked pipeline writes the same
    /// semantic (GLSL, WGSL: [`legalis_ir::link::Linked`]).
    Linked,
    /// No Metal attribute: computed from others (`SV_GroupIndex`, B20).
    Synthesized,
    /// A WGSL or Metal entry-point `uniform` parameter or resource: a
    /// module global.
    Uniform,
    /// A Metal mesh function's `in payload` parameter: the object
    /// function's payload, `const object_data T* [[payload]]` (B21).
    Payload,
    /// A Metal mesh function's `out indices`: `set_index` calls on the
    /// `metal::mesh` parameter, after `[outputtopology]` (B21).
    Topology,
}

impl Reason {
    /// Its name in `--trace-legalization` (`table-row`, `linked`).
    pub fn name(self) -> &'static str {
        match self {
            Reason::TableRow => "table-row",
            Reason::ExplicitLocation => "explicit-location",
            Reason::SemanticIndex => "semantic-index",
            Reason::NextFreeLocation => "next-free-location",
            Reason::Linked => "linked",
            Reason::Synthesized => "synthesized",
            Reason::Uniform => "uniform",
            Reason::Payload => "payload",
            Reason::Topology => "topology",
        }
    }
}

/// The legalization plan of one entry point: where every leaf of its
/// parameters and result goes (`L`: the family's leaf), and what the
/// family decides besides (`X`: GLSL's patch-constant call and
/// ray-tracing variables, Metal's mesh shape and object payload; nothing
/// for WGSL).
#[derive(Clone, Debug, PartialEq)]
pub struct Plan<L, X = ()> {
    /// The entry point's name.
    pub entry: String,
    /// The entry point's stage.
    pub stage: ir::ShaderStage,
    /// The leaves that have a place, of the parameters and of the result
    /// (and, for a hull shader, of its patch-constant function).
    pub leaves: Vec<L>,
    /// What the family decides besides the leaves.
    pub extra: X,
}

impl<L, X> Plan<L, X> {
    /// The plan of `entry` whose leaves go to `leaves`, with `extra`.
    pub fn new(entry: &ir::EntryPoint, leaves: Vec<L>, extra: X) -> Self {
        Plan {
            entry: entry.name.clone(),
            stage: entry.stage,
            leaves,
            extra,
        }
    }
}

/// One leaf of the entry point's signature and where it goes (`T`: the
/// family's target).
#[derive(Clone, Debug, PartialEq)]
pub struct Leaf<T> {
    /// `input.pos`, `return.color`, `iid`.
    pub path: String,
    /// The parameter or result the leaf belongs to.
    pub root: Root,
    /// Member indices from the root to the leaf.
    pub members: Vec<u32>,
    /// Stage input or stage output.
    pub direction: Direction,
    /// For a field of a Metal mesh function's `out vertices` or `out
    /// primitives` element: which (B21).
    pub mesh: Option<ir::MeshOutputKind>,
    /// The leaf's type as declared (a row's vector for a row of a
    /// matrix).
    pub ty: Handle<Type>,
    /// For one row of a matrix varying: the HLSL row (`m[row]`), at its
    /// own location.
    pub row: Option<u32>,
    /// Name of the entry-point parameter (inputs) or result-struct member
    /// (outputs) made for it.
    pub name: String,
    /// Where it goes.
    pub target: T,
    /// Why it goes there.
    pub reason: Reason,
    /// The declaration in the source (diagnostics point here).
    pub span: Span,
    /// The semantic the leaf was declared with, if any: a user semantic
    /// links it with the other stages of a pipeline.
    pub semantic: Option<ir::Semantic>,
}

/// Where a family's target puts a leaf, as far as the shared wrapper and
/// linker need to know.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Place {
    /// A builtin of this system value: a parameter of the wrapper; with
    /// an element, a leaf gathered into the builtin's one array (clip
    /// distances) from that element on (before packing, its first
    /// register).
    BuiltIn(SystemValue, Option<u32>),
    /// A user varying at this location, with this interpolation and
    /// (a fragment output's) dual-source blending source: a parameter of
    /// the wrapper or a member of its result.
    Location(u32, ir::Interpolation, Option<u32>),
    /// An entry-point `uniform` parameter: a global, not a varying.
    Uniform,
    /// Something the rewrite makes: not a parameter of the wrapper
    /// (Metal's computed `SV_GroupIndex`, mesh payload and indices).
    Made,
}

/// A family's target as the shared wrapper and linker see it.
pub(crate) trait FamilyTarget {
    /// Where the leaf goes.
    fn place(&self) -> Place;
    /// The builtin's own type, when the interface takes it.
    fn builtin_type(&self) -> Option<BuiltinType>;
    /// For a leaf gathered into a builtin array (clip distances): the
    /// first element it fills (before packing, its first register).
    fn element(&self) -> Option<u32> {
        match self.place() {
            Place::BuiltIn(_, element) => element,
            _ => None,
        }
    }
    /// [`FamilyTarget::element`], for the packing to set.
    fn element_mut(&mut self) -> Option<&mut u32>;
    /// The binding the interface value carries: by default the builtin
    /// or the location of [`FamilyTarget::place`], none for the others
    /// (uniforms become globals, never interface values).
    fn io(&self) -> ir::IoAttrs {
        let binding = match self.place() {
            Place::BuiltIn(value, _) => super::builder::builtin_binding(value),
            Place::Location(location, interpolation, blend) => {
                super::builder::location_binding(location, interpolation, blend)
            }
            Place::Uniform | Place::Made => return ir::IoAttrs::default(),
        };
        ir::IoAttrs {
            binding: Some(binding),
            ..ir::IoAttrs::default()
        }
    }

    /// An entry-point `uniform` parameter: a global, not a varying.
    fn is_uniform(&self) -> bool {
        matches!(self.place(), Place::Uniform)
    }
    /// Whether an input leaf becomes a parameter of the wrapper (not a
    /// uniform, not computed).
    fn is_parameter(&self) -> bool {
        matches!(self.place(), Place::BuiltIn(..) | Place::Location(..))
    }
    /// The system value of a builtin leaf.
    fn builtin(&self) -> Option<SystemValue> {
        match self.place() {
            Place::BuiltIn(value, _) => Some(value),
            _ => None,
        }
    }
    /// A user varying's location and interpolation.
    fn location(&self) -> Option<(u32, ir::Interpolation)> {
        match self.place() {
            Place::Location(location, interpolation, _) => Some((location, interpolation)),
            _ => None,
        }
    }
    /// Whether a 16-bit varying travels as its 32-bit counterpart
    /// (`-fvk-widen-16bit-varyings`, WGSL).
    fn widened(&self) -> bool {
        false
    }
}

impl<T: FamilyTarget> WrapLeaf for Leaf<T> {
    fn root(&self) -> WrapRoot {
        match self.root {
            Root::Param(k) => WrapRoot::Param(k),
            Root::Result => WrapRoot::Result,
            Root::Added => WrapRoot::Added,
        }
    }
    fn direction(&self) -> Direction {
        self.direction
    }
    fn members(&self) -> &[u32] {
        &self.members
    }
    fn row(&self) -> Option<u32> {
        self.row
    }
    fn declared(&self) -> Handle<Type> {
        self.ty
    }
    fn name(&self) -> &str {
        &self.name
    }
    fn span(&self) -> Span {
        self.span
    }
    fn is_uniform(&self) -> bool {
        self.target.is_uniform()
    }
    fn is_parameter(&self) -> bool {
        self.target.is_parameter()
    }
    fn builtin(&self) -> Option<SystemValue> {
        self.target.builtin()
    }
    fn builtin_type(&self) -> Option<BuiltinType> {
        self.target.builtin_type()
    }
    fn element(&self) -> Option<u32> {
        self.target.element()
    }
    fn io(&self) -> ir::IoAttrs {
        self.target.io()
    }
    fn widened(&self) -> bool {
        self.target.widened()
    }
}

/// The user-varying leaves (a Metal mesh function's vertex and primitive
/// fields among them).
impl<T: FamilyTarget> super::link::LinkLeaf for Leaf<T> {
    fn direction(&self) -> Direction {
        self.direction
    }

    fn varying(&self) -> Option<ir::link::Varying<'_>> {
        let (location, interpolation) = self.target.location()?;
        Some(ir::link::Varying {
            path: &self.path,
            semantic: self.semantic.as_ref(),
            ty: self.ty,
            interpolation,
            patch: false,
            location,
            per_primitive: self.mesh == Some(ir::MeshOutputKind::Primitives),
            span: self.span,
        })
    }
}

/// The decided leaves of `raw` as plan leaves, in order, each named by
/// `name` (from the names taken so far and the raw leaf).
pub(crate) fn decide<T>(
    raw: Vec<RawLeaf<(T, Reason)>>,
    mut name: impl FnMut(&RawLeaf<(T, Reason)>) -> String,
) -> Vec<Leaf<T>> {
    raw.into_iter()
        .filter_map(|mut raw| {
            let (target, reason) = raw.target.take()?;
            Some(Leaf {
                name: name(&raw),
                semantic: leaves::semantic(&raw.io).cloned(),
                path: raw.path,
                root: raw.root,
                members: raw.members,
                direction: raw.direction,
                mesh: raw.mesh,
                ty: raw.ty,
                row: raw.row.map(|(row, _)| row),
                target,
                reason,
                span: raw.span,
            })
        })
        .collect()
}

/// `input.pos` → `input_pos`; `return.color` → `color`; a bare `return`
/// → `result`; a matrix's row `return.m[1]` → `m_1`.
pub(crate) fn interface_name(path: &str) -> String {
    let flat = path.replace(['.', '['], "_").replace(']', "");
    match flat.strip_prefix("return") {
        Some("") => "result".into(),
        Some(rest) if rest.starts_with('_') => rest.trim_start_matches('_').to_string(),
        _ => flat,
    }
}

/// `base`, or `base_N` when `base` is taken in `direction`: parameters
/// and result members are separate namespaces.
pub(crate) fn unique_name(
    names: &mut FastHashSet<(Direction, String)>,
    direction: Direction,
    base: String,
) -> String {
    let mut name = base.clone();
    let mut n = 1;
    while names.contains(&(direction, name.clone())) {
        name = format!("{base}_{n}");
        n += 1;
    }
    names.insert((direction, name.clone()));
    name
}
