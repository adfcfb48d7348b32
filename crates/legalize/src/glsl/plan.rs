//! The legalization plan: for every leaf of every entry-point parameter and
//! of the result (`input.pos`, `return.color`, `iid`), where it goes and
//! why. Plain data, computed before any rewrite; the rewrite passes only
//! apply it, and `--trace-legalization` prints it.

use legalis_ir as ir;
use legalis_ir::{Handle, Span, SystemValue, Type};
use legalis_sysval::{Direction, GlslBuiltin};

/// Where a leaf lives in the entry point's signature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Root {
    /// The entry point's parameter of this index.
    Param(u32),
    /// The entry point's result.
    Result,
    /// A parameter of a hull shader's patch-constant function (B7, D4).
    PatchParam(u32),
    /// The result of a hull shader's patch-constant function.
    PatchResult,
}

impl Root {
    /// Whether the leaf belongs to the patch-constant function.
    pub(crate) fn is_patch_constant(&self) -> bool {
        matches!(self, Root::PatchParam(_) | Root::PatchResult)
    }
}

/// Where each argument of a hull shader's patch-constant call comes from
/// (B7): the call is spliced after every control point is written.
#[derive(Clone, Debug, PartialEq)]
pub struct PatchConstantCall {
    /// The function in the module given to the legalizer (the legalized
    /// module renumbers its functions).
    pub function: Handle<ir::Function>,
    /// Its name.
    pub name: String,
    /// One per parameter of the patch-constant function, in order.
    pub args: Vec<PatchArg>,
    /// `[outputcontrolpoints(n)]`: the length of every per-control-point
    /// output array and of a materialised `OutputPatch`.
    pub control_points: u32,
}

/// Where one argument of the patch-constant call comes from.
#[derive(Clone, Debug, PartialEq)]
pub enum PatchArg {
    /// The entry point's own `InputPatch`, its parameter `n`.
    InputPatch(u32),
    /// An `OutputPatch` assembled from the per-control-point output arrays.
    OutputPatch,
    /// A value made from the plan's leaves rooted at
    /// [`Root::PatchParam`] of this index (`SV_PrimitiveID`,
    /// `SV_OutputControlPointID`, D4).
    Leaves,
}

/// Why a leaf went where it went: the one reason every family gives.
pub use crate::common::plan::Reason;

/// What the previous stage of a linked pipeline fixed for this entry
/// point's inputs: every target's, in `legalis_ir::link`.
pub use legalis_ir::link::Linked;

/// Where a leaf goes: a builtin, a location, or a uniform.
#[derive(Clone, Debug, PartialEq)]
pub enum Target {
    /// A GLSL builtin (`gl_Position`), SPIR-V `BuiltIn` decoration.
    BuiltIn {
        /// The system value the leaf's semantic names.
        value: SystemValue,
        /// The system-value table's GLSL row: the builtin's name, type,
        /// version and extensions.
        /// Boxed: the row is large and most leaves are locations, so an
        /// inline row would double every leaf.
        row: Box<GlslBuiltin>,
        /// The element of an arrayed builtin the leaf is
        /// (`gl_SampleMaskIn[0]`, `gl_ClipDistance[1]`).
        element: Option<u32>,
    },
    /// A user varying at a location (`layout(location = N)`).
    Location {
        /// The first location the leaf occupies.
        location: u32,
        /// Locations the leaf occupies (arrays, matrices, 64-bit vectors).
        count: u32,
        /// The dual-source blending index (`layout(index = N)`) of a
        /// fragment output, from `[[vk::index(N)]]`; `None` otherwise.
        index: Option<u32>,
        /// The interpolation qualifiers the declaration carries.
        interpolation: ir::Interpolation,
        /// One value per patch (GLSL `patch`, SPIR-V `Patch`).
        patch: bool,
        /// Mesh per-primitive output (GLSL `perprimitiveEXT`, SPIR-V
        /// `PerPrimitiveEXT`, B10).
        per_primitive: bool,
    },
    /// An entry-point `uniform` parameter: becomes a uniform global.
    Uniform,
}

/// Which scalar of its declaration a leaf is, when a vector or an array
/// covers several elements of an arrayed builtin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// `c.y` of `float2 c`.
    Component(u8),
    /// `d[1]` of `float d[2]`.
    Element(u32),
}

/// One leaf of the entry point's signature and where it goes.
#[derive(Clone, Debug, PartialEq)]
pub struct Leaf {
    /// `input.pos`, `return.color`, `iid`.
    pub path: String,
    /// The parameter or result the leaf belongs to.
    pub root: Root,
    /// Member indices from the root to the leaf.
    pub members: Vec<u32>,
    /// Stage input or stage output.
    pub direction: Direction,
    /// The leaf's type as declared.
    pub ty: Handle<Type>,
    /// Name of the interface global made for it.
    pub global_name: String,
    /// Where it goes.
    pub target: Target,
    /// Why it goes there.
    pub reason: Reason,
    /// Read per vertex (`GetAttributeAtVertex`, B13): the leaf's global is
    /// a `pervertexEXT` array of three at its location.
    pub per_vertex: bool,
    /// The declaration in the source (diagnostics point here).
    pub span: Span,
    /// Geometry, hull and domain inputs: one element per vertex of the
    /// input primitive or patch. Hull per-control-point outputs: one
    /// element per output control point, written at the invocation id.
    pub vertices: Option<u32>,
    /// Geometry outputs: the output stream the leaf is written to.
    pub stream: Option<u32>,
    /// The semantic as declared (stream output names leaves by it).
    pub semantic: Option<ir::Semantic>,
    /// Mesh outputs: the leaf is a field of the `out vertices` or
    /// `out primitives` array, written in place by the body (B10).
    pub mesh: Option<ir::MeshOutputKind>,
    /// One scalar of a vector or array declaration spread over
    /// consecutive elements of an arrayed builtin
    /// (`float2 c : SV_ClipDistance0`, `float d[2] : SV_CullDistance0`).
    pub part: Option<Part>,
}

/// The legalization plan of one entry point.
pub type Plan = crate::common::plan::Plan<Leaf, Stages>;

/// What a GLSL plan decides besides the leaves, for the stages that
/// need more.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stages {
    /// Hull shaders: the patch-constant call the splice makes.
    pub patch_constant: Option<PatchConstantCall>,
    /// Ray-tracing stages: payloads, callable data and hit attributes.
    pub ray: Vec<RayVariable>,
}

/// A ray-tracing storage variable (B11, B12, D7).
#[derive(Clone, Debug, PartialEq)]
pub struct RayVariable {
    /// Payload, callable data or hit attribute (the GLSL storage class).
    pub kind: ir::RayStorage,
    /// Name of the global made for it.
    pub name: String,
    /// Its type; `None` for the struct the rewrite makes of two or more
    /// consolidated parameters (B11).
    pub ty: Option<Handle<Type>>,
    /// Payloads and callable data; hit attributes have none.
    pub location: Option<u32>,
    /// Why it has its location.
    pub reason: Reason,
    /// What it holds.
    pub source: RaySource,
    /// The parameter or call it stands for.
    pub span: Span,
}

/// What a ray-tracing variable holds.
#[derive(Clone, Debug, PartialEq)]
pub enum RaySource {
    /// The entry point's parameters of these indices: one is the whole
    /// variable, several are its members in order (B11).
    Params(Vec<u32>),
    /// The argument of the `TraceRay`/`CallShader` call `expr` of
    /// `function`, copied in before the call and out after.
    CallSite {
        /// The function making the call.
        function: Handle<ir::Function>,
        /// The call expression in `function`.
        expr: Handle<ir::Expression>,
    },
    /// The attributes of every `ReportHit` of an intersection shader.
    ReportHit,
}
