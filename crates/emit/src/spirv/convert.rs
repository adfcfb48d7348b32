//! Operators and conversions with HLSL meaning: element-wise numeric
//! conversions (`OpConvertFToS` ... `OpBitcast`), splats and truncations,
//! constructors and initializer lists, unary and binary operators
//! (component-wise on matrices, truncating `%`, short-circuit `&&`/`||`),
//! `?:`, and the bool/struct conversions between block layouts and values.

use legalis_ir as ir;
use legalis_ir::{BinaryOp, Expression, Handle, Literal, Scalar, ScalarKind, TypeInner};
use spirv::{Op, StorageClass, Word};

use super::expr::Place;
use super::io::plain_ptr;
use super::writer::{Layout, Result, Writer, is_pure, unsupported};

/// The shape of a numeric value in SPIR-V terms: `size` components per
/// vector (0 for a scalar) and `columns` SPIR-V columns (0 if no matrix).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Shape {
    pub scalar: Scalar,
    pub size: u8,
    pub columns: u8,
}

impl Shape {
    fn with(self, scalar: Scalar) -> Shape {
        Shape { scalar, ..self }
    }
}

impl Writer<'_> {
    pub fn shape(&self, ty: Handle<ir::Type>) -> Option<Shape> {
        match *self.inner(ty) {
            TypeInner::Scalar(scalar) => Some(Shape {
                scalar,
                size: 0,
                columns: 0,
            }),
            TypeInner::Vector { size, scalar } => Some(Shape {
                scalar,
                size,
                columns: 0,
            }),
            TypeInner::Matrix {
                rows,
                columns,
                scalar,
            } => Some(Shape {
                scalar,
                size: columns,
                columns: rows,
            }),
            _ => None,
        }
    }

    pub fn shape_ty(&mut self, s: Shape) -> Word {
        self.numeric(s.scalar, s.size, s.columns, Layout::Plain)
    }

    fn shape_of(&self, e: Handle<Expression>) -> Result<Shape> {
        let ty = self.expr_ty(e)?;
        match self.shape(ty) {
            Some(s) => Ok(s),
            None => unsupported("a non-numeric operand here", self.span(e)),
        }
    }

    /// Converts numeric value `v` from shape `from` to shape `to`.
    pub fn convert_num(&mut self, v: Word, from: Shape, to: Shape, span: ir::Span) -> Result<Word> {
        if from == to {
            return Ok(v);
        }
        if to.columns > 0 {
            let col_to = Shape { columns: 0, ..to };
            let mut cols = Vec::new();
            for j in 0..to.columns {
                let col = if from.columns > 0 {
                    let col_from = Shape { columns: 0, ..from };
                    let ty = self.shape_ty(col_from);
                    let c = self.extract(ty, v, &[u32::from(j)])?;
                    self.convert_num(c, col_from, col_to, span)?
                } else if from.size == 0 {
                    self.convert_num(v, from, col_to, span)?
                } else {
                    return unsupported("conversions between matrices and vectors", span);
                };
                cols.push(col);
            }
            let ty = self.shape_ty(to);
            return self.op(Op::CompositeConstruct, ty, &cols);
        }
        if from.columns > 0 {
            return unsupported("conversions between matrices and vectors", span);
        }
        let v = self.convert_elements(v, from, to.scalar)?;
        let from = from.with(to.scalar);
        let ty = self.shape_ty(to);
        match (from.size, to.size) {
            (a, b) if a == b => Ok(v),
            (0, n) => self.op(Op::CompositeConstruct, ty, &vec![v; n as usize]),
            (_, 0) => self.extract(ty, v, &[0]),
            (a, b) if b < a => {
                let mut ops = vec![rspirv::dr::Operand::IdRef(v), rspirv::dr::Operand::IdRef(v)];
                ops.extend((0..u32::from(b)).map(rspirv::dr::Operand::LiteralBit32));
                self.op_with(Op::VectorShuffle, Some(ty), ops)
            }
            _ => unsupported("widening a vector", span),
        }
    }

    /// Converts each component of `v` (shape `from`) to `to`.
    fn convert_elements(&mut self, v: Word, from: Shape, to: Scalar) -> Result<Word> {
        use ScalarKind::{Bool, Float, Sint, Uint};
        let f = from.scalar;
        if f == to {
            return Ok(v);
        }
        let out = from.with(to);
        let ty = self.shape_ty(out);
        let op = match (f.kind, to.kind) {
            (Bool, _) => {
                let one = self.shaped_const(to, from.size, Literal::Int(1));
                let zero = self.shaped_const(to, from.size, Literal::Int(0));
                return self.op(Op::Select, ty, &[v, one, zero]);
            }
            (_, Bool) => {
                let zero = self.shaped_const(f, from.size, Literal::Int(0));
                let op = if f.kind == Float {
                    Op::FUnordNotEqual
                } else {
                    Op::INotEqual
                };
                return self.op(op, ty, &[v, zero]);
            }
            (Float, Float) => Op::FConvert,
            (Float, Sint) => Op::ConvertFToS,
            (Float, Uint) => Op::ConvertFToU,
            (Sint, Float) => Op::ConvertSToF,
            (Uint, Float) => Op::ConvertUToF,
            (_, _) if f.width == to.width => Op::Bitcast,
            (_, _) => {
                // Width first, keeping the source's signedness, then the sign.
                let mid = Scalar {
                    kind: f.kind,
                    width: to.width,
                };
                let mid_ty = self.shape_ty(from.with(mid));
                let op = if f.kind == Sint {
                    Op::SConvert
                } else {
                    Op::UConvert
                };
                let w = self.op(op, mid_ty, &[v])?;
                return self.convert_elements(w, from.with(mid), to);
            }
        };
        self.op(op, ty, &[v])
    }

    pub fn convert_expr(
        &mut self,
        e: Handle<Expression>,
        from: Handle<Expression>,
    ) -> Result<Word> {
        let to_ty = self.expr_ty(e)?;
        let from_ty = self.expr_ty(from)?;
        let v = self.value(from)?;
        if to_ty == from_ty {
            return Ok(v);
        }
        let is_pointer = |w: &Self, t| matches!(w.inner(t), TypeInner::Pointer { .. });
        let opcode = match (is_pointer(self, from_ty), is_pointer(self, to_ty)) {
            (true, true) => Some(Op::Bitcast),
            (false, true) => Some(Op::ConvertUToPtr),
            (true, false) => Some(Op::ConvertPtrToU),
            (false, false) => None,
        };
        if let Some(opcode) = opcode {
            let ty = self.ty(to_ty, Layout::Plain)?;
            return self.op(opcode, ty, &[v]);
        }
        match (self.shape(from_ty), self.shape(to_ty)) {
            (Some(a), Some(b)) => self.convert_num(v, a, b, self.span(e)),
            _ => unsupported("this conversion", self.span(e)),
        }
    }

    /// Plain value of a value loaded from memory in `layout`: bools come
    /// from `uint`s, structs and arrays are rebuilt from their parts.
    pub fn loaded_from_layout(
        &mut self,
        v: Word,
        ty: Handle<ir::Type>,
        layout: Layout,
    ) -> Result<Word> {
        self.relayout(v, ty, layout, true)
    }

    pub fn stored_in_layout(
        &mut self,
        v: Word,
        ty: Handle<ir::Type>,
        layout: Layout,
    ) -> Result<Word> {
        self.relayout(v, ty, layout, false)
    }

    fn relayout(
        &mut self,
        v: Word,
        ty: Handle<ir::Type>,
        layout: Layout,
        loading: bool,
    ) -> Result<Word> {
        if layout == Layout::Plain || !self.needs_relayout(ty) {
            return Ok(v);
        }
        let span = self.module.types.span(ty);
        let parts: Vec<Handle<ir::Type>> = match self.inner(ty).clone() {
            TypeInner::Scalar(_) | TypeInner::Vector { .. } => {
                let Some(s) = self.shape(ty) else {
                    return unsupported("this type in a block", span);
                };
                let stored = s.with(Scalar::U32);
                return if loading {
                    self.convert_num(v, stored, s, span)
                } else {
                    self.convert_num(v, s, stored, span)
                };
            }
            inner if let Some(parts) = inner.parts() => parts,
            _ => return unsupported("loading this type from a block", span),
        };
        let (src, dst) = if loading {
            (layout, Layout::Plain)
        } else {
            (Layout::Plain, layout)
        };
        let mut out = Vec::new();
        for (i, part) in parts.into_iter().enumerate() {
            let part_ty = self.ty(part, src)?;
            let x = self.extract(part_ty, v, &[i as u32])?;
            out.push(self.relayout(x, part, layout, loading)?);
        }
        let ty_id = self.ty(ty, dst)?;
        self.op(Op::CompositeConstruct, ty_id, &out)
    }

    /// Whether a value of `ty` differs in type between a block and a value.
    fn needs_relayout(&self, ty: Handle<ir::Type>) -> bool {
        match self.inner(ty) {
            TypeInner::Array { .. } | TypeInner::Struct { .. } => true,
            inner => inner.scalar().is_some_and(|s| s.kind == ScalarKind::Bool),
        }
    }

    pub fn unary(
        &mut self,
        e: Handle<Expression>,
        op: ir::UnaryOp,
        x: Handle<Expression>,
    ) -> Result<Word> {
        let s = self.shape_of(x)?;
        let v = self.value(x)?;
        let ty = self.shape_ty(s);
        let opcode = match (op, s.scalar.kind) {
            (ir::UnaryOp::Negate, ScalarKind::Float) => Op::FNegate,
            (ir::UnaryOp::Negate, _) => Op::SNegate,
            (ir::UnaryOp::LogicalNot, ScalarKind::Bool) => Op::LogicalNot,
            (ir::UnaryOp::BitwiseNot, ScalarKind::Sint | ScalarKind::Uint) => Op::Not,
            _ => return unsupported("this unary operator on this type", self.span(e)),
        };
        if s.columns > 0 {
            return self.per_column(s, &[v], |w, col_ty, c| w.op(opcode, col_ty, c));
        }
        self.op(opcode, ty, &[v])
    }

    /// Applies `f` to the columns of matrices `args` (shape `s`).
    fn per_column(
        &mut self,
        s: Shape,
        args: &[Word],
        mut f: impl FnMut(&mut Self, Word, &[Word]) -> Result<Word>,
    ) -> Result<Word> {
        let col_ty = self.shape_ty(Shape { columns: 0, ..s });
        let mut cols = Vec::new();
        for j in 0..u32::from(s.columns) {
            let mut parts = Vec::new();
            for &a in args {
                parts.push(self.extract(col_ty, a, &[j])?);
            }
            cols.push(f(self, col_ty, &parts)?);
        }
        let ty = self.shape_ty(s);
        self.op(Op::CompositeConstruct, ty, &cols)
    }

    pub fn binary(
        &mut self,
        e: Handle<Expression>,
        op: BinaryOp,
        left: Handle<Expression>,
        right: Handle<Expression>,
    ) -> Result<Word> {
        let span = self.span(e);
        let (ls, rs) = (self.shape_of(left)?, self.shape_of(right)?);
        if matches!(op, BinaryOp::LogicalAnd | BinaryOp::LogicalOr)
            && ls.size == 0
            && !is_pure(self.fs.exprs, right)
        {
            return self.short_circuit(op, left, right);
        }
        let mut l = self.value(left)?;
        let mut r = self.value(right)?;
        let shift = matches!(op, BinaryOp::ShiftLeft | BinaryOp::ShiftRight);
        // Scalars meet vectors and matrices by splatting.
        let s = if ls.size >= rs.size && ls.columns >= rs.columns {
            ls
        } else {
            rs
        };
        if ls != s && !(shift && ls.size == s.size) {
            l = self.convert_num(l, ls, s.with(ls.scalar), span)?;
        }
        if rs.size != s.size || rs.columns != s.columns {
            r = self.convert_num(r, rs, s.with(rs.scalar), span)?;
        }
        let opcode = binary_opcode(op, s.scalar.kind, span)?;
        let result_ty = self.expr_ty(e)?;
        if s.columns > 0 {
            if !matches!(
                op,
                BinaryOp::Add | BinaryOp::Subtract | BinaryOp::Multiply | BinaryOp::Divide
            ) {
                return unsupported(format!("`{}` on matrices", op.symbol()), span);
            }
            return self.per_column(s, &[l, r], |w, col_ty, c| w.op(opcode, col_ty, c));
        }
        if shift && !matches!(self.fs.exprs[right], Expression::Literal(_)) {
            // HLSL masks the shift count to the operand's width.
            let rs = Shape { size: s.size, ..rs };
            let mask = self.shaped_const(
                rs.scalar,
                rs.size,
                Literal::Int(i64::from(s.scalar.width) * 8 - 1),
            );
            let rty = self.shape_ty(rs);
            r = self.op(Op::BitwiseAnd, rty, &[r, mask])?;
        }
        let ty = self.ty(result_ty, Layout::Plain)?;
        self.op(opcode, ty, &[l, r])
    }

    /// `a && b` / `a || b` evaluating `b` only when needed.
    fn short_circuit(
        &mut self,
        op: BinaryOp,
        left: Handle<Expression>,
        right: Handle<Expression>,
    ) -> Result<Word> {
        let bool_ty = self.bool_type(0);
        let l = self.value(left)?;
        let var = self.function_var(bool_ty, None)?;
        let bool_h = self.expr_ty(left)?;
        let tmp = Place::Mem(plain_ptr(var, bool_h, StorageClass::Function));
        self.store(&tmp, l)?;
        let (rhs, merge) = (self.b.id(), self.b.id());
        self.b
            .selection_merge(merge, spirv::SelectionControl::NONE)?;
        if op == BinaryOp::LogicalAnd {
            self.b.branch_conditional(l, rhs, merge, [])?;
        } else {
            self.b.branch_conditional(l, merge, rhs, [])?;
        }
        self.begin(rhs)?;
        let r = self.value(right)?;
        self.store(&tmp, r)?;
        self.branch_to(merge)?;
        self.begin(merge)?;
        self.op(Op::Load, bool_ty, &[var])
    }

    pub fn select(
        &mut self,
        e: Handle<Expression>,
        condition: Handle<Expression>,
        accept: Handle<Expression>,
        reject: Handle<Expression>,
    ) -> Result<Word> {
        let ty = self.expr_ty(e)?;
        let ty_id = self.ty(ty, Layout::Plain)?;
        let cs = self.shape_of(condition)?;
        let shape = self.shape(ty);
        let pure = is_pure(self.fs.exprs, accept) && is_pure(self.fs.exprs, reject);
        let simple = shape.is_some_and(|s| s.columns == 0);
        if cs.size > 0 || (simple && pure) {
            let mut c = self.value(condition)?;
            let (a, r) = (self.value(accept)?, self.value(reject)?);
            if let Some(s) = shape.filter(|s| s.size > 0 && cs.size == 0) {
                let bvec = self.bool_type(s.size);
                c = self.op(Op::CompositeConstruct, bvec, &vec![c; s.size as usize])?;
            }
            return self.op(Op::Select, ty_id, &[c, a, r]);
        }
        // Composites and side effects: a branch storing into a variable.
        let c = self.value(condition)?;
        let var = self.function_var(ty_id, None)?;
        let tmp = Place::Mem(plain_ptr(var, ty, StorageClass::Function));
        let (yes, no, merge) = (self.b.id(), self.b.id(), self.b.id());
        self.b
            .selection_merge(merge, spirv::SelectionControl::NONE)?;
        self.b.branch_conditional(c, yes, no, [])?;
        for (label, arm) in [(yes, accept), (no, reject)] {
            self.begin(label)?;
            let v = self.value(arm)?;
            self.store(&tmp, v)?;
            self.branch_to(merge)?;
        }
        self.begin(merge)?;
        self.op(Op::Load, ty_id, &[var])
    }

    /// Constructors and initializer lists: components are taken whole when
    /// their type matches, otherwise flattened to scalars and regrouped in
    /// HLSL's order (row by row, which is SPIR-V column by column).
    pub fn construct(
        &mut self,
        e: Handle<Expression>,
        components: &[Handle<Expression>],
    ) -> Result<Word> {
        let span = self.span(e);
        let ty = self.expr_ty(e)?;
        let mut queue = Vec::new();
        for &c in components {
            let cty = self.expr_ty(c)?;
            let v = self.value(c)?;
            queue.push((v, cty));
        }
        queue.reverse();
        let v = self.build(ty, &mut queue, span)?;
        if !queue.is_empty() {
            return unsupported("this initializer list shape", span);
        }
        Ok(v)
    }

    fn build(
        &mut self,
        ty: Handle<ir::Type>,
        queue: &mut Vec<(Word, Handle<ir::Type>)>,
        span: ir::Span,
    ) -> Result<Word> {
        // An empty struct (`Payload p = {};`) takes no element.
        if let TypeInner::Struct { members } = self.inner(ty)
            && members.is_empty()
            && queue.last().is_none_or(|&(_, next_ty)| next_ty != ty)
        {
            let ty_id = self.ty(ty, Layout::Plain)?;
            return self.op(Op::CompositeConstruct, ty_id, &[]);
        }
        let Some(&(next, next_ty)) = queue.last() else {
            return unsupported("an initializer list with too few elements", span);
        };
        if next_ty == ty {
            queue.pop();
            return Ok(next);
        }
        let ty_id = self.ty(ty, Layout::Plain)?;
        let parts: Vec<Handle<ir::Type>> = match self.inner(ty) {
            inner if let Some(parts) = inner.parts() => parts,
            TypeInner::Scalar(_) | TypeInner::Vector { .. } | TypeInner::Matrix { .. } => {
                return self.build_numeric(ty, queue, span);
            }
            _ => return unsupported("constructing this type", span),
        };
        let mut ids = Vec::new();
        for p in parts {
            ids.push(self.build(p, queue, span)?);
        }
        self.op(Op::CompositeConstruct, ty_id, &ids)
    }

    fn build_numeric(
        &mut self,
        ty: Handle<ir::Type>,
        queue: &mut Vec<(Word, Handle<ir::Type>)>,
        span: ir::Span,
    ) -> Result<Word> {
        let Some(want) = self.shape(ty) else {
            return unsupported("constructing this type", span);
        };
        let total = u32::from(want.size.max(1)) * u32::from(want.columns.max(1));
        let elem = Shape {
            scalar: want.scalar,
            size: 0,
            columns: 0,
        };
        let mut scalars = Vec::new();
        while (scalars.len() as u32) < total {
            let Some((v, vty)) = queue.pop() else {
                return unsupported("an initializer list with too few elements", span);
            };
            let Some(s) = self.shape(vty) else {
                return unsupported("a non-numeric component in a numeric constructor", span);
            };
            self.scalars_of(v, s, &mut scalars)?;
        }
        let mut conv = Vec::new();
        for (v, s) in scalars.into_iter().take(total as usize) {
            conv.push(self.convert_num(v, s, elem, span)?);
        }
        if want.size == 0 {
            return Ok(conv[0]);
        }
        let col = Shape { columns: 0, ..want };
        let col_ty = self.shape_ty(col);
        let mut cols = Vec::new();
        for chunk in conv.chunks(want.size as usize) {
            cols.push(self.op(Op::CompositeConstruct, col_ty, chunk)?);
        }
        if want.columns == 0 {
            return Ok(cols[0]);
        }
        let ty_id = self.shape_ty(want);
        self.op(Op::CompositeConstruct, ty_id, &cols)
    }

    /// The scalar components of `v` in HLSL order.
    fn scalars_of(&mut self, v: Word, s: Shape, out: &mut Vec<(Word, Shape)>) -> Result<()> {
        let one = Shape {
            scalar: s.scalar,
            size: 0,
            columns: 0,
        };
        let ty = self.shape_ty(one);
        match (s.size, s.columns) {
            (0, _) => out.push((v, s)),
            (n, 0) => {
                for i in 0..u32::from(n) {
                    out.push((self.extract(ty, v, &[i])?, one));
                }
            }
            (n, m) => {
                for j in 0..u32::from(m) {
                    for i in 0..u32::from(n) {
                        out.push((self.extract(ty, v, &[j, i])?, one));
                    }
                }
            }
        }
        Ok(())
    }
}

/// The SPIR-V opcode of a binary operator on operands of `kind`.
fn binary_opcode(op: BinaryOp, kind: ScalarKind, span: ir::Span) -> Result<Op> {
    use ScalarKind::{Bool, Float, Sint, Uint};
    Ok(match (op, kind) {
        (BinaryOp::Add, Float) => Op::FAdd,
        (BinaryOp::Add, Sint | Uint) => Op::IAdd,
        (BinaryOp::Subtract, Float) => Op::FSub,
        (BinaryOp::Subtract, Sint | Uint) => Op::ISub,
        (BinaryOp::Multiply, Float) => Op::FMul,
        (BinaryOp::Multiply, Sint | Uint) => Op::IMul,
        (BinaryOp::Divide, Float) => Op::FDiv,
        (BinaryOp::Divide, Sint) => Op::SDiv,
        (BinaryOp::Divide, Uint) => Op::UDiv,
        // HLSL `%` truncates: the result has the dividend's sign.
        (BinaryOp::Modulo, Float) => Op::FRem,
        (BinaryOp::Modulo, Sint) => Op::SRem,
        (BinaryOp::Modulo, Uint) => Op::UMod,
        (BinaryOp::Equal, Float) => Op::FOrdEqual,
        (BinaryOp::Equal, Sint | Uint) => Op::IEqual,
        (BinaryOp::Equal, Bool) => Op::LogicalEqual,
        (BinaryOp::NotEqual, Float) => Op::FUnordNotEqual,
        (BinaryOp::NotEqual, Sint | Uint) => Op::INotEqual,
        (BinaryOp::NotEqual | BinaryOp::BitwiseXor, Bool) => Op::LogicalNotEqual,
        (BinaryOp::Less, Float) => Op::FOrdLessThan,
        (BinaryOp::Less, Sint) => Op::SLessThan,
        (BinaryOp::Less, Uint) => Op::ULessThan,
        (BinaryOp::LessEqual, Float) => Op::FOrdLessThanEqual,
        (BinaryOp::LessEqual, Sint) => Op::SLessThanEqual,
        (BinaryOp::LessEqual, Uint) => Op::ULessThanEqual,
        (BinaryOp::Greater, Float) => Op::FOrdGreaterThan,
        (BinaryOp::Greater, Sint) => Op::SGreaterThan,
        (BinaryOp::Greater, Uint) => Op::UGreaterThan,
        (BinaryOp::GreaterEqual, Float) => Op::FOrdGreaterThanEqual,
        (BinaryOp::GreaterEqual, Sint) => Op::SGreaterThanEqual,
        (BinaryOp::GreaterEqual, Uint) => Op::UGreaterThanEqual,
        (BinaryOp::BitwiseAnd, Sint | Uint) => Op::BitwiseAnd,
        (BinaryOp::BitwiseOr, Sint | Uint) => Op::BitwiseOr,
        (BinaryOp::BitwiseXor, Sint | Uint) => Op::BitwiseXor,
        (BinaryOp::BitwiseAnd | BinaryOp::LogicalAnd, Bool) => Op::LogicalAnd,
        (BinaryOp::BitwiseOr | BinaryOp::LogicalOr, Bool) => Op::LogicalOr,
        (BinaryOp::ShiftLeft, Sint | Uint) => Op::ShiftLeftLogical,
        (BinaryOp::ShiftRight, Sint) => Op::ShiftRightArithmetic,
        (BinaryOp::ShiftRight, Uint) => Op::ShiftRightLogical,
        _ => return unsupported(format!("`{}` on these operands", op.symbol()), span),
    })
}
