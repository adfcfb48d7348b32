//! Legalis writers: target text from a legalized IR module.
//!
//! Writers only print; they never change the IR. Each target lives in its
//! own module with naga's backend shape (`Options`, an `Error` enum, one
//! `write` entry function). GLSL is the first.

pub mod binding;
mod cfamily;
pub mod codes;
pub mod cuda;
pub mod glsl;
pub mod metal;
pub mod spirv;
pub mod wgsl;

/// What both writers say about a `GetAttributeAtVertex` the legalizer left:
/// it rewrites the calls of the entry point's own function only (B13).
pub(crate) const GET_ATTRIBUTE_AT_VERTEX: &str = "`GetAttributeAtVertex` outside the entry point's own function \
     (the legalizer turns the calls there into reads of per-vertex arrays)";
