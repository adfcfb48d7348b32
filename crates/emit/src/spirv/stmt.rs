//! Statements and structured control flow: `OpSelectionMerge` for `if`
//! and `switch`, `OpLoopMerge` with a continue target for loops, `break`
//! and `continue` as branches to the innermost construct's merge or
//! continue block, `return`, and `discard` as `OpKill`. Statements after
//! a terminator in the same block are unreachable and not emitted.

use legalis_ir as ir;
use legalis_ir::{Expression, Handle, Statement};
use spirv::{LoopControl, SelectionControl, StorageClass, Word};

use super::convert::Shape;
use super::expr::Place;
use super::io::plain_ptr;
use super::writer::{Breakable, Result, Writer, unsupported};

impl Writer<'_> {
    pub fn emit_block(&mut self, block: &ir::Block) -> Result<()> {
        for (stmt, span) in block.iter() {
            if self.terminated() {
                break;
            }
            self.emit_stmt(stmt, span)?;
        }
        Ok(())
    }

    fn emit_stmt(&mut self, stmt: &Statement, span: ir::Span) -> Result<()> {
        match stmt {
            Statement::Declare { local, init } => {
                if let Some(init) = init {
                    let v = self.value(*init)?;
                    let Some(&var) = self.fs.locals.get(local) else {
                        return unsupported("a local outside its function", span);
                    };
                    let ty = self.fs.func.map(|f| f.locals[*local].ty);
                    let Some(ty) = ty else {
                        return unsupported("a local outside its function", span);
                    };
                    self.store(&Place::Mem(plain_ptr(var, ty, StorageClass::Function)), v)?;
                }
            }
            Statement::Store { target, value } => {
                let v = self.value(*value)?;
                let place = self.place(*target)?;
                self.store(&place, v)?;
            }
            Statement::Expr(e) => {
                self.value_stmt(*e)?;
            }
            Statement::Block(b) => self.emit_block(b)?,
            Statement::If {
                condition,
                accept,
                reject,
            } => self.emit_if(*condition, accept, reject)?,
            Statement::For {
                init,
                condition,
                update,
                body,
            } => {
                self.emit_block(init)?;
                if !self.terminated() {
                    self.emit_loop(*condition, body, update, false)?;
                }
            }
            Statement::While { condition, body } => {
                self.emit_loop(Some(*condition), body, &ir::Block::default(), false)?
            }
            Statement::DoWhile { body, condition } => {
                self.emit_loop(Some(*condition), body, &ir::Block::default(), true)?
            }
            Statement::Switch { selector, cases } => self.emit_switch(*selector, cases, span)?,
            Statement::Break => match self.fs.breaks.last() {
                Some(Breakable::Loop { merge, .. } | Breakable::Switch { merge }) => {
                    let merge = *merge;
                    self.b.branch(merge)?;
                }
                None => return unsupported("`break` outside a loop or switch", span),
            },
            Statement::Continue => {
                let target = self.fs.breaks.iter().rev().find_map(|b| match b {
                    Breakable::Loop {
                        continue_target, ..
                    } => Some(*continue_target),
                    Breakable::Switch { .. } => None,
                });
                match target {
                    Some(t) => self.b.branch(t)?,
                    None => return unsupported("`continue` outside a loop", span),
                }
            }
            Statement::Return(None) => {
                self.entry_interlock(false)?;
                self.b.ret()?
            }
            Statement::Return(Some(e)) => {
                let v = self.value(*e)?;
                self.b.ret_value(v)?;
            }
            Statement::Discard => self.b.kill()?,
            Statement::EmitVertex { stream: 0 } => self.b.emit_vertex()?,
            Statement::EmitVertex { stream } => {
                let id = self.int(*stream as i32);
                self.b.emit_stream_vertex(id)?
            }
            Statement::EndPrimitive { stream: 0 } => self.b.end_primitive()?,
            Statement::EndPrimitive { stream } => {
                let id = self.int(*stream as i32);
                self.b.end_stream_primitive(id)?
            }
            Statement::PatchBarrier => {
                // Execution scope Workgroup (the patch), memory scope
                // Invocation, no semantics: what GLSL's `barrier()` in a
                // tessellation control shader means.
                let (workgroup, invocation, none) = (self.uint(2), self.uint(4), self.uint(0));
                self.b.control_barrier(workgroup, invocation, none)?
            }
            Statement::Printf { format, args } => {
                let args = args
                    .iter()
                    .map(|a| self.value(*a))
                    .collect::<Result<Vec<_>>>()?;
                self.debug_printf(format, &args)?;
            }
        }
        Ok(())
    }

    /// An expression evaluated for its effect: a call, an atomic, a store.
    fn value_stmt(&mut self, e: Handle<Expression>) -> Result<()> {
        if let Expression::Intrinsic { fun, args } = &self.fs.exprs[e] {
            return self.intrinsic_stmt(e, *fun, args);
        }
        self.value(e)?;
        Ok(())
    }

    /// A bool scalar for a condition of any numeric type.
    pub fn condition(&mut self, c: Handle<Expression>) -> Result<Word> {
        let ty = self.expr_ty(c)?;
        let v = self.value(c)?;
        match self.shape(ty) {
            Some(s) if s.size == 0 && s.columns == 0 => {
                let b = Shape {
                    scalar: ir::Scalar::BOOL,
                    ..s
                };
                self.convert_num(v, s, b, self.span(c))
            }
            _ => unsupported("a non-scalar condition", self.span(c)),
        }
    }

    fn emit_if(
        &mut self,
        condition: Handle<Expression>,
        accept: &ir::Block,
        reject: &ir::Block,
    ) -> Result<()> {
        let c = self.condition(condition)?;
        let (yes, merge) = (self.b.id(), self.b.id());
        let no = if reject.is_empty() {
            merge
        } else {
            self.b.id()
        };
        self.b.selection_merge(merge, SelectionControl::NONE)?;
        self.b.branch_conditional(c, yes, no, [])?;
        self.begin(yes)?;
        self.emit_block(accept)?;
        self.branch_to(merge)?;
        if !reject.is_empty() {
            self.begin(no)?;
            self.emit_block(reject)?;
            self.branch_to(merge)?;
        }
        self.begin(merge)
    }

    /// `header: OpLoopMerge; branch to the condition (or body) ... continue:
    /// update; branch header`. A `do`/`while` tests in the continue block.
    fn emit_loop(
        &mut self,
        condition: Option<Handle<Expression>>,
        body: &ir::Block,
        update: &ir::Block,
        test_last: bool,
    ) -> Result<()> {
        let (header, body_label, continue_target, merge) =
            (self.b.id(), self.b.id(), self.b.id(), self.b.id());
        self.b.branch(header)?;
        self.begin(header)?;
        self.b
            .loop_merge(merge, continue_target, LoopControl::NONE)?;
        match condition {
            Some(c) if !test_last => {
                let test = self.b.id();
                self.b.branch(test)?;
                self.begin(test)?;
                let v = self.condition(c)?;
                self.b.branch_conditional(v, body_label, merge, [])?;
            }
            _ => self.b.branch(body_label)?,
        }
        self.begin(body_label)?;
        self.fs.breaks.push(Breakable::Loop {
            merge,
            continue_target,
        });
        self.emit_block(body)?;
        self.fs.breaks.pop();
        self.branch_to(continue_target)?;
        self.begin(continue_target)?;
        self.emit_block(update)?;
        match condition {
            Some(c) if test_last => {
                let v = self.condition(c)?;
                self.b.branch_conditional(v, header, merge, [])?;
            }
            _ => self.branch_to(header)?,
        }
        self.begin(merge)
    }

    fn emit_switch(
        &mut self,
        selector: Handle<Expression>,
        cases: &[ir::SwitchCase],
        span: ir::Span,
    ) -> Result<()> {
        let ty = self.expr_ty(selector)?;
        let mut sel = self.value(selector)?;
        let Some(s) = self.shape(ty).filter(|s| s.size == 0 && s.columns == 0) else {
            return unsupported("a non-scalar switch selector", span);
        };
        // Case literals are 32-bit; other selector types switch on an `int`.
        let selector_scalar = match s.scalar {
            ir::Scalar::U32 | ir::Scalar::I32 => s.scalar,
            _ => {
                let int = Shape {
                    scalar: ir::Scalar::I32,
                    ..s
                };
                sel = self.convert_num(sel, s, int, span)?;
                ir::Scalar::I32
            }
        };
        let _ = selector_scalar;
        let merge = self.b.id();
        let labels: Vec<Word> = cases.iter().map(|_| self.b.id()).collect();
        let mut default = merge;
        let mut targets = Vec::new();
        for (case, &label) in cases.iter().zip(&labels) {
            for v in &case.values {
                match v {
                    ir::SwitchValue::Int(n) => {
                        targets.push((rspirv::dr::Operand::LiteralBit32(*n as u32), label))
                    }
                    ir::SwitchValue::Default => default = label,
                }
            }
        }
        self.check_default_fall_through(cases, span)?;
        self.b.selection_merge(merge, SelectionControl::NONE)?;
        self.b.switch(sel, default, targets)?;
        self.fs.breaks.push(Breakable::Switch { merge });
        for (i, case) in cases.iter().enumerate() {
            self.begin(labels[i])?;
            self.emit_block(&case.body)?;
            let next = match labels.get(i + 1) {
                Some(&l) if case.fall_through => l,
                _ => merge,
            };
            self.branch_to(next)?;
        }
        self.fs.breaks.pop();
        self.begin(merge)
    }

    /// SPIR-V lists the default target first, so a fall-through into or
    /// out of a default case placed later cannot keep the required order.
    fn check_default_fall_through(&self, cases: &[ir::SwitchCase], span: ir::Span) -> Result<()> {
        for (i, case) in cases.iter().enumerate() {
            let is_default = case.values.contains(&ir::SwitchValue::Default);
            let falls_in = i > 0 && cases[i - 1].fall_through && !body_ends(&cases[i - 1].body);
            let falls_out = case.fall_through && !body_ends(&case.body) && i + 1 < cases.len();
            if is_default && i > 0 && (falls_in || falls_out) {
                return unsupported(
                    "fall-through into or out of a `default` that is not first",
                    span,
                );
            }
        }
        Ok(())
    }
}

fn body_ends(block: &ir::Block) -> bool {
    matches!(
        block.stmts.last(),
        Some(Statement::Break | Statement::Return(_) | Statement::Continue | Statement::Discard)
    )
}
