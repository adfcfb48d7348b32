//! The SPIR-V writer: a Vulkan SPIR-V module (binary words) from a legalized
//! module, each instruction encoded as it is written (`builder.rs`), and
//! [`disassemble`] for readable `spirv-asm` text with ids named from debug
//! names and types, and [`rename`] to give another compiler's module the
//! same naming options.
//!
//! Contract with the legalizer (the same as the GLSL writer's): the chosen
//! entry point's function has no parameters and no result; its stage inputs
//! and outputs are `Input`/`Output` globals whose `io` binding is a
//! `BuiltIn` (decorated `BuiltIn` with the system-value table's SPIR-V name;
//! the element globals of an arrayed builtin share one variable) or a
//! `Location` (decorated `Location`, `Component`, `Index` and the
//! interpolation decorations, or `PerVertexKHR` for a per-vertex input). A construct this writer cannot express
//! returns [`Error::Unsupported`] with the span of what caused it, never a
//! panic and never a module the validator would reject.
//!
//! Conventions shared with the GLSL writer (so both targets agree): HLSL
//! `floatRxC` is a SPIR-V matrix of R columns of C components (GLSL
//! `matRxC`), so HLSL row `i` is SPIR-V column `i`, `mul(a, b)` multiplies
//! `b * a`, and HLSL's default `column_major` packing is SPIR-V `RowMajor`.
//! Descriptor bindings follow [`assign_bindings`].

mod asm;
mod builder;
mod constants;
mod convert;
mod expr;
mod function;
mod hit_object;
mod image;
mod intrinsics;
mod io;
mod layout;
mod ray_query;
mod ray_tracing;
mod rename;
mod stmt;
mod types;
mod writer;

use legalis_ir as ir;

pub use crate::binding::{Bindings, assign_bindings};
pub use asm::disassemble;
pub use rename::rename;

/// What the caller asks of the writer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// The lowest SPIR-V version `(major, minor)` to declare; raised when a
    /// used feature needs more (subgroup operations need 1.3).
    pub min_version: (u8, u8),
    /// Whether to emit `OpName`/`OpMemberName` for declared names.
    pub debug_names: bool,
    /// Whether `OpEntryPoint` carries the source entry point's name
    /// (`-fvk-use-entrypoint-name`) rather than `main`.
    pub use_entry_point_name: bool,
    /// The binding plan of the compile (`legalis_bind::plan`); `None`
    /// plans the entry point with the default binding options.
    pub bindings: Option<legalis_bind::Plan>,
    /// `-capability spvBindlessTextureNV` or `spvDescriptorHeapEXT`: a
    /// `DescriptorHandle` read as its resource is refused.
    pub handle_capability: Option<ir::HandleCapability>,
    /// `-preserve-params`: every uniform global of the module is declared,
    /// used or not.
    pub preserve_params: bool,
    /// `-fvk-use-scalar-layout`, `-fvk-use-c-layout`: the layout of every
    /// constant buffer, storage buffer and pointee in place of
    /// std140/std430. The module then says `OpSourceExtension
    /// "GL_EXT_scalar_block_layout"`, as glslang does for GLSL's
    /// `layout(scalar)`: it needs Vulkan's `scalarBlockLayout`.
    pub buffer_layout: ir::BufferLayout,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            min_version: (1, 0),
            debug_names: true,
            use_entry_point_name: false,
            bindings: None,
            handle_capability: None,
            preserve_params: false,
            buffer_layout: ir::BufferLayout::Standard,
        }
    }
}

crate::error::writer_error! {
    target: "SPIR-V",
    not_legalized: "the entry point still has parameters or a result, or a stage global \
                    has no builtin or location.",
    internal: "The module builder refused an instruction: a bug in this writer."
}

/// Writes entry point `entry_point` of `module` as one SPIR-V module.
pub fn write(
    module: &ir::Module,
    entry_point: usize,
    options: &Options,
) -> Result<Vec<u32>, Error> {
    write_entries(module, &[entry_point], options)
}

/// Writes the entry points `entry_points` of `module` (each legalized for
/// its own stage) as one SPIR-V module: the functions and globals they
/// share are written once, and each has its own `OpEntryPoint`, with the
/// variables it reaches as its interface, and its own execution modes.
/// With more than one, each `OpEntryPoint` carries its source name (two
/// may not share `main`).
pub fn write_entries(
    module: &ir::Module,
    entry_points: &[usize],
    options: &Options,
) -> Result<Vec<u32>, Error> {
    writer::Writer::new(module, entry_points, options)?.write()
}

/// [`write()`] as the little-endian bytes of a `.spv` file, written once.
pub fn write_le_bytes(
    module: &ir::Module,
    entry_point: usize,
    options: &Options,
) -> Result<Vec<u8>, Error> {
    write_entries_le_bytes(module, &[entry_point], options)
}

/// [`write_entries`] as the little-endian bytes of a `.spv` file.
pub fn write_entries_le_bytes(
    module: &ir::Module,
    entry_points: &[usize],
    options: &Options,
) -> Result<Vec<u8>, Error> {
    writer::Writer::new(module, entry_points, options)?.write_le_bytes()
}
