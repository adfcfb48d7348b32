//! Slang generics, resolved statically by specialisation.
//!
//! A generic function (`T twice<T : IFoo>(T x)`, `void f<let N : int>(float
//! a[N])`) or struct (`struct Pair<T>`) declares nothing by itself: it is
//! kept as a template. A call infers the arguments from the argument types
//! (or takes explicit ones, `f<float, 3>(x)`), checks each type argument
//! against its constraints and then specialises: one IR function per
//! distinct argument list, its signature resolved at once and its body
//! checked after the other bodies, with the parameters bound (a type
//! parameter names its argument, a value parameter is a constant). A
//! written `Pair<float>` makes one IR struct per distinct argument list,
//! named `Pair<float>` (the writers turn it into an identifier), with its
//! methods specialised with it. Templates never used produce nothing.

use std::rc::Rc;

use legalis_ir as ir;
use legalis_ir::{FastHashMap, Handle, ScalarKind, Span, Type, TypeInner};

use super::convert::Value;
use super::{Checker, ParamSig, TypeSymbol, ValueSymbol};
use crate::{ast, codes};

/// How many specialisations one shader may make: a generic function that
/// calls itself with ever new arguments stops here.
const MAX_INSTANCES: usize = 1024;

/// One argument of a specialisation: a type, or a value parameter's constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GenericValue {
    Type(Handle<Type>),
    Value(i64),
}

#[derive(Debug)]
struct Template<T> {
    decl: Rc<T>,
    namespace: String,
    /// For a generic method: the struct it belongs to.
    owner: Option<Owner>,
}

/// The struct of a generic method: its type, its declaration (for `this`),
/// and, for a struct instance, the struct's own parameters and arguments.
#[derive(Debug)]
struct Owner {
    ty: Handle<Type>,
    decl: Rc<ast::StructDecl>,
    params: Rc<Vec<ast::GenericParam>>,
    args: Vec<GenericValue>,
}

/// A body to check once the ordinary bodies are done.
#[derive(Debug)]
struct PendingBody {
    func: usize,
    decl: Rc<ast::FunctionDecl>,
    generics: Rc<Vec<ast::GenericParam>>,
    args: Vec<GenericValue>,
    namespace: String,
    /// For a method of a struct instance: the template's name and the
    /// instance, which the bare template name means inside its body.
    this_struct: Option<(String, Handle<Type>)>,
}

/// The generic templates and their specialisations.
#[derive(Debug, Default)]
pub struct Generics {
    /// Qualified name to the function templates of that name.
    func_names: FastHashMap<String, Vec<usize>>,
    funcs: Vec<Template<ast::FunctionDecl>>,
    func_instances: FastHashMap<(usize, Vec<GenericValue>), usize>,
    struct_names: FastHashMap<String, usize>,
    structs: Vec<Template<ast::StructDecl>>,
    struct_instances: FastHashMap<(usize, Vec<GenericValue>), Handle<Type>>,
    /// Each struct instance's template and arguments, for inference.
    instance_of: FastHashMap<Handle<Type>, (usize, Vec<GenericValue>)>,
    pending: Vec<PendingBody>,
    /// The interfaces each struct declares it conforms to.
    conformances: FastHashMap<Handle<Type>, Vec<usize>>,
    instances: usize,
    limit_reported: bool,
}

/// The scopes a specialisation hides while its parameters are bound.
struct Saved {
    types: Vec<FastHashMap<String, TypeSymbol>>,
    values: Vec<FastHashMap<String, ValueSymbol>>,
    namespace: String,
}

/// Why an attempt to call a template failed (reported only when no other
/// candidate fits).
struct Failure {
    code: u32,
    message: String,
}

/// Interfaces every shader can name as constraints, with the types that
/// conform to them.
fn builtin_conforms(interface: &str, inner: &TypeInner) -> Option<bool> {
    let (scalar, is_scalar) = match inner {
        TypeInner::Scalar(s) => (Some(*s), true),
        TypeInner::Vector { scalar, .. } | TypeInner::Matrix { scalar, .. } => {
            (Some(*scalar), false)
        }
        _ => (None, false),
    };
    let kind = scalar.map(|s| s.kind);
    let float = kind == Some(ScalarKind::Float);
    let integer = matches!(kind, Some(ScalarKind::Sint | ScalarKind::Uint));
    let numeric = float || integer;
    Some(match interface {
        "IArithmetic" | "IComparable" => numeric,
        "IFloat" | "IDifferentiable" => float,
        "IInteger" => integer,
        "ILogical" => integer || kind == Some(ScalarKind::Bool),
        "__BuiltinType" => is_scalar,
        "__BuiltinArithmeticType" => is_scalar && numeric,
        "__BuiltinSignedArithmeticType" => is_scalar && (float || kind == Some(ScalarKind::Sint)),
        "__BuiltinFloatingPointType" | "__BuiltinRealType" => is_scalar && float,
        "__BuiltinIntegerType" => is_scalar && integer,
        _ => return None,
    })
}

impl Generics {
    /// Whether `name` (as written) is the name of a generic struct.
    pub fn is_generic_struct(&self, name: &str) -> bool {
        self.struct_names
            .keys()
            .any(|k| k == name || k.ends_with(&format!("::{name}")))
    }
}

impl Checker<'_> {
    /// Keeps a generic function as a template under its qualified name.
    pub fn declare_generic_function(&mut self, decl: &ast::FunctionDecl) {
        self.check_generic_params(&decl.generics);
        let key = self.qualified(&decl.name.name);
        if matches!(self.global_value(&key), Some(v) if !matches!(v, ValueSymbol::Functions(_))) {
            self.error(
                codes::REDEFINITION,
                format!(
                    "`{}` is already defined as something other than a function",
                    decl.name.name
                ),
                decl.name.span,
            );
            return;
        }
        let index = self.generics.funcs.len();
        self.generics.funcs.push(Template {
            decl: Rc::new(decl.clone()),
            namespace: self.namespace.clone(),
            owner: None,
        });
        self.generics.func_names.entry(key).or_default().push(index);
    }

    /// Keeps a generic method of struct `ty` (an instance of a generic
    /// struct when `outer` holds the struct's parameters and arguments) as
    /// a template named `S::method`; the current namespace is the struct's.
    pub fn declare_generic_method(
        &mut self,
        method: &ast::FunctionDecl,
        owner: &ast::StructDecl,
        ty: Handle<Type>,
        outer: Option<(Rc<Vec<ast::GenericParam>>, Vec<GenericValue>)>,
    ) {
        self.check_generic_params(&method.generics);
        let type_name = self.module.types[ty].name.clone().unwrap_or_default();
        let key = format!("{type_name}::{}", method.name.name);
        let (params, args) = outer.unwrap_or_default();
        let index = self.generics.funcs.len();
        self.generics.funcs.push(Template {
            decl: Rc::new(method.clone()),
            namespace: type_name,
            owner: Some(Owner {
                ty,
                decl: Rc::new(owner.clone()),
                params,
                args,
            }),
        });
        self.generics.func_names.entry(key).or_default().push(index);
    }

    /// Inside a method of struct `S`, a bare call of a generic method of
    /// `S` that is not static passes the same `this`.
    pub fn generic_implicit_this(
        &mut self,
        templates: &[usize],
        span: Span,
    ) -> Option<(Value, Span)> {
        let this_ty = self.ctx.as_ref()?.this_ty?;
        let found = templates.iter().any(|&t| {
            let template = &self.generics.funcs[t];
            template.owner.as_ref().is_some_and(|o| o.ty == this_ty)
                && !template
                    .decl
                    .modifiers
                    .iter()
                    .any(|m| m.kind == ast::ModifierKind::Static)
        });
        if !found {
            return None;
        }
        let this = self.append(ir::Expression::Param(0), Some(this_ty), span);
        Some((this, span))
    }

    /// The generic methods named `key` (`S::method`), if any.
    pub fn generic_methods(&self, key: &str) -> Option<Vec<usize>> {
        self.generics.func_names.get(key).cloned()
    }

    /// Keeps a generic struct as a template under its qualified name.
    pub fn declare_generic_struct(&mut self, decl: &ast::StructDecl) {
        self.check_generic_params(&decl.generics);
        let key = self.qualified(&decl.name.name);
        if self.generics.struct_names.contains_key(&key) || self.type_scopes[0].contains_key(&key) {
            self.error(
                codes::REDEFINITION,
                format!("type `{}` is already defined", decl.name.name),
                decl.name.span,
            );
            return;
        }
        let index = self.generics.structs.len();
        self.generics.structs.push(Template {
            decl: Rc::new(decl.clone()),
            namespace: self.namespace.clone(),
            owner: None,
        });
        self.generics.struct_names.insert(key, index);
    }

    /// Each constraint names an interface; names are not repeated.
    fn check_generic_params(&mut self, params: &[ast::GenericParam]) {
        for (i, p) in params.iter().enumerate() {
            if params[..i].iter().any(|q| q.name.name == p.name.name) {
                self.error(
                    codes::REDEFINITION,
                    format!("generic parameter `{}` is declared twice", p.name.name),
                    p.name.span,
                );
            }
            match &p.kind {
                ast::GenericParamKind::Type { constraints } => {
                    for c in constraints {
                        self.constraint_known(c);
                    }
                }
                ast::GenericParamKind::Value { ty } => {
                    let t = self.resolve_type(ty);
                    if t != self.error_ty
                        && !matches!(self.inner(t), TypeInner::Scalar(s) if s.kind != ScalarKind::Float)
                    {
                        let name = self.type_name(t);
                        self.error(
                            codes::BAD_GENERIC_ARGUMENTS,
                            format!(
                                "generic value parameter `{}` must be an integer or `bool`, \
                                 found `{name}`",
                                p.name.name
                            ),
                            ty.span,
                        );
                    }
                }
            }
        }
    }

    /// Reports a constraint that names no interface.
    fn constraint_known(&mut self, c: &ast::TypeExpr) {
        match self.lookup_type(&c.name) {
            Some(TypeSymbol::Interface(_)) => {}
            _ if c.args.is_empty()
                && builtin_conforms(
                    &c.name,
                    &TypeInner::Struct {
                        members: Vec::new(),
                    },
                )
                .is_some() => {}
            Some(_) => self.error(
                codes::NOT_AN_INTERFACE,
                format!(
                    "`{}` is not an interface: a generic constraint names one",
                    c.name
                ),
                c.span,
            ),
            None => self.error(
                codes::UNDEFINED_TYPE,
                format!("undefined interface `{}`", c.name),
                c.span,
            ),
        }
    }

    /// Records the interfaces struct `ty` conforms to (found by name; the
    /// conformance check reports names that are not interfaces).
    pub fn record_conformances(&mut self, ty: Handle<Type>, decl: &ast::StructDecl) {
        let list: Vec<usize> = decl
            .conformances
            .iter()
            .filter_map(|c| match self.lookup_type(&c.name) {
                Some(TypeSymbol::Interface(i)) => Some(i),
                _ => None,
            })
            .collect();
        if !list.is_empty() {
            self.generics.conformances.insert(ty, list);
        }
    }

    /// Whether `ty` satisfies the constraint `c`.
    fn conforms(&self, ty: Handle<Type>, c: &ast::TypeExpr) -> bool {
        if ty == self.error_ty {
            return true;
        }
        let wanted = match self.lookup_type(&c.name) {
            Some(TypeSymbol::Interface(i)) => i,
            _ => return builtin_conforms(&c.name, self.inner(ty)).unwrap_or(true),
        };
        let mut pending: Vec<usize> = self
            .generics
            .conformances
            .get(&ty)
            .cloned()
            .unwrap_or_default();
        // A value of interface type conforms to its interface (dynamic
        // dispatch inside the specialisation: `dyn_dispatch.rs`).
        if let Some(info) = self.dyn_info(ty) {
            pending.push(info.interface);
        }
        let mut seen = Vec::new();
        while let Some(i) = pending.pop() {
            if i == wanted {
                return true;
            }
            if seen.contains(&i) {
                continue;
            }
            seen.push(i);
            for base in &self.interfaces[i].bases {
                if let Some(TypeSymbol::Interface(b)) = self.lookup_type(&base.name) {
                    pending.push(b);
                }
            }
        }
        false
    }

    /// The function templates `name` names from the current namespace.
    pub fn generic_functions(&self, name: &str) -> Option<Vec<usize>> {
        if self.generics.func_names.is_empty() {
            return None;
        }
        self.in_namespaces(name, |key| self.generics.func_names.get(key).cloned())
    }

    fn generic_struct(&self, name: &str) -> Option<usize> {
        if self.generics.struct_names.is_empty() {
            return None;
        }
        self.in_namespaces(name, |key| self.generics.struct_names.get(key).copied())
    }

    /// Binds generic parameters to arguments in a scope of their own, with
    /// the scopes of the code being checked hidden, in the template's
    /// namespace.
    fn enter_generic_scope(
        &mut self,
        params: &[ast::GenericParam],
        args: &[GenericValue],
        namespace: &str,
        this_struct: Option<(&str, Handle<Type>)>,
    ) -> Saved {
        let saved = Saved {
            types: self.type_scopes.split_off(1),
            values: self.value_scopes.split_off(1),
            namespace: std::mem::replace(&mut self.namespace, namespace.to_string()),
        };
        self.push_scope();
        if let Some((name, ty)) = this_struct {
            for word in [name, "This"] {
                let ident = ast::Ident {
                    name: word.to_string(),
                    span: Span::UNDEFINED,
                };
                self.declare_type(&ident, TypeSymbol::Type(ty));
            }
        }
        for (p, a) in params.iter().zip(args) {
            match (&p.kind, *a) {
                (ast::GenericParamKind::Type { .. }, GenericValue::Type(ty)) => {
                    self.declare_type(&p.name, TypeSymbol::Type(ty));
                }
                (ast::GenericParamKind::Value { ty }, GenericValue::Value(value)) => {
                    let mut ty = self.resolve_type(ty);
                    if !matches!(self.inner(ty), TypeInner::Scalar(s) if s.kind == ScalarKind::Uint)
                    {
                        ty = self.scalar_ty(ir::Scalar::I32);
                    }
                    self.declare_value(&p.name, ValueSymbol::EnumMember { ty, value });
                }
                _ => {}
            }
        }
        saved
    }

    fn leave_generic_scope(&mut self, saved: Saved) {
        self.type_scopes.truncate(1);
        self.value_scopes.truncate(1);
        self.type_scopes.extend(saved.types);
        self.value_scopes.extend(saved.values);
        self.namespace = saved.namespace;
    }

    /// Counts one more specialisation; `false` (reported once) past the limit.
    fn count_instance(&mut self, span: Span) -> bool {
        self.generics.instances += 1;
        if self.generics.instances <= MAX_INSTANCES {
            return true;
        }
        if !self.generics.limit_reported {
            self.generics.limit_reported = true;
            self.error(
                codes::RECURSION,
                format!(
                    "more than {MAX_INSTANCES} generic specialisations: a generic function or \
                     struct uses itself with ever new arguments"
                ),
                span,
            );
        }
        false
    }

    /// The argument an explicit generic argument gives parameter `p`.
    fn explicit_arg(
        &mut self,
        p: &ast::GenericParam,
        arg: &ast::GenericArg,
        owner: &str,
    ) -> Option<GenericValue> {
        match &p.kind {
            ast::GenericParamKind::Type { .. } => {
                let ty = match arg {
                    ast::GenericArg::Type(t) => self.resolve_type(t),
                    ast::GenericArg::Value(e) => match &e.kind {
                        ast::ExprKind::Name(path) if path.len() == 1 => {
                            self.resolve_type(&ast::TypeExpr {
                                name: path[0].name.clone(),
                                args: Vec::new(),
                                modifiers: Vec::new(),
                                span: e.span,
                            })
                        }
                        _ => {
                            self.error(
                                codes::BAD_GENERIC_ARGUMENTS,
                                format!(
                                    "generic argument `{}` of `{owner}` must be a type",
                                    p.name.name
                                ),
                                e.span,
                            );
                            return None;
                        }
                    },
                };
                (ty != self.error_ty).then_some(GenericValue::Type(ty))
            }
            ast::GenericParamKind::Value { .. } => {
                let expr = match arg {
                    ast::GenericArg::Value(e) => e.clone(),
                    ast::GenericArg::Type(t) if t.args.is_empty() => {
                        // A lone first argument reads as a type: `true`,
                        // `N`.
                        let kind = match t.name.as_str() {
                            "true" => ast::ExprKind::Bool(true),
                            "false" => ast::ExprKind::Bool(false),
                            _ => ast::ExprKind::Name(vec![ast::Ident {
                                name: t.name.clone(),
                                span: t.span,
                            }]),
                        };
                        ast::Expr::new(kind, t.span)
                    }
                    ast::GenericArg::Type(t) => {
                        self.error(
                            codes::BAD_GENERIC_ARGUMENTS,
                            format!(
                                "generic argument `{}` of `{owner}` must be a constant",
                                p.name.name
                            ),
                            t.span,
                        );
                        return None;
                    }
                };
                let value = self.const_eval(&expr)?;
                match value.as_i64() {
                    Some(n) => Some(GenericValue::Value(n)),
                    None => {
                        self.error(
                            codes::BAD_GENERIC_ARGUMENTS,
                            format!(
                                "generic argument `{}` of `{owner}` must be an integer or \
                                 `bool` constant, found {value}",
                                p.name.name
                            ),
                            expr.span,
                        );
                        None
                    }
                }
            }
        }
    }

    /// How an argument list reads in a specialisation's name.
    /// A `bool` parameter's argument reads `true` or `false`.
    fn args_text(&self, params: &[ast::GenericParam], args: &[GenericValue]) -> String {
        let parts: Vec<String> = params
            .iter()
            .zip(args)
            .map(|(p, a)| match (&p.kind, *a) {
                (_, GenericValue::Type(t)) => self.type_name(t),
                (ast::GenericParamKind::Value { ty }, GenericValue::Value(v))
                    if ty.name == "bool" =>
                {
                    (v != 0).to_string()
                }
                (_, GenericValue::Value(v)) => v.to_string(),
            })
            .collect();
        parts.join(", ")
    }

    // ---- structs

    /// `Pair<float>`: the instance of a generic struct template, made on
    /// first use. `None` when `texpr` names no generic struct; `Some(None)`
    /// after an error.
    pub fn resolve_generic_struct(
        &mut self,
        texpr: &ast::TypeExpr,
    ) -> Option<Option<Handle<Type>>> {
        let t = self.generic_struct(&texpr.name)?;
        let template = self.generics.structs[t].decl.clone();
        let generics = &template.generics;
        if texpr.args.len() != generics.len() {
            self.error(
                codes::BAD_GENERIC_ARGUMENTS,
                format!(
                    "`{}` takes {} generic argument(s), found {}",
                    texpr.name,
                    generics.len(),
                    texpr.args.len()
                ),
                texpr.span,
            );
            return Some(None);
        }
        let mut args = Vec::with_capacity(generics.len());
        for (p, a) in generics.iter().zip(&texpr.args) {
            match self.explicit_arg(p, a, &texpr.name) {
                Some(v) => args.push(v),
                None => return Some(None),
            }
        }
        if !self.satisfies_constraints(generics, &args, &texpr.name, texpr.span) {
            return Some(None);
        }
        Some(self.struct_instance(t, args, texpr.span))
    }

    fn struct_instance(
        &mut self,
        t: usize,
        args: Vec<GenericValue>,
        span: Span,
    ) -> Option<Handle<Type>> {
        let key = (t, args);
        if let Some(&ty) = self.generics.struct_instances.get(&key) {
            return Some(ty);
        }
        if !self.count_instance(span) {
            return None;
        }
        let args = key.1.clone();
        let decl = self.generics.structs[t].decl.clone();
        let namespace = self.generics.structs[t].namespace.clone();
        let outer_namespace = std::mem::replace(&mut self.namespace, namespace.clone());
        let name = format!(
            "{}<{}>",
            self.qualified(&decl.name.name),
            self.args_text(&decl.generics, &args)
        );
        self.namespace = outer_namespace;
        let saved = self.enter_generic_scope(&decl.generics, &args, &namespace, None);
        self.declare_struct_aliases(&decl, &name);
        let members = self.struct_members(&decl);
        let ty = self.module.types.insert(
            Type {
                name: Some(name.clone()),
                inner: TypeInner::Struct { members },
            },
            decl.span,
        );
        self.take_field_defaults(ty);
        self.claim_conditional_fields(ty);
        self.generics.struct_instances.insert(key, ty);
        self.generics.instance_of.insert(ty, (t, args.clone()));
        // Methods and conformances see the instance under the template's
        // bare name and as `This`.
        self.declare_type(&decl.name, TypeSymbol::Type(ty));
        let this = ast::Ident {
            name: "This".into(),
            span: Span::UNDEFINED,
        };
        self.declare_type(&this, TypeSymbol::Type(ty));
        self.record_conformances(ty, &decl);
        self.check_conformances(&decl);
        self.leave_generic_scope(saved);
        self.declare_instance_methods(&decl, ty, &name, &namespace, &args);
        Some(ty)
    }

    /// The methods of a struct instance, named `Pair<float>::get`; their
    /// bodies are checked later with the struct's parameters bound.
    fn declare_instance_methods(
        &mut self,
        decl: &Rc<ast::StructDecl>,
        ty: Handle<Type>,
        name: &str,
        namespace: &str,
        args: &[GenericValue],
    ) {
        if decl.methods.is_empty() {
            return;
        }
        let generics = Rc::new(decl.generics.clone());
        // `name` is qualified already: `N::Pair<float>`.
        let scope = name.to_string();
        for method in &decl.methods {
            if !method.generics.is_empty() {
                let outer = std::mem::replace(&mut self.namespace, scope.clone());
                let bound = Some((generics.clone(), args.to_vec()));
                self.declare_generic_method(method, decl, ty, bound);
                self.namespace = outer;
                continue;
            }
            let saved =
                self.enter_generic_scope(&generics, args, namespace, Some((&decl.name.name, ty)));
            self.bind_struct_aliases(decl, name);
            let this = self.method_this(method, decl, ty);
            let key = format!("{name}::{}", method.name.name);
            let func = self.push_instance(method, key.clone(), scope.clone(), this);
            self.leave_generic_scope(saved);
            match self.global_values_mut().get_mut(&key) {
                Some(ValueSymbol::Functions(list)) => list.push(func),
                _ => {
                    self.global_values_mut()
                        .insert(key, ValueSymbol::Functions(vec![func]));
                }
            }
            if method.body.is_some() {
                self.generics.pending.push(PendingBody {
                    func,
                    decl: Rc::new(method.clone()),
                    generics: generics.clone(),
                    args: args.to_vec(),
                    namespace: scope.clone(),
                    this_struct: Some((decl.name.name.clone(), ty)),
                });
            }
        }
    }

    /// Adds a specialised function (resolved in the scope entered by the
    /// caller) to the functions; it is no overload of any name.
    fn push_instance(
        &mut self,
        decl: &ast::FunctionDecl,
        name: String,
        scope: String,
        this: Option<ParamSig>,
    ) -> usize {
        let this_ty = this.as_ref().map(|p| p.ty);
        let (result, params) = self.function_signature(decl, this);
        let index = self.funcs.len();
        self.funcs.push(super::FuncInfo {
            name,
            params,
            result,
            body_item: None,
            span: decl.span,
            scope,
            this_ty,
            constructs: None,
        });
        self.bodies.push(None);
        self.call_edges.push(Vec::new());
        index
    }

    // ---- functions

    /// A call of a name with generic templates (and perhaps ordinary
    /// overloads `plain`): an ordinary overload that fits wins; otherwise
    /// the first template whose arguments can be inferred, whose
    /// constraints hold and whose specialisation takes the arguments.
    #[allow(clippy::too_many_arguments)]
    pub fn lower_generic_call(
        &mut self,
        name: &str,
        templates: &[usize],
        plain: &[usize],
        explicit: &[ast::GenericArg],
        this: Option<(Value, Span)>,
        args: &[ast::Expr],
        span: Span,
    ) -> Value {
        let method = this.is_some();
        let mut values = Vec::with_capacity(args.len() + 1);
        let mut spans = Vec::with_capacity(args.len() + 1);
        if let Some((v, s)) = this {
            values.push(v);
            spans.push(s);
        }
        for a in args {
            values.push(self.lower_value(a));
            spans.push(a.span);
        }
        if values.iter().any(|v| v.ty == Some(self.error_ty)) {
            return self.error_value(span);
        }
        if explicit.is_empty() && plain.iter().any(|&f| self.call_cost(f, &values).is_some()) {
            return self.call_with_values(name, plain, method, values, &spans, args, span);
        }
        let mut first_failure = None;
        for &t in templates {
            // Inference reads the written arguments, not `this`.
            let written = &values[usize::from(method)..];
            match self.specialise_call(t, explicit, written, span) {
                Ok(Some(f)) => {
                    if self.call_cost(f, &values).is_some() {
                        return self.call_with_values(
                            name,
                            &[f],
                            method,
                            values,
                            &spans,
                            args,
                            span,
                        );
                    }
                    if first_failure.is_none() {
                        first_failure = Some(f);
                    }
                }
                Ok(None) => return self.error_value(span),
                Err(failure) => {
                    if templates.len() == 1 && plain.is_empty() {
                        self.error(failure.code, failure.message, span);
                        return self.error_value(span);
                    }
                }
            }
        }
        match first_failure {
            // The report names the specialisation's parameter types.
            Some(f) => self.call_with_values(name, &[f], method, values, &spans, args, span),
            None => {
                let arg_types: Vec<String> = values
                    .iter()
                    .map(|v| self.type_name(v.ty.unwrap_or(self.error_ty)))
                    .collect();
                self.error(
                    codes::NO_MATCHING_OVERLOAD,
                    format!(
                        "no overload of `{name}` takes arguments ({})",
                        arg_types.join(", ")
                    ),
                    span,
                );
                self.error_value(span)
            }
        }
    }

    /// Infers and checks template `t`'s arguments for a call and returns
    /// the specialisation. `Err` when the template does not fit (nothing
    /// reported); `Ok(None)` after an error was reported.
    fn specialise_call(
        &mut self,
        t: usize,
        explicit: &[ast::GenericArg],
        values: &[Value],
        span: Span,
    ) -> Result<Option<usize>, Failure> {
        let decl = self.generics.funcs[t].decl.clone();
        let generics = &decl.generics;
        let owner = decl.name.name.clone();
        if explicit.len() > generics.len() {
            return Err(Failure {
                code: codes::BAD_GENERIC_ARGUMENTS,
                message: format!(
                    "`{owner}` takes {} generic argument(s), found {}",
                    generics.len(),
                    explicit.len()
                ),
            });
        }
        let mut binds: Vec<Option<GenericValue>> = vec![None; generics.len()];
        for (i, a) in explicit.iter().enumerate() {
            match self.explicit_arg(&generics[i], a, &owner) {
                Some(v) => binds[i] = Some(v),
                None => return Ok(None),
            }
        }
        let fixed: Vec<bool> = binds.iter().map(Option::is_some).collect();
        for (p, v) in decl.params.iter().zip(values) {
            if let Some(ty) = v.ty {
                self.unify(
                    generics,
                    &fixed,
                    &mut binds,
                    &p.ty,
                    &p.declarator.array_dims,
                    ty,
                );
            }
        }
        let mut args = Vec::with_capacity(generics.len());
        for (p, b) in generics.iter().zip(&binds) {
            match b {
                Some(v) => args.push(*v),
                None => {
                    return Err(Failure {
                        code: codes::GENERIC_INFERENCE,
                        message: format!(
                            "cannot infer generic argument `{}` of `{owner}` from the \
                             arguments; give the arguments explicitly (`{owner}<...>(...)`)",
                            p.name.name
                        ),
                    });
                }
            }
        }
        if let Some(failure) = self.constraint_failure(generics, &args, &owner) {
            return Err(failure);
        }
        Ok(self.function_instance(t, args, span))
    }

    /// The specialisation of function template `t` for `args`: its
    /// signature now, its body after the ordinary bodies.
    fn function_instance(
        &mut self,
        t: usize,
        args: Vec<GenericValue>,
        span: Span,
    ) -> Option<usize> {
        let key = (t, args);
        if let Some(&f) = self.generics.func_instances.get(&key) {
            return Some(f);
        }
        if !self.count_instance(span) {
            return None;
        }
        let method_args = key.1.clone();
        let template = &self.generics.funcs[t];
        let decl = template.decl.clone();
        let namespace = template.namespace.clone();
        // A method binds its struct's parameters too, and takes `this`.
        let (mut params, mut args, owner) = match &template.owner {
            Some(o) => (
                o.params.as_ref().clone(),
                o.args.clone(),
                Some((o.ty, o.decl.clone())),
            ),
            None => (Vec::new(), Vec::new(), None),
        };
        let this_struct = owner
            .as_ref()
            .filter(|_| !params.is_empty())
            .map(|(ty, d)| (d.name.name.clone(), *ty));
        params.extend(decl.generics.iter().cloned());
        args.extend(method_args.iter().copied());
        let generics = Rc::new(params);
        let saved = self.enter_generic_scope(
            &generics,
            &args,
            &namespace,
            this_struct.as_ref().map(|(n, ty)| (n.as_str(), *ty)),
        );
        let name = format!(
            "{}<{}>",
            self.qualified(&decl.name.name),
            self.args_text(&decl.generics, &method_args)
        );
        let this = owner
            .as_ref()
            .and_then(|(ty, d)| self.method_this(&decl, d, *ty));
        let f = self.push_instance(&decl, name, namespace.clone(), this);
        self.leave_generic_scope(saved);
        self.generics.func_instances.insert(key, f);
        if decl.body.is_some() {
            self.generics.pending.push(PendingBody {
                func: f,
                decl,
                generics,
                args,
                namespace,
                this_struct,
            });
        }
        Some(f)
    }

    /// Checks the bodies of the specialisations made so far, and of those
    /// they make in turn.
    pub fn lower_generic_bodies(&mut self) {
        while let Some(p) = self.generics.pending.pop() {
            let this_struct = p.this_struct.as_ref().map(|(n, t)| (n.as_str(), *t));
            let saved = self.enter_generic_scope(&p.generics, &p.args, &p.namespace, this_struct);
            let outer = self.ctx.take();
            self.lower_function(p.func, &p.decl);
            self.ctx = outer;
            self.leave_generic_scope(saved);
        }
    }

    /// Binds the parameters `texpr` (with `dims`, outermost first) mentions
    /// to the parts of `arg`, the argument's type. Parameters given
    /// explicitly (`fixed`) keep their argument; a type bound twice to
    /// numeric types of one shape takes their common scalar.
    fn unify(
        &mut self,
        params: &[ast::GenericParam],
        fixed: &[bool],
        binds: &mut [Option<GenericValue>],
        texpr: &ast::TypeExpr,
        dims: &[Option<ast::Expr>],
        arg: Handle<Type>,
    ) {
        if let Some((first, rest)) = dims.split_first() {
            if let TypeInner::Array { base, size } = *self.inner(arg) {
                if let (Some(e), ir::ArraySize::Constant(n)) = (first, size) {
                    self.unify_value(params, fixed, binds, e, i64::from(n));
                }
                self.unify(params, fixed, binds, texpr, rest, base);
            }
            return;
        }
        if texpr.args.is_empty() {
            if let Some(i) = param_index(params, &texpr.name) {
                self.bind(params, fixed, binds, i, GenericValue::Type(arg));
            }
            return;
        }
        let parts: Vec<GenericValue> = match (texpr.name.as_str(), self.inner(arg).clone()) {
            ("vector", TypeInner::Vector { size, scalar }) => vec![
                GenericValue::Type(self.scalar_ty(scalar)),
                GenericValue::Value(i64::from(size)),
            ],
            (
                "matrix",
                TypeInner::Matrix {
                    rows,
                    columns,
                    scalar,
                },
            ) => vec![
                GenericValue::Type(self.scalar_ty(scalar)),
                GenericValue::Value(i64::from(rows)),
                GenericValue::Value(i64::from(columns)),
            ],
            (
                "OutputVertices" | "OutputIndices" | "OutputPrimitives",
                TypeInner::MeshOutput { element, count, .. },
            ) => vec![
                GenericValue::Type(element),
                GenericValue::Value(i64::from(count)),
            ],
            (
                _,
                TypeInner::Buffer {
                    element: Some(element),
                    ..
                },
            ) => vec![GenericValue::Type(element)],
            ("ConstantBuffer" | "ParameterBlock", TypeInner::ConstantBuffer { inner })
            | ("TextureBuffer", TypeInner::TextureBuffer { inner }) => {
                vec![GenericValue::Type(inner)]
            }
            _ => match (
                self.generic_struct(&texpr.name),
                self.generics.instance_of.get(&arg),
            ) {
                (Some(t), Some((u, args))) if t == *u => args.clone(),
                _ => return,
            },
        };
        for (garg, part) in texpr.args.iter().zip(parts) {
            match (garg, part) {
                (ast::GenericArg::Type(t), GenericValue::Type(ty)) => {
                    self.unify(params, fixed, binds, t, &[], ty);
                }
                (ast::GenericArg::Type(t), GenericValue::Value(n)) if t.args.is_empty() => {
                    if let Some(i) = param_index(params, &t.name) {
                        self.bind(params, fixed, binds, i, GenericValue::Value(n));
                    }
                }
                (ast::GenericArg::Value(e), GenericValue::Value(n)) => {
                    self.unify_value(params, fixed, binds, e, n);
                }
                (ast::GenericArg::Value(e), GenericValue::Type(ty)) => {
                    if let ast::ExprKind::Name(path) = &e.kind
                        && let [one] = path.as_slice()
                        && let Some(i) = param_index(params, &one.name)
                    {
                        self.bind(params, fixed, binds, i, GenericValue::Type(ty));
                    }
                }
                _ => {}
            }
        }
    }

    /// A size written as a lone value parameter binds it.
    fn unify_value(
        &mut self,
        params: &[ast::GenericParam],
        fixed: &[bool],
        binds: &mut [Option<GenericValue>],
        e: &ast::Expr,
        n: i64,
    ) {
        if let ast::ExprKind::Name(path) = &e.kind
            && let [one] = path.as_slice()
            && let Some(i) = param_index(params, &one.name)
        {
            self.bind(params, fixed, binds, i, GenericValue::Value(n));
        }
    }

    fn bind(
        &mut self,
        params: &[ast::GenericParam],
        fixed: &[bool],
        binds: &mut [Option<GenericValue>],
        i: usize,
        value: GenericValue,
    ) {
        if fixed[i] {
            return;
        }
        let fits = matches!(
            (&params[i].kind, value),
            (ast::GenericParamKind::Type { .. }, GenericValue::Type(_))
                | (ast::GenericParamKind::Value { .. }, GenericValue::Value(_))
        );
        if !fits {
            return;
        }
        binds[i] = match (binds[i], value) {
            (None, v) => Some(v),
            (Some(GenericValue::Type(a)), GenericValue::Type(b)) if a != b => {
                match (self.numeric(a), self.numeric(b)) {
                    (Some((sa, shape_a)), Some((sb, shape_b))) if shape_a == shape_b => {
                        let common = super::convert::common_scalar(sa, sb);
                        Some(GenericValue::Type(self.numeric_ty(common, shape_a)))
                    }
                    _ => Some(GenericValue::Type(a)),
                }
            }
            (old, _) => old,
        };
    }

    /// Whether each type argument satisfies its parameter's constraints;
    /// reports the first that does not.
    fn satisfies_constraints(
        &mut self,
        params: &[ast::GenericParam],
        args: &[GenericValue],
        owner: &str,
        span: Span,
    ) -> bool {
        match self.constraint_failure(params, args, owner) {
            None => true,
            Some(failure) => {
                self.error(failure.code, failure.message, span);
                false
            }
        }
    }

    fn constraint_failure(
        &self,
        params: &[ast::GenericParam],
        args: &[GenericValue],
        owner: &str,
    ) -> Option<Failure> {
        for (p, a) in params.iter().zip(args) {
            let (ast::GenericParamKind::Type { constraints }, GenericValue::Type(ty)) =
                (&p.kind, *a)
            else {
                continue;
            };
            for c in constraints {
                if !self.conforms(ty, c) {
                    return Some(Failure {
                        code: codes::CONSTRAINT_NOT_SATISFIED,
                        message: format!(
                            "`{}` does not conform to `{}`, which generic parameter `{}` of \
                             `{owner}` requires",
                            self.type_name(ty),
                            c.name,
                            p.name.name
                        ),
                    });
                }
            }
        }
        None
    }

    /// The `this` parameter of a (non-static) method of struct `ty`.
    pub fn method_this(
        &self,
        method: &ast::FunctionDecl,
        decl: &ast::StructDecl,
        ty: Handle<Type>,
    ) -> Option<ParamSig> {
        let is_static = method
            .modifiers
            .iter()
            .any(|md| md.kind == ast::ModifierKind::Static);
        if is_static {
            return None;
        }
        let mutating = method
            .attributes
            .iter()
            .any(|a| a.name.eq_ignore_ascii_case("mutating"))
            || super::mutation::assigns_field(method, decl);
        let direction = if mutating {
            ir::ParamDirection::InOut
        } else {
            ir::ParamDirection::In
        };
        Some(ParamSig {
            ty,
            direction,
            default: None,
            constexpr: false,
        })
    }
}

fn param_index(params: &[ast::GenericParam], name: &str) -> Option<usize> {
    params.iter().position(|p| p.name.name == name)
}
