//! What the C-family writers (CUDA in `cuda/`, MSL in `metal/`) share.

pub mod keywords;

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
    use super::{Reserved, keywords::CPP_RESERVED};

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
