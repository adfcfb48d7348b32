//! MSL names: the entry functions' names, the module's names for
//! structs, globals and functions, never a C++/MSL keyword or a name the
//! output uses.

use super::keywords::RESERVED;
use super::writer::{GlobalKind, Writer};
use crate::identifier::sanitize;
use crate::namer::Reserved;
use crate::namer::{Namer, Rules};
use legalis_ir as ir;
use legalis_ir::{Expression, ShaderStage};

/// The names no MSL identifier of the output takes.
pub(super) static RESERVED_NAMES: Reserved =
    Reserved::new(&[crate::cfamily::keywords::CPP_RESERVED, RESERVED]);

/// How MSL spells a fresh name: the source name made an identifier,
/// kept off [`RESERVED_NAMES`].
pub(super) const RULES: Rules = Rules {
    sanitize,
    reserved: |name| RESERVED_NAMES.contains(name),
};

/// The MSL name of an entry point called `name`: the name itself, made an
/// identifier, with `_1` appended when MSL reserves it (`main`).
pub fn entry_point_name(name: &str) -> String {
    Namer::new(RULES).call(name)
}

impl Writer<'_> {
    pub(super) fn name_everything(&mut self) {
        let module = self.module;
        // Room for every module-scope name up front: thousands of varyings
        // would rehash the tables as they grow.
        let names = module.types.len() + module.globals.len() + module.functions.len();
        self.names.taken.reserve(names);
        self.names.globals.reserve(module.globals.len());
        // The entry functions' names first: the host looks them up.
        for entry in &self.entries {
            let entry_name = entry_point_name(&entry.name);
            self.names.taken.take(&entry_name);
            self.names.functions.insert(entry.function, entry_name);
        }
        self.names.name_structs(module, &self.used_structs);
        if let Some((_, _, n)) = self.globals_block.take() {
            let ty = self.names.fresh("Globals");
            let param = self.names.fresh("globals_");
            self.globals_block = Some((ty, param, n));
        }
        for k in 0..self.entries.len() {
            self.name_entry(k);
        }
        // Members of `_Globals` have their own namespace.
        let globals = self.kinds.keys().copied().collect();
        let kinds = &self.kinds;
        self.names
            .name_globals(module, globals, |g| kinds[&g] == GlobalKind::Plain);
        self.names.name_functions(module, &self.reachable);
    }

    /// Entry point `k`'s own names: its `[[stage_in]]` struct and
    /// parameter, an object function's payload and grid parameters.
    fn name_entry(&mut self, k: usize) {
        let entry = self.entries[k];
        let func = self.entry_function(k);
        let has_stage_in = func
            .params
            .iter()
            .any(|p| matches!(p.io.binding, Some(ir::Binding::Location { .. })));
        if has_stage_in {
            let ty = self.names.fresh(&format!("{}_in", entry.name));
            // One parameter name, taken once, serves every entry function.
            let param = match self.stage_ins.iter().flatten().next() {
                Some((_, param)) => param.clone(),
                None => self.names.fresh("stage_input"),
            };
            self.stage_ins[k] = Some((ty, param));
        }
        if entry.stage == ShaderStage::Amplification {
            let payload_ty = func.expressions.iter().find_map(|(_, e)| match e {
                Expression::Intrinsic {
                    fun: ir::Intrinsic::DispatchMesh,
                    args,
                } => args.get(3).and_then(|a| func.expressions.ty(*a)),
                _ => None,
            });
            if let Some(ty) = payload_ty {
                let payload = self.names.fresh("payload_out");
                let grid = self.names.fresh("grid");
                self.object_payloads[k] = Some((payload, grid, ty));
            }
        }
    }
}
