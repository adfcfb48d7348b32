//! Statements in C-family syntax, written once for MSL and CUDA: blocks,
//! declarations, stores, `if`, the loops and `switch` print as C reads
//! them; a target writes some statements its own way first
//! ([`Dialect::own_lines`]), and answers for the statements of stages it
//! has or lacks (`discard`, geometry streams, `printf`) through its
//! constants and [`Dialect::printf`].

use std::fmt::Write as _;

use legalis_ir as ir;
use legalis_ir::{Expression, Handle, Span, Statement};

use super::expr::{ArgCopy, Exprs, FnCtx};
use super::reach::GlobalKind;
use super::{Call, Dialect, Intrinsics, Refusal, Store};

type Result<T, D> = std::result::Result<T, <D as Dialect>::Error>;
type Ctx<'c, 'a, D> = &'c mut FnCtx<'a, <D as Dialect>::FnState>;

/// The indentation of `depth` levels.
pub(crate) fn pad(depth: usize) -> String {
    "    ".repeat(depth)
}

/// `line` between the copies in and out of its call's temporaries, in a
/// block of its own.
fn write_with_copies(out: &mut String, p: &str, line: &str, copies: &[ArgCopy]) {
    writeln!(out, "{p}{{").ok();
    for c in copies {
        if c.copy_in {
            writeln!(out, "{p}    {} {} = {};", c.ty, c.temp, c.place).ok();
        } else {
            writeln!(out, "{p}    {} {};", c.ty, c.temp).ok();
        }
    }
    writeln!(out, "{p}    {line}").ok();
    for c in copies {
        writeln!(out, "{p}    {} = {};", c.place, c.temp).ok();
    }
    writeln!(out, "{p}}}").ok();
}

/// The statement printer every [`Dialect`] has.
pub(crate) trait Stmts: Exprs {
    /// The statements of `block`, each line indented `depth` levels.
    fn block(
        &self,
        ctx: Ctx<'_, '_, Self>,
        block: &ir::Block,
        depth: usize,
    ) -> Result<String, Self> {
        let mut out = String::new();
        for (stmt, span) in block.iter() {
            self.statement(ctx, stmt, span, depth, &mut out)?;
        }
        Ok(out)
    }

    /// One statement, appended to `out`.
    fn statement(
        &self,
        ctx: Ctx<'_, '_, Self>,
        stmt: &Statement,
        span: Span,
        depth: usize,
        out: &mut String,
    ) -> Result<(), Self> {
        let p = pad(depth);
        if let Some(lines) = self.own_lines(ctx, stmt, span)? {
            for line in lines {
                push!(out, p, line, "\n");
            }
            return Ok(());
        }
        match stmt {
            Statement::Declare { local, init } => {
                self.declare(ctx, *local, *init, span, &p, out)?
            }
            Statement::Store { target, value } => {
                if self.needs_arg_copies(ctx, *value) {
                    let target = self.place(ctx, *target)?;
                    let (value, copies) = self.with_arg_copies(ctx, *value)?;
                    write_with_copies(out, &p, &format!("{target} = {value};"), &copies);
                    return Ok(());
                }
                let store = Store {
                    target: *target,
                    value: *value,
                };
                let text = self.store(ctx, store)?;
                push!(out, p, text, ";\n");
            }
            Statement::Expr(e) if self.needs_arg_copies(ctx, *e) => {
                let (text, copies) = self.with_arg_copies(ctx, *e)?;
                write_with_copies(out, &p, &format!("{text};"), &copies);
            }
            Statement::Expr(e) => {
                let exprs = ctx.exprs;
                if let Expression::Intrinsic { fun, args } = &exprs[*e]
                    && let Some(lines) = self.intrinsic_statement(
                        ctx,
                        Call {
                            fun: *fun,
                            args,
                            expr: *e,
                            span: exprs.span(*e),
                        },
                    )?
                {
                    for line in lines {
                        writeln!(out, "{p}{line}").ok();
                    }
                    return Ok(());
                }
                let text = self.expr(ctx, *e)?;
                push!(out, p, text, ";\n");
            }
            Statement::Block(b) => {
                writeln!(out, "{p}{{").ok();
                out.push_str(&self.block(ctx, b, depth + 1)?);
                writeln!(out, "{p}}}").ok();
            }
            Statement::If {
                condition,
                accept,
                reject,
            } => {
                let c = self.expr(ctx, *condition)?;
                writeln!(out, "{p}if ({c})\n{p}{{").ok();
                out.push_str(&self.block(ctx, accept, depth + 1)?);
                if reject.is_empty() {
                    writeln!(out, "{p}}}").ok();
                } else {
                    writeln!(out, "{p}}}\n{p}else\n{p}{{").ok();
                    out.push_str(&self.block(ctx, reject, depth + 1)?);
                    writeln!(out, "{p}}}").ok();
                }
            }
            Statement::For {
                init,
                condition,
                update,
                body,
            } => self.for_loop(ctx, init, *condition, update, body, depth, out)?,
            Statement::While { condition, body } => {
                let c = self.expr(ctx, *condition)?;
                writeln!(out, "{p}while ({c})\n{p}{{").ok();
                out.push_str(&self.block(ctx, body, depth + 1)?);
                writeln!(out, "{p}}}").ok();
            }
            Statement::DoWhile { body, condition } => {
                writeln!(out, "{p}do\n{p}{{").ok();
                out.push_str(&self.block(ctx, body, depth + 1)?);
                let c = self.expr(ctx, *condition)?;
                writeln!(out, "{p}}} while ({c});").ok();
            }
            Statement::Switch { selector, cases } => {
                let s = self.expr(ctx, *selector)?;
                writeln!(out, "{p}switch ({s})\n{p}{{").ok();
                for case in cases {
                    for value in &case.values {
                        match value {
                            ir::SwitchValue::Int(v) => writeln!(out, "{p}case {v}:").ok(),
                            ir::SwitchValue::Default => writeln!(out, "{p}default:").ok(),
                        };
                    }
                    writeln!(out, "{p}{{").ok();
                    out.push_str(&self.block(ctx, &case.body, depth + 1)?);
                    if !case.fall_through {
                        writeln!(out, "{p}    break;").ok();
                    }
                    writeln!(out, "{p}}}").ok();
                }
                writeln!(out, "{p}}}").ok();
            }
            Statement::Break => {
                writeln!(out, "{p}break;").ok();
            }
            Statement::Continue => {
                writeln!(out, "{p}continue;").ok();
            }
            Statement::Return(value) => match value {
                Some(v) => {
                    let v = self.expr(ctx, *v)?;
                    writeln!(out, "{p}return {v};").ok();
                }
                None => {
                    writeln!(out, "{p}return;").ok();
                }
            },
            Statement::Discard => match Self::DISCARD {
                Ok(text) => push!(out, p, text, "\n"),
                Err(what) => return Err(Self::Error::unsupported(what.into(), span)),
            },
            Statement::EmitVertex { .. } | Statement::EndPrimitive { .. } => {
                return Err(Self::Error::unsupported(
                    Self::GEOMETRY_STREAMS.into(),
                    span,
                ));
            }
            Statement::PatchBarrier => {
                return Err(Self::Error::unsupported(Self::PATCH_BARRIER.into(), span));
            }
            Statement::Printf { format, args } => {
                for line in self.printf(ctx, format, args, span)? {
                    push!(out, p, line, "\n");
                }
            }
        }
        Ok(())
    }

    /// The declaration of `local`, with its initializer.
    fn declare(
        &self,
        ctx: Ctx<'_, '_, Self>,
        local: Handle<ir::LocalVariable>,
        init: Option<Handle<Expression>>,
        span: Span,
        p: &str,
        out: &mut String,
    ) -> Result<(), Self> {
        let Some(locals) = ctx.locals else {
            return Err(Self::Error::not_legalized(
                "a local outside a function".into(),
                span,
            ));
        };
        let l = &locals[local];
        let ty = self.spell(l.ty, span)?;
        let name = ctx.local_names[&local].clone();
        let konst = if l.is_const { "const " } else { "" };
        match init {
            Some(init) if self.needs_arg_copies(ctx, init) => {
                let (value, copies) = self.with_arg_copies(ctx, init)?;
                writeln!(out, "{p}{ty} {name};").ok();
                write_with_copies(out, p, &format!("{name} = {value};"), &copies);
            }
            Some(init) => {
                let value = self.expr(ctx, init)?;
                writeln!(out, "{p}{konst}{ty} {name} = {value};").ok();
            }
            None => {
                writeln!(out, "{p}{ty} {name};").ok();
            }
        }
        Ok(())
    }

    /// A `for` loop: `init` in a block of its own around the loop when
    /// there is one, `update` as one comma expression.
    #[allow(clippy::too_many_arguments)]
    fn for_loop(
        &self,
        ctx: Ctx<'_, '_, Self>,
        init: &ir::Block,
        condition: Option<Handle<Expression>>,
        update: &ir::Block,
        body: &ir::Block,
        depth: usize,
        out: &mut String,
    ) -> Result<(), Self> {
        let p = pad(depth);
        let scoped = !init.is_empty();
        let inner = if scoped { depth + 1 } else { depth };
        if scoped {
            writeln!(out, "{p}{{").ok();
            out.push_str(&self.block(ctx, init, depth + 1)?);
        }
        let c = match condition {
            Some(c) => self.expr(ctx, c)?,
            None => String::new(),
        };
        let mut updates = Vec::new();
        for (stmt, span) in update.iter() {
            updates.push(match stmt {
                Statement::Store { target, value } => {
                    let store = Store {
                        target: *target,
                        value: *value,
                    };
                    self.store(ctx, store)?
                }
                Statement::Expr(e) => self.expr(ctx, *e)?,
                _ => {
                    return Err(Self::Error::unsupported(
                        "a `for` update that is not an expression".into(),
                        span,
                    ));
                }
            });
        }
        let q = pad(inner);
        writeln!(out, "{q}for (; {c}; {})\n{q}{{", updates.join(", ")).ok();
        out.push_str(&self.block(ctx, body, inner + 1)?);
        writeln!(out, "{q}}}").ok();
        if scoped {
            writeln!(out, "{p}}}").ok();
        }
        Ok(())
    }

    /// The `static const` globals `globals` as `{qualifier} T name =
    /// init;` lines, and an empty line after them; `check` may refuse an
    /// initializer once it is written.
    fn write_constants(
        &self,
        globals: &[Handle<ir::GlobalVariable>],
        qualifier: &str,
        check: impl Fn(Handle<Expression>, Span) -> Result<(), Self>,
    ) -> Result<String, Self> {
        let mut out = String::new();
        for &g in globals {
            let global = &self.module().globals[g];
            let span = self.module().globals.span(g);
            let init = match global.init {
                Some(init) => {
                    let mut ctx = self.globals_ctx();
                    let text = self.expr(&mut ctx, init)?;
                    check(init, span)?;
                    text
                }
                None => "{}".into(),
            };
            let ty = self.spell(global.ty, span)?;
            writeln!(out, "{qualifier} {ty} {} = {init};", self.global_name(g)).ok();
        }
        if !out.is_empty() {
            out.push('\n');
        }
        Ok(out)
    }

    /// The `static` and `groupshared` globals `globals` as locals of the
    /// entry function, in declaration order: the latter qualified
    /// `workgroup`, the former with their initializers (or `{}`).
    fn write_entry_locals<R>(
        &self,
        globals: Vec<(Handle<ir::GlobalVariable>, GlobalKind<R>)>,
        workgroup: &str,
        out: &mut String,
    ) -> Result<(), Self> {
        let mut globals = globals;
        globals.sort_by_key(|(g, _)| *g);
        for (g, kind) in globals {
            let global = &self.module().globals[g];
            let span = self.module().globals.span(g);
            let ty = self.spell(global.ty, span)?;
            let name = self.global_name(g);
            match (kind, global.init) {
                (GlobalKind::Workgroup, _) => {
                    writeln!(out, "    {workgroup} {ty} {name};").ok();
                }
                (_, Some(init)) => {
                    let mut ctx = self.globals_ctx();
                    let text = self.expr(&mut ctx, init)?;
                    writeln!(out, "    {ty} {name} = {text};").ok();
                }
                (_, None) => {
                    writeln!(out, "    {ty} {name} = {{}};").ok();
                }
            }
        }
        Ok(())
    }

    /// A function's braces around its `body`, after its signature line.
    fn function_body(
        &self,
        ctx: Ctx<'_, '_, Self>,
        body: &ir::Block,
        out: &mut String,
    ) -> Result<(), Self> {
        out.push_str(&self.block(ctx, body, 1)?);
        out.push_str("}\n\n");
        Ok(())
    }
}

impl<D: Intrinsics> Stmts for D {}
