//! The syntax tree the parser builds and the checker consumes.
//!
//! Untyped and close to the source: names are strings, types are written
//! type expressions, and every node carries its [`Span`]. Nodes the parser
//! could not read are replaced by `Error` variants after a diagnostic, so the
//! checker can keep going without reporting the same problem twice.

use legalis_ir::Span;

#[derive(Clone, Debug, PartialEq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// `[name(args)]` or `[[ns::name(args)]]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Attribute {
    /// Full name with namespace, as written (`numthreads`, `vk::binding`).
    pub name: String,
    pub args: Vec<Expr>,
    pub span: Span,
}

/// A written type: `float4`, `vector<float, 3>`, `Texture2D<float4>`,
/// `InputPatch<VsOut, 3>`, a struct name. Arrays are in declarators, not here.
#[derive(Clone, Debug, PartialEq)]
pub struct TypeExpr {
    /// The base name (`float4`, `vector`, `Texture2D`, `VsOut`).
    pub name: String,
    /// Generic arguments between `<` and `>`.
    pub args: Vec<GenericArg>,
    /// Modifiers written before the type that belong to it (`unorm`, `snorm`,
    /// `row_major`, `column_major`, `const`).
    pub modifiers: Vec<Modifier>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum GenericArg {
    Type(TypeExpr),
    /// A value argument such as the `3` of `vector<float, 3>`.
    Value(Expr),
}

/// Declaration modifiers and qualifiers, as keywords written before a declaration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModifierKind {
    Static,
    Const,
    Uniform,
    Extern,
    Volatile,
    Inline,
    Precise,
    GroupShared,
    /// `globallycoherent` on a read-write resource.
    GloballyCoherent,
    In,
    Out,
    InOut,
    // Interpolation.
    Linear,
    NoInterpolation,
    NoPerspective,
    Centroid,
    Sample,
    // Matrix layout.
    RowMajor,
    ColumnMajor,
    // Resource element normalisation.
    Unorm,
    Snorm,
    // Geometry input primitive.
    Point,
    Line,
    Triangle,
    LineAdj,
    TriangleAdj,
    // Mesh outputs and payloads.
    Vertices,
    Indices,
    Primitives,
    Payload,
    /// Slang's `constexpr` on a parameter: its argument must be a
    /// compile-time constant.
    ConstExpr,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Modifier {
    pub kind: ModifierKind,
    pub span: Span,
}

/// What follows a `:` after a declarator.
#[derive(Clone, Debug, PartialEq)]
pub enum PostAnnotation {
    /// `: TEXCOORD0`, kept as written.
    Semantic(Ident),
    /// `: register(t0, space1)`; `class` is the letter, `index` the number.
    Register {
        class: char,
        index: u32,
        space: Option<u32>,
        span: Span,
    },
    /// `: packoffset(c0.x)`, kept as text.
    PackOffset { text: String, span: Span },
    /// A ray-payload access qualifier on a payload field,
    /// `: read(caller, closesthit)` or `: write(miss)`; the stage names
    /// were checked by the parser (`anyhit`, `closesthit`, `miss`, `caller`).
    PayloadAccess {
        write: bool,
        stages: Vec<Ident>,
        span: Span,
    },
}

/// One declared name with array dimensions, annotations and initializer:
/// `uv[2] : TEXCOORD0 = {...}`.
#[derive(Clone, Debug, PartialEq)]
pub struct Declarator {
    pub name: Ident,
    /// One entry per `[...]`; `None` for `[]`.
    pub array_dims: Vec<Option<Expr>>,
    pub annotations: Vec<PostAnnotation>,
    pub init: Option<Expr>,
    pub span: Span,
}

/// The type name of a Slang `let`/`var` declaration written without a type:
/// the checker takes the initializer's type. Not a valid identifier, so no
/// user type can collide with it.
pub const INFERRED_TYPE: &str = "<inferred>";

/// The type name of an array type written as a generic argument
/// (`ConstantBuffer<uint64_t[1000]>`): the first argument is the element
/// type, each later one a dimension's size, outermost first. Not a valid
/// identifier, so no user type can collide with it.
pub const ARRAY_TYPE: &str = "<array>";

/// The type name of a Slang pointer type `T*`: the one argument is `T`
/// (`void` for `void*`). Not a valid identifier either.
pub const POINTER_TYPE: &str = "<pointer>";

/// The type name prefix of a struct's type alias named through the struct,
/// `S<float, 3>.VecT`: the name is this prefix and `VecT`, the one argument
/// the struct. Not a valid identifier either.
pub const MEMBER_TYPE: &str = "<member>.";

/// `modifiers type declarator, declarator;` at any scope.
#[derive(Clone, Debug, PartialEq)]
pub struct VarDecl {
    pub attributes: Vec<Attribute>,
    pub modifiers: Vec<Modifier>,
    pub ty: TypeExpr,
    pub declarators: Vec<Declarator>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct StructDecl {
    /// Attributes written on the struct (`[raypayload]`).
    pub attributes: Vec<Attribute>,
    pub name: Ident,
    /// Fields; nested struct declarations are hoisted into `Item::Struct` by the parser.
    pub fields: Vec<VarDecl>,
    /// Member functions (HLSL 2021 / Slang); `static` ones have no `this`.
    pub methods: Vec<FunctionDecl>,
    /// The interfaces after `:` (`struct S : IFoo, IBar`).
    pub conformances: Vec<TypeExpr>,
    /// Generic parameters (`struct Pair<T>`, `struct Buf<let N : int>`);
    /// empty for an ordinary struct.
    pub generics: Vec<GenericParam>,
    /// Type alias members (`typealias VecT = vector<T, N>;`): the bare
    /// name inside the struct, `S.VecT` or `S::VecT` outside.
    pub aliases: Vec<TypeAlias>,
    pub span: Span,
}

/// One generic parameter of a function or struct (Slang), with the
/// constraints of its `where` clauses merged in.
#[derive(Clone, Debug, PartialEq)]
pub struct GenericParam {
    pub name: Ident,
    pub kind: GenericParamKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum GenericParamKind {
    /// `T`, `T : IFoo`: a type, conforming to every interface listed.
    Type { constraints: Vec<TypeExpr> },
    /// `let N : int` or `int N`: a compile-time constant of type `ty`.
    Value { ty: TypeExpr },
}

/// `interface IFoo : IBase { float get(); }`: method requirements a
/// conforming struct must implement (Slang).
#[derive(Clone, Debug, PartialEq)]
pub struct InterfaceDecl {
    pub attributes: Vec<Attribute>,
    pub name: Ident,
    /// Interfaces it inherits the requirements of.
    pub bases: Vec<TypeExpr>,
    /// The required methods (prototypes).
    pub methods: Vec<FunctionDecl>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub attributes: Vec<Attribute>,
    pub modifiers: Vec<Modifier>,
    pub ty: TypeExpr,
    /// Name, array dimensions, semantic and default value.
    pub declarator: Declarator,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FunctionDecl {
    pub attributes: Vec<Attribute>,
    pub modifiers: Vec<Modifier>,
    /// `void` is spelled as a type named `void`.
    pub return_type: TypeExpr,
    pub name: Ident,
    /// Generic parameters (`T twice<T : IFoo>(T x)`); empty for an
    /// ordinary function.
    pub generics: Vec<GenericParam>,
    pub params: Vec<Param>,
    /// Annotations after the parameter list (`: SV_Target`).
    pub return_annotations: Vec<PostAnnotation>,
    /// `None` for a prototype (`float f(float x);`).
    pub body: Option<Block>,
    pub span: Span,
}

/// `cbuffer Name : register(b0) { fields }` (and `tbuffer`).
#[derive(Clone, Debug, PartialEq)]
pub struct BufferBlock {
    pub attributes: Vec<Attribute>,
    pub is_tbuffer: bool,
    pub name: Ident,
    pub annotations: Vec<PostAnnotation>,
    pub fields: Vec<VarDecl>,
    pub span: Span,
}

/// One qualifier of a GLSL `layout(...)`: `std430`, `binding = 2`.
#[derive(Clone, Debug, PartialEq)]
pub struct LayoutQualifier {
    pub name: Ident,
    pub value: Option<Expr>,
    pub span: Span,
}

/// GLSL `layout(std430, binding = 0) buffer Name { fields } instance;`, a
/// storage block (`-allow-glsl`). Without an instance name the fields are
/// reached by their bare names.
#[derive(Clone, Debug, PartialEq)]
pub struct GlslBufferBlock {
    pub layout: Vec<LayoutQualifier>,
    pub name: Ident,
    pub fields: Vec<VarDecl>,
    pub instance: Option<Ident>,
    pub span: Span,
}

/// GLSL `layout(derivative_group_quadsNV) in;` at module scope (`-allow-glsl`).
#[derive(Clone, Debug, PartialEq)]
pub struct GlslLayoutIn {
    pub layout: Vec<LayoutQualifier>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct EnumDecl {
    pub name: Ident,
    /// `enum class`: members only reachable qualified.
    pub scoped: bool,
    /// Underlying type after `:`, if written.
    pub base: Option<TypeExpr>,
    pub members: Vec<(Ident, Option<Expr>)>,
    pub span: Span,
}

/// `typedef T Name;` and `typealias Name = T;` (array dimensions allowed on typedef).
#[derive(Clone, Debug, PartialEq)]
pub struct TypeAlias {
    pub name: Ident,
    pub ty: TypeExpr,
    pub array_dims: Vec<Option<Expr>>,
    pub span: Span,
}

/// `namespace N { items }`; items inside are named `N::item` from outside.
#[derive(Clone, Debug, PartialEq)]
pub struct NamespaceDecl {
    pub name: Ident,
    pub items: Vec<Item>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    Namespace(NamespaceDecl),
    Struct(StructDecl),
    Function(FunctionDecl),
    Var(VarDecl),
    Buffer(BufferBlock),
    Enum(EnumDecl),
    TypeAlias(TypeAlias),
    Interface(InterfaceDecl),
    /// `extension S : IFoo { methods }`: methods and conformances added to
    /// struct `S` (the declaration's name); it has no fields.
    Extension(StructDecl),
    /// GLSL `buffer Name { fields } instance;`.
    GlslBuffer(GlslBufferBlock),
    /// GLSL `layout(...) in;`.
    GlslLayoutIn(GlslLayoutIn),
}

/// A whole translation unit.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SourceFile {
    pub items: Vec<Item>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SwitchCase {
    /// `None` is `default:`.
    pub labels: Vec<Option<Expr>>,
    pub body: Vec<Stmt>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    Var(VarDecl),
    /// A struct declared inside a function body.
    Struct(StructDecl),
    TypeAlias(TypeAlias),
    Expr(Expr),
    Block(Block),
    If {
        cond: Expr,
        then: Box<Stmt>,
        els: Option<Box<Stmt>>,
    },
    /// Slang `if (let name = value) then else els`: `value` is an
    /// `Optional<T>` (or `Conditional<T, c>.get()`); `then` runs with
    /// `name` bound to the value when there is one.
    IfLet {
        name: Ident,
        value: Expr,
        then: Box<Stmt>,
        els: Option<Box<Stmt>>,
    },
    /// The expressions boxed: inline, they made this the largest kind,
    /// and every statement as large.
    For {
        init: Option<Box<Stmt>>,
        cond: Option<Box<Expr>>,
        update: Option<Box<Expr>>,
        body: Box<Stmt>,
    },
    While {
        cond: Expr,
        body: Box<Stmt>,
    },
    DoWhile {
        body: Box<Stmt>,
        cond: Expr,
    },
    Switch {
        selector: Expr,
        cases: Vec<SwitchCase>,
    },
    Break,
    Continue,
    Return(Option<Expr>),
    Discard,
    /// `;`
    Empty,
    /// A statement the parser could not read (already diagnosed).
    Error,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    /// Statement attributes such as `[unroll]`, `[branch]`.
    pub attributes: Vec<Attribute>,
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    Neg,
    Plus,
    Not,
    BitNot,
    PreInc,
    PreDec,
    PostInc,
    PostDec,
    /// `*p`: the value a pointer points to.
    Deref,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    BitAnd,
    BitXor,
    BitOr,
    And,
    Or,
    /// `,` in expressions.
    Comma,
}

/// Literal suffix information kept for typing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntSuffix {
    None,
    /// `u`
    U,
    /// `l` (HLSL: still 32-bit `int`; Slang: `int64_t`)
    L,
    /// `ul`, `lu`
    UL,
    /// `ll`
    LL,
    /// `ull`
    ULL,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatSuffix {
    None,
    /// `f`
    F,
    /// `h`
    H,
    /// `l` / `lf`
    L,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// Integer literal; the value is already range-checked to fit `u64`.
    Int {
        value: u64,
        suffix: IntSuffix,
    },
    Float {
        value: f64,
        suffix: FloatSuffix,
    },
    Bool(bool),
    /// A string literal (only meaningful in attribute arguments).
    String(String),
    /// A name, possibly qualified (`Color::Red` is `path = [Color, Red]`).
    Name(Vec<Ident>),
    Unary {
        op: UnaryOp,
        expr: Box<Expr>,
    },
    Binary {
        op: BinaryOp,
        left: Box<Expr>,
        right: Box<Expr>,
    },
    /// `a = b` (`op: None`) and `a += b` (`op: Some(Add)`).
    Assign {
        op: Option<BinaryOp>,
        target: Box<Expr>,
        value: Box<Expr>,
    },
    Ternary {
        cond: Box<Expr>,
        then: Box<Expr>,
        els: Box<Expr>,
    },
    /// `(float4)x`
    /// Slang's `value is Type` (a `bool`) and `value as Type` (`cast`: an
    /// `Optional<Type>`), resolved statically; `value` may name a type
    /// (`T is Vertex` for a generic parameter `T`).
    TypeTest {
        value: Box<Expr>,
        ty: Box<TypeExpr>,
        cast: bool,
    },
    Cast {
        /// Boxed, with `TypeRef`'s: a type is the largest operand, and
        /// every expression would carry its size.
        ty: Box<TypeExpr>,
        array_dims: Vec<Option<Expr>>,
        expr: Box<Expr>,
    },
    /// `f(args)`, `float4(args)`, `Texture2D<float>(...)`: the callee is a
    /// name or a type; the checker decides.
    Call {
        callee: Box<Expr>,
        args: Vec<Expr>,
    },
    /// A type used as a callee (`vector<float, 3>(...)`) where it cannot be a name.
    TypeRef(Box<TypeExpr>),
    /// `obj.method(args)`, or `obj.method<T>(args)` with explicit generic
    /// arguments (`hit.GetAttributes<Attributes>()`).
    MethodCall {
        object: Box<Expr>,
        method: Ident,
        type_args: Vec<GenericArg>,
        args: Vec<Expr>,
    },
    /// `a.b` (member or swizzle).
    Member {
        base: Box<Expr>,
        member: Ident,
    },
    Index {
        base: Box<Expr>,
        index: Box<Expr>,
    },
    /// `{ a, b, { c } }`
    InitList(Vec<Expr>),
    /// An expression the parser could not read (already diagnosed).
    Error,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

impl Expr {
    pub fn new(kind: ExprKind, span: Span) -> Self {
        Expr { kind, span }
    }
}
