//! Statements and expressions in MSL: the C-family printers
//! (`cfamily/stmt.rs`, `cfamily/expr.rs`) over the MSL dialect here. What
//! MSL spells its own way: `fmod` for a float `%`, `select` for a vector
//! `?:`, `l`-suffixed 64-bit literals and `half(...)` ones, swizzles as
//! letters, `discard_fragment()`, texture reads and writes as
//! `read`/`write` methods, reads of the `[[stage_in]]` struct, the
//! threaded globals a call passes on, `transpose` around matrices stored
//! transposed (see `writer.rs`), whole-element stores into a mesh output
//! (B21), and `out` arguments MSL cannot bind a `thread` reference to,
//! passed through temporaries.

use legalis_ir as ir;
use legalis_ir::{Expression, Handle, Span, Statement, TypeInner};

use super::Error;
use super::types::{self, Result, unsupported};
use super::writer::{GlobalKind, Writer};
use crate::cfamily::expr::{SWIZZLE, is_pure, swizzle_letters};
use crate::cfamily::names::Names;
use crate::cfamily::prelude::*;
use crate::cfamily::reach;
use crate::cfamily::{self, ArgCopy, Lines, Store};

/// What a function's body is printed against; its state is the index in
/// the writer's `entries` of the entry point whose function this is.
pub(super) type FnCtx<'a> = cfamily::FnCtx<'a, Option<usize>>;

impl<'a> Writer<'a> {
    /// The context of function `f`'s body.
    pub(super) fn fn_ctx(&self, f: Handle<ir::Function>) -> Result<FnCtx<'a>> {
        let func = &self.module.functions[f];
        let mut taken = self.scope();
        let entry = self.entry_of(f);
        let is_entry = entry.is_some();
        let mut mesh_name = None;
        let members = super::io::stage_in_members(func);
        let param_names = func
            .params
            .iter()
            .zip(members)
            .map(|(p, member)| {
                if is_entry && matches!(p.io.binding, Some(ir::Binding::Location { .. })) {
                    // A member of the stage-in struct, not a name in scope.
                    member
                } else if is_entry
                    && matches!(self.module.types[p.ty].inner, TypeInner::MeshOutput { .. })
                {
                    // B21: the three mesh outputs are one `metal::mesh`.
                    mesh_name
                        .get_or_insert_with(|| taken.call("mesh_out"))
                        .clone()
                } else {
                    taken.call(&p.name)
                }
            })
            .collect();
        if let Some(Some((payload, grid, _))) = entry.map(|k| &self.object_payloads[k]) {
            taken.take(payload);
            taken.take(grid);
        }
        self.function_ctx(func, is_entry, param_names, taken, entry)
    }

    /// B21: a whole-element store into a mesh output, as a call on the
    /// `metal::mesh` parameter: `set_vertex`, `set_primitive`, or one
    /// `set_index` per index of the primitive.
    fn mesh_store(
        &self,
        ctx: &mut FnCtx,
        target: Handle<Expression>,
        value: Handle<Expression>,
        span: Span,
    ) -> Result<Option<Vec<String>>> {
        let Expression::Index { base, index } = &ctx.exprs[target] else {
            return Ok(None);
        };
        let Expression::Param(k) = ctx.exprs[*base] else {
            return Ok(None);
        };
        let Some(param) = ctx.params.get(k as usize) else {
            return Ok(None);
        };
        let TypeInner::MeshOutput { kind, element, .. } = self.module.types[param.ty].inner else {
            return Ok(None);
        };
        if !ctx.is_entry {
            return unsupported("a mesh output outside the mesh function", span);
        }
        let mesh = ctx.param_names[k as usize].clone();
        let i = self.expr(ctx, *index)?;
        let v = self.expr(ctx, value)?;
        Ok(Some(match kind {
            ir::MeshOutputKind::Vertices => vec![format!("{mesh}.set_vertex({i}, {v});")],
            ir::MeshOutputKind::Primitives => vec![format!("{mesh}.set_primitive({i}, {v});")],
            ir::MeshOutputKind::Indices => {
                let n = match self.module.types[element].inner {
                    TypeInner::Vector { size, .. } => size as usize,
                    _ => 1,
                };
                let index_name = ctx.temp("index");
                let value_name = ctx.temp("indices");
                let index_ty = match ctx.ty(*index) {
                    Some(t) => self.spell(t, span)?,
                    None => "uint".into(),
                };
                let mut lines = vec![
                    "{".to_string(),
                    format!("    {index_ty} {index_name} = {i};"),
                    format!("    {} {value_name} = {v};", self.spell(element, span)?),
                ];
                for (c, letter) in SWIZZLE.iter().enumerate().take(n) {
                    let component = if n == 1 {
                        value_name.clone()
                    } else {
                        format!("{value_name}.{letter}")
                    };
                    lines.push(format!(
                        "    {mesh}.set_index({index_name} * {n}u + {c}u, {component});"
                    ));
                }
                lines.push("}".into());
                lines
            }
        }))
    }

    /// Whether `e` is a matrix stored transposed.
    fn is_transposed_place(&self, ctx: &FnCtx, e: Handle<Expression>) -> bool {
        match &ctx.exprs[e] {
            Expression::Member { base, index } => ctx
                .ty(*base)
                .map(|t| self.struct_type_of(t))
                .is_some_and(|st| self.transposed.contains(&(st, *index))),
            Expression::Global(g) => self.transposed_plain.contains(g),
            _ => false,
        }
    }

    fn is_array(&self, ctx: &FnCtx, e: Handle<Expression>) -> bool {
        ctx.ty(e)
            .is_some_and(|t| matches!(self.module.types[t].inner, TypeInner::Array { .. }))
    }

    fn texture_of_place(&self, ctx: &FnCtx, e: Handle<Expression>) -> bool {
        matches!(&ctx.exprs[e], Expression::Index { base, .. } if self.texture_of(ctx, *base).is_some())
    }

    /// Whether the place `e` is one a `thread T&` parameter cannot bind: in
    /// `device` or `threadgroup` memory, or a component of a vector (a
    /// swizzle, an index into a vector).
    pub(super) fn off_thread(&self, ctx: &FnCtx, e: Handle<Expression>) -> bool {
        match &ctx.exprs[e] {
            Expression::Member { base, .. } => self.off_thread(ctx, *base),
            Expression::Index { base, .. } => {
                let vector = ctx.ty(*base).is_some_and(|t| {
                    matches!(self.module.types[t].inner, TypeInner::Vector { .. })
                });
                vector || self.off_thread(ctx, *base)
            }
            Expression::Swizzle { .. } => true,
            Expression::Global(g) => !matches!(
                self.kinds.get(g),
                Some(GlobalKind::Private | GlobalKind::Constant | GlobalKind::Plain) | None
            ),
            _ => false,
        }
    }

    /// How code names a global.
    fn global_ref(&self, g: Handle<ir::GlobalVariable>) -> String {
        let block = self
            .globals_block
            .as_ref()
            .map(|(_, name, _)| name.as_str());
        reach::global_ref(&self.kinds, &self.names, g, block)
    }
}

/// Whether `e` is made of literals, and constructions, conversions and
/// operators over them: what a program-scope `constant` holds.
pub(super) fn is_const(exprs: &ir::ExpressionArena, e: Handle<Expression>) -> bool {
    ir::is_constant(exprs, e, false, &|_| false)
}

/// A float literal MSL reads as a `float`: always with a point or an
/// exponent; infinities and NaN by name.
pub(super) fn float_literal(f: f64) -> String {
    cfamily::expr::float_text(f, ["NAN", "INFINITY", "(-INFINITY)"])
}

impl Dialect for Writer<'_> {
    type Error = Error;
    type FnState = Option<usize>;

    const LINEAR_MATRIX_PRODUCT: bool = true;
    const LONG_SUFFIX: &'static str = "l";
    const FMOD: &'static str = "fmod";
    const SELECT: &'static str = "select";
    const ARRAY: &'static str = "array";
    const DISCARD: std::result::Result<&'static str, &'static str> = Ok("discard_fragment();");
    const GEOMETRY_STREAMS: &'static str =
        "geometry-stream statements (Metal has no geometry stage)";
    const PATCH_BARRIER: &'static str = "a patch barrier (Metal tessellation comes later)";
    const NO_STATIC_LOCALS: &'static str = "Metal functions have no static storage";
    const NO_PRINTF: &'static str = "debug `printf` (MSL has no `printf`; Metal 3.2's logging, \
         `os_log`, needs a log state the host sets up, which Legalis does not write)";

    fn module(&self) -> &ir::Module {
        self.module
    }

    fn scalar(&self, s: ir::Scalar, span: Span) -> Result<&'static str> {
        types::scalar(s, span)
    }

    fn vector(&self, s: ir::Scalar, size: u8, span: Span) -> Result<String> {
        Ok(match size {
            // `float4` without the formatting machinery: the type of most
            // varyings, spelled for every use.
            2..=4 => cat!(
                types::scalar(s, span)?,
                ["2", "3", "4"][usize::from(size - 2)]
            ),
            _ => format!("{}{size}", types::scalar(s, span)?),
        })
    }

    fn matrix_stem(&self, ty: Handle<ir::Type>, s: ir::Scalar, span: Span) -> Result<String> {
        if s.kind != ir::ScalarKind::Float {
            return unsupported(
                format!(
                    "the matrix type `{}` (Metal matrices hold floats)",
                    ir::print::type_name(self.module, ty)
                ),
                span,
            );
        }
        Ok(types::scalar(s, span)?.into())
    }

    fn other_type(&self, ty: Handle<ir::Type>, span: Span) -> Result<Option<String>> {
        let inner = &self.module.types[ty].inner;
        types::other(&|t| self.spell(t, span), inner, span)
    }

    fn names(&self) -> &Names {
        &self.names
    }

    fn float_literal(&self, f: f64, width: u8, span: Span) -> Result<String> {
        let text = float_literal(f);
        match width {
            2 => Ok(format!("half({text})")),
            8 => unsupported("`double` (Metal has no 64-bit floats)", span),
            _ => Ok(text),
        }
    }

    fn swizzle(&self, base: String, components: &[u8]) -> String {
        format!("{base}.{}", swizzle_letters(components))
    }

    fn swizzle_place(
        &self,
        _ctx: &FnCtx,
        _base: Handle<Expression>,
        text: String,
        components: &[u8],
    ) -> String {
        format!("{text}.{}", swizzle_letters(components))
    }

    fn leading(&self, text: &str, count: u8) -> String {
        let c: String = SWIZZLE[..count as usize].iter().collect();
        format!("{text}.{c}")
    }

    fn global(&self, g: Handle<ir::GlobalVariable>) -> Result<String> {
        let text = self.global_ref(g);
        Ok(if self.transposed_plain.contains(&g) {
            format!("transpose({text})")
        } else {
            text
        })
    }

    fn global_place(&self, g: Handle<ir::GlobalVariable>) -> Result<String> {
        Ok(self.global_ref(g))
    }

    fn param(&self, ctx: &FnCtx, index: usize, param: &ir::FunctionParam) -> String {
        let name = ctx.param_names[index].clone();
        let stage_in = ctx.state.and_then(|k| self.stage_ins[k].as_ref());
        match (stage_in, &param.io.binding) {
            (Some((_, stage_in)), Some(ir::Binding::Location { .. })) => {
                format!("{stage_in}.{name}")
            }
            // B21: the `const object_data T*` payload parameter.
            _ if ctx.is_entry && param.role == ir::ParamRole::Payload => format!("(*{name})"),
            _ => name,
        }
    }

    fn member(&self, ctx: &FnCtx, e: Handle<Expression>, text: String) -> Result<String> {
        if !self.is_transposed_place(ctx, e) {
            Ok(text)
        } else if self.is_array(ctx, e) {
            unsupported(
                "a whole array of column-major matrices in a buffer (its elements can be read)",
                ctx.span(e),
            )
        } else {
            Ok(format!("transpose({text})"))
        }
    }

    fn index(&self, ctx: &mut FnCtx, e: Handle<Expression>) -> Result<Option<String>> {
        let Expression::Index { base, index } = ctx.exprs[e] else {
            return Ok(None);
        };
        if self.is_transposed_place(ctx, base) && self.is_array(ctx, base) {
            // An element of an array of matrices stored transposed.
            let b = self.place(ctx, base)?;
            let i = self.expr(ctx, index)?;
            return Ok(Some(format!("transpose({b}[{i}])")));
        }
        if let Some((tex, ty)) = self.texture_of(ctx, base) {
            let coords = self.texel_coords(ctx, ty, index, ctx.span(e))?;
            let read = format!("{tex}.read({coords})");
            return Ok(Some(self.narrow_texel(ty, read, ctx.ty(e))));
        }
        Ok(None)
    }

    fn check_index_place(&self, ctx: &FnCtx, e: Handle<Expression>) -> Result<()> {
        let Expression::Index { base, .. } = ctx.exprs[e] else {
            return Ok(());
        };
        if self.is_transposed_place(ctx, base) {
            return unsupported(
                "a write to part of a column-major matrix in a buffer",
                ctx.span(e),
            );
        }
        if self.texture_of(ctx, base).is_some() {
            return unsupported(
                "a texel as an `out` argument or compound target",
                ctx.span(e),
            );
        }
        Ok(())
    }

    fn check_assign_value(&self, ctx: &FnCtx, e: Handle<Expression>) -> Result<()> {
        let Expression::Assign { target, .. } = ctx.exprs[e] else {
            return Ok(());
        };
        if self.texture_of_place(ctx, target) || self.is_transposed_place(ctx, target) {
            return unsupported("this assignment used as a value", ctx.span(e));
        }
        Ok(())
    }

    fn out_argument(
        &self,
        ctx: &mut FnCtx,
        param: &ir::FunctionParam,
        arg: Handle<Expression>,
        copies: &mut Option<Vec<ArgCopy>>,
    ) -> Result<Option<String>> {
        if !self.off_thread(ctx, arg) {
            return Ok(None);
        }
        let span = ctx.span(arg);
        let Some(copies) = copies.as_mut() else {
            return unsupported(
                "an `out`/`inout` argument in `device` or `threadgroup` memory, or a \
                 vector component, of a call inside an expression (MSL binds only \
                 `thread` references; call the function in a statement of its own)",
                span,
            );
        };
        if !is_pure(ctx.exprs, arg) {
            return unsupported(
                "an `out`/`inout` argument in `device` or `threadgroup` memory whose \
                 index has side effects (it is copied in and out through a `thread` \
                 temporary)",
                span,
            );
        }
        let place = self.place(ctx, arg)?;
        let ty = match ctx.ty(arg) {
            Some(t) => self.spell(t, span)?,
            None => return unsupported("an untyped `out` argument", span),
        };
        let temp = ctx.temp("arg");
        copies.push(ArgCopy {
            temp: temp.clone(),
            ty,
            place,
            copy_in: param.direction == ir::ParamDirection::InOut,
        });
        Ok(Some(temp))
    }

    fn through_temporary(&self, ctx: &FnCtx, arg: Handle<Expression>) -> bool {
        self.off_thread(ctx, arg)
    }

    fn threaded_args(&self, ctx: &mut FnCtx, call: Handle<Expression>) -> Result<Vec<String>> {
        let Expression::Call { function, .. } = ctx.exprs[call] else {
            return Ok(Vec::new());
        };
        let block = self
            .globals_block
            .as_ref()
            .map(|(_, name, _)| name.as_str());
        Ok(reach::threaded_arguments(
            &self.threaded,
            &self.kinds,
            &self.names,
            function,
            block,
            "",
        ))
    }

    /// `target = value`, or a texture's `write`, or a store through
    /// `transpose`.
    fn store(&self, ctx: &mut FnCtx, store: Store) -> Result<String> {
        let Store { target, value } = store;
        if let Expression::Index { base, index } = &ctx.exprs[target]
            && let Some((tex, ty)) = self.texture_of(ctx, *base)
        {
            let v = self.expr(ctx, value)?;
            let v = self.widen_texel(ctx, value, v)?;
            let coords = self.texel_coords(ctx, ty, *index, ctx.span(target))?;
            // A texture this thread also reads: the write is visible to
            // its later reads only after a fence.
            let fence = match ctx.exprs[*base] {
                Expression::Global(g) if self.needs_fence(g) => format!(", {tex}.fence()"),
                _ => String::new(),
            };
            return Ok(format!("{tex}.write({v}, {coords}){fence}"));
        }
        let place = self.place(ctx, target)?;
        let v = self.expr(ctx, value)?;
        if self.is_transposed_place(ctx, target) {
            if self.is_array(ctx, target) {
                return unsupported(
                    "a write of a whole array of column-major matrices in a buffer",
                    ctx.span(target),
                );
            }
            return Ok(format!("{place} = transpose({v})"));
        }
        Ok(cat!(place, " = ", v))
    }

    fn own_lines(&self, ctx: &mut FnCtx, stmt: &Statement, span: Span) -> Result<Option<Lines>> {
        match stmt {
            Statement::Store { target, value } => self.mesh_store(ctx, *target, *value, span),
            _ => Ok(None),
        }
    }
}
