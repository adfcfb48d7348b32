//! Slang `constexpr` parameters, lowered statically.
//!
//! `float3 f(uint2 p, constexpr int2 offset)` takes, for `offset`, only an
//! argument that is a compile-time constant (`E30012` otherwise, at the
//! argument). Once every body is lowered, each call of such a function is
//! redirected to a copy specialised for its constant arguments: the
//! parameter is gone and each use of it in the body is the constant
//! itself, so what needs an immediate there (a texel offset) has one. A
//! function that passes its own `constexpr` parameter on to another is
//! specialised first, and its copies then pass constants. The function
//! as written (the template) is left out of the module.

use legalis_ir as ir;
use legalis_ir::{FastHashMap, Handle, Span};

use super::Checker;
use crate::codes;

impl Checker<'_> {
    /// Reports an argument of a `constexpr` parameter that is not a
    /// compile-time constant; `expr` is the lowered, converted argument.
    pub(super) fn require_constexpr_arg(&mut self, expr: Handle<ir::Expression>, span: Span) {
        let Some(ctx) = &self.ctx else {
            return;
        };
        if self.exprs_ref().ty(expr) == Some(self.error_ty) {
            return;
        }
        let passes_own = |i: u32| ctx.constexpr_params.contains(&i);
        if !const_tree(&ctx.func.expressions, &self.module, expr, &passes_own) {
            self.error(
                codes::NOT_CONSTANT,
                "the argument of a `constexpr` parameter must be a compile-time constant",
                span,
            );
        }
    }

    /// Redirects every call of a function with `constexpr` parameters to
    /// its specialisation for the call's constants, and drops the
    /// templates' bodies.
    pub(super) fn specialise_constexpr(&mut self) {
        let templates: Vec<usize> = (0..self.funcs.len())
            .filter(|&f| self.funcs[f].params.iter().any(|p| p.constexpr))
            .collect();
        if templates.is_empty() {
            return;
        }
        let entry_functions: Vec<usize> = self
            .module
            .entry_points
            .iter()
            .map(|ep| ep.function.index())
            .collect();
        let mut instances: FastHashMap<(usize, String), usize> = FastHashMap::default();
        let mut work: Vec<usize> = (0..self.funcs.len())
            .filter(|f| !templates.contains(f) || entry_functions.contains(f))
            .collect();
        while let Some(caller) = work.pop() {
            let Some(body) = &self.bodies[caller] else {
                continue;
            };
            // The calls to redirect: (call, callee, constant argument keys).
            let mut calls = Vec::new();
            for (h, e) in body.expressions.iter() {
                let ir::Expression::Call { function, args } = e else {
                    continue;
                };
                let callee = function.index();
                if !templates.contains(&callee) {
                    continue;
                }
                let params = &self.funcs[callee].params;
                let mut key = String::new();
                for (p, &a) in params.iter().zip(args) {
                    if p.constexpr {
                        tree_key(&body.expressions, a, &mut key);
                        key.push(';');
                    }
                }
                calls.push((h, callee, key));
            }
            for (h, callee, key) in calls {
                let instance = match instances.get(&(callee, key.clone())) {
                    Some(&i) => i,
                    None => {
                        let Some(i) = self.constexpr_instance(caller, h, callee) else {
                            continue;
                        };
                        instances.insert((callee, key), i);
                        work.push(i);
                        i
                    }
                };
                let params = self.funcs[callee].params.clone();
                let Some(body) = self.bodies[caller].as_mut() else {
                    continue;
                };
                if let ir::Expression::Call { function, args } = body.expressions.get_mut(h) {
                    *function = Handle::from_index(instance);
                    let mut kept = params.iter().map(|p| !p.constexpr);
                    args.retain(|_| kept.next().unwrap_or(true));
                }
                for edge in &mut self.call_edges[caller] {
                    if edge.0 == callee {
                        edge.0 = instance;
                    }
                }
                if !self.call_edges[caller].iter().any(|e| e.0 == instance) {
                    let span = self.bodies[caller]
                        .as_ref()
                        .map_or(Span::UNDEFINED, |b| b.expressions.span(h));
                    self.call_edges[caller].push((instance, span));
                }
            }
        }
        for f in templates {
            if !entry_functions.contains(&f) {
                self.bodies[f] = None;
                self.call_edges[f].clear();
            }
        }
    }

    /// A copy of `callee` specialised for the constant arguments of call
    /// `call` in `caller`'s body: a new function index.
    fn constexpr_instance(
        &mut self,
        caller: usize,
        call: Handle<ir::Expression>,
        callee: usize,
    ) -> Option<usize> {
        let mut func = self.bodies[callee].clone()?;
        let caller_body = self.bodies[caller].as_ref()?;
        let ir::Expression::Call { args, .. } = &caller_body.expressions[call] else {
            return None;
        };
        let params = &self.funcs[callee].params;
        // Each parameter's new index, or the constant that replaces it.
        let mut new_index: Vec<Option<u32>> = Vec::with_capacity(params.len());
        let mut next = 0;
        for p in params {
            if p.constexpr {
                new_index.push(None);
            } else {
                new_index.push(Some(next));
                next += 1;
            }
        }
        let uses: Vec<(Handle<ir::Expression>, u32)> = func
            .expressions
            .iter()
            .filter_map(|(h, e)| match e {
                ir::Expression::Param(i) => Some((h, *i)),
                _ => None,
            })
            .collect();
        for (h, i) in uses {
            match new_index.get(i as usize) {
                Some(Some(n)) => *func.expressions.get_mut(h) = ir::Expression::Param(*n),
                Some(None) => {
                    let &arg = args.get(i as usize)?;
                    let ty = func.expressions.ty(h);
                    let value = copy_tree(
                        &self.module,
                        &caller_body.expressions,
                        arg,
                        &mut func.expressions,
                    );
                    func.expressions.set(h, value, ty);
                }
                None => {}
            }
        }
        let mut kept = params.iter().map(|p| !p.constexpr);
        func.params.retain(|_| kept.next().unwrap_or(true));
        let mut info = self.funcs[callee].clone();
        info.params.retain(|p| !p.constexpr);
        let index = self.funcs.len();
        self.funcs.push(info);
        self.bodies.push(Some(func));
        let edges = self.call_edges[callee].clone();
        self.call_edges.push(edges);
        Some(index)
    }
}

/// Whether `e` is a compile-time constant: literals, constant globals,
/// and constructors, conversions and operators of them; `own` says which
/// parameters are the enclosing function's `constexpr` ones (constants
/// once it is specialised).
fn const_tree(
    exprs: &ir::ExpressionArena,
    module: &ir::Module,
    e: Handle<ir::Expression>,
    own: &dyn Fn(u32) -> bool,
) -> bool {
    use ir::Expression as E;
    match &exprs[e] {
        E::Literal(_) => true,
        E::Global(g) => module.globals[*g].space == ir::AddressSpace::Constant,
        E::Param(i) => own(*i),
        E::Convert { .. }
        | E::Unary { .. }
        | E::Binary { .. }
        | E::Construct { .. }
        | E::Swizzle { .. }
        | E::Select { .. } => exprs[e]
            .children()
            .into_iter()
            .all(|c| const_tree(exprs, module, c, own)),
        _ => false,
    }
}

/// A text that tells constant trees apart, for the specialisation key.
fn tree_key(exprs: &ir::ExpressionArena, e: Handle<ir::Expression>, out: &mut String) {
    use std::fmt::Write;
    let node = &exprs[e];
    let ty = exprs.ty(e).map(|t| t.index());
    match node {
        ir::Expression::Literal(l) => {
            let _ = write!(out, "{l:?}:{ty:?}");
        }
        ir::Expression::Global(g) => {
            let _ = write!(out, "g{}", g.index());
        }
        other => {
            // The variant and its non-operand fields, then the operands.
            let text = format!(
                "{:?}",
                other.clone().map_children(|_| Handle::from_index(0))
            );
            let _ = write!(out, "{text}:{ty:?}(");
            for c in node.children() {
                tree_key(exprs, c, out);
                out.push(',');
            }
            out.push(')');
        }
    }
}

/// Copies the constant tree `e` of `from` into `to`: the root expression
/// (its operands appended to `to`), for the caller to place. A constant
/// global is copied as its initializer, so the copy is an immediate.
fn copy_tree(
    module: &ir::Module,
    from: &ir::ExpressionArena,
    e: Handle<ir::Expression>,
    to: &mut ir::ExpressionArena,
) -> ir::Expression {
    if let ir::Expression::Global(g) = from[e]
        && let global = &module.globals[g]
        && global.space == ir::AddressSpace::Constant
        && let Some(init) = global.init
        && module.global_expressions.ty(init) == Some(global.ty)
    {
        return copy_tree(module, &module.global_expressions, init, to);
    }
    from[e].clone().map_children(|c| {
        let value = copy_tree(module, from, c, to);
        to.append(value, from.ty(c), from.span(c))
    })
}
