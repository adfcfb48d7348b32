//! Statements and expressions in CUDA C++: most IR prints as it reads;
//! the differences are what the writer spells through the prelude:
//! `lg::fmod` for a float `%`, `lg::select` for a vector `?:`, swizzles as
//! `lg::swizzle<...>` reads and `lg::swizzle_ref<...>` writes, mixed
//! vector constructions as `lg::make<T, N>`, `f`-suffixed float literals,
//! and the threaded globals a call passes on (see `writer.rs`).

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

use legalis_ir as ir;
use legalis_ir::{Expression, Handle, Literal, ScalarKind, Span, Statement, TypeInner};

use super::Error;
use super::types::{self, Result, unsupported};
use super::writer::{GlobalKind, Writer, fresh};

/// What a function's body is printed against.
pub(super) struct FnCtx<'a> {
    pub exprs: &'a ir::ExpressionArena,
    pub is_entry: bool,
    pub params: &'a [ir::FunctionParam],
    pub param_names: Vec<String>,
    pub local_names: HashMap<Handle<ir::LocalVariable>, String>,
    pub locals: Option<&'a ir::Arena<ir::LocalVariable>>,
    taken: HashSet<String>,
}

impl<'a> FnCtx<'a> {
    pub fn new(w: &Writer<'a>, f: Handle<ir::Function>) -> Result<Self> {
        let func = &w.module.functions[f];
        let mut taken = w.module_names();
        taken.extend(w.global_names.values().cloned());
        let is_entry = f == w.entry.function;
        let param_names = func
            .params
            .iter()
            .map(|p| fresh(&mut taken, &p.name))
            .collect();
        let mut local_names = HashMap::new();
        for (h, l) in func.locals.iter() {
            if l.is_static {
                return unsupported(
                    format!("the `static` local `{}` (not yet in CUDA output)", l.name),
                    func.locals.span(h),
                );
            }
            local_names.insert(h, fresh(&mut taken, &l.name));
        }
        Ok(FnCtx {
            exprs: &func.expressions,
            is_entry,
            params: &func.params,
            param_names,
            local_names,
            locals: Some(&func.locals),
            taken,
        })
    }

    /// The context of global initializers (no locals or parameters).
    pub fn for_globals(w: &Writer<'a>) -> Self {
        FnCtx {
            exprs: &w.module.global_expressions,
            is_entry: true,
            params: &[],
            param_names: Vec::new(),
            local_names: HashMap::new(),
            locals: None,
            taken: w.module_names(),
        }
    }

    pub fn ty(&self, e: Handle<Expression>) -> Option<Handle<ir::Type>> {
        self.exprs.ty(e)
    }

    pub fn span(&self, e: Handle<Expression>) -> Span {
        self.exprs.span(e)
    }

    pub fn temp(&mut self, base: &str) -> String {
        fresh(&mut self.taken, base)
    }
}

/// Whether the written text of `e` is a constant initializer nvcc
/// accepts for a `__device__` variable (static initialization): literals,
/// vectors of scalars (the constructors are `constexpr`), splats and
/// conversions, structs and arrays of such, and the built-in operators
/// on scalars. The prelude's vector and matrix operators and matrix
/// constructors are not `constexpr`, and a read of another `__device__`
/// variable is no constant expression: a `static const` whose
/// initializer is not static is written where it is used instead.
pub(super) fn is_static_init(module: &ir::Module, e: Handle<Expression>) -> bool {
    let exprs = &module.global_expressions;
    let inner = |e: Handle<Expression>| {
        exprs
            .ty(e)
            .and_then(|t| module.types.try_get(t))
            .map(|t| &t.inner)
    };
    let scalar = |e| matches!(inner(e), Some(TypeInner::Scalar(_)));
    let matrix = |e| matches!(inner(e), Some(TypeInner::Matrix { .. }));
    match &exprs[e] {
        Expression::Literal(_) => true,
        Expression::Construct { components } => {
            let vector = matches!(inner(e), Some(TypeInner::Vector { .. }));
            !matrix(e)
                && (!vector || components.iter().all(|c| scalar(*c)))
                && components.iter().all(|c| is_static_init(module, *c))
        }
        Expression::Convert { expr } => {
            !matrix(e) && !matrix(*expr) && is_static_init(module, *expr)
        }
        Expression::Unary { expr, .. } => scalar(e) && is_static_init(module, *expr),
        Expression::Binary { left, right, .. } => {
            scalar(e)
                && scalar(*left)
                && scalar(*right)
                && is_static_init(module, *left)
                && is_static_init(module, *right)
        }
        _ => false,
    }
}

/// Whether `text` is one parenthesized expression, `(a + c)`.
fn enclosed(text: &str) -> bool {
    let mut depth = 0usize;
    for (i, ch) in text.char_indices() {
        match ch {
            '(' => depth += 1,
            ')' => {
                depth = depth.saturating_sub(1);
                if depth == 0 && i + 1 != text.len() {
                    return false;
                }
            }
            _ if depth == 0 => return false,
            _ => {}
        }
    }
    depth == 0 && text.starts_with('(')
}

/// Whether evaluating `e` twice is the same as once.
pub(super) fn is_pure(exprs: &ir::ExpressionArena, e: Handle<Expression>) -> bool {
    match &exprs[e] {
        Expression::Call { .. }
        | Expression::Assign { .. }
        | Expression::IncDec { .. }
        | Expression::Intrinsic { .. } => false,
        other => other.children().into_iter().all(|c| is_pure(exprs, c)),
    }
}

fn pad(depth: usize) -> String {
    "    ".repeat(depth)
}

const SWIZZLE: [char; 4] = ['x', 'y', 'z', 'w'];

impl Writer<'_> {
    pub(super) fn block(&self, ctx: &mut FnCtx, block: &ir::Block, depth: usize) -> Result<String> {
        let mut out = String::new();
        for (stmt, span) in block.iter() {
            self.statement(ctx, stmt, span, depth, &mut out)?;
        }
        Ok(out)
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
                let Some(locals) = ctx.locals else {
                    return Err(Error::NotLegalized {
                        what: "a local outside a function".into(),
                        span,
                    });
                };
                let l = &locals[*local];
                // A hit object is OptiX's implicit one: its variable is
                // nothing, its value the OptiX call that makes it.
                if matches!(self.module.types[l.ty].inner, TypeInner::HitObject) {
                    return self.hit_object_store(ctx, *init, span, depth, out);
                }
                let ty = self.spell(l.ty, span)?;
                let name = ctx.local_names[local].clone();
                let konst = if l.is_const { "const " } else { "" };
                match init {
                    Some(init) => {
                        let value = self.expr(ctx, *init)?;
                        writeln!(out, "{p}{konst}{ty} {name} = {value};").ok();
                    }
                    None => {
                        writeln!(out, "{p}{ty} {name};").ok();
                    }
                }
            }
            Statement::Store { target, value }
                if ctx.ty(*target).is_some_and(|t| {
                    matches!(self.module.types[t].inner, TypeInner::HitObject)
                }) =>
            {
                return self.hit_object_store(ctx, Some(*value), span, depth, out);
            }
            Statement::Store { target, value } => {
                let text = self.store(ctx, *target, *value)?;
                writeln!(out, "{p}{text};").ok();
            }
            Statement::Expr(e) => {
                if let Expression::Intrinsic { fun, args } = &ctx.exprs[*e]
                    && let Some(lines) = self.intrinsic_statement(ctx, *fun, args, ctx.span(*e))?
                {
                    for line in lines {
                        writeln!(out, "{p}{line}").ok();
                    }
                    return Ok(());
                }
                let text = self.expr(ctx, *e)?;
                writeln!(out, "{p}{text};").ok();
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
            } => {
                let scoped = !init.is_empty();
                let inner = if scoped { depth + 1 } else { depth };
                if scoped {
                    writeln!(out, "{p}{{").ok();
                    out.push_str(&self.block(ctx, init, depth + 1)?);
                }
                let c = match condition {
                    Some(c) => self.expr(ctx, *c)?,
                    None => String::new(),
                };
                let mut updates = Vec::new();
                for (stmt, span) in update.iter() {
                    updates.push(match stmt {
                        Statement::Store { target, value } => self.store(ctx, *target, *value)?,
                        Statement::Expr(e) => self.expr(ctx, *e)?,
                        _ => return unsupported("a `for` update that is not an expression", span),
                    });
                }
                let q = pad(inner);
                writeln!(out, "{q}for (; {c}; {})\n{q}{{", updates.join(", ")).ok();
                out.push_str(&self.block(ctx, body, inner + 1)?);
                writeln!(out, "{q}}}").ok();
                if scoped {
                    writeln!(out, "{p}}}").ok();
                }
            }
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
            Statement::Discard => {
                return unsupported("`discard` (CUDA has no fragment stage)", span);
            }
            Statement::EmitVertex { .. } | Statement::EndPrimitive { .. } => {
                return unsupported(
                    "geometry-stream statements (CUDA has no geometry stage)",
                    span,
                );
            }
            Statement::PatchBarrier => {
                return unsupported("a patch barrier (CUDA has no tessellation stages)", span);
            }
            Statement::Printf { format, args } => {
                self.printf(ctx, format, args, span, depth, out)?;
            }
        }
        Ok(())
    }

    /// Debug printf as CUDA's `printf`: a vector conversion (`%v3f`)
    /// becomes one conversion per component separated by `, ` (how
    /// `GL_EXT_debug_printf` prints a vector), its argument a temporary
    /// whose components are passed; floats are passed as `double`, which
    /// `%f` reads (`half` has no variadic promotion of its own).
    fn printf(
        &self,
        ctx: &mut FnCtx,
        format: &str,
        args: &[Handle<Expression>],
        span: Span,
        depth: usize,
        out: &mut String,
    ) -> Result<()> {
        let Ok(conversions) = ir::printf::conversions(format) else {
            return Err(Error::NotLegalized {
                what: "a `printf` format the front end did not check".into(),
                span,
            });
        };
        let p = pad(depth);
        let mut temps = Vec::new();
        let mut text = String::new();
        let mut values = Vec::new();
        let mut last = 0;
        for (conversion, &arg) in conversions.iter().zip(args) {
            text.push_str(&format[last..conversion.range.start]);
            last = conversion.range.end;
            let value = self.expr(ctx, arg)?;
            let scalar = ctx.ty(arg).and_then(|t| match self.module.types[t].inner {
                TypeInner::Scalar(s) | TypeInner::Vector { scalar: s, .. } => Some(s),
                _ => None,
            });
            let pass = |v: String| match scalar {
                Some(s) if s.kind == ir::ScalarKind::Float && s.width == 2 => {
                    format!("(double)(float)({v})")
                }
                Some(s) if s.kind == ir::ScalarKind::Float => format!("(double)({v})"),
                _ => v,
            };
            match conversion.vector {
                None => {
                    text.push_str(&format[conversion.range.clone()]);
                    values.push(pass(value));
                }
                Some(n) => {
                    let temp = ctx.temp("printf_arg");
                    temps.push(format!("{p}    auto {temp} = {value};"));
                    let one = conversion.scalar_text(format);
                    let parts: Vec<&str> = (0..n).map(|_| one.as_str()).collect();
                    text.push_str(&parts.join(", "));
                    for c in ["x", "y", "z", "w"].iter().take(n as usize) {
                        values.push(pass(format!("{temp}.{c}")));
                    }
                }
            }
        }
        text.push_str(&format[last..]);
        let mut call = crate::c_string_literal(&text);
        for v in values {
            call.push_str(", ");
            call.push_str(&v);
        }
        if temps.is_empty() {
            writeln!(out, "{p}printf({call});").ok();
        } else {
            writeln!(out, "{p}{{").ok();
            for t in temps {
                writeln!(out, "{t}").ok();
            }
            writeln!(out, "{p}    printf({call});").ok();
            writeln!(out, "{p}}}").ok();
        }
        Ok(())
    }

    /// `target = value`.
    pub(super) fn store(
        &self,
        ctx: &mut FnCtx,
        target: Handle<Expression>,
        value: Handle<Expression>,
    ) -> Result<String> {
        if let Some(write) = self.texel_write(ctx, target, value)? {
            return Ok(write);
        }
        let place = self.place(ctx, target)?;
        let v = self.expr(ctx, value)?;
        if self.stored_columns(ctx, target) {
            return Ok(format!("{place} = lg::columns({v})"));
        }
        Ok(format!("{place} = {v}"))
    }

    /// Whether `e` names memory holding column-major matrices the host
    /// shares (`lg::column_major`, `Writer::column_members`): a value read
    /// from it goes through `lg::rows`, a whole value stored into it
    /// through `lg::columns`.
    pub(super) fn stored_columns(&self, ctx: &FnCtx, e: Handle<Expression>) -> bool {
        match &ctx.exprs[e] {
            Expression::Member { base, index } => ctx.ty(*base).is_some_and(|t| {
                self.column_members
                    .contains(&(self.struct_type_of(t), *index))
            }),
            Expression::Global(g) => {
                self.kinds.get(g) == Some(&GlobalKind::Plain) && self.column_globals.contains(g)
            }
            Expression::Index { base, .. } => match &ctx.exprs[*base] {
                Expression::Global(g) if self.kinds.get(g) == Some(&GlobalKind::Resource) => {
                    self.column_globals.contains(g)
                }
                _ => {
                    ctx.ty(*base).is_some_and(|t| {
                        matches!(self.module.types[t].inner, TypeInner::Array { .. })
                    }) && self.stored_columns(ctx, *base)
                }
            },
            _ => false,
        }
    }

    /// Whether `e` is a row of a column-major matrix the host shares
    /// (`m[r]`): a place there is the prelude's `lg::column_row`, whose
    /// components are `[c]`.
    fn column_row(&self, ctx: &FnCtx, e: Handle<Expression>) -> bool {
        match &ctx.exprs[e] {
            Expression::Index { base, .. } => {
                ctx.ty(*base)
                    .is_some_and(|t| matches!(self.module.types[t].inner, TypeInner::Matrix { .. }))
                    && self.stored_columns(ctx, *base)
            }
            _ => false,
        }
    }

    /// Refuses `e` as a place C++ cannot bind a plain reference to: a
    /// column-major matrix the host shares, or a row of one.
    fn refuse_column_reference(
        &self,
        ctx: &FnCtx,
        e: Handle<Expression>,
        what: &str,
    ) -> Result<()> {
        if self.stored_columns(ctx, e) || self.column_row(ctx, e) {
            return Err(Error::Layout {
                what: format!("{what} of a column-major buffer matrix or a row of one"),
                span: ctx.span(e),
            });
        }
        Ok(())
    }

    /// The struct behind a struct or buffer-block type.
    pub(super) fn struct_type_of(&self, ty: Handle<ir::Type>) -> Handle<ir::Type> {
        match self.module.types[ty].inner {
            TypeInner::ConstantBuffer { inner } | TypeInner::TextureBuffer { inner } => inner,
            _ => ty,
        }
    }

    /// An assignable place.
    pub(super) fn place(&self, ctx: &mut FnCtx, e: Handle<Expression>) -> Result<String> {
        match &ctx.exprs[e] {
            Expression::Member { base, index } => {
                let b = self.place(ctx, *base)?;
                Ok(format!("{b}.{}", self.member_name(ctx, *base, *index)?))
            }
            Expression::Index { base, .. } if self.is_texture(ctx, *base) => unsupported(
                "a texel of a texture as a reference (read it into a local, change it, store it back)",
                ctx.span(e),
            ),
            Expression::Index { base, index } => {
                let b = self.place(ctx, *base)?;
                let i = self.expr(ctx, *index)?;
                Ok(format!("{b}[{i}]"))
            }
            Expression::Swizzle { base, components } => {
                let b = self.place(ctx, *base)?;
                if let [c] = components.as_slice() {
                    if self.column_row(ctx, *base) {
                        return Ok(format!("{b}[{}]", *c & 3));
                    }
                    return Ok(format!("{b}.{}", SWIZZLE[*c as usize & 3]));
                }
                Ok(format!("lg::swizzle_ref<{}>({b})", indices(components)))
            }
            Expression::Global(g) => self.global_value(*g),
            _ => self.expr(ctx, e),
        }
    }

    fn member_name(&self, ctx: &FnCtx, base: Handle<Expression>, index: u32) -> Result<String> {
        let span = ctx.span(base);
        let ty = ctx.ty(base).ok_or_else(|| Error::NotLegalized {
            what: "a member of an untyped value".into(),
            span,
        })?;
        let st = self.struct_type_of(ty);
        self.member_names
            .get(&st)
            .and_then(|names| names.get(index as usize))
            .cloned()
            .ok_or_else(|| Error::NotLegalized {
                what: "a member of a value that is not a struct".into(),
                span,
            })
    }

    /// The initializer of a `static const` that is written where it is
    /// used (its initializer is not static, [`is_static_init`]).
    pub(super) fn inlined_constant(
        &self,
        g: Handle<ir::GlobalVariable>,
    ) -> Option<Handle<Expression>> {
        if self.kinds.get(&g) != Some(&GlobalKind::Constant) {
            return None;
        }
        let init = self.module.globals.try_get(g)?.init?;
        (!is_static_init(self.module, init)).then_some(init)
    }

    /// A global read as a value: its name, or the initializer of an
    /// inlined `static const` (parenthesized).
    fn global_value(&self, g: Handle<ir::GlobalVariable>) -> Result<String> {
        match self.inlined_constant(g) {
            Some(init) => {
                let mut ctx = FnCtx::for_globals(self);
                let text = self.expr(&mut ctx, init)?;
                Ok(if enclosed(&text) {
                    text
                } else {
                    format!("({text})")
                })
            }
            None => Ok(self.global_ref(g)),
        }
    }

    /// How code names a global.
    fn global_ref(&self, g: Handle<ir::GlobalVariable>) -> String {
        let name = self.global_names.get(&g).cloned().unwrap_or_default();
        match (self.kinds.get(&g), &self.globals_block) {
            (Some(GlobalKind::Plain), Some((_, block))) => format!("{block}.{name}"),
            _ => name,
        }
    }

    pub(super) fn expr(&self, ctx: &mut FnCtx, e: Handle<Expression>) -> Result<String> {
        let span = ctx.span(e);
        if self.stored_columns(ctx, e) {
            return Ok(format!("lg::rows({})", self.place(ctx, e)?));
        }
        Ok(match &ctx.exprs[e] {
            Expression::Literal(lit) => self.literal(*lit, ctx.ty(e), span)?,
            Expression::Global(g) => self.global_value(*g)?,
            Expression::Local(l) => {
                ctx.local_names
                    .get(l)
                    .cloned()
                    .ok_or_else(|| Error::NotLegalized {
                        what: "a local the function does not declare".into(),
                        span,
                    })?
            }
            Expression::Param(i) => {
                let i = *i as usize;
                let Some(param) = ctx.params.get(i) else {
                    return Err(Error::NotLegalized {
                        what: "a parameter the function does not have".into(),
                        span,
                    });
                };
                let _ = param;
                ctx.param_names[i].clone()
            }
            Expression::Member { base, index } => {
                let b = self.expr(ctx, *base)?;
                format!("{b}.{}", self.member_name(ctx, *base, *index)?)
            }
            Expression::Deref { pointer, index } => {
                let p = self.expr(ctx, *pointer)?;
                match index {
                    Some(i) => {
                        let i = self.expr(ctx, *i)?;
                        format!("{p}[{i}]")
                    }
                    None => format!("(*{p})"),
                }
            }
            Expression::Index { base, index } => {
                if let Some(read) = self.texel_read(ctx, *base, *index, span)? {
                    return Ok(read);
                }
                let b = self.expr(ctx, *base)?;
                let i = self.expr(ctx, *index)?;
                format!("{b}[{i}]")
            }
            Expression::Swizzle { base, components } => {
                let b = self.expr(ctx, *base)?;
                let base_ty = ctx.ty(*base).map(|t| &self.module.types[t].inner);
                if let Some(TypeInner::Scalar(_)) = base_ty {
                    if components.len() == 1 {
                        b
                    } else {
                        format!("{}({b})", self.spell_of(ctx, e)?)
                    }
                } else if let [c] = components.as_slice() {
                    format!("{b}.{}", SWIZZLE[*c as usize & 3])
                } else {
                    format!("lg::swizzle<{}>({b})", indices(components))
                }
            }
            Expression::Unary { op, expr } => {
                let x = self.expr(ctx, *expr)?;
                let op = match op {
                    ir::UnaryOp::Negate => "-",
                    ir::UnaryOp::LogicalNot => "!",
                    ir::UnaryOp::BitwiseNot => "~",
                };
                format!("({op}{x})")
            }
            Expression::Binary { op, left, right } => self.binary(ctx, *op, *left, *right, span)?,
            Expression::Select {
                condition,
                accept,
                reject,
            } => {
                let c = self.expr(ctx, *condition)?;
                let a = self.expr(ctx, *accept)?;
                let r = self.expr(ctx, *reject)?;
                let vector = ctx.ty(*condition).is_some_and(|t| {
                    matches!(self.module.types[t].inner, TypeInner::Vector { .. })
                });
                if vector {
                    format!("lg::select({r}, {a}, {c})")
                } else {
                    format!("({c} ? {a} : {r})")
                }
            }
            Expression::Convert { expr } => self.convert(ctx, e, *expr)?,
            Expression::Construct { components } => self.construct(ctx, e, components)?,
            Expression::Call { function, args } => self.call(ctx, *function, args, span)?,
            Expression::Intrinsic { fun, args } => self.intrinsic(ctx, *fun, args, e)?,
            Expression::Assign { target, value } => {
                if let Expression::Index { base, .. } = ctx.exprs[*target]
                    && self.is_texture(ctx, base)
                {
                    return unsupported("an assignment to a texel used as a value", span);
                }
                let text = self.store(ctx, *target, *value)?;
                format!("({text})")
            }
            Expression::IncDec { op, target } => {
                self.refuse_column_reference(ctx, *target, "an increment or decrement")?;
                let t = self.place(ctx, *target)?;
                match op {
                    ir::IncDecOp::PreIncrement => format!("(++{t})"),
                    ir::IncDecOp::PreDecrement => format!("(--{t})"),
                    ir::IncDecOp::PostIncrement => format!("({t}++)"),
                    ir::IncDecOp::PostDecrement => format!("({t}--)"),
                }
            }
        })
    }

    /// The spelling of `e`'s type.
    pub(super) fn spell_of(&self, ctx: &FnCtx, e: Handle<Expression>) -> Result<String> {
        let ty = ctx.ty(e).ok_or_else(|| Error::NotLegalized {
            what: "an untyped value".into(),
            span: ctx.span(e),
        })?;
        self.spell(ty, ctx.span(e))
    }

    pub(super) fn literal(
        &self,
        lit: Literal,
        ty: Option<Handle<ir::Type>>,
        span: Span,
    ) -> Result<String> {
        let scalar = ty.and_then(|t| self.module.types[t].inner.scalar());
        let width = scalar.map_or(4, |s| s.width);
        Ok(match lit {
            Literal::Bool(b) => b.to_string(),
            Literal::Int(i) => match width {
                8 => format!("{i}ll"),
                4 if i == i32::MIN as i64 => "(-2147483647 - 1)".into(),
                4 => i.to_string(),
                _ => format!(
                    "{}({i})",
                    types::scalar(scalar.unwrap_or(ir::Scalar::I32), span)?
                ),
            },
            Literal::Uint(u) => match width {
                8 => format!("{u}ull"),
                4 => format!("{u}u"),
                _ => format!(
                    "{}({u})",
                    types::scalar(scalar.unwrap_or(ir::Scalar::U32), span)?
                ),
            },
            Literal::Float(f) => {
                let text = float_literal(f);
                let single = if text.starts_with('(') {
                    format!("float{text}")
                } else {
                    format!("{text}f")
                };
                match width {
                    2 => format!("lg::half({single})"),
                    8 => text,
                    _ => single,
                }
            }
        })
    }

    fn binary(
        &self,
        ctx: &mut FnCtx,
        op: ir::BinaryOp,
        left: Handle<Expression>,
        right: Handle<Expression>,
        span: Span,
    ) -> Result<String> {
        let kind = |e: Handle<Expression>| ctx.ty(e).map(|t| self.module.types[t].inner.clone());
        let (lk, rk) = (kind(left), kind(right));
        let is_matrix = |k: &Option<TypeInner>| matches!(k, Some(TypeInner::Matrix { .. }));
        let is_vector = |k: &Option<TypeInner>| matches!(k, Some(TypeInner::Vector { .. }));
        let float = lk
            .as_ref()
            .and_then(|k| k.scalar())
            .is_some_and(|s| s.kind == ScalarKind::Float);
        let l = self.expr(ctx, left)?;
        let r = self.expr(ctx, right)?;
        use ir::BinaryOp as B;
        if (is_matrix(&lk) || is_matrix(&rk)) && (op.is_comparison() || op == B::Modulo) {
            return unsupported("a comparison or `%` of matrices", span);
        }
        if matches!(op, B::LogicalAnd | B::LogicalOr) && (is_vector(&lk) || is_vector(&rk)) {
            let f = if op == B::LogicalAnd { "&" } else { "|" };
            return Ok(format!("({l} {f} {r})"));
        }
        if op == B::Modulo && float {
            return Ok(format!("lg::fmod({l}, {r})"));
        }
        Ok(format!("({l} {} {r})", op.symbol()))
    }

    fn convert(
        &self,
        ctx: &mut FnCtx,
        e: Handle<Expression>,
        inner: Handle<Expression>,
    ) -> Result<String> {
        let span = ctx.span(e);
        let (Some(to), Some(from)) = (ctx.ty(e), ctx.ty(inner)) else {
            return Err(Error::NotLegalized {
                what: "a conversion of an untyped value".into(),
                span,
            });
        };
        if let (Expression::Literal(lit), TypeInner::Scalar(s)) =
            (&ctx.exprs[inner], &self.module.types[to].inner)
        {
            // A converted literal prints as a literal of the target type.
            return self.literal(convert_literal(*lit, s.kind), Some(to), span);
        }
        let x = self.expr(ctx, inner)?;
        if to == from {
            return Ok(x);
        }
        let module = self.module;
        let spelled = self.spell_of(ctx, e);
        Ok(match (&module.types[from].inner, &module.types[to].inner) {
            (TypeInner::ConstantBuffer { inner } | TypeInner::TextureBuffer { inner }, _)
                if *inner == to =>
            {
                x
            }
            (TypeInner::Scalar(_), TypeInner::Scalar(_) | TypeInner::Vector { .. }) => {
                format!("{}({x})", spelled?)
            }
            (TypeInner::Vector { size: a, .. }, TypeInner::Vector { size: b, .. }) => {
                if b < a {
                    let c: Vec<u8> = (0..*b).collect();
                    format!("{}(lg::swizzle<{}>({x}))", spelled?, indices(&c))
                } else if a == b {
                    format!("{}({x})", spelled?)
                } else {
                    return unsupported("a conversion to a longer vector", span);
                }
            }
            (TypeInner::Vector { .. }, TypeInner::Scalar(_)) => format!("{}({x}.x)", spelled?),
            (
                TypeInner::Matrix {
                    rows: r1,
                    columns: c1,
                    ..
                },
                TypeInner::Matrix {
                    rows: r2,
                    columns: c2,
                    ..
                },
            ) => {
                if (r1, c1) == (r2, c2) {
                    format!("{}({x})", spelled?)
                } else if r2 <= r1 && c2 <= c1 && is_pure(ctx.exprs, inner) {
                    let c: Vec<u8> = (0..*c2).collect();
                    let scalar = module.types[to].inner.scalar().unwrap_or(ir::Scalar::F32);
                    let row = types::vector(scalar, *c2, span)?;
                    let columns: Vec<String> = (0..*r2)
                        .map(|i| format!("{row}(lg::swizzle<{}>({x}[{i}]))", indices(&c)))
                        .collect();
                    format!("{}({})", spelled?, columns.join(", "))
                } else {
                    return unsupported("this matrix conversion", span);
                }
            }
            (TypeInner::Scalar(_), TypeInner::Matrix { rows, columns, .. })
                if is_pure(ctx.exprs, inner) =>
            {
                let scalar = module.types[to].inner.scalar().unwrap_or(ir::Scalar::F32);
                let one = format!("{}({x})", types::scalar(scalar, span)?);
                let all = vec![one; (*rows as usize) * (*columns as usize)];
                format!("{}({})", spelled?, all.join(", "))
            }
            (TypeInner::Scalar(_), TypeInner::Struct { .. } | TypeInner::Array { .. })
                if matches!(
                    ctx.exprs[inner],
                    Expression::Literal(Literal::Int(0) | Literal::Uint(0))
                ) =>
            {
                // `(T)0`: every member zero.
                format!("{}{{}}", spelled?)
            }
            _ => {
                return unsupported(
                    format!(
                        "the conversion from `{}` to `{}`",
                        ir::print::type_name(module, from),
                        ir::print::type_name(module, to)
                    ),
                    span,
                );
            }
        })
    }

    fn construct(
        &self,
        ctx: &mut FnCtx,
        e: Handle<Expression>,
        components: &[Handle<Expression>],
    ) -> Result<String> {
        let span = ctx.span(e);
        let ty = ctx.ty(e).ok_or_else(|| Error::NotLegalized {
            what: "an untyped construction".into(),
            span,
        })?;
        let mut parts = Vec::new();
        for c in components {
            parts.push(self.expr(ctx, *c)?);
        }
        let spelled = self.spell(ty, span)?;
        let count_ok = match &self.module.types[ty].inner {
            TypeInner::Struct { members } => members.len() == components.len(),
            TypeInner::Array {
                size: ir::ArraySize::Constant(n),
                ..
            } => *n as usize == components.len(),
            _ => true,
        };
        if !count_ok {
            return unsupported(
                "an initializer list whose values do not match the members one for one",
                span,
            );
        }
        Ok(match &self.module.types[ty].inner {
            TypeInner::Struct { .. } => {
                // Padding members (`laid_out_struct`) take an empty `{}`.
                let pads = self.padded_members(ty);
                let mut all = Vec::new();
                for (i, p) in parts.into_iter().enumerate() {
                    if pads.get(i).copied().unwrap_or(false) {
                        all.push("{}".to_string());
                    }
                    if self.column_members.contains(&(ty, i as u32)) {
                        all.push(format!("lg::columns({p})"));
                    } else {
                        all.push(p);
                    }
                }
                format!("{spelled}{{{}}}", all.join(", "))
            }
            TypeInner::Array { .. } => {
                format!("{spelled}{{{}}}", parts.join(", "))
            }
            TypeInner::Vector { size, scalar } => {
                let all_scalars = components.iter().all(|c| {
                    ctx.ty(*c)
                        .is_some_and(|t| matches!(self.module.types[t].inner, TypeInner::Scalar(_)))
                });
                if all_scalars && components.len() == *size as usize {
                    format!("{spelled}({})", parts.join(", "))
                } else {
                    let s = types::scalar(*scalar, span)?;
                    format!("lg::make<{s}, {size}>({})", parts.join(", "))
                }
            }
            _ => format!("{spelled}({})", parts.join(", ")),
        })
    }

    fn call(
        &self,
        ctx: &mut FnCtx,
        function: Handle<ir::Function>,
        args: &[Handle<Expression>],
        span: Span,
    ) -> Result<String> {
        let Some(callee) = self.module.functions.try_get(function) else {
            return Err(Error::NotLegalized {
                what: "a call of a function the module does not define".into(),
                span,
            });
        };
        let mut parts = Vec::new();
        for (i, a) in args.iter().enumerate() {
            let by_reference = callee
                .params
                .get(i)
                .is_some_and(|p| p.direction != ir::ParamDirection::In);
            parts.push(if by_reference {
                if matches!(ctx.exprs[*a], Expression::Swizzle { .. }) {
                    return unsupported(
                        "a swizzle as an `out`/`inout` argument (C++ cannot bind a reference to it)",
                        ctx.span(*a),
                    );
                }
                self.refuse_column_reference(ctx, *a, "an `out`/`inout` argument")?;
                self.place(ctx, *a)?
            } else {
                self.expr(ctx, *a)?
            });
        }
        parts.extend(self.threaded_arguments(function, ""));
        if self.payload_threaded.contains_key(&function) {
            parts.push(self.payload_argument(ctx, span)?);
        }
        Ok(format!(
            "{}({})",
            self.function_names[&function],
            parts.join(", ")
        ))
    }
}

/// `lit` as a value of `kind` (HLSL's conversion rules: floats truncate
/// toward zero, booleans are zero or not).
fn convert_literal(lit: Literal, kind: ScalarKind) -> Literal {
    let (int, float, truth) = match lit {
        Literal::Bool(b) => (i64::from(b), f64::from(u8::from(b)), b),
        Literal::Int(i) => (i, i as f64, i != 0),
        Literal::Uint(u) => (u as i64, u as f64, u != 0),
        Literal::Float(f) => (f as i64, f, f != 0.0),
    };
    match kind {
        ScalarKind::Bool => Literal::Bool(truth),
        ScalarKind::Sint => Literal::Int(int),
        ScalarKind::Uint => match lit {
            Literal::Uint(u) => Literal::Uint(u),
            Literal::Float(f) => Literal::Uint(f as u64),
            _ => Literal::Uint(int as u64),
        },
        ScalarKind::Float => Literal::Float(float),
    }
}

/// `0, 1` of the swizzle components `xy`.
pub(super) fn indices(components: &[u8]) -> String {
    components
        .iter()
        .map(|c| (c & 3).to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// A float literal C++ reads as a `double` (the caller adds `f`): always
/// with a point or an exponent; infinities and NaN as quotients.
pub(super) fn float_literal(f: f64) -> String {
    if f.is_nan() {
        return "(0.0 / 0.0)".into();
    }
    if f.is_infinite() {
        return if f > 0.0 {
            "(1.0 / 0.0)".into()
        } else {
            "(-1.0 / 0.0)".into()
        };
    }
    let text = crate::float_text::debug_f64(f);
    if text.contains(['.', 'e', 'E']) {
        text
    } else {
        format!("{text}.0")
    }
}
