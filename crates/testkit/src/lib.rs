//! The characterization harness for Legalis.
//!
//! Test files use the reference compiler's format (`//TEST:SIMPLE(...)`
//! directives, FileCheck check lines, caret annotations), so the same files
//! run against Legalis or the reference.
//!
//! - [`filecheck`] is an LLVM-FileCheck-compatible checker (also exposed as
//!   the `legalis-filecheck` binary).

pub mod filecheck;
