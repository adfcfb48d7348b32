//! The syntax tree the parser builds and the checker consumes.
//!
//! Untyped and close to the source: names are strings, types are written
//! type expressions, and every node carries its [`Span`]. Nodes the parser
//! could not read are replaced by `Error` variants after a diagnostic, so the
//! checker can keep going without reporting the same problem twice.

use legalis_ir::Span;

/// A name as written, and where.
#[derive(Clone, Debug, PartialEq)]
pub struct Ident {
    /// The name's text.
    pub name: String,
    /// Where the name is in the source.
    pub span: Span,
}

/// `[name(args)]` or `[[ns::name(args)]]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Attribute {
    /// Full name with namespace, as written (`numthreads`, `vk::binding`).
    pub name: String,
    /// The arguments in parentheses; empty when there are none.
    pub args: Vec<Expr>,
    /// Where the attribute is in the source.
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
    /// Where the type is in the source.
    pub span: Span,
}

/// One generic argument, between `<` and `>`.
#[derive(Clone, Debug, PartialEq)]
pub enum GenericArg {
    /// A type argument such as the `float` of `vector<float, 3>`.
    Type(TypeExpr),
    /// A value argument such as the `3` of `vector<float, 3>`.
    Value(Expr),
}

/// Declaration modifiers and qualifiers, as keywords written before a declaration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModifierKind {
    /// `static`.
    Static,
    /// `const`.
    Const,
    /// `uniform`.
    Uniform,
    /// `extern`.
    Extern,
    /// `volatile`.
    Volatile,
    /// `inline`.
    Inline,
    /// `precise`.
    Precise,
    /// `groupshared`.
    GroupShared,
    /// `globallycoherent` on a read-write resource.
    GloballyCoherent,
    /// `in` on a parameter.
    In,
    /// `out` on a parameter.
    Out,
    /// `inout` on a parameter.
    InOut,
    // Interpolation.
    /// `linear` interpolation.
    Linear,
    /// `nointerpolation`.
    NoInterpolation,
    /// `noperspective`.
    NoPerspective,
    /// `centroid`.
    Centroid,
    /// `sample`.
    Sample,
    // Matrix layout.
    /// `row_major`.
    RowMajor,
    /// `column_major`.
    ColumnMajor,
    // Resource element normalisation.
    /// `unorm`.
    Unorm,
    /// `snorm`.
    Snorm,
    // Geometry input primitive.
    /// `point`: a geometry shader's input of one vertex per primitive.
    Point,
    /// `line`: two vertices per primitive.
    Line,
    /// `triangle`: three vertices per primitive.
    Triangle,
    /// `lineadj`: a line with adjacency, four vertices.
    LineAdj,
    /// `triangleadj`: a triangle with adjacency, six vertices.
    TriangleAdj,
    // Mesh outputs and payloads.
    /// `vertices`: a mesh shader's vertex output array.
    Vertices,
    /// `indices`: a mesh shader's primitive index array.
    Indices,
    /// `primitives`: a mesh shader's per-primitive output array.
    Primitives,
    /// `payload`: a mesh shader's parameter holding what its amplification
    /// shader dispatched.
    Payload,
    /// Slang's `constexpr` on a parameter: its argument must be a
    /// compile-time constant.
    ConstExpr,
}

/// One modifier keyword and where it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Modifier {
    /// Which keyword.
    pub kind: ModifierKind,
    /// Where the keyword is in the source.
    pub span: Span,
}

/// What follows a `:` after a declarator.
#[derive(Clone, Debug, PartialEq)]
pub enum PostAnnotation {
    /// `: TEXCOORD0`, kept as written.
    Semantic(Ident),
    /// `: register(t0, space1)`; `class` is the letter, `index` the number.
    Register {
        /// The register class letter, lower-cased (`t`, `s`, `u`, `b`, `c` ...).
        class: char,
        /// The register number (`0` of `t0`).
        index: u32,
        /// The space number (`1` of `space1`); `None` when not written.
        space: Option<u32>,
        /// Where `register(...)` is in the source.
        span: Span,
    },
    /// `: packoffset(c0.x)`, kept as text.
    PackOffset {
        /// The register and component as written (`c0.x`).
        text: String,
        /// Where `packoffset(...)` is in the source.
        span: Span,
    },
    /// A ray-payload access qualifier on a payload field,
    /// `: read(caller, closesthit)` or `: write(miss)`; the stage names
    /// were checked by the parser (`anyhit`, `closesthit`, `miss`, `caller`).
    PayloadAccess {
        /// `true` for `write(...)`, `false` for `read(...)`.
        write: bool,
        /// The stages named in the parentheses.
        stages: Vec<Ident>,
        /// Where the qualifier is in the source.
        span: Span,
    },
}

/// One declared name with array dimensions, annotations and initializer:
/// `uv[2] : TEXCOORD0 = {...}`.
#[derive(Clone, Debug, PartialEq)]
pub struct Declarator {
    /// The declared name.
    pub name: Ident,
    /// One entry per `[...]`; `None` for `[]`.
    pub array_dims: Vec<Option<Expr>>,
    /// What follows `:` after the name and dimensions: semantics,
    /// `register`, `packoffset`, payload access qualifiers.
    pub annotations: Vec<PostAnnotation>,
    /// The initializer after `=`, if any.
    pub init: Option<Expr>,
    /// Where the declarator is in the source.
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
    /// Attributes written before the declaration.
    pub attributes: Vec<Attribute>,
    /// Modifiers written before the type (`static`, `groupshared` ...).
    pub modifiers: Vec<Modifier>,
    /// The declared type, without array dimensions.
    pub ty: TypeExpr,
    /// The declared names, at least one.
    pub declarators: Vec<Declarator>,
    /// Where the whole declaration is in the source.
    pub span: Span,
}

/// A struct declaration (`struct S { fields methods };`), also used for the body of an `extension`.
#[derive(Clone, Debug, PartialEq)]
pub struct StructDecl {
    /// Attributes written on the struct (`[raypayload]`).
    pub attributes: Vec<Attribute>,
    /// The struct's name; for an `extension`, the name of the struct it extends.
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
    /// Where the declaration is in the source.
    pub span: Span,
}

/// One generic parameter of a function or struct (Slang), with the
/// constraints of its `where` clauses merged in.
#[derive(Clone, Debug, PartialEq)]
pub struct GenericParam {
    /// The parameter's name.
    pub name: Ident,
    /// Whether it stands for a type or a value.
    pub kind: GenericParamKind,
    /// Where the parameter is in the source.
    pub span: Span,
}

/// What a generic parameter stands for.
#[derive(Clone, Debug, PartialEq)]
pub enum GenericParamKind {
    /// `T`, `T : IFoo`: a type, conforming to every interface listed.
    Type {
        /// The interfaces it must conform to; empty for none.
        constraints: Vec<TypeExpr>,
    },
    /// `let N : int` or `int N`: a compile-time constant of type `ty`.
    Value {
        /// The constant's type.
        ty: TypeExpr,
    },
}

/// `interface IFoo : IBase { float get(); }`: method requirements a
/// conforming struct must implement (Slang).
#[derive(Clone, Debug, PartialEq)]
pub struct InterfaceDecl {
    /// Attributes written before `interface`.
    pub attributes: Vec<Attribute>,
    /// The interface's name.
    pub name: Ident,
    /// Interfaces it inherits the requirements of.
    pub bases: Vec<TypeExpr>,
    /// The required methods (prototypes).
    pub methods: Vec<FunctionDecl>,
    /// Where the declaration is in the source.
    pub span: Span,
}

/// One function parameter: `inout float4 color : COLOR0 = 0`.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// Attributes written before the parameter.
    pub attributes: Vec<Attribute>,
    /// Modifiers: the direction (`in`, `out`, `inout`), interpolation,
    /// geometry primitive, `uniform` ...
    pub modifiers: Vec<Modifier>,
    /// The parameter's type, without array dimensions.
    pub ty: TypeExpr,
    /// Name, array dimensions, semantic and default value.
    pub declarator: Declarator,
    /// Where the parameter is in the source.
    pub span: Span,
}

/// A function or method: a definition, or a prototype without a body.
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionDecl {
    /// Attributes written before the function (`[shader("vertex")]`, `[numthreads(8, 8, 1)]`).
    pub attributes: Vec<Attribute>,
    /// Modifiers written before the return type (`static`, `inline` ...).
    pub modifiers: Vec<Modifier>,
    /// `void` is spelled as a type named `void`.
    pub return_type: TypeExpr,
    /// The function's name.
    pub name: Ident,
    /// Generic parameters (`T twice<T : IFoo>(T x)`); empty for an
    /// ordinary function.
    pub generics: Vec<GenericParam>,
    /// The parameters in order.
    pub params: Vec<Param>,
    /// Annotations after the parameter list (`: SV_Target`).
    pub return_annotations: Vec<PostAnnotation>,
    /// `None` for a prototype (`float f(float x);`).
    pub body: Option<Block>,
    /// Where the declaration is in the source.
    pub span: Span,
}

/// `cbuffer Name : register(b0) { fields }` (and `tbuffer`).
#[derive(Clone, Debug, PartialEq)]
pub struct BufferBlock {
    /// Attributes written before the keyword.
    pub attributes: Vec<Attribute>,
    /// `tbuffer` rather than `cbuffer`.
    pub is_tbuffer: bool,
    /// The block's name.
    pub name: Ident,
    /// What follows `:` after the name (`register(b0)`).
    pub annotations: Vec<PostAnnotation>,
    /// The fields between the braces.
    pub fields: Vec<VarDecl>,
    /// Where the block is in the source.
    pub span: Span,
}

/// One qualifier of a GLSL `layout(...)`: `std430`, `binding = 2`.
#[derive(Clone, Debug, PartialEq)]
pub struct LayoutQualifier {
    /// The qualifier's name (`std430`, `binding`).
    pub name: Ident,
    /// The value after `=`; `None` for a bare name.
    pub value: Option<Expr>,
    /// Where the qualifier is in the source.
    pub span: Span,
}

/// GLSL `layout(std430, binding = 0) buffer Name { fields } instance;`, a
/// storage block (`-allow-glsl`). Without an instance name the fields are
/// reached by their bare names.
#[derive(Clone, Debug, PartialEq)]
pub struct GlslBufferBlock {
    /// The qualifiers of `layout(...)`, in order.
    pub layout: Vec<LayoutQualifier>,
    /// The block's name (before the braces).
    pub name: Ident,
    /// The fields between the braces.
    pub fields: Vec<VarDecl>,
    /// The instance name after the braces; `None` when there is none.
    pub instance: Option<Ident>,
    /// Where the block is in the source.
    pub span: Span,
}

/// GLSL `layout(derivative_group_quadsNV) in;` at module scope (`-allow-glsl`).
#[derive(Clone, Debug, PartialEq)]
pub struct GlslLayoutIn {
    /// The qualifiers of `layout(...)`, in order.
    pub layout: Vec<LayoutQualifier>,
    /// Where the declaration is in the source.
    pub span: Span,
}

/// `enum Name : base { A, B = 2 }` (or `enum class`).
#[derive(Clone, Debug, PartialEq)]
pub struct EnumDecl {
    /// The enum's name.
    pub name: Ident,
    /// `enum class`: members only reachable qualified.
    pub scoped: bool,
    /// Underlying type after `:`, if written.
    pub base: Option<TypeExpr>,
    /// Each member's name and, when written, its value expression (an unwritten one is the previous
    /// plus one, the first 0).
    pub members: Vec<(Ident, Option<Expr>)>,
    /// Where the declaration is in the source.
    pub span: Span,
}

/// `typedef T Name;` and `typealias Name = T;` (array dimensions allowed on typedef).
#[derive(Clone, Debug, PartialEq)]
pub struct TypeAlias {
    /// The alias's name.
    pub name: Ident,
    /// The aliased type.
    pub ty: TypeExpr,
    /// The typedef's array dimensions, one per `[...]`; `None` for `[]`.
    pub array_dims: Vec<Option<Expr>>,
    /// Where the declaration is in the source.
    pub span: Span,
}

/// `namespace N { items }`; items inside are named `N::item` from outside.
#[derive(Clone, Debug, PartialEq)]
pub struct NamespaceDecl {
    /// The namespace's name.
    pub name: Ident,
    /// The items declared inside.
    pub items: Vec<Item>,
    /// Where the declaration is in the source.
    pub span: Span,
}

/// A declaration at namespace (or file) scope.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// `namespace N { ... }`.
    Namespace(NamespaceDecl),
    /// `struct S { ... };`.
    Struct(StructDecl),
    /// A function definition or prototype.
    Function(FunctionDecl),
    /// A global variable declaration.
    Var(VarDecl),
    /// `cbuffer` or `tbuffer`.
    Buffer(BufferBlock),
    /// `enum`.
    Enum(EnumDecl),
    /// `typedef` or `typealias`.
    TypeAlias(TypeAlias),
    /// `interface`.
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
    /// The top-level items in source order.
    pub items: Vec<Item>,
}

/// `{ statements }`.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    /// The statements in order.
    pub stmts: Vec<Stmt>,
    /// Where the block is in the source.
    pub span: Span,
}

/// One `case`/`default` group of a `switch`.
#[derive(Clone, Debug, PartialEq)]
pub struct SwitchCase {
    /// `None` is `default:`.
    pub labels: Vec<Option<Expr>>,
    /// The statements after the labels, up to the next label group.
    pub body: Vec<Stmt>,
    /// Where the group is in the source.
    pub span: Span,
}

/// What a statement is.
#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    /// A local variable declaration.
    Var(VarDecl),
    /// A struct declared inside a function body.
    Struct(StructDecl),
    /// A local `typedef` or `typealias`.
    TypeAlias(TypeAlias),
    /// An expression statement (`f(x);`, `a = b;`).
    Expr(Expr),
    /// A nested block.
    Block(Block),
    /// `if (cond) then else els`.
    If {
        /// The condition.
        cond: Expr,
        /// The statement run when the condition holds.
        then: Box<Stmt>,
        /// The `else` statement, if any.
        els: Option<Box<Stmt>>,
    },
    /// Slang `if (let name = value) then else els`: `value` is an
    /// `Optional<T>` (or `Conditional<T, c>.get()`); `then` runs with
    /// `name` bound to the value when there is one.
    IfLet {
        /// The name bound to the value inside `then`.
        name: Ident,
        /// The optional value tested.
        value: Expr,
        /// The statement run when there is a value.
        then: Box<Stmt>,
        /// The `else` statement, if any.
        els: Option<Box<Stmt>>,
    },
    /// The expressions boxed: inline, they made this the largest kind,
    /// and every statement as large.
    For {
        /// The statement before the first `;`; `None` when empty.
        init: Option<Box<Stmt>>,
        /// The condition; `None` when empty (loop forever).
        cond: Option<Box<Expr>>,
        /// The expression after the second `;`; `None` when empty.
        update: Option<Box<Expr>>,
        /// The loop body.
        body: Box<Stmt>,
    },
    /// `while (cond) body`.
    While {
        /// The condition, tested before each iteration.
        cond: Expr,
        /// The loop body.
        body: Box<Stmt>,
    },
    /// `do body while (cond);`.
    DoWhile {
        /// The loop body.
        body: Box<Stmt>,
        /// The condition, tested after each iteration.
        cond: Expr,
    },
    /// `switch (selector) { cases }`.
    Switch {
        /// The value switched on.
        selector: Expr,
        /// The label groups in source order.
        cases: Vec<SwitchCase>,
    },
    /// `break;`.
    Break,
    /// `continue;`.
    Continue,
    /// `return;` or `return value;`.
    Return(Option<Expr>),
    /// `discard;`.
    Discard,
    /// `;`
    Empty,
    /// A statement the parser could not read (already diagnosed).
    Error,
}

/// One statement and its attributes.
#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    /// Statement attributes such as `[unroll]`, `[branch]`.
    pub attributes: Vec<Attribute>,
    /// What the statement is.
    pub kind: StmtKind,
    /// Where the statement is in the source.
    pub span: Span,
}

/// A unary operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    /// `-x`.
    Neg,
    /// `+x`.
    Plus,
    /// `!x`.
    Not,
    /// `~x`.
    BitNot,
    /// `++x`.
    PreInc,
    /// `--x`.
    PreDec,
    /// `x++`.
    PostInc,
    /// `x--`.
    PostDec,
    /// `*p`: the value a pointer points to.
    Deref,
}

/// A binary operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    /// `+`.
    Add,
    /// `-`.
    Sub,
    /// `*`.
    Mul,
    /// `/`.
    Div,
    /// `%`.
    Rem,
    /// `<<`.
    Shl,
    /// `>>`.
    Shr,
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// `>`.
    Gt,
    /// `>=`.
    Ge,
    /// `==`.
    Eq,
    /// `!=`.
    Ne,
    /// `&`.
    BitAnd,
    /// `^`.
    BitXor,
    /// `|`.
    BitOr,
    /// `&&`.
    And,
    /// `||`.
    Or,
    /// `,` in expressions.
    Comma,
}

/// Literal suffix information kept for typing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntSuffix {
    /// No suffix.
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

/// The suffix of a float literal, kept for typing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatSuffix {
    /// No suffix.
    None,
    /// `f`
    F,
    /// `h`
    H,
    /// `l` / `lf`
    L,
}

/// What an expression is.
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// Integer literal; the value is already range-checked to fit `u64`.
    Int {
        /// The literal's value, without its suffix.
        value: u64,
        /// The suffix as written.
        suffix: IntSuffix,
    },
    /// A float literal.
    Float {
        /// The literal's value as an `f64`, without its suffix.
        value: f64,
        /// The suffix as written.
        suffix: FloatSuffix,
    },
    /// `true` or `false`.
    Bool(bool),
    /// A string literal (only meaningful in attribute arguments).
    String(String),
    /// A name, possibly qualified (`Color::Red` is `path = [Color, Red]`).
    Name(Vec<Ident>),
    /// A unary operation.
    Unary {
        /// The operator.
        op: UnaryOp,
        /// The operand.
        expr: Box<Expr>,
    },
    /// A binary operation.
    Binary {
        /// The operator.
        op: BinaryOp,
        /// The left operand.
        left: Box<Expr>,
        /// The right operand.
        right: Box<Expr>,
    },
    /// `a = b` (`op: None`) and `a += b` (`op: Some(Add)`).
    Assign {
        /// The operator of a compound assignment; `None` for plain `=`.
        op: Option<BinaryOp>,
        /// The place assigned to.
        target: Box<Expr>,
        /// The value assigned (the right operand of a compound assignment).
        value: Box<Expr>,
    },
    /// `cond ? then : els`.
    Ternary {
        /// The condition.
        cond: Box<Expr>,
        /// The value when the condition holds.
        then: Box<Expr>,
        /// The value otherwise.
        els: Box<Expr>,
    },
    /// Slang's `value is Type` (a `bool`) and `value as Type` (`cast`: an
    /// `Optional<Type>`), resolved statically; `value` may name a type
    /// (`T is Vertex` for a generic parameter `T`).
    TypeTest {
        /// The value (or type) tested.
        value: Box<Expr>,
        /// The type after `is` or `as`.
        ty: Box<TypeExpr>,
        /// `true` for `as`, `false` for `is`.
        cast: bool,
    },
    /// `(float4)x`: a C-style cast.
    Cast {
        /// The type converted to. Boxed, with `TypeRef`'s: a type is the largest operand, and
        /// every expression would carry its size.
        ty: Box<TypeExpr>,
        /// Array dimensions written after the type (`(float[2])x`); `None` for `[]`.
        array_dims: Vec<Option<Expr>>,
        /// The operand.
        expr: Box<Expr>,
    },
    /// `f(args)`, `float4(args)`, `Texture2D<float>(...)`: the callee is a
    /// name or a type; the checker decides.
    Call {
        /// The name or type called.
        callee: Box<Expr>,
        /// The arguments in order.
        args: Vec<Expr>,
    },
    /// A type used as a callee (`vector<float, 3>(...)`) where it cannot be a name.
    TypeRef(Box<TypeExpr>),
    /// `obj.method(args)`, or `obj.method<T>(args)` with explicit generic
    /// arguments (`hit.GetAttributes<Attributes>()`).
    MethodCall {
        /// The object the method is called on.
        object: Box<Expr>,
        /// The method's name.
        method: Ident,
        /// Explicit generic arguments; empty when none are written.
        type_args: Vec<GenericArg>,
        /// The arguments in order.
        args: Vec<Expr>,
    },
    /// `a.b` (member or swizzle).
    Member {
        /// The value whose member or components are read.
        base: Box<Expr>,
        /// The member's name or the swizzle (`xyz`).
        member: Ident,
    },
    /// `base[index]`.
    Index {
        /// The value indexed (an array, vector, matrix, buffer or texture).
        base: Box<Expr>,
        /// The index.
        index: Box<Expr>,
    },
    /// `{ a, b, { c } }`
    InitList(Vec<Expr>),
    /// An expression the parser could not read (already diagnosed).
    Error,
}

/// An expression node.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    /// What the expression is.
    pub kind: ExprKind,
    /// Where the expression is in the source.
    pub span: Span,
}

impl Expr {
    /// An expression of `kind` at `span`.
    pub fn new(kind: ExprKind, span: Span) -> Self {
        Expr { kind, span }
    }
}
