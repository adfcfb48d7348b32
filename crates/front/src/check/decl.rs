//! Module-scope declarations: structs, enums, type aliases, globals,
//! `cbuffer` blocks and function signatures, in source order.

use legalis_ir as ir;
use legalis_ir::FastHashSet;
use legalis_ir::{Handle, Span, Type, TypeInner};

use super::attrs::{AttrSite, lower_name};
use super::consteval::ConstValue;
use super::{BodyRef, Checker, EnumInfo, FuncInfo, ParamSig, TypeSymbol, ValueSymbol};
use crate::ast::{self, ModifierKind as M};
use crate::codes;

/// Modifiers of one declaration, sorted into what they mean.
#[derive(Clone, Copy, Debug, Default)]
pub struct DeclModifiers {
    pub is_static: bool,
    pub is_const: bool,
    pub is_uniform: bool,
    pub groupshared: bool,
    pub globally_coherent: bool,
    pub direction: Option<ir::ParamDirection>,
    pub interpolation: ir::Interpolation,
    pub matrix_layout: Option<ir::MatrixLayout>,
    pub primitive: Option<ir::InputPrimitive>,
    pub mesh_output: Option<ir::MeshOutputKind>,
    pub payload: bool,
    /// `constexpr` (a parameter).
    pub constexpr: bool,
}

pub fn sort_modifiers(
    mods: &[ast::Modifier],
    type_mods: &[ast::Modifier],
) -> (DeclModifiers, Vec<ast::Modifier>) {
    let mut out = DeclModifiers::default();
    let mut leftover = Vec::new();
    for m in mods.iter().chain(type_mods) {
        match m.kind {
            M::Static => out.is_static = true,
            M::Const => out.is_const = true,
            M::Uniform | M::Extern => out.is_uniform = true,
            M::GroupShared => out.groupshared = true,
            M::GloballyCoherent => out.globally_coherent = true,
            M::In => {
                out.direction = Some(match out.direction {
                    Some(ir::ParamDirection::Out | ir::ParamDirection::InOut) => {
                        ir::ParamDirection::InOut
                    }
                    _ => ir::ParamDirection::In,
                })
            }
            M::Out => {
                out.direction = Some(match out.direction {
                    Some(ir::ParamDirection::In | ir::ParamDirection::InOut) => {
                        ir::ParamDirection::InOut
                    }
                    _ => ir::ParamDirection::Out,
                })
            }
            M::InOut => out.direction = Some(ir::ParamDirection::InOut),
            M::Linear => out.interpolation.mode = Some(ir::InterpolationMode::Linear),
            M::NoInterpolation => out.interpolation.mode = Some(ir::InterpolationMode::Flat),
            M::NoPerspective => out.interpolation.mode = Some(ir::InterpolationMode::NoPerspective),
            M::Centroid => out.interpolation.sampling = Some(ir::Sampling::Centroid),
            M::Sample => out.interpolation.sampling = Some(ir::Sampling::Sample),
            M::RowMajor => out.matrix_layout = Some(ir::MatrixLayout::RowMajor),
            M::ColumnMajor => out.matrix_layout = Some(ir::MatrixLayout::ColumnMajor),
            M::Point => out.primitive = Some(ir::InputPrimitive::Point),
            M::Line => out.primitive = Some(ir::InputPrimitive::Line),
            M::Triangle => out.primitive = Some(ir::InputPrimitive::Triangle),
            M::LineAdj => out.primitive = Some(ir::InputPrimitive::LineAdj),
            M::TriangleAdj => out.primitive = Some(ir::InputPrimitive::TriangleAdj),
            M::Vertices => out.mesh_output = Some(ir::MeshOutputKind::Vertices),
            M::Indices => out.mesh_output = Some(ir::MeshOutputKind::Indices),
            M::Primitives => out.mesh_output = Some(ir::MeshOutputKind::Primitives),
            M::Payload => out.payload = true,
            M::ConstExpr => out.constexpr = true,
            M::Volatile | M::Inline | M::Precise | M::Unorm | M::Snorm => leftover.push(*m),
        }
    }
    (out, leftover)
}

impl Checker<'_> {
    pub fn check_items(&mut self, items: &[super::FlatItem<'_>]) {
        for (index, flat) in items.iter().enumerate() {
            self.namespace.clone_from(&flat.namespace);
            match flat.item {
                // Flattened away by `flatten_items`.
                ast::Item::Namespace(_) => {}
                ast::Item::Struct(s) if !s.generics.is_empty() => self.declare_generic_struct(s),
                ast::Item::Struct(s) => {
                    // Unless a value of an interface it conforms to
                    // declared it already (`dyn_dispatch.rs`).
                    self.declare_struct_once(s);
                    self.declare_methods(s, index);
                }
                ast::Item::Enum(e) => self.declare_enum(e),
                ast::Item::TypeAlias(a) => self.declare_alias(a),
                ast::Item::Interface(i) => self.declare_interface(i),
                ast::Item::Var(v) => self.declare_global_var(v),
                ast::Item::Buffer(b) => self.declare_buffer_block(b),
                ast::Item::Function(f) if !f.generics.is_empty() => {
                    self.declare_generic_function(f)
                }
                ast::Item::Function(f) => self.declare_function(f, index),
                // After every struct, so an extension may come first.
                ast::Item::Extension(_) => {}
                ast::Item::GlslBuffer(b) => self.declare_glsl_buffer(b),
                ast::Item::GlslLayoutIn(l) => self.declare_glsl_layout_in(l),
            }
        }
        for (index, flat) in items.iter().enumerate() {
            if let ast::Item::Extension(e) = flat.item {
                self.namespace.clone_from(&flat.namespace);
                self.declare_extension(e, index, items);
            }
        }
    }

    /// `extension S : IFoo { methods }`: the methods become `S`'s, and `S`
    /// conforms to the interfaces, checked with its own methods and the
    /// extension's.
    fn declare_extension(
        &mut self,
        ext: &ast::StructDecl,
        index: usize,
        items: &[super::FlatItem<'_>],
    ) {
        let ty = match self.lookup_type(&ext.name.name) {
            Some(TypeSymbol::Type(ty)) if matches!(self.inner(ty), TypeInner::Struct { .. }) => ty,
            None if self.generics.is_generic_struct(&ext.name.name) => {
                self.error(
                    codes::PARSE_UNSUPPORTED,
                    format!(
                        "an extension of the generic struct `{}` is not supported",
                        ext.name.name
                    ),
                    ext.name.span,
                );
                return;
            }
            _ => {
                let written = ast::TypeExpr {
                    name: ext.name.name.clone(),
                    args: Vec::new(),
                    modifiers: Vec::new(),
                    span: ext.name.span,
                };
                // An undefined name is reported by resolving it.
                if self.resolve_type(&written) != self.error_ty {
                    self.error(
                        codes::PARSE_UNSUPPORTED,
                        format!(
                            "an extension of `{}`, which is not a struct, is not supported",
                            ext.name.name
                        ),
                        ext.name.span,
                    );
                }
                return;
            }
        };
        let type_name = self.module.types[ty].name.clone().unwrap_or_default();
        // The struct as declared, with the extension's methods and
        // conformances: what the conformance check and `this` see.
        let mut whole = items
            .iter()
            .find_map(|f| match f.item {
                ast::Item::Struct(s)
                    if self.qualified_in(&f.namespace, &s.name.name) == type_name =>
                {
                    Some(s.clone())
                }
                _ => None,
            })
            .unwrap_or_else(|| ext.clone());
        whole.methods.extend(ext.methods.iter().cloned());
        whole.conformances.clone_from(&ext.conformances);
        self.record_conformances(ty, &whole);
        self.check_conformances(&whole);
        let outer = std::mem::replace(&mut self.namespace, type_name);
        for (m, method) in ext.methods.iter().enumerate() {
            if !method.generics.is_empty() {
                self.declare_generic_method(method, &whole, ty, None);
                continue;
            }
            let body = BodyRef {
                item: index,
                method: Some(m),
            };
            if method.name.name == "__init" {
                self.declare_function_at(method, body, None, Some(ty));
                continue;
            }
            let this = self.method_this(method, &whole, ty);
            self.declare_function_at(method, body, this, None);
        }
        self.namespace = outer;
    }

    /// `name` qualified by `namespace`.
    fn qualified_in(&self, namespace: &str, name: &str) -> String {
        if namespace.is_empty() {
            name.to_string()
        } else {
            format!("{namespace}::{name}")
        }
    }

    pub fn declare_struct(&mut self, decl: &ast::StructDecl) {
        let aliases = !decl.aliases.is_empty();
        if aliases {
            self.push_scope();
            let qualified = self.qualified(&decl.name.name);
            self.declare_struct_aliases(decl, &qualified);
        }
        let members = self.struct_members(decl);
        if aliases {
            self.pop_scope();
        }
        let ty = self.module.types.insert(
            Type {
                name: Some(self.qualified(&decl.name.name)),
                inner: TypeInner::Struct { members },
            },
            decl.span,
        );
        self.take_field_defaults(ty);
        self.claim_conditional_fields(ty);
        self.declare_type(&decl.name, TypeSymbol::Type(ty));
        self.record_conformances(ty, decl);
        self.check_conformances(decl);
    }

    /// Records the field defaults [`Checker::struct_members`] just read as
    /// those of `ty`.
    pub fn take_field_defaults(&mut self, ty: Handle<Type>) {
        let defaults = std::mem::take(&mut self.pending_field_defaults);
        if !defaults.is_empty() {
            self.field_defaults.insert(ty, defaults);
        }
    }

    /// The fields of a struct (its attributes checked); their default
    /// values go to `pending_field_defaults`.
    pub fn struct_members(&mut self, decl: &ast::StructDecl) -> Vec<ir::StructMember> {
        self.begin_conditional_fields();
        self.sort_attributes(&decl.attributes, AttrSite::Struct);
        self.pending_field_defaults.clear();
        let mut members: Vec<ir::StructMember> = Vec::with_capacity(decl.fields.len());
        let mut names: FastHashSet<&str> =
            FastHashSet::with_capacity_and_hasher(decl.fields.len(), Default::default());
        for field in &decl.fields {
            let (mods, _) = sort_modifiers(&field.modifiers, &field.ty.modifiers);
            self.reject_storage_modifiers(&mods, field.span, "a struct field");
            let conditional = self.conditional_type(&field.ty);
            let base = match conditional {
                Some((ty, _)) => ty,
                None => self.resolve_type(&field.ty),
            };
            if let Some((inner, false)) = conditional {
                // `Conditional<T, false>`: the field is not there.
                for d in &field.declarators {
                    self.note_conditional_field(&d.name.name, inner, None);
                }
                continue;
            }
            let acted = self.sort_attributes(&field.attributes, AttrSite::Field);
            for d in &field.declarators {
                if !names.insert(d.name.name.as_str()) {
                    self.error(
                        codes::REDEFINITION,
                        format!(
                            "field `{}` is already declared in struct `{}`",
                            d.name.name, decl.name.name
                        ),
                        d.name.span,
                    );
                    continue;
                }
                if let Some(init) = &d.init {
                    // A default value (Slang): checked where it is used.
                    self.pending_field_defaults
                        .push((members.len() as u32, init.clone()));
                }
                let ty = self.apply_array_dims(base, &d.array_dims, None);
                let io = self.io_attrs(&acted, &d.annotations, mods.interpolation);
                self.check_value_type(ty, d.name.span, "a struct field");
                if conditional.is_some() {
                    self.note_conditional_field(&d.name.name, ty, Some(members.len() as u32));
                }
                members.push(ir::StructMember {
                    name: d.name.name.clone(),
                    ty,
                    io,
                    matrix_layout: mods.matrix_layout,
                    span: d.name.span,
                });
            }
        }
        members
    }

    /// An interface: its name is a type name that only a conformance list
    /// may use; its bases must be interfaces.
    fn declare_interface(&mut self, decl: &ast::InterfaceDecl) {
        self.sort_attributes(&decl.attributes, AttrSite::Struct);
        for base in &decl.bases {
            self.interface_of(base);
        }
        let index = self.interfaces.len();
        self.interfaces.push(decl.clone());
        self.declare_type(&decl.name, TypeSymbol::Interface(index));
    }

    /// The interface `texpr` names, or `None` after reporting that it names
    /// no interface.
    fn interface_of(&mut self, texpr: &ast::TypeExpr) -> Option<usize> {
        match self.lookup_type(&texpr.name) {
            Some(TypeSymbol::Interface(i)) => Some(i),
            Some(_) => {
                self.error(
                    codes::NOT_AN_INTERFACE,
                    format!(
                        "`{}` is not an interface: a struct conforms to interfaces only (struct \
                         inheritance is not supported)",
                        texpr.name
                    ),
                    texpr.span,
                );
                None
            }
            None => {
                self.error(
                    codes::UNDEFINED_TYPE,
                    format!("undefined interface `{}`", texpr.name),
                    texpr.span,
                );
                None
            }
        }
    }

    /// Every method an interface requires of `decl` (its bases' too) is a
    /// method of `decl` with the same parameter and result types, the
    /// same parameter directions and the same `static`-ness.
    pub fn check_conformances(&mut self, decl: &ast::StructDecl) {
        let mut pending: Vec<usize> = Vec::new();
        for texpr in &decl.conformances {
            pending.extend(self.interface_of(texpr));
        }
        let mut seen = Vec::new();
        while let Some(i) = pending.pop() {
            if seen.contains(&i) {
                continue;
            }
            seen.push(i);
            let interface = self.interfaces[i].clone();
            for base in &interface.bases {
                if let Some(TypeSymbol::Interface(b)) = self.lookup_type(&base.name) {
                    pending.push(b);
                }
            }
            for required in &interface.methods {
                let found = decl
                    .methods
                    .iter()
                    .find(|m| m.name.name == required.name.name);
                let why = match found {
                    None => "it has no method of that name".to_string(),
                    Some(method) => match self.signature_difference(required, method) {
                        None => continue,
                        Some(why) => why,
                    },
                };
                self.error(
                    codes::INTERFACE_NOT_IMPLEMENTED,
                    format!(
                        "struct `{}` does not implement `{}.{}` of the interface it conforms \
                         to: {why}",
                        decl.name.name, interface.name.name, required.name.name
                    ),
                    found.map_or(decl.name.span, |m| m.name.span),
                );
            }
        }
    }

    /// How `method` differs from the interface's `required` signature.
    fn signature_difference(
        &mut self,
        required: &ast::FunctionDecl,
        method: &ast::FunctionDecl,
    ) -> Option<String> {
        let is_static = |f: &ast::FunctionDecl| {
            f.modifiers
                .iter()
                .any(|m| m.kind == ast::ModifierKind::Static)
        };
        if is_static(required) != is_static(method) {
            return Some("one is `static` and the other not".into());
        }
        if required.params.len() != method.params.len() {
            return Some(format!(
                "it takes {} parameter(s), the interface {}",
                method.params.len(),
                required.params.len()
            ));
        }
        let is_void = |t: &ast::TypeExpr| t.name == "void" && t.args.is_empty();
        let (want_void, have_void) = (is_void(&required.return_type), is_void(&method.return_type));
        let differs = match (want_void, have_void) {
            (true, true) => false,
            // Not resolved: a conforming struct may not be declared yet.
            (false, false) if self.same_interface(&required.return_type, &method.return_type) => {
                false
            }
            (false, false) => {
                let want = self.resolve_type(&required.return_type);
                let have = self.resolve_type(&method.return_type);
                want != have && want != self.error_ty && have != self.error_ty
            }
            _ => true,
        };
        if differs {
            return Some(format!(
                "it returns `{}`, the interface `{}`",
                method.return_type.name, required.return_type.name
            ));
        }
        for (r, m) in required.params.iter().zip(&method.params) {
            let direction = |p: &ast::Param| {
                let (mods, _) = sort_modifiers(&p.modifiers, &p.ty.modifiers);
                mods.direction
            };
            if self.same_interface(&r.ty, &m.ty) && direction(r) == direction(m) {
                continue;
            }
            let want = self.resolve_type(&r.ty);
            let have = self.resolve_type(&m.ty);
            if (want != have && want != self.error_ty && have != self.error_ty)
                || direction(r) != direction(m)
            {
                return Some(format!(
                    "parameter `{}` is `{}`, the interface's `{}`",
                    m.declarator.name.name,
                    ir::print::type_name(&self.module, have),
                    ir::print::type_name(&self.module, want)
                ));
            }
        }
        None
    }

    /// Semantic, interpolation and explicit location of a varying declaration.
    pub fn io_attrs(
        &mut self,
        acted: &[&ast::Attribute],
        annotations: &[ast::PostAnnotation],
        interpolation: ir::Interpolation,
    ) -> ir::IoAttrs {
        let mut io = ir::IoAttrs {
            interpolation,
            ..Default::default()
        };
        for attr in acted {
            match lower_name(attr).as_str() {
                "vk::location" if self.attr_arity(attr, 1, 1) => {
                    io.explicit_location = self.attr_u32(attr, 0)
                }
                "vk::index" if self.attr_arity(attr, 1, 1) => {
                    io.explicit_index = self.attr_u32(attr, 0)
                }
                _ => {}
            }
        }
        for annotation in annotations {
            match annotation {
                ast::PostAnnotation::Semantic(ident) => match ir::Semantic::parse(&ident.name) {
                    Some(semantic) => io.binding = Some(ir::Binding::Semantic(semantic)),
                    None => self.error(
                        codes::BAD_SEMANTIC,
                        format!("semantic `{}` has an index too large", ident.name),
                        ident.span,
                    ),
                },
                ast::PostAnnotation::Register { span, .. } => self.warning(
                    codes::IGNORED_ANNOTATION,
                    "`register` has no effect on a varying or struct field",
                    *span,
                ),
                ast::PostAnnotation::PackOffset { span, .. } => self.warning(
                    codes::IGNORED_ANNOTATION,
                    "`packoffset` has no effect outside a `cbuffer`",
                    *span,
                ),
                // Ray-payload access qualifiers are accepted with no
                // effect: every target passes the whole payload.
                ast::PostAnnotation::PayloadAccess { .. } => {}
            }
        }
        io
    }

    /// Storage modifiers that mean nothing on fields and parameters.
    pub(super) fn reject_storage_modifiers(
        &mut self,
        mods: &super::decl::DeclModifiers,
        span: Span,
        what: &str,
    ) {
        if mods.is_static || mods.groupshared {
            let which = if mods.is_static {
                "static"
            } else {
                "groupshared"
            };
            self.error(
                codes::BAD_MODIFIER,
                format!("`{which}` is not allowed on {what}"),
                span,
            );
        }
    }

    /// Values may not be `void` and fields may not be opaque stage objects.
    pub fn check_value_type(&mut self, ty: Handle<Type>, span: Span, what: &str) {
        if let TypeInner::Stream { .. } | TypeInner::Patch { .. } | TypeInner::MeshOutput { .. } =
            self.inner(ty)
        {
            let name = self.type_name(ty);
            self.error(
                codes::TYPE_MISMATCH,
                format!("`{name}` cannot be used as {what}"),
                span,
            );
        }
    }

    pub fn declare_enum(&mut self, decl: &ast::EnumDecl) {
        let ty = match &decl.base {
            Some(t) => {
                let ty = self.resolve_type(t);
                match self.inner(ty) {
                    TypeInner::Scalar(s)
                        if matches!(s.kind, ir::ScalarKind::Sint | ir::ScalarKind::Uint) =>
                    {
                        ty
                    }
                    _ if ty == self.error_ty => ty,
                    _ => {
                        let found = self.type_name(ty);
                        self.error(
                            codes::TYPE_MISMATCH,
                            format!(
                                "an enum's underlying type must be an integer type, found `{found}`"
                            ),
                            t.span,
                        );
                        self.error_ty
                    }
                }
            }
            None => self.scalar_ty(ir::Scalar::I32),
        };
        let mut members: Vec<(String, i64)> = Vec::new();
        let mut next = 0i64;
        let index = self.enums.len();
        self.enums.push(EnumInfo {
            ty,
            members: Vec::new(),
        });
        self.declare_type(&decl.name, TypeSymbol::Enum(index));
        for (name, value) in &decl.members {
            if let Some(expr) = value {
                match self.const_eval(expr).map(ConstValue::as_i64) {
                    Some(Some(v)) => next = v,
                    Some(None) => self.error(
                        codes::NOT_CONSTANT,
                        "enum values must be integers",
                        expr.span,
                    ),
                    None => {}
                }
            }
            if members.iter().any(|(n, _)| *n == name.name) {
                self.error(
                    codes::REDEFINITION,
                    format!("enum member `{}` is already defined", name.name),
                    name.span,
                );
            } else {
                members.push((name.name.clone(), next));
                // Members are visible while the rest of the enum is evaluated.
                self.enums[index].members = members.clone();
                if !decl.scoped {
                    self.declare_value(name, ValueSymbol::EnumMember { ty, value: next });
                }
            }
            next = next.wrapping_add(1);
        }
    }

    pub fn declare_alias(&mut self, alias: &ast::TypeAlias) {
        let base = self.resolve_type(&alias.ty);
        let ty = self.apply_array_dims(base, &alias.array_dims, None);
        self.declare_type(&alias.name, TypeSymbol::Type(ty));
    }

    pub fn declare_global_var(&mut self, decl: &ast::VarDecl) {
        let (mods, _) = sort_modifiers(&decl.modifiers, &decl.ty.modifiers);
        if mods.direction.is_some()
            || mods.primitive.is_some()
            || mods.mesh_output.is_some()
            || mods.payload
        {
            self.error(
                codes::BAD_MODIFIER,
                "parameter modifiers are not allowed on a global variable",
                decl.span,
            );
        }
        let acted = self.sort_attributes(&decl.attributes, AttrSite::Variable);
        let vk_binding = self.vk_binding(&acted);
        // `extern static const T x = v;`: a link-time constant whose
        // default is `v`.
        let link_time = mods.is_static
            && mods.is_const
            && decl
                .modifiers
                .iter()
                .chain(&decl.ty.modifiers)
                .any(|m| m.kind == M::Extern);
        let base = self.resolve_type(&decl.ty);
        for d in &decl.declarators {
            let init_len = init_list_len(d.init.as_ref());
            let ty = self.apply_array_dims(base, &d.array_dims, init_len);
            let space = if mods.groupshared {
                ir::AddressSpace::Workgroup
            } else if link_time {
                // One module, nothing linked: the default is the value.
                ir::AddressSpace::Constant
            } else if mods.is_const && !mods.is_uniform {
                // Slang treats a global `const` as `static const`.
                ir::AddressSpace::Constant
            } else if mods.is_static {
                ir::AddressSpace::Private
            } else {
                ir::AddressSpace::Uniform
            };
            self.check_global_type(ty, space, d.name.span);
            if mods.globally_coherent && !is_read_write_resource(&self.module, ty) {
                self.error(
                    codes::BAD_MODIFIER,
                    "`globallycoherent` applies only to read-write resources",
                    d.name.span,
                );
            }
            let register = self.register_annotation(&d.annotations, space);
            let (init, constant) = match &d.init {
                Some(expr) => {
                    if space == ir::AddressSpace::Uniform || space == ir::AddressSpace::Workgroup {
                        self.warning(
                            codes::IGNORED_ANNOTATION,
                            "the initializer of a uniform or groupshared variable is ignored",
                            expr.span,
                        );
                        (None, None)
                    } else {
                        let constant = if space == ir::AddressSpace::Constant {
                            self.try_const_eval(expr).ok()
                        } else {
                            None
                        };
                        (Some(self.lower_initializer(expr, ty)), constant)
                    }
                }
                None if space == ir::AddressSpace::Constant => {
                    self.error(
                        codes::BAD_INITIALIZER,
                        "a constant needs an initializer",
                        d.span,
                    );
                    (None, None)
                }
                None => (None, None),
            };
            let input_attachment_index = self.input_attachment_index(&acted, ty);
            // Each `ParameterBlock<T>` takes a descriptor set of its own.
            let parameter_block = (decl.ty.name == "ParameterBlock"
                && space == ir::AddressSpace::Uniform)
                .then(|| {
                    self.parameter_blocks += 1;
                    self.parameter_blocks - 1
                });
            let global = self.module.globals.append(
                ir::GlobalVariable {
                    name: self.qualified(&d.name.name),
                    ty,
                    space,
                    binding: ir::ResourceBinding {
                        register,
                        vk_binding,
                        descriptor_heap: None,
                        parameter_block,
                        input_attachment_index,
                    },
                    matrix_layout: mods.matrix_layout,
                    init,
                    globally_coherent: mods.globally_coherent,
                    io: None,
                },
                d.span,
            );
            // `ConstantBuffer<float> c`: `c` reads the wrapped value.
            let symbol = match *self.inner(ty) {
                TypeInner::ConstantBuffer { inner } if self.value_buffers.contains_key(&inner) => {
                    ValueSymbol::CbufferMember { global, index: 0 }
                }
                _ => ValueSymbol::Global {
                    handle: global,
                    constant,
                },
            };
            self.declare_value(&d.name, symbol);
        }
    }

    fn check_global_type(&mut self, ty: Handle<Type>, space: ir::AddressSpace, span: Span) {
        let inner = self.inner(ty).clone();
        let resource = inner_is_resource(&self.module, ty);
        if resource && space != ir::AddressSpace::Uniform {
            let name = self.type_name(ty);
            self.error(
                codes::BAD_MODIFIER,
                format!("resource `{name}` cannot be `static`, `const` or `groupshared`"),
                span,
            );
        }
        if let TypeInner::Stream { .. } | TypeInner::Patch { .. } | TypeInner::MeshOutput { .. } =
            inner
        {
            let name = self.type_name(ty);
            self.error(
                codes::TYPE_MISMATCH,
                format!("`{name}` is only allowed as an entry-point parameter"),
                span,
            );
        }
    }

    /// `[[vk::binding(binding, set)]]`.
    fn vk_binding(&mut self, acted: &[&ast::Attribute]) -> Option<(u32, u32)> {
        let attr = acted.iter().find(|a| lower_name(a) == "vk::binding")?;
        if !self.attr_arity(attr, 1, 2) {
            return None;
        }
        let binding = self.attr_u32(attr, 0)?;
        let set = if attr.args.len() > 1 {
            self.attr_u32(attr, 1)?
        } else {
            0
        };
        Some((binding, set))
    }

    /// `[[vk::input_attachment_index(n)]]` on a global of type `ty`: `n`
    /// for a subpass input (0 without the attribute, as the reference
    /// defaults it), `None` for anything else, where the attribute is
    /// warned about as having no effect.
    fn input_attachment_index(
        &mut self,
        acted: &[&ast::Attribute],
        ty: Handle<Type>,
    ) -> Option<u32> {
        let attr = acted
            .iter()
            .find(|a| lower_name(a) == "vk::input_attachment_index");
        let mut element = ty;
        while let TypeInner::Array { base, .. } = *self.inner(element) {
            element = base;
        }
        if !matches!(self.inner(element), TypeInner::SubpassInput { .. }) {
            if let Some(attr) = attr {
                self.warning(
                    codes::IGNORED_ANNOTATION,
                    "`vk::input_attachment_index` has no effect on a variable that is not a \
                     SubpassInput",
                    attr.span,
                );
            }
            return None;
        }
        match attr {
            Some(attr) if self.attr_arity(attr, 1, 1) => Some(self.attr_u32(attr, 0).unwrap_or(0)),
            _ => Some(0),
        }
    }

    /// `: register(t0, space1)` on a global.
    fn register_annotation(
        &mut self,
        annotations: &[ast::PostAnnotation],
        space: ir::AddressSpace,
    ) -> Option<ir::Register> {
        let mut out = None;
        for a in annotations {
            match a {
                ast::PostAnnotation::Register {
                    class,
                    index,
                    space: reg_space,
                    span,
                } => {
                    let class = match class.to_ascii_lowercase() {
                        't' => ir::RegisterClass::T,
                        's' => ir::RegisterClass::S,
                        'u' => ir::RegisterClass::U,
                        'b' => ir::RegisterClass::B,
                        'c' => ir::RegisterClass::C,
                        other => {
                            self.error(
                                codes::PARSE_BAD_REGISTER,
                                format!(
                                    "unknown register class `{other}`; expected t, s, u, b or c"
                                ),
                                *span,
                            );
                            continue;
                        }
                    };
                    if space != ir::AddressSpace::Uniform {
                        self.warning(
                            codes::IGNORED_ANNOTATION,
                            "`register` has no effect on a non-uniform variable",
                            *span,
                        );
                    }
                    out = Some(ir::Register {
                        class,
                        index: *index,
                        space: reg_space.unwrap_or(0),
                    });
                }
                ast::PostAnnotation::Semantic(ident) => self.warning(
                    codes::IGNORED_ANNOTATION,
                    format!(
                        "semantic `{}` on a global variable has no effect",
                        ident.name
                    ),
                    ident.span,
                ),
                ast::PostAnnotation::PackOffset { span, .. } => self.warning(
                    codes::IGNORED_ANNOTATION,
                    "`packoffset` has no effect outside a `cbuffer`",
                    *span,
                ),
                ast::PostAnnotation::PayloadAccess { span, .. } => self.warning(
                    codes::IGNORED_ANNOTATION,
                    "a ray-payload access qualifier has no effect on a global variable",
                    *span,
                ),
            }
        }
        out
    }

    pub fn declare_buffer_block(&mut self, block: &ast::BufferBlock) {
        let acted = self.sort_attributes(&block.attributes, AttrSite::Variable);
        let vk_binding = self.vk_binding(&acted);
        let mut members: Vec<ir::StructMember> = Vec::new();
        for field in &block.fields {
            let (mods, _) = sort_modifiers(&field.modifiers, &field.ty.modifiers);
            self.reject_storage_modifiers(&mods, field.span, "a cbuffer member");
            let base = self.resolve_type(&field.ty);
            self.sort_attributes(&field.attributes, AttrSite::Variable);
            for d in &field.declarators {
                let ty = self.apply_array_dims(base, &d.array_dims, None);
                for a in &d.annotations {
                    match a {
                        ast::PostAnnotation::PackOffset { span, .. } => self.warning(
                            codes::IGNORED_ANNOTATION,
                            "`packoffset` is accepted but not applied: members are laid out in declaration order",
                            *span,
                        ),
                        ast::PostAnnotation::Semantic(i) => self.warning(
                            codes::IGNORED_ANNOTATION,
                            format!("semantic `{}` on a cbuffer member has no effect", i.name),
                            i.span,
                        ),
                        ast::PostAnnotation::Register { span, .. } => self.warning(
                            codes::IGNORED_ANNOTATION,
                            "`register` has no effect on a cbuffer member",
                            *span,
                        ),
                        ast::PostAnnotation::PayloadAccess { span, .. } => self.warning(
                            codes::IGNORED_ANNOTATION,
                            "a ray-payload access qualifier has no effect on a cbuffer member",
                            *span,
                        ),
                    }
                }
                if d.init.is_some() {
                    self.warning(
                        codes::IGNORED_ANNOTATION,
                        "the initializer of a cbuffer member is ignored",
                        d.span,
                    );
                }
                members.push(ir::StructMember {
                    name: d.name.name.clone(),
                    ty,
                    io: ir::IoAttrs::default(),
                    matrix_layout: mods.matrix_layout,
                    span: d.span,
                });
            }
        }
        let names: Vec<(String, Span)> = members.iter().map(|m| (m.name.clone(), m.span)).collect();
        let inner = self.module.types.insert(
            Type {
                name: Some(self.qualified(&block.name.name)),
                inner: TypeInner::Struct { members },
            },
            block.span,
        );
        let ty = if block.is_tbuffer {
            self.intern(TypeInner::TextureBuffer { inner })
        } else {
            self.intern(TypeInner::ConstantBuffer { inner })
        };
        let register = self.register_annotation(&block.annotations, ir::AddressSpace::Uniform);
        let global = self.module.globals.append(
            ir::GlobalVariable {
                name: self.qualified(&block.name.name),
                ty,
                space: ir::AddressSpace::Uniform,
                binding: ir::ResourceBinding {
                    register,
                    vk_binding,
                    descriptor_heap: None,
                    parameter_block: None,
                    input_attachment_index: None,
                },
                matrix_layout: None,
                init: None,
                globally_coherent: false,
                io: None,
            },
            block.span,
        );
        for (index, (name, span)) in names.into_iter().enumerate() {
            let ident = ast::Ident { name, span };
            self.declare_value(
                &ident,
                ValueSymbol::CbufferMember {
                    global,
                    index: index as u32,
                },
            );
        }
    }

    /// Resolves a parameter's type and direction from its modifiers.
    pub fn param_signature(&mut self, param: &ast::Param) -> (ParamSig, DeclModifiers) {
        let (mods, _) = sort_modifiers(&param.modifiers, &param.ty.modifiers);
        self.reject_storage_modifiers(&mods, param.span, "a parameter");
        let base = self.resolve_type(&param.ty);
        let mut ty = self.apply_array_dims(base, &param.declarator.array_dims, None);
        if let Some(kind) = mods.mesh_output {
            // `out vertices V verts[N]` is `OutputVertices<V, N>`.
            ty = match *self.inner(ty) {
                TypeInner::Array {
                    base,
                    size: ir::ArraySize::Constant(count),
                } => self.intern(TypeInner::MeshOutput {
                    kind,
                    element: base,
                    count,
                }),
                _ => {
                    self.error(
                        codes::BAD_MODIFIER,
                        "a mesh output (`vertices`, `indices`, `primitives`) must be a sized array",
                        param.span,
                    );
                    self.error_ty
                }
            };
        }
        let direction = mods.direction.unwrap_or(match self.inner(ty) {
            TypeInner::MeshOutput { .. } => ir::ParamDirection::Out,
            _ => ir::ParamDirection::In,
        });
        let sig = ParamSig {
            ty,
            direction,
            default: param.declarator.init.clone(),
            constexpr: mods.constexpr,
        };
        (sig, mods)
    }

    pub fn declare_function(&mut self, decl: &ast::FunctionDecl, item_index: usize) {
        let body = BodyRef {
            item: item_index,
            method: None,
        };
        self.declare_function_at(decl, body, None, None);
    }

    /// Declares the member functions of a module-scope struct as functions
    /// named `S::f`; a non-static one takes `this` as parameter 0, `inout`
    /// when it is `[mutating]` or assigns to a field.
    fn declare_methods(&mut self, decl: &ast::StructDecl, item_index: usize) {
        if decl.methods.is_empty() {
            return;
        }
        let Some(TypeSymbol::Type(ty)) = self.lookup_type(&decl.name.name) else {
            return;
        };
        let scope = self.qualified(&decl.name.name);
        let outer = std::mem::replace(&mut self.namespace, scope);
        for (m, method) in decl.methods.iter().enumerate() {
            if !method.generics.is_empty() {
                self.declare_generic_method(method, decl, ty, None);
                continue;
            }
            let body = BodyRef {
                item: item_index,
                method: Some(m),
            };
            if method.name.name == "__init" {
                // `S(args)` calls it; see `lower_constructor`.
                self.declare_function_at(method, body, None, Some(ty));
                continue;
            }
            let this = self.method_this(method, decl, ty);
            self.declare_function_at(method, body, this, None);
        }
        self.namespace = outer;
    }

    fn declare_function_at(
        &mut self,
        decl: &ast::FunctionDecl,
        body: BodyRef,
        this: Option<ParamSig>,
        constructs: Option<Handle<Type>>,
    ) {
        let this_ty = this.as_ref().map(|p| p.ty);
        let (result, params) = self.function_signature(decl, this);
        let result = constructs.or(result);
        let key = self.qualified(&decl.name.name);
        let existing = match self.global_values_mut().get(&key) {
            Some(ValueSymbol::Functions(list)) => list.clone(),
            Some(_) => {
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
            None => Vec::new(),
        };
        let same = existing.iter().copied().find(|&f| {
            let info = &self.funcs[f];
            info.params.len() == params.len()
                && info
                    .params
                    .iter()
                    .zip(&params)
                    .all(|(a, b)| a.ty == b.ty && a.direction == b.direction)
        });
        let body_item = decl.body.as_ref().map(|_| body);
        match same {
            Some(f) if self.funcs[f].body_item.is_some() && body_item.is_some() => {
                self.error(
                    codes::REDEFINITION,
                    format!(
                        "function `{}` with this signature is already defined",
                        decl.name.name
                    ),
                    decl.name.span,
                );
            }
            Some(f) => {
                if self.funcs[f].result != result {
                    self.error(
                        codes::REDEFINITION,
                        format!(
                            "function `{}` is redeclared with a different return type",
                            decl.name.name
                        ),
                        decl.return_type.span,
                    );
                }
                if body_item.is_some() {
                    self.funcs[f].body_item = body_item;
                    self.funcs[f].span = decl.span;
                    self.funcs[f].params = params;
                }
            }
            None => {
                let index = self.funcs.len();
                self.funcs.push(FuncInfo {
                    name: key.clone(),
                    params,
                    result,
                    body_item,
                    span: decl.span,
                    scope: self.namespace.clone(),
                    this_ty,
                    constructs,
                });
                self.bodies.push(None);
                self.call_edges.push(Vec::new());
                let mut list = existing;
                list.push(index);
                self.global_values_mut()
                    .insert(key, ValueSymbol::Functions(list));
            }
        }
    }

    /// A function's result type and parameters (`this` first, if given).
    pub fn function_signature(
        &mut self,
        decl: &ast::FunctionDecl,
        this: Option<ParamSig>,
    ) -> (Option<Handle<Type>>, Vec<ParamSig>) {
        let result = if decl.return_type.name == "void" && decl.return_type.args.is_empty() {
            None
        } else if self.conditional_present(&decl.return_type) == Some(false) {
            // `Conditional<T, false>`: no result.
            None
        } else {
            let ty = self.resolve_type(&decl.return_type);
            self.check_value_type(ty, decl.return_type.span, "a return type");
            Some(ty)
        };
        let params: Vec<ParamSig> = this
            .into_iter()
            .chain(
                self.kept_params(decl)
                    .into_iter()
                    .map(|p| self.param_signature(p).0)
                    .collect::<Vec<_>>(),
            )
            .collect();
        (result, params)
    }
}

/// The element count of an initializer list, for `T a[] = {...}`.
fn init_list_len(init: Option<&ast::Expr>) -> Option<u32> {
    match init.map(|e| &e.kind) {
        Some(ast::ExprKind::InitList(items)) => Some(items.len() as u32),
        _ => None,
    }
}

/// Whether a type is, or is an array of, a read-write texture or buffer.
fn is_read_write_resource(module: &ir::Module, ty: Handle<Type>) -> bool {
    match module.types.try_get(ty).map(|t| &t.inner) {
        Some(TypeInner::Array { base, .. }) => is_read_write_resource(module, *base),
        Some(TypeInner::Texture(ir::Texture { access, .. }) | TypeInner::Buffer { access, .. }) => {
            *access != ir::ResourceAccess::Read
        }
        _ => false,
    }
}

/// Whether a type is, or is an array of, an opaque resource.
pub fn inner_is_resource(module: &ir::Module, ty: Handle<Type>) -> bool {
    match module.types.try_get(ty).map(|t| &t.inner) {
        Some(TypeInner::Array { base, .. }) => inner_is_resource(module, *base),
        Some(inner) => inner.is_resource(),
        None => false,
    }
}
