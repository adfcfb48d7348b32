//! Structural helpers every pass needs: an expression's children, a copy
//! of an expression with its children replaced, and the blocks a statement
//! contains. Passes walk and rewrite through these so that adding an
//! expression or statement kind means changing one place.

use crate::{Block, Expression, ExpressionArena, Function, Handle, Statement};

impl Expression {
    /// The operands of this expression, in evaluation order.
    pub fn children(&self) -> Vec<Handle<Expression>> {
        use Expression as E;
        match self {
            E::Literal(_) | E::Global(_) | E::Local(_) | E::Param(_) => Vec::new(),
            E::Member { base, .. } | E::Swizzle { base, .. } => vec![*base],
            E::Index { base, index } => vec![*base, *index],
            E::Deref { pointer, index } => std::iter::once(*pointer).chain(*index).collect(),
            E::Unary { expr, .. } | E::Convert { expr } => vec![*expr],
            E::Binary { left, right, .. } => vec![*left, *right],
            E::Select {
                condition,
                accept,
                reject,
            } => vec![*condition, *accept, *reject],
            E::Construct { components } => components.clone(),
            E::Call { args, .. } | E::Intrinsic { args, .. } => args.clone(),
            E::Assign { target, value } => vec![*target, *value],
            E::IncDec { target, .. } => vec![*target],
        }
    }

    /// The same expression with each operand replaced by `f(operand)`,
    /// called in evaluation order.
    pub fn map_children(
        self,
        mut f: impl FnMut(Handle<Expression>) -> Handle<Expression>,
    ) -> Expression {
        use Expression as E;
        match self {
            leaf @ (E::Literal(_) | E::Global(_) | E::Local(_) | E::Param(_)) => leaf,
            E::Member { base, index } => E::Member {
                base: f(base),
                index,
            },
            E::Swizzle { base, components } => E::Swizzle {
                base: f(base),
                components,
            },
            E::Index { base, index } => {
                let base = f(base);
                E::Index {
                    base,
                    index: f(index),
                }
            }
            E::Deref { pointer, index } => {
                let pointer = f(pointer);
                E::Deref {
                    pointer,
                    index: index.map(f),
                }
            }
            E::Unary { op, expr } => E::Unary { op, expr: f(expr) },
            E::Convert { expr } => E::Convert { expr: f(expr) },
            E::Binary { op, left, right } => {
                let left = f(left);
                E::Binary {
                    op,
                    left,
                    right: f(right),
                }
            }
            E::Select {
                condition,
                accept,
                reject,
            } => {
                let condition = f(condition);
                let accept = f(accept);
                E::Select {
                    condition,
                    accept,
                    reject: f(reject),
                }
            }
            E::Construct { components } => E::Construct {
                components: components.into_iter().map(f).collect(),
            },
            E::Call { function, args } => E::Call {
                function,
                args: args.into_iter().map(f).collect(),
            },
            E::Intrinsic { fun, args } => E::Intrinsic {
                fun,
                args: args.into_iter().map(f).collect(),
            },
            E::Assign { target, value } => {
                let target = f(target);
                E::Assign {
                    target,
                    value: f(value),
                }
            }
            E::IncDec { op, target } => E::IncDec {
                op,
                target: f(target),
            },
        }
    }
}

impl Statement {
    /// The blocks nested directly in this statement.
    pub fn blocks(&self) -> Vec<&Block> {
        match self {
            Statement::Block(b) => vec![b],
            Statement::If { accept, reject, .. } => vec![accept, reject],
            Statement::For {
                init, update, body, ..
            } => vec![init, update, body],
            Statement::While { body, .. } | Statement::DoWhile { body, .. } => vec![body],
            Statement::Switch { cases, .. } => cases.iter().map(|c| &c.body).collect(),
            _ => Vec::new(),
        }
    }

    /// The blocks nested directly in this statement, mutably.
    pub fn blocks_mut(&mut self) -> Vec<&mut Block> {
        match self {
            Statement::Block(b) => vec![b],
            Statement::If { accept, reject, .. } => vec![accept, reject],
            Statement::For {
                init, update, body, ..
            } => vec![init, update, body],
            Statement::While { body, .. } | Statement::DoWhile { body, .. } => vec![body],
            Statement::Switch { cases, .. } => cases.iter_mut().map(|c| &mut c.body).collect(),
            _ => Vec::new(),
        }
    }

    /// The expression roots this statement holds directly (not those of
    /// nested blocks), mutably.
    pub fn exprs_mut(&mut self) -> Vec<&mut Handle<Expression>> {
        match self {
            Statement::Declare { init, .. } => init.iter_mut().collect(),
            Statement::Store { target, value } => vec![target, value],
            Statement::Expr(e) => vec![e],
            Statement::If { condition, .. }
            | Statement::While { condition, .. }
            | Statement::DoWhile { condition, .. } => vec![condition],
            Statement::For { condition, .. } => condition.iter_mut().collect(),
            Statement::Switch { selector, .. } => vec![selector],
            Statement::Return(value) => value.iter_mut().collect(),
            Statement::Printf { args, .. } => args.iter_mut().collect(),
            Statement::Block(_)
            | Statement::Break
            | Statement::Continue
            | Statement::Discard
            | Statement::EmitVertex { .. }
            | Statement::EndPrimitive { .. }
            | Statement::PatchBarrier => Vec::new(),
        }
    }
}

impl Function {
    /// Rebuilds the expression arena from the trees the body reaches, in
    /// statement order, dropping expressions nothing uses any more, and
    /// removes parameter `removed` if given: its remaining uses (there
    /// must be none among the reached trees) are an error, later
    /// parameters are renumbered. Returns `false`, leaving the function
    /// unchanged, if a reached tree still uses the removed parameter.
    pub fn compact(&mut self, removed: Option<u32>) -> bool {
        let mut out = ExpressionArena::default();
        let mut body = self.body.clone();
        let mut ok = true;
        copy_block(&self.expressions, &mut out, &mut body, removed, &mut ok);
        if !ok {
            return false;
        }
        if let Some(index) = removed {
            self.params.remove(index as usize);
        }
        self.expressions = out;
        self.body = body;
        true
    }
}

fn copy_block(
    from: &ExpressionArena,
    to: &mut ExpressionArena,
    block: &mut Block,
    removed: Option<u32>,
    ok: &mut bool,
) {
    for stmt in &mut block.stmts {
        for root in stmt.exprs_mut() {
            *root = copy_tree(from, to, *root, removed, ok);
        }
        for inner in stmt.blocks_mut() {
            copy_block(from, to, inner, removed, ok);
        }
    }
}

fn copy_tree(
    from: &ExpressionArena,
    to: &mut ExpressionArena,
    expr: Handle<Expression>,
    removed: Option<u32>,
    ok: &mut bool,
) -> Handle<Expression> {
    let mut copy = from[expr]
        .clone()
        .map_children(|child| copy_tree(from, to, child, removed, ok));
    if let (Expression::Param(index), Some(r)) = (&mut copy, removed) {
        if *index == r {
            *ok = false;
        } else if *index > r {
            *index -= 1;
        }
    }
    to.append(copy, from.ty(expr), from.span(expr))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn map_children_visits_operands_in_order() {
        let h = |i| Handle::<Expression>::from_index(i);
        let e = Expression::Select {
            condition: h(0),
            accept: h(1),
            reject: h(2),
        };
        assert_eq!(e.children(), [h(0), h(1), h(2)]);
        let mut seen = Vec::new();
        let mapped = e.map_children(|c| {
            seen.push(c);
            h(c.index() + 10)
        });
        assert_eq!(seen, [h(0), h(1), h(2)]);
        assert_eq!(mapped.children(), [h(10), h(11), h(12)]);
        let block = Block::default();
        let stmt = Statement::If {
            condition: h(0),
            accept: Box::new(block.clone()),
            reject: Box::new(block),
        };
        assert_eq!(stmt.blocks().len(), 2);
    }
}
