//! The entry-point legalizers of Legalis, one folder per target family
//! (as `legalis_emit` has one per writer): each plans where every leaf of
//! an entry point's parameters and result goes, then rewrites a copy of the
//! module into the shape its writers expect.
//!
//! - [`glsl`]: GLSL and SPIR-V. Stage inputs and outputs become
//!   `Input`/`Output` globals bound to builtins or locations and the entry
//!   function parameterless (B1-B16, D1-D7); its own input contract and
//!   guarantees are in the module's documentation.
//!
//! The others serve targets whose entry points take attributed parameters
//! and return attributed result structs, rather than reading and writing
//! interface globals:
//!
//! - [`wgsl`]: `@builtin(...)`/`@location(N)` parameters and result
//!   structs (B22), and `E55202` for what WGSL cannot express (B23).
//!
//! - [`metal`]: Metal attributes (`position`, `color(n)`, `user(TEXCOORD)`)
//!   on parameters and result structs (B19, B20), `E55302` for what Metal
//!   cannot express.
//!
//! - [`cuda`]: kernels reading the compute ids from `threadIdx`,
//!   `blockIdx` and `blockDim`, and OptiX programs whose payloads travel
//!   in 32-bit registers and whose hit attributes in 8 slots, laid out by
//!   one function (B17, B18, D8).
//!
//! Each is a [`Family`] (`glsl::Glsl`, `wgsl::Wgsl`, `metal::Metal`,
//! `cuda::Cuda`): all four have the same functions (`legalize`,
//! `legalize_linked`, `legalize_unverified`, `legalize_all_unverified`,
//! `verify`) and the same result, a [`Legalized`] module with the
//! family's own plan.
//! `common/` holds what they share; [`codes`] the diagnostic codes of all
//! four. The legalizers never print, and each returns a finished module:
//! the writers and the binding plan take it as it is (every legalizer but
//! CUDA's ends by making the functions that took a `uniform` resource
//! argument read its global, and by splitting the constant buffers that
//! hold resources, `legalis_ir::blocks`).
//!
//! # Input contract
//!
//! The same for [`wgsl`], [`metal`] and [`cuda`]: the module passes the IR verifier
//! (`legalis_ir::verify::verify`), as the front end's output does, and is
//! not checked again; `entry_point` indexes `module.entry_points`
//! (otherwise the legalizer's "no entry point" code); the entry point's
//! parameters, result and the struct members they reach carry
//! `Binding::Semantic` (`SV_Position`, `TEXCOORD0`) or no binding, as the
//! front end leaves them. A stage the target has no entry points for
//! (WGSL: anything but vertex, fragment and compute; Metal: hull, domain,
//! geometry and ray tracing; CUDA: graphics stages) and a system value
//! the target cannot express are coded errors (`codes`), never a panic.
//!
//! # What the results guarantee
//!
//! Each `legalize` returns a module that passes that family's `verify`
//! (the IR verifier; failing it is the internal error `E55200`, `E55300`
//! or `E55400`), with the chosen entry point alone, and a plan saying
//! where every leaf went:
//!
//! - [`wgsl`] and [`metal`]: the entry point's function is a new wrapper
//!   whose parameters and result-struct members are bound to a builtin or
//!   a location (no `Binding::Semantic` left) and which calls the source
//!   function (Metal mesh and object functions are rewritten in place
//!   instead: their mesh and payload exist only as parameters);
//!   `legalis_emit::wgsl` and `legalis_emit::metal` write it.
//! - [`cuda`]: a compute entry point's wrapper takes its system values
//!   as parameters bound to builtins; an OptiX program's module is
//!   unchanged and its plan carries the payload registers and
//!   hit-attribute slots `legalis_emit::cuda` packs them into.
//!
//! ```
//! use legalis_legalize::{Family, wgsl};
//!
//! let source = r#"
//! [shader("fragment")]
//! float4 main(float4 pos : SV_Position, float2 uv : TEXCOORD0) : SV_Target {
//!     return float4(uv, pos.z, 1);
//! }
//! "#;
//! let module = legalis_front::compile(source, &Default::default()).module.unwrap();
//! let legalized = wgsl::Wgsl::legalize(&module, 0, &legalis_ir::Policy::default()).unwrap();
//! let targets: Vec<_> = legalized.plan.leaves.iter().map(|l| (l.path.as_str(), &l.target)).collect();
//! assert!(matches!(targets[0], ("pos", wgsl::Target::BuiltIn { row, .. }) if row.name == "position"));
//! assert!(matches!(targets[1], ("uv", wgsl::Target::Location { location: 0, .. })));
//! assert!(matches!(targets[2], (_, wgsl::Target::Location { location: 0, .. })));
//! ```

#![warn(missing_docs)]

pub mod codes;
mod common;
pub use common::legalized::{Family, Job, Legalized, LegalizedAll};
pub use common::plan;
pub mod cuda;
pub mod glsl;
pub mod metal;
pub mod wgsl;
