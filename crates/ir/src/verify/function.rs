//! Checks of one function: its signature, locals, expressions, and the
//! statement tree (declarations, places, returns, `break`/`continue`).

use super::expr::{ExprContext, RootKind, Uses};
use super::{ErrorKind, Report, Scope, Site, VerifyError};
use crate::{
    Block, Expression, Function, Handle, LocalVariable, Module, Span, Statement, SwitchCase,
};

pub(super) fn check_function(
    module: &Module,
    handle: Handle<crate::Function>,
    func: &Function,
    errors: &mut Vec<VerifyError>,
) {
    let scope = Scope::Function {
        handle,
        name: func.name.clone(),
    };
    let mut report = Report::new(errors, scope);
    for (index, param) in func.params.iter().enumerate() {
        if !module.types.contains(param.ty) {
            report.push(
                Site::Param(index as u32),
                ErrorKind::BadType(param.ty),
                param.span,
            );
        }
    }
    if let Some(result) = &func.result
        && !module.types.contains(result.ty)
    {
        report.push(Site::Result, ErrorKind::BadType(result.ty), result.span);
    }
    for (local, var) in func.locals.iter() {
        if !module.types.contains(var.ty) {
            let span = func.locals.span(local);
            report.push(Site::Local(local), ErrorKind::BadType(var.ty), span);
        }
    }
    let ctx = ExprContext {
        module,
        exprs: &func.expressions,
        function: Some((handle, func)),
    };
    ctx.check_all(&mut report);
    let mut walker = BodyWalker {
        ctx: &ctx,
        report,
        uses: Uses::new(func.expressions.len()),
        declared: vec![false; func.locals.len()],
        has_result: func.result.is_some(),
    };
    walker.block(&func.body, "body", Flow::default());
}

/// Which jumps the enclosing statements allow.
#[derive(Clone, Copy, Default)]
struct Flow {
    can_break: bool,
    can_continue: bool,
}

const LOOP: Flow = Flow {
    can_break: true,
    can_continue: true,
};

struct BodyWalker<'a, 'e> {
    ctx: &'a ExprContext<'a>,
    report: Report<'e>,
    uses: Uses,
    declared: Vec<bool>,
    has_result: bool,
}

impl BodyWalker<'_, '_> {
    fn block(&mut self, block: &Block, path: &str, flow: Flow) {
        for (i, stmt) in block.stmts.iter().enumerate() {
            let span = block.spans.get(i).copied().unwrap_or(Span::UNDEFINED);
            self.stmt(stmt, &format!("{path}[{i}]"), span, flow);
        }
    }

    fn stmt(&mut self, stmt: &Statement, path: &str, span: Span, flow: Flow) {
        match stmt {
            Statement::Declare { local, init } => {
                self.declare(*local, path, span);
                if let Some(init) = init {
                    self.root(*init, RootKind::Value, path, span);
                }
            }
            Statement::Store { target, value } => {
                self.root(*target, RootKind::Value, path, span);
                self.root(*value, RootKind::Value, path, span);
                if let Some(reason) = self.ctx.place_problem(*target) {
                    let context = super::PlaceContext::Store;
                    let kind = ErrorKind::NotAPlace { context, reason };
                    self.push(path, kind, span);
                }
            }
            Statement::Expr(expr) => self.root(*expr, RootKind::Effect, path, span),
            Statement::Block(block) => self.block(block, path, flow),
            Statement::If {
                condition,
                accept,
                reject,
            } => {
                self.root(*condition, RootKind::Value, path, span);
                self.block(accept, &format!("{path}.accept"), flow);
                self.block(reject, &format!("{path}.reject"), flow);
            }
            Statement::For {
                init,
                condition,
                update,
                body,
            } => {
                // Init and update stand where the source has expressions, so
                // no jump can be written there.
                self.block(init, &format!("{path}.init"), Flow::default());
                if let Some(condition) = condition {
                    self.root(*condition, RootKind::Value, path, span);
                }
                self.block(update, &format!("{path}.update"), Flow::default());
                self.block(body, &format!("{path}.body"), LOOP);
            }
            Statement::While { condition, body } | Statement::DoWhile { body, condition } => {
                self.root(*condition, RootKind::Value, path, span);
                self.block(body, &format!("{path}.body"), LOOP);
            }
            Statement::Switch { selector, cases } => {
                self.root(*selector, RootKind::Value, path, span);
                self.switch_cases(cases, path, span, flow);
            }
            Statement::Break | Statement::Continue | Statement::Return(_) | Statement::Discard => {
                self.jump(stmt, path, span, flow);
            }
            Statement::EmitVertex { .. }
            | Statement::EndPrimitive { .. }
            | Statement::PatchBarrier => {}
        }
    }

    fn jump(&mut self, stmt: &Statement, path: &str, span: Span, flow: Flow) {
        match stmt {
            Statement::Break if !flow.can_break => {
                self.push(path, ErrorKind::BreakOutsideLoop, span);
            }
            Statement::Continue if !flow.can_continue => {
                self.push(path, ErrorKind::ContinueOutsideLoop, span);
            }
            Statement::Return(value) => {
                match (value, self.has_result) {
                    (None, true) => self.push(path, ErrorKind::ReturnValueMissing, span),
                    (Some(_), false) => self.push(path, ErrorKind::UnexpectedReturnValue, span),
                    _ => {}
                }
                if let Some(value) = value {
                    self.root(*value, RootKind::Value, path, span);
                }
            }
            _ => {}
        }
    }

    fn switch_cases(&mut self, cases: &[SwitchCase], path: &str, span: Span, flow: Flow) {
        let mut seen = Vec::new();
        for (i, case) in cases.iter().enumerate() {
            for value in &case.values {
                if seen.contains(value) {
                    self.push(path, ErrorKind::DuplicateCase(*value), span);
                } else {
                    seen.push(*value);
                }
            }
            let flow = Flow {
                can_break: true,
                can_continue: flow.can_continue,
            };
            self.block(&case.body, &format!("{path}.cases[{i}]"), flow);
        }
    }

    fn declare(&mut self, local: Handle<LocalVariable>, path: &str, span: Span) {
        match self.declared.get_mut(local.index()) {
            None => self.push(path, ErrorKind::BadLocal(local), span),
            Some(true) => self.push(path, ErrorKind::DeclaredTwice(local), span),
            Some(flag) => *flag = true,
        }
    }

    fn root(&mut self, expr: Handle<Expression>, kind: RootKind, path: &str, span: Span) {
        let at = (Site::Statement(path.to_string()), span);
        self.uses.root(self.ctx, expr, kind, at, &mut self.report);
    }

    fn push(&mut self, path: &str, kind: ErrorKind, span: Span) {
        self.report
            .push(Site::Statement(path.to_string()), kind, span);
    }
}
