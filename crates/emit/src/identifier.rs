//! Identifiers from source names, for the WGSL, MSL and CUDA writers.

/// An identifier for `name` that WGSL, MSL and CUDA all accept: other
/// characters become `_`, no leading digit, no `__` (reserved in C++ and
/// at the start of a WGSL name).
pub fn sanitize(name: &str) -> String {
    let plain = !name.is_empty()
        && name != "_"
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        && !name.contains("__");
    if plain {
        // Nothing to replace: most names.
        return name.to_string();
    }
    let mut s: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    while s.contains("__") {
        s = s.replace("__", "_");
    }
    if s.is_empty() || s == "_" || s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert(0, 'v');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::sanitize;

    #[test]
    fn sanitize_keeps_plain_names_and_fixes_the_rest() {
        assert_eq!(sanitize("position"), "position");
        assert_eq!(sanitize("f_12"), "f_12");
        assert_eq!(sanitize("a__b"), "a_b");
        assert_eq!(sanitize("x.y-z"), "x_y_z");
        assert_eq!(sanitize("9lives"), "v9lives");
        assert_eq!(sanitize(""), "v");
        assert_eq!(sanitize("_"), "v_");
        assert_eq!(sanitize("__"), "v_");
    }
}
