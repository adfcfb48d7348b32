//! Expressions as values and as places: loads and stores through access
//! chains (one `OpAccessChain` per place), swizzles (`OpVectorShuffle`,
//! swizzle stores as load-shuffle-store), calls with copy-in/copy-out of
//! `out`/`inout` arguments through function variables, assignments used
//! as values and `++`/`--`.

use legalis_ir as ir;
use legalis_ir::{Expression, Handle, Literal, TypeInner};
use spirv::{Op, StorageClass, Word};

use super::io::plain_ptr;
use super::writer::{Layout, Ptr, Result, Writer, unsupported};

/// Where a store goes.
#[derive(Clone, Debug)]
pub(super) enum Place {
    Mem(Ptr),
    /// Several components of a vector in memory.
    Swizzle(Ptr, Vec<u8>),
    /// A texel of a storage image or texel buffer, at `coord`.
    Texel {
        image: Ptr,
        coord: Word,
    },
}

impl Writer<'_> {
    pub fn value(&mut self, e: Handle<Expression>) -> Result<Word> {
        let exprs = self.fs.exprs;
        let span = exprs.span(e);
        match &exprs[e] {
            Expression::Literal(lit) => {
                let ty = self.expr_ty(e)?;
                self.literal(*lit, ty, span)
            }
            Expression::Global(_) | Expression::Local(_) | Expression::Param(_) => {
                let ty = self.expr_ty(e)?;
                if matches!(
                    self.inner(ty),
                    TypeInner::ConstantBuffer { .. } | TypeInner::Buffer { .. }
                ) && !matches!(
                    self.inner(ty),
                    TypeInner::Buffer {
                        kind: ir::BufferKind::Typed,
                        ..
                    }
                ) {
                    return unsupported("a buffer used as a value", span);
                }
                self.load_place(e)
            }
            Expression::Member { base, index } => {
                if self.is_place(e) {
                    return self.load_place(e);
                }
                let v = self.value(*base)?;
                let ty = self.expr_ty(e)?;
                let ty = self.ty(ty, Layout::Plain)?;
                self.extract(ty, v, &[*index])
            }
            Expression::Index { base, index } => self.index_value(e, *base, *index),
            Expression::Deref { .. } => self.load_place(e),
            Expression::Swizzle { base, components } => self.swizzle_value(e, *base, components),
            Expression::Unary { op, expr } => self.unary(e, *op, *expr),
            Expression::Binary { op, left, right } => self.binary(e, *op, *left, *right),
            Expression::Select {
                condition,
                accept,
                reject,
            } => self.select(e, *condition, *accept, *reject),
            Expression::Convert { expr } => self.convert_expr(e, *expr),
            Expression::Construct { components } => self.construct(e, components),
            Expression::Call { function, args } => self.call(e, *function, args),
            Expression::Intrinsic { fun, args } => self.intrinsic(e, *fun, args),
            Expression::Assign { target, value } => {
                let v = self.value(*value)?;
                let place = self.place(*target)?;
                self.store(&place, v)?;
                Ok(v)
            }
            Expression::IncDec { op, target } => self.inc_dec(e, *op, *target),
        }
    }

    fn load_place(&mut self, e: Handle<Expression>) -> Result<Word> {
        match self.place(e)? {
            Place::Mem(p) => self.load(&p),
            _ => unsupported("reading this place", self.span(e)),
        }
    }

    pub fn extract(&mut self, ty: Word, v: Word, path: &[u32]) -> Result<Word> {
        let mut ops = vec![rspirv::dr::Operand::IdRef(v)];
        ops.extend(path.iter().map(|&i| rspirv::dr::Operand::LiteralBit32(i)));
        self.op_with(Op::CompositeExtract, Some(ty), ops)
    }

    fn index_value(
        &mut self,
        e: Handle<Expression>,
        base: Handle<Expression>,
        index: Handle<Expression>,
    ) -> Result<Word> {
        if self.is_place(e) {
            return self.load_place(e);
        }
        let base_ty = self.expr_ty(base)?;
        if matches!(
            self.inner(base_ty),
            TypeInner::Texture(_) | TypeInner::Buffer { .. }
        ) {
            return self.resource_element(e, base, index);
        }
        let ty = self.expr_ty(e)?;
        let ty_id = self.ty(ty, Layout::Plain)?;
        if let Expression::Literal(Literal::Int(i)) = self.fs.exprs[index] {
            let v = self.value(base)?;
            return self.extract(ty_id, v, &[i as u32]);
        }
        if let Expression::Literal(Literal::Uint(i)) = self.fs.exprs[index] {
            let v = self.value(base)?;
            return self.extract(ty_id, v, &[i as u32]);
        }
        let v = self.value(base)?;
        if matches!(self.inner(base_ty), TypeInner::Vector { .. }) {
            let i = self.value(index)?;
            return self.op(Op::VectorExtractDynamic, ty_id, &[v, i]);
        }
        // Dynamic indexing of a composite value goes through memory.
        let tmp = self.spill(v, base_ty)?;
        let i = self.value(index)?;
        let mut p = tmp;
        p.indices.push(i);
        p.ty = ty;
        self.load(&p)
    }

    /// Stores value `v` of IR type `ty` in a fresh function variable.
    pub fn spill(&mut self, v: Word, ty: Handle<ir::Type>) -> Result<Ptr> {
        let ty_id = self.ty(ty, Layout::Plain)?;
        let var = self.function_var(ty_id, None)?;
        self.op_with(
            Op::Store,
            None,
            vec![
                rspirv::dr::Operand::IdRef(var),
                rspirv::dr::Operand::IdRef(v),
            ],
        )?;
        Ok(plain_ptr(var, ty, StorageClass::Function))
    }

    fn swizzle_value(
        &mut self,
        e: Handle<Expression>,
        base: Handle<Expression>,
        components: &[u8],
    ) -> Result<Word> {
        let ty = self.expr_ty(e)?;
        let ty_id = self.ty(ty, Layout::Plain)?;
        let base_ty = self.expr_ty(base)?;
        let v = self.value(base)?;
        match (self.inner(base_ty), components.len()) {
            (TypeInner::Scalar(_), 1) => Ok(v),
            (TypeInner::Scalar(_), n) => self.op(Op::CompositeConstruct, ty_id, &vec![v; n]),
            (TypeInner::Vector { .. }, 1) => self.extract(ty_id, v, &[u32::from(components[0])]),
            (TypeInner::Vector { .. }, _) => {
                let mut ops = vec![rspirv::dr::Operand::IdRef(v), rspirv::dr::Operand::IdRef(v)];
                ops.extend(
                    components
                        .iter()
                        .map(|&c| rspirv::dr::Operand::LiteralBit32(u32::from(c))),
                );
                self.op_with(Op::VectorShuffle, Some(ty_id), ops)
            }
            _ => unsupported("swizzling this value", self.span(e)),
        }
    }

    /// Whether `e` names memory that loads can read directly.
    pub fn is_place(&self, e: Handle<Expression>) -> bool {
        let exprs = self.fs.exprs;
        match &exprs[e] {
            Expression::Global(g) => self.globals.contains_key(g),
            Expression::Local(_) | Expression::Param(_) | Expression::Deref { .. } => true,
            Expression::Member { base, .. } => self.is_place(*base),
            Expression::Index { base, .. } => match exprs.ty(*base).map(|t| self.inner(t)) {
                Some(
                    TypeInner::Array { .. } | TypeInner::Vector { .. } | TypeInner::Matrix { .. },
                ) => self.is_place(*base),
                Some(TypeInner::Buffer {
                    kind: ir::BufferKind::Structured,
                    ..
                }) => self.is_place(*base),
                _ => false,
            },
            _ => false,
        }
    }

    /// The place `e` names; values that are not places are spilled to a
    /// variable so they can be indexed dynamically.
    pub fn place(&mut self, e: Handle<Expression>) -> Result<Place> {
        let exprs = self.fs.exprs;
        let span = exprs.span(e);
        match &exprs[e] {
            Expression::Global(g) => match self.globals.get(g) {
                Some(p) => Ok(Place::Mem(p.clone())),
                None => unsupported("a global the writer did not declare", span),
            },
            Expression::Local(l) => {
                let (Some(&id), Some(func)) = (self.fs.locals.get(l), self.fs.func) else {
                    return unsupported("a local variable outside its function", span);
                };
                let ty = func.locals[*l].ty;
                Ok(Place::Mem(plain_ptr(id, ty, StorageClass::Function)))
            }
            Expression::Param(i) => match self.fs.params.get(*i as usize) {
                Some(p) => Ok(Place::Mem(p.clone())),
                None => unsupported("a parameter outside its function", span),
            },
            Expression::Member { base, index } => {
                let mut p = self.mem_place(*base)?;
                let i = self.uint(*index);
                p.indices.push(i);
                p.ty = self.expr_ty(e)?;
                Ok(Place::Mem(p))
            }
            Expression::Index { base, index } => self.index_place(e, *base, *index),
            Expression::Deref { pointer, index } => self.deref_place(e, *pointer, *index),
            Expression::Swizzle { base, components } => {
                let mut p = self.mem_place(*base)?;
                if let TypeInner::Scalar(_) = self.inner(p.ty) {
                    return match components.as_slice() {
                        [0] => Ok(Place::Mem(p)),
                        _ => unsupported("storing to this swizzle of a scalar", span),
                    };
                }
                let mut seen = [false; 4];
                for &c in components {
                    if std::mem::replace(&mut seen[c as usize & 3], true) {
                        return unsupported("a swizzle with repeated components as a target", span);
                    }
                }
                if let [c] = components.as_slice() {
                    let i = self.uint(u32::from(*c));
                    p.indices.push(i);
                    p.ty = self.expr_ty(e)?;
                    return Ok(Place::Mem(p));
                }
                Ok(Place::Swizzle(p, components.clone()))
            }
            _ => {
                let v = self.value(e)?;
                let ty = self.expr_ty(e)?;
                Ok(Place::Mem(self.spill(v, ty)?))
            }
        }
    }

    /// `*p` and `p[i]`: the pointer's value is the place's root, in
    /// `PhysicalStorageBuffer` memory laid out std430; `p[i]` steps by the
    /// pointer type's `ArrayStride` (`OpPtrAccessChain`).
    fn deref_place(
        &mut self,
        e: Handle<Expression>,
        pointer: Handle<Expression>,
        index: Option<Handle<Expression>>,
    ) -> Result<Place> {
        let ty = self.expr_ty(e)?;
        let mut root = self.value(pointer)?;
        if let Some(index) = index {
            let pointer_ty = self.expr_ty(pointer)?;
            let ptr_ty = self.ty(pointer_ty, Layout::Plain)?;
            if self.array_stride(ty, Layout::Std430, None).is_err() {
                return unsupported(
                    "indexing a pointer to a type without a size (a struct ending in an unsized array)",
                    self.span(e),
                );
            }
            let i = self.value(index)?;
            root = self.op(Op::PtrAccessChain, ptr_ty, &[root, i])?;
        }
        Ok(Place::Mem(Ptr {
            root,
            indices: Vec::new(),
            trailing: Vec::new(),
            ty,
            layout: Layout::Std430,
            class: StorageClass::PhysicalStorageBuffer,
        }))
    }

    /// The memory operands of a load or store through `p`: `Aligned` with
    /// the type's alignment in device memory, none elsewhere.
    fn memory_operands(&self, p: &Ptr) -> Result<Vec<rspirv::dr::Operand>> {
        if p.class != StorageClass::PhysicalStorageBuffer {
            return Ok(Vec::new());
        }
        let align = self.alignment(p.ty, p.layout)?;
        Ok(vec![
            rspirv::dr::Operand::MemoryAccess(spirv::MemoryAccess::ALIGNED),
            rspirv::dr::Operand::LiteralBit32(align),
        ])
    }

    fn mem_place(&mut self, e: Handle<Expression>) -> Result<Ptr> {
        match self.place(e)? {
            Place::Mem(p) => Ok(p),
            _ => unsupported("part of a texel or swizzle as a place", self.span(e)),
        }
    }

    fn index_place(
        &mut self,
        e: Handle<Expression>,
        base: Handle<Expression>,
        index: Handle<Expression>,
    ) -> Result<Place> {
        let span = self.span(e);
        let mut p = self.mem_place(base)?;
        match self.inner(p.ty).clone() {
            TypeInner::Array { .. } | TypeInner::Vector { .. } | TypeInner::Matrix { .. } => {
                let i = self.value(index)?;
                p.indices.push(i);
            }
            TypeInner::Buffer {
                kind: ir::BufferKind::Structured,
                ..
            } => {
                let zero = self.uint(0);
                let i = self.value(index)?;
                p.indices.extend([zero, i]);
            }
            TypeInner::Texture(ir::Texture {
                access: ir::ResourceAccess::ReadWrite | ir::ResourceAccess::RasterizerOrdered,
                ..
            })
            | TypeInner::Buffer {
                kind: ir::BufferKind::Typed,
                access: ir::ResourceAccess::ReadWrite | ir::ResourceAccess::RasterizerOrdered,
                ..
            } => {
                let coord = self.value(index)?;
                return Ok(Place::Texel { image: p, coord });
            }
            _ => return unsupported("indexing this value as a place", span),
        }
        p.ty = self.expr_ty(e)?;
        Ok(Place::Mem(p))
    }

    /// The pointer a place names, emitting its access chain.
    pub fn materialize(&mut self, p: &Ptr) -> Result<Word> {
        if p.indices.is_empty() && p.trailing.is_empty() {
            return Ok(p.root);
        }
        let pointee = self.ty(p.ty, p.layout)?;
        let ptr_ty = self.pointer(pointee, p.class);
        let mut ids = vec![p.root];
        ids.extend(&p.indices);
        ids.extend(&p.trailing);
        self.op(Op::AccessChain, ptr_ty, &ids)
    }

    /// Loads a place as a plain value.
    pub fn load(&mut self, p: &Ptr) -> Result<Word> {
        let ptr = self.materialize(p)?;
        let ty = self.ty(p.ty, p.layout)?;
        let memory = self.memory_operands(p)?;
        let v = if memory.is_empty() {
            self.op(Op::Load, ty, &[ptr])?
        } else {
            let mut ops = vec![rspirv::dr::Operand::IdRef(ptr)];
            ops.extend(memory);
            self.op_with(Op::Load, Some(ty), ops)?
        };
        self.loaded_from_layout(v, p.ty, p.layout)
    }

    pub fn store(&mut self, place: &Place, v: Word) -> Result<()> {
        match place {
            Place::Mem(p) => {
                let ptr = self.materialize(p)?;
                let v = self.stored_in_layout(v, p.ty, p.layout)?;
                let mut ops = vec![
                    rspirv::dr::Operand::IdRef(ptr),
                    rspirv::dr::Operand::IdRef(v),
                ];
                ops.extend(self.memory_operands(p)?);
                self.op_with(Op::Store, None, ops)?;
                Ok(())
            }
            Place::Swizzle(p, components) => {
                let old = self.load(p)?;
                let TypeInner::Vector { size, .. } = *self.inner(p.ty) else {
                    return Err(super::Error::Internal {
                        what: "a swizzle place of a non-vector".into(),
                    });
                };
                let ty = self.ty(p.ty, Layout::Plain)?;
                let mut ops = vec![
                    rspirv::dr::Operand::IdRef(old),
                    rspirv::dr::Operand::IdRef(v),
                ];
                for i in 0..size {
                    let lane = match components.iter().position(|&c| c == i) {
                        Some(j) => u32::from(size) + j as u32,
                        None => u32::from(i),
                    };
                    ops.push(rspirv::dr::Operand::LiteralBit32(lane));
                }
                let new = self.op_with(Op::VectorShuffle, Some(ty), ops)?;
                self.store(&Place::Mem(p.clone()), new)
            }
            Place::Texel { image, coord } => self.image_write(image, *coord, v),
        }
    }

    fn inc_dec(
        &mut self,
        e: Handle<Expression>,
        op: ir::IncDecOp,
        target: Handle<Expression>,
    ) -> Result<Word> {
        let ty = self.expr_ty(e)?;
        let place = self.place(target)?;
        let Place::Mem(p) = &place else {
            return unsupported("`++`/`--` on a texel or swizzle", self.span(e));
        };
        let old = self.load(p)?;
        let one = self.splat_const(ty, Literal::Int(1))?;
        let float = self.inner(ty).scalar().map(|s| s.kind) == Some(ir::ScalarKind::Float);
        let add = matches!(op, ir::IncDecOp::PreIncrement | ir::IncDecOp::PostIncrement);
        let opcode = match (float, add) {
            (true, true) => Op::FAdd,
            (true, false) => Op::FSub,
            (false, true) => Op::IAdd,
            (false, false) => Op::ISub,
        };
        let ty_id = self.ty(ty, Layout::Plain)?;
        let new = self.op(opcode, ty_id, &[old, one])?;
        self.store(&place, new)?;
        Ok(match op {
            ir::IncDecOp::PreIncrement | ir::IncDecOp::PreDecrement => new,
            _ => old,
        })
    }

    /// A call: `in` arguments by value, `out`/`inout` through a function
    /// variable copied in before and out after, resources by pointer.
    fn call(
        &mut self,
        e: Handle<Expression>,
        function: Handle<ir::Function>,
        args: &[Handle<Expression>],
    ) -> Result<Word> {
        let span = self.span(e);
        let callee = &self.module.functions[function];
        let Some(&fn_id) = self.function_ids.get(&function) else {
            return unsupported("a call of a function the writer did not collect", span);
        };
        let mut ids = Vec::new();
        let mut copy_back = Vec::new();
        for (p, &a) in callee.params.iter().zip(args) {
            if self.inner(p.ty).is_resource() {
                match self.place(a)? {
                    Place::Mem(ptr) if ptr.indices.is_empty() && ptr.trailing.is_empty() => {
                        ids.push(ptr.root)
                    }
                    _ => return unsupported("a resource argument that is not a variable", span),
                }
                continue;
            }
            if matches!(self.inner(p.ty), TypeInner::RayQuery { .. }) {
                ids.push(self.query_pointer(a)?);
                continue;
            }
            match p.direction {
                ir::ParamDirection::In => ids.push(self.value(a)?),
                ir::ParamDirection::Out | ir::ParamDirection::InOut => {
                    let place = self.place(a)?;
                    let ty = self.ty(p.ty, Layout::Plain)?;
                    let tmp = self.function_var(ty, None)?;
                    let tmp = plain_ptr(tmp, p.ty, StorageClass::Function);
                    if p.direction == ir::ParamDirection::InOut {
                        let v = self.read_place(&place, span)?;
                        self.store(&Place::Mem(tmp.clone()), v)?;
                    }
                    ids.push(tmp.root);
                    copy_back.push((place, tmp));
                }
            }
        }
        let ret = match &callee.result {
            Some(r) => self.ty(r.ty, Layout::Plain)?,
            None => self.void(),
        };
        let mut all = vec![fn_id];
        all.extend(ids);
        let result = self.op(Op::FunctionCall, ret, &all)?;
        for (place, tmp) in copy_back {
            let v = self.load(&tmp)?;
            self.store(&place, v)?;
        }
        Ok(result)
    }

    /// The value stored at any place, swizzles and texels included.
    pub fn read_place(&mut self, place: &Place, span: ir::Span) -> Result<Word> {
        match place {
            Place::Mem(p) => self.load(p),
            Place::Swizzle(p, components) => {
                let v = self.load(p)?;
                let TypeInner::Vector { scalar, .. } = *self.inner(p.ty) else {
                    return unsupported("this swizzle", span);
                };
                let ty = self.numeric(scalar, components.len() as u8, 0, Layout::Plain);
                let mut ops = vec![rspirv::dr::Operand::IdRef(v), rspirv::dr::Operand::IdRef(v)];
                ops.extend(
                    components
                        .iter()
                        .map(|&c| rspirv::dr::Operand::LiteralBit32(u32::from(c))),
                );
                self.op_with(Op::VectorShuffle, Some(ty), ops)
            }
            Place::Texel { image, coord } => self.image_read(image, *coord, span),
        }
    }
}
