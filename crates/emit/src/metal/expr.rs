//! Statements and expressions in MSL: C++ syntax, so most IR prints as it
//! reads; the differences are what the writer spells: `fmod` for a float
//! `%`, `select` for a vector `?:`, `discard_fragment()`, texture reads
//! and writes as `read`/`write` methods, reads of the `[[stage_in]]`
//! struct, the threaded globals a call passes on, and `transpose` around
//! matrices stored transposed (see `writer.rs`).

use legalis_ir::{FastHashMap, FastHashSet};
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
    /// The index in the writer's `entries` of the entry point whose
    /// function this is.
    pub entry: Option<usize>,
    pub params: &'a [ir::FunctionParam],
    pub param_names: Vec<String>,
    pub local_names: FastHashMap<Handle<ir::LocalVariable>, String>,
    pub locals: Option<&'a ir::Arena<ir::LocalVariable>>,
    taken: FastHashSet<String>,
    /// While the call a statement is made of is printed: the `thread`
    /// temporaries its `out`/`inout` arguments outside thread memory go
    /// through (`None` elsewhere, where such an argument is refused).
    copies: Option<Vec<ArgCopy>>,
}

/// An `out`/`inout` argument MSL cannot bind a `thread` reference to (a
/// `device` or `threadgroup` element, a vector component), passed through a
/// `thread` temporary: copied in before the call (`inout`), out after it.
pub(super) struct ArgCopy {
    temp: String,
    ty: String,
    place: String,
    copy_in: bool,
}

impl<'a> FnCtx<'a> {
    pub fn new(w: &Writer<'a>, f: Handle<ir::Function>) -> Result<Self> {
        let func = &w.module.functions[f];
        let mut taken = w.module_names();
        taken.extend(w.global_names.values().cloned());
        let entry = w.entry_of(f);
        let is_entry = entry.is_some();
        let mut mesh_name = None;
        let members = super::writer::stage_in_members(func);
        let param_names = func
            .params
            .iter()
            .zip(members)
            .map(|(p, member)| {
                if is_entry && matches!(p.io.binding, Some(ir::Binding::Location { .. })) {
                    // A member of the stage-in struct, not a name in scope.
                    member
                } else if is_entry
                    && matches!(w.module.types[p.ty].inner, TypeInner::MeshOutput { .. })
                {
                    // B21: the three mesh outputs are one `metal::mesh`.
                    mesh_name
                        .get_or_insert_with(|| fresh(&mut taken, "mesh_out"))
                        .clone()
                } else {
                    fresh(&mut taken, &p.name)
                }
            })
            .collect();
        if let Some(Some((payload, grid, _))) = entry.map(|k| &w.object_payloads[k]) {
            taken.insert(payload.clone());
            taken.insert(grid.clone());
        }
        let mut local_names = FastHashMap::default();
        for (h, l) in func.locals.iter() {
            if l.is_static {
                return unsupported(
                    format!(
                        "the `static` local `{}` (Metal functions have no static storage)",
                        l.name
                    ),
                    func.locals.span(h),
                );
            }
            local_names.insert(h, fresh(&mut taken, &l.name));
        }
        Ok(FnCtx {
            exprs: &func.expressions,
            is_entry,
            entry,
            params: &func.params,
            param_names,
            local_names,
            locals: Some(&func.locals),
            taken,
            copies: None,
        })
    }

    /// The context of global initializers (no locals or parameters).
    pub fn for_globals(w: &Writer<'a>) -> Self {
        FnCtx {
            exprs: &w.module.global_expressions,
            is_entry: true,
            entry: None,
            params: &[],
            param_names: Vec::new(),
            local_names: FastHashMap::default(),
            locals: None,
            taken: w.module_names(),
            copies: None,
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

/// Whether `e` is made of literals and constructions only.
pub(super) fn is_const(exprs: &ir::ExpressionArena, e: Handle<Expression>) -> bool {
    match &exprs[e] {
        Expression::Literal(_) => true,
        Expression::Construct { components } => components.iter().all(|c| is_const(exprs, *c)),
        Expression::Convert { expr } | Expression::Unary { expr, .. } => is_const(exprs, *expr),
        Expression::Binary { left, right, .. } => is_const(exprs, *left) && is_const(exprs, *right),
        _ => false,
    }
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
                let ty = self.spell(l.ty, span)?;
                let name = ctx.local_names[local].clone();
                let konst = if l.is_const { "const " } else { "" };
                match init {
                    Some(init) if self.needs_arg_copies(ctx, *init) => {
                        let (value, copies) = self.with_arg_copies(ctx, *init)?;
                        writeln!(out, "{p}{ty} {name};").ok();
                        write_with_copies(out, &p, &format!("{name} = {value};"), &copies);
                    }
                    Some(init) => {
                        let value = self.expr(ctx, *init)?;
                        writeln!(out, "{p}{konst}{ty} {name} = {value};").ok();
                    }
                    None => {
                        writeln!(out, "{p}{ty} {name};").ok();
                    }
                }
            }
            Statement::Store { target, value } => {
                if let Some(lines) = self.mesh_store(ctx, *target, *value, span)? {
                    for line in lines {
                        writeln!(out, "{p}{line}").ok();
                    }
                    return Ok(());
                }
                if self.needs_arg_copies(ctx, *value) {
                    let target = self.place(ctx, *target)?;
                    let (value, copies) = self.with_arg_copies(ctx, *value)?;
                    write_with_copies(out, &p, &format!("{target} = {value};"), &copies);
                    return Ok(());
                }
                let text = self.store(ctx, *target, *value)?;
                push!(out, p, text, ";\n");
            }
            Statement::Expr(e) if self.needs_arg_copies(ctx, *e) => {
                let (text, copies) = self.with_arg_copies(ctx, *e)?;
                write_with_copies(out, &p, &format!("{text};"), &copies);
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
                writeln!(out, "{p}discard_fragment();").ok();
            }
            Statement::EmitVertex { .. } | Statement::EndPrimitive { .. } => {
                return unsupported(
                    "geometry-stream statements (Metal has no geometry stage)",
                    span,
                );
            }
            Statement::PatchBarrier => {
                return unsupported("a patch barrier (Metal tessellation comes later)", span);
            }
            Statement::Printf { .. } => {
                return unsupported(
                    "debug `printf` (MSL has no `printf`; Metal 3.2's logging, `os_log`, \
                     needs a log state the host sets up, which Legalis does not write)",
                    span,
                );
            }
        }
        Ok(())
    }

    /// `target = value`, or a texture's `write`, or a store through
    /// `transpose`.
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

    pub(super) fn store(
        &self,
        ctx: &mut FnCtx,
        target: Handle<Expression>,
        value: Handle<Expression>,
    ) -> Result<String> {
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

    /// The struct behind a struct or buffer-block type.
    pub(super) fn struct_type_of(&self, ty: Handle<ir::Type>) -> Handle<ir::Type> {
        match self.module.types[ty].inner {
            TypeInner::ConstantBuffer { inner } | TypeInner::TextureBuffer { inner } => inner,
            _ => ty,
        }
    }

    /// An assignable place, printed without `transpose`; a part of a
    /// transposed matrix is not one.
    /// Whether `e` is a call with an `out`/`inout` argument MSL cannot bind
    /// a `thread` reference to ([`Writer::off_thread`]).
    fn needs_arg_copies(&self, ctx: &FnCtx, e: Handle<Expression>) -> bool {
        let Expression::Call { function, args } = &ctx.exprs[e] else {
            return false;
        };
        let Some(callee) = self.module.functions.try_get(*function) else {
            return false;
        };
        args.iter()
            .zip(&callee.params)
            .any(|(a, p)| p.direction != ir::ParamDirection::In && self.off_thread(ctx, *a))
    }

    /// The call `e` with its off-thread `out`/`inout` arguments replaced by
    /// temporaries, and those temporaries.
    fn with_arg_copies(
        &self,
        ctx: &mut FnCtx,
        e: Handle<Expression>,
    ) -> Result<(String, Vec<ArgCopy>)> {
        ctx.copies = Some(Vec::new());
        let text = self.expr(ctx, e);
        let copies = ctx.copies.take().unwrap_or_default();
        Ok((text?, copies))
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

    pub(super) fn place(&self, ctx: &mut FnCtx, e: Handle<Expression>) -> Result<String> {
        match &ctx.exprs[e] {
            Expression::Member { base, index } => {
                let b = self.place(ctx, *base)?;
                Ok(cat!(b, ".", self.member_name(ctx, *base, *index)?))
            }
            Expression::Index { base, index } => {
                if self.is_transposed_place(ctx, *base) {
                    return unsupported(
                        "a write to part of a column-major matrix in a buffer",
                        ctx.span(e),
                    );
                }
                if self.texture_of(ctx, *base).is_some() {
                    return unsupported(
                        "a texel as an `out` argument or compound target",
                        ctx.span(e),
                    );
                }
                let b = self.place(ctx, *base)?;
                let i = self.expr(ctx, *index)?;
                Ok(format!("{b}[{i}]"))
            }
            Expression::Swizzle { base, components } => {
                let b = self.place(ctx, *base)?;
                let c: String = components
                    .iter()
                    .map(|c| SWIZZLE[*c as usize & 3])
                    .collect();
                Ok(format!("{b}.{c}"))
            }
            Expression::Global(g) => Ok(self.global_ref(*g)),
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

    /// How code names a global.
    fn global_ref(&self, g: Handle<ir::GlobalVariable>) -> String {
        let name = self.global_names.get(&g).cloned().unwrap_or_default();
        match (self.kinds.get(&g), &self.globals_block) {
            (Some(GlobalKind::Plain), Some((_, block, _))) => format!("{block}.{name}"),
            _ => name,
        }
    }

    pub(super) fn expr(&self, ctx: &mut FnCtx, e: Handle<Expression>) -> Result<String> {
        let span = ctx.span(e);
        Ok(match &ctx.exprs[e] {
            Expression::Literal(lit) => self.literal(*lit, ctx.ty(e), span)?,
            Expression::Global(g) => {
                let text = self.global_ref(*g);
                if self.transposed_plain.contains(g) {
                    format!("transpose({text})")
                } else {
                    text
                }
            }
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
                let name = ctx.param_names[i].clone();
                let stage_in = ctx.entry.and_then(|k| self.stage_ins[k].as_ref());
                match (stage_in, &param.io.binding) {
                    (Some((_, stage_in)), Some(ir::Binding::Location { .. })) => {
                        format!("{stage_in}.{name}")
                    }
                    // B21: the `const object_data T*` payload parameter.
                    _ if ctx.is_entry && param.role == ir::ParamRole::Payload => {
                        format!("(*{name})")
                    }
                    _ => name,
                }
            }
            Expression::Member { base, index } => {
                let b = self.expr(ctx, *base)?;
                let text = cat!(b, ".", self.member_name(ctx, *base, *index)?);
                if !self.is_transposed_place(ctx, e) {
                    text
                } else if self.is_array(ctx, e) {
                    return unsupported(
                        "a whole array of column-major matrices in a buffer (its elements can be read)",
                        span,
                    );
                } else {
                    format!("transpose({text})")
                }
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
            Expression::Index { base, index }
                if self.is_transposed_place(ctx, *base) && self.is_array(ctx, *base) =>
            {
                // An element of an array of matrices stored transposed.
                let b = self.place(ctx, *base)?;
                let i = self.expr(ctx, *index)?;
                format!("transpose({b}[{i}])")
            }
            Expression::Index { base, index } => {
                if let Some((tex, ty)) = self.texture_of(ctx, *base) {
                    let coords = self.texel_coords(ctx, ty, *index, span)?;
                    let read = format!("{tex}.read({coords})");
                    return Ok(self.narrow_texel(ty, read, ctx.ty(e)));
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
                } else {
                    let c: String = components
                        .iter()
                        .map(|c| SWIZZLE[*c as usize & 3])
                        .collect();
                    format!("{b}.{c}")
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
                    format!("select({r}, {a}, {c})")
                } else {
                    format!("({c} ? {a} : {r})")
                }
            }
            Expression::Convert { expr } => self.convert(ctx, e, *expr)?,
            Expression::Construct { components } => self.construct(ctx, e, components)?,
            Expression::Call { function, args } => self.call(ctx, *function, args, span)?,
            Expression::Intrinsic { fun, args } => self.intrinsic(ctx, *fun, args, e)?,
            Expression::Assign { target, value } => {
                if self.texture_of_place(ctx, *target) || self.is_transposed_place(ctx, *target) {
                    return unsupported("this assignment used as a value", span);
                }
                let text = self.store(ctx, *target, *value)?;
                format!("({text})")
            }
            Expression::IncDec { op, target } => {
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

    fn is_array(&self, ctx: &FnCtx, e: Handle<Expression>) -> bool {
        ctx.ty(e)
            .is_some_and(|t| matches!(self.module.types[t].inner, TypeInner::Array { .. }))
    }

    fn texture_of_place(&self, ctx: &FnCtx, e: Handle<Expression>) -> bool {
        matches!(&ctx.exprs[e], Expression::Index { base, .. } if self.texture_of(ctx, *base).is_some())
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
                8 => format!("{i}l"),
                4 if i == i32::MIN as i64 => "(-2147483647 - 1)".into(),
                4 => i.to_string(),
                _ => format!(
                    "{}({i})",
                    types::scalar(scalar.unwrap_or(ir::Scalar::I32), span)?
                ),
            },
            Literal::Uint(u) => match width {
                8 => format!("{u}ul"),
                4 => format!("{u}u"),
                _ => format!(
                    "{}({u})",
                    types::scalar(scalar.unwrap_or(ir::Scalar::U32), span)?
                ),
            },
            Literal::Float(f) => {
                let text = float_literal(f);
                match width {
                    2 => format!("half({text})"),
                    8 => return unsupported("`double` (Metal has no 64-bit floats)", span),
                    _ => text,
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
        if is_matrix(&lk) && is_matrix(&rk) && matches!(op, B::Multiply | B::Divide | B::Modulo) {
            // HLSL's are component-wise; MSL's `*` is the matrix product.
            return unsupported("a component-wise product or quotient of matrices", span);
        }
        if (is_matrix(&lk) || is_matrix(&rk)) && (op.is_comparison() || op == B::Modulo) {
            return unsupported("a comparison or `%` of matrices", span);
        }
        if matches!(op, B::LogicalAnd | B::LogicalOr) && (is_vector(&lk) || is_vector(&rk)) {
            let f = if op == B::LogicalAnd { "&" } else { "|" };
            return Ok(format!("({l} {f} {r})"));
        }
        if op == B::Modulo && float {
            return Ok(format!("fmod({l}, {r})"));
        }
        Ok(cat!("(", l, " ", op.symbol(), " ", r, ")"))
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
                    let c: String = SWIZZLE[..*b as usize].iter().collect();
                    format!("{}({x}.{c})", spelled?)
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
                    let c: String = SWIZZLE[..*c2 as usize].iter().collect();
                    let scalar = module.types[to].inner.scalar().unwrap_or(ir::Scalar::F32);
                    let column = format!("{}{c2}", types::scalar(scalar, span)?);
                    let columns: Vec<String> = (0..*r2)
                        .map(|i| format!("{column}({x}[{i}].{c})"))
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
            TypeInner::Struct { .. } | TypeInner::Array { .. } => {
                format!("{spelled}{{{}}}", parts.join(", "))
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
        // Only the call a statement is made of copies its arguments: one
        // nested in an expression has no place for the copies out.
        let mut copies = ctx.copies.take();
        for (i, a) in args.iter().enumerate() {
            let param = callee.params.get(i);
            let by_reference = param.is_some_and(|p| p.direction != ir::ParamDirection::In);
            if by_reference && self.off_thread(ctx, *a) {
                let span = ctx.span(*a);
                let Some(copies) = copies.as_mut() else {
                    return unsupported(
                        "an `out`/`inout` argument in `device` or `threadgroup` memory, or a \
                         vector component, of a call inside an expression (MSL binds only \
                         `thread` references; call the function in a statement of its own)",
                        span,
                    );
                };
                if !is_pure(ctx.exprs, *a) {
                    return unsupported(
                        "an `out`/`inout` argument in `device` or `threadgroup` memory whose \
                         index has side effects (it is copied in and out through a `thread` \
                         temporary)",
                        span,
                    );
                }
                let place = self.place(ctx, *a)?;
                let ty = match ctx.ty(*a) {
                    Some(t) => self.spell(t, span)?,
                    None => return unsupported("an untyped `out` argument", span),
                };
                let temp = fresh(&mut ctx.taken, "arg");
                let copy_in = param.is_some_and(|p| p.direction == ir::ParamDirection::InOut);
                parts.push(temp.clone());
                copies.push(ArgCopy {
                    temp,
                    ty,
                    place,
                    copy_in,
                });
                continue;
            }
            parts.push(if by_reference {
                self.place(ctx, *a)?
            } else {
                self.expr(ctx, *a)?
            });
        }
        ctx.copies = copies;
        let mut block = false;
        for g in self.threaded.get(&function).into_iter().flatten() {
            match self.kinds[g] {
                GlobalKind::Constant => {}
                GlobalKind::Plain => block = true,
                _ => parts.push(self.global_names[g].clone()),
            }
        }
        if let (true, Some((_, name, _))) = (block, &self.globals_block) {
            parts.push(name.clone());
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

/// A float literal MSL reads as a `float`: always with a point or an
/// exponent; infinities and NaN by name.
pub(super) fn float_literal(f: f64) -> String {
    if f.is_nan() {
        return "NAN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 {
            "INFINITY".into()
        } else {
            "(-INFINITY)".into()
        };
    }
    let text = crate::float_text::debug_f64(f);
    if text.contains(['.', 'e', 'E']) {
        text
    } else {
        format!("{text}.0")
    }
}
