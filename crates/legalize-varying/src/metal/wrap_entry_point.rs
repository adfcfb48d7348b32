//! The Metal entry point as a wrapper around the source's (B19, B20): a
//! new function, named after the entry point, takes one attributed
//! parameter per input leaf (the writer gathers the user varyings among
//! them into the `[[stage_in]]` struct) and returns one attributed struct
//! with a member per output leaf. Its body rebuilds the source's
//! parameters as locals (with conversions from the attributes' MSL
//! types), computes `SV_GroupIndex` as `(z*Y + y)*X + x` from the
//! threadgroup-local id (B20: Metal has no attribute the reference uses
//! for it), calls the source function (renamed `<entry>_body`), and copies
//! every output leaf into the result struct. The user's code is not
//! rewritten.
//!
//! The [`ir::Policy`] conventions on builtin values apply here as for
//! WGSL: `-fvk-invert-y` negates the written position's `y`,
//! `-fvk-use-dx-position-w` makes a fragment position's `w` its
//! reciprocal.

use legalis_ir as ir;
use legalis_ir::SystemValue;
use legalis_ir::{Expression, Handle, Span, Statement, Type, TypeInner};
use legalis_sysval::{BuiltinType, Direction};

use super::plan::{Leaf, Plan, Root, Target};

/// Appends the wrapper and points the entry point at it.
pub fn apply(module: &mut ir::Module, entry_point: usize, plan: &Plan, policy: &ir::Policy) {
    let entry = module.entry_points[entry_point].clone();
    let inner = entry.function;
    let source = module.functions[inner].clone();
    module.functions.get_mut(inner).name = format!("{}_body", entry.name);

    let mut w = Builder {
        module,
        func: ir::Function {
            name: entry.name.clone(),
            params: Vec::new(),
            result: None,
            locals: ir::Arena::new(),
            expressions: ir::ExpressionArena::default(),
            body: ir::Block::default(),
            span: source.span,
        },
    };

    // The source's parameters as locals (uniforms as globals).
    let mut arguments = Vec::new();
    for (k, param) in source.params.iter().enumerate() {
        let is_uniform = plan
            .leaves
            .iter()
            .any(|l| l.root == Root::Param(k as u32) && l.target == Target::Uniform);
        if is_uniform {
            let global = w.module.globals.append(
                ir::GlobalVariable {
                    name: param.name.clone(),
                    ty: param.ty,
                    space: ir::AddressSpace::Uniform,
                    binding: ir::ResourceBinding::default(),
                    matrix_layout: None,
                    init: None,
                    globally_coherent: false,
                    io: None,
                },
                param.span,
            );
            arguments.push(Argument::Global(global, param.ty));
        } else {
            let local = w.func.locals.append(
                ir::LocalVariable {
                    name: param.name.clone(),
                    ty: param.ty,
                    is_static: false,
                    is_const: false,
                },
                param.span,
            );
            w.func
                .body
                .push(Statement::Declare { local, init: None }, param.span);
            arguments.push(Argument::Local(local, param.ty));
        }
    }

    // Inputs: one parameter each, stored into its place in the locals.
    let mut group_thread_id = None;
    for leaf in plan
        .leaves
        .iter()
        .filter(|l| l.direction == Direction::Input && l.target != Target::Uniform)
    {
        if matches!(leaf.target, Target::GroupIndex { .. }) {
            continue;
        }
        let interface_ty = w.interface_type(leaf);
        let index = w.func.params.len() as u32;
        w.func.params.push(ir::FunctionParam {
            name: leaf.name.clone(),
            ty: interface_ty,
            direction: ir::ParamDirection::In,
            role: ir::ParamRole::Plain,
            io: io_for(leaf),
            span: leaf.span,
        });
        if is_value(leaf, SystemValue::GroupThreadId) && group_thread_id.is_none() {
            group_thread_id = Some((index, interface_ty));
        }
        let Root::Param(k) = leaf.root else {
            continue;
        };
        let Argument::Local(local, root_ty) = arguments[k as usize] else {
            continue;
        };
        let value = if is_position(leaf) && policy.dx_position_w {
            w.reciprocal_w(index, interface_ty, leaf.span)
        } else {
            w.expr(Expression::Param(index), Some(interface_ty), leaf.span)
        };
        let value = w.convert(value, interface_ty, leaf.ty, leaf.span);
        let target = w.place(Expression::Local(local), root_ty, &leaf.members, leaf.span);
        w.func
            .body
            .push(Statement::Store { target, value }, leaf.span);
    }

    // B20: `SV_GroupIndex` from the threadgroup-local id.
    for leaf in plan.leaves.iter() {
        let (Target::GroupIndex { x, y }, Root::Param(k), Some((param, param_ty))) =
            (&leaf.target, &leaf.root, group_thread_id)
        else {
            continue;
        };
        let Argument::Local(local, root_ty) = arguments[*k as usize] else {
            continue;
        };
        let value = w.group_index(param, param_ty, [*x, *y], leaf.span);
        let u32_ty = w.ty(TypeInner::Scalar(ir::Scalar::U32));
        let value = w.convert(value, u32_ty, leaf.ty, leaf.span);
        let target = w.place(Expression::Local(local), root_ty, &leaf.members, leaf.span);
        w.func
            .body
            .push(Statement::Store { target, value }, leaf.span);
    }

    // The call.
    let args: Vec<Handle<Expression>> = arguments
        .iter()
        .map(|a| match *a {
            Argument::Local(l, ty) => w.expr(Expression::Local(l), Some(ty), source.span),
            Argument::Global(g, ty) => w.expr(Expression::Global(g), Some(ty), source.span),
        })
        .collect();
    let call = w.expr(
        Expression::Call {
            function: inner,
            args,
        },
        source.result.as_ref().map(|r| r.ty),
        source.span,
    );
    let result_local = match &source.result {
        Some(result) => {
            let local = w.func.locals.append(
                ir::LocalVariable {
                    name: "result".into(),
                    ty: result.ty,
                    is_static: false,
                    is_const: false,
                },
                result.span,
            );
            w.func.body.push(
                Statement::Declare {
                    local,
                    init: Some(call),
                },
                result.span,
            );
            Some((local, result.ty))
        }
        None => {
            w.func.body.push(Statement::Expr(call), source.span);
            None
        }
    };

    // Outputs: one member each of the result struct.
    let outputs: Vec<&Leaf> = plan
        .leaves
        .iter()
        .filter(|l| l.direction == Direction::Output)
        .collect();
    if outputs.is_empty() {
        w.func.body.push(Statement::Return(None), source.span);
    } else {
        let members = outputs
            .iter()
            .map(|leaf| ir::StructMember {
                name: leaf.name.clone(),
                ty: w.interface_type(leaf),
                io: io_for(leaf),
                matrix_layout: None,
                span: leaf.span,
            })
            .collect();
        let out_ty = w.module.types.insert(
            Type {
                name: Some(format!("{}Output", entry.name)),
                inner: TypeInner::Struct { members },
            },
            source.span,
        );
        let out = w.func.locals.append(
            ir::LocalVariable {
                name: "output".into(),
                ty: out_ty,
                is_static: false,
                is_const: false,
            },
            source.span,
        );
        w.func.body.push(
            Statement::Declare {
                local: out,
                init: None,
            },
            source.span,
        );
        for (m, leaf) in outputs.iter().enumerate() {
            let (base, root_ty) = match leaf.root {
                Root::Result => match result_local {
                    Some((l, ty)) => (l, ty),
                    None => continue,
                },
                Root::Param(k) => match arguments[k as usize] {
                    Argument::Local(l, ty) => (l, ty),
                    Argument::Global(..) => continue,
                },
                Root::Added => continue,
            };
            let interface_ty = w.interface_type(leaf);
            let value = w.place(Expression::Local(base), root_ty, &leaf.members, leaf.span);
            let value = w.convert(value, leaf.ty, interface_ty, leaf.span);
            let target = w.place(Expression::Local(out), out_ty, &[m as u32], leaf.span);
            w.func
                .body
                .push(Statement::Store { target, value }, leaf.span);
            if is_position(leaf) && policy.invert_y {
                w.negate_y(out, out_ty, m as u32, leaf.span);
            }
        }
        let value = w.expr(Expression::Local(out), Some(out_ty), source.span);
        w.func
            .body
            .push(Statement::Return(Some(value)), source.span);
        w.func.result = Some(ir::FunctionResult {
            ty: out_ty,
            io: ir::IoAttrs::default(),
            span: source.span,
        });
    }

    let span = module_span(w.module, inner);
    let wrapper = w.module.functions.append(w.func, span);
    w.module.entry_points[entry_point].function = wrapper;
}

fn module_span(module: &ir::Module, func: Handle<ir::Function>) -> Span {
    module.functions.span(func)
}

#[derive(Clone, Copy)]
enum Argument {
    Local(Handle<ir::LocalVariable>, Handle<Type>),
    Global(Handle<ir::GlobalVariable>, Handle<Type>),
}

fn is_position(leaf: &Leaf) -> bool {
    is_value(leaf, SystemValue::Position)
}

fn is_value(leaf: &Leaf, sv: SystemValue) -> bool {
    matches!(leaf.target, Target::BuiltIn { value, .. } if value == sv)
}

/// The binding the interface value carries.
pub(super) fn io_for(leaf: &Leaf) -> ir::IoAttrs {
    let location = |location: u32, interpolation: ir::Interpolation| ir::Binding::Location {
        location,
        component: 0,
        index: None,
        interpolation,
        patch: false,
        per_primitive: false,
        per_vertex: false,
    };
    let binding = match &leaf.target {
        // `SV_TargetN` is `[[color(N)]]`: a fragment output location.
        Target::BuiltIn { row, index, .. } if row.by_index => {
            location(*index, ir::Interpolation::default())
        }
        Target::BuiltIn { value, .. } => ir::Binding::BuiltIn(ir::BuiltIn {
            value: *value,
            array_index: None,
        }),
        Target::Location {
            location: l,
            interpolation,
        } => location(*l, *interpolation),
        // Uniform leaves become globals, synthesised ones locals, the
        // payload and the indices parameters of their own kind (B21):
        // never interface values.
        Target::Uniform | Target::GroupIndex { .. } | Target::Payload | Target::Indices { .. } => {
            return ir::IoAttrs::default();
        }
    };
    ir::IoAttrs {
        binding: Some(binding),
        ..ir::IoAttrs::default()
    }
}

pub(super) struct Builder<'m> {
    pub module: &'m mut ir::Module,
    pub func: ir::Function,
}

impl Builder<'_> {
    pub(super) fn expr(
        &mut self,
        e: Expression,
        ty: Option<Handle<Type>>,
        span: Span,
    ) -> Handle<Expression> {
        self.func.expressions.append(e, ty, span)
    }

    pub(super) fn ty(&mut self, inner: TypeInner) -> Handle<Type> {
        self.module
            .types
            .insert(Type { name: None, inner }, Span::UNDEFINED)
    }

    /// The type at the interface: the builtin's own, or the declared one.
    pub(super) fn interface_type(&mut self, leaf: &Leaf) -> Handle<Type> {
        match &leaf.target {
            // `[[color(n)]]` takes the declared type: an integer render
            // target is written as integers.
            Target::BuiltIn { row, .. } if row.by_index => leaf.ty,
            Target::BuiltIn { row, .. } => match row.ty {
                BuiltinType::Scalar(s) => self.ty(TypeInner::Scalar(s)),
                BuiltinType::Vector(scalar, size) => self.ty(TypeInner::Vector { size, scalar }),
                // No Metal row is an array; keep the declared type.
                BuiltinType::Array(..) => leaf.ty,
            },
            _ => leaf.ty,
        }
    }

    pub(super) fn convert(
        &mut self,
        value: Handle<Expression>,
        from: Handle<Type>,
        to: Handle<Type>,
        span: Span,
    ) -> Handle<Expression> {
        if from == to {
            value
        } else {
            self.expr(Expression::Convert { expr: value }, Some(to), span)
        }
    }

    /// `base.m0.m1...` from a root of type `ty`.
    pub(super) fn place(
        &mut self,
        base: Expression,
        mut ty: Handle<Type>,
        members: &[u32],
        span: Span,
    ) -> Handle<Expression> {
        let mut e = self.expr(base, Some(ty), span);
        for &index in members {
            ty = match &self.module.types[ty].inner {
                TypeInner::Struct { members } => members[index as usize].ty,
                _ => ty,
            };
            e = self.expr(Expression::Member { base: e, index }, Some(ty), span);
        }
        e
    }

    /// `(id.z * Y + id.y) * X + id.x` of the threadgroup-local id
    /// parameter (B20).
    pub(super) fn group_index(
        &mut self,
        param: u32,
        ty: Handle<Type>,
        [x, y]: [u32; 2],
        span: Span,
    ) -> Handle<Expression> {
        let u32_ty = self.ty(TypeInner::Scalar(ir::Scalar::U32));
        let component = |b: &mut Self, c: u8| {
            let id = b.expr(Expression::Param(param), Some(ty), span);
            b.expr(
                Expression::Swizzle {
                    base: id,
                    components: vec![c],
                },
                Some(u32_ty),
                span,
            )
        };
        let z = component(self, 2);
        let yy = component(self, 1);
        let xx = component(self, 0);
        let binary = |b: &mut Self, op, left, right| {
            b.expr(Expression::Binary { op, left, right }, Some(u32_ty), span)
        };
        let extent_y = self.expr(
            Expression::Literal(ir::Literal::Uint(y.into())),
            Some(u32_ty),
            span,
        );
        let extent_x = self.expr(
            Expression::Literal(ir::Literal::Uint(x.into())),
            Some(u32_ty),
            span,
        );
        let zy = binary(self, ir::BinaryOp::Multiply, z, extent_y);
        let zy = binary(self, ir::BinaryOp::Add, zy, yy);
        let zyx = binary(self, ir::BinaryOp::Multiply, zy, extent_x);
        binary(self, ir::BinaryOp::Add, zyx, xx)
    }

    /// `vec4(p.xyz, 1.0 / p.w)` of a position parameter.
    fn reciprocal_w(&mut self, param: u32, ty: Handle<Type>, span: Span) -> Handle<Expression> {
        let f32_ty = self.ty(TypeInner::Scalar(ir::Scalar::F32));
        let f3 = self.ty(TypeInner::Vector {
            size: 3,
            scalar: ir::Scalar::F32,
        });
        let base1 = self.expr(Expression::Param(param), Some(ty), span);
        let p = self.expr(Expression::Param(param), Some(ty), span);
        let xyz = self.expr(
            Expression::Swizzle {
                base: base1,
                components: vec![0, 1, 2],
            },
            Some(f3),
            span,
        );
        let one = self.expr(
            Expression::Literal(ir::Literal::Float(1.0)),
            Some(f32_ty),
            span,
        );
        let w = self.expr(
            Expression::Swizzle {
                base: p,
                components: vec![3],
            },
            Some(f32_ty),
            span,
        );
        let rw = self.expr(
            Expression::Binary {
                op: ir::BinaryOp::Divide,
                left: one,
                right: w,
            },
            Some(f32_ty),
            span,
        );
        self.expr(
            Expression::Construct {
                components: vec![xyz, rw],
            },
            Some(ty),
            span,
        )
    }

    /// `output.m.y = -output.m.y;`
    fn negate_y(
        &mut self,
        out: Handle<ir::LocalVariable>,
        out_ty: Handle<Type>,
        member: u32,
        span: Span,
    ) {
        let f32_ty = self.ty(TypeInner::Scalar(ir::Scalar::F32));
        let y = |b: &mut Self| {
            let place = b.place(Expression::Local(out), out_ty, &[member], span);
            b.expr(
                Expression::Swizzle {
                    base: place,
                    components: vec![1],
                },
                Some(f32_ty),
                span,
            )
        };
        let target = y(self);
        let read = y(self);
        let value = self.expr(
            Expression::Unary {
                op: ir::UnaryOp::Negate,
                expr: read,
            },
            Some(f32_ty),
            span,
        );
        self.func
            .body
            .push(Statement::Store { target, value }, span);
    }
}
