//! Keeps only what the entry point uses: functions reachable from it and
//! the globals those functions (and the kept globals' initializers) name.
//! A module may hold several entry points and their resources; emitting
//! another stage's `groupshared` variables or fragment-only code into a
//! vertex shader would be invalid, and unused declarations would churn every
//! snapshot when a helper is added. Under `-preserve-params` every uniform
//! global (resources, constant buffers, plain uniforms) stays, used or not.

use legalis_ir as ir;
use legalis_ir::Handle;

pub fn apply(module: &mut ir::Module, preserve_params: bool) {
    let reach = reachable(module, preserve_params);
    let function_map = rebuild_functions(module, &reach);
    let global_map = rebuild_globals(module, &reach, &function_map);
    for (_, func) in module.functions.iter_mut() {
        let handles: Vec<Handle<ir::Expression>> =
            func.expressions.iter().map(|(h, _)| h).collect();
        for h in handles {
            remap_expression(func.expressions.get_mut(h), &function_map, &global_map);
        }
    }
    for ep in &mut module.entry_points {
        ep.function = function_map[ep.function.index()].unwrap_or(ep.function);
        if let Some(pcf) = ep.attributes.patch_constant_func {
            ep.attributes.patch_constant_func = function_map[pcf.index()];
        }
    }
}

/// Functions and globals reachable from the entry points and their patch
/// constant functions, to a fixpoint (a global's initializer may call a
/// function or name another global).
fn reachable(module: &ir::Module, preserve_params: bool) -> ir::Reach {
    let functions = module
        .entry_points
        .iter()
        .flat_map(|ep| std::iter::once(ep.function).chain(ep.attributes.patch_constant_func));
    let uniforms = module
        .globals
        .iter()
        .filter(|(_, g)| preserve_params && g.space == ir::AddressSpace::Uniform)
        .map(|(h, _)| h);
    ir::Reach::new(module, functions, uniforms)
}

fn rebuild_functions(
    module: &mut ir::Module,
    keep: &ir::Reach,
) -> Vec<Option<Handle<ir::Function>>> {
    let old = std::mem::take(&mut module.functions);
    let (funcs, spans) = old.into_parts();
    let mut map = vec![None; funcs.len()];
    for (i, (func, span)) in funcs.into_iter().zip(spans).enumerate() {
        if keep.has_function(Handle::from_index(i)) {
            map[i] = Some(module.functions.append(func, span));
        }
    }
    map
}

fn rebuild_globals(
    module: &mut ir::Module,
    keep: &ir::Reach,
    function_map: &[Option<Handle<ir::Function>>],
) -> Vec<Option<Handle<ir::GlobalVariable>>> {
    let old = std::mem::take(&mut module.globals);
    let old_exprs = std::mem::take(&mut module.global_expressions);
    let (globals, spans) = old.into_parts();
    // Handles of kept globals are known before initializers are copied, so
    // an initializer can name a later global.
    let mut map = vec![None; globals.len()];
    let mut next = 0;
    for (i, slot) in map.iter_mut().enumerate() {
        if keep.has_global(Handle::from_index(i)) {
            *slot = Some(Handle::from_index(next));
            next += 1;
        }
    }
    module.globals.reserve(next);
    for (i, (mut global, span)) in globals.into_iter().zip(spans).enumerate() {
        if !keep.has_global(Handle::from_index(i)) {
            continue;
        }
        global.init = global.init.map(|init| {
            copy_tree(
                &old_exprs,
                init,
                &mut module.global_expressions,
                function_map,
                &map,
            )
        });
        module.globals.append(global, span);
    }
    map
}

/// Copies a tree into another arena, remapping function and global handles.
fn copy_tree(
    from: &ir::ExpressionArena,
    root: Handle<ir::Expression>,
    to: &mut ir::ExpressionArena,
    functions: &[Option<Handle<ir::Function>>],
    globals: &[Option<Handle<ir::GlobalVariable>>],
) -> Handle<ir::Expression> {
    let mut node = from[root]
        .clone()
        .map_children(|child| copy_tree(from, child, to, functions, globals));
    remap_expression(&mut node, functions, globals);
    to.append(node, from.ty(root), from.span(root))
}

fn remap_expression(
    expr: &mut ir::Expression,
    functions: &[Option<Handle<ir::Function>>],
    globals: &[Option<Handle<ir::GlobalVariable>>],
) {
    match expr {
        ir::Expression::Call { function, .. } => {
            if let Some(Some(new)) = functions.get(function.index()) {
                *function = *new;
            }
        }
        ir::Expression::Global(g) => {
            if let Some(Some(new)) = globals.get(g.index()) {
                *g = *new;
            }
        }
        _ => {}
    }
}
