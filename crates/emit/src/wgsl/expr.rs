//! Expressions as WGSL, and the rules statements share (`stmt.rs`).
//!
//! WGSL's rules shape the printing: assignments and increments are
//! statements, not values; parameters are immutable (a parameter the body
//! writes is copied into a `var`); `out`/`inout` arguments are pointers,
//! `&place` for a function-space place and a temporary copied back
//! otherwise; a store to a multi-component swizzle (`v.xy = a`) is one
//! store per component; `?:` is `select`; loops are `loop` with a
//! `continuing` block so `continue` runs a `for` loop's update.
//! Statements a value needs before or after it (temporaries, copy-back)
//! collect in `pre`/`post` and are printed around the statement.

use legalis_ir::{FastHashMap, FastHashSet};

use legalis_ir as ir;
use legalis_ir::{
    BinaryOp, Expression, Handle, Literal, ParamDirection, ScalarKind, Span, Statement, TypeInner,
    UnaryOp,
};

use super::types::{Result, unsupported};
use super::writer::Writer;
use crate::namer::Namer;

pub(super) struct ParamName {
    pub name: String,
    /// `out`/`inout`: a `ptr<function, T>`, read and written as `(*name)`.
    pub pointer: bool,
    /// An `in` parameter the body writes: the parameter is named this and
    /// copied into a `var` named `name`.
    pub copy: Option<String>,
}

/// The function (or the module's initializers) being printed.
pub(super) struct FnCtx<'a> {
    pub func: Option<&'a ir::Function>,
    /// The function's handle (`None` for module-scope expressions).
    pub function: Option<Handle<ir::Function>>,
    pub exprs: &'a ir::ExpressionArena,
    pub locals: FastHashMap<Handle<ir::LocalVariable>, String>,
    pub params: Vec<ParamName>,
    names: Namer,
    /// Statements to print before the current one.
    pub pre: Vec<String>,
    /// Statements to print after the current one.
    pub post: Vec<String>,
    /// The store target being printed: a stored-transposed matrix there
    /// is the place itself, not its `transpose` (the value is transposed
    /// instead).
    place_root: Option<Handle<Expression>>,
    /// The base of an index being printed: an array of stored-transposed
    /// matrices may be read there (its element is transposed).
    index_base: Option<Handle<Expression>>,
}

impl<'a> FnCtx<'a> {
    pub fn new(w: &Writer<'a>, f: Handle<ir::Function>) -> Result<Self> {
        let func = &w.module.functions[f];
        let mut names = w.module_names();
        let written = written_params(w.module, func);
        let params = func
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let name = names.call(&p.name);
                let pointer = p.direction != ParamDirection::In;
                let copy = (!pointer && written.contains(&(i as u32)))
                    .then(|| names.call(&format!("{}_in", p.name)));
                ParamName {
                    name,
                    pointer,
                    copy,
                }
            })
            .collect();
        let mut locals = FastHashMap::default();
        for (l, local) in func.locals.iter() {
            let name = match w.static_locals.get(&(f, l)) {
                Some(name) => name.clone(),
                None => names.call(&local.name),
            };
            locals.insert(l, name);
        }
        Ok(FnCtx {
            func: Some(func),
            function: Some(f),
            exprs: &func.expressions,
            locals,
            params,
            names,
            pre: Vec::new(),
            post: Vec::new(),
            place_root: None,
            index_base: None,
        })
    }

    pub fn for_globals(w: &Writer<'a>) -> Self {
        FnCtx {
            func: None,
            function: None,
            exprs: &w.module.global_expressions,
            locals: FastHashMap::default(),
            params: Vec::new(),
            names: w.module_names(),
            pre: Vec::new(),
            post: Vec::new(),
            place_root: None,
            index_base: None,
        }
    }

    pub fn temp(&mut self, base: &str) -> String {
        self.names.call(base)
    }

    pub fn ty(&self, e: Handle<Expression>) -> Option<Handle<ir::Type>> {
        self.exprs.ty(e)
    }

    pub fn span(&self, e: Handle<Expression>) -> Span {
        self.exprs.span(e)
    }
}

/// Parameters of `in` direction the body writes (stores, assignments,
/// increments, `out` arguments), by index.
fn written_params(module: &ir::Module, func: &ir::Function) -> FastHashSet<u32> {
    let mut out = FastHashSet::default();
    let root = |mut e: Handle<Expression>| loop {
        match &func.expressions[e] {
            Expression::Member { base, .. }
            | Expression::Index { base, .. }
            | Expression::Swizzle { base, .. } => e = *base,
            Expression::Param(i) => return Some(*i),
            _ => return None,
        }
    };
    let mut stores = Vec::new();
    collect_stores(&func.body, &mut stores);
    for (_, e) in func.expressions.iter() {
        match e {
            Expression::Assign { target, .. } | Expression::IncDec { target, .. } => {
                stores.push(*target)
            }
            // `out` arguments of calls, and the out arguments of
            // `GetDimensions`, are written too.
            Expression::Call { function, args } => {
                for (i, &a) in args.iter().enumerate() {
                    let direction = module
                        .functions
                        .try_get(*function)
                        .and_then(|f| f.params.get(i))
                        .map(|p| p.direction);
                    if direction != Some(ParamDirection::In) {
                        stores.push(a);
                    }
                }
            }
            Expression::Intrinsic { fun, args } if fun.has_side_effects() => {
                stores.extend(args.iter().copied())
            }
            _ => {}
        }
    }
    for t in stores {
        if let Some(i) = root(t) {
            out.insert(i);
        }
    }
    out
}

fn collect_stores(block: &ir::Block, out: &mut Vec<Handle<Expression>>) {
    for stmt in &block.stmts {
        if let Statement::Store { target, .. } = stmt {
            out.push(*target);
        }
        for b in stmt.blocks() {
            collect_stores(b, out);
        }
    }
}

/// The global a place is part of (`g`, `g[i]`, `g[i].m`).
pub(super) fn root_global(
    exprs: &ir::ExpressionArena,
    mut e: Handle<Expression>,
) -> Option<Handle<ir::GlobalVariable>> {
    loop {
        match &exprs[e] {
            Expression::Member { base, .. }
            | Expression::Index { base, .. }
            | Expression::Swizzle { base, .. } => e = *base,
            Expression::Global(g) => return Some(*g),
            _ => return None,
        }
    }
}

/// Whether an initializer is a WGSL constant expression: literals and
/// constructions, conversions, operators and selections over them.
pub(super) fn is_const(exprs: &ir::ExpressionArena, e: Handle<Expression>) -> bool {
    ir::is_constant(exprs, e, true, &|_| false)
}

/// Whether every float literal in `e`'s tree is finite in its type: an
/// infinite one (`1e39` as `f32`, `100000.0` as `f16`) is written through
/// `bitcast`, which is no WGSL constant expression, so a global
/// initialized with it is assigned at the start of the entry point.
pub(super) fn finite_literals(
    module: &ir::Module,
    exprs: &ir::ExpressionArena,
    e: Handle<Expression>,
) -> bool {
    // A converted literal is written as a literal of the new type.
    let literal = match exprs[e] {
        Expression::Literal(lit) => Some(lit),
        Expression::Convert { expr } => match exprs[expr] {
            Expression::Literal(lit) => Some(lit),
            _ => None,
        },
        _ => None,
    };
    if let Some(lit) = literal {
        let value = match lit {
            Literal::Float(f) => f,
            Literal::Int(i) => i as f64,
            Literal::Uint(u) => u as f64,
            Literal::Bool(_) => return true,
        };
        return match exprs.ty(e).and_then(|t| module.types[t].inner.scalar()) {
            Some(s) if s.kind == ScalarKind::Float && s.width == 2 => {
                let bits = crate::float_text::f16_bits(value as f32);
                crate::float_text::f16_value(bits).is_finite()
            }
            Some(s) if s.kind == ScalarKind::Float => (value as f32).is_finite(),
            _ => true,
        } && (exprs[e].children().into_iter()).all(|c| finite_literals(module, exprs, c));
    }
    (exprs[e].children().into_iter()).all(|c| finite_literals(module, exprs, c))
}

pub(super) const INDENT: &str = "    ";

impl Writer<'_> {
    /// A place (something assignable) as WGSL.
    pub(super) fn place(&self, ctx: &mut FnCtx, e: Handle<Expression>) -> Result<String> {
        let mut base = e;
        while let Expression::Member { base: b, .. }
        | Expression::Index { base: b, .. }
        | Expression::Swizzle { base: b, .. } = ctx.exprs[base]
        {
            if self.stored_transposed(ctx, b) {
                return unsupported(
                    "a store into part of a column-major buffer matrix",
                    ctx.span(e),
                );
            }
            if self.is_stored_bool(ctx, b) {
                return unsupported(
                    "a store into part of a `bool` vector held in a buffer",
                    ctx.span(e),
                );
            }
            if self.is_padded_matrix(ctx, b)
                && ctx
                    .ty(b)
                    .is_some_and(|t| matches!(self.module.types[t].inner, TypeInner::Matrix { .. }))
            {
                return unsupported(
                    "a store into part of a uniform-struct matrix with 2-component columns",
                    ctx.span(e),
                );
            }
            base = b;
        }
        let saved = ctx.place_root.replace(e);
        let place = self.expr(ctx, e);
        ctx.place_root = saved;
        place
    }

    /// Whether reading `e` yields a matrix (or array of matrices) in its
    /// stored, column-major shape (see `Writer::collect_transposed`).
    pub(super) fn stored_transposed(&self, ctx: &FnCtx, e: Handle<Expression>) -> bool {
        match &ctx.exprs[e] {
            Expression::Member { base, index } => self
                .member_struct(ctx, *base)
                .is_some_and(|t| self.transposed_members.contains(&(t, *index))),
            Expression::Global(g) => {
                self.transposed_globals.contains(g)
                    && !self.module.types[self.module.globals[*g].ty]
                        .inner
                        .is_resource()
            }
            Expression::Index { base, .. } => match &ctx.exprs[*base] {
                Expression::Global(g)
                    if self.module.types[self.module.globals[*g].ty]
                        .inner
                        .is_resource() =>
                {
                    self.transposed_globals.contains(g)
                }
                _ => {
                    let base_is_array = ctx.ty(*base).is_some_and(|t| {
                        matches!(self.module.types[t].inner, TypeInner::Array { .. })
                    });
                    base_is_array && self.stored_transposed(ctx, *base)
                }
            },
            _ => false,
        }
    }

    /// The struct whose member `base.member` names: the type of `base`, or
    /// the contents of a constant or texture buffer.
    fn member_struct(&self, ctx: &FnCtx, base: Handle<Expression>) -> Option<Handle<ir::Type>> {
        let base_ty = ctx.ty(base);
        match base_ty.map(|t| &self.module.types[t].inner) {
            Some(TypeInner::ConstantBuffer { inner } | TypeInner::TextureBuffer { inner }) => {
                Some(*inner)
            }
            _ => base_ty,
        }
    }

    /// Whether `e` is a `bool` stored as `u32` in a buffer
    /// (`Writer::bool_members`).
    pub(super) fn is_stored_bool(&self, ctx: &FnCtx, e: Handle<Expression>) -> bool {
        match &ctx.exprs[e] {
            Expression::Member { base, index } => self
                .member_struct(ctx, *base)
                .is_some_and(|t| self.bool_members.contains(&(t, *index))),
            Expression::Global(g) => self.bool_globals.contains(g),
            _ => false,
        }
    }

    /// A `bool` value as the `u32` a buffer stores.
    pub(super) fn bool_to_word(&self, ty: Option<Handle<ir::Type>>, value: String) -> String {
        match ty.map(|t| &self.module.types[t].inner) {
            Some(TypeInner::Vector { size, .. }) => {
                format!("select(vec{size}<u32>(0u), vec{size}<u32>(1u), {value})")
            }
            _ => format!("select(0u, 1u, {value})"),
        }
    }

    /// Whether `e` reads a padded uniform array (`Writer::padded_members`).
    pub(super) fn is_padded(&self, ctx: &FnCtx, e: Handle<Expression>) -> bool {
        match &ctx.exprs[e] {
            Expression::Member { base, index } => self
                .member_struct(ctx, *base)
                .is_some_and(|t| self.padded_members.contains(&(t, *index))),
            Expression::Global(g) => self.padded_globals.contains(g),
            _ => false,
        }
    }

    /// Whether `e` reads a uniform matrix, or array of them, stored with
    /// padded columns (`Writer::padded_matrix_members`).
    pub(super) fn is_padded_matrix(&self, ctx: &FnCtx, e: Handle<Expression>) -> bool {
        match &ctx.exprs[e] {
            Expression::Member { base, index } => self
                .member_struct(ctx, *base)
                .is_some_and(|t| self.padded_matrix_members.contains(&(t, *index))),
            Expression::Global(g) => self.padded_matrix_globals.contains(g),
            Expression::Index { base, .. } => {
                let base_is_array = ctx
                    .ty(*base)
                    .is_some_and(|t| matches!(self.module.types[t].inner, TypeInner::Array { .. }));
                base_is_array && self.is_padded_matrix(ctx, *base)
            }
            _ => false,
        }
    }

    /// The stored shape `(columns, rows)` of a padded matrix `e`: WGSL
    /// `mat{columns}x2`, `rows` being 2.
    pub(super) fn padded_shape(&self, ctx: &FnCtx, e: Handle<Expression>) -> Option<u8> {
        let ty = ctx.ty(e)?;
        let TypeInner::Matrix { rows, columns, .. } = self.module.types[ty].inner else {
            return None;
        };
        Some(if self.stored_transposed(ctx, e) {
            columns
        } else {
            rows
        })
    }

    /// A padded matrix read as the WGSL matrix it stores: its columns are
    /// the first two components of each `vec4`.
    fn unpad_matrix(&self, ctx: &FnCtx, e: Handle<Expression>, text: &str) -> Result<String> {
        let Some(count) = self.padded_shape(ctx, e) else {
            return unsupported("a padded uniform matrix of unknown shape", ctx.span(e));
        };
        if !ir::is_pure(ctx.exprs, e) {
            return unsupported(
                "a uniform matrix with 2-component columns read through an index with side effects",
                ctx.span(e),
            );
        }
        let columns: Vec<String> = (0..count).map(|i| format!("{text}[{i}].xy")).collect();
        Ok(format!("mat{count}x2<f32>({})", columns.join(", ")))
    }

    /// A WGSL `mat{count}x2` value (`value`, evaluated once by the caller)
    /// as the padded array of `vec4` that stores it.
    pub(super) fn pad_matrix(count: u8, value: &str) -> String {
        let columns: Vec<String> = (0..count)
            .map(|i| format!("vec4<f32>({value}[{i}], 0.0f, 0.0f)"))
            .collect();
        format!("array<vec4<f32>, {count}>({})", columns.join(", "))
    }

    /// Whether `e` is one atomic value: an element (or the whole) of a
    /// global `Interlocked*` updates, of integer scalar type.
    pub(super) fn is_atomic_place(&self, ctx: &FnCtx, e: Handle<Expression>) -> bool {
        let scalar = ctx
            .ty(e)
            .is_some_and(|t| matches!(self.module.types[t].inner, TypeInner::Scalar(_)));
        scalar
            && matches!(
                ctx.exprs[e],
                Expression::Global(_) | Expression::Index { .. }
            )
            && root_global(ctx.exprs, e).is_some_and(|g| self.atomic_globals.contains(&g))
    }

    /// A read of `e` printed as `text`, transposed back when stored
    /// column-major.
    fn unstore(&self, ctx: &FnCtx, e: Handle<Expression>, text: String) -> Result<String> {
        if ctx.place_root != Some(e) && self.is_stored_bool(ctx, e) {
            return Ok(match ctx.ty(e).map(|t| &self.module.types[t].inner) {
                Some(TypeInner::Vector { size, .. }) => format!("({text} != vec{size}<u32>(0u))"),
                _ => format!("({text} != 0u)"),
            });
        }
        if self.is_padded(ctx, e) && ctx.index_base != Some(e) {
            return unsupported(
                "a whole uniform array of scalars or small vectors as a value (index it: its elements are 16 bytes apart)",
                ctx.span(e),
            );
        }
        if ctx.place_root != Some(e) && self.is_atomic_place(ctx, e) {
            return Ok(format!("atomicLoad(&{text})"));
        }
        let mut text = text;
        if ctx.place_root != Some(e) && self.is_padded_matrix(ctx, e) {
            match ctx.ty(e).map(|t| &self.module.types[t].inner) {
                Some(TypeInner::Matrix { .. }) => text = self.unpad_matrix(ctx, e, &text)?,
                _ if ctx.index_base == Some(e) => return Ok(text),
                _ => {
                    return unsupported(
                        "a whole uniform array of matrices with 2-component columns as a value (index it: each column is 16 bytes apart)",
                        ctx.span(e),
                    );
                }
            }
        }
        if ctx.place_root == Some(e) || !self.stored_transposed(ctx, e) {
            return Ok(text);
        }
        match ctx.ty(e).map(|t| &self.module.types[t].inner) {
            Some(TypeInner::Matrix { .. }) => Ok(format!("transpose({text})")),
            _ if ctx.index_base == Some(e) => Ok(text),
            _ => unsupported(
                "a whole array of column-major buffer matrices as a value (index it)",
                ctx.span(e),
            ),
        }
    }

    /// `&place` for an `out`/`inout` argument: direct for function-space
    /// places, else through a temporary copied back after the call.
    pub(super) fn pointer_argument(
        &self,
        ctx: &mut FnCtx,
        arg: Handle<Expression>,
        direction: ParamDirection,
    ) -> Result<String> {
        if self.function_space_place(ctx, arg) {
            let place = self.place(ctx, arg)?;
            return Ok(format!("&{place}"));
        }
        let span = ctx.span(arg);
        if !ir::is_pure(ctx.exprs, arg) {
            return unsupported("an `out` argument with side effects", span);
        }
        let Some(ty) = ctx.ty(arg) else {
            return unsupported("an `out` argument without a type", span);
        };
        let ty = self.spell(ty, span)?;
        let t = ctx.temp("arg");
        let decl = if direction == ParamDirection::InOut {
            let value = self.expr(ctx, arg)?;
            format!("var {t}: {ty} = {value};")
        } else {
            format!("var {t}: {ty};")
        };
        ctx.pre.push(decl);
        let back = self.store(ctx, arg, t.clone())?;
        ctx.post.extend(back);
        Ok(format!("&{t}"))
    }

    /// Whether `&e` is a `ptr<function, T>`: a local or a pointer
    /// parameter, through struct members and array or matrix elements.
    fn function_space_place(&self, ctx: &FnCtx, e: Handle<Expression>) -> bool {
        if self.stored_transposed(ctx, e) || self.is_stored_bool(ctx, e) {
            return false;
        }
        match &ctx.exprs[e] {
            Expression::Local(l) => ctx.func.is_some_and(|f| !f.locals[*l].is_static),
            Expression::Param(i) => ctx
                .params
                .get(*i as usize)
                .is_some_and(|p| p.pointer || p.copy.is_some()),
            Expression::Member { base, .. } => self.function_space_place(ctx, *base),
            Expression::Index { base, .. } => {
                let base_is_vector = ctx.ty(*base).is_some_and(|t| {
                    matches!(self.module.types[t].inner, TypeInner::Vector { .. })
                });
                !base_is_vector && self.function_space_place(ctx, *base)
            }
            _ => false,
        }
    }

    pub(super) fn expr(&self, ctx: &mut FnCtx, e: Handle<Expression>) -> Result<String> {
        let span = ctx.span(e);
        let ty = ctx.ty(e);
        Ok(match &ctx.exprs[e] {
            Expression::Literal(lit) => self.literal(*lit, ty, span)?,
            Expression::Global(g) => {
                let text = self.global_ref(*g, span)?;
                let whole_atomic_array = self.atomic_globals.contains(g)
                    && !self.is_atomic_place(ctx, e)
                    && ctx.index_base != Some(e)
                    && ctx.place_root != Some(e);
                if whole_atomic_array
                    && !self.module.types[self.module.globals[*g].ty]
                        .inner
                        .is_resource()
                {
                    return unsupported(
                        "a whole array of atomics as a value (WGSL reads atomics one at a time)",
                        span,
                    );
                }
                self.unstore(ctx, e, text)?
            }
            Expression::Local(l) => ctx.locals.get(l).cloned().unwrap_or_default(),
            Expression::Param(i) => match ctx.params.get(*i as usize) {
                Some(p) if p.pointer => format!("(*{})", p.name),
                Some(p) => p.name.clone(),
                None => return unsupported("a parameter the function does not have", span),
            },
            Expression::Member { base, index } => {
                let base_ty = ctx.ty(*base);
                let b = self.expr(ctx, *base)?;
                let struct_ty = match base_ty.map(|t| &self.module.types[t].inner) {
                    Some(
                        TypeInner::ConstantBuffer { inner } | TypeInner::TextureBuffer { inner },
                    ) => Some(*inner),
                    Some(TypeInner::Struct { .. }) => base_ty,
                    _ => None,
                };
                let name = struct_ty
                    .and_then(|t| self.member_names.get(&t))
                    .and_then(|names| names.get(*index as usize));
                match name {
                    Some(name) => self.unstore(ctx, e, cat!(b, ".", name))?,
                    None => return unsupported("a member of something that is not a struct", span),
                }
            }
            Expression::Deref { .. } => {
                return unsupported(
                    "a pointer into device memory (`T*`): WGSL has no buffer device addresses",
                    span,
                );
            }
            Expression::Index { base, index } => {
                let saved = ctx.index_base.replace(*base);
                let text = self.index(ctx, *base, *index, span);
                ctx.index_base = saved;
                let text = text?;
                // An element of a padded uniform array is the first
                // components of its `vec4`.
                let padded = self.is_padded(ctx, *base);
                match ctx.ty(*base).and_then(|t| self.padded_components(t)) {
                    Some(n) if padded => {
                        format!("{text}.{}", COMPONENTS[..usize::from(n)].concat())
                    }
                    _ => self.unstore(ctx, e, text)?,
                }
            }
            Expression::Swizzle { base, components } => {
                let base_ty = ctx.ty(*base).map(|t| self.module.types[t].inner.clone());
                let b = self.expr(ctx, *base)?;
                match base_ty {
                    Some(TypeInner::Scalar(s)) => {
                        if components.len() == 1 {
                            b
                        } else {
                            format!(
                                "vec{}<{}>({b})",
                                components.len(),
                                super::types::scalar(s, span)?
                            )
                        }
                    }
                    Some(TypeInner::Vector { .. }) => {
                        let letters: String = components
                            .iter()
                            .map(|c| COMPONENTS[usize::from(*c & 3)])
                            .collect();
                        format!("{b}.{letters}")
                    }
                    _ => return unsupported("a swizzle of something that is not a vector", span),
                }
            }
            Expression::Unary { op, expr } => {
                let operand_ty = ctx.ty(*expr);
                if *op == UnaryOp::Negate
                    && let Some(v) = self.const_int(ctx, *expr)
                    && let Some(text) = v.negate().refused_text()
                {
                    return Ok(text);
                }
                let v = self.expr(ctx, *expr)?;
                let scalar = operand_ty.and_then(|t| self.module.types[t].inner.scalar());
                match op {
                    UnaryOp::Negate if scalar.is_some_and(|s| s.kind == ScalarKind::Uint) => {
                        format!("(~({v}) + 1u)")
                    }
                    UnaryOp::Negate => format!("-({v})"),
                    UnaryOp::LogicalNot => format!("!({v})"),
                    UnaryOp::BitwiseNot => format!("~({v})"),
                }
            }
            Expression::Binary { op, left, right } => self.binary(ctx, *op, *left, *right, span)?,
            Expression::Select {
                condition,
                accept,
                reject,
            } => {
                let scalar_or_vector = ty.is_some_and(|t| {
                    matches!(
                        self.module.types[t].inner,
                        TypeInner::Scalar(_) | TypeInner::Vector { .. }
                    )
                });
                let condition_is_scalar = ctx
                    .ty(*condition)
                    .is_some_and(|t| matches!(self.module.types[t].inner, TypeInner::Scalar(_)));
                let c = self.expr(ctx, *condition)?;
                if !scalar_or_vector && !condition_is_scalar {
                    return unsupported("a component-wise `?:` on matrices", span);
                }
                if scalar_or_vector
                    && ir::is_pure(ctx.exprs, *accept)
                    && ir::is_pure(ctx.exprs, *reject)
                {
                    let a = self.expr(ctx, *accept)?;
                    let r = self.expr(ctx, *reject)?;
                    format!("select({r}, {a}, {c})")
                } else {
                    // Only the chosen side may run: an `if` into a temporary.
                    self.branching_select(ctx, c, *accept, *reject, ty, span)?
                }
            }
            Expression::Convert { expr } => self.convert(ctx, *expr, ty, span)?,
            Expression::Construct { components } => self.construct(ctx, components, ty, span)?,
            Expression::Call { function, args } => self.call(ctx, *function, args, span)?,
            Expression::Intrinsic { fun, args } => self.intrinsic(ctx, *fun, args, e)?,
            // WGSL assignments and increments are statements: they run
            // before the statement that uses their value.
            Expression::Assign { target, .. } => {
                let target = *target;
                if !ir::is_pure(ctx.exprs, target) {
                    return unsupported(
                        "an assignment used as a value whose target has side effects",
                        span,
                    );
                }
                let lines = self.effect(ctx, e)?;
                ctx.pre.extend(lines);
                self.expr(ctx, target)?
            }
            Expression::IncDec { op, target } => {
                let (op, target) = (*op, *target);
                if !ir::is_pure(ctx.exprs, target) {
                    return unsupported(
                        "`++`/`--` used as a value on a target with side effects",
                        span,
                    );
                }
                let before = match op {
                    ir::IncDecOp::PostIncrement | ir::IncDecOp::PostDecrement => {
                        let t = ctx.temp("old");
                        let value = self.expr(ctx, target)?;
                        ctx.pre.push(format!("let {t} = {value};"));
                        Some(t)
                    }
                    _ => None,
                };
                let lines = self.effect(ctx, e)?;
                ctx.pre.extend(lines);
                match before {
                    Some(t) => t,
                    None => self.expr(ctx, target)?,
                }
            }
        })
    }

    /// `var t: T; if c { t = a; } else { t = b; }` before the statement,
    /// each side's own temporaries inside its branch.
    fn branching_select(
        &self,
        ctx: &mut FnCtx,
        condition: String,
        accept: Handle<Expression>,
        reject: Handle<Expression>,
        ty: Option<Handle<ir::Type>>,
        span: Span,
    ) -> Result<String> {
        let Some(ty) = ty else {
            return unsupported("`?:` without a type", span);
        };
        let ty = self.spell(ty, span)?;
        let t = ctx.temp("select");
        let outer_pre = std::mem::take(&mut ctx.pre);
        let outer_post = std::mem::take(&mut ctx.post);
        let side = |ctx: &mut FnCtx, e| -> Result<Vec<String>> {
            let value = self.expr(ctx, e)?;
            let mut lines = std::mem::take(&mut ctx.pre);
            lines.push(format!("{t} = {value};"));
            lines.append(&mut ctx.post);
            Ok(lines)
        };
        let a = side(ctx, accept);
        let b = side(ctx, reject);
        ctx.pre = outer_pre;
        ctx.post = outer_post;
        let (a, b) = (a?, b?);
        ctx.pre.push(format!("var {t}: {ty};"));
        ctx.pre.push(format!("if {condition} {{"));
        ctx.pre.extend(a.into_iter().map(|l| format!("    {l}")));
        ctx.pre.push("} else {".into());
        ctx.pre.extend(b.into_iter().map(|l| format!("    {l}")));
        ctx.pre.push("}".into());
        Ok(t)
    }

    /// `e` printed so that it may be used more than once: as is when
    /// pure, else bound to a `let` before the statement.
    pub(super) fn reusable(&self, ctx: &mut FnCtx, e: Handle<Expression>) -> Result<String> {
        let value = self.expr(ctx, e)?;
        if ir::is_pure(ctx.exprs, e) {
            return Ok(value);
        }
        let t = ctx.temp("value");
        ctx.pre.push(format!("let {t} = {value};"));
        Ok(t)
    }

    fn global_ref(&self, g: Handle<ir::GlobalVariable>, span: Span) -> Result<String> {
        if let Some(name) = self.global_names.get(&g) {
            return Ok(name.clone());
        }
        if let Some((var, members)) = &self.plain_uniforms
            && let Some(member) = members.get(&g)
        {
            return Ok(format!("{var}.{member}"));
        }
        unsupported("a global the writer did not declare", span)
    }

    fn literal(&self, lit: Literal, ty: Option<Handle<ir::Type>>, span: Span) -> Result<String> {
        let scalar = ty
            .and_then(|t| self.module.types[t].inner.scalar())
            .unwrap_or(match lit {
                Literal::Bool(_) => ir::Scalar::BOOL,
                Literal::Int(_) => ir::Scalar::I32,
                Literal::Uint(_) => ir::Scalar::U32,
                Literal::Float(_) => ir::Scalar::F32,
            });
        super::types::scalar(scalar, span)?;
        // A literal of another kind is converted as WGSL's constructor
        // would (integers wrap, floats truncate toward zero).
        Ok(match (lit, scalar.kind) {
            (Literal::Bool(b), ScalarKind::Bool) => b.to_string(),
            (Literal::Int(i), ScalarKind::Bool) => (i != 0).to_string(),
            (Literal::Uint(u), ScalarKind::Bool) => (u != 0).to_string(),
            (Literal::Float(f), ScalarKind::Bool) => (f != 0.0).to_string(),
            (Literal::Int(i), ScalarKind::Sint) => match i32::try_from(i) {
                Ok(v) => int_literal(i64::from(v)),
                Err(_) => {
                    return unsupported(format!("the integer {i} (out of `i32` range)"), span);
                }
            },
            (Literal::Uint(u), ScalarKind::Sint) => int_literal(i64::from(u as i32)),
            (Literal::Float(f), ScalarKind::Sint) => int_literal(i64::from(f as i32)),
            (Literal::Bool(b), ScalarKind::Sint) => int_literal(i64::from(b)),
            (Literal::Uint(u), ScalarKind::Uint) => match u32::try_from(u) {
                Ok(v) => format!("{v}u"),
                Err(_) => {
                    return unsupported(format!("the integer {u} (out of `u32` range)"), span);
                }
            },
            (Literal::Int(i), ScalarKind::Uint) => format!("{}u", i as u32),
            (Literal::Float(f), ScalarKind::Uint) => format!("{}u", f as u32),
            (Literal::Bool(b), ScalarKind::Uint) => format!("{}u", u32::from(b)),
            (Literal::Float(f), ScalarKind::Float) => float_literal_of(scalar, f),
            (Literal::Int(i), ScalarKind::Float) => float_literal_of(scalar, i as f64),
            (Literal::Uint(u), ScalarKind::Float) => float_literal_of(scalar, u as f64),
            (Literal::Bool(b), ScalarKind::Float) => {
                float_literal_of(scalar, f64::from(u8::from(b)))
            }
        })
    }

    fn index(
        &self,
        ctx: &mut FnCtx,
        base: Handle<Expression>,
        index: Handle<Expression>,
        span: Span,
    ) -> Result<String> {
        let base_ty = ctx.ty(base).map(|t| self.module.types[t].inner.clone());
        let index_ty = ctx
            .ty(index)
            .and_then(|t| self.module.types[t].inner.scalar());
        match base_ty {
            Some(TypeInner::Texture(texture)) => {
                let t = self.expr(ctx, base)?;
                let coords = self.expr(ctx, index)?;
                if texture.multisampled {
                    return unsupported("indexing a multisampled texture (use `Load`)", span);
                }
                let load = if texture.access == ir::ResourceAccess::Read {
                    format!("textureLoad({t}, {coords}, 0)")
                } else {
                    format!("textureLoad({t}, {coords})")
                };
                let texel = match ctx.ty(base).map(|t| &self.module.types[t].inner) {
                    // A depth texture's loads are already one `f32`.
                    Some(TypeInner::Texture(ir::Texture { shadow: true, .. })) => None,
                    Some(TypeInner::Texture(ir::Texture { texel, .. })) => Some(*texel),
                    _ => None,
                };
                Ok(self.narrow_texel(load, texel))
            }
            Some(TypeInner::Buffer {
                kind: ir::BufferKind::Structured,
                ..
            })
            | Some(TypeInner::Array { .. } | TypeInner::Vector { .. } | TypeInner::Matrix { .. }) =>
            {
                if !index_ty.is_some_and(|s| {
                    s.width == 4 && matches!(s.kind, ScalarKind::Sint | ScalarKind::Uint)
                }) {
                    return unsupported("an index that is not a 32-bit integer", span);
                }
                let b = self.expr(ctx, base)?;
                let i = self.expr(ctx, index)?;
                Ok(format!("{b}[{i}]"))
            }
            _ => unsupported(
                format!(
                    "indexing `{}`",
                    ctx.ty(base)
                        .map(|t| ir::print::type_name(self.module, t))
                        .unwrap_or_default()
                ),
                span,
            ),
        }
    }

    /// A `vec4` texel narrowed to the declared texel type (`.x` for a
    /// `Texture2D<float>`).
    pub(super) fn narrow_texel(&self, value: String, texel: Option<Handle<ir::Type>>) -> String {
        let shape = texel.and_then(|t| super::types::texel_shape(self.module, t));
        let narrowed = match shape {
            Some((1, _)) => format!("{value}.x"),
            Some((2, _)) => format!("{value}.xy"),
            Some((3, _)) => format!("{value}.xyz"),
            _ => value,
        };
        match shape {
            Some((size, scalar)) => half_texel(narrowed, size, scalar),
            None => narrowed,
        }
    }

    fn binary(
        &self,
        ctx: &mut FnCtx,
        op: BinaryOp,
        left: Handle<Expression>,
        right: Handle<Expression>,
        span: Span,
    ) -> Result<String> {
        let lt = ctx.ty(left).map(|t| self.module.types[t].inner.clone());
        let rt = ctx.ty(right).map(|t| self.module.types[t].inner.clone());
        let l_matrix = matches!(lt, Some(TypeInner::Matrix { .. }));
        let r_matrix = matches!(rt, Some(TypeInner::Matrix { .. }));
        if l_matrix || r_matrix {
            return self.matrix_binary(ctx, op, left, right, lt, rt, span);
        }
        let vector = matches!(lt, Some(TypeInner::Vector { .. }))
            || matches!(rt, Some(TypeInner::Vector { .. }));
        // Integer constants WGSL would refuse to evaluate (an overflow, a
        // shift of 32 or more), where HLSL wraps: HLSL's value instead.
        if let (Some(l), Some(r)) = (self.const_int(ctx, left), self.const_int(ctx, right))
            && let Some(text) = l.binary(op, r).and_then(Folded::refused_text)
        {
            return Ok(text);
        }
        let a = self.expr(ctx, left)?;
        if matches!(op, BinaryOp::LogicalAnd | BinaryOp::LogicalOr) && !vector {
            // The right side runs only when needed; when it needs
            // statements of its own, they go inside an `if`.
            let outer_pre = std::mem::take(&mut ctx.pre);
            let outer_post = std::mem::take(&mut ctx.post);
            let b = self.expr(ctx, right);
            let inner_pre = std::mem::replace(&mut ctx.pre, outer_pre);
            let inner_post = std::mem::replace(&mut ctx.post, outer_post);
            let b = b?;
            if inner_pre.is_empty() && inner_post.is_empty() {
                return Ok(format!("({a} {} {b})", op.symbol()));
            }
            let t = ctx.temp("logic");
            ctx.pre.push(format!("var {t}: bool = {a};"));
            let test = if op == BinaryOp::LogicalAnd {
                t.clone()
            } else {
                format!("!{t}")
            };
            ctx.pre.push(format!("if {test} {{"));
            ctx.pre
                .extend(inner_pre.into_iter().map(|l| format!("    {l}")));
            ctx.pre.push(format!("    {t} = {b};"));
            ctx.pre
                .extend(inner_post.into_iter().map(|l| format!("    {l}")));
            ctx.pre.push("}".into());
            return Ok(t);
        }
        let mut b = self.expr(ctx, right)?;
        let symbol = match op {
            BinaryOp::LogicalAnd if vector => "&",
            BinaryOp::LogicalOr if vector => "|",
            BinaryOp::ShiftLeft | BinaryOp::ShiftRight => {
                match &rt {
                    Some(TypeInner::Scalar(s)) if s.kind != ScalarKind::Uint => {
                        b = format!("u32({b})")
                    }
                    Some(TypeInner::Vector { size, scalar }) if scalar.kind != ScalarKind::Uint => {
                        b = format!("vec{size}<u32>({b})")
                    }
                    _ => {}
                }
                op.symbol()
            }
            _ => op.symbol(),
        };
        Ok(cat!("(", a, " ", symbol, " ", b, ")"))
    }

    /// HLSL's `*` and `/` on matrices are component-wise; WGSL's `*` is the
    /// matrix product, so they go column by column.
    #[allow(
        clippy::too_many_arguments,
        reason = "the operands and their types, once"
    )]
    fn matrix_binary(
        &self,
        ctx: &mut FnCtx,
        op: BinaryOp,
        left: Handle<Expression>,
        right: Handle<Expression>,
        lt: Option<TypeInner>,
        rt: Option<TypeInner>,
        span: Span,
    ) -> Result<String> {
        match (op, &lt, &rt) {
            (
                BinaryOp::Add | BinaryOp::Subtract,
                Some(TypeInner::Matrix { .. }),
                Some(TypeInner::Matrix { .. }),
            ) => {
                let a = self.expr(ctx, left)?;
                let b = self.expr(ctx, right)?;
                Ok(format!("({a} {} {b})", op.symbol()))
            }
            (BinaryOp::Multiply, Some(TypeInner::Matrix { .. }), Some(TypeInner::Scalar(_)))
            | (BinaryOp::Multiply, Some(TypeInner::Scalar(_)), Some(TypeInner::Matrix { .. })) => {
                let a = self.expr(ctx, left)?;
                let b = self.expr(ctx, right)?;
                Ok(format!("({a} * {b})"))
            }
            (
                BinaryOp::Multiply | BinaryOp::Divide,
                Some(TypeInner::Matrix {
                    rows,
                    columns,
                    scalar,
                }),
                Some(TypeInner::Matrix { .. }),
            ) => {
                let a = self.reusable(ctx, left)?;
                let b = self.reusable(ctx, right)?;
                let cols: Vec<String> = (0..*rows)
                    .map(|i| format!("({a}[{i}] {} {b}[{i}])", op.symbol()))
                    .collect();
                let s = super::types::scalar(*scalar, span)?;
                Ok(format!("mat{rows}x{columns}<{s}>({})", cols.join(", ")))
            }
            _ => unsupported(format!("`{}` on these matrix operands", op.symbol()), span),
        }
    }

    fn convert(
        &self,
        ctx: &mut FnCtx,
        expr: Handle<Expression>,
        to: Option<Handle<ir::Type>>,
        span: Span,
    ) -> Result<String> {
        let from = ctx.ty(expr);
        let (Some(from), Some(to)) = (from, to) else {
            return unsupported("a conversion without types", span);
        };
        let from_inner = self.module.types[from].inner.clone();
        let to_inner = self.module.types[to].inner.clone();
        if let TypeInner::ConstantBuffer { .. } | TypeInner::TextureBuffer { .. } = from_inner {
            return self.expr(ctx, expr);
        }
        if from == to {
            return self.expr(ctx, expr);
        }
        // A converted literal is the literal of the new type (`1.0f`, not
        // `f32(1i)`), exactly as WGSL would convert it.
        if let (Expression::Literal(lit), TypeInner::Scalar(_)) = (&ctx.exprs[expr], &to_inner) {
            return self.literal(*lit, Some(to), span);
        }
        // A matrix is built from its operand several times.
        let v = if matches!(to_inner, TypeInner::Matrix { .. }) {
            self.reusable(ctx, expr)?
        } else {
            self.expr(ctx, expr)?
        };
        let to_name = self.spell(to, span)?;
        Ok(match (&from_inner, &to_inner) {
            (TypeInner::Scalar(_), TypeInner::Scalar(_)) => cat!(to_name, "(", v, ")"),
            (TypeInner::Scalar(fs), TypeInner::Vector { scalar, .. }) => {
                if fs == scalar {
                    cat!(to_name, "(", v, ")")
                } else {
                    format!("{to_name}({}({v}))", super::types::scalar(*scalar, span)?)
                }
            }
            (TypeInner::Vector { size: fs, .. }, TypeInner::Vector { size, scalar }) => {
                if fs == size {
                    cat!(to_name, "(", v, ")")
                } else if fs > size {
                    let letters: String = COMPONENTS[..usize::from(*size)].concat();
                    format!("{to_name}({v}.{letters})")
                } else {
                    let _ = scalar;
                    return unsupported("widening a vector by conversion", span);
                }
            }
            (TypeInner::Vector { .. }, TypeInner::Scalar(_)) => format!("{to_name}({v}.x)"),
            (
                TypeInner::Matrix {
                    rows: fr,
                    columns: fc,
                    ..
                },
                TypeInner::Matrix { rows, columns, .. },
            ) => {
                if fr < rows || fc < columns {
                    return unsupported("widening a matrix by conversion", span);
                }
                let letters: String = COMPONENTS[..usize::from(*columns)].concat();
                let cols: Vec<String> = (0..*rows)
                    .map(|i| {
                        if fc == columns {
                            format!("{v}[{i}]")
                        } else {
                            format!("{v}[{i}].{letters}")
                        }
                    })
                    .collect();
                format!("{to_name}({})", cols.join(", "))
            }
            (
                TypeInner::Scalar(_),
                TypeInner::Matrix {
                    rows,
                    columns,
                    scalar,
                },
            ) => {
                let s = super::types::scalar(*scalar, span)?;
                let col = format!("vec{columns}<{s}>({s}({v}))");
                let cols: Vec<String> = (0..*rows).map(|_| col.clone()).collect();
                format!("{to_name}({})", cols.join(", "))
            }
            _ => {
                return unsupported(
                    format!(
                        "the conversion from `{}` to `{}`",
                        ir::print::type_name(self.module, from),
                        ir::print::type_name(self.module, to)
                    ),
                    span,
                );
            }
        })
    }

    fn construct(
        &self,
        ctx: &mut FnCtx,
        components: &[Handle<Expression>],
        ty: Option<Handle<ir::Type>>,
        span: Span,
    ) -> Result<String> {
        let Some(ty) = ty else {
            return unsupported("a construction without a type", span);
        };
        let name = self.spell(ty, span)?;
        let inner = self.module.types[ty].inner.clone();
        let component_inner = |ctx: &FnCtx, c: Handle<Expression>| {
            ctx.ty(c).map(|t| self.module.types[t].inner.clone())
        };
        match &inner {
            TypeInner::Struct { members } if members.len() != components.len() => {
                return unsupported("a struct initializer that does not give each member", span);
            }
            TypeInner::Array {
                size: ir::ArraySize::Constant(n),
                ..
            } if *n as usize != components.len() => {
                return unsupported("an array initializer that does not give each element", span);
            }
            TypeInner::Matrix { rows, columns, .. } => {
                let all_scalars = components
                    .iter()
                    .all(|c| matches!(component_inner(ctx, *c), Some(TypeInner::Scalar(_))));
                let all_rows = components.len() == usize::from(*rows)
                    && components.iter().all(|c| {
                        matches!(component_inner(ctx, *c), Some(TypeInner::Vector { size, .. }) if size == *columns)
                    });
                let scalars_complete =
                    all_scalars && components.len() == usize::from(*rows) * usize::from(*columns);
                if !scalars_complete && !all_rows {
                    return unsupported("a matrix built from mixed vectors and scalars", span);
                }
            }
            TypeInner::Vector { .. } | TypeInner::Scalar(_)
                if components.iter().any(|c| {
                    matches!(component_inner(ctx, *c), Some(TypeInner::Matrix { .. }))
                }) =>
            {
                return unsupported("a vector built from a matrix", span);
            }
            _ => {}
        }
        let mut parts = Vec::new();
        for (i, &c) in components.iter().enumerate() {
            let part = self.expr(ctx, c)?;
            let part = if self.padded_matrix_members.contains(&(ty, i as u32)) {
                let transposed = self.transposed_members.contains(&(ty, i as u32));
                match (component_inner(ctx, c), ir::is_pure(ctx.exprs, c)) {
                    (Some(TypeInner::Matrix { rows, columns, .. }), true) => {
                        let (count, value) = if transposed {
                            (columns, format!("transpose({part})"))
                        } else {
                            (rows, part)
                        };
                        Self::pad_matrix(count, &format!("({value})"))
                    }
                    _ => {
                        return unsupported(
                            "constructing a uniform struct with an array of matrices with 2-component columns, or from a matrix with side effects",
                            span,
                        );
                    }
                }
            } else if self.bool_members.contains(&(ty, i as u32)) {
                self.bool_to_word(ctx.ty(c), part)
            } else if self.transposed_members.contains(&(ty, i as u32)) {
                match component_inner(ctx, c) {
                    Some(TypeInner::Matrix { .. }) => format!("transpose({part})"),
                    _ => {
                        return unsupported(
                            "constructing a struct with an array of column-major buffer matrices",
                            span,
                        );
                    }
                }
            } else {
                part
            };
            parts.push(part);
        }
        Ok(format!("{name}({})", parts.join(", ")))
    }

    fn call(
        &self,
        ctx: &mut FnCtx,
        function: Handle<ir::Function>,
        args: &[Handle<Expression>],
        span: Span,
    ) -> Result<String> {
        let Some(callee) = self.module.functions.try_get(function) else {
            return unsupported("a call of a function the module does not define", span);
        };
        let name = self
            .function_names
            .get(&function)
            .cloned()
            .unwrap_or_default();
        let mut parts = Vec::new();
        for (i, &a) in args.iter().enumerate() {
            let direction = callee
                .params
                .get(i)
                .map(|p| p.direction)
                .unwrap_or(ParamDirection::In);
            let part = if direction == ParamDirection::In {
                self.expr(ctx, a)?
            } else {
                self.pointer_argument(ctx, a, direction)?
            };
            parts.push(part);
        }
        Ok(format!("{name}({})", parts.join(", ")))
    }
}

pub(super) const COMPONENTS: [&str; 4] = ["x", "y", "z", "w"];

/// A 32-bit integer constant as HLSL computes it, and whether WGSL's
/// constant evaluation of the expression that made it fails.
#[derive(Clone, Copy, Debug)]
pub(super) struct Folded {
    bits: u32,
    signed: bool,
    /// WGSL refuses the operation that made this value as a constant
    /// expression: it overflowed, or shifted by 32 or more.
    refused: bool,
}

impl Folded {
    fn value(bits: u32, signed: bool) -> Folded {
        Folded {
            bits,
            signed,
            refused: false,
        }
    }

    /// `-self`: HLSL wraps; WGSL refuses `-i32::MIN`, and Legalis writes a
    /// `u32` negation as `~v + 1u`, which overflows for 0.
    fn negate(self) -> Folded {
        let refused = if self.signed {
            self.bits == i32::MIN as u32
        } else {
            self.bits == 0
        };
        Folded {
            bits: self.bits.wrapping_neg(),
            signed: self.signed,
            refused: refused || self.refused,
        }
    }

    /// `self op r` on 32-bit integers as HLSL computes it, with whether
    /// WGSL refuses it as a constant expression; `None` for an operation
    /// not folded here (division, comparisons, mixed signedness).
    fn binary(self, op: BinaryOp, r: Folded) -> Option<Folded> {
        let (a, b, signed) = (self.bits, r.bits, self.signed);
        let (sa, sb) = (a as i32, b as i32);
        let (bits, refused) = match op {
            BinaryOp::Add if signed => (sa.wrapping_add(sb) as u32, sa.checked_add(sb).is_none()),
            BinaryOp::Add => (a.wrapping_add(b), a.checked_add(b).is_none()),
            BinaryOp::Subtract if signed => {
                (sa.wrapping_sub(sb) as u32, sa.checked_sub(sb).is_none())
            }
            BinaryOp::Subtract => (a.wrapping_sub(b), a.checked_sub(b).is_none()),
            BinaryOp::Multiply if signed => {
                (sa.wrapping_mul(sb) as u32, sa.checked_mul(sb).is_none())
            }
            BinaryOp::Multiply => (a.wrapping_mul(b), a.checked_mul(b).is_none()),
            BinaryOp::BitwiseAnd => (a & b, false),
            BinaryOp::BitwiseOr => (a | b, false),
            BinaryOp::BitwiseXor => (a ^ b, false),
            // HLSL takes the shift amount modulo 32; WGSL refuses 32 or
            // more (the amount is written as `u32(...)`), and a left shift
            // that changes the sign or drops set bits.
            BinaryOp::ShiftLeft => {
                let bits = a.wrapping_shl(b & 31);
                let lost = if b >= 32 {
                    true
                } else if signed {
                    // The top `b + 1` bits must all equal the sign.
                    let top = sa >> (31 - b);
                    top != 0 && top != -1
                } else {
                    b > 0 && a >> (32 - b) != 0
                };
                (bits, lost)
            }
            BinaryOp::ShiftRight if signed => ((sa >> (b & 31)) as u32, b >= 32),
            BinaryOp::ShiftRight => (a >> (b & 31), b >= 32),
            _ => return None,
        };
        Some(Folded {
            bits,
            signed,
            refused: refused || self.refused || r.refused,
        })
    }

    /// HLSL's value as a WGSL literal when WGSL would refuse to compute it.
    fn refused_text(self) -> Option<String> {
        self.refused.then(|| {
            if self.signed {
                int_literal(i64::from(self.bits as i32))
            } else {
                format!("{}u", self.bits)
            }
        })
    }
}

impl Writer<'_> {
    /// The value of a scalar 32-bit integer expression made of literals,
    /// conversions between `int` and `uint`, negation and the arithmetic
    /// [`Folded::binary`] folds, as HLSL computes it; `None` for anything
    /// else.
    pub(super) fn const_int(&self, ctx: &FnCtx, e: Handle<Expression>) -> Option<Folded> {
        let TypeInner::Scalar(scalar) = self.module.types[ctx.ty(e)?].inner else {
            return None;
        };
        let signed = match (scalar.kind, scalar.width) {
            (ScalarKind::Sint, 4) => true,
            (ScalarKind::Uint, 4) => false,
            _ => return None,
        };
        match &ctx.exprs[e] {
            Expression::Literal(Literal::Int(i)) => Some(Folded::value(*i as u32, signed)),
            Expression::Literal(Literal::Uint(u)) => Some(Folded::value(*u as u32, signed)),
            Expression::Convert { expr } => {
                let inner = self.const_int(ctx, *expr)?;
                Some(Folded { signed, ..inner })
            }
            Expression::Unary {
                op: UnaryOp::Negate,
                expr,
            } => Some(self.const_int(ctx, *expr)?.negate()),
            Expression::Binary { op, left, right } => {
                let (l, r) = (self.const_int(ctx, *left)?, self.const_int(ctx, *right)?);
                // Shift amounts may be of the other signedness.
                let shift = matches!(op, BinaryOp::ShiftLeft | BinaryOp::ShiftRight);
                if l.signed != signed || (!shift && r.signed != signed) {
                    return None;
                }
                l.binary(*op, r)
            }
            _ => None,
        }
    }
}

pub(super) fn int_literal(i: i64) -> String {
    if i == i64::from(i32::MIN) {
        "(-2147483647i - 1i)".into()
    } else if i < 0 {
        format!("-{}i", -i)
    } else {
        format!("{i}i")
    }
}

/// A float literal that reads back to the same `f32`; infinities and NaN
/// through their bits (WGSL has no literals for them).
pub(super) fn float_literal(f: f64) -> String {
    let f = f as f32;
    if !f.is_finite() {
        return format!("bitcast<f32>({}u)", f.to_bits());
    }
    let text = crate::float_text::debug_f32(f);
    if text.starts_with('-') {
        format!("({text}f)")
    } else {
        format!("{text}f")
    }
}

/// A float literal of the float scalar `s`: `f32` as
/// [`float_literal`], `f16` as [`half_literal`].
pub(super) fn float_literal_of(s: ir::Scalar, f: f64) -> String {
    if s.width == 2 {
        half_literal(f)
    } else {
        float_literal(f)
    }
}

/// An `h` literal holding `f` rounded to the nearest `f16` (to nearest
/// even, as a `half` constant is everywhere else), written as the
/// shortest text that reads back to that `f16`; infinities and NaN (and
/// values past 65504, which round to infinity) as the `f32` one's bits
/// converted (WGSL has no literals for them, no 16-bit integers to bit
/// cast, and no constant that overflows).
pub(super) fn half_literal(f: f64) -> String {
    let bits = crate::float_text::f16_bits(f as f32);
    let value = crate::float_text::f16_value(bits);
    if !value.is_finite() {
        return format!("f16(bitcast<f32>({}u))", value.to_bits());
    }
    // The `f32` that equals the `f16` reads back to it: the `f16` nearest
    // to the text is nearer than half an `f32` step.
    let text = crate::float_text::debug_f32(value);
    if text.starts_with('-') {
        format!("({text}h)")
    } else {
        format!("{text}h")
    }
}

/// The zero of a scalar type (`0.0h` for `f16`).
pub(super) fn zero_of(s: ir::Scalar) -> &'static str {
    match s.kind {
        ScalarKind::Float if s.width == 2 => "0.0h",
        ScalarKind::Float => "0.0f",
        ScalarKind::Uint => "0u",
        ScalarKind::Sint => "0i",
        ScalarKind::Bool => "false",
    }
}

/// A texel read from a texture of `half` texels, which WGSL samples as
/// `f32` (`texture_2d<f32>`: sampled textures have no `f16` type),
/// converted to the `f16` value the code expects: `vec4<f16>(value)`,
/// `f16(value)`; any other texel as it is.
pub(super) fn half_texel(value: String, size: u8, scalar: ir::Scalar) -> String {
    if scalar.kind != ScalarKind::Float || scalar.width != 2 {
        return value;
    }
    match size {
        1 => format!("f16({value})"),
        n => format!("vec{n}<f16>({value})"),
    }
}
