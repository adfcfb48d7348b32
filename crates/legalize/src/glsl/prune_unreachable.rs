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
    let (keep_functions, keep_globals) = reachable(module, preserve_params);
    let function_map = rebuild_functions(module, &keep_functions);
    let global_map = rebuild_globals(module, &keep_globals, &function_map);
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

/// Functions and globals reachable from the entry points, to a fixpoint
/// (a global's initializer may call a function or name another global).
fn reachable(module: &ir::Module, preserve_params: bool) -> (Vec<bool>, Vec<bool>) {
    let mut functions = vec![false; module.functions.len()];
    let mut globals = vec![false; module.globals.len()];
    let mut function_stack: Vec<Handle<ir::Function>> = Vec::new();
    for ep in &module.entry_points {
        function_stack.push(ep.function);
        function_stack.extend(ep.attributes.patch_constant_func);
    }
    let mut global_stack: Vec<Handle<ir::GlobalVariable>> = Vec::new();
    if preserve_params {
        global_stack.extend(
            module
                .globals
                .iter()
                .filter(|(_, g)| g.space == ir::AddressSpace::Uniform)
                .map(|(h, _)| h),
        );
    }
    loop {
        if let Some(f) = function_stack.pop() {
            if std::mem::replace(&mut functions[f.index()], true) {
                continue;
            }
            for (_, expr) in module.functions[f].expressions.iter() {
                note_uses(expr, &mut function_stack, &mut global_stack);
            }
        } else if let Some(g) = global_stack.pop() {
            if std::mem::replace(&mut globals[g.index()], true) {
                continue;
            }
            if let Some(init) = module.globals[g].init {
                walk_tree(&module.global_expressions, init, &mut |expr| {
                    note_uses(expr, &mut function_stack, &mut global_stack)
                });
            }
        } else {
            return (functions, globals);
        }
    }
}

fn note_uses(
    expr: &ir::Expression,
    functions: &mut Vec<Handle<ir::Function>>,
    globals: &mut Vec<Handle<ir::GlobalVariable>>,
) {
    match expr {
        ir::Expression::Call { function, .. } => functions.push(*function),
        ir::Expression::Global(g) => globals.push(*g),
        _ => {}
    }
}

/// Visits every node of the tree rooted at `root`.
fn walk_tree(
    arena: &ir::ExpressionArena,
    root: Handle<ir::Expression>,
    visit: &mut impl FnMut(&ir::Expression),
) {
    let mut stack = vec![root];
    while let Some(h) = stack.pop() {
        let expr = &arena[h];
        visit(expr);
        stack.extend(expr.children());
    }
}

fn rebuild_functions(module: &mut ir::Module, keep: &[bool]) -> Vec<Option<Handle<ir::Function>>> {
    let old = std::mem::take(&mut module.functions);
    let (funcs, spans) = old.into_parts();
    let mut map = vec![None; funcs.len()];
    for (i, (func, span)) in funcs.into_iter().zip(spans).enumerate() {
        if keep[i] {
            map[i] = Some(module.functions.append(func, span));
        }
    }
    map
}

fn rebuild_globals(
    module: &mut ir::Module,
    keep: &[bool],
    function_map: &[Option<Handle<ir::Function>>],
) -> Vec<Option<Handle<ir::GlobalVariable>>> {
    let old = std::mem::take(&mut module.globals);
    let old_exprs = std::mem::take(&mut module.global_expressions);
    let (globals, spans) = old.into_parts();
    // Handles of kept globals are known before initializers are copied, so
    // an initializer can name a later global.
    let mut map = vec![None; globals.len()];
    let mut next = 0;
    for (i, kept) in keep.iter().enumerate() {
        if *kept {
            map[i] = Some(Handle::from_index(next));
            next += 1;
        }
    }
    module.globals.reserve(next);
    for (i, (mut global, span)) in globals.into_iter().zip(spans).enumerate() {
        if !keep[i] {
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
