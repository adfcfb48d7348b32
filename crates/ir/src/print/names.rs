//! Display names that stay unambiguous when source names collide.
//!
//! HLSL allows overloads and shadowing, and synthesised items may be unnamed,
//! yet a reviewer must tell them apart. The first holder of a name keeps it;
//! every later one (and every empty name) gets `#` plus its index, with a tag
//! letter for parameters (`x#p1`) and globals (`g#g2`) because those share a
//! namespace with locals (`t#3`). Functions have their own namespace (`f#4`).

use crate::FastHashSet;
use crate::{Function, FunctionParam, GlobalVariable, Handle, LocalVariable, Module};

pub(super) struct ModuleNames {
    globals: Vec<String>,
    functions: Vec<String>,
}

impl ModuleNames {
    pub(super) fn new(module: &Module) -> Self {
        let global_names = module.globals.iter().map(|(_, g)| g.name.as_str());
        let function_names = module.functions.iter().map(|(_, f)| f.name.as_str());
        ModuleNames {
            globals: unique(global_names, "g", &mut FastHashSet::default()),
            functions: unique(function_names, "", &mut FastHashSet::default()),
        }
    }

    pub(super) fn global(&self, handle: Handle<GlobalVariable>) -> String {
        self.globals
            .get(handle.index())
            .cloned()
            .unwrap_or_else(|| format!("<bad global {handle:?}>"))
    }

    pub(super) fn function(&self, handle: Handle<Function>) -> String {
        self.functions
            .get(handle.index())
            .cloned()
            .unwrap_or_else(|| format!("<bad function {handle:?}>"))
    }
}

pub(super) struct FunctionNames {
    params: Vec<String>,
    locals: Vec<String>,
}

impl FunctionNames {
    pub(super) fn new(module: &Module, func: &Function) -> Self {
        // Raw global names: a local that shadows a global must be marked even
        // though the global itself prints plainly.
        let mut taken: FastHashSet<String> =
            module.globals.iter().map(|(_, g)| g.name.clone()).collect();
        let params = func.params.iter().map(|p: &FunctionParam| p.name.as_str());
        let params = unique(params, "p", &mut taken);
        let locals = func
            .locals
            .iter()
            .map(|(_, l): (_, &LocalVariable)| l.name.as_str());
        let locals = unique(locals, "", &mut taken);
        FunctionNames { params, locals }
    }

    pub(super) fn param(&self, index: u32) -> String {
        self.params
            .get(index as usize)
            .cloned()
            .unwrap_or_else(|| format!("<bad param {index}>"))
    }

    pub(super) fn local(&self, handle: Handle<LocalVariable>) -> String {
        self.locals
            .get(handle.index())
            .cloned()
            .unwrap_or_else(|| format!("<bad local {handle:?}>"))
    }
}

fn unique<'n>(
    names: impl Iterator<Item = &'n str>,
    tag: &str,
    taken: &mut FastHashSet<String>,
) -> Vec<String> {
    names
        .enumerate()
        .map(|(index, name)| {
            if !name.is_empty() && taken.insert(name.to_string()) {
                name.to_string()
            } else {
                let name = if name.is_empty() { "_" } else { name };
                format!("{name}#{tag}{index}")
            }
        })
        .collect()
}
