//! One namer for the writers, after naga's `proc::Namer`: a set of names
//! taken in one scope, and [`Namer::call`], which turns a source name into
//! a fresh identifier of the target: `base` itself when it is free, else
//! `base_1`, `base_2` ... The spelling rules differ per target (what a
//! source name becomes, which names the target reserves); each writer
//! gives its own [`Rules`].

use legalis_ir::FastHashSet;

/// How one target spells a fresh name.
#[derive(Clone, Copy)]
pub(crate) struct Rules {
    /// A source name as an identifier of the target (keywords renamed,
    /// other characters replaced).
    pub sanitize: fn(&str) -> String,
    /// Names the target reserves, which no candidate takes (the base and
    /// each numbered one).
    pub reserved: fn(&str) -> bool,
}

/// The matrix type names GLSL and WGSL both reserve (`matCxR`, whose
/// spelling they share).
pub(crate) const MATRIX_TYPES: &[&str] = &[
    "mat2x2", "mat2x3", "mat2x4", "mat3x2", "mat3x3", "mat3x4", "mat4x2", "mat4x3", "mat4x4",
];

/// A target's reserved words (the union of `lists`) as a set built on
/// first use: names are checked for every declaration, and scanning the
/// lists would cost thousands of steps a name.
pub(crate) struct Reserved {
    lists: &'static [&'static [&'static str]],
    set: std::sync::OnceLock<FastHashSet<&'static str>>,
}

impl Reserved {
    pub const fn new(lists: &'static [&'static [&'static str]]) -> Reserved {
        Reserved {
            lists,
            set: std::sync::OnceLock::new(),
        }
    }

    /// Whether `name` is in one of the lists.
    pub fn contains(&self, name: &str) -> bool {
        self.set
            .get_or_init(|| self.lists.iter().flat_map(|l| l.iter().copied()).collect())
            .contains(name)
    }
}

/// For [`Rules::reserved`] where `sanitize` already keeps every base off
/// the target's reserved names (and a numbered one is never one).
pub(crate) fn none_reserved(_: &str) -> bool {
    false
}

/// The names taken in one scope (see the module doc).
#[derive(Clone)]
pub(crate) struct Namer {
    taken: FastHashSet<String>,
    rules: Rules,
}

impl Namer {
    /// An empty scope under `rules`.
    pub fn new(rules: Rules) -> Self {
        Namer {
            taken: FastHashSet::default(),
            rules,
        }
    }

    /// Room for `additional` more names.
    pub fn reserve(&mut self, additional: usize) {
        self.taken.reserve(additional);
    }

    /// Marks `name` taken as it is (a name the writer spells itself).
    pub fn take(&mut self, name: &str) {
        self.taken.insert(name.to_string());
    }

    /// A fresh name from source name `base`, now taken.
    pub fn call(&mut self, base: &str) -> String {
        let base = (self.rules.sanitize)(base);
        self.pick(base, None)
    }

    /// A fresh name from `base` as it is: a name in the writer's own
    /// namespace (`_hlsl_tmp`), which no sanitized source name takes.
    pub fn call_raw(&mut self, base: &str) -> String {
        self.pick(base.to_string(), None)
    }

    /// [`Namer::call`] in a scope nested in `outer`: the name is taken
    /// in neither, and only this scope takes it (a function's names
    /// beside the module's, without copying the module's).
    pub fn call_beside(&mut self, outer: &Namer, base: &str) -> String {
        let base = (self.rules.sanitize)(base);
        self.pick(base, Some(&outer.taken))
    }

    fn pick(&mut self, base: String, outer: Option<&FastHashSet<String>>) -> String {
        let reserved = self.rules.reserved;
        let free = |name: &str, taken: &FastHashSet<String>| {
            !reserved(name) && !taken.contains(name) && outer.is_none_or(|o| !o.contains(name))
        };
        if free(&base, &self.taken) {
            self.taken.insert(base.clone());
            return base;
        }
        let mut n = 1u32;
        loop {
            let name = format!("{base}_{n}");
            if free(&name, &self.taken) {
                self.taken.insert(name.clone());
                return name;
            }
            n += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserved_holds_every_list_and_nothing_else() {
        use crate::cfamily::keywords::CPP_RESERVED;
        static TARGET: &[&str] = &["kernel_only"];
        static RESERVED: Reserved = Reserved::new(&[CPP_RESERVED, TARGET]);
        assert!(RESERVED.contains("kernel_only"));
        for word in CPP_RESERVED {
            assert!(RESERVED.contains(word), "{word}");
        }
        assert!(!RESERVED.contains("position"));
        assert!(!RESERVED.contains(""));
    }

    fn upper(name: &str) -> String {
        name.to_uppercase()
    }

    const RULES: Rules = Rules {
        sanitize: upper,
        reserved: |name| name == "IF" || name == "X_1",
    };

    #[test]
    fn numbers_taken_and_reserved_names() {
        let mut names = Namer::new(RULES);
        assert_eq!(names.call("a"), "A");
        assert_eq!(names.call("a"), "A_1");
        assert_eq!(names.call("a"), "A_2");
        assert_eq!(names.call("if"), "IF_1");
        names.take("X");
        assert_eq!(names.call("x"), "X_2");
        assert_eq!(names.call_raw("_tmp"), "_tmp");
        assert_eq!(names.call_raw("_tmp"), "_tmp_1");
    }

    #[test]
    fn a_nested_scope_avoids_the_outer_one() {
        let mut module = Namer::new(RULES);
        module.call("f");
        let mut function = Namer::new(RULES);
        assert_eq!(function.call_beside(&module, "f"), "F_1");
        assert_eq!(function.call_beside(&module, "f"), "F_2");
        // The outer scope took nothing.
        assert_eq!(module.call("f"), "F_1");
        let none = Rules {
            sanitize: upper,
            reserved: none_reserved,
        };
        assert_eq!(Namer::new(none).call("if"), "IF");
    }
}
