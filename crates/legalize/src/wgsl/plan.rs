//! The WGSL legalization plan: for every leaf of every entry-point
//! parameter and of the result (`input.pos`, `return.color`, `iid`), the
//! builtin or location it becomes and why. Plain data, computed before the
//! rewrite, which only applies it.

use legalis_ir as ir;
use legalis_ir::{Handle, Span, SystemValue, Type};
use legalis_sysval::{Direction, WgslBuiltin};

/// What the previous stage of a linked pipeline fixed for an entry point's
/// inputs: every target's, in `legalis_ir::link`.
pub use legalis_ir::link::Linked;

/// Where a leaf lives in the entry point's signature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Root {
    /// The entry point's parameter of this index.
    Param(u32),
    /// The entry point's result.
    Result,
}

/// Why a leaf went where it went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// A row of the system-value table's WGSL column.
    TableRow,
    /// `[[vk::location(n)]]`.
    ExplicitLocation,
    /// The semantic index decides (`SV_Target2` → `@location(2)`).
    SemanticIndex,
    /// The next location not yet taken in its direction, in declaration
    /// order.
    NextFreeLocation,
    /// Where the previous stage of a linked pipeline writes the same
    /// semantic ([`Linked`]).
    Linked,
    /// An entry-point `uniform` parameter or resource: a module global.
    Uniform,
}

/// Where a leaf goes: a builtin, a location, or a uniform.
#[derive(Clone, Debug, PartialEq)]
pub enum Target {
    /// A WGSL builtin (`@builtin(position)`).
    BuiltIn {
        /// The system value the leaf's semantic names.
        value: SystemValue,
        /// The system-value table's WGSL row: the builtin's name and type.
        row: WgslBuiltin,
    },
    /// A user varying, `@location(N)`.
    Location {
        /// `N`: numbered apart for inputs and for outputs.
        location: u32,
        /// `@interpolate(...)`: integers are always flat; the default
        /// (perspective, center) is `Interpolation::default()`.
        interpolation: ir::Interpolation,
    },
    /// An entry-point `uniform` parameter: becomes a uniform global.
    Uniform,
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
    /// Name of the entry-point parameter (inputs) or result-struct member
    /// (outputs) made for it.
    pub name: String,
    /// Where it goes.
    pub target: Target,
    /// Why it goes there.
    pub reason: Reason,
    /// The declaration in the source (diagnostics point here).
    pub span: Span,
    /// The semantic the leaf was declared with, if any: a user semantic
    /// links it with the other stages of a pipeline.
    pub semantic: Option<ir::Semantic>,
}

/// The legalization plan of one entry point.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The entry point's name.
    pub entry: String,
    /// The entry point's stage.
    pub stage: ir::ShaderStage,
    /// The leaves of the parameters and of the result.
    pub leaves: Vec<Leaf>,
}
