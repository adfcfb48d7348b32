//! Hand-built IR for the printer and verifier tests: a small builder, and a
//! valid vertex-shader module both test files start from.

// Each test crate uses a different subset of the helpers.
#![allow(dead_code)]

use ir::{
    AddressSpace, Block, Expression, Function, FunctionParam, FunctionResult, GlobalVariable,
    Handle, IoAttrs, LocalVariable, Module, ParamDirection, ParamRole, ResourceBinding, Scalar,
    Span, Statement, StructMember, Type, TypeInner,
};
use legalis_ir as ir;

/// The types most tests need, interned once.
pub struct Tys {
    pub bool_: Handle<Type>,
    pub int: Handle<Type>,
    pub uint: Handle<Type>,
    pub float: Handle<Type>,
    pub half: Handle<Type>,
    pub double: Handle<Type>,
    pub int64: Handle<Type>,
    pub uint64: Handle<Type>,
    pub int16: Handle<Type>,
    pub uint8: Handle<Type>,
    pub float2: Handle<Type>,
    pub float3: Handle<Type>,
    pub float4: Handle<Type>,
    pub uint3: Handle<Type>,
    pub float4x4: Handle<Type>,
}

pub fn ty(module: &mut Module, inner: TypeInner) -> Handle<Type> {
    module
        .types
        .insert(Type { name: None, inner }, Span::UNDEFINED)
}

pub fn scalar(module: &mut Module, s: Scalar) -> Handle<Type> {
    ty(module, TypeInner::Scalar(s))
}

pub fn vector(module: &mut Module, size: u8, s: Scalar) -> Handle<Type> {
    ty(module, TypeInner::Vector { size, scalar: s })
}

pub fn array(module: &mut Module, base: Handle<Type>, n: u32) -> Handle<Type> {
    let size = ir::ArraySize::Constant(n);
    ty(module, TypeInner::Array { base, size })
}

pub fn tys(module: &mut Module) -> Tys {
    Tys {
        bool_: scalar(module, Scalar::BOOL),
        int: scalar(module, Scalar::I32),
        uint: scalar(module, Scalar::U32),
        float: scalar(module, Scalar::F32),
        half: scalar(module, Scalar::F16),
        double: scalar(module, Scalar::F64),
        int64: scalar(module, Scalar::I64),
        uint64: scalar(module, Scalar::U64),
        int16: scalar(module, Scalar::I16),
        uint8: scalar(module, Scalar::U8),
        float2: vector(module, 2, Scalar::F32),
        float3: vector(module, 3, Scalar::F32),
        float4: vector(module, 4, Scalar::F32),
        uint3: vector(module, 3, Scalar::U32),
        float4x4: ty(
            module,
            TypeInner::Matrix {
                rows: 4,
                columns: 4,
                scalar: Scalar::F32,
            },
        ),
    }
}

/// A 2D-style texture without array, multisampling or normalization.
pub fn texture(
    module: &mut Module,
    dim: ir::TextureDim,
    access: ir::ResourceAccess,
    texel: Handle<Type>,
) -> Handle<Type> {
    let (arrayed, multisampled, normalization) = (false, false, None);
    let inner = TypeInner::Texture(legalis_ir::Texture {
        dim,
        arrayed,
        multisampled,
        access,
        texel,
        normalization,
        combined: false,
        shadow: false,
    });
    ty(module, inner)
}

pub fn strukt(module: &mut Module, name: &str, members: Vec<StructMember>) -> Handle<Type> {
    let inner = TypeInner::Struct { members };
    let name = Some(name.to_string());
    module.types.insert(Type { name, inner }, Span::UNDEFINED)
}

pub fn member(name: &str, ty: Handle<Type>, io: IoAttrs) -> StructMember {
    StructMember {
        name: name.to_string(),
        ty,
        io,
        matrix_layout: None,
        span: Span::UNDEFINED,
    }
}

/// Varying attributes with just a semantic, parsed as the front end does.
pub fn sem(text: &str) -> IoAttrs {
    IoAttrs {
        binding: Some(ir::Binding::Semantic(ir::Semantic::parse(text).unwrap())),
        ..IoAttrs::default()
    }
}

/// Varying attributes bound to a builtin.
pub fn builtin(value: ir::SystemValue) -> IoAttrs {
    let builtin = ir::BuiltIn {
        value,
        array_index: None,
    };
    IoAttrs {
        binding: Some(ir::Binding::BuiltIn(builtin)),
        ..IoAttrs::default()
    }
}

/// Varying attributes bound to a plain location.
pub fn location(location: u32) -> IoAttrs {
    let binding = ir::Binding::Location {
        location,
        component: 0,
        index: None,
        interpolation: ir::Interpolation::default(),
        patch: false,
        per_primitive: false,
        per_vertex: false,
    };
    IoAttrs {
        binding: Some(binding),
        ..IoAttrs::default()
    }
}

pub fn entry(
    module: &mut Module,
    name: &str,
    stage: ir::ShaderStage,
    function: Handle<Function>,
    attributes: ir::EntryPointAttributes,
) {
    let (name, span) = (name.to_string(), Span::UNDEFINED);
    module.entry_points.push(ir::EntryPoint {
        name,
        stage,
        function,
        attributes,
        span,
    });
}

pub fn global(
    module: &mut Module,
    name: &str,
    ty: Handle<Type>,
    space: AddressSpace,
) -> Handle<GlobalVariable> {
    let global = GlobalVariable {
        name: name.to_string(),
        ty,
        space,
        binding: ResourceBinding::default(),
        matrix_layout: None,
        init: None,
        globally_coherent: false,
        io: None,
    };
    module.globals.append(global, Span::UNDEFINED)
}

/// Builds one function; expressions and statements are appended in order.
pub struct Func {
    pub func: Function,
}

impl Func {
    pub fn new(name: &str) -> Self {
        Func {
            func: Function {
                name: name.to_string(),
                params: Vec::new(),
                result: None,
                locals: ir::Arena::new(),
                expressions: ir::ExpressionArena::default(),
                body: Block::default(),
                span: Span::UNDEFINED,
            },
        }
    }

    pub fn param(&mut self, name: &str, ty: Handle<Type>, direction: ParamDirection) -> u32 {
        self.param_with(name, ty, direction, ParamRole::Plain, IoAttrs::default())
    }

    pub fn param_with(
        &mut self,
        name: &str,
        ty: Handle<Type>,
        direction: ParamDirection,
        role: ParamRole,
        io: IoAttrs,
    ) -> u32 {
        self.func.params.push(FunctionParam {
            name: name.to_string(),
            ty,
            direction,
            role,
            io,
            span: Span::UNDEFINED,
        });
        self.func.params.len() as u32 - 1
    }

    pub fn result(&mut self, ty: Handle<Type>, io: IoAttrs) {
        self.func.result = Some(FunctionResult {
            ty,
            io,
            span: Span::UNDEFINED,
        });
    }

    pub fn local(&mut self, name: &str, ty: Handle<Type>) -> Handle<LocalVariable> {
        let var = LocalVariable {
            name: name.to_string(),
            ty,
            is_static: false,
            is_const: false,
        };
        self.func.locals.append(var, Span::UNDEFINED)
    }

    /// Appends an expression of type `ty`.
    pub fn e(&mut self, expr: Expression, ty: Handle<Type>) -> Handle<Expression> {
        self.func
            .expressions
            .append(expr, Some(ty), Span::UNDEFINED)
    }

    /// Appends an expression without a type (calls of void functions).
    pub fn void(&mut self, expr: Expression) -> Handle<Expression> {
        self.func.expressions.append(expr, None, Span::UNDEFINED)
    }

    pub fn float(&mut self, tys: &Tys, v: f64) -> Handle<Expression> {
        self.e(Expression::Literal(ir::Literal::Float(v)), tys.float)
    }

    pub fn int(&mut self, tys: &Tys, v: i64) -> Handle<Expression> {
        self.e(Expression::Literal(ir::Literal::Int(v)), tys.int)
    }

    pub fn lit(&mut self, literal: ir::Literal, ty: Handle<Type>) -> Handle<Expression> {
        self.e(Expression::Literal(literal), ty)
    }

    /// The type an expression was given.
    pub fn ty_of(&self, expr: Handle<Expression>) -> Handle<Type> {
        self.func.expressions.ty(expr).expect("typed expression")
    }

    /// `Param(index)`, typed as the parameter.
    pub fn p(&mut self, index: u32) -> Handle<Expression> {
        let ty = self.func.params[index as usize].ty;
        self.e(Expression::Param(index), ty)
    }

    /// `Local(local)`, typed as the local.
    pub fn l(&mut self, local: Handle<LocalVariable>) -> Handle<Expression> {
        let ty = self.func.locals[local].ty;
        self.e(Expression::Local(local), ty)
    }

    pub fn member(
        &mut self,
        base: Handle<Expression>,
        index: u32,
        ty: Handle<Type>,
    ) -> Handle<Expression> {
        self.e(Expression::Member { base, index }, ty)
    }

    pub fn index(
        &mut self,
        base: Handle<Expression>,
        index: Handle<Expression>,
        ty: Handle<Type>,
    ) -> Handle<Expression> {
        self.e(Expression::Index { base, index }, ty)
    }

    pub fn swizzle(
        &mut self,
        base: Handle<Expression>,
        components: &[u8],
        ty: Handle<Type>,
    ) -> Handle<Expression> {
        let components = components.to_vec();
        self.e(Expression::Swizzle { base, components }, ty)
    }

    /// A unary operation, typed as its operand.
    pub fn unary(&mut self, op: ir::UnaryOp, expr: Handle<Expression>) -> Handle<Expression> {
        let ty = self.ty_of(expr);
        self.e(Expression::Unary { op, expr }, ty)
    }

    pub fn binary(
        &mut self,
        op: ir::BinaryOp,
        left: Handle<Expression>,
        right: Handle<Expression>,
        ty: Handle<Type>,
    ) -> Handle<Expression> {
        self.e(Expression::Binary { op, left, right }, ty)
    }

    /// An increment or decrement, typed as its target.
    pub fn inc_dec(&mut self, op: ir::IncDecOp, target: Handle<Expression>) -> Handle<Expression> {
        let ty = self.ty_of(target);
        self.e(Expression::IncDec { op, target }, ty)
    }

    /// An assignment used as a value, typed as its target.
    pub fn assign(
        &mut self,
        target: Handle<Expression>,
        value: Handle<Expression>,
    ) -> Handle<Expression> {
        let ty = self.ty_of(target);
        self.e(Expression::Assign { target, value }, ty)
    }

    pub fn construct(
        &mut self,
        components: Vec<Handle<Expression>>,
        ty: Handle<Type>,
    ) -> Handle<Expression> {
        self.e(Expression::Construct { components }, ty)
    }

    pub fn call(
        &mut self,
        function: Handle<Function>,
        args: Vec<Handle<Expression>>,
        ty: Option<Handle<Type>>,
    ) -> Handle<Expression> {
        let expr = Expression::Call { function, args };
        self.func.expressions.append(expr, ty, Span::UNDEFINED)
    }

    pub fn intrinsic(
        &mut self,
        fun: ir::Intrinsic,
        args: Vec<Handle<Expression>>,
        ty: Option<Handle<Type>>,
    ) -> Handle<Expression> {
        let expr = Expression::Intrinsic { fun, args };
        self.func.expressions.append(expr, ty, Span::UNDEFINED)
    }

    /// `local = v` for a float local.
    pub fn store_float(&mut self, local: Handle<LocalVariable>, tys: &Tys, v: f64) -> Statement {
        let target = self.l(local);
        let value = self.float(tys, v);
        Statement::Store { target, value }
    }

    pub fn declare(&mut self, local: Handle<LocalVariable>, init: Option<Handle<Expression>>) {
        self.stmt(Statement::Declare { local, init });
    }

    pub fn stmt(&mut self, stmt: Statement) {
        self.func.body.push(stmt, Span::UNDEFINED);
    }

    pub fn finish(self, module: &mut Module) -> Handle<Function> {
        module.functions.append(self.func, Span::UNDEFINED)
    }
}

pub fn block(stmts: Vec<Statement>) -> Block {
    let spans = vec![Span::UNDEFINED; stmts.len()];
    Block { stmts, spans }
}

/// A valid vertex shader: `VsIn`/`VsOut` structs, a constant buffer, a
/// helper with an `out` parameter, and `main` calling it.
pub fn vertex_module() -> Module {
    let mut m = Module::default();
    let t = tys(&mut m);
    let vs_in = strukt(
        &mut m,
        "VsIn",
        vec![
            member("pos", t.float3, sem("POSITION")),
            member("uv", t.float2, sem("TEXCOORD0")),
        ],
    );
    let vs_out = strukt(
        &mut m,
        "VsOut",
        vec![
            member("pos", t.float4, sem("SV_Position")),
            member("uv", t.float2, sem("TEXCOORD0")),
        ],
    );
    let mut matrix = member("mvp", t.float4x4, IoAttrs::default());
    matrix.matrix_layout = Some(ir::MatrixLayout::RowMajor);
    let params = strukt(&mut m, "Params", vec![matrix]);
    let cb = ty(&mut m, TypeInner::ConstantBuffer { inner: params });
    let cb = global(&mut m, "params", cb, AddressSpace::Uniform);
    m.globals.get_mut(cb).binding.register = Some(ir::Register {
        class: ir::RegisterClass::B,
        index: 0,
        space: 0,
    });
    let helper = scale_helper(&mut m, &t);
    vertex_main(&mut m, &t, vs_in, vs_out, cb, helper);
    m
}

/// `fn scale(in float2 uv, out float2 scaled) -> float`.
fn scale_helper(m: &mut Module, t: &Tys) -> Handle<Function> {
    let mut f = Func::new("scale");
    f.param("uv", t.float2, ParamDirection::In);
    f.param("scaled", t.float2, ParamDirection::Out);
    f.result(t.float, IoAttrs::default());
    let out = f.e(Expression::Param(1), t.float2);
    let uv = f.e(Expression::Param(0), t.float2);
    let two = f.float(t, 2.0);
    let product = f.e(
        Expression::Binary {
            op: ir::BinaryOp::Multiply,
            left: uv,
            right: two,
        },
        t.float2,
    );
    f.stmt(Statement::Store {
        target: out,
        value: product,
    });
    let two = f.float(t, 2.0);
    f.stmt(Statement::Return(Some(two)));
    f.finish(m)
}

fn vertex_main(
    m: &mut Module,
    t: &Tys,
    vs_in: Handle<Type>,
    vs_out: Handle<Type>,
    cb: Handle<GlobalVariable>,
    helper: Handle<Function>,
) {
    let mut f = Func::new("main");
    f.param("input", vs_in, ParamDirection::In);
    f.result(vs_out, IoAttrs::default());
    let out = f.local("out", vs_out);
    f.stmt(Statement::Declare {
        local: out,
        init: None,
    });
    // out.pos = mul(params.mvp, float4(input.pos, 1.0));
    let out_ref = f.e(Expression::Local(out), vs_out);
    let target = f.e(
        Expression::Member {
            base: out_ref,
            index: 0,
        },
        t.float4,
    );
    let params = f.e(Expression::Global(cb), m.globals[cb].ty);
    let mvp = f.e(
        Expression::Member {
            base: params,
            index: 0,
        },
        t.float4x4,
    );
    let input = f.e(Expression::Param(0), vs_in);
    let pos = f.e(
        Expression::Member {
            base: input,
            index: 0,
        },
        t.float3,
    );
    let one = f.float(t, 1.0);
    let components = vec![pos, one];
    let pos4 = f.e(Expression::Construct { components }, t.float4);
    let args = vec![mvp, pos4];
    let fun = ir::Intrinsic::Mul;
    let value = f.e(Expression::Intrinsic { fun, args }, t.float4);
    f.stmt(Statement::Store { target, value });
    // scale(input.uv, out.uv);
    let input = f.e(Expression::Param(0), vs_in);
    let uv = f.e(
        Expression::Member {
            base: input,
            index: 1,
        },
        t.float2,
    );
    let out_ref = f.e(Expression::Local(out), vs_out);
    let out_uv = f.e(
        Expression::Member {
            base: out_ref,
            index: 1,
        },
        t.float2,
    );
    let args = vec![uv, out_uv];
    let call = f.e(
        Expression::Call {
            function: helper,
            args,
        },
        t.float,
    );
    f.stmt(Statement::Expr(call));
    let result = f.e(Expression::Local(out), vs_out);
    f.stmt(Statement::Return(Some(result)));
    let function = f.finish(m);
    let attributes = ir::EntryPointAttributes::default();
    entry(m, "main", ir::ShaderStage::Vertex, function, attributes);
}
