//! Statements as GLSL: blocks, declarations (hoisted `static` locals
//! behind their guard), loops, `switch` and the entry point's private
//! initializers.

use legalis_ir::FastHashSet;
use std::fmt::Write as _;

use legalis_ir as ir;
use legalis_ir::{AddressSpace, Expression, Handle, ScalarKind, Span, Statement};

use super::writer::{Ctx, Result, StaticLocal, Writer, unsupported};

/// Locals declared with an initializer somewhere in `block`.
pub(super) fn collect_initialized(
    block: &ir::Block,
    out: &mut FastHashSet<Handle<ir::LocalVariable>>,
) {
    for stmt in &block.stmts {
        match stmt {
            Statement::Declare {
                local,
                init: Some(_),
            } => {
                out.insert(*local);
            }
            Statement::Block(b) => collect_initialized(b, out),
            Statement::If { accept, reject, .. } => {
                collect_initialized(accept, out);
                collect_initialized(reject, out);
            }
            Statement::For {
                init, update, body, ..
            } => {
                for b in [init, update, body] {
                    collect_initialized(b, out);
                }
            }
            Statement::While { body, .. } | Statement::DoWhile { body, .. } => {
                collect_initialized(body, out)
            }
            Statement::Switch { cases, .. } => {
                for c in cases {
                    collect_initialized(&c.body, out);
                }
            }
            _ => {}
        }
    }
}

impl Writer<'_> {
    /// GLSL global initializers must be constant, HLSL `static` ones need not
    /// be: they run at the top of `main`, in declaration order.
    pub(super) fn write_private_inits(&mut self, out: &mut String) -> Result<()> {
        let ctx = self.global_ctx();
        for g in self.globals.clone() {
            let var = &self.module.globals[g];
            if let (AddressSpace::Private, Some(init)) = (var.space, var.init) {
                let value = self.expr(&ctx, init)?;
                writeln!(out, "    {} = {value};", self.global_names[&g]).ok();
            }
        }
        Ok(())
    }

    pub fn write_block(
        &mut self,
        ctx: &Ctx,
        block: &ir::Block,
        level: usize,
        out: &mut String,
    ) -> Result<()> {
        for (stmt, span) in block.iter() {
            self.write_stmt(ctx, stmt, span, level, out)?;
        }
        Ok(())
    }

    fn write_stmt(
        &mut self,
        ctx: &Ctx,
        stmt: &Statement,
        span: Span,
        level: usize,
        out: &mut String,
    ) -> Result<()> {
        const SPACES: &str = "                                                                ";
        let deep;
        let ind = match SPACES.get(..4 * level) {
            Some(ind) => ind,
            None => {
                deep = "    ".repeat(level);
                deep.as_str()
            }
        };
        match stmt {
            Statement::Declare { local, init } if self.static_local(ctx, *local).is_some() => {
                self.write_static_declare(ctx, *local, *init, ind, out)?
            }
            Statement::Store { target, value } => {
                out.push_str(ind);
                self.write_store(ctx, *target, *value, out)?;
                out.push_str(";\n");
            }
            Statement::Declare {
                local,
                init: Some(init),
            } => {
                let decl = self.local_decl(ctx, *local, span)?;
                out.push_str(ind);
                out.push_str(&decl);
                // `hitObjectNV` cannot be assigned: the call records
                // into the variable.
                if let Some(hit) = self.hit_object_local(ctx, *local) {
                    let record = self.hit_object_record(ctx, &hit, *init)?;
                    writeln!(out, ";\n{ind}{record};").ok();
                    return Ok(());
                }
                out.push_str(" = ");
                self.write_expr(ctx, *init, out)?;
                out.push_str(";\n");
            }
            Statement::Declare { .. } | Statement::Expr(_) => {
                let text = self.simple_stmt(ctx, stmt, span)?;
                writeln!(out, "{ind}{text};").ok();
            }
            Statement::Block(b) => self.write_braced(ctx, "", b, level, out)?,
            Statement::If {
                condition,
                accept,
                reject,
            } => {
                let c = self.expr(ctx, *condition)?;
                self.write_braced(ctx, &format!("if ({c})"), accept, level, out)?;
                if !reject.is_empty() {
                    self.write_braced(ctx, "else", reject, level, out)?;
                }
            }
            Statement::For { .. } => self.write_for(ctx, stmt, span, level, out)?,
            Statement::While { condition, body } => {
                let c = self.expr(ctx, *condition)?;
                self.write_braced(ctx, &format!("while ({c})"), body, level, out)?;
            }
            Statement::DoWhile { body, condition } => {
                writeln!(out, "{ind}do\n{ind}{{").ok();
                self.write_block(ctx, body, level + 1, out)?;
                let c = self.expr(ctx, *condition)?;
                writeln!(out, "{ind}}} while ({c});").ok();
            }
            Statement::Switch { selector, cases } => {
                self.write_switch(ctx, *selector, cases, level, out)?
            }
            Statement::Return(Some(e)) => {
                let v = self.expr(ctx, *e)?;
                writeln!(out, "{ind}return {v};").ok();
            }
            Statement::Break
            | Statement::Continue
            | Statement::Discard
            | Statement::Return(None) => {
                let word = match stmt {
                    Statement::Break => "break",
                    Statement::Continue => "continue",
                    Statement::Discard => "discard",
                    _ => "return",
                };
                writeln!(out, "{ind}{word};").ok();
            }
            Statement::EmitVertex { stream: 0 } => {
                writeln!(out, "{ind}EmitVertex();").ok();
            }
            Statement::EmitVertex { stream } => {
                writeln!(out, "{ind}EmitStreamVertex({stream});").ok();
            }
            Statement::EndPrimitive { stream: 0 } => {
                writeln!(out, "{ind}EndPrimitive();").ok();
            }
            Statement::EndPrimitive { stream } => {
                writeln!(out, "{ind}EndStreamPrimitive({stream});").ok();
            }
            Statement::PatchBarrier => {
                writeln!(out, "{ind}barrier();").ok();
            }
            Statement::Printf { format, args } => {
                self.require("GL_EXT_debug_printf");
                let mut call = crate::c_string_literal(format);
                for arg in args {
                    call.push_str(", ");
                    call.push_str(&self.expr(ctx, *arg)?);
                }
                writeln!(out, "{ind}debugPrintfEXT({call});").ok();
            }
        }
        Ok(())
    }

    /// `head` (if any) then `block` in braces at `level`.
    fn write_braced(
        &mut self,
        ctx: &Ctx,
        head: &str,
        block: &ir::Block,
        level: usize,
        out: &mut String,
    ) -> Result<()> {
        let ind = "    ".repeat(level);
        if !head.is_empty() {
            writeln!(out, "{ind}{head}").ok();
        }
        writeln!(out, "{ind}{{").ok();
        self.write_block(ctx, block, level + 1, out)?;
        writeln!(out, "{ind}}}").ok();
        Ok(())
    }

    fn static_local(&self, ctx: &Ctx, local: Handle<ir::LocalVariable>) -> Option<&StaticLocal> {
        self.static_locals.get(&(ctx.function?, local))
    }

    /// The declaration of a hoisted `static` local: its initializer runs the
    /// first time control reaches it, as in HLSL.
    fn write_static_declare(
        &mut self,
        ctx: &Ctx,
        local: Handle<ir::LocalVariable>,
        init: Option<Handle<Expression>>,
        ind: &str,
        out: &mut String,
    ) -> Result<()> {
        let Some(s) = self.static_local(ctx, local).cloned() else {
            return Ok(());
        };
        if let (Some(init), Some(guard)) = (init, &s.guard) {
            let value = self.expr(ctx, init)?;
            writeln!(
                out,
                "{ind}if (!{guard})\n{ind}{{\n{ind}    {guard} = true;\n{ind}    {} = {value};\n{ind}}}",
                s.name
            )
            .ok();
        }
        Ok(())
    }

    /// Declarations, stores and expression statements without the `;`,
    /// so `for` headers can reuse them.
    fn simple_stmt(&mut self, ctx: &Ctx, stmt: &Statement, span: Span) -> Result<String> {
        match stmt {
            Statement::Declare { local, init } => {
                let func_local = self.local_decl(ctx, *local, span)?;
                match init {
                    Some(e) => Ok(format!("{func_local} = {}", self.expr(ctx, *e)?)),
                    None => Ok(func_local),
                }
            }
            Statement::Store { target, value } => self.store(ctx, *target, *value),
            Statement::Expr(e) => self.expr_stmt(ctx, *e),
            _ => unsupported("this statement in a `for` header", span),
        }
    }

    fn local_decl(
        &mut self,
        ctx: &Ctx,
        local: Handle<ir::LocalVariable>,
        span: Span,
    ) -> Result<String> {
        let Some(var) = ctx.func.and_then(|f| f.locals.try_get(local)) else {
            return unsupported("a local outside its function", span);
        };
        let (t, s) = self.type_parts(var.ty, span)?;
        Ok(format!("{t} {}{s}", ctx.locals[&local]))
    }

    fn write_for(
        &mut self,
        ctx: &Ctx,
        stmt: &Statement,
        span: Span,
        level: usize,
        out: &mut String,
    ) -> Result<()> {
        let Statement::For {
            init,
            condition,
            update,
            body,
        } = stmt
        else {
            return Ok(());
        };
        let ind = "    ".repeat(level);
        let simple = |s: &Statement| match s {
            Statement::Declare { local, .. } => self.static_local(ctx, *local).is_none(),
            Statement::Store { .. } | Statement::Expr(_) => true,
            _ => false,
        };
        let (header_init, inner_level) = if init.stmts.len() <= 1 && init.stmts.iter().all(simple) {
            let text = match init.iter().next() {
                Some((s, sp)) => self.simple_stmt(ctx, s, sp)?,
                None => String::new(),
            };
            (text, level)
        } else {
            // Several init statements: scope them in a block around the loop.
            writeln!(out, "{ind}{{").ok();
            self.write_block(ctx, init, level + 1, out)?;
            (String::new(), level + 1)
        };
        let mut updates = Vec::new();
        for (s, sp) in update.iter() {
            match s {
                Statement::Store { .. } | Statement::Expr(_) => {
                    updates.push(self.simple_stmt(ctx, s, sp)?)
                }
                _ => return unsupported("this statement in a `for` update", sp),
            }
        }
        let c = match condition {
            Some(c) => self.expr(ctx, *c)?,
            None => String::new(),
        };
        let ind2 = "    ".repeat(inner_level);
        writeln!(
            out,
            "{ind2}for ({header_init}; {c}; {})\n{ind2}{{",
            updates.join(", ")
        )
        .ok();
        self.write_block(ctx, body, inner_level + 1, out)?;
        writeln!(out, "{ind2}}}").ok();
        if inner_level != level {
            writeln!(out, "{ind}}}").ok();
        }
        let _ = span;
        Ok(())
    }

    fn write_switch(
        &mut self,
        ctx: &Ctx,
        selector: Handle<Expression>,
        cases: &[ir::SwitchCase],
        level: usize,
        out: &mut String,
    ) -> Result<()> {
        let ind = "    ".repeat(level);
        let sel_ty = self.expr_ty(ctx, selector)?;
        let mut sel = self.expr(ctx, selector)?;
        // Case labels must have the selector's type; other widths go via int.
        let suffix = match self.inner(sel_ty).scalar() {
            Some(ir::Scalar {
                kind: ScalarKind::Uint,
                width: 4,
            }) => "u",
            Some(ir::Scalar {
                kind: ScalarKind::Sint,
                width: 4,
            }) => "",
            _ => {
                sel = format!("int({sel})");
                ""
            }
        };
        writeln!(out, "{ind}switch ({sel})\n{ind}{{").ok();
        for (i, case) in cases.iter().enumerate() {
            for v in &case.values {
                match v {
                    ir::SwitchValue::Int(n) => writeln!(out, "{ind}case {n}{suffix}:").ok(),
                    ir::SwitchValue::Default => writeln!(out, "{ind}default:").ok(),
                };
            }
            writeln!(out, "{ind}{{").ok();
            self.write_block(ctx, &case.body, level + 1, out)?;
            writeln!(out, "{ind}}}").ok();
            let ends = matches!(
                case.body.stmts.last(),
                Some(
                    Statement::Break
                        | Statement::Return(_)
                        | Statement::Continue
                        | Statement::Discard
                )
            );
            if (!case.fall_through && !ends) || i + 1 == cases.len() {
                writeln!(out, "{ind}    break;").ok();
            }
        }
        writeln!(out, "{ind}}}").ok();
        Ok(())
    }
}
