//! The binding rule of each target, filling in [`Plan`] places and reasons.

use std::collections::{BTreeSet, HashSet};

use legalis_ir::{RegisterClass, ShaderStage};

use crate::{Kind, MetalTable, Options, Place, Plan, class_letter};

/// GLSL and SPIR-V: `[[vk::binding(b, s)]]` wins; else `register(xN,
/// spaceS)` gives set S, binding N plus the `-fvk-x-shift` of its class
/// and space (all classes share one binding space, so unshifted `t0` and
/// `s0` collide); else the next binding of set 0 that nothing explicit
/// claims, in declaration order, `_Globals` first (or where
/// `-fvk-bind-globals` puts it); the parts of each `ParameterBlock` in a
/// descriptor set of their own (`parameter_blocks`). It numbers every
/// resource of the module
/// it is given (the GLSL legalizer's output keeps only what the entry
/// point reaches).
pub fn vulkan(plan: &mut Plan, options: &Options) {
    let mut taken = BTreeSet::new();
    for r in &mut plan.resources {
        if r.descriptor_heap.is_some() {
            continue;
        }
        let explicit = match (r.vk_binding, r.register) {
            (Some((binding, set)), _) => {
                Some((set, binding, format!("vk::binding({binding}, {set})")))
            }
            (None, Some(reg)) if r.kind != Kind::Globals => {
                let letter = class_letter(reg.class);
                let mut reason = format!("register {letter}{} space{}", reg.index, reg.space);
                let mut binding = reg.index;
                if let Some(shift) = options.shift(reg.class, reg.space) {
                    binding = binding.saturating_add(shift.amount);
                    reason.push_str(&format!(" + {letter}-shift {}", shift.amount));
                }
                Some((reg.space, binding, reason))
            }
            _ => None,
        };
        if let Some((set, binding, reason)) = explicit {
            r.place = Place::Descriptor { set, binding };
            r.reason = reason;
            taken.insert((set, binding));
        }
    }
    if let Some((binding, set)) = options.bind_globals
        && let Some(r) = plan.resources.iter_mut().find(|r| r.kind == Kind::Globals)
    {
        r.place = Place::Descriptor { set, binding };
        r.reason = format!("-fvk-bind-globals {binding} {set}");
        taken.insert((set, binding));
    }
    let mut next = 0;
    for r in &mut plan.resources {
        if r.place != Place::None || r.descriptor_heap.is_some() || r.parameter_block.is_some() {
            continue;
        }
        while !taken.insert((0, next)) {
            next += 1;
        }
        r.place = Place::Descriptor {
            set: 0,
            binding: next,
        };
        r.reason = "automatic: next free binding in set 0".into();
    }
    parameter_blocks(plan, &mut taken);
    descriptor_heaps(plan);
}

/// Each `ParameterBlock`, in declaration order, takes the next descriptor
/// set that nothing else uses (after set 0 when other resources use it,
/// as the reference numbers them): its data buffer and the resources
/// split out of it take bindings from 0 there in declaration order.
fn parameter_blocks(plan: &mut Plan, taken: &mut BTreeSet<(u32, u32)>) {
    let mut blocks: Vec<u32> = plan
        .resources
        .iter()
        .filter_map(|r| r.parameter_block)
        .collect();
    blocks.sort_unstable();
    blocks.dedup();
    let mut used_sets: BTreeSet<u32> = taken.iter().map(|&(set, _)| set).collect();
    for block in blocks {
        let Some(set) = (0..=u32::MAX).find(|s| !used_sets.contains(s)) else {
            return;
        };
        used_sets.insert(set);
        let mut next = 0;
        for r in &mut plan.resources {
            if r.parameter_block != Some(block) || r.place != Place::None {
                continue;
            }
            while !taken.insert((set, next)) {
                next += 1;
            }
            r.place = Place::Descriptor { set, binding: next };
            r.reason = format!(
                "parameter block {block}: its own set {set} (the first set no earlier \
                 resource uses), next free binding there"
            );
        }
    }
}

/// The descriptor heaps of `DescriptorHandle<T>`, as the reference places
/// them by default: in the first descriptor set no other resource of the
/// module uses, at the binding of their kind (samplers 0, combined
/// texture-samplers 1, other textures and buffers 2).
fn descriptor_heaps(plan: &mut Plan) {
    let sets: BTreeSet<u32> = plan
        .resources
        .iter()
        .filter_map(|r| match r.place {
            Place::Descriptor { set, .. } => Some(set),
            _ => None,
        })
        .collect();
    let Some(set) = (0..=u32::MAX).find(|s| !sets.contains(s)) else {
        return;
    };
    for r in &mut plan.resources {
        if let Some(binding) = r.descriptor_heap {
            r.place = Place::Descriptor { set, binding };
            r.reason = format!(
                "descriptor heap: binding {binding} of set {set}, the first set no other \
                 resource uses"
            );
        }
    }
}

/// WGSL: the Vulkan rule, then uniqueness. WebGPU requires every
/// `@group/@binding` pair of a module to be distinct, where D3D registers
/// of different classes share numbers; a resource whose pair an earlier
/// one already holds (`_Globals` first, then `[[vk::binding]]`s, then the
/// rest in declaration order) moves to the next free binding of its group.
pub fn wgsl(plan: &mut Plan, options: &Options) {
    vulkan(plan, options);
    let mut taken = BTreeSet::new();
    let mut order: Vec<usize> = (0..plan.resources.len()).collect();
    order.sort_by_key(|&i| {
        let r = &plan.resources[i];
        (r.kind != Kind::Globals, r.vk_binding.is_none())
    });
    let mut holder: std::collections::HashMap<(u32, u32), String> = Default::default();
    for i in order {
        let r = &mut plan.resources[i];
        let Place::Descriptor { set, binding } = r.place else {
            continue;
        };
        let mut b = binding;
        while !taken.insert((set, b)) {
            b += 1;
        }
        if b != binding {
            r.reason = format!(
                "{}; @group({set}) @binding({binding}) is `{}`'s: next free binding in the group",
                r.reason,
                holder[&(set, binding)]
            );
            r.place = Place::Descriptor { set, binding: b };
        }
        holder.insert((set, b), r.name.clone());
    }
}

/// The Metal argument table of a kind; `None` where Metal output has none
/// (the writer refuses those with its own diagnostic).
fn metal_table(kind: Kind) -> Option<MetalTable> {
    Some(match kind {
        // Typed buffers are Metal `texture_buffer`s.
        Kind::Texture | Kind::RwTexture | Kind::TypedBuffer | Kind::RwTypedBuffer => {
            MetalTable::Texture
        }
        Kind::Sampler | Kind::SamplerComparison => MetalTable::Sampler,
        Kind::ConstantBuffer
        | Kind::TextureBuffer
        | Kind::StructuredBuffer
        | Kind::RwStructuredBuffer
        | Kind::ByteAddressBuffer
        | Kind::RwByteAddressBuffer
        | Kind::Globals => MetalTable::Buffer,
        Kind::AppendStructuredBuffer
        | Kind::ConsumeStructuredBuffer
        | Kind::AccelerationStructure
        | Kind::SubpassInput => return None,
    })
}

/// Metal: only what the entry point reaches is in the output, each in the
/// argument table of its kind. A register whose class fits the table
/// (`b`, `t`, `u` for buffers; `t`, `u` for textures; `s` for samplers)
/// keeps its number when no earlier resource holds it; `_Globals` takes the
/// first free buffer index, then the rest take the next free index of
/// their table in declaration order. Arrays of resources have no place
/// (the writer refuses them).
pub fn metal(plan: &mut Plan) {
    let mut taken: HashSet<(MetalTable, u32)> = HashSet::new();
    let mut implicit = Vec::new();
    for (i, r) in plan.resources.iter_mut().enumerate() {
        if !r.used {
            r.reason = "not used by the entry point: not in the output".into();
            continue;
        }
        let Some(table) = metal_table(r.kind) else {
            r.reason = match r.kind {
                Kind::SubpassInput => {
                    "a [[color(n)]] input of the fragment function (framebuffer fetch), \
                     outside the argument tables"
                        .into()
                }
                _ => format!("Metal output has no argument table for a {}", r.kind.name()),
            };
            continue;
        };
        if r.count != crate::Count::One {
            r.reason = "Metal output has no arrays of resources".into();
            continue;
        }
        let fits = |class| {
            use RegisterClass as R;
            matches!(
                (table, class),
                (MetalTable::Buffer, R::B | R::T | R::U)
                    | (MetalTable::Texture, R::T | R::U)
                    | (MetalTable::Sampler, R::S)
            )
        };
        match r.register.filter(|reg| fits(reg.class)) {
            Some(reg) if taken.insert((table, reg.index)) => {
                r.place = Place::Metal {
                    table,
                    index: reg.index,
                };
                r.reason = format!(
                    "register {}{}: [[{}(n)]] keeps the register number",
                    class_letter(reg.class),
                    reg.index,
                    table.attribute()
                );
            }
            _ => implicit.push((i, table)),
        }
    }
    // `_Globals` is first in the list, so it takes the first free buffer.
    for (i, table) in implicit {
        let mut n = 0;
        while !taken.insert((table, n)) {
            n += 1;
        }
        let r = &mut plan.resources[i];
        r.place = Place::Metal { table, index: n };
        r.reason = format!("automatic: next free [[{}(n)]] index", table.attribute());
    }
}

/// CUDA: the resources the entry point reaches in declaration order, then
/// the `Globals` block of plain uniforms: a kernel's parameters, or an
/// OptiX program's `LaunchParams` members.
pub fn cuda(plan: &mut Plan) {
    let optix = matches!(
        plan.stage,
        ShaderStage::RayGeneration
            | ShaderStage::Intersection
            | ShaderStage::AnyHit
            | ShaderStage::ClosestHit
            | ShaderStage::Miss
            | ShaderStage::Callable
    );
    let mut order: Vec<usize> = (0..plan.resources.len())
        .filter(|&i| plan.resources[i].kind != Kind::Globals)
        .collect();
    order.extend((0..plan.resources.len()).filter(|&i| plan.resources[i].kind == Kind::Globals));
    let mut n = 0;
    for i in order {
        let r = &mut plan.resources[i];
        if !r.used {
            r.reason = "not used by the entry point: not in the output".into();
            continue;
        }
        let what = if r.kind == Kind::Globals {
            "the plain uniforms' Globals block, after the resources"
        } else {
            "resources the entry point uses, in declaration order"
        };
        if optix {
            r.place = Place::LaunchParams(n);
        } else {
            r.place = Place::KernelParameter(n);
        }
        r.reason = what.into();
        n += 1;
    }
}
