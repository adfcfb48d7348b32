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
    /// `true` or `false`.
    Bool(bool),
    /// Any signed integer width; the expression's type says which.
    Int(i64),
    /// Any unsigned integer width.
    Uint(u64),
    /// Any float width.
    Float(f64),
}

/// A unary operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    /// Arithmetic `-`.
    Negate,
    /// Logical `!` (component-wise on bool vectors).
    LogicalNot,
    /// `~`.
    BitwiseNot,
}

/// A binary operator, component-wise on vectors and matrices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    /// `+`.
    Add,
    /// `-`.
    Subtract,
    /// `*`, component-wise (matrix products are `mul`, an intrinsic).
    Multiply,
    /// `/`.
    Divide,
    /// `%`.
    Modulo,
    /// `==`.
    Equal,
    /// `!=`.
    NotEqual,
    /// `<`.
    Less,
    /// `<=`.
    LessEqual,
    /// `>`.
    Greater,
    /// `>=`.
    GreaterEqual,
    /// `&`.
    BitwiseAnd,
    /// `|`.
    BitwiseOr,
    /// `^`.
    BitwiseXor,
    /// `<<`.
    ShiftLeft,
    /// `>>`: arithmetic on signed, logical on unsigned integers.
    ShiftRight,
    /// `&&`: short-circuits on scalars.
    LogicalAnd,
    /// `||`: short-circuits on scalars.
    LogicalOr,
}

impl BinaryOp {
    /// The HLSL operator symbol (`+`, `<=`, `&&`).
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

    /// Whether the operator compares (`==`, `!=`, `<`, `<=`, `>`, `>=`), giving `bool`s.
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

/// An increment or decrement operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IncDecOp {
    /// `++x`: yields the new value.
    PreIncrement,
    /// `--x`: yields the new value.
    PreDecrement,
    /// `x++`: yields the old value.
    PostIncrement,
    /// `x--`: yields the old value.
    PostDecrement,
}

/// An expression; its operands are handles into the same [`ExpressionArena`], which also records
/// its type.
#[derive(Clone, Debug, PartialEq)]
pub enum Expression {
    /// A literal of the expression's type.
    Literal(Literal),
    /// A place: a module-scope variable.
    Global(Handle<GlobalVariable>),
    /// A place: a local variable of this function.
    Local(Handle<LocalVariable>),
    /// A place: the parameter at this index.
    Param(u32),
    /// Field `index` of a struct, `cbuffer` or `ConstantBuffer<T>` value.
    Member {
        /// The struct or block value.
        base: Handle<Expression>,
        /// The member's index.
        index: u32,
    },
    /// Element of an array, vector, matrix (a row), buffer, texture or patch.
    Index {
        /// The indexed value.
        base: Handle<Expression>,
        /// The index, an integer.
        index: Handle<Expression>,
    },
    /// A place: the `T` a pointer of type `T*` points to, `*p` (`p->f` is
    /// a member of it), or with `index` the element `index` places further
    /// on (`p[i]`, the pointee's size apart).
    Deref {
        /// The pointer.
        pointer: Handle<Expression>,
        /// The element offset; `None` for `*p` itself.
        index: Option<Handle<Expression>>,
    },
    /// Components (0..=3) of a vector or scalar; a place if the base is one
    /// and no component repeats.
    Swizzle {
        /// The vector or scalar.
        base: Handle<Expression>,
        /// The components, in order: one to four of 0 (`x`) to 3 (`w`).
        components: Vec<u8>,
    },
    /// A unary operation.
    Unary {
        /// The operator.
        op: UnaryOp,
        /// The operand.
        expr: Handle<Expression>,
    },
    /// A binary operation.
    Binary {
        /// The operator.
        op: BinaryOp,
        /// The left operand.
        left: Handle<Expression>,
        /// The right operand.
        right: Handle<Expression>,
    },
    /// `c ? a : b`.
    Select {
        /// The condition (`bool`, or a `bool` vector choosing per component).
        condition: Handle<Expression>,
        /// The value where the condition is true.
        accept: Handle<Expression>,
        /// The value where it is false.
        reject: Handle<Expression>,
    },
    /// A value conversion to the expression's type: element-wise numeric
    /// conversion, scalar-to-vector/matrix splat, vector/matrix truncation,
    /// the read of a whole `ConstantBuffer<T>`/`TextureBuffer<T>` as a `T`,
    /// or a pointer cast: pointer to pointer (`(T*)p`), 64-bit integer to
    /// pointer and back.
    Convert {
        /// The value converted.
        expr: Handle<Expression>,
    },
    /// Builds a value of the expression's type from components: constructors
    /// (`float4(v, 1)`) and initializer lists (`{1, 2}`), flattened to the
    /// type's scalar or member order as HLSL does.
    Construct {
        /// The components, in order.
        components: Vec<Handle<Expression>>,
    },
    /// A call of a function of the module; its type is the function's result type, `None` without
    /// one.
    Call {
        /// The callee.
        function: Handle<Function>,
        /// One argument per parameter, in order; those of `out` and `inout` parameters are places.
        args: Vec<Handle<Expression>>,
    },
    /// A built-in function; methods take their object as the first argument.
    Intrinsic {
        /// Which built-in.
        fun: Intrinsic,
        /// The arguments, the method's object first.
        args: Vec<Handle<Expression>>,
    },
    /// An assignment used as a value (`a = b = c`); yields the stored value.
    Assign {
        /// The place assigned (see `Statement::Store`).
        target: Handle<Expression>,
        /// The value stored.
        value: Handle<Expression>,
    },
    /// `++` or `--` on a place; yields the new or old value as [`IncDecOp`] says.
    IncDec {
        /// Which operator.
        op: IncDecOp,
        /// The place incremented or decremented.
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

    /// Adds `expr` with its type (`None` only for calls of functions without a result) and source
    /// span; returns its handle.
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

    /// The source span of `expr`.
    pub fn span(&self, expr: Handle<Expression>) -> Span {
        self.exprs.span(expr)
    }

    /// The number of expressions.
    pub fn len(&self) -> usize {
        self.exprs.len()
    }

    /// Whether the arena holds no expression.
    pub fn is_empty(&self) -> bool {
        self.exprs.is_empty()
    }

    /// Whether `expr` addresses an expression of this arena.
    pub fn contains(&self, expr: Handle<Expression>) -> bool {
        self.exprs.contains(expr)
    }

    /// The expression behind `expr`, mutably (its type stays).
    ///
    /// # Panics
    ///
    /// If `expr` is out of range.
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

    /// The expressions with their handles, in handle (creation) order.
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

/// A sequence of statements, each with its span.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Block {
    /// The statements, in execution order.
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

    /// Appends `stmt` with its span.
    pub fn push(&mut self, stmt: Statement, span: Span) {
        self.stmts.push(stmt);
        self.spans.push(span);
    }

    /// Whether the block has no statement.
    pub fn is_empty(&self) -> bool {
        self.stmts.is_empty()
    }

    /// The statements with their spans, in order.
    pub fn iter(&self) -> impl Iterator<Item = (&Statement, Span)> + '_ {
        self.stmts.iter().zip(self.spans.iter().copied())
    }
}

/// A `switch` case label.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SwitchValue {
    /// `case N:`.
    Int(i64),
    /// `default:`.
    Default,
}

/// One body of a `switch` and the labels that lead to it.
#[derive(Clone, Debug, PartialEq)]
pub struct SwitchCase {
    /// All labels that lead to this body (`case 1: case 2:`).
    pub values: Vec<SwitchValue>,
    /// The statements of the case.
    pub body: Block,
    /// Whether control falls into the next case at the end of `body`.
    pub fall_through: bool,
}

/// A statement of a function body.
#[derive(Clone, Debug, PartialEq)]
pub enum Statement {
    /// A local variable comes into scope here, with its initializer.
    Declare {
        /// The local declared.
        local: Handle<LocalVariable>,
        /// Its initializer; `None` without one.
        init: Option<Handle<Expression>>,
    },
    /// `target = value`; compound assignments are lowered to this form.
    Store {
        /// The place written: a variable, parameter, member, element, swizzle or pointee.
        target: Handle<Expression>,
        /// The value written.
        value: Handle<Expression>,
    },
    /// An expression evaluated for its effect (calls, `i++`).
    Expr(Handle<Expression>),
    /// A nested block (`{ ... }`).
    Block(Block),
    /// The branches are boxed, as are `For`'s blocks: a statement is as
    /// large as its largest variant, and most are a store of a few words.
    If {
        /// The condition, a `bool`.
        condition: Handle<Expression>,
        /// Run when it is true.
        accept: Box<Block>,
        /// Run when it is false (empty without `else`).
        reject: Box<Block>,
    },
    /// `for (init; condition; update) body`.
    For {
        /// Run once before the loop.
        init: Box<Block>,
        /// Checked before each iteration; `None` loops until `break` or `return`.
        condition: Option<Handle<Expression>>,
        /// Run after each iteration (and on `continue`).
        update: Box<Block>,
        /// The loop body.
        body: Box<Block>,
    },
    /// `while (condition) body`.
    While {
        /// Checked before each iteration.
        condition: Handle<Expression>,
        /// The loop body.
        body: Block,
    },
    /// `do body while (condition);`.
    DoWhile {
        /// The loop body, run at least once.
        body: Block,
        /// Checked after each iteration.
        condition: Handle<Expression>,
    },
    /// `switch (selector) { cases }`.
    Switch {
        /// The integer value switched on.
        selector: Handle<Expression>,
        /// The cases, in source order.
        cases: Vec<SwitchCase>,
    },
    /// `break`: leaves the innermost loop or switch.
    Break,
    /// `continue`: the next iteration of the innermost loop.
    Continue,
    /// `return`, with the value for a function with a result.
    Return(Option<Handle<Expression>>),
    /// `discard` in fragment shaders.
    Discard,
    /// Geometry shaders, after legalization: the output variables of
    /// `stream` form a vertex (GLSL `EmitVertex`/`EmitStreamVertex`, SPIR-V
    /// `OpEmitVertex`/`OpEmitStreamVertex`). The front end never makes it:
    /// `stream.Append(v)` is an intrinsic until the legalizer rewrites it.
    EmitVertex {
        /// The output stream (0 to 3).
        stream: u32,
    },
    /// Geometry shaders, after legalization: ends the strip of `stream`
    /// (`stream.RestartStrip()`).
    EndPrimitive {
        /// The output stream (0 to 3).
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
        /// The format string.
        format: String,
        /// The values, one per conversion.
        args: Vec<Handle<Expression>>,
    },
}

/// A local variable of a function, declared where a `Statement::Declare` names it.
#[derive(Clone, Debug, PartialEq)]
pub struct LocalVariable {
    /// The name as written (or made by a legalizer).
    pub name: String,
    /// Its type.
    pub ty: Handle<Type>,
    /// `static` locals keep their value across calls.
    pub is_static: bool,
    /// `const`: assigned only by its initializer.
    pub is_const: bool,
}

/// How a parameter passes its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParamDirection {
    /// `in` (the default): copied in.
    In,
    /// `out`: copied out at return; the argument is a place.
    Out,
    /// `inout`: copied in and out; the argument is a place.
    InOut,
}

/// Extra role of an entry-point parameter beyond its type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParamRole {
    /// An ordinary parameter.
    Plain,
    /// `uniform` entry-point parameter.
    Uniform,
    /// `in payload T p` of mesh shaders.
    Payload,
    /// Geometry input array with its primitive qualifier.
    GeometryInput(InputPrimitive),
}

/// A parameter of a function.
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionParam {
    /// The name as written.
    pub name: String,
    /// Its type.
    pub ty: Handle<Type>,
    /// `in`, `out` or `inout`.
    pub direction: ParamDirection,
    /// What else it is on an entry point (`uniform`, a payload, a geometry input).
    pub role: ParamRole,
    /// Its semantic and interpolation when it is an entry-point varying (or a struct of them).
    pub io: IoAttrs,
    /// The parameter's name in the source; diagnostics about it point here.
    pub span: Span,
}

/// The result of a function.
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionResult {
    /// Its type.
    pub ty: Handle<Type>,
    /// Its semantic when the function is an entry point (`: SV_Target`).
    pub io: IoAttrs,
    /// The return type in the source.
    pub span: Span,
}

/// A function: signature, locals, expressions and body.
#[derive(Clone, Debug)]
pub struct Function {
    /// The name as written (or made by a legalizer).
    pub name: String,
    /// The parameters, in order.
    pub params: Vec<FunctionParam>,
    /// The result; `None` for `void`.
    pub result: Option<FunctionResult>,
    /// The local variables.
    pub locals: Arena<LocalVariable>,
    /// Every expression of the body, with its type.
    pub expressions: ExpressionArena,
    /// The body.
    pub body: Block,
    /// The declaration in the source.
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
    /// `t`: shader resource views (textures, read-only buffers).
    T,
    /// `s`: samplers.
    S,
    /// `u`: unordered access views (read-write resources).
    U,
    /// `b`: constant buffers.
    B,
    /// `c` registers of plain uniforms.
    C,
}

/// A `register(...)` binding as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Register {
    /// The register class (the letter).
    pub class: RegisterClass,
    /// The register number (`t3` is 3).
    pub index: u32,
    /// The register space (`space1` is 1); 0 when not written.
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

/// A module-scope variable: a resource, a constant, a `static` or `groupshared` variable, or, after
/// legalization, a stage input or output.
#[derive(Clone, Debug, PartialEq)]
pub struct GlobalVariable {
    /// The name as written (or made by a legalizer).
    pub name: String,
    /// Its type.
    pub ty: Handle<Type>,
    /// Where it lives.
    pub space: AddressSpace,
    /// Its binding attributes (resources).
    pub binding: ResourceBinding,
    /// `row_major`/`column_major` on a matrix global; `None` if not written.
    pub matrix_layout: Option<MatrixLayout>,
    /// Initializer, in [`Module::global_expressions`].
    pub init: Option<Handle<Expression>>,
    /// `globallycoherent` on a read-write resource.
    pub globally_coherent: bool,
    /// For `Input`/`Output` globals: the builtin or location (and
    /// interpolation) legalization gave them. `None` for every other space.
    pub io: Option<IoAttrs>,
}

/// An entry point: a function of the module run as a stage.
#[derive(Clone, Debug)]
pub struct EntryPoint {
    /// The entry point's name (as `-entry` names it).
    pub name: String,
    /// The stage it runs in.
    pub stage: ShaderStage,
    /// Its function.
    pub function: Handle<Function>,
    /// Its stage attributes (`[numthreads]`, `[domain]` ...).
    pub attributes: EntryPointAttributes,
    /// The function's name in the source.
    pub span: Span,
}

/// A whole shader module: types, globals, functions and entry points.
#[derive(Clone, Debug, Default)]
pub struct Module {
    /// Every type, interned: two handles are equal exactly when the types are.
    pub types: UniqueArena<Type>,
    /// The module-scope variables.
    pub globals: Arena<GlobalVariable>,
    /// Initializer expressions of globals. They may refer to other globals
    /// and call functions, but have no locals or parameters.
    pub global_expressions: ExpressionArena,
    /// Callees come before their callers.
    pub functions: Arena<Function>,
    /// The entry points; the legalizers take an index into this list.
    pub entry_points: Vec<EntryPoint>,
}
