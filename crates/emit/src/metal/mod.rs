//! The MSL writer: Metal Shading Language text from a module the Metal
//! legalizer (`legalis_legalize::metal`) produced.
//!
//! Contract with the legalizer: each chosen entry point's function takes
//! parameters whose `io` binding is a `BuiltIn` (spelled from the
//! system-value table's Metal column) or a `Location`, and returns nothing
//! or a struct whose members carry the same bindings. The writer gathers
//! the `Location` inputs into one `[[stage_in]]` struct (`[[attribute(n)]]`
//! on a vertex, `[[user(SEMANTIC), <interpolation>]]` on a fragment), gives
//! result members `[[user(SEMANTIC)]]`/`[[color(n)]]`, and passes every
//! builtin input as its own attributed parameter (B19).
//!
//! Metal has no mutable program-scope variables and no global resources:
//! resources are entry-point arguments (`[[buffer(n)]]`, `[[texture(n)]]`,
//! `[[sampler(n)]]`, see `writer.rs` for the numbering), plain uniforms
//! one `constant _Globals&` argument, `static` globals locals of the entry
//! function and `groupshared` ones `threadgroup` locals of the kernel;
//! each function that reaches one of them takes it as an extra trailing
//! parameter (by value, pointer or `thread`/`threadgroup` reference), and
//! each call passes it on. `static const` globals are `constant`
//! program-scope values.
//!
//! Matrix convention (the GLSL writer's, so outputs compare): HLSL
//! `floatRxC` is MSL `floatRxC` whose R columns are the HLSL rows, so
//! `mul(a, b)` prints as `(b * a)`. A column-major (HLSL's default) matrix
//! member of a struct reached from a buffer is stored as the transposed
//! MSL type and read and written through `transpose`.
//!
//! A construct MSL cannot express, or this writer does not yet, returns
//! [`Error::Unsupported`] with the span of what caused it, never a panic
//! or silently wrong text. No Metal compiler runs on Linux: the harness
//! re-reads the entry-point signature instead (issue 9, item 5).

mod expr;
mod intrinsics;
mod io;
mod keywords;
mod names;
mod types;
mod writer;

use legalis_ir as ir;

pub use names::entry_point_name;

/// What the caller asks of the writer (nothing yet; kept for the backend
/// shape every writer has).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// The binding plan of the compile (`legalis_bind::plan`); `None`
    /// plans the entry point with the default binding options.
    pub bindings: Option<legalis_bind::Plan>,
}

crate::error::writer_error! {
    target: "Metal",
    not_legalized: "an entry-point parameter or result the legalizer should have rewritten.",
    layout: "lay out",
    layout_doc: "A structured buffer whose elements' natural MSL layout differs from \
                 the packed device layout the host uses (`legalis-layout`'s metal-device \
                 rule; code `E47001`); its span is the first member whose offset or size \
                 differs, else the buffer."
}

/// Writes entry point `entry_point` of `module` as one MSL translation
/// unit.
pub fn write(module: &ir::Module, entry_point: usize, options: &Options) -> Result<String, Error> {
    write_entries(module, &[entry_point], options)
}

/// Writes the entry points `entry_points` (at least one) of one module,
/// each legalized for its own stage
/// (`legalis_legalize::metal::Metal::legalize_all_unverified`), as one
/// MSL translation unit: the structs, constants and functions they share
/// written once, and one `[[vertex]]`/`[[fragment]]`/`[[kernel]]`...
/// function each under its own name, with its own `[[stage_in]]` struct,
/// result struct and the resource arguments it reaches. The argument-table
/// indices come from one binding plan for them all
/// (`legalis_bind::plan_entries`), so a resource has the same index in
/// every function.
pub fn write_entries(
    module: &ir::Module,
    entry_points: &[usize],
    options: &Options,
) -> Result<String, Error> {
    writer::Writer::new(module, entry_points, options)?.write()
}
