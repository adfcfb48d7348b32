//! The module-scope names both C-family writers share: every name the
//! output declares at module scope, given by the one namer
//! ([`crate::namer::Namer`], under the target's [`Rules`]: made an
//! identifier by `crate::identifier::sanitize`, kept off the target's
//! reserved words and off each other by a `_N` suffix), in the order each
//! writer asks (entry points first: the host looks them up).

use std::collections::BTreeSet;

use legalis_ir as ir;
use legalis_ir::{FastHashMap, Handle, TypeInner};

use crate::identifier::sanitize;
use crate::namer::{Namer, Rules};

/// The module-scope names of one output.
pub(crate) struct Names {
    /// Every module-scope name given so far.
    pub taken: Namer,
    /// The name of each struct written.
    pub structs: FastHashMap<Handle<ir::Type>, String>,
    /// The member names of each struct written (each struct its own
    /// namespace).
    pub members: FastHashMap<Handle<ir::Type>, Vec<String>>,
    /// The name of each global reached.
    pub globals: FastHashMap<Handle<ir::GlobalVariable>, String>,
    /// The name of each function written.
    pub functions: FastHashMap<Handle<ir::Function>, String>,
    rules: Rules,
}

impl Names {
    /// No names yet; each to be given under `rules`.
    pub fn new(rules: Rules) -> Names {
        Names {
            taken: Namer::new(rules),
            structs: FastHashMap::default(),
            members: FastHashMap::default(),
            globals: FastHashMap::default(),
            functions: FastHashMap::default(),
            rules,
        }
    }

    /// A fresh module-scope name from `base`.
    pub fn fresh(&mut self, base: &str) -> String {
        self.taken.call(base)
    }

    /// Names the structs `used` and their members.
    pub fn name_structs(&mut self, module: &ir::Module, used: &BTreeSet<Handle<ir::Type>>) {
        for &ty in used {
            let t = &module.types[ty];
            let name = self.fresh(t.name.as_deref().unwrap_or("Struct"));
            self.structs.insert(ty, name);
            if let TypeInner::Struct { members } = &t.inner {
                let mut local = Namer::new(self.rules);
                let names = members.iter().map(|m| local.call(&m.name)).collect();
                self.members.insert(ty, names);
            }
        }
    }

    /// Names the globals `globals` in handle order; `in_block` tells the
    /// plain uniforms, members of the globals block, which have their own
    /// namespace.
    pub fn name_globals(
        &mut self,
        module: &ir::Module,
        mut globals: Vec<Handle<ir::GlobalVariable>>,
        in_block: impl Fn(Handle<ir::GlobalVariable>) -> bool,
    ) {
        globals.sort();
        for g in globals {
            let name = if in_block(g) {
                sanitize(&module.globals[g].name)
            } else {
                self.fresh(&module.globals[g].name)
            };
            self.globals.insert(g, name);
        }
    }

    /// Names the functions of `reachable` not named yet.
    pub fn name_functions(&mut self, module: &ir::Module, reachable: &[Handle<ir::Function>]) {
        for &f in reachable {
            if self.functions.contains_key(&f) {
                continue;
            }
            let name = self.fresh(&module.functions[f].name);
            self.functions.insert(f, name);
        }
    }

    /// The name of struct `ty`.
    pub fn struct_name(&self, ty: Handle<ir::Type>) -> String {
        self.structs
            .get(&ty)
            .cloned()
            .unwrap_or_else(|| "UnnamedStruct".into())
    }
}
