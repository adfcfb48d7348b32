//! Statements as WGSL (the rules are `expr.rs`'s): blocks, stores (one
//! per component of a multi-component swizzle), loops as `loop` with a
//! `continuing` block, and the temporaries a statement needs around it.

use super::expr::{COMPONENTS, FnCtx, INDENT, int_literal, zero_of};
use super::types::{Result, unsupported};
use super::writer::Writer;
use std::fmt::Write as _;

use legalis_ir as ir;
use legalis_ir::{Expression, Handle, ScalarKind, Span, Statement, TypeInner};

fn pad(depth: usize) -> String {
    INDENT.repeat(depth)
}

impl Writer<'_> {
    pub(super) fn block(
        &self,
        ctx: &mut FnCtx,
        block: &ir::Block,
        depth: usize,
        out: &mut String,
    ) -> Result<()> {
        for (stmt, span) in block.iter() {
            self.statement(ctx, stmt, span, depth, out)?;
        }
        Ok(())
    }

    /// Prints `pre`, the lines, then `post`.
    fn emit(&self, ctx: &mut FnCtx, lines: &[String], depth: usize, out: &mut String) {
        let p = pad(depth);
        for l in ctx.pre.drain(..).chain(lines.iter().cloned()) {
            push!(out, p, l, "\n");
        }
        for l in ctx.post.drain(..) {
            push!(out, p, l, "\n");
        }
    }

    /// A value a statement needs before it runs (a condition, a returned
    /// value): bound to a `let` when copy-back statements must follow it.
    fn settled(
        &self,
        ctx: &mut FnCtx,
        e: Handle<Expression>,
        depth: usize,
        out: &mut String,
    ) -> Result<String> {
        let value = self.expr(ctx, e)?;
        if ctx.post.is_empty() {
            let p = pad(depth);
            for l in ctx.pre.drain(..) {
                writeln!(out, "{p}{l}").ok();
            }
            return Ok(value);
        }
        let t = ctx.temp("value");
        let line = format!("let {t} = {value};");
        self.emit(ctx, &[line], depth, out);
        Ok(t)
    }

    fn statement(
        &self,
        ctx: &mut FnCtx,
        stmt: &Statement,
        span: Span,
        depth: usize,
        out: &mut String,
    ) -> Result<()> {
        let p = pad(depth);
        match stmt {
            Statement::Declare { local, init } => {
                let func = ctx.func.expect("declarations are in functions");
                let l = &func.locals[*local];
                if l.is_static {
                    // Hoisted to `var<private>`, initialized there.
                    return Ok(());
                }
                if self.module.types[l.ty].inner.is_resource() {
                    return unsupported(
                        "a local of resource type (WGSL resources are module variables)",
                        span,
                    );
                }
                let ty = self.spell(l.ty, span)?;
                let name = ctx.locals[local].clone();
                let line = match init {
                    Some(init) => format!("var {name}: {ty} = {};", self.expr(ctx, *init)?),
                    None => format!("var {name}: {ty};"),
                };
                self.emit(ctx, &[line], depth, out);
            }
            Statement::Store { target, value } => {
                let value = self.expr(ctx, *value)?;
                let lines = self.store(ctx, *target, value)?;
                self.emit(ctx, &lines, depth, out);
            }
            Statement::Expr(e) => {
                let lines = self.effect(ctx, *e)?;
                self.emit(ctx, &lines, depth, out);
            }
            Statement::Block(b) => {
                writeln!(out, "{p}{{").ok();
                self.block(ctx, b, depth + 1, out)?;
                writeln!(out, "{p}}}").ok();
            }
            Statement::If {
                condition,
                accept,
                reject,
            } => {
                let c = self.settled(ctx, *condition, depth, out)?;
                writeln!(out, "{p}if {c} {{").ok();
                self.block(ctx, accept, depth + 1, out)?;
                if reject.is_empty() {
                    writeln!(out, "{p}}}").ok();
                } else {
                    writeln!(out, "{p}}} else {{").ok();
                    self.block(ctx, reject, depth + 1, out)?;
                    writeln!(out, "{p}}}").ok();
                }
            }
            Statement::For {
                init,
                condition,
                update,
                body,
            } => {
                writeln!(out, "{p}{{").ok();
                self.block(ctx, init, depth + 1, out)?;
                self.looped(ctx, *condition, body, Some(update), depth + 1, out)?;
                writeln!(out, "{p}}}").ok();
            }
            Statement::While { condition, body } => {
                self.looped(ctx, Some(*condition), body, None, depth, out)?;
            }
            Statement::DoWhile { body, condition } => {
                writeln!(out, "{p}loop {{").ok();
                self.block(ctx, body, depth + 1, out)?;
                writeln!(out, "{p}{INDENT}continuing {{").ok();
                let c = self.settled(ctx, *condition, depth + 2, out)?;
                writeln!(out, "{p}{INDENT}{INDENT}break if !({c});").ok();
                writeln!(out, "{p}{INDENT}}}").ok();
                writeln!(out, "{p}}}").ok();
            }
            Statement::Switch { selector, cases } => {
                let sel_ty = ctx.ty(*selector);
                let unsigned = sel_ty
                    .and_then(|t| self.module.types[t].inner.scalar())
                    .is_some_and(|s| s.kind == ScalarKind::Uint);
                let s = self.settled(ctx, *selector, depth, out)?;
                writeln!(out, "{p}switch {s} {{").ok();
                let mut has_default = false;
                for (at, case) in cases.iter().enumerate() {
                    let labels: Vec<String> = case
                        .values
                        .iter()
                        .map(|v| match v {
                            ir::SwitchValue::Int(i) if unsigned => format!("{}u", *i as u32),
                            ir::SwitchValue::Int(i) => int_literal(*i),
                            ir::SwitchValue::Default => {
                                has_default = true;
                                "default".into()
                            }
                        })
                        .collect();
                    writeln!(out, "{p}{INDENT}case {}: {{", labels.join(", ")).ok();
                    // WGSL cases do not fall through: a case that does runs
                    // the following bodies too, up to one that does not
                    // (a `break` in any of them leaves the switch, as before).
                    for next in &cases[at..] {
                        self.block(ctx, &next.body, depth + 2, out)?;
                        if !next.fall_through {
                            break;
                        }
                    }
                    writeln!(out, "{p}{INDENT}}}").ok();
                }
                if !has_default {
                    writeln!(out, "{p}{INDENT}default: {{}}").ok();
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
                    let v = self.settled(ctx, *v, depth, out)?;
                    writeln!(out, "{p}return {v};").ok();
                }
                None => {
                    writeln!(out, "{p}return;").ok();
                }
            },
            Statement::Discard => {
                writeln!(out, "{p}discard;").ok();
            }
            Statement::EmitVertex { .. } | Statement::EndPrimitive { .. } => {
                return unsupported("geometry-shader output (WGSL has no geometry stage)", span);
            }
            Statement::PatchBarrier => {
                return unsupported("a patch barrier (WGSL has no tessellation stages)", span);
            }
            Statement::Printf { .. } => {
                return unsupported("debug `printf` (WGSL has no printing)", span);
            }
        }
        Ok(())
    }

    /// `loop { if !(cond) { break; } body continuing { update } }`.
    fn looped(
        &self,
        ctx: &mut FnCtx,
        condition: Option<Handle<Expression>>,
        body: &ir::Block,
        update: Option<&ir::Block>,
        depth: usize,
        out: &mut String,
    ) -> Result<()> {
        let p = pad(depth);
        writeln!(out, "{p}loop {{").ok();
        if let Some(c) = condition {
            let c = self.settled(ctx, c, depth + 1, out)?;
            writeln!(out, "{p}{INDENT}if !({c}) {{").ok();
            writeln!(out, "{p}{INDENT}{INDENT}break;").ok();
            writeln!(out, "{p}{INDENT}}}").ok();
        }
        self.block(ctx, body, depth + 1, out)?;
        if let Some(update) = update.filter(|u| !u.is_empty()) {
            writeln!(out, "{p}{INDENT}continuing {{").ok();
            self.block(ctx, update, depth + 2, out)?;
            writeln!(out, "{p}{INDENT}}}").ok();
        }
        writeln!(out, "{p}}}").ok();
        Ok(())
    }

    /// An expression evaluated for its effect, as statements.
    pub(super) fn effect(&self, ctx: &mut FnCtx, e: Handle<Expression>) -> Result<Vec<String>> {
        match &ctx.exprs[e] {
            Expression::Assign { target, value } => {
                let value = self.expr(ctx, *value)?;
                self.store(ctx, *target, value)
            }
            Expression::IncDec { op, target } => {
                let ty = ctx.ty(*target);
                let scalar = ty.and_then(|t| self.module.types[t].inner.scalar());
                let is_int_scalar = ty.is_some_and(|t| {
                    matches!(self.module.types[t].inner, TypeInner::Scalar(s) if s.kind != ScalarKind::Float)
                });
                let increment =
                    matches!(op, ir::IncDecOp::PreIncrement | ir::IncDecOp::PostIncrement);
                if is_int_scalar && !self.is_multi_swizzle(ctx, *target) {
                    let place = self.place(ctx, *target)?;
                    return Ok(vec![format!(
                        "{place}{};",
                        if increment { "++" } else { "--" }
                    )]);
                }
                let one = match scalar.map(|s| (s.kind, s.width)) {
                    Some((ScalarKind::Float, 2)) => "1.0h",
                    Some((ScalarKind::Float, _)) => "1.0f",
                    Some((ScalarKind::Uint, _)) => "1u",
                    _ => "1i",
                };
                let place = self.expr(ctx, *target)?;
                let sign = if increment { "+" } else { "-" };
                self.store(ctx, *target, format!("({place} {sign} {one})"))
            }
            Expression::Call { .. } => Ok(vec![format!("{};", self.expr(ctx, e)?)]),
            Expression::Intrinsic { fun, args } => {
                if let Some(lines) = self.intrinsic_statement(ctx, *fun, args, e)? {
                    return Ok(lines);
                }
                Ok(vec![format!("_ = {};", self.expr(ctx, e)?)])
            }
            _ => Ok(vec![format!("_ = {};", self.expr(ctx, e)?)]),
        }
    }

    fn is_multi_swizzle(&self, ctx: &FnCtx, target: Handle<Expression>) -> bool {
        matches!(&ctx.exprs[target], Expression::Swizzle { components, .. } if components.len() > 1)
    }

    /// `target = value` as statements.
    pub(super) fn store(
        &self,
        ctx: &mut FnCtx,
        target: Handle<Expression>,
        value: String,
    ) -> Result<Vec<String>> {
        let span = ctx.span(target);
        if self.is_padded_matrix(ctx, target) {
            let Some(count) = self.padded_shape(ctx, target) else {
                return unsupported(
                    "a store of a whole array of uniform-struct matrices with 2-component columns",
                    span,
                );
            };
            let value = if self.stored_transposed(ctx, target) {
                format!("transpose({value})")
            } else {
                value
            };
            let t = ctx.temp("value");
            let place = self.place(ctx, target)?;
            return Ok(vec![
                format!("let {t} = {value};"),
                format!("{place} = {};", Self::pad_matrix(count, &t)),
            ]);
        }
        match &ctx.exprs[target] {
            Expression::Swizzle { base, components } if components.len() > 1 => {
                if !ir::is_pure(ctx.exprs, *base) {
                    return unsupported("a swizzle store whose base has side effects", span);
                }
                let base_ty = ctx.ty(*base);
                let is_vector = base_ty.is_some_and(|t| {
                    matches!(self.module.types[t].inner, TypeInner::Vector { .. })
                });
                if !is_vector {
                    return unsupported("a multi-component store to a scalar", span);
                }
                let t = ctx.temp("value");
                let mut lines = vec![format!("let {t} = {value};")];
                let base = self.place(ctx, *base)?;
                for (i, c) in components.iter().enumerate() {
                    let letter = COMPONENTS[usize::from(*c & 3)];
                    lines.push(format!("{base}.{letter} = {t}.{};", COMPONENTS[i & 3]));
                }
                Ok(lines)
            }
            Expression::Index { .. } if self.is_atomic_place(ctx, target) => {
                let place = self.place(ctx, target)?;
                Ok(vec![format!("atomicStore(&{place}, {value});")])
            }
            Expression::Index { base, index } => {
                let base_ty = ctx.ty(*base).map(|t| &self.module.types[t].inner);
                if let Some(TypeInner::Texture(ir::Texture { texel, .. })) = base_ty {
                    let texel = *texel;
                    let t = self.expr(ctx, *base)?;
                    let coords = self.expr(ctx, *index)?;
                    let value = self.texel_to_vec4(texel, value, span)?;
                    return Ok(vec![format!("textureStore({t}, {coords}, {value});")]);
                }
                if let Some(TypeInner::Buffer {
                    kind: ir::BufferKind::ByteAddress,
                    ..
                }) = base_ty
                {
                    return unsupported("indexing a byte-address buffer", span);
                }
                let value = if self.stored_transposed(ctx, target) {
                    format!("transpose({value})")
                } else {
                    value
                };
                let place = self.place(ctx, target)?;
                Ok(vec![cat!(place, " = ", value, ";")])
            }
            _ if self.is_atomic_place(ctx, target) => {
                let place = self.place(ctx, target)?;
                Ok(vec![format!("atomicStore(&{place}, {value});")])
            }
            _ if self.is_stored_bool(ctx, target) => {
                let value = self.bool_to_word(ctx.ty(target), value);
                let place = self.place(ctx, target)?;
                Ok(vec![cat!(place, " = ", value, ";")])
            }
            _ => {
                let value = if self.stored_transposed(ctx, target) {
                    match ctx.ty(target).map(|t| &self.module.types[t].inner) {
                        Some(TypeInner::Matrix { .. }) => format!("transpose({value})"),
                        _ => {
                            return unsupported(
                                "a store of a whole array of column-major buffer matrices",
                                span,
                            );
                        }
                    }
                } else {
                    value
                };
                let place = self.place(ctx, target)?;
                Ok(vec![cat!(place, " = ", value, ";")])
            }
        }
    }

    /// A texel written to a storage texture as the `vec4` `textureStore`
    /// takes.
    fn texel_to_vec4(&self, texel: Handle<ir::Type>, value: String, span: Span) -> Result<String> {
        let Some((size, scalar)) = super::types::texel_shape(self.module, texel) else {
            return unsupported("a storage texture of a non-numeric texel", span);
        };
        let s = super::types::scalar(scalar, span)?;
        let zero = zero_of(scalar);
        Ok(match size {
            1 => format!("vec4<{s}>({value}, {zero}, {zero}, {zero})"),
            2 => format!("vec4<{s}>({value}, {zero}, {zero})"),
            3 => format!("vec4<{s}>({value}, {zero})"),
            _ => value,
        })
    }
}
