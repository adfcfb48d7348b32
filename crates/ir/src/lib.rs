//! The Legalis intermediate representation.
//!
//! Plain data in the style of naga: [`Arena`]s addressed by typed
//! [`Handle`]s, types interned in a [`UniqueArena`] so type equality is handle
//! equality, a [`Module`] of globals, functions and entry points, and
//! varyings whose [`Binding`] records how far legalization got (a
//! [`Semantic`] from the front end, a [`BuiltIn`] or a location afterwards).
//! [`print::print_module`] renders a module as readable text (`legalis FILE
//! -dump-ir`); [`verify::verify`] checks the invariants documented on the
//! fields; [`link`] checks that the stages of one pipeline agree, for every
//! target; [`Reach`] is what entry points reach, computed once. [`Policy`] holds the API-convention choices (`-fvk-invert-y`
//! and friends) every legalizer takes.
//!
//! A module is plain data, built by the front end or by hand:
//!
//! ```
//! use legalis_ir as ir;
//!
//! // A semantic as written parses into its value and index.
//! let semantic = ir::Semantic::parse("SV_Target2").unwrap();
//! assert_eq!(
//!     semantic,
//!     ir::Semantic::System { value: ir::SystemValue::Target, index: 2 }
//! );
//!
//! // Types are interned: inserting `float4` twice gives one handle.
//! let mut module = ir::Module::default();
//! let float4 = ir::Type {
//!     name: None,
//!     inner: ir::TypeInner::Vector { size: 4, scalar: ir::Scalar::F32 },
//! };
//! let a = module.types.insert(float4.clone(), ir::Span::UNDEFINED);
//! let b = module.types.insert(float4, ir::Span::UNDEFINED);
//! assert_eq!(a, b);
//! assert!(ir::verify::verify(&module).is_ok());
//! ```

#![warn(missing_docs)]

mod arena;
pub mod blocks;
pub mod codes;
pub mod diag;
mod entries;
mod intrinsic;
pub mod link;
mod module;
mod policy;
pub mod print;
pub mod printf;
mod reach;
mod semantic;
mod span;
mod stage;
mod types;
pub mod verify;
mod visit;

pub use arena::{Arena, Handle, UniqueArena};
pub use entries::{OtherEntryPoints, legalize_each};
pub use intrinsic::{AtomicOp, Intrinsic, RayQueryRead, is_constant, is_pure, is_pure_with};
pub use module::*;
pub use policy::{
    BufferLayout, DebugLevel, HandleCapability, OptimizationLevel, Policy, VertexIdBase,
};
pub use reach::Reach;
pub use semantic::{
    Binding, BuiltIn, Interpolation, InterpolationMode, IoAttrs, Sampling, Semantic, SystemValue,
    Xfb,
};
pub use span::Span;

/// The hash map and set every Legalis crate uses for its own tables: keys
/// are names, handles and small values the compiler made itself, so the
/// fast non-cryptographic Fx hash fits (SipHash was a seventh of the
/// instructions of a 4096-field compile).
pub type FastHashMap<K, V> = rustc_hash::FxHashMap<K, V>;
/// See [`FastHashMap`].
pub type FastHashSet<T> = rustc_hash::FxHashSet<T>;
pub use stage::*;
pub use types::*;
