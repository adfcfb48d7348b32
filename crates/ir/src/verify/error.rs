//! What the verifier reports: where (scope and site) and what (a typed kind
//! carrying the values involved), rendered as one line by `Display`.

use std::fmt;

use crate::{
    BufferKind, Expression, Function, GlobalVariable, Handle, Intrinsic, LocalVariable, Semantic,
    ShaderStage, Span, SwitchValue, Type,
};

/// One broken invariant.
#[derive(Clone, Debug, PartialEq)]
pub struct VerifyError {
    /// The top-level item the error is in.
    pub scope: Scope,
    /// Where in that item.
    pub site: Site,
    /// What is wrong, with the values involved.
    pub kind: ErrorKind,
    /// Source location of the offending item, `Span::UNDEFINED` when the item
    /// has none recorded.
    pub span: Span,
}

/// The top-level item an error belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Scope {
    /// A type of `module.types`.
    Type(Handle<Type>),
    /// A global variable.
    Global {
        /// Its handle.
        handle: Handle<GlobalVariable>,
        /// Its name.
        name: String,
    },
    /// The module's initializer expression arena as a whole.
    GlobalExpressions,
    /// A function of `module.functions`.
    Function {
        /// Its handle.
        handle: Handle<Function>,
        /// Its name.
        name: String,
    },
    /// An entry point.
    EntryPoint {
        /// Its index in `module.entry_points`.
        index: usize,
        /// Its name.
        name: String,
        /// Its stage.
        stage: ShaderStage,
    },
}

impl Scope {
    pub(super) fn entry_point(index: usize, entry: &crate::EntryPoint) -> Scope {
        Scope::EntryPoint {
            index,
            name: entry.name.clone(),
            stage: entry.stage,
        }
    }
}

/// The part of the scope an error points at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Site {
    /// The scope item itself.
    Whole,
    /// The struct member of this index.
    Member(u32),
    /// The function parameter of this index.
    Param(u32),
    /// The function's result.
    Result,
    /// A local variable.
    Local(Handle<LocalVariable>),
    /// An expression of the function's (or the global initializers') arena.
    Expression(Handle<Expression>),
    /// A path from the function body: `body[2].accept[0]`.
    Statement(String),
    /// The entry point's `[patchconstantfunc]`.
    PatchConstantFunc,
    /// A varying reached from an entry point: `input.pos`, `return.color`,
    /// `patch[].uv`.
    Varying(String),
}

/// Why an assignment target or `out` argument is not a place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotPlaceReason {
    /// A `static const` global.
    ConstantGlobal(String),
    /// A stage input global.
    StageInput(String),
    /// A `const` local, named.
    ConstLocal(String),
    /// A swizzle that names a component twice (`v.xx = ...`).
    RepeatedSwizzle,
    /// Element or member of a read-only resource (`Texture2D`, `cbuffer`,
    /// `InputPatch`), named by its type.
    ReadOnly(String),
    /// An expression kind that never denotes storage (`"binary expression"`).
    Value(&'static str),
}

/// Where a place was required.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlaceContext {
    /// The pointer of a `Statement::Store`.
    Store,
    /// The target of an assignment.
    Assign,
    /// The operand of `++` or `--`.
    IncDec,
    /// The argument of this (zero-based) index, passed to an `out` or `inout` parameter.
    OutArgument(usize),
}

/// What invariant is broken; `Display` gives the one-line message.
#[derive(Clone, Debug, PartialEq)]
pub enum ErrorKind {
    /// An `Input`/`Output` global without `io`, or `io` on another space.
    InterfaceIo {
        /// Whether the global is an `Input`/`Output` one (missing `io`) rather than another space
        /// that has `io`.
        interface: bool,
    },
    // Handles.
    /// A type handle out of range.
    BadType(Handle<Type>),
    /// A type refers to itself or to a later type; interning builds types
    /// bottom-up, so this means a cycle or a forged handle.
    TypeNotBefore(Handle<Type>),
    /// A global handle out of range.
    BadGlobal(Handle<GlobalVariable>),
    /// A function handle out of range.
    BadFunction(Handle<Function>),
    /// A local handle out of range.
    BadLocal(Handle<LocalVariable>),
    /// An expression handle out of range.
    BadExpression(Handle<Expression>),
    // Types.
    /// A vector size other than 2, 3 or 4.
    BadVectorSize(u8),
    /// A matrix outside 1x1 to 4x4.
    BadMatrixSize {
        /// Its rows.
        rows: u8,
        /// Its columns.
        columns: u8,
    },
    /// A struct member name used twice.
    DuplicateMember(String),
    /// A `ByteAddressBuffer` with an element type, or another buffer without.
    BufferElement {
        /// The buffer's kind.
        kind: BufferKind,
        /// Whether it has an element type.
        has_element: bool,
    },
    // Expressions.
    /// An expression without the type every value expression must have.
    MissingType,
    /// A call of a function without result that was given a type.
    VoidCallTyped,
    /// A call of a function without result used as a value.
    VoidValue(Handle<Expression>),
    /// An expression handle used by more than one parent (expressions are trees).
    Reused,
    /// A literal whose type is not a scalar of its kind.
    LiteralType {
        /// The literal's kind (`"bool"`, `"signed integer"`, `"unsigned integer"`, `"float"`).
        literal: &'static str,
        /// The type it was given, printed.
        ty: String,
    },
    /// `Expression::Param` with an index the function has no parameter for.
    ParamOutOfRange {
        /// The index.
        index: u32,
        /// The function's parameter count.
        count: usize,
    },
    /// `Param` or `Local` in a global initializer.
    OutsideFunction(&'static str),
    /// A member access past the struct's members.
    MemberOutOfRange {
        /// The member index.
        index: u32,
        /// The struct's member count.
        count: usize,
        /// The struct type, printed.
        ty: String,
    },
    /// A member access on a type that is not a struct.
    MemberOfNonStruct {
        /// That type, printed.
        ty: String,
    },
    /// A swizzle of other than 1 to 4 components.
    SwizzleLength(usize),
    /// A swizzle component outside 0 to 3.
    SwizzleComponent(u8),
    /// A swizzle component past the vector's size.
    SwizzleBeyondBase {
        /// The component.
        component: u8,
        /// The vector type, printed.
        ty: String,
    },
    /// A swizzle of a type that is neither vector nor scalar.
    SwizzleOfNonVector {
        /// That type, printed.
        ty: String,
    },
    /// A store, assignment, `++`/`--` or `out` argument whose target is not storage.
    NotAPlace {
        /// Where the place was required.
        context: PlaceContext,
        /// Why the target is not one.
        reason: NotPlaceReason,
    },
    /// A call passing another number of arguments than the callee's parameters.
    ArgumentCount {
        /// The callee's name.
        callee: String,
        /// Its parameter count.
        expected: usize,
        /// The arguments passed.
        found: usize,
    },
    /// Callees come before callers in the arena, which also rules out recursion.
    CalleeNotBefore {
        /// The callee's name.
        callee: String,
    },
    /// A method intrinsic called with no arguments, so without its object.
    MethodWithoutObject(Intrinsic),
    // Statements.
    /// `return;` in a function with a result.
    ReturnValueMissing,
    /// `return value;` in a function without a result.
    UnexpectedReturnValue,
    /// `break` outside a loop or switch.
    BreakOutsideLoop,
    /// `continue` outside a loop.
    ContinueOutsideLoop,
    /// A local declared by two `Statement::Declare`s.
    DeclaredTwice(Handle<LocalVariable>),
    /// A switch with two cases of this value (or two `default`s).
    DuplicateCase(SwitchValue),
    // Entry points.
    /// Two entry points of one stage with the same name.
    DuplicateEntryPoint,
    /// `verify_legalized`: a varying still has its source semantic.
    SemanticRemains(Semantic),
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}: {}", self.scope, self.site, self.kind)
    }
}

impl std::error::Error for VerifyError {}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Scope::Type(handle) => write!(f, "type {handle:?}"),
            Scope::Global { handle, name } => write!(f, "global `{name}` {handle:?}"),
            Scope::GlobalExpressions => write!(f, "global initializers"),
            Scope::Function { handle, name } => write!(f, "function `{name}` {handle:?}"),
            Scope::EntryPoint { index, name, stage } => {
                write!(f, "{} entry point `{name}` #{index}", stage.name())
            }
        }
    }
}

impl fmt::Display for Site {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Site::Whole => Ok(()),
            Site::Member(index) => write!(f, ", member {index}"),
            Site::Param(index) => write!(f, ", parameter {index}"),
            Site::Result => write!(f, ", result"),
            Site::Local(handle) => write!(f, ", local {handle:?}"),
            Site::Expression(handle) => write!(f, ", expression {handle:?}"),
            Site::Statement(path) => write!(f, ", statement {path}"),
            Site::PatchConstantFunc => write!(f, ", [patchconstantfunc]"),
            Site::Varying(path) => write!(f, ", varying `{path}`"),
        }
    }
}

impl fmt::Display for PlaceContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlaceContext::Store => write!(f, "store target"),
            PlaceContext::Assign => write!(f, "assignment target"),
            PlaceContext::IncDec => write!(f, "increment/decrement target"),
            PlaceContext::OutArgument(i) => write!(f, "argument {i} for an out/inout parameter"),
        }
    }
}

impl fmt::Display for NotPlaceReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotPlaceReason::ConstantGlobal(name) => write!(f, "global `{name}` is constant"),
            NotPlaceReason::StageInput(name) => write!(f, "global `{name}` is a stage input"),
            NotPlaceReason::ConstLocal(name) => write!(f, "local `{name}` is const"),
            NotPlaceReason::RepeatedSwizzle => write!(f, "the swizzle repeats a component"),
            NotPlaceReason::ReadOnly(ty) => write!(f, "`{ty}` is read-only"),
            NotPlaceReason::Value(kind) => write!(f, "a {kind} is a value, not storage"),
        }
    }
}

/// One message per kind: a data table, kept in one match on purpose.
impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::InterfaceIo { interface: true } => {
                write!(
                    f,
                    "a stage input or output has no builtin or location (`io`)"
                )
            }
            ErrorKind::InterfaceIo { interface: false } => {
                write!(
                    f,
                    "only stage inputs and outputs and ray-tracing storage carry `io`"
                )
            }
            ErrorKind::BadType(h) => write!(f, "type handle {h:?} is out of range"),
            ErrorKind::TypeNotBefore(h) => write!(
                f,
                "refers to type {h:?}, which is not declared before it (a cycle?)"
            ),
            ErrorKind::BadGlobal(h) => write!(f, "global handle {h:?} is out of range"),
            ErrorKind::BadFunction(h) => write!(f, "function handle {h:?} is out of range"),
            ErrorKind::BadLocal(h) => write!(f, "local handle {h:?} is out of range"),
            ErrorKind::BadExpression(h) => write!(f, "expression handle {h:?} is out of range"),
            ErrorKind::BadVectorSize(n) => write!(f, "vector size {n} is not 2, 3 or 4"),
            ErrorKind::BadMatrixSize { rows, columns } => {
                write!(f, "matrix size {rows}x{columns} is outside 1x1..4x4")
            }
            ErrorKind::DuplicateMember(name) => write!(f, "member name `{name}` is repeated"),
            ErrorKind::BufferElement { kind, has_element } => {
                let has = if *has_element { "has an" } else { "has no" };
                write!(f, "{kind:?} buffer {has} element type")
            }
            ErrorKind::MissingType => write!(f, "expression has no type"),
            ErrorKind::VoidCallTyped => write!(f, "call of a void function has a type"),
            ErrorKind::VoidValue(h) => {
                write!(f, "uses the result of void call {h:?} as a value")
            }
            ErrorKind::Reused => write!(
                f,
                "expression is used by more than one parent (expressions must be trees)"
            ),
            ErrorKind::LiteralType { literal, ty } => {
                write!(f, "{literal} literal has type `{ty}`")
            }
            ErrorKind::ParamOutOfRange { index, count } => write!(
                f,
                "parameter index {index} is out of range (the function has {count})"
            ),
            ErrorKind::OutsideFunction(what) => {
                write!(f, "{what} used outside a function")
            }
            ErrorKind::MemberOutOfRange { index, count, ty } => write!(
                f,
                "member index {index} is out of range for `{ty}` ({count} members)"
            ),
            ErrorKind::MemberOfNonStruct { ty } => {
                write!(f, "member access on `{ty}`, which is not a struct")
            }
            ErrorKind::SwizzleLength(n) => write!(f, "swizzle has {n} components, not 1 to 4"),
            ErrorKind::SwizzleComponent(c) => write!(f, "swizzle component {c} is not 0..=3"),
            ErrorKind::SwizzleBeyondBase { component, ty } => {
                write!(f, "swizzle component {component} is beyond `{ty}`")
            }
            ErrorKind::SwizzleOfNonVector { ty } => {
                write!(f, "swizzle of `{ty}`, which is not a vector or scalar")
            }
            ErrorKind::NotAPlace { context, reason } => {
                write!(f, "{context} is not a place: {reason}")
            }
            ErrorKind::ArgumentCount {
                callee,
                expected,
                found,
            } => {
                let plural = if *found == 1 { "" } else { "s" };
                write!(
                    f,
                    "call of `{callee}` passes {found} argument{plural}, it takes {expected}"
                )
            }
            ErrorKind::CalleeNotBefore { callee } => write!(
                f,
                "calls `{callee}`, which does not come before the caller (recursion or misordered functions)"
            ),
            ErrorKind::MethodWithoutObject(fun) => {
                write!(f, "method `{}` is called without an object", fun.name())
            }
            ErrorKind::ReturnValueMissing => {
                write!(f, "`return` without a value in a function with a result")
            }
            ErrorKind::UnexpectedReturnValue => {
                write!(f, "`return` with a value in a function without a result")
            }
            ErrorKind::BreakOutsideLoop => write!(f, "`break` outside a loop or switch"),
            ErrorKind::ContinueOutsideLoop => write!(f, "`continue` outside a loop"),
            ErrorKind::DeclaredTwice(h) => write!(f, "local {h:?} is declared twice"),
            ErrorKind::DuplicateCase(SwitchValue::Int(v)) => {
                write!(f, "case label {v} is repeated")
            }
            ErrorKind::DuplicateCase(SwitchValue::Default) => {
                write!(f, "`default` label is repeated")
            }
            ErrorKind::DuplicateEntryPoint => {
                write!(f, "another entry point of this stage has the same name")
            }
            ErrorKind::SemanticRemains(semantic) => write!(
                f,
                "semantic `{semantic}` survived legalization (expected a builtin or a location)"
            ),
        }
    }
}
