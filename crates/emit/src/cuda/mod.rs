//! The CUDA writer: CUDA C++ device code from a module the CUDA legalizer
//! (`legalis_legalize::cuda`) produced, for `nvcc -ptx`.
//!
//! A compute entry point is an `extern "C" __global__` kernel: the
//! legalizer's wrapper takes one parameter per system value, which the
//! kernel declares as a local from its row of the system-value table's
//! CUDA column (`threadIdx`, `blockIdx`, `blockDim`); resources are kernel
//! parameters (structured buffers as pointers, constant buffers by value,
//! plain uniforms as one `Globals` value), `groupshared` globals
//! `__shared__` locals, `static` globals locals of the kernel; each
//! function that reaches one takes it as an extra trailing parameter. A
//! ray-tracing entry point is an OptiX program (`__raygen__main` ...)
//! around the source function, its resources members of the launch
//! parameters `params`, its `uniform` parameters the members of its
//! shader-binding-table record (`ShaderRecordParams`, read through
//! `optixGetSbtDataPointer()`; a kernel takes them as launch arguments
//! after its resources); payloads and attributes move through registers
//! (`ray_tracing.rs`, B17, B18).
//!
//! Values follow HLSL through the prelude (`prelude.cuh`, [`PRELUDE`]),
//! which every output includes as [`PRELUDE_NAME`]: vectors, matrices
//! (HLSL rows), value arrays, swizzles, bit casts, the intrinsics, and
//! textures as CUDA texture and surface objects (samplers are a
//! placeholder: CUDA samples with the texture object's own state). A
//! construct CUDA output does not express (comparison and gather
//! sampling, derivatives, wave operations) returns [`Error::Unsupported`]
//! with its span, never a panic or silently wrong text.

mod expr;
mod hit_object;
mod intrinsics;
mod io;
mod keywords;
mod names;
mod ray_tracing;
mod types;
mod writer;

use legalis_ir as ir;

pub use names::entry_point_name;

/// The prelude every CUDA output includes: Legalis's own header.
pub const PRELUDE: &str = include_str!("prelude.cuh");
/// The name outputs include the prelude by (`#include "legalis_cuda.cuh"`).
pub const PRELUDE_NAME: &str = "legalis_cuda.cuh";

/// What the caller asks of the writer (nothing yet; kept for the backend
/// shape every writer has).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {}

crate::error::writer_error! {
    target: "CUDA",
    not_legalized: "an entry-point parameter or result the legalizer should have rewritten.",
    layout: "store",
    layout_doc: "A column-major matrix the host shares that C++ cannot reference \
                 (`lg::column_major`): a row or the whole matrix as an `out`/`inout` \
                 argument or incremented, or a `uniform` parameter of one (code `E47002`)."
}

/// How the entry point receives a resource (or the `Globals` block
/// holding a plain uniform).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResourcePlace {
    /// Parameter N of the kernel.
    KernelParameter(u32),
    /// A member of an OptiX program's launch parameters `params`.
    LaunchParams,
    /// Member `member` of an OptiX program's shader-binding-table record
    /// data (the struct `record`), which the program reads through
    /// `optixGetSbtDataPointer()`: a `uniform` parameter of the program.
    ShaderRecord {
        /// The record struct's name in the output.
        record: String,
        /// The member's position in the record struct, from 0.
        member: u32,
    },
}

/// A resource or plain uniform the entry point reaches, and where it is
/// in the output ([`resources`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resource {
    /// The global's source name.
    pub global: String,
    /// Its name in the output.
    pub name: String,
    /// Its declaration there: `const float4* inputs`, `float scale`.
    pub declaration: String,
    /// The kernel parameter or launch-parameters member it is, or (a plain
    /// uniform) that its block is.
    pub place: ResourcePlace,
    /// A plain uniform: the name of the `Globals` value it is a member of.
    pub block: Option<String>,
    /// A `uniform` parameter of the entry point (its index there), not a
    /// global: a kernel's launch argument or a shader-record member.
    pub parameter: Option<u32>,
}

/// Where each resource and plain uniform entry point `entry_point`
/// reaches is in the output [`write()`] makes of the same module: the
/// kernel's parameters in order, or the members of the launch parameters.
pub fn resources(
    module: &ir::Module,
    entry_point: usize,
    options: &Options,
) -> Result<Vec<Resource>, Error> {
    writer::Writer::new(module, entry_point, options)?.resources()
}

/// [`resources`] of each entry point of the output [`write_entries`]
/// makes of the same module and entry points, in their order.
pub fn resources_of_entries(
    module: &ir::Module,
    entry_points: &[usize],
    options: &Options,
) -> Result<Vec<Vec<Resource>>, Error> {
    let mut w = writer::Writer::with_entries(module, entry_points, options)?;
    let mut out = Vec::new();
    for i in 0..entry_points.len() {
        w.select(i);
        out.push(w.resources()?);
    }
    Ok(out)
}

/// Writes entry point `entry_point` of `module` as one CUDA translation
/// unit.
pub fn write(module: &ir::Module, entry_point: usize, options: &Options) -> Result<String, Error> {
    writer::Writer::new(module, entry_point, options)?.write()
}

/// Writes several OptiX programs of `module` (`entry_points`, each a
/// ray-tracing entry point) as one CUDA translation unit, as OptiX builds
/// one module of them: the structs and functions once (a function several
/// programs reach is written, and checked, for the first of them), one
/// `LaunchParams` holding every resource any of them reaches, one
/// `ShaderRecordParams` per program with `uniform` parameters, one
/// `__raygen__`/`__closesthit__`... function each. A compute kernel
/// beside other entry points is [`Error::Unsupported`].
pub fn write_entries(
    module: &ir::Module,
    entry_points: &[usize],
    options: &Options,
) -> Result<String, Error> {
    let writer = writer::Writer::with_entries(module, entry_points, options)?;
    writer.write()
}
