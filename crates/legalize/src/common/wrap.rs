//! What the WGSL and Metal legalizers share when they wrap the source
//! entry function (B19, B20, B22): a new function, named after the entry
//! point, takes one attributed parameter per input leaf and returns one
//! attributed struct with a member per output leaf. Its body rebuilds the
//! source's parameters as locals (uniforms as globals), stores every input
//! into its place (converted from the builtin's type), lets the target add
//! what it computes (Metal's `SV_GroupIndex`), calls the source function
//! (renamed `<entry>_body`), and copies every output leaf into the result
//! struct (converted to the builtin's type). The user's code is not
//! rewritten.
//!
//! The [`ir::Policy`] conventions on builtin values apply here:
//! `-fvk-invert-y` negates the written position's `y`,
//! `-fvk-use-dx-position-w` makes a fragment position's `w` its
//! reciprocal.

use legalis_ir as ir;
use legalis_ir::{Expression, Handle, Span, Statement, SystemValue, Type, TypeInner};
use legalis_sysval::{BuiltinType, Direction};

/// Where a leaf lives in the entry point's signature.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum WrapRoot {
    Param(u32),
    Result,
    /// A parameter the source does not have.
    Added,
}

/// A plan leaf as the wrapper sees it.
pub(crate) trait WrapLeaf {
    fn root(&self) -> WrapRoot;
    fn direction(&self) -> Direction;
    /// Member indices from the root to the leaf.
    fn members(&self) -> &[u32];
    /// The type the source declares.
    fn declared(&self) -> Handle<Type>;
    /// The interface parameter's or result member's name.
    fn name(&self) -> &str;
    fn span(&self) -> Span;
    /// An entry-point `uniform` parameter: a global, not a varying.
    fn is_uniform(&self) -> bool;
    /// Whether an input leaf becomes a parameter of the wrapper (not a
    /// uniform, not computed).
    fn is_parameter(&self) -> bool;
    /// The system value of a builtin leaf.
    fn builtin(&self) -> Option<SystemValue>;
    /// The builtin's own type, when the interface takes it.
    fn builtin_type(&self) -> Option<BuiltinType>;
    /// The binding the interface value carries.
    fn io(&self) -> ir::IoAttrs;
}

/// How the wrapper passes a source parameter.
#[derive(Clone, Copy)]
pub(crate) enum Argument {
    Local(Handle<ir::LocalVariable>, Handle<Type>),
    Global(Handle<ir::GlobalVariable>, Handle<Type>),
}

/// An input parameter the wrapper made: its index, its type and its leaf.
pub(crate) struct MadeParam<'l, L> {
    pub index: u32,
    pub ty: Handle<Type>,
    pub leaf: &'l L,
}

/// Appends the wrapper of entry point `entry_point` and points the entry
/// point at it. `compute` runs after the inputs are stored and before the
/// call: it stores what the target computes from the made parameters.
pub(crate) fn wrap<L: WrapLeaf>(
    module: &mut ir::Module,
    entry_point: usize,
    leaves: &[L],
    policy: &ir::Policy,
    compute: impl FnOnce(&mut Builder, &[Argument], &[MadeParam<L>]),
) {
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
        let is_uniform = leaves
            .iter()
            .any(|l| l.root() == WrapRoot::Param(k as u32) && l.is_uniform());
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
    let mut made = Vec::new();
    for leaf in leaves
        .iter()
        .filter(|l| l.direction() == Direction::Input && l.is_parameter())
    {
        let interface_ty = w.interface_type(leaf);
        let index = w.func.params.len() as u32;
        w.func.params.push(ir::FunctionParam {
            name: leaf.name().to_string(),
            ty: interface_ty,
            direction: ir::ParamDirection::In,
            role: ir::ParamRole::Plain,
            io: leaf.io(),
            span: leaf.span(),
        });
        made.push(MadeParam {
            index,
            ty: interface_ty,
            leaf,
        });
        let WrapRoot::Param(k) = leaf.root() else {
            continue;
        };
        let Argument::Local(local, root_ty) = arguments[k as usize] else {
            continue;
        };
        let span = leaf.span();
        let value = if leaf.builtin() == Some(SystemValue::Position) && policy.dx_position_w {
            w.reciprocal_w(index, interface_ty, span)
        } else {
            w.expr(Expression::Param(index), Some(interface_ty), span)
        };
        let value = w.convert(value, interface_ty, leaf.declared(), span);
        let target = w.place(Expression::Local(local), root_ty, leaf.members(), span);
        w.func.body.push(Statement::Store { target, value }, span);
    }

    compute(&mut w, &arguments, &made);

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
    let outputs: Vec<&L> = leaves
        .iter()
        .filter(|l| l.direction() == Direction::Output)
        .collect();
    if outputs.is_empty() {
        w.func.body.push(Statement::Return(None), source.span);
    } else {
        let members = outputs
            .iter()
            .map(|leaf| ir::StructMember {
                name: leaf.name().to_string(),
                ty: w.interface_type(*leaf),
                io: leaf.io(),
                matrix_layout: None,
                span: leaf.span(),
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
            let (base, root_ty) = match leaf.root() {
                WrapRoot::Result => match result_local {
                    Some((l, ty)) => (l, ty),
                    None => continue,
                },
                WrapRoot::Param(k) => match arguments[k as usize] {
                    Argument::Local(l, ty) => (l, ty),
                    Argument::Global(..) => continue,
                },
                WrapRoot::Added => continue,
            };
            let span = leaf.span();
            let interface_ty = w.interface_type(*leaf);
            let value = w.place(Expression::Local(base), root_ty, leaf.members(), span);
            let value = w.convert(value, leaf.declared(), interface_ty, span);
            let target = w.place(Expression::Local(out), out_ty, &[m as u32], span);
            w.func.body.push(Statement::Store { target, value }, span);
            if leaf.builtin() == Some(SystemValue::Position) && policy.invert_y {
                w.negate_y(out, out_ty, m as u32, span);
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

    let span = w.module.functions.span(inner);
    let wrapper = w.module.functions.append(w.func, span);
    w.module.entry_points[entry_point].function = wrapper;
}

/// Whether a plan's leaves write `SV_Position` (a vertex function must,
/// on WGSL and Metal).
pub(crate) fn writes_position<L: WrapLeaf>(leaves: &[L]) -> bool {
    leaves
        .iter()
        .any(|l| l.direction() == Direction::Output && l.builtin() == Some(SystemValue::Position))
}

/// Builds one function's IR against a module.
pub(crate) struct Builder<'m> {
    pub module: &'m mut ir::Module,
    pub func: ir::Function,
}

impl Builder<'_> {
    pub(crate) fn expr(
        &mut self,
        e: Expression,
        ty: Option<Handle<Type>>,
        span: Span,
    ) -> Handle<Expression> {
        self.func.expressions.append(e, ty, span)
    }

    pub(crate) fn ty(&mut self, inner: TypeInner) -> Handle<Type> {
        self.module
            .types
            .insert(Type { name: None, inner }, Span::UNDEFINED)
    }

    /// The type at the interface: the builtin's own, or the declared one.
    pub(crate) fn interface_type<L: WrapLeaf>(&mut self, leaf: &L) -> Handle<Type> {
        match leaf.builtin_type() {
            Some(BuiltinType::Scalar(s)) => self.ty(TypeInner::Scalar(s)),
            Some(BuiltinType::Vector(scalar, size)) => self.ty(TypeInner::Vector { size, scalar }),
            // No row of these targets is an array; keep the declared type.
            Some(BuiltinType::Array(..)) | None => leaf.declared(),
        }
    }

    pub(crate) fn convert(
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
    pub(crate) fn place(
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
    pub(crate) fn group_index(
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
    pub(crate) fn reciprocal_w(
        &mut self,
        param: u32,
        ty: Handle<Type>,
        span: Span,
    ) -> Handle<Expression> {
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
    pub(crate) fn negate_y(
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
