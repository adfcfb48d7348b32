//! Whether a member function writes to its struct's fields, which decides
//! if `this` is passed `in` or `inout`. HLSL 2021 lets member functions
//! assign fields; Slang wants `[mutating]` for that. Passing `this` `inout`
//! exactly when the body assigns a field serves both.

use crate::ast::{self, ExprKind, StmtKind};

/// Whether `method` assigns (`=`, `op=`, `++`, `--`) to `this` or to a
/// field of `owner` by its bare name.
pub fn assigns_field(method: &ast::FunctionDecl, owner: &ast::StructDecl) -> bool {
    let fields: Vec<&str> = owner
        .fields
        .iter()
        .flat_map(|f| f.declarators.iter().map(|d| d.name.name.as_str()))
        .collect();
    let Some(body) = &method.body else {
        return false;
    };
    let mut stack: Vec<&ast::Stmt> = body.stmts.iter().collect();
    let mut exprs: Vec<&ast::Expr> = Vec::new();
    // Iterative walk: bodies can be deep, and this runs before any limit.
    while let Some(stmt) = stack.pop() {
        match &stmt.kind {
            StmtKind::Var(v) => exprs.extend(v.declarators.iter().filter_map(|d| d.init.as_ref())),
            StmtKind::Expr(e) => exprs.push(e),
            StmtKind::Block(b) => stack.extend(&b.stmts),
            StmtKind::If { cond, then, els }
            | StmtKind::IfLet {
                value: cond,
                then,
                els,
                ..
            } => {
                exprs.push(cond);
                stack.push(then);
                stack.extend(els.as_deref());
            }
            StmtKind::For {
                init,
                cond,
                update,
                body,
            } => {
                stack.extend(init.as_deref());
                exprs.extend(cond.as_deref().into_iter().chain(update.as_deref()));
                stack.push(body);
            }
            StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
                exprs.push(cond);
                stack.push(body);
            }
            StmtKind::Switch { selector, cases } => {
                exprs.push(selector);
                stack.extend(cases.iter().flat_map(|c| &c.body));
            }
            StmtKind::Return(Some(e)) => exprs.push(e),
            _ => {}
        }
    }
    while let Some(expr) = exprs.pop() {
        match &expr.kind {
            ExprKind::Assign { target, value, .. } => {
                if writes_field(target, &fields) {
                    return true;
                }
                exprs.push(value);
            }
            ExprKind::Unary { op, expr: inner } => {
                use ast::UnaryOp as U;
                if matches!(op, U::PreInc | U::PreDec | U::PostInc | U::PostDec)
                    && writes_field(inner, &fields)
                {
                    return true;
                }
                exprs.push(inner);
            }
            ExprKind::Binary { left, right, .. } => exprs.extend([&**left, &**right]),
            ExprKind::Ternary { cond, then, els } => exprs.extend([&**cond, &**then, &**els]),
            // `field.set(v)` on a `Conditional<T, c>` field stores to it.
            ExprKind::MethodCall { object, method, .. }
                if method.name == "set" && writes_field(object, &fields) =>
            {
                return true;
            }
            ExprKind::Call { args, .. } | ExprKind::MethodCall { args, .. } => exprs.extend(args),
            ExprKind::Cast { expr: inner, .. } => exprs.push(inner),
            ExprKind::Index { base, index } => exprs.extend([&**base, &**index]),
            ExprKind::Member { base, .. } => exprs.push(base),
            ExprKind::InitList(items) => exprs.extend(items),
            _ => {}
        }
    }
    false
}

/// Whether an assignment target's root is `this` or a bare field name.
fn writes_field(target: &ast::Expr, fields: &[&str]) -> bool {
    let mut e = target;
    loop {
        match &e.kind {
            ExprKind::Member { base, .. } | ExprKind::Index { base, .. } => e = base,
            ExprKind::Name(path) if path.len() == 1 => {
                let name = path[0].name.as_str();
                return name == "this" || fields.contains(&name);
            }
            _ => return false,
        }
    }
}
