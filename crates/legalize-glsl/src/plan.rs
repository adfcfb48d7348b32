//! The legalization plan: for every leaf of every entry-point parameter and
//! of the result (`input.pos`, `return.color`, `iid`), where it goes and
//! why. Plain data, computed before any rewrite; the rewrite passes only
//! apply it, and `--trace-legalization` prints it.

use legalis_ir as ir;
use legalis_ir::{Handle, Span, SystemValue, Type, TypeInner};
use legalis_sysval::{Direction, GlslBuiltin};

/// Where a leaf lives in the entry point's signature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Root {
    Param(u32),
    Result,
}

/// Why a leaf went where it went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// A row of the system-value table.
    TableRow,
    /// `[[vk::location(n)]]`.
    ExplicitLocation,
    /// The semantic index decides (`SV_Target2` → location 2).
    SemanticIndex,
    /// The next location not yet taken, in declaration order.
    NextFreeLocation,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Target {
    BuiltIn {
        value: SystemValue,
        row: GlslBuiltin,
        /// The element of an arrayed builtin the leaf is
        /// (`gl_SampleMaskIn[0]`, `gl_ClipDistance[1]`).
        element: Option<u32>,
    },
    Location {
        location: u32,
        /// Locations the leaf occupies (arrays, matrices, 64-bit vectors).
        count: u32,
        index: Option<u32>,
        interpolation: ir::Interpolation,
        /// One value per patch (GLSL `patch`, SPIR-V `Patch`).
        patch: bool,
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

#[derive(Clone, Debug, PartialEq)]
pub struct Leaf {
    /// `input.pos`, `return.color`, `iid`.
    pub path: String,
    pub root: Root,
    /// Member indices from the root to the leaf.
    pub members: Vec<u32>,
    pub direction: Direction,
    /// The leaf's type as declared.
    pub ty: Handle<Type>,
    /// Name of the interface global made for it.
    pub global_name: String,
    pub target: Target,
    pub reason: Reason,
    /// Read per vertex (`GetAttributeAtVertex`, B13): the leaf's global is
    /// a `pervertexEXT` array of three at its location.
    pub per_vertex: bool,
    /// The declaration in the source (diagnostics point here).
    pub span: Span,
    /// Geometry inputs: one element per vertex of the input primitive.
    pub vertices: Option<u32>,
    /// Geometry outputs: the output stream the leaf is written to.
    pub stream: Option<u32>,
    /// The semantic as declared (stream output names leaves by it).
    pub semantic: Option<ir::Semantic>,
    /// One scalar of a vector or array declaration spread over
    /// consecutive elements of an arrayed builtin
    /// (`float2 c : SV_ClipDistance0`, `float d[2] : SV_CullDistance0`).
    pub part: Option<Part>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    pub entry: String,
    pub stage: ir::ShaderStage,
    pub leaves: Vec<Leaf>,
}

/// Locations a value of `ty` occupies as a varying: one per vector or
/// scalar, two for 64-bit vectors of more than two components, one per
/// HLSL row for matrices (the GLSL writer prints HLSL `floatRxC` as GLSL
/// `matRxC`, whose R columns are the HLSL rows), times the element count
/// for arrays.
pub fn location_count(module: &ir::Module, ty: Handle<Type>) -> u32 {
    match module.types.try_get(ty).map(|t| &t.inner) {
        Some(TypeInner::Scalar(_)) => 1,
        Some(TypeInner::Vector { size, scalar }) if scalar.width == 8 && *size > 2 => 2,
        Some(TypeInner::Vector { .. }) => 1,
        Some(TypeInner::Matrix { rows, .. }) => u32::from(*rows),
        Some(TypeInner::Array {
            base,
            size: ir::ArraySize::Constant(n),
        }) => n.saturating_mul(location_count(module, *base)),
        _ => 1,
    }
}
