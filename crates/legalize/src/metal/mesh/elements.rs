//! Mesh output elements written field by field (issue 29), for Metal.
//!
//! Metal writes a mesh output element whole (`set_vertex`,
//! `set_primitive`, `set_index`) and cannot read one back, while HLSL
//! writes `verts[i].pos = ...; verts[i].uv = ...;`, reads a field it
//! wrote, and indexes the arrays dynamically. An output array that the
//! entry function uses in any way other than whole-element stores
//! (`verts[i] = v;`, which keep their direct path) lives in thread
//! memory instead:
//!
//! - a local of the source's array type, named as the parameter
//!   (`MeshVertex verts[64]`), which every use of the parameter now
//!   names, so partial stores, reads back and dynamic indices are plain
//!   local accesses;
//! - a `bool` array beside it, `verts_written`, cleared in the prologue,
//!   set for element `i` by every store into `verts[i]` (after the store;
//!   when the store's value has side effects or its index does, the
//!   index is evaluated once into a local before it);
//! - at every exit of the entry function (each `return` and the end of
//!   the body) a loop over the elements that stores each element marked
//!   written, whole, into the output: `if (verts_written[i]) mesh[i] =
//!   verts[i];`, which the whole-element path turns into
//!   `set_vertex`/`set_primitive`/`set_index`.
//!
//! Only elements this thread wrote are written: the threads of a group
//! share the outputs and each has its own copy, so writing every element
//! up to the count (which D3D would allow for a single thread: unwritten
//! outputs are undefined) would overwrite the other threads' elements
//! with this thread's undefined ones. A field this thread did not write
//! of an element it did write is undefined, as in D3D; so one element's
//! fields written by two threads of the group is not supported (the last
//! thread to exit writes its whole element). The copy costs the array's
//! size in thread memory per thread, which is why whole-element stores
//! keep the direct path.
//!
//! What stays `E55309`: the array used whole (passed to a function,
//! copied, assigned) and an element or a part of one written other than
//! by an assignment statement (an `out` argument, an assignment or `++`
//! inside an expression, an intrinsic with side effects): the copy knows
//! an element is written only at an assignment statement.

use legalis_ir::{FastHashMap, FastHashSet};

use legalis_ir as ir;
use legalis_ir::diag::Diagnostic;
use legalis_ir::{Expression, Handle, MeshOutputKind, Statement, Type, TypeInner};

use super::stores;
use crate::codes;
use crate::common::builder::{self, FunctionBuilder};

/// The `Index` node under the place `h` (through members, elements and
/// swizzles) whose base `is_array` accepts: the element `h` is part of.
fn element_of(
    exprs: &ir::ExpressionArena,
    mut h: Handle<Expression>,
    is_array: impl Fn(&Expression) -> bool,
) -> Option<Handle<Expression>> {
    loop {
        match &exprs[h] {
            Expression::Index { base, .. } if is_array(&exprs[*base]) => return Some(h),
            Expression::Member { base, .. }
            | Expression::Index { base, .. }
            | Expression::Swizzle { base, .. } => h = *base,
            _ => return None,
        }
    }
}

/// The mesh output parameters of the source function that need a
/// thread-local copy: some element of theirs is used other than as the
/// target of a whole-element store.
pub(super) fn field_wise(
    func: &ir::Function,
    params: &FastHashMap<u32, MeshOutputKind>,
) -> FastHashSet<u32> {
    let mut whole = FastHashSet::default();
    stores(&func.body, &mut |target| {
        whole.insert(target);
    });
    let mut out = FastHashSet::default();
    for (h, e) in func.expressions.iter() {
        if let Expression::Index { base, .. } = e
            && let Expression::Param(k) = func.expressions[*base]
            && params.contains_key(&k)
            && !whole.contains(&h)
        {
            out.insert(k);
        }
    }
    out
}

/// `E55309` for each use of a mesh output the copy cannot take (see the
/// module doc).
pub(super) fn check(
    module: &ir::Module,
    func: &ir::Function,
    params: &FastHashMap<u32, MeshOutputKind>,
) -> Vec<Diagnostic> {
    let exprs = &func.expressions;
    let is_output = |e: &Expression| matches!(e, Expression::Param(k) if params.contains_key(k));
    let name_of = |e: &Expression| match e {
        Expression::Param(k) => func.params[*k as usize].name.as_str(),
        _ => "",
    };
    let mut statements = FastHashSet::default();
    expression_statements(&func.body, &mut statements);
    let mut errors = Vec::new();
    for (h, e) in exprs.iter() {
        for child in e.children() {
            if is_output(&exprs[child])
                && !matches!(e, Expression::Index { base, .. } if *base == child)
            {
                let name = name_of(&exprs[child]);
                errors.push(Diagnostic::error(
                    codes::METAL_MESH_OUTPUT_ACCESS,
                    format!(
                        "`{name}` is a Metal mesh output: use its elements (`{name}[i] = value;`, \
                         `{name}[i].field = value;`); Metal cannot pass the array on or use it whole"
                    ),
                    exprs.span(h),
                ));
            }
        }
        let written: Vec<Handle<Expression>> = match e {
            Expression::Assign { target, .. } | Expression::IncDec { target, .. }
                if !statements.contains(&h) =>
            {
                vec![*target]
            }
            Expression::Call { function, args } => {
                let callee = module.functions.try_get(*function);
                args.iter()
                    .enumerate()
                    .filter(|(i, _)| {
                        callee
                            .and_then(|c| c.params.get(*i))
                            .is_some_and(|p| p.direction != ir::ParamDirection::In)
                    })
                    .map(|(_, &a)| a)
                    .collect()
            }
            Expression::Intrinsic { fun, args } if fun.has_side_effects() => args.clone(),
            _ => Vec::new(),
        };
        for place in written {
            let Some(element) = element_of(exprs, place, is_output) else {
                continue;
            };
            let Expression::Index { base, .. } = exprs[element] else {
                continue;
            };
            let name = name_of(&exprs[base]);
            errors.push(Diagnostic::error(
                codes::METAL_MESH_OUTPUT_ACCESS,
                format!(
                    "an element of the Metal mesh output `{name}` written other than by an \
                     assignment statement: Metal writes elements whole, from a copy that marks \
                     an element written at each `{name}[i].field = value;`; write the value to a \
                     local here and assign it to the element after"
                ),
                exprs.span(place),
            ));
        }
    }
    errors
}

/// The expressions that are statements of their own (`Statement::Expr`).
fn expression_statements(block: &ir::Block, out: &mut FastHashSet<Handle<Expression>>) {
    for stmt in &block.stmts {
        if let Statement::Expr(e) = stmt {
            out.insert(*e);
        }
        for b in stmt.blocks() {
            expression_statements(b, out);
        }
    }
}

/// The place a statement writes: a store's target, or that of an
/// assignment or `++`/`--` made a statement.
fn written_place(exprs: &ir::ExpressionArena, stmt: &Statement) -> Option<Handle<Expression>> {
    match stmt {
        Statement::Store { target, .. } => Some(*target),
        Statement::Expr(e) => match exprs[*e] {
            Expression::Assign { target, .. } | Expression::IncDec { target, .. } => Some(target),
            _ => None,
        },
        _ => None,
    }
}

/// One mesh output array kept in thread memory.
pub(super) struct Copy {
    /// The copy, `T name[N]` of the source's element type.
    local: Handle<ir::LocalVariable>,
    /// Its type.
    ty: Handle<Type>,
    /// The source's element type.
    element: Handle<Type>,
    /// `bool name_written[N]`.
    written: Handle<ir::LocalVariable>,
    count: u32,
    /// The output parameter, by its index in the rewritten function (set
    /// once the parameters are renumbered).
    pub param: u32,
}

impl Copy {
    /// The local that replaces the parameter, with its type.
    pub fn replacement(&self) -> (Expression, Handle<Type>) {
        (Expression::Local(self.local), self.ty)
    }
}

/// Declares the copies of the field-wise written outputs of `source`
/// (source parameter index to copy) with their cleared flags, in
/// `prologue`.
pub(super) fn declare(
    w: &mut FunctionBuilder,
    module: &mut ir::Module,
    source: &ir::Function,
    params: &FastHashMap<u32, MeshOutputKind>,
    prologue: &mut ir::Block,
) -> FastHashMap<u32, Copy> {
    let mut keys: Vec<u32> = field_wise(source, params).into_iter().collect();
    keys.sort_unstable();
    let bool_ty = builder::ty(module, TypeInner::Scalar(ir::Scalar::BOOL));
    let mut copies = FastHashMap::default();
    for k in keys {
        let param = &source.params[k as usize];
        let TypeInner::MeshOutput { element, count, .. } = module.types[param.ty].inner else {
            continue;
        };
        w.span = param.span;
        let ty = builder::array_of(module, element, count);
        let local = w.local(&param.name, ty);
        prologue.push(Statement::Declare { local, init: None }, param.span);
        let flags_ty = builder::array_of(module, bool_ty, count);
        let written = w.local(&format!("{}_written", param.name), flags_ty);
        prologue.push(
            Statement::Declare {
                local: written,
                init: None,
            },
            param.span,
        );
        let clear = each_element(w, module, count, |w, i| {
            let target = flag(w, written, i, bool_ty);
            let value = w.expr(Expression::Literal(ir::Literal::Bool(false)), Some(bool_ty));
            let mut body = ir::Block::default();
            body.push(Statement::Store { target, value }, w.span);
            body
        });
        prologue.push(clear, param.span);
        copies.insert(
            k,
            Copy {
                local,
                ty,
                element,
                written,
                count,
                param: k,
            },
        );
    }
    copies
}

/// `written[index]`.
fn flag(
    w: &mut FunctionBuilder,
    written: Handle<ir::LocalVariable>,
    index: Handle<Expression>,
    bool_ty: Handle<Type>,
) -> Handle<Expression> {
    let ty = w.func.locals[written].ty;
    let base = w.expr(Expression::Local(written), Some(ty));
    w.expr(Expression::Index { base, index }, Some(bool_ty))
}

/// `for (uint i = 0u; i < count; i = i + 1u) body(i)`; `body` gets a new
/// read of `i` each time it asks.
fn each_element(
    w: &mut FunctionBuilder,
    module: &mut ir::Module,
    count: u32,
    body: impl FnOnce(&mut FunctionBuilder, Handle<Expression>) -> ir::Block,
) -> Statement {
    let span = w.span;
    let u32_ty = builder::ty(module, TypeInner::Scalar(ir::Scalar::U32));
    let bool_ty = builder::ty(module, TypeInner::Scalar(ir::Scalar::BOOL));
    let i = w.local("i", u32_ty);
    let zero = w.expr(Expression::Literal(ir::Literal::Uint(0)), Some(u32_ty));
    let mut init = ir::Block::default();
    init.push(
        Statement::Declare {
            local: i,
            init: Some(zero),
        },
        span,
    );
    let read = w.expr(Expression::Local(i), Some(u32_ty));
    let n = w.expr(
        Expression::Literal(ir::Literal::Uint(count.into())),
        Some(u32_ty),
    );
    let condition = w.expr(
        Expression::Binary {
            op: ir::BinaryOp::Less,
            left: read,
            right: n,
        },
        Some(bool_ty),
    );
    let target = w.expr(Expression::Local(i), Some(u32_ty));
    let old = w.expr(Expression::Local(i), Some(u32_ty));
    let one = w.expr(Expression::Literal(ir::Literal::Uint(1)), Some(u32_ty));
    let value = w.expr(
        Expression::Binary {
            op: ir::BinaryOp::Add,
            left: old,
            right: one,
        },
        Some(u32_ty),
    );
    let mut update = ir::Block::default();
    update.push(Statement::Store { target, value }, span);
    let index = w.expr(Expression::Local(i), Some(u32_ty));
    let body = body(w, index);
    Statement::For {
        init: Box::new(init),
        condition: Some(condition),
        update: Box::new(update),
        body: Box::new(body),
    }
}

/// Marks the element written by each store into a copy, and writes the
/// written elements out at each `return` of `body` and at its end.
pub(super) fn rewrite(
    w: &mut FunctionBuilder,
    module: &mut ir::Module,
    body: &mut ir::Block,
    copies: &FastHashMap<u32, Copy>,
) {
    if copies.is_empty() {
        return;
    }
    let mut sorted: Vec<&Copy> = copies.values().collect();
    sorted.sort_unstable_by_key(|c| c.param);
    let by_local: FastHashMap<Handle<ir::LocalVariable>, &Copy> =
        sorted.iter().map(|c| (c.local, *c)).collect();
    rewrite_block(w, module, body, &by_local, &sorted);
    if !matches!(body.stmts.last(), Some(Statement::Return(_))) {
        let span = w.func.span;
        let exit = write_out(w, module, &sorted, span);
        body.stmts.extend(exit.stmts);
        body.spans.extend(exit.spans);
    }
}

fn rewrite_block(
    w: &mut FunctionBuilder,
    module: &mut ir::Module,
    block: &mut ir::Block,
    by_local: &FastHashMap<Handle<ir::LocalVariable>, &Copy>,
    sorted: &[&Copy],
) {
    let old = std::mem::take(block);
    for (mut stmt, span) in old.stmts.into_iter().zip(old.spans) {
        for inner in stmt.blocks_mut() {
            rewrite_block(w, module, inner, by_local, sorted);
        }
        let copy_of = |e: &Expression| match e {
            Expression::Local(l) => by_local.get(l).copied(),
            _ => None,
        };
        let exprs = &w.func.expressions;
        let found = written_place(exprs, &stmt)
            .and_then(|target| element_of(exprs, target, |e| copy_of(e).is_some()))
            .and_then(|element| match exprs[element] {
                Expression::Index { base, index } => {
                    copy_of(&exprs[base]).map(|copy| (copy, element, base, index))
                }
                _ => None,
            });
        if let Some((copy, element, base, index)) = found {
            let marked = mark_written(w, module, copy, stmt, (element, base, index), span);
            if marked.stmts.len() > 2 {
                block.push(Statement::Block(marked), span);
            } else {
                block.stmts.extend(marked.stmts);
                block.spans.extend(marked.spans);
            }
            continue;
        }
        match stmt {
            Statement::Return(_) => {
                let exit = write_out(w, module, sorted, span);
                block.stmts.extend(exit.stmts);
                block.spans.extend(exit.spans);
                block.push(stmt, span);
            }
            _ => block.push(stmt, span),
        }
    }
}

/// `{ target = value; written[i] = true; }` (`stmt` writes the element
/// `copy[i]`, `element`), or with the index in a local first, `{ uint
/// index = i; target' = value; written[index] = true; }` where `target'`
/// indexes by it: when evaluating the index twice, or after the value,
/// could be seen.
fn mark_written(
    w: &mut FunctionBuilder,
    module: &mut ir::Module,
    copy: &Copy,
    stmt: Statement,
    (element, base, index): (Handle<Expression>, Handle<Expression>, Handle<Expression>),
    span: ir::Span,
) -> ir::Block {
    let bool_ty = builder::ty(module, TypeInner::Scalar(ir::Scalar::BOOL));
    let mut block = ir::Block::default();
    w.span = span;
    let exprs = &w.func.expressions;
    let pure = match &stmt {
        Statement::Store { value, .. } => ir::is_pure(exprs, *value),
        Statement::Expr(e) => exprs[*e].children().iter().all(|&c| ir::is_pure(exprs, c)),
        _ => false,
    };
    let again = if pure && ir::is_pure(exprs, index) {
        w.copy_tree(index)
    } else {
        let u32_ty = builder::ty(module, TypeInner::Scalar(ir::Scalar::U32));
        let index_ty = w.func.expressions.ty(index).unwrap_or(u32_ty);
        let local = w.local("index", index_ty);
        block.push(
            Statement::Declare {
                local,
                init: Some(index),
            },
            span,
        );
        let read = w.expr(Expression::Local(local), Some(index_ty));
        let element_ty = w.func.expressions.ty(element);
        w.func
            .expressions
            .set(element, Expression::Index { base, index: read }, element_ty);
        w.expr(Expression::Local(local), Some(index_ty))
    };
    block.push(stmt, span);
    let target = flag(w, copy.written, again, bool_ty);
    let value = w.expr(Expression::Literal(ir::Literal::Bool(true)), Some(bool_ty));
    block.push(Statement::Store { target, value }, span);
    block
}

/// For each copy, `for (uint i = 0u; i < N; i = i + 1u) if (written[i])
/// output[i] = copy[i];`.
fn write_out(
    w: &mut FunctionBuilder,
    module: &mut ir::Module,
    copies: &[&Copy],
    span: ir::Span,
) -> ir::Block {
    let bool_ty = builder::ty(module, TypeInner::Scalar(ir::Scalar::BOOL));
    let mut block = ir::Block::default();
    for copy in copies {
        w.span = span;
        let param_ty = w.func.params[copy.param as usize].ty;
        let element_ty = copy.element;
        let statement = each_element(w, module, copy.count, |w, i| {
            let condition = flag(w, copy.written, i, bool_ty);
            // `array[i]`, with a copy of the index tree.
            let element = |w: &mut FunctionBuilder, array: Expression, ty| {
                let base = w.expr(array, Some(ty));
                let index = w.copy_tree(i);
                w.expr(Expression::Index { base, index }, Some(element_ty))
            };
            let target = element(w, Expression::Param(copy.param), param_ty);
            let value = element(w, Expression::Local(copy.local), copy.ty);
            let mut accept = ir::Block::default();
            accept.push(Statement::Store { target, value }, span);
            let mut body = ir::Block::default();
            body.push(
                Statement::If {
                    condition,
                    accept: Box::new(accept),
                    reject: Box::default(),
                },
                span,
            );
            body
        });
        block.push(statement, span);
    }
    block
}
