//! What the legalizers share for a module of several entry points: whether
//! legalizing one keeps the others, and the loop that legalizes each in turn
//! into one module (`-target spirv`/`wgsl` without `-entry`).

use crate::Module;
use crate::diag::Diagnostic;

/// What legalizing one entry point does with the module's other entry
/// points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OtherEntryPoints {
    /// The result has the one entry point (GLSL holds one; linking writes
    /// each stage on its own).
    Drop,
    /// The others stay, as they are, with everything they reach.
    Keep,
}

/// Legalizes every entry point of `module` in turn into one module:
/// `one(module so far, k)` legalizes entry point `k` of it (keeping the
/// others, [`OtherEntryPoints::Keep`]) and returns the new module and the
/// entry point's plan. The plans come back in entry-point order; the errors
/// of every entry point are returned together.
pub fn legalize_each<P>(
    module: &Module,
    mut one: impl FnMut(&Module, usize) -> Result<(Module, P), Vec<Diagnostic>>,
) -> Result<(Module, Vec<P>), Vec<Diagnostic>> {
    let mut current = module.clone();
    let mut plans = Vec::with_capacity(current.entry_points.len());
    let mut errors = Vec::new();
    for k in 0..current.entry_points.len() {
        match one(&current, k) {
            Ok((legalized, plan)) => {
                plans.push(plan);
                current = legalized;
            }
            Err(e) => errors.extend(e),
        }
    }
    if errors.is_empty() {
        Ok((current, plans))
    } else {
        Err(errors)
    }
}
