//! The varying legalizers: targets whose entry points take attributed
//! parameters and return attributed result structs, rather than reading
//! and writing interface globals.
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
//! The legalizers never print.

pub mod codes;
mod common;
pub mod cuda;
pub mod metal;
pub mod wgsl;
