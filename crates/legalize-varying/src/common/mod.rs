//! What the WGSL and Metal legalizers share: the leaf walk over an entry
//! point's signature (`leaves.rs`), and the wrapper around the source
//! entry function with the IR builder it and Metal's in-place rewrite
//! (B21) use (`wrap.rs`).

pub(crate) mod leaves;
pub(crate) mod wrap;
