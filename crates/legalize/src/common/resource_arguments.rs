//! Entry-point `uniform` resource parameters as the globals they are bound
//! to.
//!
//! The legalizers turn a `uniform` parameter into a uniform global and pass
//! it to the entry point's body function as an argument. Most targets
//! cannot pass a resource to a function (SPIR-V images, WGSL storage
//! buffers, Metal's argument tables), so [`inline_resource_arguments`]
//! rewrites the body to read the global itself: the parameter goes, its
//! uses become the global, and the call drops the argument.

use std::collections::{HashMap, HashSet};

use legalis_ir as ir;
use legalis_ir::{Expression, Handle, ParamDirection};

/// A call: the calling function, its `Call` expression and the arguments.
type CallSite = (
    Handle<ir::Function>,
    Handle<Expression>,
    Vec<Handle<Expression>>,
);

/// Rewrites every function called from exactly one place with a resource
/// global as an `in` argument (the body of a wrapped entry point) to read
/// that global directly. Returns how many parameters went.
///
/// Repeats until nothing changes: once `f(g)` is rewritten, the calls `f`
/// makes with that parameter pass `g` itself (`f(b) { h(b); }`), and `h`
/// can be rewritten in turn.
///
/// Then the constant buffers and parameter blocks whose struct holds
/// resources, declared as globals or made from such parameters, are split
/// ([`ir::blocks::split_resource_blocks`]). CUDA output, whose blocks hold
/// resource handles as values, does not call this.
pub(crate) fn inline_resource_arguments(module: &mut ir::Module) -> usize {
    let mut removed = 0;
    loop {
        match inline_once(module) {
            0 => break,
            n => removed += n,
        }
    }
    ir::blocks::split_resource_blocks(module);
    removed
}

/// One pass of [`inline_resource_arguments`].
fn inline_once(module: &mut ir::Module) -> usize {
    let entries: Vec<Handle<ir::Function>> =
        module.entry_points.iter().map(|e| e.function).collect();
    let mut sites: HashMap<Handle<ir::Function>, Vec<CallSite>> = HashMap::new();
    for (f, func) in module.functions.iter() {
        for (e, expr) in func.expressions.iter() {
            if let Expression::Call { function, args } = expr {
                sites
                    .entry(*function)
                    .or_default()
                    .push((f, e, args.clone()));
            }
        }
    }
    // A function global initializers call keeps its parameters.
    let pinned: HashSet<Handle<ir::Function>> = module
        .global_expressions
        .iter()
        .filter_map(|(_, expr)| match expr {
            Expression::Call { function, .. } => Some(*function),
            _ => None,
        })
        .collect();
    let mut removed = 0;
    let mut callees: Vec<_> = sites.keys().copied().collect();
    callees.sort_by_key(|h| h.index());
    for callee in callees {
        let [(caller, call, ref args)] = sites[&callee][..] else {
            continue;
        };
        if caller == callee || entries.contains(&callee) || pinned.contains(&callee) {
            continue;
        }
        let target = &module.functions[callee];
        let bound: HashMap<u32, Handle<ir::GlobalVariable>> = args
            .iter()
            .enumerate()
            .filter_map(|(k, a)| {
                let Expression::Global(g) = module.functions[caller].expressions[*a] else {
                    return None;
                };
                let param = target.params.get(k)?;
                let global = module.globals.try_get(g)?;
                let fits = is_resource(module, global)
                    && param.ty == global.ty
                    && param.direction == ParamDirection::In;
                fits.then_some((k as u32, g))
            })
            .collect();
        if bound.is_empty() {
            continue;
        }
        let func = module.functions.get_mut(callee);
        let handles: Vec<Handle<Expression>> = func.expressions.iter().map(|(h, _)| h).collect();
        for h in handles {
            let Expression::Param(j) = func.expressions[h] else {
                continue;
            };
            let ty = func.expressions.ty(h);
            let value = match bound.get(&j) {
                Some(g) => Expression::Global(*g),
                None => Expression::Param(j - bound.keys().filter(|k| **k < j).count() as u32),
            };
            func.expressions.set(h, value, ty);
        }
        let unbound = |k: &usize| !bound.contains_key(&(*k as u32));
        let mut k = 0;
        func.params.retain(|_| {
            k += 1;
            unbound(&(k - 1))
        });
        let kept = (0..args.len()).filter(unbound).map(|k| args[k]).collect();
        *module.functions.get_mut(caller).expressions.get_mut(call) = Expression::Call {
            function: callee,
            args: kept,
        };
        removed += bound.len();
    }
    removed
}

/// Whether `g` is a resource global (a uniform whose type under any arrays
/// is a resource), as `legalis_bind::is_resource` decides it.
fn is_resource(module: &ir::Module, g: &ir::GlobalVariable) -> bool {
    let mut ty = g.ty;
    while let ir::TypeInner::Array { base, .. } = module.types[ty].inner {
        ty = base;
    }
    g.space == ir::AddressSpace::Uniform && module.types[ty].inner.is_resource()
}
