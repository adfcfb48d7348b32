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
mod byte_address;
mod call;
pub mod consteval;
mod constexpr;
mod convert;
mod decl;
mod dyn_dispatch;
mod entry;
mod expr;
mod generics;
mod glsl;
mod handles;
mod hit_object;
mod intrinsics;
mod memberwise;
mod methods;
mod mutation;
mod optional;
mod optix;
mod order;
mod printf;
mod ray_query;
mod semantics;
mod stmt;
mod struct_alias;
mod type_test;
pub mod types;

use legalis_ir as ir;
use legalis_ir::FastHashMap;
use legalis_ir::diag::Diagnostic;
use legalis_ir::{Handle, Span, Type};

use crate::{Options, ast};
use consteval::ConstValue;

/// An item with the namespace it is declared in (`A::B`, empty at file
/// scope). Namespaces are flattened so items can be addressed by index.
#[derive(Clone, Debug)]
pub struct FlatItem<'a> {
    pub namespace: String,
    pub item: &'a ast::Item,
}

fn flatten_items(file: &ast::SourceFile) -> Vec<FlatItem<'_>> {
    fn walk<'a>(items: &'a [ast::Item], prefix: &str, out: &mut Vec<FlatItem<'a>>) {
        for item in items {
            match item {
                ast::Item::Namespace(ns) => {
                    let inner = if prefix.is_empty() {
                        ns.name.name.clone()
                    } else {
                        format!("{prefix}::{}", ns.name.name)
                    };
                    walk(&ns.items, &inner, out);
                }
                _ => out.push(FlatItem {
                    namespace: prefix.to_string(),
                    item,
                }),
            }
        }
    }
    let mut out = Vec::new();
    walk(&file.items, "", &mut out);
    out
}

/// What a type name resolves to.
#[derive(Clone, Copy, Debug)]
pub enum TypeSymbol {
    Type(Handle<Type>),
    /// Index into `Checker::enums`.
    Enum(usize),
    /// Index into `Checker::interfaces`.
    Interface(usize),
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
    /// A field of `this`, named bare inside a member function.
    ThisField {
        index: u32,
    },
    /// `this` inside a member function (parameter 0).
    This,
    /// A parameter, local or field of `this` declared `Conditional<T,
    /// false>`: it holds nothing (see `optional.rs`).
    AbsentConditional {
        inner: Handle<Type>,
    },
    /// The instance name of a GLSL `buffer` block (`field` `None`), or a
    /// field of one without an instance name: element 0 of the block's
    /// buffer, or that element's field.
    GlslBlock {
        global: Handle<ir::GlobalVariable>,
        field: Option<u32>,
    },
}

#[derive(Clone, Debug)]
pub struct EnumInfo {
    pub ty: Handle<Type>,
    pub members: Vec<(String, i64)>,
}

#[derive(Clone, Debug)]
pub struct ParamSig {
    pub ty: Handle<Type>,
    pub direction: ir::ParamDirection,
    pub default: Option<ast::Expr>,
    /// Slang `constexpr`: the argument must be a compile-time constant,
    /// and the function is specialised per constant (`constexpr.rs`).
    pub constexpr: bool,
}

/// A user function's signature; one per overload (a prototype and its
/// definition share one).
#[derive(Clone, Debug)]
pub struct FuncInfo {
    pub name: String,
    pub params: Vec<ParamSig>,
    pub result: Option<Handle<Type>>,
    /// Where the definition is, once seen.
    pub body_item: Option<BodyRef>,
    pub span: Span,
    /// The namespace names in the body resolve from (`N`, or `N::S` for a
    /// member function of `S`).
    pub scope: String,
    /// For a non-static member function: the struct `this` is; `this` is
    /// then parameter 0.
    pub this_ty: Option<Handle<Type>>,
    /// A constructor (`__init`) of this struct: it has no `this`
    /// parameter; its body builds the struct in a local `this`, which it
    /// returns.
    pub constructs: Option<Handle<Type>>,
}

/// Where a function's definition is: a flat item, or a member function of
/// the struct that item declares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BodyRef {
    pub item: usize,
    pub method: Option<usize>,
}

impl BodyRef {
    pub fn decl<'a>(self, items: &[FlatItem<'a>]) -> Option<&'a ast::FunctionDecl> {
        match (items.get(self.item)?.item, self.method) {
            (ast::Item::Function(f), None) => Some(f),
            (ast::Item::Struct(s) | ast::Item::Extension(s), Some(m)) => s.methods.get(m),
            _ => None,
        }
    }
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
    /// In a non-static member function: the struct of `this` (parameter 0).
    pub this_ty: Option<Handle<Type>>,
    /// In a constructor: the local `this` that it builds and returns.
    pub this_local: Option<Handle<ir::LocalVariable>>,
    /// The indices of this function's `constexpr` parameters.
    pub constexpr_params: Vec<u32>,
}

/// `RAY_FLAG_*`, `HIT_KIND_*`, `COMMITTED_*` and `CANDIDATE_*` as HLSL
/// defines them.
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
    ("CANDIDATE_NON_OPAQUE_TRIANGLE", 0),
    ("CANDIDATE_PROCEDURAL_PRIMITIVE", 1),
    ("RAY_FLAG_FORCE_OPACITY_MICROMAP_2_STATE", 0x400),
];

pub struct Checker<'a> {
    pub options: &'a Options,
    pub module: ir::Module,
    diagnostics: &'a mut Vec<Diagnostic>,
    /// Stand-in type after an error; converts silently to and from anything.
    pub error_ty: Handle<Type>,
    type_scopes: Vec<FastHashMap<String, TypeSymbol>>,
    value_scopes: Vec<FastHashMap<String, ValueSymbol>>,
    pub enums: Vec<EnumInfo>,
    /// Declared interfaces: requirements only, checked against the
    /// structs that conform to them.
    pub interfaces: Vec<ast::InterfaceDecl>,
    pub funcs: Vec<FuncInfo>,
    /// Lowered bodies, indexed like `funcs`.
    pub bodies: Vec<Option<ir::Function>>,
    /// Calls made by each lowered body, indexed like `funcs`.
    pub call_edges: Vec<Vec<(usize, Span)>>,
    pub ctx: Option<FnCtx>,
    /// Set when an error has been reported.
    pub failed: bool,
    /// The namespace being checked (`A::B`; empty at file scope).
    pub namespace: String,
    /// Current expression nesting, bounded by `expr::MAX_EXPR_DEPTH`.
    pub expr_depth: u32,
    pub depth_reported: bool,
    /// Hash of a member name to the member's index, for large structs,
    /// built on the first access: looking fields up by name stays linear
    /// in the number of accesses. The names are not copied (the member
    /// found is checked against the name asked for).
    member_indices: FastHashMap<Handle<Type>, FastHashMap<u64, u32>>,
    /// The default values of struct fields (`float t = 1.0;`), by member
    /// index: a variable of the struct declared without an initializer,
    /// and a constructor's `this`, start with them.
    pub field_defaults: FastHashMap<Handle<Type>, Vec<(u32, ast::Expr)>>,
    /// The defaults [`Checker::struct_members`] read last, for the type
    /// its caller makes (`take_field_defaults`).
    pub pending_field_defaults: Vec<(u32, ast::Expr)>,
    /// The one-member structs made for `ConstantBuffer<T>` of a non-struct
    /// `T` (`ConstantBuffer<float>`): the buffer's name reads the member.
    pub value_buffers: FastHashMap<Handle<Type>, ()>,
    /// Generic function and struct templates and their specialisations.
    generics: generics::Generics,
    /// The derivative group of `layout(derivative_group_quadsNV) in;`
    /// (`-allow-glsl`), for compute entry points that name none.
    pub glsl_derivative_group: Option<ir::DerivativeGroup>,
    /// `Optional<T>` types and `Conditional<T, c>` declarations.
    optional: optional::OptionalState,
    /// `DescriptorHandle<T>` types and their `T` (`handles.rs`).
    pub descriptor_handles: FastHashMap<Handle<Type>, Handle<Type>>,
    /// The descriptor heap of each resource type a handle is read as.
    pub descriptor_heaps: FastHashMap<Handle<Type>, Handle<ir::GlobalVariable>>,
    /// Interface value types and their dispatch functions (`dyn_dispatch.rs`).
    dyn_dispatch: dyn_dispatch::DynDispatch,
    /// How many `ParameterBlock` globals are declared so far.
    pub parameter_blocks: u32,
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
    let items = flatten_items(file);
    let mut checker = Checker::new(options, diagnostics);
    checker.declare_builtin_types();
    checker.scan_dyn_conformances(&items);
    checker.check_items(&items);
    checker.lower_bodies(&items);
    checker.namespace.clear();
    checker.declare_entry_points(&items);
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
            type_scopes: vec![FastHashMap::default()],
            value_scopes: vec![FastHashMap::default()],
            enums: Vec::new(),
            interfaces: Vec::new(),
            funcs: Vec::new(),
            bodies: Vec::new(),
            call_edges: Vec::new(),
            ctx: None,
            failed: false,
            namespace: String::new(),
            expr_depth: 0,
            depth_reported: false,
            member_indices: FastHashMap::default(),
            field_defaults: FastHashMap::default(),
            pending_field_defaults: Vec::new(),
            value_buffers: FastHashMap::default(),
            generics: generics::Generics::default(),
            glsl_derivative_group: None,
            optional: optional::OptionalState::default(),
            descriptor_handles: FastHashMap::default(),
            descriptor_heaps: FastHashMap::default(),
            dyn_dispatch: dyn_dispatch::DynDispatch::default(),
            parameter_blocks: 0,
        }
    }

    /// The index of member `name` of struct type `ty`.
    pub fn member_index(&mut self, ty: Handle<Type>, name: &str) -> Option<u32> {
        /// Below this many members a scan is as fast as a map.
        const SCAN: usize = 16;
        let ir::TypeInner::Struct { members } = &self.module.types[ty].inner else {
            return None;
        };
        if members.len() <= SCAN {
            return members
                .iter()
                .position(|m| m.name == name)
                .map(|i| i as u32);
        }
        let hash = |name: &str| std::hash::BuildHasher::hash_one(&rustc_hash::FxBuildHasher, name);
        let index = self.member_indices.entry(ty).or_insert_with(|| {
            let mut index =
                FastHashMap::with_capacity_and_hasher(members.len(), Default::default());
            for (i, m) in members.iter().enumerate() {
                // The first of a repeated name wins, as a scan would find.
                index.entry(hash(&m.name)).or_insert(i as u32);
            }
            index
        });
        match index.get(&hash(name)) {
            None => None,
            Some(&i) if members[i as usize].name == name => Some(i),
            // Two names with one hash: the scan decides.
            Some(_) => members
                .iter()
                .position(|m| m.name == name)
                .map(|i| i as u32),
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
                Type {
                    name: Some("<error>".into()),
                    inner: ir::TypeInner::Struct {
                        members: Vec::new(),
                    },
                },
                Span::UNDEFINED,
            );
        }
        self.diagnostics.push(diagnostic);
    }

    pub fn push_scope(&mut self) {
        self.type_scopes.push(FastHashMap::default());
        self.value_scopes.push(FastHashMap::default());
    }

    pub fn pop_scope(&mut self) {
        if self.value_scopes.len() > 1 {
            self.type_scopes.pop();
            self.value_scopes.pop();
        }
    }

    pub fn lookup_type(&self, name: &str) -> Option<TypeSymbol> {
        if let Some(found) = self.type_scopes[1..].iter().rev().find_map(|s| s.get(name)) {
            return Some(*found);
        }
        self.in_namespaces(name, |key| self.type_scopes[0].get(key).copied())
    }

    pub fn lookup_value(&self, name: &str) -> Option<&ValueSymbol> {
        if let Some(found) = self.value_scopes[1..]
            .iter()
            .rev()
            .find_map(|s| s.get(name))
        {
            return Some(found);
        }
        self.in_namespaces(name, |key| self.value_scopes[0].get(key))
    }

    /// Looks `name` up as seen from the current namespace: `A::B::name`,
    /// then `A::name`, then `name`.
    fn in_namespaces<T>(&self, name: &str, get: impl Fn(&str) -> Option<T>) -> Option<T> {
        let mut prefix = self.namespace.as_str();
        loop {
            if prefix.is_empty() {
                return get(name);
            }
            if let Some(found) = get(&format!("{prefix}::{name}")) {
                return Some(found);
            }
            prefix = prefix.rsplit_once("::").map_or("", |(outer, _)| outer);
        }
    }

    /// The module-scope key of a name declared now: qualified inside a namespace.
    pub fn qualified(&self, name: &str) -> String {
        if self.namespace.is_empty() {
            name.to_string()
        } else {
            format!("{}::{name}", self.namespace)
        }
    }

    /// Resolves `a`, `N::a` and `E::A` / `N::E::A` paths.
    pub fn lookup_value_path(&self, path: &[ast::Ident]) -> Option<ValueSymbol> {
        let (last, outer) = path.split_last()?;
        if !outer.is_empty() {
            let ty_name = consteval::path_text(outer);
            if let Some(TypeSymbol::Enum(e)) = self.lookup_type(&ty_name) {
                let info = &self.enums[e];
                let value = info.members.iter().find(|(n, _)| *n == last.name)?.1;
                return Some(ValueSymbol::EnumMember { ty: info.ty, value });
            }
        }
        match path {
            [one] => self.lookup_value(&one.name).cloned(),
            _ => self.lookup_value(&consteval::path_text(path)).cloned(),
        }
    }

    /// Declares a value in the innermost scope; reports a redefinition in the
    /// same scope. Function overloads are merged by the caller. At module
    /// scope the name is qualified by the current namespace.
    pub fn declare_value(&mut self, name: &ast::Ident, symbol: ValueSymbol) {
        let key = self.scope_key(self.value_scopes.len(), &name.name);
        let scope = self
            .value_scopes
            .last_mut()
            .expect("there is always a scope");
        if scope.contains_key(&key) {
            let message = format!("`{}` is already defined in this scope", name.name);
            self.error(crate::codes::REDEFINITION, message, name.span);
            return;
        }
        scope.insert(key, symbol);
    }

    pub fn declare_type(&mut self, name: &ast::Ident, symbol: TypeSymbol) {
        let builtin = types::numeric_from_name(&name.name).is_some();
        let key = self.scope_key(self.type_scopes.len(), &name.name);
        // A built-in enum (`TRAVERSABLE_TRANSFORM_TYPE`, the first enum)
        // gives way to the shader's own declaration of its name.
        let replaces_builtin = self.type_scopes.len() == 1
            && key == optix::TRANSFORM_TYPE
            && matches!(self.type_scopes[0].get(&key), Some(TypeSymbol::Enum(0)));
        let scope = self
            .type_scopes
            .last_mut()
            .expect("there is always a scope");
        if builtin || (scope.contains_key(&key) && !replaces_builtin) {
            let message = format!("type `{}` is already defined", name.name);
            self.error(crate::codes::REDEFINITION, message, name.span);
            return;
        }
        scope.insert(key, symbol);
    }

    fn scope_key(&self, depth: usize, name: &str) -> String {
        if depth == 1 {
            self.qualified(name)
        } else {
            name.to_string()
        }
    }

    /// The module-scope symbol with exactly this (qualified) key.
    pub fn global_value(&self, key: &str) -> Option<&ValueSymbol> {
        self.value_scopes[0].get(key)
    }

    /// Adds a value symbol to the outermost (module) scope, for overload sets.
    pub fn global_values_mut(&mut self) -> &mut FastHashMap<String, ValueSymbol> {
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

    /// Names every shader can use without declaring them.
    fn declare_builtin_types(&mut self) {
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
        self.declare_optix_types();
    }

    /// `RayDesc` and `BuiltInTriangleIntersectionAttributes`: structs every
    /// shader can name, added to the module only when used, so they do not
    /// appear in modules that never mention them.
    pub fn builtin_struct(&mut self, name: &str) -> Option<Handle<Type>> {
        let float = |c: &mut Self, n| {
            c.numeric_ty(
                ir::Scalar::F32,
                if n == 1 {
                    types::Shape::Scalar
                } else {
                    types::Shape::Vector(n)
                },
            )
        };
        let fields: Vec<(&str, Handle<Type>)> = match name {
            "RayDesc" => vec![
                ("Origin", float(self, 3)),
                ("TMin", float(self, 1)),
                ("Direction", float(self, 3)),
                ("TMax", float(self, 1)),
            ],
            "BuiltInTriangleIntersectionAttributes" => vec![("barycentrics", float(self, 2))],
            _ => return None,
        };
        let members = fields
            .into_iter()
            .map(|(field, ty)| ir::StructMember {
                name: field.into(),
                ty,
                io: ir::IoAttrs::default(),
                matrix_layout: None,
                span: Span::UNDEFINED,
            })
            .collect();
        let ty = Type {
            name: Some(name.into()),
            inner: ir::TypeInner::Struct { members },
        };
        let handle = self.module.types.insert(ty, Span::UNDEFINED);
        self.type_scopes[0].insert(name.into(), TypeSymbol::Type(handle));
        Some(handle)
    }

    fn finish(mut self) -> Option<ir::Module> {
        if self.failed {
            return None;
        }
        self.specialise_constexpr();
        self.order_functions();
        if !self.failed {
            self.imply_entry_attributes();
        }
        if self.failed { None } else { Some(self.module) }
    }
}
