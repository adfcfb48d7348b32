//! CUDA names: kernel and OptiX program names (`__raygen__` ...), the
//! module's names for structs, globals and functions, never a C++/CUDA
//! keyword or a name the prelude uses.

use super::keywords::RESERVED;
use super::writer::{GlobalKind, Writer};
use crate::identifier::sanitize;
use crate::namer::Reserved;
use crate::namer::{Namer, Rules};
use legalis_ir::ShaderStage;

/// The names no CUDA identifier of the output takes.
pub(super) static RESERVED_NAMES: Reserved =
    Reserved::new(&[crate::cfamily::keywords::CPP_RESERVED, RESERVED]);

/// How CUDA spells a fresh name: the source name made an identifier,
/// kept off [`RESERVED_NAMES`].
pub(super) const RULES: Rules = Rules {
    sanitize,
    reserved: |name| RESERVED_NAMES.contains(name),
};

/// The CUDA name of an entry point called `name` of `stage`: a kernel's
/// own name made an identifier (`_1` appended when reserved, as `main`),
/// an OptiX program's name with its kind's prefix (`__raygen__main`), as
/// OptiX finds programs by prefix.
pub fn entry_point_name(name: &str, stage: ShaderStage) -> String {
    match program_prefix(stage) {
        Some(prefix) => format!("{prefix}{}", sanitize(name)),
        None => Namer::new(RULES).call(name),
    }
}

/// The OptiX program-name prefix of a ray-tracing stage.
pub(super) fn program_prefix(stage: ShaderStage) -> Option<&'static str> {
    Some(match stage {
        ShaderStage::RayGeneration => "__raygen__",
        ShaderStage::Miss => "__miss__",
        ShaderStage::ClosestHit => "__closesthit__",
        ShaderStage::AnyHit => "__anyhit__",
        ShaderStage::Intersection => "__intersection__",
        ShaderStage::Callable => "__direct_callable__",
        _ => return None,
    })
}

impl Writer<'_> {
    pub(super) fn name_everything(&mut self) {
        let module = self.module;
        // The entries' names first: the host looks them up.
        for e in &self.entries {
            let name = match &e.program {
                Some(program) => program.clone(),
                None => entry_point_name(&e.entry.name, e.entry.stage),
            };
            self.names.taken.take(&name);
        }
        for e in &self.entries {
            let name = match &e.program {
                Some(_) => self.names.fresh(&format!("{}_body", e.entry.name)),
                None => entry_point_name(&e.entry.name, e.entry.stage),
            };
            self.names.functions.insert(e.entry.function, name);
        }
        self.names.name_structs(module, &self.used_structs);
        if self.globals_block.is_some() {
            let ty = self.names.fresh("Globals");
            let param = self.names.fresh("globals_");
            self.globals_block = Some((ty, param));
        }
        if self.program.is_some() {
            self.names.taken.take("LaunchParams");
            for i in 0..self.entries.len() {
                if !self.entries[i].uniform_params.is_empty() {
                    self.entries[i].record_struct = Some(self.names.fresh("ShaderRecordParams"));
                }
            }
        }
        let globals = self.kinds.keys().copied().collect();
        let kinds = &self.kinds;
        self.names
            .name_globals(module, globals, |g| kinds[&g] == GlobalKind::Plain);
        self.names.name_functions(module, &self.reachable);
    }

    pub fn module_names(&self) -> Namer {
        self.names.taken.clone()
    }
}
