//! The GLSL writer: Vulkan GLSL text (`#version 450` unless a construct
//! needs more) from a legalized module.
//!
//! Contract with the legalizer: the chosen entry point's function has no
//! parameters and no result (it is printed as `void main()`); its stage
//! inputs and outputs are `Input`/`Output` globals whose `io` binding is a
//! `BuiltIn` (the global's name is already the GLSL spelling, e.g.
//! `gl_Position`; it is used, and declared only when its system-value row
//! redeclares it with a layout, `layout(depth_greater) out float
//! gl_FragDepth;`) or a `Location` (declared as `layout(location = N)
//! in|out T name;`, or `pervertexEXT` for a per-vertex input). Everything else in the module is
//! printed as written; a construct this writer cannot express returns
//! [`Error::Unsupported`] with the span of what caused it, never a panic or
//! silently wrong text.
//!
//! Conventions (matching the reference compiler, see `writer.rs` for the
//! matrix convention and `resources.rs` for descriptor bindings): HLSL
//! `floatRxC` is GLSL `matRxC` whose GLSL columns are the HLSL rows, so
//! `mul(a, b)` prints as `(b * a)` and uniform/buffer blocks default to
//! `layout(row_major)`.

mod expr;
mod hit_object;
mod intrinsics;
mod io;
mod keywords;
mod methods;
mod names;
mod ray_query;
mod ray_tracing;
mod resources;
mod stmt;
mod types;
mod writer;

use legalis_ir as ir;

/// What the caller (the legalizer's plan) asks of the writer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// The `#version`; raised when an emitted construct needs more.
    pub version: u32,
    /// Extensions the legalizer requires (`GL_EXT_fragment_shader_barycentric`
    /// ...); merged with the writer's own, sorted and de-duplicated.
    pub extensions: Vec<String>,
    /// The binding plan of the compile (`legalis_bind::plan`); `None`
    /// plans the entry point with the default binding options.
    pub bindings: Option<legalis_bind::Plan>,
    /// `-preserve-params`: every uniform global of the module is written,
    /// used or not.
    pub preserve_params: bool,
    /// `-fvk-use-scalar-layout`: every uniform and storage block is
    /// `layout(scalar)` (`GL_EXT_scalar_block_layout`).
    pub scalar_layout: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            version: 450,
            extensions: Vec::new(),
            bindings: None,
            preserve_params: false,
            scalar_layout: false,
        }
    }
}

crate::error::writer_error! {
    target: "GLSL",
    not_legalized: "the entry point still has parameters or a result, or a stage global \
                    has no builtin or location."
}

/// Writes entry point `entry_point` of `module` as one GLSL translation unit.
pub fn write(module: &ir::Module, entry_point: usize, options: &Options) -> Result<String, Error> {
    writer::Writer::new(module, entry_point, options)?.write()
}
