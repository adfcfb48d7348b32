//! Descriptor `(set, binding)` numbers, the one rule both the GLSL and the
//! SPIR-V outputs follow: `[[vk::binding(b, s)]]` wins; else
//! `register(xN, spaceS)` gives set S, binding N (all register classes share
//! one binding space, as in the GLSL writer); else the next binding in set 0
//! that no explicit binding claims, in declaration order, with the
//! `_Globals` block of plain uniforms first. Unused globals keep their
//! numbers, so removing a use never renumbers the others.

use std::collections::{BTreeMap, BTreeSet};

use legalis_ir as ir;
use legalis_ir::{AddressSpace, Handle, TypeInner};

/// Descriptor numbers of a module.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Bindings {
    /// `(set, binding)` of every resource global (arrays of resources too).
    pub resources: BTreeMap<Handle<ir::GlobalVariable>, (u32, u32)>,
    /// `(set, binding)` of the `_Globals` block, when plain uniforms exist.
    pub globals_block: Option<(u32, u32)>,
}

/// Whether `g` is bound as a descriptor of its own (not in `_Globals`).
pub(crate) fn is_resource(module: &ir::Module, g: &ir::GlobalVariable) -> bool {
    if g.space != AddressSpace::Uniform {
        return false;
    }
    let mut ty = g.ty;
    while let TypeInner::Array { base, .. } = module.types[ty].inner {
        ty = base;
    }
    module.types[ty].inner.is_resource()
}

/// Assigns descriptor numbers to every uniform global of `module`.
pub fn assign_bindings(module: &ir::Module) -> Bindings {
    let resources: Vec<_> = module
        .globals
        .iter()
        .filter(|(_, g)| is_resource(module, g))
        .collect();
    let mut out = Bindings::default();
    let mut taken = BTreeSet::new();
    for &(h, g) in &resources {
        let explicit = match (g.binding.vk_binding, g.binding.register) {
            (Some((binding, set)), _) => Some((set, binding)),
            (None, Some(r)) => Some((r.space, r.index)),
            (None, None) => None,
        };
        if let Some(pair) = explicit {
            out.resources.insert(h, pair);
            taken.insert(pair);
        }
    }
    let mut next = 0;
    let mut next_free = |taken: &mut BTreeSet<(u32, u32)>| {
        while !taken.insert((0, next)) {
            next += 1;
        }
        (0, next)
    };
    let has_plain = module
        .globals
        .iter()
        .any(|(_, g)| g.space == AddressSpace::Uniform && !is_resource(module, g));
    if has_plain {
        out.globals_block = Some(next_free(&mut taken));
    }
    for &(h, _) in &resources {
        out.resources
            .entry(h)
            .or_insert_with(|| next_free(&mut taken));
    }
    out
}

/// The WGSL variant of the rule: WGSL (WebGPU) requires every
/// `@group/@binding` pair of a module to be unique, where D3D registers of
/// different classes (`t0`, `s0`, `b0`) share numbers. `[[vk::binding]]`
/// and registers are kept where they are unique; a declaration whose pair
/// an earlier one (in declaration order, `_Globals` first, explicit
/// `[[vk::binding]]`s before registers) already holds moves to the next
/// free binding of its group.
pub fn assign_wgsl_bindings(module: &ir::Module) -> Bindings {
    let shared = assign_bindings(module);
    let mut out = Bindings::default();
    let mut taken = BTreeSet::new();
    let mut order: Vec<Handle<ir::GlobalVariable>> = shared.resources.keys().copied().collect();
    // Explicit Vulkan bindings keep their numbers first.
    order.sort_by_key(|h| module.globals[*h].binding.vk_binding.is_none());
    if let Some(pair) = shared.globals_block {
        taken.insert(pair);
        out.globals_block = Some(pair);
    }
    for h in order {
        let (set, binding) = shared.resources[&h];
        let mut b = binding;
        while !taken.insert((set, b)) {
            b += 1;
        }
        out.resources.insert(h, (set, b));
    }
    out
}
