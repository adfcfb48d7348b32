//! Statements and expressions in CUDA C++: the C-family printers
//! (`cfamily/stmt.rs`, `cfamily/expr.rs`) over the CUDA dialect here. What
//! CUDA spells its own way, mostly through the prelude: `lg::fmod` for a
//! float `%`, `lg::select` for a vector `?:`, swizzles as
//! `lg::swizzle<...>` reads and `lg::swizzle_ref<...>` writes, mixed
//! vector constructions as `lg::make<T, N>`, `f`-suffixed float literals,
//! column-major matrices the host shares read through `lg::rows` and
//! stored through `lg::columns`, `static const` values nvcc cannot
//! initialize written where they are used, OptiX's one hit object,
//! `printf`, and the threaded globals a call passes on (see `writer.rs`).

use legalis_ir as ir;
use legalis_ir::{Expression, Handle, Span, Statement, TypeInner};

use super::Error;
use super::types::{self, Result, unsupported};
use super::writer::{GlobalKind, Writer};
use crate::cfamily::expr::SWIZZLE;
use crate::cfamily::names::Names;
use crate::cfamily::prelude::*;
use crate::cfamily::reach;
use crate::cfamily::{self, Lines, Store};

/// What a function's body is printed against.
pub(super) type FnCtx<'a> = cfamily::FnCtx<'a, ()>;

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
    cfamily::expr::float_text(f, ["(0.0 / 0.0)", "(1.0 / 0.0)", "(-1.0 / 0.0)"])
}

impl<'a> Writer<'a> {
    /// The context of function `f`'s body.
    pub(super) fn fn_ctx(&self, f: Handle<ir::Function>) -> Result<FnCtx<'a>> {
        let func = &self.module.functions[f];
        let mut taken = self.scope();
        let param_names = func.params.iter().map(|p| taken.call(&p.name)).collect();
        let is_entry = f == self.entry.function;
        self.function_ctx(func, is_entry, param_names, taken, ())
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
                Expression::Global(g) if self.kinds.get(g) == Some(&GlobalKind::Resource(())) => {
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
                let mut ctx = self.globals_ctx();
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
        let block = self.globals_block.as_ref().map(|(_, name)| name.as_str());
        reach::global_ref(&self.kinds, &self.names, g, block)
    }

    fn is_hit_object(&self, ty: Handle<ir::Type>) -> bool {
        matches!(self.module.types[ty].inner, TypeInner::HitObject)
    }
}

impl Dialect for Writer<'_> {
    type Error = Error;
    type FnState = ();

    const LINEAR_MATRIX_PRODUCT: bool = false;
    const LONG_SUFFIX: &'static str = "ll";
    const FMOD: &'static str = "lg::fmod";
    const SELECT: &'static str = "lg::select";
    const ARRAY: &'static str = "lg::array";
    const DISCARD: std::result::Result<&'static str, &'static str> =
        Err("`discard` (CUDA has no fragment stage)");
    const GEOMETRY_STREAMS: &'static str =
        "geometry-stream statements (CUDA has no geometry stage)";
    const NO_STATIC_LOCALS: &'static str = "not yet in CUDA output";
    const PATCH_BARRIER: &'static str = "a patch barrier (CUDA has no tessellation stages)";

    fn names(&self) -> &Names {
        &self.names
    }

    fn module(&self) -> &ir::Module {
        self.module
    }

    fn vector(&self, s: ir::Scalar, size: u8, span: Span) -> Result<String> {
        types::vector(s, size, span)
    }

    fn scalar(&self, s: ir::Scalar, span: Span) -> Result<&'static str> {
        types::scalar(s, span)
    }

    fn matrix_stem(&self, ty: Handle<ir::Type>, s: ir::Scalar, span: Span) -> Result<String> {
        let stem = types::stem(s, span)?;
        if !matches!(stem, "float" | "double" | "half" | "int" | "uint" | "bool") {
            let name = ir::print::type_name(self.module, ty);
            return unsupported(format!("the matrix type `{name}`"), span);
        }
        Ok(cat!("lg::", stem))
    }

    fn other_type(&self, ty: Handle<ir::Type>, span: Span) -> Result<Option<String>> {
        types::other(self.module, ty, span)
    }

    fn float_literal(&self, f: f64, width: u8, _span: Span) -> Result<String> {
        let text = float_literal(f);
        let single = if text.starts_with('(') {
            format!("float{text}")
        } else {
            format!("{text}f")
        };
        Ok(match width {
            2 => format!("lg::half({single})"),
            8 => text,
            _ => single,
        })
    }

    fn swizzle(&self, base: String, components: &[u8]) -> String {
        if let [c] = components {
            format!("{base}.{}", SWIZZLE[*c as usize & 3])
        } else {
            format!("lg::swizzle<{}>({base})", indices(components))
        }
    }

    fn swizzle_place(
        &self,
        ctx: &FnCtx,
        base: Handle<Expression>,
        text: String,
        components: &[u8],
    ) -> String {
        if let [c] = components {
            if self.column_row(ctx, base) {
                return format!("{text}[{}]", *c & 3);
            }
            return format!("{text}.{}", SWIZZLE[*c as usize & 3]);
        }
        format!("lg::swizzle_ref<{}>({text})", indices(components))
    }

    fn leading(&self, text: &str, count: u8) -> String {
        let c: Vec<u8> = (0..count).collect();
        format!("lg::swizzle<{}>({text})", indices(&c))
    }

    fn read(&self, ctx: &mut FnCtx, e: Handle<Expression>) -> Result<Option<String>> {
        if self.stored_columns(ctx, e) {
            return Ok(Some(format!("lg::rows({})", self.place(ctx, e)?)));
        }
        Ok(None)
    }

    fn global(&self, g: Handle<ir::GlobalVariable>) -> Result<String> {
        self.global_value(g)
    }

    fn global_place(&self, g: Handle<ir::GlobalVariable>) -> Result<String> {
        self.global_value(g)
    }

    fn index(&self, ctx: &mut FnCtx, e: Handle<Expression>) -> Result<Option<String>> {
        let Expression::Index { base, index } = ctx.exprs[e] else {
            return Ok(None);
        };
        let span = ctx.span(e);
        self.texel_read(ctx, base, index, span)
    }

    fn check_index_place(&self, ctx: &FnCtx, e: Handle<Expression>) -> Result<()> {
        match ctx.exprs[e] {
            Expression::Index { base, .. } if self.is_texture(ctx, base) => unsupported(
                "a texel of a texture as a reference (read it into a local, change it, store it back)",
                ctx.span(e),
            ),
            _ => Ok(()),
        }
    }

    fn check_assign_value(&self, ctx: &FnCtx, e: Handle<Expression>) -> Result<()> {
        let Expression::Assign { target, .. } = ctx.exprs[e] else {
            return Ok(());
        };
        match ctx.exprs[target] {
            Expression::Index { base, .. } if self.is_texture(ctx, base) => {
                unsupported("an assignment to a texel used as a value", ctx.span(e))
            }
            _ => Ok(()),
        }
    }

    fn check_reference(&self, ctx: &FnCtx, e: Handle<Expression>, what: &str) -> Result<()> {
        self.refuse_column_reference(ctx, e, what)
    }

    fn construct_value(
        &self,
        ctx: &FnCtx,
        e: Handle<Expression>,
        ty: Handle<ir::Type>,
        components: &[Handle<Expression>],
        spelled: String,
        parts: Vec<String>,
    ) -> Result<String> {
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
            TypeInner::Vector { size, scalar } => {
                let all_scalars = components.iter().all(|c| {
                    ctx.ty(*c)
                        .is_some_and(|t| matches!(self.module.types[t].inner, TypeInner::Scalar(_)))
                });
                if all_scalars && components.len() == *size as usize {
                    format!("{spelled}({})", parts.join(", "))
                } else {
                    let s = types::scalar(*scalar, ctx.span(e))?;
                    format!("lg::make<{s}, {size}>({})", parts.join(", "))
                }
            }
            other => cfamily::expr::aggregate(other, &spelled, &parts),
        })
    }

    fn check_out_argument(&self, ctx: &FnCtx, arg: Handle<Expression>) -> Result<()> {
        if matches!(ctx.exprs[arg], Expression::Swizzle { .. }) {
            return unsupported(
                "a swizzle as an `out`/`inout` argument (C++ cannot bind a reference to it)",
                ctx.span(arg),
            );
        }
        self.refuse_column_reference(ctx, arg, "an `out`/`inout` argument")
    }

    fn threaded_args(&self, ctx: &mut FnCtx, call: Handle<Expression>) -> Result<Vec<String>> {
        let Expression::Call { function, .. } = ctx.exprs[call] else {
            return Ok(Vec::new());
        };
        let mut args = self.threaded_arguments(function, "");
        if self.payload_threaded.contains_key(&function) {
            args.push(self.payload_argument(ctx, ctx.span(call))?);
        }
        Ok(args)
    }

    /// `target = value`.
    fn store(&self, ctx: &mut FnCtx, store: Store) -> Result<String> {
        let Store { target, value } = store;
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

    /// A hit object is OptiX's implicit one: its variable is nothing, its
    /// value the OptiX call that makes it.
    fn own_lines(&self, ctx: &mut FnCtx, stmt: &Statement, span: Span) -> Result<Option<Lines>> {
        let init = match stmt {
            Statement::Declare { local, init } => match ctx.locals {
                Some(locals) if self.is_hit_object(locals[*local].ty) => *init,
                _ => return Ok(None),
            },
            Statement::Store { target, value }
                if ctx.ty(*target).is_some_and(|t| self.is_hit_object(t)) =>
            {
                Some(*value)
            }
            _ => return Ok(None),
        };
        self.hit_object_store(ctx, init, span).map(Some)
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
    ) -> Result<Vec<String>> {
        let Ok(conversions) = ir::printf::conversions(format) else {
            return Err(Error::NotLegalized {
                what: "a `printf` format the front end did not check".into(),
                span,
            });
        };
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
                    temps.push(format!("    auto {temp} = {value};"));
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
            return Ok(vec![format!("printf({call});")]);
        }
        let mut lines = vec!["{".to_string()];
        lines.extend(temps);
        lines.push(format!("    printf({call});"));
        lines.push("}".into());
        Ok(lines)
    }
}
