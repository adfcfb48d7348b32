//! The WGSL legalization plan: for every leaf of every entry-point
//! parameter and of the result (`input.pos`, `return.color`, `iid`), the
//! builtin or location it becomes and why. Plain data, computed before the
//! rewrite, which only applies it.

use legalis_ir as ir;
use legalis_ir::SystemValue;
use legalis_sysval::WgslBuiltin;

/// What the previous stage of a linked pipeline fixed for an entry point's
/// inputs: every target's, in `legalis_ir::link`.
pub use legalis_ir::link::Linked;

pub use crate::common::plan::{Reason, Root};

/// Where a leaf goes: a builtin, a location, or a uniform.
#[derive(Clone, Debug, PartialEq)]
pub enum Target {
    /// A WGSL builtin (`@builtin(position)`).
    BuiltIn {
        /// The system value the leaf's semantic names.
        value: SystemValue,
        /// The system-value table's WGSL row: the builtin's name and type.
        row: WgslBuiltin,
        /// For a clip distance: the first element of the one
        /// `clip_distances` array that the leaf's values fill, in order
        /// (`common::leaves::pack_distances`).
        element: Option<u32>,
    },
    /// A user varying, `@location(N)`.
    Location {
        /// `N`: numbered apart for inputs and for outputs.
        location: u32,
        /// `@interpolate(...)`: integers are always flat; the default
        /// (perspective, center) is `Interpolation::default()`.
        interpolation: ir::Interpolation,
        /// `@blend_src(n)` of a fragment output, from `[[vk::index(n)]]`
        /// (dual-source blending).
        blend: Option<u32>,
        /// A `half` varying under `-fvk-widen-16bit-varyings`: it travels
        /// as its `f32` counterpart, converted by the wrapper. Without the
        /// option it travels as `f16` (`enable f16;`).
        widened: bool,
    },
    /// An entry-point `uniform` parameter: becomes a uniform global.
    Uniform,
}

/// One leaf of the entry point's signature and where it goes.
pub type Leaf = crate::common::plan::Leaf<Target>;

/// The legalization plan of one entry point.
pub type Plan = crate::common::plan::Plan<Leaf>;
