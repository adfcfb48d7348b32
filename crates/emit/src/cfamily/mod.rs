//! What the C-family writers (CUDA in `cuda/`, MSL in `metal/`) share:
//! statements (`stmt.rs`) and expressions (`expr.rs`) written once over
//! the [`Dialect`] each writer implements (what differs between MSL and
//! CUDA: type spellings, swizzles, literal suffixes, how a global or a
//! texel is reached, the intrinsics), the namer (`names.rs`), what the
//! entry points reach (`reach.rs`), type spellings (`types.rs`), the
//! writers' error shape (`error.rs`) and the C++ keywords (`keywords.rs`).

pub mod keywords;

pub(crate) mod expr;
pub(crate) mod intrinsics;
pub(crate) mod names;
pub(crate) mod reach;
pub(crate) mod stmt;
pub(crate) mod types;

pub(crate) use crate::error::Refusal;

/// The traits whose methods a C-family writer calls on itself.
pub(crate) mod prelude {
    pub(crate) use super::Dialect;
    pub(crate) use super::expr::Exprs;
    pub(crate) use super::stmt::Stmts;
    pub(crate) use super::types::Types;
}
pub(crate) use expr::{ArgCopy, FnCtx};

use legalis_ir as ir;
use legalis_ir::{Expression, Handle, Span, Statement};

use crate::namer::Namer;

/// What one C-family target spells its own way. The shared printers
/// ([`expr::Exprs`], [`stmt::Stmts`]) call these hooks; a hook with a
/// default body is one only some target needs.
pub(crate) trait Dialect {
    /// The writer's error.
    type Error: Refusal;
    /// What a function's context carries for this target alone (the
    /// default: in global initializers).
    type FnState: Default;

    /// Whether `*` of two matrices is the linear-algebra product (MSL),
    /// so HLSL's component-wise `*`, `/` and `%` of matrices cannot be
    /// written with the operator.
    const LINEAR_MATRIX_PRODUCT: bool;
    /// The suffix of a 64-bit integer literal (`l`, `ll`); a `u` comes
    /// before it on an unsigned one.
    const LONG_SUFFIX: &'static str;
    /// The function a float `%` calls.
    const FMOD: &'static str;
    /// The function a `?:` with a vector condition calls, `(reject,
    /// accept, condition)`.
    const SELECT: &'static str;

    /// The value array template (`array`, `lg::array`).
    const ARRAY: &'static str;
    /// `discard` as a statement, or the refusal's object where the target
    /// has no fragment stage.
    const DISCARD: std::result::Result<&'static str, &'static str>;
    /// The refusal's object of a geometry shader's `EmitVertex` and
    /// `EndPrimitive`.
    const GEOMETRY_STREAMS: &'static str;
    /// The refusal's object of a hull shader's patch barrier.
    const PATCH_BARRIER: &'static str;
    /// The refusal's object of debug `printf` where the target has none.
    const NO_PRINTF: &'static str = "debug `printf`";
    /// Why a `static` local is refused.
    const NO_STATIC_LOCALS: &'static str;

    /// The module written.
    fn module(&self) -> &ir::Module;
    /// The spelling of a scalar type.
    fn scalar(&self, s: ir::Scalar, span: Span) -> Result<&'static str, Self::Error>;
    /// The spelling of a vector of `size` scalars `s`.
    fn vector(&self, s: ir::Scalar, size: u8, span: Span) -> Result<String, Self::Error>;
    /// The stem of the matrix type `ty` of scalars `s` (`float` of
    /// `float2x3`), refusing the matrices the target has not.
    fn matrix_stem(
        &self,
        ty: Handle<ir::Type>,
        s: ir::Scalar,
        span: Span,
    ) -> Result<String, Self::Error>;
    /// The spelling of a value type that is not a scalar, vector, matrix,
    /// array or struct; `None` where the target has none.
    fn other_type(&self, ty: Handle<ir::Type>, span: Span) -> Result<Option<String>, Self::Error>;
    /// The output's module-scope names.
    fn names(&self) -> &names::Names;
    /// The member names of struct `st` in the output.
    fn member_names(&self, st: Handle<ir::Type>) -> Option<&[String]> {
        self.names().members.get(&st).map(Vec::as_slice)
    }
    /// The name of function `f` in the output.
    fn function_name(&self, f: Handle<ir::Function>) -> &str {
        &self.names().functions[&f]
    }
    /// The name of global `g` in the output.
    fn global_name(&self, g: Handle<ir::GlobalVariable>) -> &str {
        &self.names().globals[&g]
    }
    /// The names a function's own names must not take: the module's and
    /// its globals' (a plain uniform's too).
    fn scope(&self) -> Namer {
        let names = self.names();
        let mut taken = names.taken.clone();
        for name in names.globals.values() {
            taken.take(name);
        }
        taken
    }
    /// The context global initializers are printed in.
    fn globals_ctx(&self) -> FnCtx<'_, Self::FnState> {
        let taken = self.names().taken.clone();
        FnCtx::for_globals(self.module(), taken, Default::default())
    }
    /// The context of the body of `func`, whose parameters are named
    /// `param_names` and whose names in scope are `taken`.
    fn function_ctx<'f>(
        &self,
        func: &'f ir::Function,
        is_entry: bool,
        param_names: Vec<String>,
        taken: Namer,
        state: Self::FnState,
    ) -> Result<FnCtx<'f, Self::FnState>, Self::Error> {
        FnCtx::new(
            func,
            is_entry,
            param_names,
            taken,
            Self::NO_STATIC_LOCALS,
            state,
        )
    }

    /// A float literal of a scalar `width` bytes wide.
    fn float_literal(&self, f: f64, width: u8, span: Span) -> Result<String, Self::Error>;
    /// The components `components` of the vector `base` as a value.
    fn swizzle(&self, base: String, components: &[u8]) -> String;
    /// The components `components` of the vector place `base` (printed
    /// as `text`) as a place.
    fn swizzle_place(
        &self,
        ctx: &FnCtx<'_, Self::FnState>,
        base: Handle<Expression>,
        text: String,
        components: &[u8],
    ) -> String;
    /// The first `count` components of the vector `text`.
    fn leading(&self, text: &str, count: u8) -> String;

    /// `e` read when the target reads it its own way (before any other
    /// rule).
    fn read(
        &self,
        _ctx: &mut FnCtx<'_, Self::FnState>,
        _e: Handle<Expression>,
    ) -> Result<Option<String>, Self::Error> {
        Ok(None)
    }
    /// Global `g` read as a value.
    fn global(&self, g: Handle<ir::GlobalVariable>) -> Result<String, Self::Error>;
    /// Global `g` as a place.
    fn global_place(&self, g: Handle<ir::GlobalVariable>) -> Result<String, Self::Error>;
    /// Parameter `index` (`param`) of the function read.
    fn param(
        &self,
        ctx: &FnCtx<'_, Self::FnState>,
        index: usize,
        param: &ir::FunctionParam,
    ) -> String {
        let _ = param;
        ctx.param_names[index].clone()
    }
    /// A member read `e`, printed as `text`.
    fn member(
        &self,
        _ctx: &FnCtx<'_, Self::FnState>,
        _e: Handle<Expression>,
        text: String,
    ) -> Result<String, Self::Error> {
        Ok(text)
    }
    /// The element read `e` (`base[index]`) when the target reads it its
    /// own way (a texel).
    fn index(
        &self,
        ctx: &mut FnCtx<'_, Self::FnState>,
        e: Handle<Expression>,
    ) -> Result<Option<String>, Self::Error>;
    /// Refuses the element `e` (`base[index]`) as a place where the
    /// target cannot write one.
    fn check_index_place(
        &self,
        ctx: &FnCtx<'_, Self::FnState>,
        e: Handle<Expression>,
    ) -> Result<(), Self::Error>;
    /// Refuses the assignment `e` used as a value where the target writes
    /// the store as something other than `=`.
    fn check_assign_value(
        &self,
        ctx: &FnCtx<'_, Self::FnState>,
        e: Handle<Expression>,
    ) -> Result<(), Self::Error>;
    /// Refuses the place `e` as a reference (`what`: an increment).
    fn check_reference(
        &self,
        _ctx: &FnCtx<'_, Self::FnState>,
        _e: Handle<Expression>,
        _what: &str,
    ) -> Result<(), Self::Error> {
        Ok(())
    }
    /// The construction `e` of a value of type `ty` (spelled `spelled`)
    /// from `components`, printed as `parts`.
    fn construct_value(
        &self,
        ctx: &FnCtx<'_, Self::FnState>,
        e: Handle<Expression>,
        ty: Handle<ir::Type>,
        components: &[Handle<Expression>],
        spelled: String,
        parts: Vec<String>,
    ) -> Result<String, Self::Error> {
        let _ = (ctx, e, components);
        Ok(expr::aggregate(
            &self.module().types[ty].inner,
            &spelled,
            &parts,
        ))
    }
    /// The argument `arg` of an `out`/`inout` parameter `param` where the
    /// target passes it otherwise than as its place (through a temporary
    /// `copies` collects: the call a statement is made of has them, one
    /// nested in an expression `None`).
    fn out_argument(
        &self,
        _ctx: &mut FnCtx<'_, Self::FnState>,
        _param: &ir::FunctionParam,
        _arg: Handle<Expression>,
        _copies: &mut Option<Vec<ArgCopy>>,
    ) -> Result<Option<String>, Self::Error> {
        Ok(None)
    }
    /// Refuses `arg` as an `out`/`inout` argument where the target cannot
    /// bind a reference to it.
    fn check_out_argument(
        &self,
        _ctx: &FnCtx<'_, Self::FnState>,
        _arg: Handle<Expression>,
    ) -> Result<(), Self::Error> {
        Ok(())
    }
    /// Whether the `out`/`inout` argument `arg` goes through a temporary
    /// ([`ArgCopy`]).
    fn through_temporary(&self, _ctx: &FnCtx<'_, Self::FnState>, _arg: Handle<Expression>) -> bool {
        false
    }
    /// The arguments the call `call` passes after the source's: the
    /// globals its function reaches.
    fn threaded_args(
        &self,
        ctx: &mut FnCtx<'_, Self::FnState>,
        call: Handle<Expression>,
    ) -> Result<Vec<String>, Self::Error>;
    /// `target = value` (a texel's write, a store through a conversion).
    fn store(
        &self,
        ctx: &mut FnCtx<'_, Self::FnState>,
        store: Store,
    ) -> Result<String, Self::Error>;
    /// The lines of a statement the target writes its own way (indented
    /// by the caller); `None` leaves it to the shared printer.
    fn own_lines(
        &self,
        _ctx: &mut FnCtx<'_, Self::FnState>,
        _stmt: &Statement,
        _span: Span,
    ) -> Result<Option<Lines>, Self::Error> {
        Ok(None)
    }
    /// Debug `printf` of `format` and `args`, as lines; refused with
    /// [`Dialect::NO_PRINTF`] where the target has none.
    fn printf(
        &self,
        _ctx: &mut FnCtx<'_, Self::FnState>,
        _format: &str,
        _args: &[Handle<Expression>],
        span: Span,
    ) -> Result<Vec<String>, Self::Error> {
        Err(Self::Error::unsupported(Self::NO_PRINTF.into(), span))
    }
}

/// The built-in functions of a C-family target (its `intrinsics.rs`).
pub(crate) trait Intrinsics: Dialect {
    /// A call of a built-in function.
    fn intrinsic(
        &self,
        ctx: &mut FnCtx<'_, Self::FnState>,
        call: Call<'_>,
    ) -> Result<String, Self::Error>;
    /// A built-in function called as a statement, when it is written as
    /// lines of its own.
    fn intrinsic_statement(
        &self,
        ctx: &mut FnCtx<'_, Self::FnState>,
        call: Call<'_>,
    ) -> Result<Option<Lines>, Self::Error>;
}

/// Lines of a statement, indented by their writer.
pub(crate) type Lines = Vec<String>;

/// A store of `value` into the place `target`.
#[derive(Clone, Copy)]
pub(crate) struct Store {
    /// The place.
    pub target: Handle<Expression>,
    /// The value.
    pub value: Handle<Expression>,
}

/// A call of a built-in function.
#[derive(Clone, Copy)]
pub(crate) struct Call<'a> {
    /// The function.
    pub fun: ir::Intrinsic,
    /// Its arguments.
    pub args: &'a [Handle<Expression>],
    /// The call.
    pub expr: Handle<Expression>,
    /// The call's span.
    pub span: Span,
}
