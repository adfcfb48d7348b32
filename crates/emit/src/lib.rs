//! Legalis writers: target text from a legalized IR module.
//!
//! Writers only print; they never change the IR. Each target lives in its
//! own module with naga's backend shape (`Options`, an `Error` enum, one
//! `write` entry function). GLSL is the first.

pub mod binding;
pub mod codes;
pub mod glsl;
pub mod spirv;
