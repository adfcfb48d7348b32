//! The WGSL writer: WGSL text from a module the WGSL varying legalizer
//! (`legalis_legalize::wgsl`) produced.
//!
//! Contract with the legalizer: the chosen entry point's function takes
//! parameters whose `io` binding is a `BuiltIn` (spelled from the
//! system-value table's WGSL column) or a `Location` (with
//! `@interpolate`), and returns nothing or a struct whose members carry
//! the same bindings. Everything else is printed under WGSL's rules: no
//! implicit conversions (the front end made every conversion explicit),
//! `static` globals as `var<private>`, `?:` as `select`, parameters the
//! body writes copied into a `var` (WGSL parameters are immutable), `out`
//! and `inout` parameters as `ptr<function, T>`, resources with
//! `@group(set) @binding(n)` from the one binding rule
//! (`crate::binding`), plain uniforms in one `_Globals` uniform struct.
//! Names are unique per scope and never a WGSL keyword, reserved word or
//! predeclared name the output uses.
//!
//! Matrix convention (the GLSL writer's, so outputs compare): HLSL
//! `floatRxC` is WGSL `matRxC<f32>` whose R columns are the HLSL rows, so
//! `mul(a, b)` prints as `(b * a)`.
//!
//! A construct WGSL cannot express, or this writer does not yet, returns
//! [`Error::Unsupported`] with the span of what caused it, never a panic
//! or silently wrong text.

mod expr;
mod intrinsics;
mod io;
mod keywords;
mod names;
mod stmt;
mod types;
mod writer;

use legalis_ir as ir;

/// What the caller asks of the writer (nothing yet; kept for the backend
/// shape every writer has).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// The binding plan of the compile (`legalis_bind::plan`); `None`
    /// plans the entry point with the default binding options.
    pub bindings: Option<legalis_bind::Plan>,
    /// `-preserve-params`: every uniform global of the module is written,
    /// used or not.
    pub preserve_params: bool,
}

crate::error::writer_error! {
    target: "WGSL",
    not_legalized: "an entry-point parameter or result member without a builtin or \
                    location, or interface globals."
}

/// Writes entry point `entry_point` of `module` as one WGSL module.
pub fn write(module: &ir::Module, entry_point: usize, options: &Options) -> Result<String, Error> {
    writer::Writer::new(module, &[entry_point], options)?.write()
}

/// Writes the entry points `entry_points` of `module` (each legalized for
/// its own stage, as `legalis_legalize::wgsl::Wgsl::legalize_all_unverified`
/// leaves them) as one WGSL module: every function and global any of them
/// reaches once, each entry function with its own stage attribute,
/// workgroup size, result struct and private initializers; what depends on
/// the stage in a function (derivatives) is decided with the stages of the
/// entry points that reach it. `options.bindings` should be their one
/// plan (`legalis_bind::plan_entries`).
pub fn write_entries(
    module: &ir::Module,
    entry_points: &[usize],
    options: &Options,
) -> Result<String, Error> {
    writer::Writer::new(module, entry_points, options)?.write()
}
