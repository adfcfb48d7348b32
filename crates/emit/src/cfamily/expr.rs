//! Expressions in C-family syntax, written once for MSL and CUDA: most IR
//! prints as it reads (`(a + b)`, `f(x)`, `T{...}`); what a target spells
//! its own way (swizzles, literal suffixes, globals, texels, intrinsics)
//! it answers through its [`Dialect`].

use legalis_ir as ir;
use legalis_ir::{Expression, FastHashMap, Handle, Literal, ScalarKind, Span, TypeInner};

use super::types::Types;
use super::{Call, Dialect, Intrinsics, Refusal, Store};
use crate::namer::Namer;

/// What a function's body is printed against.
pub(crate) struct FnCtx<'a, S> {
    pub exprs: &'a ir::ExpressionArena,
    /// Whether the function is an entry point's own (or these are global
    /// initializers, which the entry function evaluates).
    pub is_entry: bool,
    pub params: &'a [ir::FunctionParam],
    pub param_names: Vec<String>,
    pub local_names: FastHashMap<Handle<ir::LocalVariable>, String>,
    pub locals: Option<&'a ir::Arena<ir::LocalVariable>>,
    /// Every name in scope: the module's and the function's.
    pub taken: Namer,
    /// While the call a statement is made of is printed: the temporaries
    /// its `out`/`inout` arguments go through where the target cannot
    /// bind a reference to them (`None` elsewhere).
    pub copies: Option<Vec<ArgCopy>>,
    /// What the target alone keeps.
    pub state: S,
}

/// An `out`/`inout` argument passed through a temporary: copied in before
/// the call (`inout`), out after it.
pub(crate) struct ArgCopy {
    pub temp: String,
    pub ty: String,
    pub place: String,
    pub copy_in: bool,
}

impl<'a, S> FnCtx<'a, S> {
    /// The context of function `func`, whose parameters are named
    /// `param_names` and whose names in scope are `taken`; each local
    /// gets a fresh name there. A `static` local
    /// is refused, `why_not` saying why.
    pub fn new<E: Refusal>(
        func: &'a ir::Function,
        is_entry: bool,
        param_names: Vec<String>,
        mut taken: Namer,
        why_not: &str,
        state: S,
    ) -> std::result::Result<Self, E> {
        let mut local_names = FastHashMap::default();
        for (h, l) in func.locals.iter() {
            if l.is_static {
                let what = format!("the `static` local `{}` ({why_not})", l.name);
                return Err(E::unsupported(what, func.locals.span(h)));
            }
            local_names.insert(h, taken.call(&l.name));
        }
        Ok(FnCtx {
            exprs: &func.expressions,
            is_entry,
            params: &func.params,
            param_names,
            local_names,
            locals: Some(&func.locals),
            taken,
            copies: None,
            state,
        })
    }

    /// The context of global initializers (no locals or parameters).
    pub fn for_globals(module: &'a ir::Module, taken: Namer, state: S) -> Self {
        FnCtx {
            exprs: &module.global_expressions,
            is_entry: true,
            params: &[],
            param_names: Vec::new(),
            local_names: FastHashMap::default(),
            locals: None,
            taken,
            copies: None,
            state,
        }
    }

    pub fn ty(&self, e: Handle<Expression>) -> Option<Handle<ir::Type>> {
        self.exprs.ty(e)
    }

    pub fn span(&self, e: Handle<Expression>) -> Span {
        self.exprs.span(e)
    }

    /// A fresh name in the function from `base`.
    pub fn temp(&mut self, base: &str) -> String {
        self.taken.call(base)
    }
}

/// Whether evaluating `e` twice is the same as once: [`ir::is_pure`],
/// and no intrinsic at all (each intrinsic call is evaluated where it
/// stands, so none is counted pure).
pub(crate) fn is_pure(exprs: &ir::ExpressionArena, e: Handle<Expression>) -> bool {
    ir::is_pure_with(exprs, e, |_| false)
}

/// The swizzle letters.
pub(crate) const SWIZZLE: [char; 4] = ['x', 'y', 'z', 'w'];

/// `{x}.xyz`: the letters of `components`.
pub(crate) fn swizzle_letters(components: &[u8]) -> String {
    components
        .iter()
        .map(|c| SWIZZLE[*c as usize & 3])
        .collect()
}

/// A construction in C++ syntax: `T{...}` for a struct or array (an
/// aggregate), `T(...)` otherwise.
pub(crate) fn aggregate(inner: &TypeInner, spelled: &str, parts: &[String]) -> String {
    match inner {
        TypeInner::Struct { .. } | TypeInner::Array { .. } => {
            format!("{spelled}{{{}}}", parts.join(", "))
        }
        _ => format!("{spelled}({})", parts.join(", ")),
    }
}

/// The text of the float `f`: NaN, infinity and negative infinity as
/// `non_finite` spells them, else decimal digits, always with a point or
/// an exponent (what C++ reads as a `double`).
pub(crate) fn float_text(f: f64, non_finite: [&str; 3]) -> String {
    if f.is_nan() {
        return non_finite[0].into();
    }
    if f.is_infinite() {
        return non_finite[if f > 0.0 { 1 } else { 2 }].into();
    }
    let text = crate::float_text::debug_f64(f);
    if text.contains(['.', 'e', 'E']) {
        text
    } else {
        format!("{text}.0")
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

type Result<T, D> = std::result::Result<T, <D as Dialect>::Error>;
type Ctx<'c, 'a, D> = &'c mut FnCtx<'a, <D as Dialect>::FnState>;

fn unsupported<T, E: Refusal>(what: impl Into<String>, span: Span) -> std::result::Result<T, E> {
    Err(E::unsupported(what.into(), span))
}

fn not_legalized<T, E: Refusal>(what: &str, span: Span) -> std::result::Result<T, E> {
    Err(E::not_legalized(what.into(), span))
}

/// The expression printer every [`Dialect`] has.
pub(crate) trait Exprs: Types + Intrinsics + Sized {
    /// `e` as a value.
    fn expr(&self, ctx: Ctx<'_, '_, Self>, e: Handle<Expression>) -> Result<String, Self> {
        if let Some(text) = self.read(ctx, e)? {
            return Ok(text);
        }
        let span = ctx.span(e);
        let exprs = ctx.exprs;
        Ok(match &exprs[e] {
            Expression::Literal(lit) => self.literal(*lit, ctx.ty(e), span)?,
            Expression::Global(g) => self.global(*g)?,
            Expression::Local(l) => match ctx.local_names.get(l) {
                Some(name) => name.clone(),
                None => return not_legalized("a local the function does not declare", span),
            },
            Expression::Param(i) => {
                let i = *i as usize;
                let Some(param) = ctx.params.get(i) else {
                    return not_legalized("a parameter the function does not have", span);
                };
                self.param(ctx, i, param)
            }
            Expression::Member { base, index } => {
                let b = self.expr(ctx, *base)?;
                let text = cat!(b, ".", self.member_name(ctx, *base, *index)?);
                self.member(ctx, e, text)?
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
                if let Some(text) = self.index(ctx, e)? {
                    return Ok(text);
                }
                let b = self.expr(ctx, *base)?;
                let i = self.expr(ctx, *index)?;
                format!("{b}[{i}]")
            }
            Expression::Swizzle { base, components } => {
                let b = self.expr(ctx, *base)?;
                let base_ty = ctx.ty(*base).map(|t| &self.module().types[t].inner);
                if let Some(TypeInner::Scalar(_)) = base_ty {
                    if components.len() == 1 {
                        b
                    } else {
                        format!("{}({b})", self.spell_of(ctx, e)?)
                    }
                } else {
                    self.swizzle(b, components)
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
                    matches!(self.module().types[t].inner, TypeInner::Vector { .. })
                });
                if vector {
                    format!("{}({r}, {a}, {c})", Self::SELECT)
                } else {
                    format!("({c} ? {a} : {r})")
                }
            }
            Expression::Convert { expr } => self.convert(ctx, e, *expr)?,
            Expression::Construct { components } => self.construct(ctx, e, components)?,
            Expression::Call { function, args } => self.call(ctx, e, *function, args)?,
            Expression::Intrinsic { fun, args } => {
                let call = Call {
                    fun: *fun,
                    args,
                    expr: e,
                    span,
                };
                self.intrinsic(ctx, call)?
            }
            Expression::Assign { target, value } => {
                self.check_assign_value(ctx, e)?;
                let store = Store {
                    target: *target,
                    value: *value,
                };
                let text = self.store(ctx, store)?;
                format!("({text})")
            }
            Expression::IncDec { op, target } => {
                self.check_reference(ctx, *target, "an increment or decrement")?;
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

    /// `e` as an assignable place.
    fn place(&self, ctx: Ctx<'_, '_, Self>, e: Handle<Expression>) -> Result<String, Self> {
        let exprs = ctx.exprs;
        match &exprs[e] {
            Expression::Member { base, index } => {
                let b = self.place(ctx, *base)?;
                Ok(cat!(b, ".", self.member_name(ctx, *base, *index)?))
            }
            Expression::Index { base, index } => {
                self.check_index_place(ctx, e)?;
                let b = self.place(ctx, *base)?;
                let i = self.expr(ctx, *index)?;
                Ok(format!("{b}[{i}]"))
            }
            Expression::Swizzle { base, components } => {
                let b = self.place(ctx, *base)?;
                Ok(self.swizzle_place(ctx, *base, b, components))
            }
            Expression::Global(g) => self.global_place(*g),
            _ => self.expr(ctx, e),
        }
    }

    /// The name of member `index` of the struct `base` is.
    fn member_name(
        &self,
        ctx: &FnCtx<'_, Self::FnState>,
        base: Handle<Expression>,
        index: u32,
    ) -> Result<String, Self> {
        let span = ctx.span(base);
        let Some(ty) = ctx.ty(base) else {
            return not_legalized("a member of an untyped value", span);
        };
        let st = self.struct_type_of(ty);
        match self
            .member_names(st)
            .and_then(|names| names.get(index as usize))
        {
            Some(name) => Ok(name.clone()),
            None => not_legalized("a member of a value that is not a struct", span),
        }
    }

    /// The struct behind a struct or buffer-block type.
    fn struct_type_of(&self, ty: Handle<ir::Type>) -> Handle<ir::Type> {
        match self.module().types[ty].inner {
            TypeInner::ConstantBuffer { inner } | TypeInner::TextureBuffer { inner } => inner,
            _ => ty,
        }
    }

    /// The spelling of `e`'s type.
    fn spell_of(
        &self,
        ctx: &FnCtx<'_, Self::FnState>,
        e: Handle<Expression>,
    ) -> Result<String, Self> {
        match ctx.ty(e) {
            Some(ty) => self.spell(ty, ctx.span(e)),
            None => not_legalized("an untyped value", ctx.span(e)),
        }
    }

    /// A literal of type `ty` (`int` where untyped).
    fn literal(
        &self,
        lit: Literal,
        ty: Option<Handle<ir::Type>>,
        span: Span,
    ) -> Result<String, Self> {
        let scalar = ty.and_then(|t| self.module().types[t].inner.scalar());
        let width = scalar.map_or(4, |s| s.width);
        Ok(match lit {
            Literal::Bool(b) => b.to_string(),
            Literal::Int(i) => match width {
                8 => cat!(i.to_string(), Self::LONG_SUFFIX),
                4 if i == i32::MIN as i64 => "(-2147483647 - 1)".into(),
                4 => i.to_string(),
                _ => format!(
                    "{}({i})",
                    self.scalar(scalar.unwrap_or(ir::Scalar::I32), span)?
                ),
            },
            Literal::Uint(u) => match width {
                8 => cat!(u.to_string(), "u", Self::LONG_SUFFIX),
                4 => format!("{u}u"),
                _ => format!(
                    "{}({u})",
                    self.scalar(scalar.unwrap_or(ir::Scalar::U32), span)?
                ),
            },
            Literal::Float(f) => self.float_literal(f, width, span)?,
        })
    }

    /// A binary operation: C's operators, but for the vector logical
    /// operators (component-wise `&`/`|`) and a float `%`.
    fn binary(
        &self,
        ctx: Ctx<'_, '_, Self>,
        op: ir::BinaryOp,
        left: Handle<Expression>,
        right: Handle<Expression>,
        span: Span,
    ) -> Result<String, Self> {
        let types = &self.module().types;
        let kind = |e: Handle<Expression>| ctx.ty(e).map(|t| &types[t].inner);
        let (lk, rk) = (kind(left), kind(right));
        let is_matrix = |k: Option<&TypeInner>| matches!(k, Some(TypeInner::Matrix { .. }));
        let is_vector = |k: Option<&TypeInner>| matches!(k, Some(TypeInner::Vector { .. }));
        let float = lk
            .and_then(|k| k.scalar())
            .is_some_and(|s| s.kind == ScalarKind::Float);
        let (l_matrix, r_matrix) = (is_matrix(lk), is_matrix(rk));
        let vector = is_vector(lk) || is_vector(rk);
        let l = self.expr(ctx, left)?;
        let r = self.expr(ctx, right)?;
        use ir::BinaryOp as B;
        if Self::LINEAR_MATRIX_PRODUCT
            && l_matrix
            && r_matrix
            && matches!(op, B::Multiply | B::Divide | B::Modulo)
        {
            // HLSL's are component-wise; the target's `*` is the matrix
            // product.
            return unsupported("a component-wise product or quotient of matrices", span);
        }
        if (l_matrix || r_matrix) && (op.is_comparison() || op == B::Modulo) {
            return unsupported("a comparison or `%` of matrices", span);
        }
        if matches!(op, B::LogicalAnd | B::LogicalOr) && vector {
            let f = if op == B::LogicalAnd { "&" } else { "|" };
            return Ok(format!("({l} {f} {r})"));
        }
        if op == B::Modulo && float {
            return Ok(format!("{}({l}, {r})", Self::FMOD));
        }
        Ok(cat!("(", l, " ", op.symbol(), " ", r, ")"))
    }

    /// A conversion `e` of `inner` to `e`'s type.
    fn convert(
        &self,
        ctx: Ctx<'_, '_, Self>,
        e: Handle<Expression>,
        inner: Handle<Expression>,
    ) -> Result<String, Self> {
        let span = ctx.span(e);
        let module = self.module();
        let (Some(to), Some(from)) = (ctx.ty(e), ctx.ty(inner)) else {
            return not_legalized("a conversion of an untyped value", span);
        };
        if let (Expression::Literal(lit), TypeInner::Scalar(s)) =
            (&ctx.exprs[inner], &module.types[to].inner)
        {
            // A converted literal prints as a literal of the target type.
            return self.literal(convert_literal(*lit, s.kind), Some(to), span);
        }
        let x = self.expr(ctx, inner)?;
        if to == from {
            return Ok(x);
        }
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
                    format!("{}({})", spelled?, self.leading(&x, *b))
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
                    let scalar = module.types[to].inner.scalar().unwrap_or(ir::Scalar::F32);
                    let row = self.vector(scalar, *c2, span)?;
                    let rows: Vec<String> = (0..*r2)
                        .map(|i| format!("{row}({})", self.leading(&format!("{x}[{i}]"), *c2)))
                        .collect();
                    format!("{}({})", spelled?, rows.join(", "))
                } else {
                    return unsupported("this matrix conversion", span);
                }
            }
            (TypeInner::Scalar(_), TypeInner::Matrix { rows, columns, .. })
                if is_pure(ctx.exprs, inner) =>
            {
                let scalar = module.types[to].inner.scalar().unwrap_or(ir::Scalar::F32);
                let one = format!("{}({x})", self.scalar(scalar, span)?);
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

    /// A construction `e` of its type from `components`.
    fn construct(
        &self,
        ctx: Ctx<'_, '_, Self>,
        e: Handle<Expression>,
        components: &[Handle<Expression>],
    ) -> Result<String, Self> {
        let span = ctx.span(e);
        let Some(ty) = ctx.ty(e) else {
            return not_legalized("an untyped construction", span);
        };
        let mut parts = Vec::new();
        for c in components {
            parts.push(self.expr(ctx, *c)?);
        }
        let spelled = self.spell(ty, span)?;
        let count_ok = match &self.module().types[ty].inner {
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
        self.construct_value(ctx, e, ty, components, spelled, parts)
    }

    /// A call of `function`: the source's arguments (`out`/`inout` ones
    /// as places), then the globals it reaches.
    fn call(
        &self,
        ctx: Ctx<'_, '_, Self>,
        e: Handle<Expression>,
        function: Handle<ir::Function>,
        args: &[Handle<Expression>],
    ) -> Result<String, Self> {
        let span = ctx.span(e);
        let Some(callee) = self.module().functions.try_get(function) else {
            return not_legalized("a call of a function the module does not define", span);
        };
        let mut parts = Vec::new();
        // Only the call a statement is made of copies its arguments: one
        // nested in an expression has no place for the copies out.
        let mut copies = ctx.copies.take();
        for (i, a) in args.iter().enumerate() {
            parts.push(match callee.params.get(i) {
                Some(p) if p.direction != ir::ParamDirection::In => {
                    match self.out_argument(ctx, p, *a, &mut copies)? {
                        Some(text) => text,
                        None => {
                            self.check_out_argument(ctx, *a)?;
                            self.place(ctx, *a)?
                        }
                    }
                }
                _ => self.expr(ctx, *a)?,
            });
        }
        ctx.copies = copies;
        parts.extend(self.threaded_args(ctx, e)?);
        Ok(format!(
            "{}({})",
            self.function_name(function),
            parts.join(", ")
        ))
    }

    /// Whether `e` is a call with an `out`/`inout` argument the target
    /// passes through a temporary ([`Dialect::through_temporary`]).
    fn needs_arg_copies(&self, ctx: &FnCtx<'_, Self::FnState>, e: Handle<Expression>) -> bool {
        let Expression::Call { function, args } = &ctx.exprs[e] else {
            return false;
        };
        let Some(callee) = self.module().functions.try_get(*function) else {
            return false;
        };
        args.iter()
            .zip(&callee.params)
            .any(|(a, p)| p.direction != ir::ParamDirection::In && self.through_temporary(ctx, *a))
    }

    /// The call `e` with its `out`/`inout` arguments that go through
    /// temporaries replaced by them, and those temporaries.
    fn with_arg_copies(
        &self,
        ctx: Ctx<'_, '_, Self>,
        e: Handle<Expression>,
    ) -> Result<(String, Vec<ArgCopy>), Self> {
        ctx.copies = Some(Vec::new());
        let text = self.expr(ctx, e);
        let copies = ctx.copies.take().unwrap_or_default();
        Ok((text?, copies))
    }
}

impl<D: Intrinsics> Exprs for D {}
