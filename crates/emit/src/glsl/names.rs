//! GLSL names: identifiers made legal and unique (keywords get `_`, `gl_`
//! names a `u`), the module's names for globals, structs and functions,
//! temporaries and hoisted `static` locals.

use legalis_ir::FastHashSet;

use legalis_ir as ir;
use legalis_ir::TypeInner;

use super::keywords::is_reserved;
use super::stmt::collect_initialized;
use super::writer::{StaticLocal, Writer};
use crate::namer::{Namer, Rules};

/// A GLSL identifier for `name`: keywords get a trailing `_`, `gl_` names a
/// leading `_`, runs of `_` collapse (GLSL reserves `__`), other characters
/// become `_`.
pub(super) fn sanitize(name: &str) -> String {
    let mut s = String::with_capacity(name.len() + 2);
    sanitize_into(name, &mut s);
    s
}

/// GLSL's naming: [`sanitize`] keeps every base off the reserved words
/// (appending `_`), and a numbered name is never one.
pub(super) const RULES: Rules = Rules {
    sanitize,
    reserved: crate::namer::none_reserved,
};

/// The module scope's namer, with the names the writer spells itself
/// (`main`, the `_Globals` block) taken.
pub(super) fn module_namer() -> Namer {
    let mut names = Namer::new(RULES);
    for name in ["main", "_globals", "_Globals"] {
        names.take(name);
    }
    names
}

/// [`sanitize`] appended to `out`.
pub(super) fn sanitize_into(name: &str, out: &mut String) {
    // Runs of characters GLSL does not allow, and of underscores (`__` is
    // reserved), become one `_`, in one pass.
    let start = out.len();
    let plain =
        name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') && !name.contains("__");
    if plain {
        // Nothing to replace or merge: most names.
        out.push_str(name);
    } else {
        for c in name.chars() {
            let c = if c.is_ascii_alphanumeric() { c } else { '_' };
            if !(c == '_' && out.len() > start && out.ends_with('_')) {
                out.push(c);
            }
        }
    }
    let s = &out[start..];
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(start, '_');
    }
    let s = &out[start..];
    if s.starts_with("gl_") || s.starts_with("_hlsl_") {
        out.insert(start, 'u');
    }
    if is_reserved(&out[start..]) {
        out.push('_');
    }
}

/// A helper function name from type spellings: `ivec3[2]` becomes
/// `ivec3_2`, and no `__` survives (GLSL reserves it).
pub(super) fn helper_name(raw: &str) -> String {
    let mut s = raw.replace(['[', ']'], "_");
    while s.contains("__") {
        s = s.replace("__", "_");
    }
    s.trim_end_matches('_').to_string()
}

impl Writer<'_> {
    /// A module-scope temporary of type `ty` (see [`Writer::temps`]).
    pub fn temp(&mut self, ty: String) -> String {
        let name = self.names.call_raw("_hlsl_tmp");
        self.temps.push((ty, name.clone()));
        name
    }

    /// `static` locals of reachable functions become private globals named
    /// after function and local; one with an initializer gets a guard so the
    /// initializer runs once, when the declaration is first reached.
    pub(super) fn collect_static_locals(&mut self) {
        for &f in &self.functions {
            let func = &self.module.functions[f];
            let mut inits = FastHashSet::default();
            collect_initialized(&func.body, &mut inits);
            for (l, local) in func.locals.iter().filter(|(_, l)| l.is_static) {
                let base = format!("{}_{}", func.name, local.name);
                let name = self.names.call(&base);
                let guard = inits
                    .contains(&l)
                    .then(|| self.names.call(&format!("{base}_init")));
                self.static_locals
                    .insert((f, l), StaticLocal { name, guard });
            }
        }
    }

    pub(super) fn assign_names(&mut self) {
        let module = self.module;
        // Room for every global's name up front: thousands of varyings
        // would rehash the tables as they grow.
        self.names.reserve(self.globals.len() + module.types.len());
        self.global_names.reserve(self.globals.len());
        // Globals first: a cbuffer keeps its name over its own block struct.
        for &g in &self.globals {
            let var = &module.globals[g];
            let name = match &var.io {
                Some(ir::IoAttrs {
                    binding: Some(ir::Binding::BuiltIn(_) | ir::Binding::PrimitiveIndices),
                    ..
                }) => var.name.clone(),
                _ => self.names.call(&var.name),
            };
            self.global_names.insert(g, name);
        }
        for (h, ty) in module.types.iter() {
            if let (TypeInner::Struct { .. }, Some(name)) = (&ty.inner, &ty.name) {
                let n = self.names.call(name);
                self.struct_names.insert(h, n);
            }
        }
        for &f in &self.functions {
            let name = if f == self.entry.function {
                "main".to_string()
            } else {
                self.names.call(&module.functions[f].name)
            };
            self.function_names.insert(f, name);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{sanitize, sanitize_into};

    #[test]
    fn push_number_prints_what_display_prints() {
        for n in [0, 7, 10, 99, 4096, 123_456, u32::MAX] {
            let mut out = String::from("x");
            crate::push_number(&mut out, n);
            assert_eq!(out, format!("x{n}"));
        }
    }

    #[test]
    fn sanitize_into_appends_what_sanitize_returns() {
        for name in [
            "",
            "9lives",
            "gl_Position",
            "a__b",
            "_hlsl_x",
            "sample",
            "x.y-z",
            "__",
        ] {
            let mut out = String::from("prefix_");
            sanitize_into(name, &mut out);
            assert_eq!(out, format!("prefix_{}", sanitize(name)), "{name:?}");
        }
        assert_eq!(sanitize("9lives"), "_9lives");
        assert_eq!(sanitize("gl_Position"), "ugl_Position");
        assert_eq!(sanitize("a__b"), "a_b");
    }
}
