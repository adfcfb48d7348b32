//! The checker: resolves names and types, picks overloads, applies HLSL's
//! implicit conversions, and lowers the syntax tree to IR in the same walk.
//!
//! Passes: items in source order (types, globals, function signatures), then
//! function bodies (so a function may call one defined later, as in Slang),
//! then entry points, then callee-before-caller ordering of functions
//! (`order.rs`). Each problem is reported once; after an error the checker
//! substitutes an error type that converts to everything, so one mistake
//! does not cascade.

mod attrs;
mod call;
pub mod consteval;
mod convert;
mod decl;
mod entry;
mod expr;
mod intrinsics;
mod methods;
mod order;
mod stmt;
pub mod types;

use std::collections::HashMap;

use legalis_ir as ir;
use legalis_ir::diag::Diagnostic;
use legalis_ir::{Handle, Span, Type};

use crate::{Options, ast};
use consteval::ConstValue;

/// What a type name resolves to.
#[derive(Clone, Copy, Debug)]
pub enum TypeSymbol {
    Type(Handle<Type>),
    /// Index into `Checker::enums`.
    Enum(usize),
}

/// What a value name resolves to.
#[derive(Clone, Debug)]
pub enum ValueSymbol {
    Global {
        handle: Handle<ir::GlobalVariable>,
        constant: Option<ConstValue>,
    },
    /// A member of a `cbuffer` block, reachable by its bare name.
    CbufferMember {
        global: Handle<ir::GlobalVariable>,
        index: u32,
    },
    Local {
        handle: Handle<ir::LocalVariable>,
        constant: Option<ConstValue>,
    },
    Param {
        index: u32,
    },
    EnumMember {
        ty: Handle<Type>,
        value: i64,
    },
    /// An overload set: indices into `Checker::funcs`.
    Functions(Vec<usize>),
}

#[derive(Clone, Debug)]
pub struct EnumInfo {
    pub name: String,
    pub ty: Handle<Type>,
    pub members: Vec<(String, i64)>,
}

#[derive(Clone, Debug)]
pub struct ParamSig {
    pub ty: Handle<Type>,
    pub direction: ir::ParamDirection,
    pub default: Option<ast::Expr>,
}

/// A user function's signature; one per overload (a prototype and its
/// definition share one).
#[derive(Clone, Debug)]
pub struct FuncInfo {
    pub name: String,
    pub params: Vec<ParamSig>,
    pub result: Option<Handle<Type>>,
    /// Index of the defining item in the source file, once seen.
    pub body_item: Option<usize>,
    pub span: Span,
}

/// State while lowering one function body.
#[derive(Debug)]
pub struct FnCtx {
    pub func: ir::Function,
    pub result: Option<Handle<Type>>,
    pub loop_depth: u32,
    pub switch_depth: u32,
    /// Indices into `Checker::funcs` of the functions this one calls, with the call span.
    pub calls: Vec<(usize, Span)>,
}

/// `RAY_FLAG_*`, `HIT_KIND_*` and `COMMITTED_*` as HLSL defines them.
const BUILTIN_UINT_CONSTANTS: &[(&str, i64)] = &[
    ("RAY_FLAG_NONE", 0x00),
    ("RAY_FLAG_FORCE_OPAQUE", 0x01),
    ("RAY_FLAG_FORCE_NON_OPAQUE", 0x02),
    ("RAY_FLAG_ACCEPT_FIRST_HIT_AND_END_SEARCH", 0x04),
    ("RAY_FLAG_SKIP_CLOSEST_HIT_SHADER", 0x08),
    ("RAY_FLAG_CULL_BACK_FACING_TRIANGLES", 0x10),
    ("RAY_FLAG_CULL_FRONT_FACING_TRIANGLES", 0x20),
    ("RAY_FLAG_CULL_OPAQUE", 0x40),
    ("RAY_FLAG_CULL_NON_OPAQUE", 0x80),
    ("RAY_FLAG_SKIP_TRIANGLES", 0x100),
    ("RAY_FLAG_SKIP_PROCEDURAL_PRIMITIVES", 0x200),
    ("HIT_KIND_TRIANGLE_FRONT_FACE", 0xFE),
    ("HIT_KIND_TRIANGLE_BACK_FACE", 0xFF),
    ("COMMITTED_NOTHING", 0),
    ("COMMITTED_TRIANGLE_HIT", 1),
    ("COMMITTED_PROCEDURAL_PRIMITIVE_HIT", 2),
];

pub struct Checker<'a> {
    pub options: &'a Options,
    pub module: ir::Module,
    diagnostics: &'a mut Vec<Diagnostic>,
    /// Stand-in type after an error; converts silently to and from anything.
    pub error_ty: Handle<Type>,
    type_scopes: Vec<HashMap<String, TypeSymbol>>,
    value_scopes: Vec<HashMap<String, ValueSymbol>>,
    pub enums: Vec<EnumInfo>,
    pub funcs: Vec<FuncInfo>,
    /// Lowered bodies, indexed like `funcs`.
    pub bodies: Vec<Option<ir::Function>>,
    /// Calls made by each lowered body, indexed like `funcs`.
    pub call_edges: Vec<Vec<(usize, Span)>>,
    pub ctx: Option<FnCtx>,
    /// Set when an error has been reported.
    pub failed: bool,
    /// Current expression nesting, bounded by `expr::MAX_EXPR_DEPTH`.
    pub expr_depth: u32,
    pub depth_reported: bool,
}

impl std::fmt::Debug for Checker<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Checker")
            .field("funcs", &self.funcs.len())
            .finish_non_exhaustive()
    }
}

/// Checks `file` and lowers it to IR. Returns `None` when errors were reported.
pub fn check(
    file: &ast::SourceFile,
    options: &Options,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<ir::Module> {
    // Checking a tree with syntax errors would report follow-on errors for
    // code the parser had to skip; the syntax errors come first.
    if diagnostics.iter().any(Diagnostic::is_error) {
        return None;
    }
    let mut checker = Checker::new(options, diagnostics);
    checker.declare_builtin_types();
    checker.check_items(file);
    checker.lower_bodies(file);
    checker.declare_entry_points(file);
    checker.finish()
}

impl<'a> Checker<'a> {
    fn new(options: &'a Options, diagnostics: &'a mut Vec<Diagnostic>) -> Self {
        let module = ir::Module::default();
        Checker {
            options,
            module,
            diagnostics,
            // A handle no real type has; the error type is only added to the
            // module when an error is reported, so a clean module never holds it.
            error_ty: Handle::from_index(u32::MAX as usize),
            type_scopes: vec![HashMap::new()],
            value_scopes: vec![HashMap::new()],
            enums: Vec::new(),
            funcs: Vec::new(),
            bodies: Vec::new(),
            call_edges: Vec::new(),
            ctx: None,
            failed: false,
            expr_depth: 0,
            depth_reported: false,
        }
    }

    pub fn error(&mut self, code: u32, message: impl Into<String>, span: Span) {
        self.push_diagnostic(Diagnostic::error(code, message, span));
    }

    pub fn warning(&mut self, code: u32, message: impl Into<String>, span: Span) {
        self.diagnostics
            .push(Diagnostic::warning(code, message, span));
    }

    pub fn push_diagnostic(&mut self, diagnostic: Diagnostic) {
        if diagnostic.is_error() && !self.failed {
            self.failed = true;
            self.error_ty = self.module.types.insert(
                Type { name: Some("<error>".into()), inner: ir::TypeInner::Struct { members: Vec::new() } },
                Span::UNDEFINED,
            );
        }
        self.diagnostics.push(diagnostic);
    }

    pub fn push_scope(&mut self) {
        self.type_scopes.push(HashMap::new());
        self.value_scopes.push(HashMap::new());
    }

    pub fn pop_scope(&mut self) {
        if self.value_scopes.len() > 1 {
            self.type_scopes.pop();
            self.value_scopes.pop();
        }
    }

    pub fn lookup_type(&self, name: &str) -> Option<TypeSymbol> {
        self.type_scopes
            .iter()
            .rev()
            .find_map(|s| s.get(name).copied())
    }

    pub fn lookup_value(&self, name: &str) -> Option<&ValueSymbol> {
        self.value_scopes.iter().rev().find_map(|s| s.get(name))
    }

    /// Resolves `a`, `E::A` and `E.A`-style paths (the last through member access elsewhere).
    pub fn lookup_value_path(&self, path: &[ast::Ident]) -> Option<ValueSymbol> {
        match path {
            [one] => self.lookup_value(&one.name).cloned(),
            [ty, member] => {
                let TypeSymbol::Enum(e) = self.lookup_type(&ty.name)? else {
                    return None;
                };
                let info = &self.enums[e];
                let value = info.members.iter().find(|(n, _)| *n == member.name)?.1;
                Some(ValueSymbol::EnumMember { ty: info.ty, value })
            }
            _ => None,
        }
    }

    /// Declares a value in the innermost scope; reports a redefinition in the
    /// same scope. Function overloads are merged by the caller.
    pub fn declare_value(&mut self, name: &ast::Ident, symbol: ValueSymbol) {
        let scope = self
            .value_scopes
            .last_mut()
            .expect("there is always a scope");
        if scope.contains_key(&name.name) {
            self.error(
                crate::codes::REDEFINITION,
                format!("`{}` is already defined in this scope", name.name),
                name.span,
            );
            return;
        }
        scope.insert(name.name.clone(), symbol);
    }

    pub fn declare_type(&mut self, name: &ast::Ident, symbol: TypeSymbol) {
        let builtin = types::numeric_from_name(&name.name).is_some();
        let scope = self
            .type_scopes
            .last_mut()
            .expect("there is always a scope");
        if builtin || scope.contains_key(&name.name) {
            self.error(
                crate::codes::REDEFINITION,
                format!("type `{}` is already defined", name.name),
                name.span,
            );
            return;
        }
        scope.insert(name.name.clone(), symbol);
    }

    /// Adds a value symbol to the outermost (module) scope, for overload sets.
    pub fn global_values_mut(&mut self) -> &mut HashMap<String, ValueSymbol> {
        &mut self.value_scopes[0]
    }

    /// The expression arena of the current context: the function being
    /// lowered, or the module's initializer arena.
    pub fn exprs(&mut self) -> &mut ir::ExpressionArena {
        match &mut self.ctx {
            Some(ctx) => &mut ctx.func.expressions,
            None => &mut self.module.global_expressions,
        }
    }

    pub fn exprs_ref(&self) -> &ir::ExpressionArena {
        match &self.ctx {
            Some(ctx) => &ctx.func.expressions,
            None => &self.module.global_expressions,
        }
    }

    /// `RayDesc` and `BuiltInTriangleIntersectionAttributes` are structs
    /// every shader can name.
    fn declare_builtin_types(&mut self) {
        let f32 = self.scalar_ty(ir::Scalar::F32);
        let float3 = self.numeric_ty(ir::Scalar::F32, types::Shape::Vector(3));
        let float2 = self.numeric_ty(ir::Scalar::F32, types::Shape::Vector(2));
        let member = |name: &str, ty| ir::StructMember {
            name: name.into(),
            ty,
            io: ir::IoAttrs::default(),
            matrix_layout: None,
            span: Span::UNDEFINED,
        };
        let ray_desc = ir::Type {
            name: Some("RayDesc".into()),
            inner: ir::TypeInner::Struct {
                members: vec![
                    member("Origin", float3),
                    member("TMin", f32),
                    member("Direction", float3),
                    member("TMax", f32),
                ],
            },
        };
        let attrs = ir::Type {
            name: Some("BuiltInTriangleIntersectionAttributes".into()),
            inner: ir::TypeInner::Struct {
                members: vec![member("barycentrics", float2)],
            },
        };
        // Ray-tracing flag constants every shader can name.
        let uint = self.scalar_ty(ir::Scalar::U32);
        for (name, value) in BUILTIN_UINT_CONSTANTS {
            self.value_scopes[0].insert(
                name.to_string(),
                ValueSymbol::EnumMember {
                    ty: uint,
                    value: *value,
                },
            );
        }
        for ty in [ray_desc, attrs] {
            let name = ty.name.clone().unwrap_or_default();
            let handle = self.module.types.insert(ty, Span::UNDEFINED);
            self.type_scopes[0].insert(name, TypeSymbol::Type(handle));
        }
    }

    fn finish(mut self) -> Option<ir::Module> {
        if self.failed {
            return None;
        }
        self.order_functions();
        if self.failed { None } else { Some(self.module) }
    }
}
