//! The characterization harness for Legalis.
//!
//! Test files use the reference compiler's format (`//TEST:SIMPLE(...)`
//! directives, FileCheck check lines, caret annotations), so the same files
//! run against Legalis or the reference. The pieces are usable on their own:
//!
//! - [`directives`] reads a test file: the `//META:` block, the test
//!   directives, and the caret annotations of diagnostic tests.
//! - [`filecheck`] is an LLVM-FileCheck-compatible checker (also exposed as
//!   the `legalis-filecheck` binary).
//! - [`diag`] reads machine-readable diagnostics and matches caret
//!   annotations against them.
//! - [`runner`] runs a folder of test files with any [`runner::Compiler`],
//!   an optional [`runner::Validator`] and insta snapshots.
//! - [`interface`] reads an output's stage interface back from SPIR-V and
//!   compares it with the legalization trace (the round-trip check).

pub mod bindings;
pub mod diag;
pub mod directives;
pub mod filecheck;
pub mod interface;
pub mod legalis;
pub mod msl_signature;
pub mod runner;
pub mod shapes;
