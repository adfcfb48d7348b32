//! Modules, globals, functions, expressions, statements and entry points.
//!
//! Statements form a tree; expressions live in a per-function arena and are
//! themselves trees (each expression handle is used by exactly one parent),
//! evaluated where their root is used. The expression arena keeps a type per
//! expression (`None` only for calls of `void` functions).

use crate::{
    Arena, EntryPointAttributes, Handle, InputPrimitive, Intrinsic, IoAttrs, MatrixLayout,
    ShaderStage, Span, Type, UniqueArena,
};

/// A literal value with its scalar type.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Literal {
    Bool(bool),
    /// Any signed integer width; the expression's type says which.
    Int(i64),
    /// Any unsigned integer width.
    Uint(u64),
    /// Any float width.
    Float(f64),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    Negate,
    /// Logical `!` (component-wise on bool vectors).
    LogicalNot,
    BitwiseNot,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    Add,
    Subtract,
    Multiply,
    Divide,
    Modulo,
    Equal,
    NotEqual,
    Less,
    LessEqual,
    Greater,
    GreaterEqual,
    BitwiseAnd,
    BitwiseOr,
    BitwiseXor,
    ShiftLeft,
    ShiftRight,
    /// `&&`: short-circuits on scalars.
    LogicalAnd,
    /// `||`: short-circuits on scalars.
    LogicalOr,
}

impl BinaryOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Add => "+",
            BinaryOp::Subtract => "-",
            BinaryOp::Multiply => "*",
            BinaryOp::Divide => "/",
            BinaryOp::Modulo => "%",
            BinaryOp::Equal => "==",
            BinaryOp::NotEqual => "!=",
            BinaryOp::Less => "<",
            BinaryOp::LessEqual => "<=",
            BinaryOp::Greater => ">",
            BinaryOp::GreaterEqual => ">=",
            BinaryOp::BitwiseAnd => "&",
            BinaryOp::BitwiseOr => "|",
            BinaryOp::BitwiseXor => "^",
            BinaryOp::ShiftLeft => "<<",
            BinaryOp::ShiftRight => ">>",
            BinaryOp::LogicalAnd => "&&",
            BinaryOp::LogicalOr => "||",
        }
    }

    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinaryOp::Equal
                | BinaryOp::NotEqual
                | BinaryOp::Less
                | BinaryOp::LessEqual
                | BinaryOp::Greater
                | BinaryOp::GreaterEqual
        )
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IncDecOp {
    PreIncrement,
    PreDecrement,
    PostIncrement,
    PostDecrement,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Expression {
    Literal(Literal),
    /// A place: a module-scope variable.
    Global(Handle<GlobalVariable>),
    /// A place: a local variable of this function.
    Local(Handle<LocalVariable>),
    /// A place: the parameter at this index.
    Param(u32),
    /// Field `index` of a struct, `cbuffer` or `ConstantBuffer<T>` value.
    Member {
        base: Handle<Expression>,
        index: u32,
    },
    /// Element of an array, vector, matrix (a row), buffer, texture or patch.
    Index {
        base: Handle<Expression>,
        index: Handle<Expression>,
    },
    /// A place: the `T` a pointer of type `T*` points to, `*p` (`p->f` is
    /// a member of it), or with `index` the element `index` places further
    /// on (`p[i]`, the pointee's size apart).
    Deref {
        pointer: Handle<Expression>,
        index: Option<Handle<Expression>>,
    },
    /// Components (0..=3) of a vector or scalar; a place if the base is one
    /// and no component repeats.
    Swizzle {
        base: Handle<Expression>,
        components: Vec<u8>,
    },
    Unary {
        op: UnaryOp,
        expr: Handle<Expression>,
    },
    Binary {
        op: BinaryOp,
        left: Handle<Expression>,
        right: Handle<Expression>,
    },
    /// `c ? a : b`.
    Select {
        condition: Handle<Expression>,
        accept: Handle<Expression>,
        reject: Handle<Expression>,
    },
    /// A value conversion to the expression's type: element-wise numeric
    /// conversion, scalar-to-vector/matrix splat, vector/matrix truncation,
    /// the read of a whole `ConstantBuffer<T>`/`TextureBuffer<T>` as a `T`,
    /// or a pointer cast: pointer to pointer (`(T*)p`), 64-bit integer to
    /// pointer and back.
    Convert {
        expr: Handle<Expression>,
    },
    /// Builds a value of the expression's type from components: constructors
    /// (`float4(v, 1)`) and initializer lists (`{1, 2}`), flattened to the
    /// type's scalar or member order as HLSL does.
    Construct {
        components: Vec<Handle<Expression>>,
    },
    Call {
        function: Handle<Function>,
        args: Vec<Handle<Expression>>,
    },
    /// A built-in function; methods take their object as the first argument.
    Intrinsic {
        fun: Intrinsic,
        args: Vec<Handle<Expression>>,
    },
    /// An assignment used as a value (`a = b = c`); yields the stored value.
    Assign {
        target: Handle<Expression>,
        value: Handle<Expression>,
    },
    IncDec {
        op: IncDecOp,
        target: Handle<Expression>,
    },
}

/// The expressions of one function (or of the module's initializers) with
/// their types.
#[derive(Clone, Debug, Default)]
pub struct ExpressionArena {
    exprs: Arena<Expression>,
    types: Vec<Option<Handle<Type>>>,
}

impl ExpressionArena {
    /// Makes room for `additional` more expressions.
    pub fn reserve(&mut self, additional: usize) {
        self.exprs.reserve(additional);
        self.types.reserve(additional);
    }

    pub fn append(
        &mut self,
        expr: Expression,
        ty: Option<Handle<Type>>,
        span: Span,
    ) -> Handle<Expression> {
        self.types.push(ty);
        self.exprs.append(expr, span)
    }

    /// The type of `expr`; `None` for calls of functions without a result.
    pub fn ty(&self, expr: Handle<Expression>) -> Option<Handle<Type>> {
        self.types.get(expr.index()).copied().flatten()
    }

    pub fn span(&self, expr: Handle<Expression>) -> Span {
        self.exprs.span(expr)
    }

    pub fn len(&self) -> usize {
        self.exprs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.exprs.is_empty()
    }

    pub fn contains(&self, expr: Handle<Expression>) -> bool {
        self.exprs.contains(expr)
    }

    pub fn get_mut(&mut self, expr: Handle<Expression>) -> &mut Expression {
        self.exprs.get_mut(expr)
    }

    /// Replaces expression `expr` and its type in place, keeping its span
    /// (a legalizer turning a parameter place into a global one).
    pub fn set(&mut self, expr: Handle<Expression>, value: Expression, ty: Option<Handle<Type>>) {
        *self.exprs.get_mut(expr) = value;
        if let Some(slot) = self.types.get_mut(expr.index()) {
            *slot = ty;
        }
    }

    pub fn iter(&self) -> impl ExactSizeIterator<Item = (Handle<Expression>, &Expression)> + '_ {
        self.exprs.iter()
    }

    /// Gives every expression of type `from` the type `to` (a legalizer
    /// turning an `OutputPatch<T, N>` into the array `T[N]` it reads as).
    pub fn replace_type(&mut self, from: Handle<Type>, to: Handle<Type>) {
        for ty in self.types.iter_mut().flatten() {
            if *ty == from {
                *ty = to;
            }
        }
    }
}

impl std::ops::Index<Handle<Expression>> for ExpressionArena {
    type Output = Expression;
    fn index(&self, handle: Handle<Expression>) -> &Expression {
        &self.exprs[handle]
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Block {
    pub stmts: Vec<Statement>,
    /// One span per statement.
    pub spans: Vec<Span>,
}

impl Block {
    /// Makes room for `additional` more statements.
    pub fn reserve(&mut self, additional: usize) {
        self.stmts.reserve(additional);
        self.spans.reserve(additional);
    }

    pub fn push(&mut self, stmt: Statement, span: Span) {
        self.stmts.push(stmt);
        self.spans.push(span);
    }

    pub fn is_empty(&self) -> bool {
        self.stmts.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = (&Statement, Span)> + '_ {
        self.stmts.iter().zip(self.spans.iter().copied())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SwitchValue {
    Int(i64),
    Default,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SwitchCase {
    /// All labels that lead to this body (`case 1: case 2:`).
    pub values: Vec<SwitchValue>,
    pub body: Block,
    /// Whether control falls into the next case at the end of `body`.
    pub fall_through: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Statement {
    /// A local variable comes into scope here, with its initializer.
    Declare {
        local: Handle<LocalVariable>,
        init: Option<Handle<Expression>>,
    },
    /// `target = value`; compound assignments are lowered to this form.
    Store {
        target: Handle<Expression>,
        value: Handle<Expression>,
    },
    /// An expression evaluated for its effect (calls, `i++`).
    Expr(Handle<Expression>),
    Block(Block),
    /// The branches are boxed, as are `For`'s blocks: a statement is as
    /// large as its largest variant, and most are a store of a few words.
    If {
        condition: Handle<Expression>,
        accept: Box<Block>,
        reject: Box<Block>,
    },
    /// `for (init; condition; update) body`.
    For {
        init: Box<Block>,
        condition: Option<Handle<Expression>>,
        update: Box<Block>,
        body: Box<Block>,
    },
    While {
        condition: Handle<Expression>,
        body: Block,
    },
    DoWhile {
        body: Block,
        condition: Handle<Expression>,
    },
    Switch {
        selector: Handle<Expression>,
        cases: Vec<SwitchCase>,
    },
    Break,
    Continue,
    Return(Option<Handle<Expression>>),
    /// `discard` in fragment shaders.
    Discard,
    /// Geometry shaders, after legalization: the output variables of
    /// `stream` form a vertex (GLSL `EmitVertex`/`EmitStreamVertex`, SPIR-V
    /// `OpEmitVertex`/`OpEmitStreamVertex`). The front end never makes it:
    /// `stream.Append(v)` is an intrinsic until the legalizer rewrites it.
    EmitVertex {
        stream: u32,
    },
    /// Geometry shaders, after legalization: ends the strip of `stream`
    /// (`stream.RestartStrip()`).
    EndPrimitive {
        stream: u32,
    },
    /// Hull shaders, after legalization: every invocation of the patch has
    /// written its control point before any goes on (GLSL `barrier()`,
    /// SPIR-V `OpControlBarrier Workgroup Invocation None`). The
    /// patch-constant splice (B7) puts it before the patch-constant call.
    PatchBarrier,
    /// Debug printf: `format` (a string literal's text, escapes resolved)
    /// with numeric scalar or vector arguments, one per conversion of the
    /// format ([`crate::printf`]); SPIR-V `NonSemantic.DebugPrintf`, GLSL
    /// `debugPrintfEXT`, CUDA `printf`.
    Printf {
        format: String,
        args: Vec<Handle<Expression>>,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct LocalVariable {
    pub name: String,
    pub ty: Handle<Type>,
    /// `static` locals keep their value across calls.
    pub is_static: bool,
    pub is_const: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParamDirection {
    In,
    Out,
    InOut,
}

/// Extra role of an entry-point parameter beyond its type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParamRole {
    Plain,
    /// `uniform` entry-point parameter.
    Uniform,
    /// `in payload T p` of mesh shaders.
    Payload,
    /// Geometry input array with its primitive qualifier.
    GeometryInput(InputPrimitive),
}

#[derive(Clone, Debug, PartialEq)]
pub struct FunctionParam {
    pub name: String,
    pub ty: Handle<Type>,
    pub direction: ParamDirection,
    pub role: ParamRole,
    pub io: IoAttrs,
    /// The parameter's name in the source; diagnostics about it point here.
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FunctionResult {
    pub ty: Handle<Type>,
    pub io: IoAttrs,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Function {
    pub name: String,
    pub params: Vec<FunctionParam>,
    pub result: Option<FunctionResult>,
    pub locals: Arena<LocalVariable>,
    pub expressions: ExpressionArena,
    pub body: Block,
    pub span: Span,
}

/// Where a module-scope variable lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AddressSpace {
    /// `static`: private to the invocation.
    Private,
    /// `static const`: an immutable constant.
    Constant,
    /// `groupshared`.
    Workgroup,
    /// Uniform data: resources, `cbuffer` blocks, and plain non-static globals
    /// (HLSL's `$Globals`).
    Uniform,
    /// A stage input made by legalization (a flattened varying or a builtin);
    /// its `io` says which.
    Input,
    /// A stage output made by legalization; its `io` says which.
    Output,
    /// The payload an amplification shader hands its mesh shaders, made by
    /// legalization from the `groupshared` argument of `DispatchMesh` and
    /// from a mesh shader's `in payload` parameter (GLSL
    /// `taskPayloadSharedEXT`, SPIR-V `TaskPayloadWorkgroupEXT`).
    TaskPayload,
    /// Ray-tracing storage made by legalization (payloads, callable data,
    /// hit attributes); its `io`, when present, holds the `Location`.
    RayTracing(RayStorage),
}

/// The ray-tracing storage classes (GLSL `rayPayloadEXT` ..., SPIR-V
/// `RayPayloadKHR` ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RayStorage {
    /// The payload a `TraceRay` call passes (`rayPayloadEXT`).
    RayPayload,
    /// The payload a hit or miss shader receives (`rayPayloadInEXT`).
    IncomingRayPayload,
    /// The data a `CallShader` call passes (`callableDataEXT`).
    CallableData,
    /// The data a callable shader receives (`callableDataInEXT`).
    IncomingCallableData,
    /// The attributes of a hit (`hitAttributeEXT`): written by
    /// `ReportHit`, read by hit shaders.
    HitAttribute,
}

impl RayStorage {
    /// The GLSL storage qualifier.
    pub fn glsl_name(self) -> &'static str {
        match self {
            RayStorage::RayPayload => "rayPayloadEXT",
            RayStorage::IncomingRayPayload => "rayPayloadInEXT",
            RayStorage::CallableData => "callableDataEXT",
            RayStorage::IncomingCallableData => "callableDataInEXT",
            RayStorage::HitAttribute => "hitAttributeEXT",
        }
    }
}

/// The register class of `register(t0)`, `register(s1)`, `register(u2)`, `register(b3)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RegisterClass {
    T,
    S,
    U,
    B,
    /// `c` registers of plain uniforms.
    C,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Register {
    pub class: RegisterClass,
    pub index: u32,
    pub space: u32,
}

/// Binding attributes written on a resource declaration.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ResourceBinding {
    /// `: register(t0, space1)`.
    pub register: Option<Register>,
    /// `[[vk::binding(binding, set)]]`.
    pub vk_binding: Option<(u32, u32)>,
    /// A descriptor heap the front end made for `DescriptorHandle<T>`
    /// (an unsized array of `T` that handles index): its binding in the
    /// descriptor set no other resource uses (Vulkan's bindless heap).
    pub descriptor_heap: Option<u32>,
    /// The ordinal (declaration order) of the `ParameterBlock` this global
    /// is or came from: a parameter block takes a descriptor set of its
    /// own, its data buffer and the resources split out of it numbered
    /// from binding 0 there.
    pub parameter_block: Option<u32>,
    /// `[[vk::input_attachment_index(n)]]` on a subpass input: the render
    /// pass input attachment it reads (0 when not written, as the
    /// reference defaults it).
    pub input_attachment_index: Option<u32>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct GlobalVariable {
    pub name: String,
    pub ty: Handle<Type>,
    pub space: AddressSpace,
    pub binding: ResourceBinding,
    pub matrix_layout: Option<MatrixLayout>,
    /// Initializer, in [`Module::global_expressions`].
    pub init: Option<Handle<Expression>>,
    /// `globallycoherent` on a read-write resource.
    pub globally_coherent: bool,
    /// For `Input`/`Output` globals: the builtin or location (and
    /// interpolation) legalization gave them. `None` for every other space.
    pub io: Option<IoAttrs>,
}

#[derive(Clone, Debug)]
pub struct EntryPoint {
    pub name: String,
    pub stage: ShaderStage,
    pub function: Handle<Function>,
    pub attributes: EntryPointAttributes,
    pub span: Span,
}

#[derive(Clone, Debug, Default)]
pub struct Module {
    pub types: UniqueArena<Type>,
    pub globals: Arena<GlobalVariable>,
    /// Initializer expressions of globals. They may refer to other globals
    /// and call functions, but have no locals or parameters.
    pub global_expressions: ExpressionArena,
    /// Callees come before their callers.
    pub functions: Arena<Function>,
    pub entry_points: Vec<EntryPoint>,
}
