//! The varying legalizers: targets whose entry points take attributed
//! parameters and return attributed result structs, rather than reading
//! and writing interface globals.
//!
//! - [`wgsl`]: `@builtin(...)`/`@location(N)` parameters and result
//!   structs (B22), and `E55202` for what WGSL cannot express (B23).
//!
//! Metal (`[[position]]`...) and CUDA/OptiX (payload registers) come with
//! their targets, as sibling modules. The legalizers never print.

pub mod codes;
pub mod wgsl;
