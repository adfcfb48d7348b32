//! Values of interface type (dynamic dispatch), resolved in a closed world.
//!
//! The reference compiler compiles `IShape s = Circle(1.0); s.area()` by
//! enumerating the types of the program that conform to `IShape` and
//! carrying a type tag with the value. Legalis does the same in the front
//! end, lowering to plain IR that every target writes unchanged:
//!
//! - The interface named as a value type (a local, global, `groupshared`,
//!   array element, field, parameter or result) is a struct named after the
//!   interface: member 0 is `uint tag`, then one member `as_S` per
//!   conforming struct `S`, holding the value when the tag is `S`'s.
//! - The conforming structs are the non-generic structs of the file that
//!   declare the conformance (directly, through an interface that inherits
//!   it, or in an `extension`), in declaration order. Their tags count from
//!   0 in that order; `-conformance "S:IShape=N"` fixes `S`'s tag to `N`,
//!   and the others take the lowest free tags in declaration order.
//! - A conforming struct converts implicitly to the interface type
//!   (assignment, initialisation, argument passing, return): the tag is
//!   set and its member holds the value, the other members zero.
//! - `s.area(args)` calls a synthesized function `IShape::area(s, args)`
//!   whose body switches on the tag and calls the conforming struct's
//!   method on its member; the last conforming struct is also the
//!   `default`. When a conforming struct's method is `[mutating]`, the
//!   interface value is passed `inout` and the member is written back.
//!
//! A conforming struct declared further down than the first value of the
//! interface type is declared there, ahead of its place (its methods keep
//! their place); the conformance check compares a requirement's parameter
//! of the interface type by name, so it needs no value type.
//!
//! Refused with `E30029` (at the type or call that needs it): an interface
//! with no conforming struct, a generic conforming struct, a conforming
//! struct holding a value of the interface (it would contain itself) or
//! resources (not plain data), and a call of a generic or `static`
//! requirement through a value.
//!
//! `dyn_type_test` is what `v is S` and `v as S` mean on an interface
//! value (a tag test; an `Optional<S>` of the member): `type_test.rs`
//! asks it first, before deciding statically.
//!
//! Static specialisation keeps precedence: a generic parameter `T : IFoo`
//! is specialised per argument type and never takes this path; only a
//! value whose static type is the interface itself does.

use legalis_ir as ir;
use legalis_ir::{FastHashMap, Handle, Span, Type, TypeInner};

use super::convert::Value;
use super::{Checker, FuncInfo, TypeSymbol};
use crate::{ast, codes};

/// One struct or extension of the file and the interfaces it lists, read
/// before any item is declared (`Checker::scan_dyn_conformances`).
#[derive(Clone, Debug)]
struct Declared {
    namespace: String,
    name: String,
    generic: bool,
    conformances: Vec<String>,
    /// A struct's own declaration (not an extension's), to declare it
    /// ahead of its place when a value of an interface it conforms to
    /// comes first.
    decl: Option<ast::StructDecl>,
}

/// A conforming struct of an interface value type.
#[derive(Clone, Debug)]
pub struct DynCase {
    pub ty: Handle<Type>,
    pub tag: u32,
}

/// An interface value type: its interface and conforming structs, in
/// member order (member `k + 1` holds `cases[k]`).
#[derive(Clone, Debug)]
pub struct DynInfo {
    pub interface: usize,
    pub cases: Vec<DynCase>,
}

#[derive(Debug, Default)]
pub struct DynDispatch {
    declared: Vec<Declared>,
    /// Interface index to its value type; `None` after an error.
    made: FastHashMap<usize, Option<Handle<Type>>>,
    infos: FastHashMap<Handle<Type>, DynInfo>,
    /// (value type, method) to the dispatch function; `None` after an error.
    dispatchers: FastHashMap<(Handle<Type>, String), Option<usize>>,
    /// Interfaces whose value type is being made.
    in_progress: Vec<usize>,
    /// Qualified names of the structs declared ahead of their place.
    early: Vec<String>,
    /// Qualified names of the structs whose fields are being declared.
    declaring: Vec<String>,
}

/// The member of an interface value type holding conforming struct `name`.
fn case_member_name(name: &str) -> String {
    format!("as_{}", name.replace("::", "_"))
}

impl Checker<'_> {
    /// Records every struct and extension with its conformance list, so
    /// that an interface value type knows all its conforming structs.
    pub fn scan_dyn_conformances(&mut self, items: &[super::FlatItem<'_>]) {
        for flat in items {
            let (s, own) = match flat.item {
                ast::Item::Struct(s) => (s, true),
                ast::Item::Extension(s) => (s, false),
                _ => continue,
            };
            self.dyn_dispatch.declared.push(Declared {
                namespace: flat.namespace.clone(),
                name: s.name.name.clone(),
                generic: !s.generics.is_empty(),
                conformances: s.conformances.iter().map(|c| c.name.clone()).collect(),
                decl: (own && s.generics.is_empty()).then(|| s.clone()),
            });
        }
    }

    /// Declares struct `decl` at its place, unless the value type of an
    /// interface it conforms to declared it ahead.
    pub fn declare_struct_once(&mut self, decl: &ast::StructDecl) {
        let name = self.qualified(&decl.name.name);
        if self.dyn_dispatch.early.contains(&name) {
            return;
        }
        self.dyn_dispatch.declaring.push(name);
        self.declare_struct(decl);
        self.dyn_dispatch.declaring.pop();
    }

    /// Declares the struct `name` of `namespace` now, ahead of its place
    /// in the file; its type, or `None` when there is no such struct.
    fn declare_early(&mut self, namespace: &str, name: &str) -> Option<Handle<Type>> {
        let decl = self
            .dyn_dispatch
            .declared
            .iter()
            .find(|d| d.namespace == namespace && d.name == name)?
            .decl
            .clone()?;
        let qualified = self.qualified(name);
        self.dyn_dispatch.early.push(qualified.clone());
        self.dyn_dispatch.declaring.push(qualified);
        self.declare_struct(&decl);
        self.dyn_dispatch.declaring.pop();
        match self.lookup_type(name) {
            Some(TypeSymbol::Type(ty)) => Some(ty),
            _ => None,
        }
    }

    /// `v is S` and `v as S` for a value `v` of interface type: the tag
    /// test (`v.tag == tag of S`), and an `Optional<S>` holding member
    /// `as_S` with that test as `hasValue` (`v` is read twice). A type
    /// that does not conform is never there: `false`, `none`. `None` when
    /// `value` is no interface value: `is`/`as` decide statically.
    pub fn dyn_type_test(
        &mut self,
        value: Value,
        target: Handle<Type>,
        cast: bool,
        span: Span,
    ) -> Option<Value> {
        let info = self.dyn_info(value.ty?)?.clone();
        let bool_ty = self.bool_ty();
        let Some(k) = info.cases.iter().position(|c| c.ty == target) else {
            let never = self.append(
                ir::Expression::Literal(ir::Literal::Bool(false)),
                Some(bool_ty),
                span,
            );
            if !cast {
                return Some(never);
            }
            let optional = self.optional_type(target);
            let none = self.zero_value(target, span).map(|zero| {
                self.append(
                    ir::Expression::Construct {
                        components: vec![zero, never.expr],
                    },
                    Some(optional),
                    span,
                )
            });
            return Some(none.unwrap_or_else(|| self.error_value(span)));
        };
        let uint = self.scalar_ty(ir::Scalar::U32);
        let copy = cast.then(|| self.copy_expr(value.expr));
        let tag = self.append(
            ir::Expression::Member {
                base: value.expr,
                index: 0,
            },
            Some(uint),
            span,
        );
        let want = self.append(
            ir::Expression::Literal(ir::Literal::Uint(u64::from(info.cases[k].tag))),
            Some(uint),
            span,
        );
        let test = self.append(
            ir::Expression::Binary {
                op: ir::BinaryOp::Equal,
                left: tag.expr,
                right: want.expr,
            },
            Some(bool_ty),
            span,
        );
        let Some(copy) = copy else {
            return Some(test);
        };
        let member = self.append(
            ir::Expression::Member {
                base: copy,
                index: k as u32 + 1,
            },
            Some(target),
            span,
        );
        let optional = self.optional_type(target);
        Some(self.append(
            ir::Expression::Construct {
                components: vec![member.expr, test.expr],
            },
            Some(optional),
            span,
        ))
    }

    /// Refuses a value of interface type in an entry point's varyings
    /// (its plain parameters and its result, fields and elements too): a
    /// type tag cannot be interpolated between stages, as the reference
    /// says too. Compute and ray-tracing entry points have no varyings.
    pub fn reject_dyn_varyings(&mut self, f: usize, stage: ir::ShaderStage) {
        if self.dyn_dispatch.infos.is_empty()
            || stage == ir::ShaderStage::Compute
            || stage.is_ray_tracing()
        {
            return;
        }
        let Some(func) = self.bodies[f].as_ref() else {
            return;
        };
        let mut places: Vec<(Handle<Type>, String, Span)> = func
            .params
            .iter()
            .filter(|p| p.role == ir::ParamRole::Plain)
            .map(|p| (p.ty, p.name.clone(), p.span))
            .collect();
        if let Some(result) = &func.result {
            places.push((result.ty, String::new(), result.span));
        }
        for (ty, name, span) in places {
            if let Some((path, at, iface)) = self.dyn_inside(ty, name, span, 0) {
                let what = match path.strip_prefix('.') {
                    _ if path.is_empty() => "the result".to_string(),
                    Some(field) => format!("`{field}` of the result"),
                    None => format!("`{path}`"),
                };
                self.error(
                    codes::BAD_ENTRY_POINT_SIGNATURE,
                    format!(
                        "{what} holds a value of interface type `{iface}` (dynamic dispatch): \
                         it is not a valid varying, a type tag cannot pass between stages"
                    ),
                    at,
                );
            }
        }
    }

    /// The first value of interface type inside `ty` (its path from
    /// `name`, the span of the field holding it, the interface's name).
    fn dyn_inside(
        &self,
        ty: Handle<Type>,
        name: String,
        span: Span,
        depth: u32,
    ) -> Option<(String, Span, String)> {
        if depth > 32 {
            return None;
        }
        if self.dyn_info(ty).is_some() {
            let iface = self.module.types[ty].name.clone().unwrap_or_default();
            return Some((name, span, iface));
        }
        match self.inner(ty) {
            TypeInner::Array { base, .. } => self.dyn_inside(*base, name, span, depth + 1),
            // A member the checker made (an `Optional`'s) keeps the name
            // and place of what holds it.
            TypeInner::Struct { members } => members.iter().find_map(|m| {
                let (path, at) = match m.span == Span::UNDEFINED {
                    true => (name.clone(), span),
                    false => (format!("{name}.{}", m.name), m.span),
                };
                self.dyn_inside(m.ty, path, at, depth + 1)
            }),
            _ => None,
        }
    }

    /// Whether `a` and `b` name the same interface (a parameter or result
    /// type of a requirement and its implementation).
    pub fn same_interface(&self, a: &ast::TypeExpr, b: &ast::TypeExpr) -> bool {
        if !a.args.is_empty() || !b.args.is_empty() {
            return false;
        }
        match (self.lookup_type(&a.name), self.lookup_type(&b.name)) {
            (Some(TypeSymbol::Interface(x)), Some(TypeSymbol::Interface(y))) => x == y,
            _ => false,
        }
    }

    /// Whether `ty` is an interface value type.
    pub fn dyn_info(&self, ty: Handle<Type>) -> Option<&DynInfo> {
        self.dyn_dispatch.infos.get(&ty)
    }

    /// The interfaces `name` (seen from the current namespace) is or
    /// inherits from.
    fn interface_closure(&self, name: &str) -> Vec<usize> {
        let mut pending = match self.lookup_type(name) {
            Some(TypeSymbol::Interface(i)) => vec![i],
            _ => return Vec::new(),
        };
        let mut seen = Vec::new();
        while let Some(i) = pending.pop() {
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
        seen
    }

    /// The value type of interface `interface`, made on first use (`span`
    /// is the type as written).
    pub fn interface_value_type(&mut self, interface: usize, span: Span) -> Option<Handle<Type>> {
        if let Some(&made) = self.dyn_dispatch.made.get(&interface) {
            return made;
        }
        if self.dyn_dispatch.in_progress.contains(&interface) {
            let iface = self.interfaces[interface].name.name.clone();
            self.error(
                codes::INTERFACE_VALUE,
                format!(
                    "`{iface}` is an interface used as a value type (dynamic dispatch) by one of \
                     its own conforming structs: the value would contain itself"
                ),
                span,
            );
            return None;
        }
        self.dyn_dispatch.in_progress.push(interface);
        let made = self.make_interface_value_type(interface, span);
        self.dyn_dispatch.in_progress.retain(|&i| i != interface);
        self.dyn_dispatch.made.insert(interface, made);
        made
    }

    fn make_interface_value_type(&mut self, interface: usize, span: Span) -> Option<Handle<Type>> {
        let iface = self.interfaces[interface].name.name.clone();
        let outer = self.namespace.clone();
        let mut found: Vec<Handle<Type>> = Vec::new();
        let mut problem: Option<String> = None;
        for d in self.dyn_dispatch.declared.clone() {
            self.namespace.clone_from(&d.namespace);
            let conforms = d
                .conformances
                .iter()
                .any(|c| self.interface_closure(c).contains(&interface));
            if !conforms {
                continue;
            }
            if d.generic {
                problem.get_or_insert(format!(
                    "the generic struct `{}` conforms to it: a value of interface type needs \
                     concrete (non-generic) conforming structs",
                    d.name
                ));
                continue;
            }
            match self.lookup_type(&d.name) {
                Some(TypeSymbol::Type(ty))
                    if matches!(self.inner(ty), TypeInner::Struct { .. }) =>
                {
                    if !found.contains(&ty) {
                        found.push(ty);
                    }
                }
                // Its own field: the value would contain itself.
                None if self
                    .dyn_dispatch
                    .declaring
                    .contains(&self.qualified(&d.name)) =>
                {
                    problem.get_or_insert(format!(
                        "its conforming struct `{}` holds a value of it, which would contain \
                         itself",
                        d.name
                    ));
                }
                // Declared further down: declared now, ahead of its place.
                None => match self.declare_early(&d.namespace, &d.name) {
                    Some(ty) => {
                        if !found.contains(&ty) {
                            found.push(ty);
                        }
                    }
                    None => {
                        problem.get_or_insert(format!(
                            "its conforming struct `{}` cannot be declared before this use",
                            d.name
                        ));
                    }
                },
                // An extension of something else is reported there.
                Some(_) => {}
            }
        }
        self.namespace = outer;
        // Declaration order: struct types are made in source order.
        found.sort_by_key(|ty| ty.index());
        if problem.is_none() && found.is_empty() {
            problem =
                Some("no struct of this file conforms to it, so no value can have it".to_string());
        }
        if problem.is_none()
            && let Some(&bad) = found.iter().find(|&&ty| !self.plain_data(ty))
        {
            problem = Some(format!(
                "its conforming struct `{}` holds resources; only plain data (numbers, \
                 vectors, matrices, arrays and structs of them) can be carried in an \
                 interface value",
                self.type_name(bad)
            ));
        }
        if let Some(why) = problem {
            self.error(
                codes::INTERFACE_VALUE,
                format!("`{iface}` is an interface used as a value type (dynamic dispatch): {why}"),
                span,
            );
            return None;
        }
        let tags = self.assign_tags(&iface, &found, span)?;
        let uint = self.scalar_ty(ir::Scalar::U32);
        let mut members = vec![ir::StructMember {
            name: "tag".into(),
            ty: uint,
            io: ir::IoAttrs::default(),
            matrix_layout: None,
            span: Span::UNDEFINED,
        }];
        for &ty in &found {
            let name = self.module.types[ty].name.clone().unwrap_or_default();
            members.push(ir::StructMember {
                name: case_member_name(&name),
                ty,
                io: ir::IoAttrs::default(),
                matrix_layout: None,
                span: Span::UNDEFINED,
            });
        }
        let decl_span = self.interfaces[interface].name.span;
        let ty = self.module.types.insert(
            Type {
                name: Some(iface),
                inner: TypeInner::Struct { members },
            },
            decl_span,
        );
        let cases = found
            .iter()
            .zip(tags)
            .map(|(&ty, tag)| DynCase { ty, tag })
            .collect();
        self.dyn_dispatch
            .infos
            .insert(ty, DynInfo { interface, cases });
        Some(ty)
    }

    /// The tag of each of `found`: `-conformance TYPE:IFACE=N` fixes some,
    /// the rest take the lowest free tags in declaration order.
    fn assign_tags(&mut self, iface: &str, found: &[Handle<Type>], span: Span) -> Option<Vec<u32>> {
        let mut tags: Vec<Option<u32>> = vec![None; found.len()];
        for c in &self.options.conformances {
            if c.interface != iface {
                continue;
            }
            let Some(id) = c.id else { continue };
            let at = found
                .iter()
                .position(|&ty| self.module.types[ty].name.as_deref() == Some(c.ty.as_str()));
            match at {
                Some(k) => tags[k] = Some(id),
                None => {
                    self.error(
                        codes::INTERFACE_VALUE,
                        format!(
                            "`-conformance {}:{iface}={id}` names no struct that conforms to \
                             `{iface}` in this file",
                            c.ty
                        ),
                        span,
                    );
                    return None;
                }
            }
        }
        let mut used: Vec<u32> = tags.iter().flatten().copied().collect();
        let mut sorted = used.clone();
        sorted.sort_unstable();
        if sorted.windows(2).any(|w| w[0] == w[1]) {
            self.error(
                codes::INTERFACE_VALUE,
                format!("two `-conformance` options give one tag to two structs of `{iface}`"),
                span,
            );
            return None;
        }
        let mut next = 0u32;
        Some(
            tags.into_iter()
                .map(|t| {
                    t.unwrap_or_else(|| {
                        while used.contains(&next) {
                            next += 1;
                        }
                        used.push(next);
                        next
                    })
                })
                .collect(),
        )
    }

    /// Numbers, vectors, matrices, and fixed arrays and structs of them.
    fn plain_data(&self, ty: Handle<Type>) -> bool {
        match self.inner(ty) {
            TypeInner::Scalar(_) | TypeInner::Vector { .. } | TypeInner::Matrix { .. } => true,
            TypeInner::Array {
                base,
                size: ir::ArraySize::Constant(_),
            } => self.plain_data(*base),
            TypeInner::Struct { members } => members.iter().all(|m| self.plain_data(m.ty)),
            _ => false,
        }
    }

    /// The cost of converting `from` to the interface value type `to`.
    pub fn dyn_conversion_cost(&self, from: Handle<Type>, to: Handle<Type>) -> Option<u32> {
        let info = self.dyn_info(to)?;
        info.cases
            .iter()
            .any(|c| c.ty == from)
            .then_some(super::convert::COST_PROMOTION + 1)
    }

    /// A conforming struct converted to the interface value type `to`: the
    /// tag, the value in its member, the other members zero.
    pub fn coerce_to_dyn(
        &mut self,
        value: Value,
        to: Handle<Type>,
        span: Span,
    ) -> Option<Handle<ir::Expression>> {
        let from = value.ty?;
        let info = self.dyn_info(to)?;
        let at = info.cases.iter().position(|c| c.ty == from)?;
        let cases = info.cases.clone();
        let uint = self.scalar_ty(ir::Scalar::U32);
        let tag = self.append(
            ir::Expression::Literal(ir::Literal::Uint(u64::from(cases[at].tag))),
            Some(uint),
            span,
        );
        let mut components = vec![tag.expr];
        for (k, case) in cases.iter().enumerate() {
            if k == at {
                components.push(value.expr);
            } else {
                components.push(self.zero_value(case.ty, span)?);
            }
        }
        Some(
            self.append(ir::Expression::Construct { components }, Some(to), span)
                .expr,
        )
    }

    /// `v.method(args)` on an interface value `v`: a call of the dispatch
    /// function.
    #[allow(clippy::too_many_arguments)]
    pub fn lower_dyn_method_call(
        &mut self,
        obj: Value,
        obj_span: Span,
        ty: Handle<Type>,
        method: &ast::Ident,
        type_args: &[ast::GenericArg],
        args: &[ast::Expr],
        span: Span,
    ) -> Value {
        let key = (ty, method.name.clone());
        let f = match self.dyn_dispatch.dispatchers.get(&key) {
            Some(&f) => f,
            None => {
                let f = self.make_dispatcher(ty, method);
                self.dyn_dispatch.dispatchers.insert(key, f);
                f
            }
        };
        let Some(f) = f else {
            for a in args {
                self.lower_expr(a);
            }
            return self.error_value(span);
        };
        if let Some(first) = type_args.first() {
            let at = match first {
                ast::GenericArg::Type(t) => t.span,
                ast::GenericArg::Value(v) => v.span,
            };
            self.error(
                codes::NO_MATCHING_OVERLOAD,
                format!("method `{}` takes no generic arguments", method.name),
                at,
            );
        }
        let name = self.funcs[f].name.clone();
        self.lower_user_call(&name, &[f], Some((obj, obj_span)), args, span)
    }

    /// The requirement `name` of interface `interface` or its bases.
    fn requirement(&self, interface: usize, name: &str) -> Option<ast::FunctionDecl> {
        let mut pending = vec![interface];
        let mut seen = Vec::new();
        while let Some(i) = pending.pop() {
            if seen.contains(&i) {
                continue;
            }
            seen.push(i);
            let decl = &self.interfaces[i];
            if let Some(m) = decl.methods.iter().find(|m| m.name.name == name) {
                return Some(m.clone());
            }
            for base in &decl.bases {
                if let Some(TypeSymbol::Interface(b)) = self.lookup_type(&base.name) {
                    pending.push(b);
                }
            }
        }
        None
    }

    /// Builds `IFace::method(this, params)`: a `switch` on the tag calling
    /// each conforming struct's method on its member.
    fn make_dispatcher(&mut self, ty: Handle<Type>, method: &ast::Ident) -> Option<usize> {
        let info = self.dyn_info(ty)?.clone();
        let iface = self.interfaces[info.interface].name.name.clone();
        let Some(required) = self.requirement(info.interface, &method.name) else {
            self.error(
                codes::NO_SUCH_MEMBER,
                format!("`{iface}` has no method `{}`", method.name),
                method.span,
            );
            return None;
        };
        let is_static = required
            .modifiers
            .iter()
            .any(|m| m.kind == ast::ModifierKind::Static);
        if !required.generics.is_empty() || is_static {
            let what = if is_static { "static" } else { "generic" };
            self.error(
                codes::INTERFACE_VALUE,
                format!(
                    "`{iface}.{}` is {what}: calling it through a value of interface type \
                     (dynamic dispatch) is not supported",
                    method.name
                ),
                method.span,
            );
            return None;
        }
        // Each conforming struct's implementation: the overload with the
        // requirement's parameter count (the conformance check compared
        // the signatures).
        let mut targets: Vec<usize> = Vec::with_capacity(info.cases.len());
        for case in &info.cases {
            let type_name = self.module.types[case.ty].name.clone().unwrap_or_default();
            let key = format!("{type_name}::{}", method.name);
            let found = match self.global_value(&key) {
                Some(super::ValueSymbol::Functions(list)) => list.iter().copied().find(|&f| {
                    self.funcs[f].this_ty == Some(case.ty)
                        && self.funcs[f].params.len() == required.params.len() + 1
                }),
                _ => None,
            };
            let Some(f) = found else {
                // `E30028` was reported at the struct.
                self.failed = true;
                return None;
            };
            targets.push(f);
        }
        let first = &self.funcs[targets[0]];
        let result = first.result;
        let mut params = first.params.clone();
        let inout = targets
            .iter()
            .any(|&f| self.funcs[f].params[0].direction != ir::ParamDirection::In);
        params[0].ty = ty;
        params[0].direction = if inout {
            ir::ParamDirection::InOut
        } else {
            ir::ParamDirection::In
        };
        for p in &mut params {
            p.default = None;
        }
        let name = format!("{iface}::{}", method.name);
        let span = required.span;
        let function = self.dispatch_body(&name, ty, &info, &targets, &params, result, &required);
        let index = self.funcs.len();
        self.funcs.push(FuncInfo {
            name,
            params,
            result,
            body_item: None,
            span,
            scope: String::new(),
            this_ty: Some(ty),
            constructs: None,
        });
        self.bodies.push(Some(function));
        self.call_edges
            .push(targets.iter().map(|&f| (f, span)).collect());
        Some(index)
    }

    #[allow(clippy::too_many_arguments)]
    fn dispatch_body(
        &mut self,
        name: &str,
        ty: Handle<Type>,
        info: &DynInfo,
        targets: &[usize],
        params: &[super::ParamSig],
        result: Option<Handle<Type>>,
        required: &ast::FunctionDecl,
    ) -> ir::Function {
        let span = required.span;
        let uint = self.scalar_ty(ir::Scalar::U32);
        let mut func = ir::Function {
            name: name.to_string(),
            params: params
                .iter()
                .enumerate()
                .map(|(i, p)| ir::FunctionParam {
                    name: match i {
                        0 => "this".to_string(),
                        _ => required.params[i - 1].declarator.name.name.clone(),
                    },
                    ty: p.ty,
                    direction: p.direction,
                    role: ir::ParamRole::Plain,
                    io: ir::IoAttrs::default(),
                    span,
                })
                .collect(),
            result: result.map(|ty| ir::FunctionResult {
                ty,
                io: ir::IoAttrs::default(),
                span,
            }),
            locals: Default::default(),
            expressions: Default::default(),
            body: ir::Block::default(),
            span,
        };
        let local = result.map(|ty| {
            func.locals.append(
                ir::LocalVariable {
                    name: "result".into(),
                    ty,
                    is_static: false,
                    is_const: false,
                },
                span,
            )
        });
        if let Some(local) = local {
            func.body
                .push(ir::Statement::Declare { local, init: None }, span);
        }
        let exprs = &mut func.expressions;
        let this = exprs.append(ir::Expression::Param(0), Some(ty), span);
        let selector = exprs.append(
            ir::Expression::Member {
                base: this,
                index: 0,
            },
            Some(uint),
            span,
        );
        let mut cases = Vec::with_capacity(info.cases.len());
        for (k, (case, &f)) in info.cases.iter().zip(targets).enumerate() {
            let this = exprs.append(ir::Expression::Param(0), Some(ty), span);
            let member = exprs.append(
                ir::Expression::Member {
                    base: this,
                    index: k as u32 + 1,
                },
                Some(case.ty),
                span,
            );
            let mut args = vec![member];
            for (i, p) in params.iter().enumerate().skip(1) {
                args.push(exprs.append(ir::Expression::Param(i as u32), Some(p.ty), span));
            }
            let call = exprs.append(
                ir::Expression::Call {
                    function: Handle::from_index(f),
                    args,
                },
                result,
                span,
            );
            let mut body = ir::Block::default();
            match local {
                Some(local) => {
                    let target = exprs.append(ir::Expression::Local(local), result, span);
                    body.push(
                        ir::Statement::Store {
                            target,
                            value: call,
                        },
                        span,
                    );
                }
                None => body.push(ir::Statement::Expr(call), span),
            }
            body.push(ir::Statement::Break, span);
            let mut values = vec![ir::SwitchValue::Int(i64::from(case.tag))];
            if k + 1 == info.cases.len() {
                values.push(ir::SwitchValue::Default);
            }
            cases.push(ir::SwitchCase {
                values,
                body,
                fall_through: false,
            });
        }
        func.body
            .push(ir::Statement::Switch { selector, cases }, span);
        let value = local.map(|local| exprs.append(ir::Expression::Local(local), result, span));
        func.body.push(ir::Statement::Return(value), span);
        func
    }
}
