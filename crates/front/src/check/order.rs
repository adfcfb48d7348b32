//! Callee-before-caller ordering of functions, with the call graph in
//! `petgraph`: recursion (which HLSL forbids) is reported, calls of
//! functions that were declared but never defined are reported, and the
//! function arena is rebuilt in a deterministic post-order.

use legalis_ir as ir;
use legalis_ir::Handle;
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::DfsPostOrder;

use super::Checker;
use crate::codes;

impl Checker<'_> {
    pub fn order_functions(&mut self) {
        let n = self.funcs.len();
        let mut graph: DiGraph<usize, ()> = DiGraph::with_capacity(n, n);
        let nodes: Vec<NodeIndex> = (0..n).map(|f| graph.add_node(f)).collect();
        for caller in 0..n {
            let edges = self.call_edges[caller].clone();
            for (callee, span) in edges {
                if self.bodies[callee].is_none() {
                    let name = self.funcs[callee].name.clone();
                    self.error(
                        codes::UNDEFINED_FUNCTION_BODY,
                        format!("function `{name}` is declared but never defined"),
                        span,
                    );
                    continue;
                }
                graph.update_edge(nodes[caller], nodes[callee], ());
            }
        }
        for scc in petgraph::algo::tarjan_scc(&graph) {
            let recursive = scc.len() > 1 || graph.contains_edge(scc[0], scc[0]);
            if recursive {
                let mut names: Vec<(usize, String)> = scc
                    .iter()
                    .map(|&node| (graph[node], self.funcs[graph[node]].name.clone()))
                    .collect();
                names.sort();
                let first = names[0].0;
                let list: Vec<String> = names
                    .into_iter()
                    .map(|(_, name)| format!("`{name}`"))
                    .collect();
                self.error(
                    codes::RECURSION,
                    format!(
                        "recursion is not allowed in shaders: {} call each other",
                        list.join(", ")
                    ),
                    self.funcs[first].span,
                );
            }
        }
        if self.failed {
            return;
        }
        // Post-order from each function in source order: callees first.
        let mut order = Vec::with_capacity(n);
        let mut placed = vec![false; n];
        let mut dfs = DfsPostOrder::empty(&graph);
        for &start in &nodes {
            if placed[graph[start]] {
                continue;
            }
            dfs.move_to(start);
            while let Some(node) = dfs.next(&graph) {
                let f = graph[node];
                if !placed[f] {
                    placed[f] = true;
                    order.push(f);
                }
            }
        }
        self.rebuild_function_arena(&order);
    }

    /// Moves lowered bodies into the module in `order` and rewrites every
    /// function handle (calls, entry points, patch-constant functions).
    fn rebuild_function_arena(&mut self, order: &[usize]) {
        let mut new_handle: Vec<Option<Handle<ir::Function>>> = vec![None; self.funcs.len()];
        for &f in order {
            let Some(func) = self.bodies[f].take() else {
                continue;
            };
            let span = func.span;
            new_handle[f] = Some(self.module.functions.append(func, span));
        }
        let remap = |h: Handle<ir::Function>| new_handle[h.index()].unwrap_or(h);
        for (_, func) in self.module.functions.iter_mut() {
            let handles: Vec<Handle<ir::Expression>> =
                func.expressions.iter().map(|(h, _)| h).collect();
            for h in handles {
                if let ir::Expression::Call { function, .. } = func.expressions.get_mut(h) {
                    *function = remap(*function);
                }
            }
        }
        let handles: Vec<Handle<ir::Expression>> = self
            .module
            .global_expressions
            .iter()
            .map(|(h, _)| h)
            .collect();
        for h in handles {
            if let ir::Expression::Call { function, .. } = self.module.global_expressions.get_mut(h)
            {
                *function = remap(*function);
            }
        }
        for ep in &mut self.module.entry_points {
            ep.function = remap(ep.function);
            ep.attributes.patch_constant_func = ep.attributes.patch_constant_func.map(remap);
        }
    }
}
