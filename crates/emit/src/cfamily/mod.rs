//! What the C-family writers (CUDA in `cuda/`, MSL in `metal/`) share.

pub mod keywords;

/// A C++ (MSL, CUDA) identifier for `name`: other characters become `_`,
/// no leading digit, no `__` (reserved in C++).
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

/// The C++ keywords (and `main`) with a target's own reserved words, as
/// a set built on first use: names are checked for every declaration, and
/// scanning both lists cost thousands of steps a name.
pub struct Reserved {
    target: &'static [&'static str],
    set: std::sync::OnceLock<legalis_ir::FastHashSet<&'static str>>,
}

impl Reserved {
    pub const fn new(target: &'static [&'static str]) -> Reserved {
        Reserved {
            target,
            set: std::sync::OnceLock::new(),
        }
    }

    /// Whether `name` is a C++ keyword (or `main`) or one of the target's
    /// reserved words.
    pub fn contains(&self, name: &str) -> bool {
        self.set
            .get_or_init(|| {
                keywords::CPP_RESERVED
                    .iter()
                    .chain(self.target)
                    .copied()
                    .collect()
            })
            .contains(name)
    }
}

#[cfg(test)]
mod tests {
    use super::{Reserved, keywords::CPP_RESERVED, sanitize};

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

    #[test]
    fn reserved_holds_both_lists_and_nothing_else() {
        static TARGET: &[&str] = &["kernel_only"];
        let reserved = Reserved::new(TARGET);
        assert!(reserved.contains("kernel_only"));
        for word in CPP_RESERVED {
            assert!(reserved.contains(word), "{word}");
        }
        assert!(!reserved.contains("position"));
        assert!(!reserved.contains(""));
    }
}
