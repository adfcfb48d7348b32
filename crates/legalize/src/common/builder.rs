//! The IR builder every legalizer's rewrites use: it appends typed
//! expressions, locals and statements to one function (a new wrapper or
//! a copy being rewritten), and makes the [`ir::Policy`] rewrites of a
//! position the same way on every target (`-fvk-invert-y`,
//! `-fvk-use-dx-position-w`). Types are interned in the module, which the
//! caller passes where one is needed, so a pass may read the module while
//! it builds.

use legalis_ir as ir;
use legalis_ir::{Expression, Handle, Span, Statement, Type, TypeInner};

/// Builds one function's IR.
#[derive(Debug)]
pub(crate) struct FunctionBuilder {
    pub func: ir::Function,
    /// The span of what it appends: the declaration a wrapper's code is
    /// made for (WGSL, Metal), or none (the GLSL passes, whose new code
    /// has no place in the source).
    pub span: Span,
}

impl FunctionBuilder {
    /// An empty function `name` declared at `span`.
    pub fn new(name: &str, span: Span) -> Self {
        FunctionBuilder::of(ir::Function {
            name: name.to_string(),
            params: Vec::new(),
            result: None,
            locals: ir::Arena::new(),
            expressions: ir::ExpressionArena::default(),
            body: ir::Block::default(),
            span,
        })
    }

    /// A builder appending to `func`.
    pub fn of(func: ir::Function) -> Self {
        FunctionBuilder {
            func,
            span: Span::UNDEFINED,
        }
    }

    pub fn expr(&mut self, expr: Expression, ty: Option<Handle<Type>>) -> Handle<Expression> {
        self.func.expressions.append(expr, ty, self.span)
    }

    pub fn local(&mut self, name: &str, ty: Handle<Type>) -> Handle<ir::LocalVariable> {
        let var = ir::LocalVariable {
            name: name.to_string(),
            ty,
            is_static: false,
            is_const: false,
        };
        self.func.locals.append(var, self.span)
    }

    /// A local declared in the body, with its initial value.
    pub fn declare(
        &mut self,
        name: &str,
        ty: Handle<Type>,
        init: Option<Handle<Expression>>,
    ) -> Handle<ir::LocalVariable> {
        let local = self.local(name, ty);
        self.push(Statement::Declare { local, init });
        local
    }

    /// Makes room for about `statements` statements and `expressions`
    /// expressions, so a large wrapper does not copy its body as it grows.
    pub fn reserve(&mut self, statements: usize, expressions: usize) {
        self.func.body.reserve(statements);
        self.func.expressions.reserve(expressions);
    }

    pub fn push(&mut self, stmt: Statement) {
        self.func.body.push(stmt, self.span);
    }

    /// `root.m0.m1...`: a chain of member accesses with their field types.
    pub fn members(
        &mut self,
        module: &ir::Module,
        root: Handle<Expression>,
        root_ty: Handle<Type>,
        members: &[u32],
    ) -> (Handle<Expression>, Handle<Type>) {
        let mut expr = root;
        let mut ty = root_ty;
        for &index in members {
            let field_ty = match module.types.try_get(ty).map(|t| &t.inner) {
                Some(TypeInner::Struct { members }) => members.get(index as usize).map(|m| m.ty),
                _ => None,
            };
            let Some(field_ty) = field_ty else { break };
            expr = self.expr(Expression::Member { base: expr, index }, Some(field_ty));
            ty = field_ty;
        }
        (expr, ty)
    }

    /// `base.m0.m1...` from a root `base` of type `ty`.
    pub fn place(
        &mut self,
        module: &ir::Module,
        base: Expression,
        ty: Handle<Type>,
        members: &[u32],
    ) -> Handle<Expression> {
        let root = self.expr(base, Some(ty));
        self.members(module, root, ty, members).0
    }

    /// `base[k]` for a constant `k` (typed `uint`), of type `element_ty`.
    pub fn element(
        &mut self,
        base: Handle<Expression>,
        k: u32,
        uint: Handle<Type>,
        element_ty: Handle<Type>,
    ) -> Handle<Expression> {
        let index = self.expr(Expression::Literal(ir::Literal::Uint(k.into())), Some(uint));
        self.expr(Expression::Index { base, index }, Some(element_ty))
    }

    /// `base.xyz` (the `components`) of type `ty`.
    pub fn swizzle(
        &mut self,
        base: Handle<Expression>,
        components: Vec<u8>,
        ty: Handle<Type>,
    ) -> Handle<Expression> {
        self.expr(Expression::Swizzle { base, components }, Some(ty))
    }

    /// `value` converted from type `from` to `to` (itself when they are
    /// one type).
    pub fn convert(
        &mut self,
        value: Handle<Expression>,
        from: Handle<Type>,
        to: Handle<Type>,
    ) -> Handle<Expression> {
        if from == to {
            value
        } else {
            self.expr(Expression::Convert { expr: value }, Some(to))
        }
    }

    /// A copy of the expression tree under `expr` (expressions are trees:
    /// a second use needs its own nodes).
    pub fn copy_tree(&mut self, expr: Handle<Expression>) -> Handle<Expression> {
        let ty = self.func.expressions.ty(expr);
        let node = self.func.expressions[expr].clone();
        let copied = node.map_children(|child| self.copy_tree(child));
        self.expr(copied, ty)
    }

    /// `-fvk-invert-y`, after the store to an `SV_Position` output
    /// `position` (a `float4` place: the builtin, an element of a
    /// builtin array, or the wrapper's result member):
    /// `position.y = -position.y`, for the caller to place right after
    /// the store. `float` is the scalar `float` type. Every target calls
    /// it after each write of an output position.
    pub fn invert_y(&mut self, position: Handle<Expression>, float: Handle<Type>) -> Statement {
        let copy = self.copy_tree(position);
        let target = self.swizzle(position, vec![1], float);
        let old = self.swizzle(copy, vec![1], float);
        let value = self.expr(
            Expression::Unary {
                op: ir::UnaryOp::Negate,
                expr: old,
            },
            Some(float),
        );
        Statement::Store { target, value }
    }

    /// `-fvk-use-dx-position-w`: a fragment `SV_Position` input (`read`
    /// makes a new read of it, of type `ty`) as its `xyz` with the
    /// reciprocal of its `w`: `float4(p.xyz, 1.0 / p.w)`. `float` is the
    /// scalar `float` type; `xyz` spells the first three components, the
    /// GLSL passes one by one (`float4(p.x, p.y, p.z, 1.0 / p.w)`).
    pub fn reciprocal_w(
        &mut self,
        mut read: impl FnMut(&mut Self) -> Handle<Expression>,
        ty: Handle<Type>,
        float: Handle<Type>,
        xyz: Xyz,
    ) -> Handle<Expression> {
        let mut components = match xyz {
            Xyz::Swizzle(float3) => {
                let p = read(self);
                vec![self.swizzle(p, vec![0, 1, 2], float3)]
            }
            Xyz::EachComponent => (0..3)
                .map(|i| {
                    let p = read(self);
                    self.swizzle(p, vec![i], float)
                })
                .collect(),
        };
        let one = self.expr(Expression::Literal(ir::Literal::Float(1.0)), Some(float));
        let p = read(self);
        let w = self.swizzle(p, vec![3], float);
        components.push(self.expr(
            Expression::Binary {
                op: ir::BinaryOp::Divide,
                left: one,
                right: w,
            },
            Some(float),
        ));
        self.expr(Expression::Construct { components }, Some(ty))
    }
}

/// How [`FunctionBuilder::reciprocal_w`] spells a position's first three
/// components.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Xyz {
    /// `p.xyz`, of this `float3` type (WGSL, Metal).
    Swizzle(Handle<Type>),
    /// `p.x, p.y, p.z` (GLSL, SPIR-V).
    EachComponent,
}

/// The unnamed type `inner`, interned in `module`.
pub(crate) fn ty(module: &mut ir::Module, inner: TypeInner) -> Handle<Type> {
    module
        .types
        .insert(Type { name: None, inner }, Span::UNDEFINED)
}

/// The 32-bit counterpart of a 16-bit scalar or vector type
/// (`-fvk-widen-16bit-varyings`, GLSL, SPIR-V and WGSL); any other type as
/// it is.
pub(crate) fn widened(module: &mut ir::Module, ty: Handle<Type>) -> Handle<Type> {
    let wide = |s: ir::Scalar| ir::Scalar { width: 4, ..s };
    let inner = match module.types.try_get(ty).map(|t| &t.inner) {
        Some(&TypeInner::Scalar(s)) if s.width == 2 => TypeInner::Scalar(wide(s)),
        Some(&TypeInner::Vector { size, scalar }) if scalar.width == 2 => TypeInner::Vector {
            size,
            scalar: wide(scalar),
        },
        _ => return ty,
    };
    self::ty(module, inner)
}

/// `base[n]`, interned in `module`.
pub(crate) fn array_of(module: &mut ir::Module, base: Handle<Type>, n: u32) -> Handle<Type> {
    let size = ir::ArraySize::Constant(n);
    ty(module, TypeInner::Array { base, size })
}

/// The binding of the builtin `value`, not an element of an array.
pub(crate) fn builtin_binding(value: ir::SystemValue) -> ir::Binding {
    ir::Binding::BuiltIn(ir::BuiltIn {
        value,
        array_index: None,
    })
}

/// A plain user varying's binding: `location` with `interpolation` and a
/// fragment output's dual-source blending source `index`; no component,
/// patch, per-primitive or per-vertex mark.
pub(crate) fn location_binding(
    location: u32,
    interpolation: ir::Interpolation,
    index: Option<u32>,
) -> ir::Binding {
    ir::Binding::Location {
        location,
        component: 0,
        index,
        interpolation,
        patch: false,
        per_primitive: false,
        per_vertex: false,
    }
}

/// A new global `name` of type `ty` in `space`, with no resource binding
/// and no place in the source: an interface global the GLSL passes make
/// (`io` its builtin or location), or the task payload.
pub(crate) fn global(
    module: &mut ir::Module,
    name: &str,
    ty: Handle<Type>,
    space: ir::AddressSpace,
    io: Option<ir::IoAttrs>,
) -> Handle<ir::GlobalVariable> {
    append_global(module, name, ty, space, io, Span::UNDEFINED)
}

/// A `uniform` entry-point parameter as a global of its own, bound as a
/// global resource is: what the wrappers pass in its place.
pub(crate) fn uniform_global(
    module: &mut ir::Module,
    param: &ir::FunctionParam,
) -> Handle<ir::GlobalVariable> {
    let space = ir::AddressSpace::Uniform;
    append_global(module, &param.name, param.ty, space, None, param.span)
}

fn append_global(
    module: &mut ir::Module,
    name: &str,
    ty: Handle<Type>,
    space: ir::AddressSpace,
    io: Option<ir::IoAttrs>,
    span: Span,
) -> Handle<ir::GlobalVariable> {
    let global = ir::GlobalVariable {
        name: name.to_string(),
        ty,
        space,
        binding: ir::ResourceBinding::default(),
        matrix_layout: None,
        init: None,
        globally_coherent: false,
        io,
    };
    module.globals.append(global, span)
}
