//! `DescriptorHandle<T>` (also spelled `T.Handle`): a bindless handle to a
//! resource of type `T`.
//!
//! A handle is a 64-bit value, a `uint2` in memory (the IR type is a
//! `uint2` named `DescriptorHandle<T>`, so that it is a type of its own and
//! every target lays it out and spells it as a `uint2`). Reading it as its
//! resource (a method call, an index, a member, an initializer or argument
//! of type `T`, `T(h)`) indexes the descriptor heap of `T` with the
//! handle's first component: an unsized array of `T` the checker makes
//! once per resource type, whose binding the binding plan gives (the
//! reference's default, "VkMutable", numbering in the first descriptor set
//! no other resource uses). An acceleration structure's handle holds its
//! device address instead, read with `AccelerationStructureFromAddress`.
//! `(uint2)h`, `(uint64_t)h`,
//! `DescriptorHandle<T>(uint2)` and `DescriptorHandle<T>(uint64_t)` convert
//! between a handle and its bits.

use legalis_ir as ir;
use legalis_ir::{Handle, Scalar, Span, Type, TypeInner};

use super::Checker;
use super::convert::Value;
use super::types::Shape;
use crate::codes;

/// The name the checker gives every descriptor heap (the reference's).
pub const HEAP_NAME: &str = "_slang_resource_heap";

/// The heap binding of a resource type, the reference's default
/// (`BindlessDescriptorOptions::VkMutable`): samplers 0, combined
/// texture-samplers 1, every other texture and buffer 2. `None` for a
/// resource with no heap (an acceleration structure, which a handle holds
/// the device address of: `deref_handle`).
fn heap_binding(inner: &TypeInner) -> Option<u32> {
    match inner {
        TypeInner::Sampler { .. } => Some(0),
        TypeInner::Texture(ir::Texture { combined: true, .. }) => Some(1),
        TypeInner::Texture(_)
        | TypeInner::Buffer { .. }
        | TypeInner::ConstantBuffer { .. }
        | TypeInner::TextureBuffer { .. } => Some(2),
        _ => None,
    }
}

impl Checker<'_> {
    /// `DescriptorHandle<resource>`; `None` (reported) when `resource` is
    /// not a resource type.
    pub fn descriptor_handle_type(
        &mut self,
        resource: Handle<Type>,
        span: Span,
    ) -> Option<Handle<Type>> {
        if !self.inner(resource).is_resource() {
            let name = self.type_name(resource);
            self.error(
                codes::BAD_DESCRIPTOR_HANDLE,
                format!(
                    "`DescriptorHandle<{name}>`: a descriptor handle refers to a resource \
                     (a texture, sampler, buffer or acceleration structure), not `{name}`"
                ),
                span,
            );
            return None;
        }
        // The plain `uint2` first, so that writers find it beside the handle.
        let uint2 = self.numeric_ty(Scalar::U32, Shape::Vector(2));
        let name = format!("DescriptorHandle<{}>", self.type_name(resource));
        let ty = self.module.types.insert(
            Type {
                name: Some(name),
                inner: self.inner(uint2).clone(),
            },
            Span::UNDEFINED,
        );
        self.descriptor_handles.insert(ty, resource);
        Some(ty)
    }

    /// The resource type of handle type `ty`.
    pub fn handle_resource(&self, ty: Option<Handle<Type>>) -> Option<Handle<Type>> {
        self.descriptor_handles.get(&ty?).copied()
    }

    /// `v` read as its resource when it is a handle; `v` otherwise.
    pub fn deref_if_handle(&mut self, v: Value, span: Span) -> Value {
        match self.handle_resource(v.ty) {
            Some(resource) => self.deref_handle(v, resource, span),
            None => v,
        }
    }

    /// `heap[h.x]`: the resource handle `v` refers to; for an
    /// acceleration structure, the one at the device address the handle's
    /// 64 bits hold (as the reference reads it).
    pub fn deref_handle(&mut self, v: Value, resource: Handle<Type>, span: Span) -> Value {
        if matches!(self.inner(resource), TypeInner::AccelerationStructure) {
            let address = self.handle_bits(v, span);
            return self.append(
                ir::Expression::Intrinsic {
                    fun: ir::Intrinsic::AccelerationStructureFromAddress,
                    args: vec![address.expr],
                },
                Some(resource),
                span,
            );
        }
        let Some(heap) = self.descriptor_heap(resource, span) else {
            return self.error_value(span);
        };
        let heap_ty = self.module.globals[heap].ty;
        let base = self.append(ir::Expression::Global(heap), Some(heap_ty), span);
        let uint = self.scalar_ty(Scalar::U32);
        let index = self.append(
            ir::Expression::Swizzle {
                base: v.expr,
                components: vec![0],
            },
            Some(uint),
            span,
        );
        self.append(
            ir::Expression::Index {
                base: base.expr,
                index: index.expr,
            },
            Some(resource),
            span,
        )
    }

    /// The descriptor heap of `resource`, made on first use.
    fn descriptor_heap(
        &mut self,
        resource: Handle<Type>,
        span: Span,
    ) -> Option<Handle<ir::GlobalVariable>> {
        if let Some(&heap) = self.descriptor_heaps.get(&resource) {
            return Some(heap);
        }
        let Some(binding) = heap_binding(self.inner(resource)) else {
            let name = self.type_name(resource);
            self.error(
                codes::BAD_DESCRIPTOR_HANDLE,
                format!(
                    "a `DescriptorHandle<{name}>` cannot be read as its resource: Legalis \
                     has no descriptor heap for `{name}`"
                ),
                span,
            );
            return None;
        };
        let ty = self.intern(TypeInner::Array {
            base: resource,
            size: ir::ArraySize::Unsized,
        });
        let heap = self.module.globals.append(
            ir::GlobalVariable {
                name: HEAP_NAME.to_string(),
                ty,
                space: ir::AddressSpace::Uniform,
                binding: ir::ResourceBinding {
                    descriptor_heap: Some(binding),
                    parameter_block: None,
                    input_attachment_index: None,
                    ..Default::default()
                },
                matrix_layout: None,
                init: None,
                globally_coherent: false,
                io: None,
            },
            span,
        );
        self.descriptor_heaps.insert(resource, heap);
        Some(heap)
    }

    /// The conversions of a handle written as a cast or a constructor:
    /// `(uint2)h`, `(uint64_t)h`, `(T)h`, `DescriptorHandle<T>(bits)`.
    /// `None` when neither side is a handle.
    pub fn handle_conversion(&mut self, v: Value, to: Handle<Type>, span: Span) -> Option<Value> {
        let from = v.ty?;
        if from == to {
            return Some(v);
        }
        let u32_ty = self.scalar_ty(Scalar::U32);
        let u64_ty = self.scalar_ty(Scalar::U64);
        let uint2 = self.numeric_ty(Scalar::U32, Shape::Vector(2));
        if let Some(resource) = self.handle_resource(Some(from)) {
            if to == resource {
                return Some(self.deref_handle(v, resource, span));
            }
            if to == uint2 {
                return Some(self.convert_to(v, uint2, span));
            }
            if to == u64_ty {
                return Some(self.handle_bits(v, span));
            }
            return None;
        }
        self.handle_resource(Some(to))?;
        if from == uint2 {
            return Some(self.convert_to(v, to, span));
        }
        if let Some((scalar, Shape::Scalar)) = self.numeric(from)
            && scalar.width == 8
            && matches!(scalar.kind, ir::ScalarKind::Uint | ir::ScalarKind::Sint)
        {
            // `uint2(uint(bits), uint(bits >> 32))`.
            let v = self.convert_to(v, u64_ty, span);
            let copy = self.copy_expr(v.expr);
            let low = self.convert_to(v, u32_ty, span);
            let shift = self.append(
                ir::Expression::Literal(ir::Literal::Uint(32)),
                Some(u64_ty),
                span,
            );
            let high = self.append(
                ir::Expression::Binary {
                    op: ir::BinaryOp::ShiftRight,
                    left: copy,
                    right: shift.expr,
                },
                Some(u64_ty),
                span,
            );
            let high = self.convert_to(high, u32_ty, span);
            return Some(self.append(
                ir::Expression::Construct {
                    components: vec![low.expr, high.expr],
                },
                Some(to),
                span,
            ));
        }
        None
    }

    /// The 64 bits of handle `v` as a `uint64_t`:
    /// `uint64_t(h.x) | (uint64_t(h.y) << 32)`.
    fn handle_bits(&mut self, v: Value, span: Span) -> Value {
        let u64_ty = self.scalar_ty(Scalar::U64);
        let copy = self.copy_expr(v.expr);
        let low = self.component(v.expr, 0, span);
        let high = self.component(copy, 1, span);
        let low = self.convert_to(low, u64_ty, span);
        let high = self.convert_to(high, u64_ty, span);
        let shift = self.append(
            ir::Expression::Literal(ir::Literal::Uint(32)),
            Some(u64_ty),
            span,
        );
        let high = self.append(
            ir::Expression::Binary {
                op: ir::BinaryOp::ShiftLeft,
                left: high.expr,
                right: shift.expr,
            },
            Some(u64_ty),
            span,
        );
        self.append(
            ir::Expression::Binary {
                op: ir::BinaryOp::BitwiseOr,
                left: low.expr,
                right: high.expr,
            },
            Some(u64_ty),
            span,
        )
    }

    /// `DescriptorHandle<T>(bits)` or `T(handle)`: `arg` converted to `ty`.
    pub fn lower_handle_constructor(
        &mut self,
        ty: Handle<Type>,
        arg: &crate::ast::Expr,
        span: Span,
    ) -> Value {
        let v = self.lower_value(arg);
        if v.ty == Some(self.error_ty) {
            return self.error_value(span);
        }
        if let Some(converted) = self.handle_conversion(v, ty, span) {
            return converted;
        }
        let from =
            v.ty.map_or_else(|| "void".to_string(), |t| self.type_name(t));
        let to = self.type_name(ty);
        self.error(
            codes::TYPE_MISMATCH,
            format!("cannot construct `{to}` from `{from}`"),
            arg.span,
        );
        self.error_value(span)
    }

    /// Component `i` of a `uint2` value.
    fn component(&mut self, base: Handle<ir::Expression>, i: u8, span: Span) -> Value {
        let uint = self.scalar_ty(Scalar::U32);
        self.append(
            ir::Expression::Swizzle {
                base,
                components: vec![i],
            },
            Some(uint),
            span,
        )
    }
}
