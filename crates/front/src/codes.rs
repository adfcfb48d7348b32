//! Every diagnostic code the front end emits, in one place.
//!
//! Codes print as `E` + five digits. Ranges: `E10xxx` lexer, `E15xxx`
//! preprocessor, `E20xxx` parser, `E30xxx` names and types, `E31xxx`
//! attributes and entry points. Warnings use the same numbering (the
//! severity is separate). `docs/diagnostics.md` lists them all; a test
//! checks that list against this file.

// ---- lexer (E10xxx)
/// A character no token starts with.
pub const LEX_UNKNOWN_CHARACTER: u32 = 10001;
/// `/*` without `*/`.
pub const LEX_UNTERMINATED_COMMENT: u32 = 10002;
/// `"` without a closing quote on the same line.
pub const LEX_UNTERMINATED_STRING: u32 = 10003;
/// An integer literal too large for 64 bits, or a malformed number.
pub const LEX_BAD_NUMBER: u32 = 10004;

// ---- preprocessor (E15xxx)
/// `#foo` that is not a known directive.
pub const PP_UNKNOWN_DIRECTIVE: u32 = 15001;
/// `#if`/`#ifdef` without `#endif` at the end of the file.
pub const PP_UNTERMINATED_CONDITIONAL: u32 = 15002;
/// `#else`, `#elif` or `#endif` without an open `#if`, or `#elif` after `#else`.
pub const PP_STRAY_CONDITIONAL: u32 = 15003;
/// An `#if`/`#elif` expression that cannot be evaluated.
pub const PP_BAD_EXPRESSION: u32 = 15004;
/// A macro redefined with a different body (warning).
pub const PP_MACRO_REDEFINED: u32 = 15005;
/// `#include`: the front end reads one file.
pub const PP_INCLUDE_UNSUPPORTED: u32 = 15006;
/// `#error "..."`.
pub const PP_ERROR_DIRECTIVE: u32 = 15007;
/// A function-like macro invoked with the wrong number of arguments, or
/// with an unterminated argument list.
pub const PP_MACRO_ARGUMENTS: u32 = 15008;
/// `#pragma` the front end does not know (warning; the pragma has no effect).
pub const PP_UNKNOWN_PRAGMA: u32 = 15009;
/// A malformed `#define`, `#undef`, `#ifdef` or `#line` (missing name ...).
pub const PP_MALFORMED_DIRECTIVE: u32 = 15010;
/// Macro expansion that exceeds the expansion limit.
pub const PP_EXPANSION_LIMIT: u32 = 15011;
/// A `#` or `##` in a macro body that cannot be applied: `#` not before a
/// parameter, `##` at either end of the body, or a paste whose two halves do
/// not spell one token.
pub const PP_UNSUPPORTED_OPERATOR: u32 = 15012;
/// `#warning "..."` (warning).
pub const PP_WARNING_DIRECTIVE: u32 = 15013;

// ---- parser (E20xxx)
/// Expected one thing, found another.
pub const PARSE_EXPECTED: u32 = 20001;
/// Nesting deeper than the parser's limit.
pub const PARSE_DEPTH_LIMIT: u32 = 20002;
/// Syntax Legalis recognises but does not support (generics, interfaces ...).
pub const PARSE_UNSUPPORTED: u32 = 20003;
/// A malformed attribute.
pub const PARSE_BAD_ATTRIBUTE: u32 = 20004;
/// A malformed `register(...)` or `packoffset(...)` annotation.
pub const PARSE_BAD_REGISTER: u32 = 20005;
/// A ray-payload access qualifier (`: read(...)`, `: write(...)`) naming a
/// stage other than `anyhit`, `closesthit`, `miss` and `caller`.
pub const PARSE_BAD_PAYLOAD_STAGE: u32 = 20006;

// ---- names and types (E30xxx)
/// A name that no declaration in scope defines.
pub const UNDEFINED_NAME: u32 = 30001;
/// A type name that no declaration defines.
pub const UNDEFINED_TYPE: u32 = 30002;
/// A value of one type where another is required and no implicit conversion exists.
pub const TYPE_MISMATCH: u32 = 30003;
/// No overload of a function or intrinsic accepts the arguments.
pub const NO_MATCHING_OVERLOAD: u32 = 30004;
/// Several overloads accept the arguments equally well.
pub const AMBIGUOUS_OVERLOAD: u32 = 30005;
/// A name declared twice in one scope.
pub const REDEFINITION: u32 = 30006;
/// Assignment to something that is not an l-value, or to a `const`.
pub const NOT_ASSIGNABLE: u32 = 30007;
/// A call with more or fewer arguments than the function takes.
pub const WRONG_ARGUMENT_COUNT: u32 = 30008;
/// A swizzle with unknown or mixed letters (`xyzw` with `rgba`) or out of range.
pub const INVALID_SWIZZLE: u32 = 30009;
/// A member access naming no field or method of the type.
pub const NO_SUCH_MEMBER: u32 = 30010;
/// `[...]` on a value that is not an array, vector, matrix or resource.
pub const NOT_INDEXABLE: u32 = 30011;
/// Something that must be a compile-time constant is not.
pub const NOT_CONSTANT: u32 = 30012;
/// A function that calls itself, directly or through others; or more than
/// 1024 generic specialisations (a generic function that uses itself with
/// ever new arguments).
pub const RECURSION: u32 = 30013;
/// `break`/`continue` outside a loop or switch.
pub const MISPLACED_JUMP: u32 = 30014;
/// A non-void function can reach its end without `return` (warning).
pub const MISSING_RETURN: u32 = 30015;
/// A cast between types that do not convert.
pub const INVALID_CAST: u32 = 30016;
/// Wrong generic arguments (`vector<float, 5>`, `InputPatch<T>`).
pub const BAD_GENERIC_ARGUMENTS: u32 = 30017;
/// A `return` with a value in a void function, or without one in a non-void function.
pub const BAD_RETURN: u32 = 30018;
/// A condition that is not a scalar convertible to `bool`.
pub const BAD_CONDITION: u32 = 30019;
/// An operator applied to operands it does not accept.
pub const BAD_OPERANDS: u32 = 30020;
/// An array size that is zero, negative or too large.
pub const BAD_ARRAY_SIZE: u32 = 30021;
/// A modifier where it has no meaning (`groupshared` on a parameter ...).
pub const BAD_MODIFIER: u32 = 30022;
/// A `case` label repeated in one `switch`.
pub const DUPLICATE_CASE: u32 = 30023;
/// A malformed semantic annotation (`SV_Target99999999999`).
pub const BAD_SEMANTIC: u32 = 30024;
/// An initializer list whose shape does not match the declared type.
pub const BAD_INITIALIZER: u32 = 30025;
/// A function declared but never defined, and called.
pub const UNDEFINED_FUNCTION_BODY: u32 = 30026;
/// Division or modulo by a constant zero in a constant expression.
pub const CONSTANT_DIVISION_BY_ZERO: u32 = 30027;
/// A struct that declares conformance to an interface lacks one of its
/// methods, or declares it with another signature.
pub const INTERFACE_NOT_IMPLEMENTED: u32 = 30028;
/// A value of interface type (dynamic dispatch) that cannot be made: no
/// conforming struct, a generic one, one holding the interface's value or
/// resources, a bad `-conformance` tag, or a `static` or generic
/// requirement called through a value (`check/dyn_dispatch.rs`).
pub const INTERFACE_VALUE: u32 = 30029;
/// A name after `:` in a struct or interface declaration that is not an
/// interface (struct inheritance).
pub const NOT_AN_INTERFACE: u32 = 30030;
/// A generic function's arguments that a call cannot infer from the
/// argument types and does not give explicitly.
pub const GENERIC_INFERENCE: u32 = 30031;
/// A generic argument that does not conform to its parameter's constraint
/// (`T : IFoo` given a type that does not implement `IFoo`).
pub const CONSTRAINT_NOT_SATISFIED: u32 = 30032;
/// A `Conditional<T, false>` where nothing can be left out (a type
/// argument, an array element, an alias): only a field, a parameter, a
/// result or a local may be.
pub const ABSENT_CONDITIONAL: u32 = 30070;
/// `Optional<T>` misused: `if (let ...)` on a value that is not an
/// optional, `none` where no optional is expected, or `Conditional.set`
/// used as a value.
pub const NOT_OPTIONAL: u32 = 30071;
/// GLSL syntax (a `buffer` block, `layout(...) in;`) met without
/// `-allow-glsl`.
pub const NEEDS_ALLOW_GLSL: u32 = 30040;
/// A GLSL declaration `-allow-glsl` reads but Legalis does not support (an
/// unsized array in a `buffer` block, an unknown layout qualifier).
pub const UNSUPPORTED_GLSL: u32 = 30041;
/// A `printf` call (debug printf) that cannot be written: no format, a
/// format that is not a string literal or has an unknown conversion, an
/// argument that is not an integer or float scalar or vector, arguments
/// that do not match the conversions, or `printf` used as a value.
pub const BAD_PRINTF: u32 = 30042;
/// A pointer (`T*`) used where Legalis does not support it: a pointer to a
/// resource, `*` or `->` on a non-pointer, a `void*` dereferenced, a cast
/// between a pointer and a type other than a pointer or a 64-bit integer.
pub const BAD_POINTER: u32 = 30050;
/// A `DescriptorHandle<T>` of a non-resource `T`, or one read as a
/// resource Legalis has no descriptor heap for.
pub const BAD_DESCRIPTOR_HANDLE: u32 = 30060;
/// Implicit conversion that drops vector components (warning).
pub const IMPLICIT_TRUNCATION: u32 = 30081;
/// `Load<T>`/`Store<T>` on a byte-address buffer with a `T` that is not
/// made of 32-bit scalars and vectors (in structs and sized arrays).
pub const BYTE_ADDRESS_TYPE: u32 = 30090;
/// `reinterpret<T>(v)` with `v` of another type than `T`.
pub const REINTERPRET_TYPES: u32 = 30091;

// ---- attributes and entry points (E31xxx)
/// An attribute the front end does not know (warning; it has no effect).
pub const UNKNOWN_ATTRIBUTE: u32 = 31000;
/// A known attribute with wrong arguments.
pub const BAD_ATTRIBUTE_ARGUMENTS: u32 = 31001;
/// `-entry NAME` names no function.
pub const ENTRY_POINT_NOT_FOUND: u32 = 31002;
/// `[shader("...")]` with an unknown stage name.
pub const UNKNOWN_STAGE: u32 = 31003;
/// The `-stage` given disagrees with the function's `[shader]` attribute.
pub const STAGE_MISMATCH: u32 = 31004;
/// An attribute required by the stage is missing (`[numthreads]` on compute ...).
pub const MISSING_STAGE_ATTRIBUTE: u32 = 31005;
/// An attribute that does not belong to the entry point's stage (warning).
pub const ATTRIBUTE_WRONG_STAGE: u32 = 31006;
/// `[patchconstantfunc("f")]` naming no function.
pub const PATCH_CONSTANT_FUNC_NOT_FOUND: u32 = 31007;
/// No `-entry` and no `[shader]` attribute anywhere: nothing to compile (warning).
pub const NO_ENTRY_POINTS: u32 = 31008;
/// A parameter or result shape the entry point's stage does not allow.
pub const BAD_ENTRY_POINT_SIGNATURE: u32 = 31009;
/// The entry point name is overloaded.
pub const AMBIGUOUS_ENTRY_POINT: u32 = 31010;
/// An annotation accepted but not applied (`packoffset`, a semantic on a
/// global) (warning).
pub const IGNORED_ANNOTATION: u32 = 31011;
/// A system value declared with a type it cannot have (`SV_Position` not
/// `float4`, `SV_Coverage` not `uint`). A system value the stage cannot use
/// in that direction is the table's own `E49990`
/// (`legalis_sysval::codes::NOT_IN_STAGE`), so that the front end and the
/// legalizers agree.
pub const SYSTEM_VALUE_TYPE: u32 = 31012;
/// The same system value (and index) declared twice in one direction.
pub const DUPLICATE_SYSTEM_VALUE: u32 = 31013;
/// Two fragment outputs for one render target (`SV_Target` and `SV_Target0`).
pub const RENDER_TARGET_CONFLICT: u32 = 31014;
/// A compute entry point without `[numthreads]`: one thread per workgroup
/// is assumed, as in the reference (warning).
pub const DEFAULT_WORKGROUP_SIZE: u32 = 31015;
/// A geometry shader's array input without `point`/`line`/`triangle`...:
/// the primitive its length names is taken (warning).
pub const DEFAULT_INPUT_PRIMITIVE: u32 = 31016;
/// Two different depth outputs of one fragment entry point (`SV_Depth`
/// beside `SV_DepthGreaterEqual`, ...): a fragment shader writes one
/// depth, and its conservative-depth mode would promise a bound for a
/// depth the shader does not constrain.
pub const DEPTH_OUTPUTS: u32 = 31017;
/// `[numthreads]` past HLSL's limits: a compute group's extents past
/// 1024, 1024, 64 or over 1024 threads, a mesh or amplification group
/// over 128 threads.
pub const WORKGROUP_LIMIT: u32 = 31018;
/// `SV_TargetN` past HLSL's eight render targets (`SV_Target8`).
pub const RENDER_TARGET_LIMIT: u32 = 31019;
