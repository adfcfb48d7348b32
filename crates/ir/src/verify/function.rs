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
    walker.block(&func.body, &StmtPath::Body, Flow::default());
}

/// Where a statement is, as `body[3].accept[0]`: a chain on the walker's
/// stack, written out only when an error names it.
enum StmtPath<'p> {
    Body,
    /// The `index`th statement of the block at `parent`.
    Index(&'p StmtPath<'p>, usize),
    /// A block of the statement at `parent` (`accept`, `body`, `cases[i]`…).
    Part(&'p StmtPath<'p>, &'static str),
    Case(&'p StmtPath<'p>, usize),
}

impl std::fmt::Display for StmtPath<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StmtPath::Body => f.write_str("body"),
            StmtPath::Index(parent, i) => write!(f, "{parent}[{i}]"),
            StmtPath::Part(parent, part) => write!(f, "{parent}.{part}"),
            StmtPath::Case(parent, i) => write!(f, "{parent}.cases[{i}]"),
        }
    }
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
    fn block(&mut self, block: &Block, path: &StmtPath, flow: Flow) {
        for (i, stmt) in block.stmts.iter().enumerate() {
            let span = block.spans.get(i).copied().unwrap_or(Span::UNDEFINED);
            self.stmt(stmt, &StmtPath::Index(path, i), span, flow);
        }
    }

    fn stmt(&mut self, stmt: &Statement, path: &StmtPath, span: Span, flow: Flow) {
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
                self.block(accept, &StmtPath::Part(path, "accept"), flow);
                self.block(reject, &StmtPath::Part(path, "reject"), flow);
            }
            Statement::For {
                init,
                condition,
                update,
                body,
            } => {
                // Init and update stand where the source has expressions, so
                // no jump can be written there.
                self.block(init, &StmtPath::Part(path, "init"), Flow::default());
                if let Some(condition) = condition {
                    self.root(*condition, RootKind::Value, path, span);
                }
                self.block(update, &StmtPath::Part(path, "update"), Flow::default());
                self.block(body, &StmtPath::Part(path, "body"), LOOP);
            }
            Statement::While { condition, body } | Statement::DoWhile { body, condition } => {
                self.root(*condition, RootKind::Value, path, span);
                self.block(body, &StmtPath::Part(path, "body"), LOOP);
            }
            Statement::Switch { selector, cases } => {
                self.root(*selector, RootKind::Value, path, span);
                self.switch_cases(cases, path, span, flow);
            }
            Statement::Break | Statement::Continue | Statement::Return(_) | Statement::Discard => {
                self.jump(stmt, path, span, flow);
            }
            Statement::Printf { args, .. } => {
                for arg in args {
                    self.root(*arg, RootKind::Value, path, span);
                }
            }
            Statement::EmitVertex { .. }
            | Statement::EndPrimitive { .. }
            | Statement::PatchBarrier => {}
        }
    }

    fn jump(&mut self, stmt: &Statement, path: &StmtPath, span: Span, flow: Flow) {
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

    fn switch_cases(&mut self, cases: &[SwitchCase], path: &StmtPath, span: Span, flow: Flow) {
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
            self.block(&case.body, &StmtPath::Case(path, i), flow);
        }
    }

    fn declare(&mut self, local: Handle<LocalVariable>, path: &StmtPath, span: Span) {
        match self.declared.get_mut(local.index()) {
            None => self.push(path, ErrorKind::BadLocal(local), span),
            Some(true) => self.push(path, ErrorKind::DeclaredTwice(local), span),
            Some(flag) => *flag = true,
        }
    }

    fn root(&mut self, expr: Handle<Expression>, kind: RootKind, path: &StmtPath, span: Span) {
        let site = || Site::Statement(path.to_string());
        self.uses
            .root(self.ctx, expr, kind, (&site, span), &mut self.report);
    }

    fn push(&mut self, path: &StmtPath, kind: ErrorKind, span: Span) {
        self.report
            .push(Site::Statement(path.to_string()), kind, span);
    }
}
