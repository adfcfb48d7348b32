//! Function bodies and statements.

use legalis_ir as ir;
use legalis_ir::{Span, TypeInner};

use super::attrs::AttrSite;
use super::decl::sort_modifiers;
use super::{Checker, FnCtx, ValueSymbol};
use crate::{ast, codes};

impl Checker<'_> {
    pub fn lower_bodies(&mut self, items: &[super::FlatItem<'_>]) {
        for index in 0..self.funcs.len() {
            let Some(body) = self.funcs[index].body_item else {
                continue;
            };
            if let Some(decl) = body.decl(items) {
                self.namespace.clone_from(&self.funcs[index].scope);
                self.lower_function(index, decl);
            }
        }
        self.lower_generic_bodies();
    }

    pub(super) fn lower_function(&mut self, index: usize, decl: &ast::FunctionDecl) {
        let info = self.funcs[index].clone();
        let acted = self.sort_attributes(&decl.attributes, AttrSite::Function);
        let _ = acted; // stage attributes are read when entry points are declared
        let mut params = Vec::with_capacity(info.params.len());
        let this_count = usize::from(info.this_ty.is_some());
        if let Some(this_ty) = info.this_ty {
            params.push(ir::FunctionParam {
                name: "this".into(),
                ty: this_ty,
                direction: info.params[0].direction,
                role: ir::ParamRole::Plain,
                io: ir::IoAttrs::default(),
                span: decl.name.span,
            });
        }
        let kept = self.kept_params(decl);
        for (param, sig) in kept.into_iter().zip(&info.params[this_count..]) {
            let (_, mods) = self.param_signature_mods(param);
            let acted = self.sort_attributes(&param.attributes, AttrSite::Parameter);
            let io = self.io_attrs(&acted, &param.declarator.annotations, mods.interpolation);
            let role = if mods.payload {
                ir::ParamRole::Payload
            } else if let Some(p) = mods.primitive {
                ir::ParamRole::GeometryInput(p)
            } else if mods.is_uniform {
                ir::ParamRole::Uniform
            } else {
                ir::ParamRole::Plain
            };
            params.push(ir::FunctionParam {
                name: param.declarator.name.name.clone(),
                ty: sig.ty,
                direction: sig.direction,
                role,
                io,
                span: param.declarator.name.span,
            });
        }
        let result = info.result.map(|ty| {
            let io = self.io_attrs(&[], &decl.return_annotations, ir::Interpolation::default());
            ir::FunctionResult {
                ty,
                io,
                span: decl.return_type.span,
            }
        });
        // A few expressions a top-level statement (a store is four or
        // five): thousands of statements are not copied as the arena grows.
        let mut expressions = ir::ExpressionArena::default();
        let mut body = ir::Block::default();
        if let Some(block) = &decl.body {
            expressions.reserve(4 * block.stmts.len());
            body.reserve(block.stmts.len());
        }
        let func = ir::Function {
            name: info.name.clone(),
            params,
            result,
            locals: ir::Arena::new(),
            expressions,
            body: ir::Block::default(),
            span: decl.span,
        };
        self.ctx = Some(FnCtx {
            func,
            result: info.result,
            loop_depth: 0,
            switch_depth: 0,
            calls: Vec::new(),
            this_ty: info.this_ty.or(info.constructs),
            this_local: None,
            constexpr_params: (0..info.params.len() as u32)
                .filter(|&i| info.params[i as usize].constexpr)
                .collect(),
        });
        if let Some(ty) = info.constructs
            && let Some(ctx) = &mut self.ctx
        {
            // A constructor builds its struct in a local `this`.
            let local = ctx.func.locals.append(
                ir::LocalVariable {
                    name: "this".into(),
                    ty,
                    is_static: false,
                    is_const: false,
                },
                decl.name.span,
            );
            ctx.this_local = Some(local);
            body.push(ir::Statement::Declare { local, init: None }, decl.name.span);
            if self.has_field_defaults(ty, 0) {
                let place = self.append(ir::Expression::Local(local), Some(ty), decl.name.span);
                self.store_field_defaults(place.expr, ty, decl.name.span, &mut body, 0);
            }
        }
        // Fields of `this` are visible by bare name; parameters and locals
        // shadow them.
        self.push_scope();
        if let Some(this_ty) = info.this_ty.or(info.constructs) {
            self.declare_this_fields(this_ty, decl.name.span);
        }
        self.push_scope();
        self.declare_params(decl, this_count as u32);
        if let Some(block) = &decl.body {
            self.lower_stmts(&block.stmts, &mut body);
        }
        self.pop_scope();
        self.pop_scope();
        if info.constructs.is_some() && !block_terminates(&body) {
            self.lower_return(None, decl.span, &mut body);
        }
        if info.result.is_some() && !block_terminates(&body) {
            self.warning(
                codes::MISSING_RETURN,
                format!(
                    "function `{}` can reach its end without returning a value",
                    info.name
                ),
                decl.name.span,
            );
        }
        if let Some(ctx) = self.ctx.take() {
            let mut func = ctx.func;
            func.body = body;
            self.bodies[index] = Some(func);
            self.call_edges[index] = ctx.calls;
        }
    }

    fn declare_this_fields(&mut self, this_ty: legalis_ir::Handle<legalis_ir::Type>, span: Span) {
        let names: Vec<String> = match self.inner(this_ty) {
            TypeInner::Struct { members } => members.iter().map(|m| m.name.clone()).collect(),
            _ => Vec::new(),
        };
        for (index, name) in names.into_iter().enumerate() {
            let ident = ast::Ident { name, span };
            self.declare_value(
                &ident,
                ValueSymbol::ThisField {
                    index: index as u32,
                },
            );
        }
        for (name, inner) in self.absent_fields_of(this_ty) {
            self.declare_absent(&ast::Ident { name, span }, inner);
        }
        let this = ast::Ident {
            name: "this".into(),
            span,
        };
        self.declare_value(&this, ValueSymbol::This);
    }

    fn param_signature_mods(&mut self, param: &ast::Param) -> ((), super::decl::DeclModifiers) {
        let (mods, _) = sort_modifiers(&param.modifiers, &param.ty.modifiers);
        ((), mods)
    }

    pub fn lower_stmts(&mut self, stmts: &[ast::Stmt], out: &mut ir::Block) {
        // Most statements lower to one; declarations may lower to none.
        out.reserve(stmts.len());
        for stmt in stmts {
            self.lower_stmt(stmt, out);
        }
    }

    /// Lowers a statement in its own scope (if/loop bodies).
    pub(super) fn lower_scoped(&mut self, stmt: &ast::Stmt) -> ir::Block {
        let mut block = ir::Block::default();
        self.push_scope();
        match &stmt.kind {
            ast::StmtKind::Block(b) => {
                self.sort_attributes(&stmt.attributes, AttrSite::Statement);
                self.lower_stmts(&b.stmts, &mut block);
            }
            _ => self.lower_stmt(stmt, &mut block),
        }
        self.pop_scope();
        block
    }

    fn lower_stmt(&mut self, stmt: &ast::Stmt, out: &mut ir::Block) {
        use ast::StmtKind as S;
        self.sort_attributes(&stmt.attributes, AttrSite::Statement);
        let span = stmt.span;
        match &stmt.kind {
            S::Var(decl) => self.lower_local_decl(decl, out),
            S::Struct(s) => {
                self.declare_struct(s);
                if let Some(method) = s.methods.first() {
                    self.error(
                        codes::PARSE_UNSUPPORTED,
                        "member functions of a struct declared inside a function are not supported",
                        method.name.span,
                    );
                }
            }
            S::TypeAlias(a) => self.declare_alias(a),
            S::Expr(e) => self.lower_expr_stmt(e, out),
            S::Block(b) => {
                self.push_scope();
                let mut block = ir::Block::default();
                self.lower_stmts(&b.stmts, &mut block);
                self.pop_scope();
                out.push(ir::Statement::Block(block), span);
            }
            S::If { cond, then, els } => {
                // `if (T is X)`: the branch not taken is not checked (it may
                // only make sense for another specialisation).
                let condition = self.lower_condition(cond);
                let known = self.static_type_test(cond, condition);
                let accept = match known {
                    Some(false) => ir::Block::default(),
                    _ => self.lower_scoped(then),
                };
                let reject = els
                    .as_ref()
                    .filter(|_| known != Some(true))
                    .map(|e| self.lower_scoped(e))
                    .unwrap_or_default();
                out.push(
                    ir::Statement::If {
                        condition,
                        accept: Box::new(accept),
                        reject: Box::new(reject),
                    },
                    span,
                );
            }
            S::For {
                init,
                cond,
                update,
                body,
            } => self.lower_for(
                init.as_deref(),
                cond.as_deref(),
                update.as_deref(),
                body,
                span,
                out,
            ),
            S::While { cond, body } => {
                let condition = self.lower_condition(cond);
                let body = self.lower_loop_body(body);
                out.push(ir::Statement::While { condition, body }, span);
            }
            S::DoWhile { body, cond } => {
                let body = self.lower_loop_body(body);
                let condition = self.lower_condition(cond);
                out.push(ir::Statement::DoWhile { body, condition }, span);
            }
            S::Switch { selector, cases } => self.lower_switch(selector, cases, span, out),
            S::IfLet {
                name,
                value,
                then,
                els,
            } => self.lower_if_let(name, value, (then, els.as_deref()), span, out),
            S::Break => {
                let ok = self
                    .ctx
                    .as_ref()
                    .is_some_and(|c| c.loop_depth > 0 || c.switch_depth > 0);
                if !ok {
                    self.error(
                        codes::MISPLACED_JUMP,
                        "`break` outside a loop or `switch`",
                        span,
                    );
                }
                out.push(ir::Statement::Break, span);
            }
            S::Continue => {
                let ok = self.ctx.as_ref().is_some_and(|c| c.loop_depth > 0);
                if !ok {
                    self.error(codes::MISPLACED_JUMP, "`continue` outside a loop", span);
                }
                out.push(ir::Statement::Continue, span);
            }
            S::Return(value) => self.lower_return(value.as_ref(), span, out),
            S::Discard => out.push(ir::Statement::Discard, span),
            S::Empty | S::Error => {}
        }
    }

    fn lower_local_decl(&mut self, decl: &ast::VarDecl, out: &mut ir::Block) {
        let (mods, _) = sort_modifiers(&decl.modifiers, &decl.ty.modifiers);
        if mods.groupshared || mods.is_uniform || mods.direction.is_some() {
            self.error(
                codes::BAD_MODIFIER,
                "this modifier is not allowed on a local variable",
                decl.span,
            );
        }
        self.sort_attributes(&decl.attributes, AttrSite::Variable);
        if decl.ty.name == ast::INFERRED_TYPE {
            self.lower_inferred_decl(decl, mods.is_const, out);
            return;
        }
        let conditional = self.conditional_type(&decl.ty);
        let base = match conditional {
            Some((inner, false)) => {
                self.lower_absent_locals(decl, inner, out);
                return;
            }
            Some((ty, true)) => ty,
            None => self.resolve_type(&decl.ty),
        };
        for d in &decl.declarators {
            let init_len = match d.init.as_ref().map(|e| &e.kind) {
                Some(ast::ExprKind::InitList(items)) => Some(items.len() as u32),
                _ => None,
            };
            let ty = self.apply_array_dims(base, &d.array_dims, init_len);
            self.check_value_type(ty, d.name.span, "a local variable");
            if !d.annotations.is_empty() {
                self.warning(
                    codes::IGNORED_ANNOTATION,
                    "annotations on a local variable have no effect",
                    d.span,
                );
            }
            let init = d.init.as_ref().map(|e| self.lower_initializer(e, ty));
            if mods.is_const && init.is_none() {
                self.error(
                    codes::BAD_INITIALIZER,
                    "a `const` variable needs an initializer",
                    d.span,
                );
            }
            let constant = match (&d.init, mods.is_const) {
                (Some(e), true) => self.try_const_eval(e).ok(),
                _ => None,
            };
            let local = ir::LocalVariable {
                name: d.name.name.clone(),
                ty,
                is_static: mods.is_static,
                is_const: mods.is_const,
            };
            let Some(ctx) = &mut self.ctx else { return };
            let handle = ctx.func.locals.append(local, d.name.span);
            if conditional.is_some() {
                self.note_present_local(handle);
            }
            out.push(
                ir::Statement::Declare {
                    local: handle,
                    init,
                },
                d.span,
            );
            if init.is_none() && !mods.is_static && self.has_field_defaults(ty, 0) {
                let place = self.append(ir::Expression::Local(handle), Some(ty), d.span);
                self.store_field_defaults(place.expr, ty, d.span, out, 0);
            }
            self.declare_value(&d.name, ValueSymbol::Local { handle, constant });
        }
    }

    /// Stores the default values of `ty`'s fields (and of its fields'
    /// fields) into `place`, a variable declared without an initializer.
    pub(super) fn store_field_defaults(
        &mut self,
        place: ir::Handle<ir::Expression>,
        ty: ir::Handle<ir::Type>,
        span: Span,
        out: &mut ir::Block,
        depth: u32,
    ) {
        const MAX_NESTING: u32 = 64;
        let TypeInner::Struct { members } = self.inner(ty) else {
            return;
        };
        if depth > MAX_NESTING {
            return;
        }
        let member_types: Vec<ir::Handle<ir::Type>> = members.iter().map(|m| m.ty).collect();
        let defaults = self.field_defaults.get(&ty).cloned().unwrap_or_default();
        let mut place_used = false;
        for (index, member_ty) in member_types.into_iter().enumerate() {
            let index = index as u32;
            let default = defaults.iter().find(|(i, _)| *i == index);
            if default.is_none() && !self.has_field_defaults(member_ty, depth + 1) {
                continue;
            }
            // Each store needs its own copy of the place expression.
            let base = if std::mem::replace(&mut place_used, true) {
                self.copy_expr(place)
            } else {
                place
            };
            let field = self.append(
                ir::Expression::Member { base, index },
                Some(member_ty),
                span,
            );
            match default {
                Some((_, value)) => {
                    let value = self.lower_initializer(value, member_ty);
                    out.push(
                        ir::Statement::Store {
                            target: field.expr,
                            value,
                        },
                        span,
                    );
                }
                None => self.store_field_defaults(field.expr, member_ty, span, out, depth + 1),
            }
        }
    }

    /// Whether a variable of `ty` starts with field defaults.
    fn has_field_defaults(&self, ty: ir::Handle<ir::Type>, depth: u32) -> bool {
        if self.field_defaults.contains_key(&ty) {
            return true;
        }
        match self.inner(ty) {
            TypeInner::Struct { members } if depth < 64 => members
                .iter()
                .any(|m| self.has_field_defaults(m.ty, depth + 1)),
            _ => false,
        }
    }

    /// Slang `let x = e;` / `var x = e;`: the variable takes the
    /// initializer's type.
    fn lower_inferred_decl(&mut self, decl: &ast::VarDecl, is_const: bool, out: &mut ir::Block) {
        for d in &decl.declarators {
            let Some(init) = &d.init else {
                self.error(
                    codes::BAD_INITIALIZER,
                    "`var` without a type needs an initializer",
                    d.span,
                );
                continue;
            };
            let value = self.lower_value(init);
            let value = self.materialize_optional(value, init.span);
            let ty = value.ty.unwrap_or(self.error_ty);
            if self.is_none_type(ty) {
                self.error(
                    codes::NOT_OPTIONAL,
                    "`none` has no type of its own: declare the variable `Optional<T>`",
                    init.span,
                );
            }
            let constant = if is_const {
                self.try_const_eval(init).ok()
            } else {
                None
            };
            let local = ir::LocalVariable {
                name: d.name.name.clone(),
                ty,
                is_static: false,
                is_const,
            };
            let Some(ctx) = &mut self.ctx else { return };
            let handle = ctx.func.locals.append(local, d.name.span);
            out.push(
                ir::Statement::Declare {
                    local: handle,
                    init: Some(value.expr),
                },
                d.span,
            );
            self.declare_value(&d.name, ValueSymbol::Local { handle, constant });
        }
    }

    /// Expression statements: assignments become stores, comma lists become
    /// several statements.
    fn lower_expr_stmt(&mut self, e: &ast::Expr, out: &mut ir::Block) {
        match &e.kind {
            ast::ExprKind::Binary {
                op: ast::BinaryOp::Comma,
                left,
                right,
            } => {
                self.lower_expr_stmt(left, out);
                self.lower_expr_stmt(right, out);
            }
            ast::ExprKind::Assign {
                op: None,
                target,
                value,
            } if self.conditional_store(target, value, false, e.span, out) => {}
            ast::ExprKind::MethodCall {
                object,
                method,
                args,
                ..
            } if method.name == "set"
                && args.len() == 1
                && self.conditional_store(object, &args[0], true, e.span, out) => {}
            ast::ExprKind::Assign { op, target, value }
                if self.lower_matrix_selector_store(*op, target, value, e.span, out) => {}
            ast::ExprKind::MethodCall {
                object,
                method,
                type_args,
                args,
            } if method.name == "Store"
                && !type_args.is_empty()
                && self.byte_address_store(object, method, type_args, args, e.span, out) => {}
            ast::ExprKind::Assign {
                op: Some(op),
                target,
                value,
            } => {
                let (target, value) = self.lower_compound_store(*op, target, value, e.span, out);
                out.push(ir::Statement::Store { target, value }, e.span);
            }
            ast::ExprKind::Assign { op, target, value } => {
                let (target, value) = self.lower_assignment(*op, target, value, e.span);
                out.push(ir::Statement::Store { target, value }, e.span);
            }
            ast::ExprKind::Call { callee, args } if self.is_printf(callee) => {
                self.lower_printf(args, e.span, out);
            }
            _ => {
                let v = self.lower_expr(e);
                out.push(ir::Statement::Expr(v.expr), e.span);
            }
        }
    }

    /// `a[i] op= v;` as a statement: `a[i] = a[i] op v`, the target
    /// lowered once and copied as the left operand. An index with a side
    /// effect (`a[n++] += 2.0;`, `a[next()] *= 3.0;`) is evaluated once,
    /// into a local declared before the store, so that the copy reads
    /// the element the store writes. (Lowering the target twice, as an
    /// assignment inside an expression still does, evaluates it twice.)
    fn lower_compound_store(
        &mut self,
        op: ast::BinaryOp,
        target: &ast::Expr,
        value: &ast::Expr,
        span: Span,
        out: &mut ir::Block,
    ) -> (ir::Handle<ir::Expression>, ir::Handle<ir::Expression>) {
        let t = self.lower_value(target);
        self.require_place(t.expr, target.span);
        self.hoist_impure_indices(t.expr, out);
        let target_ty = t.ty.unwrap_or(self.error_ty);
        let again = super::convert::Value {
            expr: self.copy_expr(t.expr),
            ty: t.ty,
        };
        let v = self.lower_value(value);
        let combined = self.lower_binary(op, again, v, (target.span, value.span), span);
        let value = self.coerce(combined, target_ty, span);
        (t.expr, value)
    }

    /// Each index with a side effect in the place `place` (through its
    /// members, swizzles and indices) is declared as a local before the
    /// statement, and the place reads the local instead.
    fn hoist_impure_indices(&mut self, place: ir::Handle<ir::Expression>, out: &mut ir::Block) {
        let mut at = place;
        loop {
            let exprs = self.exprs_ref();
            let (base, index) = match &exprs[at] {
                ir::Expression::Index { base, index } => (*base, Some(*index)),
                ir::Expression::Member { base, .. } | ir::Expression::Swizzle { base, .. } => {
                    (*base, None)
                }
                _ => return,
            };
            if let Some(index) = index
                && !ir::is_pure(exprs, index)
            {
                let (ty, span) = (exprs.ty(index), exprs.span(index));
                let Some(ctx) = &mut self.ctx else {
                    return;
                };
                let local = ctx.func.locals.append(
                    ir::LocalVariable {
                        name: "index".into(),
                        ty: ty.unwrap_or(self.error_ty),
                        is_static: false,
                        is_const: false,
                    },
                    span,
                );
                out.push(
                    ir::Statement::Declare {
                        local,
                        init: Some(index),
                    },
                    span,
                );
                let read = self.append(ir::Expression::Local(local), ty, span).expr;
                if let ir::Expression::Index { index, .. } = self.exprs().get_mut(at) {
                    *index = read;
                }
            }
            at = base;
        }
    }

    /// `m._m01_m10 = v;`: a store through a matrix element selector with
    /// several elements. The value goes to a temporary once, then each
    /// element is stored on its own. Returns `false` (having lowered
    /// nothing) when the target is not such a selector.
    fn lower_matrix_selector_store(
        &mut self,
        op: Option<ast::BinaryOp>,
        target: &ast::Expr,
        value: &ast::Expr,
        span: Span,
        out: &mut ir::Block,
    ) -> bool {
        let ast::ExprKind::Member { base, member } = &target.kind else {
            return false;
        };
        let looks_like_selector = member.name.starts_with('_')
            && member
                .name
                .bytes()
                .all(|b| b == b'_' || b == b'm' || b.is_ascii_digit())
            && member.name.matches('_').count() >= 2;
        if !looks_like_selector {
            return false;
        }
        let b = self.lower_value(base);
        if b.ty == Some(self.error_ty) {
            // Already reported; lowering the store again would repeat it.
            self.lower_expr(value);
            return true;
        }
        let Some((scalar, super::types::Shape::Matrix { rows, columns })) =
            b.ty.and_then(|t| self.numeric(t))
        else {
            return false;
        };
        let Some(elements) = super::expr::parse_matrix_swizzle(&member.name, rows, columns) else {
            return false;
        };
        self.require_place(b.expr, base.span);
        let vector_ty = self.numeric_ty(scalar, super::types::Shape::Vector(elements.len() as u8));
        let rhs = match op {
            None => self.lower_initializer(value, vector_ty),
            Some(op) => {
                let current = self.lower_value(target);
                let v = self.lower_value(value);
                let combined = self.lower_binary(op, current, v, (target.span, value.span), span);
                self.coerce(combined, vector_ty, span)
            }
        };
        let Some(ctx) = &mut self.ctx else {
            return true;
        };
        let tmp = ctx.func.locals.append(
            ir::LocalVariable {
                name: "matrix_elements".into(),
                ty: vector_ty,
                is_static: false,
                is_const: false,
            },
            span,
        );
        out.push(
            ir::Statement::Declare {
                local: tmp,
                init: Some(rhs),
            },
            span,
        );
        let scalar_ty = self.scalar_ty(scalar);
        let row_ty = self.numeric_ty(scalar, super::types::Shape::vector(columns));
        let int_ty = self.scalar_ty(ir::Scalar::I32);
        for (i, (r, c)) in elements.into_iter().enumerate() {
            let base_copy = if i == 0 {
                b.expr
            } else {
                self.copy_expr(b.expr)
            };
            let row_index = self.append(
                ir::Expression::Literal(ir::Literal::Int(i64::from(r))),
                Some(int_ty),
                span,
            );
            let row = self.append(
                ir::Expression::Index {
                    base: base_copy,
                    index: row_index.expr,
                },
                Some(row_ty),
                span,
            );
            let place = if columns == 1 {
                row.expr
            } else {
                self.append(
                    ir::Expression::Swizzle {
                        base: row.expr,
                        components: vec![c],
                    },
                    Some(scalar_ty),
                    span,
                )
                .expr
            };
            let local = self.append(ir::Expression::Local(tmp), Some(vector_ty), span);
            let element = self.append(
                ir::Expression::Swizzle {
                    base: local.expr,
                    components: vec![i as u8],
                },
                Some(scalar_ty),
                span,
            );
            out.push(
                ir::Statement::Store {
                    target: place,
                    value: element.expr,
                },
                span,
            );
        }
        true
    }

    fn lower_loop_body(&mut self, body: &ast::Stmt) -> ir::Block {
        if let Some(ctx) = &mut self.ctx {
            ctx.loop_depth += 1;
        }
        let block = self.lower_scoped(body);
        if let Some(ctx) = &mut self.ctx {
            ctx.loop_depth -= 1;
        }
        block
    }

    fn lower_for(
        &mut self,
        init: Option<&ast::Stmt>,
        cond: Option<&ast::Expr>,
        update: Option<&ast::Expr>,
        body: &ast::Stmt,
        span: Span,
        out: &mut ir::Block,
    ) {
        self.push_scope();
        let mut init_block = ir::Block::default();
        if let Some(init) = init {
            self.lower_stmt(init, &mut init_block);
        }
        let condition = cond.map(|c| self.lower_condition(c));
        let mut update_block = ir::Block::default();
        if let Some(u) = update {
            self.lower_expr_stmt(u, &mut update_block);
        }
        let body = self.lower_loop_body(body);
        self.pop_scope();
        out.push(
            ir::Statement::For {
                init: Box::new(init_block),
                condition,
                update: Box::new(update_block),
                body: Box::new(body),
            },
            span,
        );
    }

    fn lower_switch(
        &mut self,
        selector: &ast::Expr,
        cases: &[ast::SwitchCase],
        span: Span,
        out: &mut ir::Block,
    ) {
        let v = self.lower_value(selector);
        let ty = v.ty.unwrap_or(self.error_ty);
        let selector_expr = match self.inner(ty) {
            TypeInner::Scalar(s)
                if matches!(s.kind, ir::ScalarKind::Sint | ir::ScalarKind::Uint) =>
            {
                v.expr
            }
            _ if ty == self.error_ty => v.expr,
            _ => {
                let name = self.type_name(ty);
                self.error(
                    codes::TYPE_MISMATCH,
                    format!("a `switch` selector must be an integer, found `{name}`"),
                    selector.span,
                );
                v.expr
            }
        };
        let mut seen: Vec<ir::SwitchValue> = Vec::new();
        let mut lowered = Vec::with_capacity(cases.len());
        if let Some(ctx) = &mut self.ctx {
            ctx.switch_depth += 1;
        }
        for case in cases {
            let mut values = Vec::new();
            for label in &case.labels {
                let value = match label {
                    None => ir::SwitchValue::Default,
                    Some(e) => match self.const_eval(e).map(|c| c.as_i64()) {
                        Some(Some(v)) => ir::SwitchValue::Int(v),
                        Some(None) => {
                            self.error(
                                codes::NOT_CONSTANT,
                                "a `case` label must be an integer constant",
                                e.span,
                            );
                            continue;
                        }
                        None => continue,
                    },
                };
                if seen.contains(&value) {
                    let what = match value {
                        ir::SwitchValue::Default => "`default`".to_string(),
                        ir::SwitchValue::Int(v) => format!("`case {v}`"),
                    };
                    self.error(
                        codes::DUPLICATE_CASE,
                        format!("{what} appears twice in this `switch`"),
                        case.span,
                    );
                }
                seen.push(value);
                values.push(value);
            }
            self.push_scope();
            let mut body = ir::Block::default();
            self.lower_stmts(&case.body, &mut body);
            self.pop_scope();
            let fall_through = !block_terminates(&body);
            lowered.push(ir::SwitchCase {
                values,
                body,
                fall_through,
            });
        }
        if let Some(ctx) = &mut self.ctx {
            ctx.switch_depth -= 1;
        }
        out.push(
            ir::Statement::Switch {
                selector: selector_expr,
                cases: lowered,
            },
            span,
        );
    }

    fn lower_return(&mut self, value: Option<&ast::Expr>, span: Span, out: &mut ir::Block) {
        let result = self.ctx.as_ref().and_then(|c| c.result);
        let this_local = self.ctx.as_ref().and_then(|c| c.this_local);
        if value.is_none()
            && let (Some(ty), Some(local)) = (result, this_local)
        {
            // `return;` in a constructor returns what it built.
            let built = self.append(ir::Expression::Local(local), Some(ty), span);
            out.push(ir::Statement::Return(Some(built.expr)), span);
            return;
        }
        let expr = match (value, result) {
            (Some(e), Some(ty)) => Some(self.lower_initializer(e, ty)),
            (None, None) => None,
            (Some(e), None) if self.result_is_absent() => {
                // A `Conditional<T, false>` result: nothing to return.
                self.drop_returned_value(e, out);
                None
            }
            (Some(e), None) => {
                let v = self.lower_expr(e);
                if v.ty.is_some() {
                    self.error(
                        codes::BAD_RETURN,
                        "a `void` function cannot return a value",
                        e.span,
                    );
                }
                // `return f();` with a void `f` evaluates the call.
                out.push(ir::Statement::Expr(v.expr), e.span);
                None
            }
            (None, Some(ty)) => {
                let name = self.type_name(ty);
                self.error(
                    codes::BAD_RETURN,
                    format!("this function must return a `{name}` value"),
                    span,
                );
                None
            }
        };
        out.push(ir::Statement::Return(expr), span);
    }
}

/// Whether control cannot leave the end of `block` normally.
pub fn block_terminates(block: &ir::Block) -> bool {
    match block.stmts.last() {
        Some(
            ir::Statement::Return(_)
            | ir::Statement::Discard
            | ir::Statement::Break
            | ir::Statement::Continue,
        ) => true,
        Some(ir::Statement::Block(b)) => block_terminates(b),
        Some(ir::Statement::If { accept, reject, .. }) => {
            block_terminates(accept) && block_terminates(reject)
        }
        Some(ir::Statement::Switch { cases, .. }) => {
            cases
                .iter()
                .any(|c| c.values.contains(&ir::SwitchValue::Default))
                && cases.iter().all(|c| {
                    c.body.stmts.last().is_some_and(|s| {
                        matches!(s, ir::Statement::Return(_) | ir::Statement::Discard)
                    })
                })
        }
        Some(ir::Statement::For {
            condition: None,
            body,
            ..
        }) => !contains_break(body),
        Some(ir::Statement::While { .. } | ir::Statement::DoWhile { .. }) => false,
        _ => false,
    }
}

fn contains_break(block: &ir::Block) -> bool {
    block.stmts.iter().any(|s| match s {
        ir::Statement::Break => true,
        ir::Statement::Block(b) => contains_break(b),
        ir::Statement::If { accept, reject, .. } => {
            contains_break(accept) || contains_break(reject)
        }
        _ => false,
    })
}
