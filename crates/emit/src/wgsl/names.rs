//! WGSL names: the module's names for structs, globals and functions,
//! never a WGSL keyword, reserved word or predeclared name the output uses.

use super::writer::Writer;
use legalis_ir as ir;
use legalis_ir::{AddressSpace, Handle, TypeInner};

use super::keywords::is_reserved;
use crate::binding;
use crate::identifier::sanitize;
use crate::namer::{Namer, Rules};

/// WGSL's naming: [`sanitize`]d, and no reserved word taken, numbered or
/// not.
pub(super) const RULES: Rules = Rules {
    sanitize,
    reserved: is_reserved,
};

impl Writer<'_> {
    pub(super) fn name_everything(&mut self) {
        let module = self.module;
        // Room for every module-scope name up front: thousands of varyings
        // would rehash the tables as they grow.
        let names = module.types.len() + module.globals.len() + module.functions.len();
        self.names.reserve(names);
        self.global_names.reserve(module.globals.len());
        // The entry points keep their names first.
        for entry in self.entries.clone() {
            if !self.function_names.contains_key(&entry.function) {
                let entry_name = self.names.call(&entry.name);
                self.function_names.insert(entry.function, entry_name);
            }
        }
        for (h, t) in module.types.iter() {
            if let TypeInner::Struct { members } = &t.inner {
                let name = self.names.call(t.name.as_deref().unwrap_or("Struct"));
                self.struct_names.insert(h, name);
                let mut member_names = Namer::new(RULES);
                let names = members.iter().map(|m| member_names.call(&m.name)).collect();
                self.member_names.insert(h, names);
            }
        }
        for &g in &self.used_globals.clone() {
            let var = &module.globals[g];
            if var.space == AddressSpace::Uniform && !binding::is_resource(module, var) {
                continue;
            }
            let name = self.names.call(&var.name);
            self.global_names.insert(g, name);
        }
        let plain: Vec<Handle<ir::GlobalVariable>> = self
            .used_globals
            .iter()
            .copied()
            .filter(|&g| {
                let var = &module.globals[g];
                var.space == AddressSpace::Uniform && !binding::is_resource(module, var)
            })
            .collect();
        if !plain.is_empty() {
            let var = self.names.call("_Globals");
            let mut member_names = Namer::new(RULES);
            let members = plain
                .iter()
                .map(|&g| (g, member_names.call(&module.globals[g].name)))
                .collect();
            self.plain_uniforms = Some((var, members));
        }
        for &f in &self.reachable {
            if self.function_names.contains_key(&f) {
                continue;
            }
            let name = self.names.call(&module.functions[f].name);
            self.function_names.insert(f, name);
        }
        for &f in &self.reachable {
            let func = &module.functions[f];
            for (l, local) in func.locals.iter() {
                if local.is_static {
                    let name = self.names.call(&format!("{}_{}", func.name, local.name));
                    self.static_locals.insert((f, l), name);
                }
            }
        }
    }

    /// The module scope's namer, for a function's own names.
    pub fn module_names(&self) -> Namer {
        self.names.clone()
    }

    pub fn struct_name(&self, ty: Handle<ir::Type>) -> String {
        self.struct_names
            .get(&ty)
            .cloned()
            .unwrap_or_else(|| "Struct".into())
    }
}
