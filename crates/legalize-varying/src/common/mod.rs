//! What the WGSL and Metal legalizers share: the wrapper around the
//! source entry function and the IR builder it and Metal's in-place
//! rewrite (B21) use (`wrap.rs`).

pub(crate) mod wrap;
