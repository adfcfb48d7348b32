//! `ByteAddressBuffer.Load<T>(offset)` and `RWByteAddressBuffer.Store<T>(
//! offset, value)` for a `T` of 32-bit scalars (`float`, `int`, `uint`,
//! `bool`), vectors of them, and structs and sized arrays of those,
//! lowered statically to the word methods every target has: each scalar
//! or vector leaf of `T` is one `Load`..`Load4` (`Store`..`Store4`) at
//! `offset` plus its byte offset, with a bitcast (`asfloat`, `asint`,
//! `asuint`; a `bool` is the word's `!= 0`, stored as 1 or 0). Leaves are
//! packed in declaration order, 4 bytes a scalar, as the reference's
//! natural layout puts 32-bit data. Another `T` is `E30090`.

use legalis_ir as ir;
use legalis_ir::{Handle, Intrinsic as I, Scalar, ScalarKind, Span, Type, TypeInner};

use super::convert::Value;
use super::types::Shape;
use super::{Checker, ValueSymbol};
use crate::{ast, codes};

/// One scalar or vector leaf of `T`: where it is in `T` (member and
/// element indices, outermost first), its byte offset, its scalar kind and
/// its component count.
struct Leaf {
    path: Vec<u32>,
    offset: u32,
    kind: ScalarKind,
    size: u8,
}

impl Checker<'_> {
    /// Whether `ty` is a `ByteAddressBuffer` or `RWByteAddressBuffer`.
    pub(super) fn is_byte_address(&self, ty: Handle<Type>) -> bool {
        matches!(
            self.inner(ty),
            TypeInner::Buffer {
                kind: ir::BufferKind::ByteAddress,
                ..
            }
        )
    }

    /// The `T` of `Load<T>`/`Store<T>`, or `None` (reported).
    fn byte_address_type(
        &mut self,
        method: &ast::Ident,
        type_args: &[ast::GenericArg],
    ) -> Option<Handle<Type>> {
        let [ast::GenericArg::Type(t)] = type_args else {
            self.error(
                codes::BAD_GENERIC_ARGUMENTS,
                format!("`{}<T>` takes one type argument", method.name),
                method.span,
            );
            return None;
        };
        let ty = self.resolve_type(t);
        (ty != self.error_ty).then_some(ty)
    }

    /// The leaves of `ty` at byte `offset`; `Err` names the part that is
    /// not 32-bit data.
    fn leaves(
        &self,
        ty: Handle<Type>,
        offset: &mut u32,
        path: &mut Vec<u32>,
        out: &mut Vec<Leaf>,
    ) -> Result<(), Handle<Type>> {
        let (scalar, size) = match self.inner(ty) {
            TypeInner::Scalar(s) => (*s, 1),
            TypeInner::Vector { scalar, size } => (*scalar, *size),
            TypeInner::Struct { members } => {
                for (i, m) in members.iter().enumerate() {
                    path.push(i as u32);
                    self.leaves(m.ty, offset, path, out)?;
                    path.pop();
                }
                return Ok(());
            }
            TypeInner::Array {
                base,
                size: ir::ArraySize::Constant(n),
            } if *n <= 4096 => {
                for i in 0..*n {
                    path.push(i);
                    self.leaves(*base, offset, path, out)?;
                    path.pop();
                }
                return Ok(());
            }
            _ => return Err(ty),
        };
        if scalar.width != 4 && scalar.kind != ScalarKind::Bool {
            return Err(ty);
        }
        out.push(Leaf {
            path: path.clone(),
            offset: *offset,
            kind: scalar.kind,
            size,
        });
        *offset += 4 * u32::from(size);
        Ok(())
    }

    /// The leaves of `ty`, or `None` with `E30090` at `span`.
    fn byte_address_leaves(&mut self, ty: Handle<Type>, span: Span) -> Option<Vec<Leaf>> {
        let mut out = Vec::new();
        match self.leaves(ty, &mut 0, &mut Vec::new(), &mut out) {
            Ok(()) => Some(out),
            Err(part) => {
                let name = self.type_name(ty);
                let part = self.type_name(part);
                self.error(
                    codes::BYTE_ADDRESS_TYPE,
                    format!(
                        "a byte-address buffer loads and stores `{name}` only as 32-bit words: \
                         its `{part}` is not a 32-bit scalar or vector, nor a struct or sized \
                         array of them"
                    ),
                    span,
                );
                None
            }
        }
    }

    /// `offset + bytes` as a `uint` expression (a copy of `offset`).
    fn word_address(&mut self, offset: Value, first: &mut bool, bytes: u32, span: Span) -> Value {
        let uint = self.scalar_ty(Scalar::U32);
        let base = if std::mem::take(first) {
            offset
        } else {
            let expr = self.copy_expr(offset.expr);
            Value {
                expr,
                ty: offset.ty,
            }
        };
        if bytes == 0 {
            return base;
        }
        let k = self.append(
            ir::Expression::Literal(ir::Literal::Uint(u64::from(bytes))),
            Some(uint),
            span,
        );
        self.append(
            ir::Expression::Binary {
                op: ir::BinaryOp::Add,
                left: base.expr,
                right: k.expr,
            },
            Some(uint),
            span,
        )
    }

    /// `buf.Load<T>(offset)` with `obj` the lowered buffer.
    pub(super) fn lower_byte_address_load(
        &mut self,
        obj: Value,
        method: &ast::Ident,
        type_args: &[ast::GenericArg],
        args: &[ast::Expr],
        span: Span,
    ) -> Value {
        let Some(ty) = self.byte_address_type(method, type_args) else {
            return self.error_value(span);
        };
        let [offset] = args else {
            self.error(
                codes::NO_MATCHING_OVERLOAD,
                "`Load<T>` takes one argument, the byte offset",
                span,
            );
            return self.error_value(span);
        };
        let uint = self.scalar_ty(Scalar::U32);
        let off = self.lower_value(offset);
        let off_expr = self.coerce(off, uint, offset.span);
        let off = Value {
            expr: off_expr,
            ty: Some(uint),
        };
        let Some(leaves) = self.byte_address_leaves(ty, span) else {
            return self.error_value(span);
        };
        let mut first_obj = true;
        let mut first_off = true;
        let mut values = Vec::with_capacity(leaves.len());
        for leaf in &leaves {
            let address = self.word_address(off, &mut first_off, leaf.offset, span);
            let buffer = if std::mem::take(&mut first_obj) {
                obj.expr
            } else {
                self.copy_expr(obj.expr)
            };
            let fun = [I::Load, I::Load2, I::Load3, I::Load4][usize::from(leaf.size) - 1];
            let words_ty = self.numeric_ty(Scalar::U32, Shape::vector(leaf.size));
            let words = self.append(
                ir::Expression::Intrinsic {
                    fun,
                    args: vec![buffer, address.expr],
                },
                Some(words_ty),
                span,
            );
            let value = match leaf.kind {
                ScalarKind::Uint => words,
                ScalarKind::Float | ScalarKind::Sint => {
                    let (fun, scalar) = if leaf.kind == ScalarKind::Float {
                        (I::AsFloat, Scalar::F32)
                    } else {
                        (I::AsInt, Scalar::I32)
                    };
                    let to = self.numeric_ty(scalar, Shape::vector(leaf.size));
                    self.append(
                        ir::Expression::Intrinsic {
                            fun,
                            args: vec![words.expr],
                        },
                        Some(to),
                        span,
                    )
                }
                _ => {
                    let to = self.numeric_ty(Scalar::BOOL, Shape::vector(leaf.size));
                    self.append(ir::Expression::Convert { expr: words.expr }, Some(to), span)
                }
            };
            values.push(value.expr);
        }
        self.assemble(ty, &mut values.into_iter(), span)
    }

    /// `ty` built from the leaf values, in order.
    fn assemble(
        &mut self,
        ty: Handle<Type>,
        values: &mut std::vec::IntoIter<Handle<ir::Expression>>,
        span: Span,
    ) -> Value {
        let parts: Vec<Handle<Type>> = match self.inner(ty) {
            inner if let Some(parts) = inner.parts() => parts,
            _ => {
                let expr = values.next().expect("one value per leaf");
                return Value { expr, ty: Some(ty) };
            }
        };
        let mut components = Vec::with_capacity(parts.len());
        for part in parts {
            let v = self.assemble(part, values, span);
            components.push(v.expr);
        }
        self.append(ir::Expression::Construct { components }, Some(ty), span)
    }

    /// `buf.Store<T>(offset, value);` as a statement: the value into a
    /// temporary, then one word store per leaf. `false` when the object is
    /// not a byte-address buffer (nothing lowered then but the object).
    pub(super) fn byte_address_store(
        &mut self,
        object: &ast::Expr,
        method: &ast::Ident,
        type_args: &[ast::GenericArg],
        args: &[ast::Expr],
        span: Span,
        out: &mut ir::Block,
    ) -> bool {
        // Only a buffer named directly is taken here; anything else goes the
        // ordinary way.
        let ast::ExprKind::Name(path) = &object.kind else {
            return false;
        };
        let global_ty = match self.lookup_value_path(path) {
            Some(ValueSymbol::Global { handle, .. }) => self.module.globals[handle].ty,
            _ => return false,
        };
        if !self.is_byte_address(global_ty) {
            return false;
        }
        let obj = self.lower_value(object);
        let Some(ty) = self.byte_address_type(method, type_args) else {
            return true;
        };
        let [offset, value] = args else {
            self.error(
                codes::NO_MATCHING_OVERLOAD,
                "`Store<T>` takes two arguments, the byte offset and the value",
                span,
            );
            return true;
        };
        if let TypeInner::Buffer { access, .. } = self.inner(global_ty)
            && *access == ir::ResourceAccess::Read
        {
            let name = self.type_name(global_ty);
            self.error(
                codes::NO_SUCH_MEMBER,
                format!("`{name}` has no method `Store`: it is read-only"),
                method.span,
            );
            return true;
        }
        let uint = self.scalar_ty(Scalar::U32);
        let off = self.lower_value(offset);
        let off_expr = self.coerce(off, uint, offset.span);
        let v = self.lower_value(value);
        let v_expr = self.coerce(v, ty, value.span);
        let Some(leaves) = self.byte_address_leaves(ty, span) else {
            return true;
        };
        let Some(ctx) = &mut self.ctx else {
            return true;
        };
        let mut temp = |name: &str, ty: Handle<Type>| {
            ctx.func.locals.append(
                ir::LocalVariable {
                    name: name.into(),
                    ty,
                    is_static: false,
                    is_const: false,
                },
                span,
            )
        };
        let off_local = temp("store_offset", uint);
        let value_local = temp("store_value", ty);
        out.push(
            ir::Statement::Declare {
                local: off_local,
                init: Some(off_expr),
            },
            span,
        );
        out.push(
            ir::Statement::Declare {
                local: value_local,
                init: Some(v_expr),
            },
            span,
        );
        let uint_ty = uint;
        let mut first_obj = true;
        for leaf in &leaves {
            for c in 0..leaf.size {
                let base = self.append(ir::Expression::Local(off_local), Some(uint), span);
                let bytes = leaf.offset + 4 * u32::from(c);
                let address = self.word_address(base, &mut true, bytes, span);
                let buffer = if std::mem::take(&mut first_obj) {
                    obj.expr
                } else {
                    self.copy_expr(obj.expr)
                };
                let place = self.leaf_place(value_local, ty, leaf, c, span);
                let word = match leaf.kind {
                    ScalarKind::Uint => place,
                    ScalarKind::Float | ScalarKind::Sint => self.append(
                        ir::Expression::Intrinsic {
                            fun: I::AsUint,
                            args: vec![place.expr],
                        },
                        Some(uint_ty),
                        span,
                    ),
                    _ => self.append(
                        ir::Expression::Convert { expr: place.expr },
                        Some(uint_ty),
                        span,
                    ),
                };
                let store = self.append(
                    ir::Expression::Intrinsic {
                        fun: I::Store,
                        args: vec![buffer, address.expr, word.expr],
                    },
                    None,
                    span,
                );
                out.push(ir::Statement::Expr(store.expr), span);
            }
        }
        true
    }

    /// Component `c` of `leaf` in the local `value` of type `ty`.
    fn leaf_place(
        &mut self,
        value: Handle<ir::LocalVariable>,
        ty: Handle<Type>,
        leaf: &Leaf,
        c: u8,
        span: Span,
    ) -> Value {
        let uint = self.scalar_ty(Scalar::U32);
        let mut place = self.append(ir::Expression::Local(value), Some(ty), span);
        let mut place_ty = ty;
        for &index in &leaf.path {
            let (expr, next) = match self.inner(place_ty).clone() {
                TypeInner::Struct { members } => (
                    ir::Expression::Member {
                        base: place.expr,
                        index,
                    },
                    members[index as usize].ty,
                ),
                TypeInner::Array { base, .. } => {
                    let i = self.append(
                        ir::Expression::Literal(ir::Literal::Uint(u64::from(index))),
                        Some(uint),
                        span,
                    );
                    (
                        ir::Expression::Index {
                            base: place.expr,
                            index: i.expr,
                        },
                        base,
                    )
                }
                _ => break,
            };
            place = self.append(expr, Some(next), span);
            place_ty = next;
        }
        if leaf.size == 1 {
            return place;
        }
        let scalar = match self.inner(place_ty) {
            TypeInner::Vector { scalar, .. } => *scalar,
            _ => Scalar::U32,
        };
        let scalar_ty = self.scalar_ty(scalar);
        self.append(
            ir::Expression::Swizzle {
                base: place.expr,
                components: vec![c],
            },
            Some(scalar_ty),
            span,
        )
    }
}
