//! Entry-point `uniform` resource parameters as the globals they are bound
//! to, and helpers specialised per resource global.
//!
//! The legalizers turn a `uniform` parameter into a uniform global and pass
//! it to the entry point's body function as an argument. Most targets
//! cannot pass a resource to a function (SPIR-V images, WGSL storage
//! buffers, Metal's argument tables), so [`inline_resource_arguments`]
//! rewrites the body to read the global itself: the parameter goes, its
//! uses become the global, and the call drops the argument. A helper
//! called from several places with different globals is cloned, one copy
//! per tuple of globals (`weight_at` becomes `weight_at_weights` and
//! `weight_at_other`), as the reference specialises such calls.

use std::collections::{BTreeSet, HashMap};

use legalis_ir as ir;
use legalis_ir::{Expression, Handle, ParamDirection};

/// Where a call is: in a function's body, or in a global's initializer.
#[derive(Clone, Copy, PartialEq, Eq)]
enum At {
    Function(Handle<ir::Function>),
    Initializer,
}

/// A call of one function: where it is, its `Call` expression and the
/// arguments.
struct CallSite {
    at: At,
    call: Handle<Expression>,
    args: Vec<Handle<Expression>>,
}

/// The global behind each parameter a call binds (`None` for a parameter
/// it passes).
type Key = Vec<Option<Handle<ir::GlobalVariable>>>;

/// Rewrites every function called with resource globals as `in` arguments
/// to read those globals directly. A function called from one place drops
/// every such parameter (the body of a wrapped entry point); one called
/// from several places drops the parameters of the types the target
/// cannot pass (`passes` says which it can), in place when every call
/// passes the same globals and in one copy per tuple of globals otherwise.
/// Returns how many parameters went.
///
/// Repeats until nothing changes: once `f(g)` is rewritten, the calls `f`
/// makes with that parameter pass `g` itself (`f(b) { h(b); }`), and `h`
/// can be rewritten in turn.
///
/// Then the constant buffers and parameter blocks whose struct holds
/// resources, declared as globals or made from such parameters, are split
/// ([`ir::blocks::split_resource_blocks`]). CUDA output, whose blocks hold
/// resource handles as values, does not call this.
pub(crate) fn inline_resource_arguments(
    module: &mut ir::Module,
    passes: fn(&ir::TypeInner) -> bool,
) -> usize {
    let mut removed = 0;
    loop {
        match inline_once(module, passes) {
            0 => break,
            n => removed += n,
        }
    }
    ir::blocks::split_resource_blocks(module);
    removed
}

/// One pass of [`inline_resource_arguments`].
fn inline_once(module: &mut ir::Module, passes: fn(&ir::TypeInner) -> bool) -> usize {
    let entries: Vec<Handle<ir::Function>> =
        module.entry_points.iter().map(|e| e.function).collect();
    let mut sites: HashMap<Handle<ir::Function>, Vec<CallSite>> = HashMap::new();
    let mut note = |at, arena: &ir::ExpressionArena| {
        for (call, expr) in arena.iter() {
            if let Expression::Call { function, args } = expr {
                let args = args.clone();
                sites
                    .entry(*function)
                    .or_default()
                    .push(CallSite { at, call, args });
            }
        }
    };
    for (f, func) in module.functions.iter() {
        note(At::Function(f), &func.expressions);
    }
    note(At::Initializer, &module.global_expressions);
    let mut removed = 0;
    // Copies made, each after the function it copies.
    let mut copies: Vec<(Handle<ir::Function>, ir::Function)> = Vec::new();
    // Entry points and functions that call themselves stay as they are.
    let mut callees: Vec<_> = (sites.iter())
        .filter(|(f, calls)| {
            !entries.contains(*f) && calls.iter().all(|s| s.at != At::Function(**f))
        })
        .map(|(f, _)| *f)
        .collect();
    callees.sort_by_key(|h| h.index());
    for callee in callees {
        let calls = &sites[&callee];
        let single = calls.len() == 1;
        let keys: Vec<Key> = calls
            .iter()
            .map(|site| key(module, callee, site, single, passes))
            .collect();
        let distinct: BTreeSet<&Key> = keys.iter().filter(|k| bound(k) > 0).collect();
        if distinct.is_empty() {
            continue;
        }
        let in_place = distinct.len() == 1 && keys.iter().all(|k| bound(k) > 0);
        // The copy (or the function itself) for each tuple of globals.
        let mut targets: Vec<(Key, Handle<ir::Function>)> = Vec::new();
        for key in distinct {
            let target = if in_place {
                specialise(module.functions.get_mut(callee), key);
                callee
            } else {
                let mut copy = module.functions[callee].clone();
                for g in key.iter().flatten() {
                    copy.name.push('_');
                    copy.name.push_str(&module.globals[*g].name);
                }
                specialise(&mut copy, key);
                let handle = Handle::from_index(module.functions.len() + copies.len());
                copies.push((callee, copy));
                handle
            };
            removed += bound(key);
            targets.push((key.clone(), target));
        }
        for (site, key) in calls.iter().zip(&keys) {
            let Some((_, target)) = targets.iter().find(|(k, _)| k == key) else {
                continue;
            };
            let args = (site.args.iter().zip(key))
                .filter(|(_, g)| g.is_none())
                .map(|(a, _)| *a)
                .collect();
            let arena = match site.at {
                At::Function(f) => &mut module.functions.get_mut(f).expressions,
                At::Initializer => &mut module.global_expressions,
            };
            *arena.get_mut(site.call) = Expression::Call {
                function: *target,
                args,
            };
        }
    }
    if !copies.is_empty() {
        place_copies(module, copies);
    }
    removed
}

/// How many parameters `key` binds.
fn bound(key: &Key) -> usize {
    key.iter().flatten().count()
}

/// The globals a call of `callee` binds: each argument that is a resource
/// global passed to an `in` parameter of its type, which a call from
/// several places binds only where the target cannot pass the type.
fn key(
    module: &ir::Module,
    callee: Handle<ir::Function>,
    site: &CallSite,
    single: bool,
    passes: fn(&ir::TypeInner) -> bool,
) -> Key {
    let arena = match site.at {
        At::Function(f) => &module.functions[f].expressions,
        At::Initializer => &module.global_expressions,
    };
    let params = &module.functions[callee].params;
    (site.args.iter().zip(params))
        .map(|(a, param)| {
            let Expression::Global(g) = arena[*a] else {
                return None;
            };
            let global = module.globals.try_get(g)?;
            let fits = global.space == ir::AddressSpace::Uniform
                && module.is_resource_type(global.ty)
                && param.ty == global.ty
                && param.direction == ParamDirection::In
                && (single || !passes(&module.types[param.ty].inner));
            fits.then_some(g)
        })
        .collect()
}

/// Makes `func` read the globals `key` binds instead of those parameters,
/// which go.
fn specialise(func: &mut ir::Function, key: &Key) {
    let handles: Vec<Handle<Expression>> = func.expressions.iter().map(|(h, _)| h).collect();
    for h in handles {
        let Expression::Param(j) = func.expressions[h] else {
            continue;
        };
        let ty = func.expressions.ty(h);
        let value = match key.get(j as usize).copied().flatten() {
            Some(g) => Expression::Global(g),
            None => {
                let before = key.iter().take(j as usize).flatten().count();
                Expression::Param(j - before as u32)
            }
        };
        func.expressions.set(h, value, ty);
    }
    let mut k = 0;
    func.params.retain(|_| {
        k += 1;
        key.get(k - 1).copied().flatten().is_none()
    });
}

/// Appends `copies` so that each follows the function it copies (the
/// writers print functions in arena order, callees first): the arena is
/// rebuilt and every function handle renumbered. A copy's handle, as the
/// calls were given it, is the arena's length plus its index in `copies`.
fn place_copies(module: &mut ir::Module, copies: Vec<(Handle<ir::Function>, ir::Function)>) {
    let old_len = module.functions.len();
    let (functions, spans) = std::mem::take(&mut module.functions).into_parts();
    let mut after: Vec<Vec<(usize, ir::Function)>> = (0..old_len).map(|_| Vec::new()).collect();
    for (k, (original, copy)) in copies.into_iter().enumerate() {
        after[original.index()].push((old_len + k, copy));
    }
    let mut map = vec![Handle::from_index(0); old_len + after.iter().map(Vec::len).sum::<usize>()];
    for ((i, func), (span, copies)) in functions
        .into_iter()
        .enumerate()
        .zip(spans.into_iter().zip(after))
    {
        map[i] = module.functions.append(func, span);
        for (old, copy) in copies {
            map[old] = module.functions.append(copy, span);
        }
    }
    let renumber = |arena: &mut ir::ExpressionArena| {
        let handles: Vec<Handle<Expression>> = arena.iter().map(|(h, _)| h).collect();
        for h in handles {
            if let Expression::Call { function, .. } = arena.get_mut(h) {
                *function = map[function.index()];
            }
        }
    };
    for (_, func) in module.functions.iter_mut() {
        renumber(&mut func.expressions);
    }
    renumber(&mut module.global_expressions);
    for ep in &mut module.entry_points {
        let patch_constant = ep.attributes.patch_constant_func.as_mut();
        for f in std::iter::once(&mut ep.function).chain(patch_constant) {
            *f = map[f.index()];
        }
    }
}

/// Whether `inner` is a read-only texture or a sampler: what GLSL, SPIR-V
/// and WGSL functions take as parameters.
pub(crate) fn sampled(inner: &ir::TypeInner) -> bool {
    matches!(
        inner,
        ir::TypeInner::Texture(ir::Texture {
            access: ir::ResourceAccess::Read,
            ..
        }) | ir::TypeInner::Sampler { .. }
    )
}
