//! What the C-family writers (CUDA in `cuda/`, MSL in `metal/`) share.

pub mod keywords;

/// Whether `name` is a C++ keyword (or `main`) or one of a target's own
/// reserved words `target`.
pub fn is_reserved(name: &str, target: &[&str]) -> bool {
    keywords::CPP_RESERVED.contains(&name) || target.contains(&name)
}
