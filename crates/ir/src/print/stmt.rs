//! Statements, four spaces per nesting level.
//!
//! Declarations start with `var` so they stand out from stores. Switch cases
//! are braced, so a case with an empty body cannot be mistaken for a label
//! stacked onto the next one; falling into the next case is an explicit
//! `fallthrough;` line.

use std::fmt::Write as _;

use super::Writer;
use crate::{Block, Expression, Handle, LocalVariable, Statement, SwitchCase, SwitchValue};

impl Writer<'_> {
    pub(super) fn block_body(&mut self, block: &Block) {
        self.indent += 1;
        for stmt in &block.stmts {
            self.stmt(stmt);
        }
        self.indent -= 1;
    }

    /// `{`, the statements, and the closing `}` without a newline after it.
    fn braced(&mut self, block: &Block) {
        self.out.push_str("{\n");
        self.block_body(block);
        self.start_line();
        self.out.push('}');
    }

    fn stmt(&mut self, stmt: &Statement) {
        self.start_line();
        match stmt {
            Statement::Declare { .. } | Statement::Store { .. } | Statement::Expr(_) => {
                self.simple(stmt);
                self.out.push_str(";\n");
            }
            Statement::Block(block) => {
                self.braced(block);
                self.out.push('\n');
            }
            Statement::If {
                condition,
                accept,
                reject,
            } => {
                self.out.push_str("if (");
                self.expr(*condition);
                self.out.push_str(") ");
                self.braced(accept);
                if !reject.is_empty() {
                    self.out.push_str(" else ");
                    self.braced(reject);
                }
                self.out.push('\n');
            }
            Statement::For {
                init,
                condition,
                update,
                body,
            } => self.for_loop(init, *condition, update, body),
            Statement::While { condition, body } => {
                self.out.push_str("while (");
                self.expr(*condition);
                self.out.push_str(") ");
                self.braced(body);
                self.out.push('\n');
            }
            Statement::DoWhile { body, condition } => {
                self.out.push_str("do ");
                self.braced(body);
                self.out.push_str(" while (");
                self.expr(*condition);
                self.out.push_str(");\n");
            }
            Statement::Switch { selector, cases } => self.switch(*selector, cases),
            Statement::Break => self.out.push_str("break;\n"),
            Statement::Continue => self.out.push_str("continue;\n"),
            Statement::Discard => self.out.push_str("discard;\n"),
            Statement::EmitVertex { stream } => self
                .out
                .push_str(&format!("emit_vertex(stream {stream});\n")),
            Statement::EndPrimitive { stream } => self
                .out
                .push_str(&format!("end_primitive(stream {stream});\n")),
            Statement::PatchBarrier => self.out.push_str("patch_barrier;\n"),
            Statement::Printf { format, args } => {
                self.out.push_str(&format!("printf({format:?}"));
                for arg in args {
                    self.out.push_str(", ");
                    self.expr(*arg);
                }
                self.out.push_str(");\n");
            }
            Statement::Return(None) => self.out.push_str("return;\n"),
            Statement::Return(Some(value)) => {
                self.out.push_str("return ");
                self.expr(*value);
                self.out.push_str(";\n");
            }
        }
    }

    /// A declaration, store or expression without its `;`, which `for`
    /// headers print inline.
    fn simple(&mut self, stmt: &Statement) {
        match stmt {
            Statement::Declare { local, init } => self.declare(*local, *init),
            Statement::Store { target, value } => {
                self.expr(*target);
                self.out.push_str(" = ");
                self.expr(*value);
            }
            Statement::Expr(expr) => self.expr(*expr),
            _ => {}
        }
    }

    fn declare(&mut self, local: Handle<LocalVariable>, init: Option<Handle<Expression>>) {
        self.out.push_str("var ");
        self.out.push_str(&self.local_declaration(local));
        if let Some(init) = init {
            self.out.push_str(" = ");
            self.expr(init);
        }
    }

    /// `static const float t[2]`, as a declaration names a local.
    pub(super) fn local_declaration(&self, local: Handle<LocalVariable>) -> String {
        let Some((func, names)) = &self.function else {
            return format!("<local {local:?} outside a function>");
        };
        let Some(var) = func.locals.try_get(local) else {
            return format!("<bad local {local:?}>");
        };
        let mut text = String::new();
        if var.is_static {
            text.push_str("static ");
        }
        if var.is_const {
            text.push_str("const ");
        }
        text + &self.declarator(var.ty, &names.local(local))
    }

    /// `for (init; condition; update)` on one line when init and update are
    /// plain declarations, stores and expressions, joined by commas; otherwise
    /// a header with labelled blocks, so control flow inside them stays
    /// readable. A declaration only goes inline alone: `var int j = 0, t = 0.0`
    /// would read as declaring `t` too.
    fn for_loop(
        &mut self,
        init: &Block,
        condition: Option<Handle<Expression>>,
        update: &Block,
        body: &Block,
    ) {
        let is_simple = |s: &Statement| {
            matches!(
                s,
                Statement::Declare { .. } | Statement::Store { .. } | Statement::Expr(_)
            )
        };
        let inline = init.stmts.iter().chain(&update.stmts).all(is_simple)
            && (init.stmts.len() <= 1
                || !init
                    .stmts
                    .iter()
                    .any(|s| matches!(s, Statement::Declare { .. })))
            && !update
                .stmts
                .iter()
                .any(|s| matches!(s, Statement::Declare { .. }));
        if inline {
            self.out.push_str("for (");
            self.inline_block(init);
            self.out.push(';');
            if let Some(condition) = condition {
                self.out.push(' ');
                self.expr(condition);
            }
            self.out.push(';');
            if !update.is_empty() {
                self.out.push(' ');
                self.inline_block(update);
            }
            self.out.push_str(") ");
        } else {
            self.out.push_str("for (\n");
            self.indent += 1;
            self.labelled_block("init:", init);
            self.start_line();
            self.out.push_str("condition:");
            if let Some(condition) = condition {
                self.out.push(' ');
                self.expr(condition);
            }
            self.out.push('\n');
            self.labelled_block("update:", update);
            self.indent -= 1;
            self.start_line();
            self.out.push_str(") ");
        }
        self.braced(body);
        self.out.push('\n');
    }

    fn inline_block(&mut self, block: &Block) {
        for (i, stmt) in block.stmts.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.simple(stmt);
        }
    }

    fn labelled_block(&mut self, label: &str, block: &Block) {
        self.start_line();
        self.out.push_str(label);
        self.out.push('\n');
        self.block_body(block);
    }

    fn switch(&mut self, selector: Handle<Expression>, cases: &[SwitchCase]) {
        self.out.push_str("switch (");
        self.expr(selector);
        self.out.push_str(") {\n");
        self.indent += 1;
        for case in cases {
            for (i, value) in case.values.iter().enumerate() {
                if i > 0 {
                    self.out.push('\n');
                }
                self.start_line();
                match value {
                    SwitchValue::Int(v) => {
                        let _ = write!(self.out, "case {v}:");
                    }
                    SwitchValue::Default => self.out.push_str("default:"),
                }
            }
            if case.values.is_empty() {
                self.start_line();
                self.out.push_str("<no labels>:");
            }
            self.out.push_str(" {\n");
            self.block_body(&case.body);
            if case.fall_through {
                self.indent += 1;
                self.start_line();
                self.out.push_str("fallthrough;\n");
                self.indent -= 1;
            }
            self.start_line();
            self.out.push_str("}\n");
        }
        self.indent -= 1;
        self.start_line();
        self.out.push_str("}\n");
    }
}
