//! Resolving written types ([`ast::TypeExpr`]) to interned IR types, and the
//! small type algebra the checker uses (shapes, element kinds, building
//! vectors and arrays).

use legalis_ir as ir;
use legalis_ir::{Handle, Scalar, ScalarKind, Span, Type, TypeInner};

use super::{Checker, TypeSymbol};
use crate::{ast, codes};

/// The shape of a numeric value: how many rows and columns of scalars.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    Scalar,
    Vector(u8),
    Matrix { rows: u8, columns: u8 },
}

impl Shape {
    /// A vector of `n` components; one component is a scalar.
    pub fn vector(n: u8) -> Shape {
        if n == 1 {
            Shape::Scalar
        } else {
            Shape::Vector(n)
        }
    }

    /// Whether an explicit conversion (a cast or a one-argument
    /// constructor) may turn a value of this shape into `to`: same
    /// component count, a splat, or a truncation.
    pub fn converts_explicitly_to(self, to: Shape) -> bool {
        match (self, to) {
            (a, b) if a.component_count() == b.component_count() => true,
            (Shape::Scalar, _) => true,
            (Shape::Vector(n), Shape::Vector(m)) => m <= n,
            (Shape::Vector(_) | Shape::Matrix { .. }, Shape::Scalar) => true,
            (
                Shape::Matrix {
                    rows: r1,
                    columns: c1,
                },
                Shape::Matrix {
                    rows: r2,
                    columns: c2,
                },
            ) => r2 <= r1 && c2 <= c1,
            _ => false,
        }
    }

    pub fn component_count(self) -> u32 {
        match self {
            Shape::Scalar => 1,
            Shape::Vector(n) => n as u32,
            Shape::Matrix { rows, columns } => rows as u32 * columns as u32,
        }
    }
}

/// Scalar type names (HLSL and Slang spellings) without vector/matrix suffix.
fn scalar_from_name(name: &str) -> Option<Scalar> {
    Some(match name {
        "bool" => Scalar::BOOL,
        "int" | "int32_t" | "min16int" | "min12int" => Scalar::I32,
        "uint" | "uint32_t" | "dword" | "min16uint" => Scalar::U32,
        "float" | "float32_t" | "min10float" => Scalar::F32,
        "half" | "float16_t" | "min16float" => Scalar::F16,
        "double" | "float64_t" => Scalar::F64,
        "int8_t" => Scalar::I8,
        "uint8_t" => Scalar::U8,
        "int16_t" => Scalar::I16,
        "uint16_t" => Scalar::U16,
        "int64_t" => Scalar::I64,
        "uint64_t" => Scalar::U64,
        _ => return None,
    })
}

/// Parses `float`, `float3`, `float4x4`, `min16float2`, `uint64_t3` into a
/// scalar and shape. `float1` is a scalar (GLSL-family targets have no
/// one-component vectors, and HLSL lets scalars be swizzled the same way).
pub fn numeric_from_name(name: &str) -> Option<(Scalar, Shape)> {
    if let Some(s) = scalar_from_name(name) {
        return Some((s, Shape::Scalar));
    }
    let bytes = name.as_bytes();
    let digit = |b: u8| (b'1'..=b'4').contains(&b).then_some(b - b'0');
    // `NxM` suffix.
    if bytes.len() > 3 && bytes[bytes.len() - 2] == b'x' {
        let rows = digit(bytes[bytes.len() - 3])?;
        let columns = digit(bytes[bytes.len() - 1])?;
        let scalar = scalar_from_name(&name[..name.len() - 3])?;
        return Some((scalar, Shape::Matrix { rows, columns }));
    }
    let size = digit(*bytes.last()?)?;
    let scalar = scalar_from_name(&name[..name.len() - 1])?;
    Some((
        scalar,
        if size == 1 {
            Shape::Scalar
        } else {
            Shape::Vector(size)
        },
    ))
}

impl Checker<'_> {
    pub fn intern(&mut self, inner: TypeInner) -> Handle<Type> {
        self.module
            .types
            .insert(Type { name: None, inner }, Span::UNDEFINED)
    }

    pub fn scalar_ty(&mut self, scalar: Scalar) -> Handle<Type> {
        self.intern(TypeInner::Scalar(scalar))
    }

    pub fn numeric_ty(&mut self, scalar: Scalar, shape: Shape) -> Handle<Type> {
        match shape {
            Shape::Scalar => self.intern(TypeInner::Scalar(scalar)),
            Shape::Vector(size) => self.intern(TypeInner::Vector { size, scalar }),
            Shape::Matrix { rows, columns } => self.intern(TypeInner::Matrix {
                rows,
                columns,
                scalar,
            }),
        }
    }

    pub fn bool_ty(&mut self) -> Handle<Type> {
        self.scalar_ty(Scalar::BOOL)
    }

    /// The type behind `ty`; the error type (and any handle not yet in the
    /// arena) reads as an empty struct, which matches no rule.
    pub fn inner(&self, ty: Handle<Type>) -> &TypeInner {
        static ERROR: TypeInner = TypeInner::Struct {
            members: Vec::new(),
        };
        self.module.types.try_get(ty).map_or(&ERROR, |t| &t.inner)
    }

    /// Scalar and shape of a numeric type.
    pub fn numeric(&self, ty: Handle<Type>) -> Option<(Scalar, Shape)> {
        match *self.inner(ty) {
            TypeInner::Scalar(s) => Some((s, Shape::Scalar)),
            TypeInner::Vector { size, scalar } => Some((scalar, Shape::Vector(size))),
            TypeInner::Matrix {
                rows,
                columns,
                scalar,
            } => Some((scalar, Shape::Matrix { rows, columns })),
            _ => None,
        }
    }

    /// The same shape with another scalar.
    pub fn with_scalar(&mut self, ty: Handle<Type>, scalar: Scalar) -> Handle<Type> {
        match self.numeric(ty) {
            Some((_, shape)) => self.numeric_ty(scalar, shape),
            None => ty,
        }
    }

    pub fn type_name(&self, ty: Handle<Type>) -> String {
        ir::print::type_name(&self.module, ty)
    }

    /// Wraps `base` in the array dimensions of a declarator, outermost first
    /// (`float a[2][3]` is an array of 2 arrays of 3 floats). `init_len` sizes
    /// an unsized outermost dimension from an initializer list.
    pub fn apply_array_dims(
        &mut self,
        base: Handle<Type>,
        dims: &[Option<ast::Expr>],
        init_len: Option<u32>,
    ) -> Handle<Type> {
        let mut ty = base;
        for (i, dim) in dims.iter().enumerate().rev() {
            let size = match dim {
                Some(expr) => match self.const_array_size(expr) {
                    Some(n) => ir::ArraySize::Constant(n),
                    None => return self.error_type(),
                },
                None if i == 0 && init_len.is_some() => {
                    ir::ArraySize::Constant(init_len.unwrap_or(0))
                }
                None => ir::ArraySize::Unsized,
            };
            ty = self.intern(TypeInner::Array { base: ty, size });
        }
        ty
    }

    /// Evaluates an array dimension: a positive integer constant.
    pub fn const_array_size(&mut self, expr: &ast::Expr) -> Option<u32> {
        let value = self.const_eval(expr)?;
        match value.as_i64() {
            Some(n) if n > 0 && n <= 1 << 24 => Some(n as u32),
            _ => {
                self.error(
                    codes::BAD_ARRAY_SIZE,
                    format!("array size must be a positive integer up to 16777216, found {value}"),
                    expr.span,
                );
                None
            }
        }
    }

    /// A stand-in type after an error was reported, so checking can go on.
    pub fn error_type(&mut self) -> Handle<Type> {
        self.error_ty
    }

    /// Resolves a written type; reports and returns the error type when it
    /// cannot.
    pub fn resolve_type(&mut self, texpr: &ast::TypeExpr) -> Handle<Type> {
        match self.try_resolve_type(texpr) {
            Some(ty) => ty,
            None => self.error_type(),
        }
    }

    /// `T*` and `void*`: a pointer to plain data (numbers, arrays and
    /// structs of them, other pointers); resources and stage types have
    /// no address.
    fn resolve_pointer_type(
        &mut self,
        pointee: &ast::TypeExpr,
        span: Span,
    ) -> Option<Handle<Type>> {
        let base = if pointee.name == "void" && pointee.args.is_empty() {
            None
        } else {
            Some(self.try_resolve_type(pointee)?)
        };
        if let Some(base) = base
            && !self.addressable(base)
        {
            let name = self.type_name(base);
            self.error(
                codes::BAD_POINTER,
                format!(
                    "a pointer to `{name}` is not supported: a pointer points to plain data \
                     (numbers, arrays and structs of them, pointers)"
                ),
                span,
            );
            return None;
        }
        Some(self.intern(TypeInner::Pointer { base }))
    }

    /// Whether values of `ty` can live in device memory behind a pointer.
    fn addressable(&self, ty: Handle<Type>) -> bool {
        match self.inner(ty) {
            TypeInner::Scalar(_)
            | TypeInner::Vector { .. }
            | TypeInner::Matrix { .. }
            | TypeInner::Pointer { .. } => true,
            TypeInner::Array { base, .. } => self.addressable(*base),
            TypeInner::Struct { members } => members.iter().all(|m| self.addressable(m.ty)),
            _ => false,
        }
    }

    fn try_resolve_type(&mut self, texpr: &ast::TypeExpr) -> Option<Handle<Type>> {
        let name = texpr.name.as_str();
        if name == ast::ARRAY_TYPE
            && let [ast::GenericArg::Type(element), sizes @ ..] = texpr.args.as_slice()
        {
            let element = self.try_resolve_type(element)?;
            let dims: Vec<Option<ast::Expr>> = sizes
                .iter()
                .map(|a| match a {
                    ast::GenericArg::Value(e) => Some(e.clone()),
                    ast::GenericArg::Type(_) => None,
                })
                .collect();
            return Some(self.apply_array_dims(element, &dims, None));
        }
        if name == ast::POINTER_TYPE
            && let [ast::GenericArg::Type(pointee)] = texpr.args.as_slice()
        {
            return self.resolve_pointer_type(pointee, texpr.span);
        }
        if let Some(member) = name.strip_prefix(ast::MEMBER_TYPE)
            && let [ast::GenericArg::Type(owner)] = texpr.args.as_slice()
        {
            return self.resolve_member_type(owner, member, texpr.span);
        }
        if texpr.args.is_empty() {
            if let Some((scalar, shape)) = numeric_from_name(name) {
                return Some(self.numeric_ty(scalar, shape));
            }
            if let Some(sym) = self.lookup_type(name) {
                return match sym {
                    TypeSymbol::Type(ty) => Some(ty),
                    TypeSymbol::Enum(e) => Some(self.enums[e].ty),
                    // A value of interface type: a tagged struct (`dyn_dispatch.rs`).
                    TypeSymbol::Interface(i) => self.interface_value_type(i, texpr.span),
                };
            }
            if let Some(ty) = self.builtin_struct(name) {
                return Some(ty);
            }
            if self.options.allow_glsl
                && let Some(hlsl) = super::glsl::type_name(name, texpr.span)
            {
                return self.try_resolve_type(&hlsl);
            }
        }
        if let Some(found) = self.resolve_generic_struct(texpr) {
            return found;
        }
        if let Some(ty) = self.resolve_optional_types(texpr) {
            return Some(ty);
        }
        if let Some(ty) = self.resolve_builtin_generic(texpr)? {
            return Some(ty);
        }
        if texpr.name == "void" {
            self.error(
                codes::TYPE_MISMATCH,
                "`void` is only allowed as a function's return type",
                texpr.span,
            );
            return None;
        }
        if !texpr.args.is_empty() && self.lookup_type(name).is_some() {
            self.error(
                codes::BAD_GENERIC_ARGUMENTS,
                format!("type `{name}` takes no generic arguments"),
                texpr.span,
            );
            return None;
        }
        self.error(
            codes::UNDEFINED_TYPE,
            format!("undefined type `{name}`"),
            texpr.span,
        );
        None
    }

    /// Types that take (or may take) generic arguments, and built-in
    /// resource and stage types. `Ok(None)` means "not a built-in name";
    /// `None` means an error was reported.
    fn resolve_builtin_generic(&mut self, texpr: &ast::TypeExpr) -> Option<Option<Handle<Type>>> {
        use ir::{BufferKind, MeshOutputKind, PatchKind, ResourceAccess, StreamKind, TextureDim};
        let name = texpr.name.as_str();
        let (access, rest) = if let Some(rest) = name.strip_prefix("RasterizerOrdered") {
            (ResourceAccess::RasterizerOrdered, rest)
        } else if let Some(rest) = name.strip_prefix("RW") {
            (ResourceAccess::ReadWrite, rest)
        } else {
            (ResourceAccess::Read, name)
        };
        // `Sampler2D` (combined texture-sampler), `Sampler2DShadow`,
        // `DepthTexture2D`: the texture shapes with a different prefix.
        let (combined, shadow, shape) = if let Some(r) = rest.strip_prefix("Sampler")
            && let Some(shape) = r.strip_suffix("Shadow")
        {
            (true, true, shape)
        } else if let Some(shape) = rest.strip_prefix("DepthTexture") {
            (false, true, shape)
        } else if let Some(shape) = rest.strip_prefix("Sampler")
            && shape.starts_with(['1', '2', '3', 'C'])
        {
            (true, false, shape)
        } else {
            (false, false, rest.strip_prefix("Texture").unwrap_or("-"))
        };
        let texture = match shape {
            "1D" => Some((TextureDim::D1, false, false)),
            "1DArray" => Some((TextureDim::D1, true, false)),
            "2D" => Some((TextureDim::D2, false, false)),
            "2DArray" => Some((TextureDim::D2, true, false)),
            "2DMS" => Some((TextureDim::D2, false, true)),
            "2DMSArray" => Some((TextureDim::D2, true, true)),
            "3D" if !shadow => Some((TextureDim::D3, false, false)),
            "Cube" => Some((TextureDim::Cube, false, false)),
            "CubeArray" => Some((TextureDim::Cube, true, false)),
            _ => None,
        };
        if let Some((dim, arrayed, multisampled)) = texture {
            if access != ResourceAccess::Read
                && (dim == TextureDim::Cube || multisampled || combined || shadow)
            {
                return self.no_such_type(texpr);
            }
            if combined && shadow && multisampled {
                return self.no_such_type(texpr);
            }
            let max_args = if multisampled { 2 } else { 1 };
            let (texel, normalization) = if shadow && texpr.args.is_empty() {
                (self.scalar_ty(Scalar::F32), None)
            } else {
                self.texel_arg(texpr, max_args)?
            };
            return Some(Some(self.intern(TypeInner::Texture(ir::Texture {
                dim,
                arrayed,
                multisampled,
                access,
                texel,
                normalization,
                combined,
                shadow,
            }))));
        }
        let buffer = match rest {
            "Buffer" => Some(BufferKind::Typed),
            "StructuredBuffer" => Some(BufferKind::Structured),
            "ByteAddressBuffer" => Some(BufferKind::ByteAddress),
            "AppendStructuredBuffer" if access == ResourceAccess::Read => Some(BufferKind::Append),
            "ConsumeStructuredBuffer" if access == ResourceAccess::Read => {
                Some(BufferKind::Consume)
            }
            _ => None,
        };
        if let Some(kind) = buffer {
            let access = match kind {
                BufferKind::Append | BufferKind::Consume => ResourceAccess::ReadWrite,
                _ => access,
            };
            let (element, normalization) = match kind {
                BufferKind::ByteAddress => {
                    self.expect_args(texpr, 0, 0)?;
                    (None, None)
                }
                BufferKind::Typed => {
                    let (t, n) = self.texel_arg(texpr, 1)?;
                    (Some(t), n)
                }
                _ => {
                    self.expect_args(texpr, 1, 1)?;
                    (Some(self.type_arg(texpr, 0)?), None)
                }
            };
            return Some(Some(self.intern(TypeInner::Buffer {
                kind,
                access,
                element,
                normalization,
            })));
        }
        if access != ResourceAccess::Read {
            return Some(None);
        }
        let ty = match name {
            "SamplerState" | "sampler" => {
                self.expect_args(texpr, 0, 0)?;
                self.intern(TypeInner::Sampler { comparison: false })
            }
            "SamplerComparisonState" => {
                self.expect_args(texpr, 0, 0)?;
                self.intern(TypeInner::Sampler { comparison: true })
            }
            "HitObject" => {
                self.expect_args(texpr, 0, 0)?;
                self.intern(TypeInner::HitObject)
            }
            "RayQuery" => {
                // `RayQuery<flags>`: the ray flags every trace of the query
                // adds (`RayQuery<>` and `RayQuery` take none).
                self.expect_args(texpr, 0, 1)?;
                let flags = match texpr.args.is_empty() {
                    true => 0,
                    false => self.count_arg(texpr, 0, 0, i64::from(u32::MAX))?,
                };
                self.intern(TypeInner::RayQuery { flags })
            }
            "DescriptorHandle" => {
                self.expect_args(texpr, 1, 1)?;
                let resource = self.type_arg(texpr, 0)?;
                self.descriptor_handle_type(resource, texpr.span)?
            }
            "RaytracingAccelerationStructure" => {
                self.expect_args(texpr, 0, 0)?;
                self.intern(TypeInner::AccelerationStructure)
            }
            "SubpassInput" | "SubpassInputMS" => {
                // `SubpassInput<T>`: a scalar or vector `T`, float4 by default.
                self.expect_args(texpr, 0, 1)?;
                let texel = match texpr.args.is_empty() {
                    true => self.numeric_ty(Scalar::F32, Shape::vector(4)),
                    false => self.type_arg(texpr, 0)?,
                };
                if !matches!(
                    self.inner(texel),
                    TypeInner::Scalar(_) | TypeInner::Vector { .. }
                ) {
                    self.error(
                        codes::BAD_GENERIC_ARGUMENTS,
                        format!(
                            "`{name}` needs a scalar or vector type, found `{}`",
                            self.type_name(texel)
                        ),
                        texpr.span,
                    );
                    return None;
                }
                self.intern(TypeInner::SubpassInput {
                    texel,
                    multisampled: name == "SubpassInputMS",
                })
            }
            "ConstantBuffer" | "TextureBuffer" | "ParameterBlock" => {
                self.expect_args(texpr, 1, 1)?;
                let mut inner = self.type_arg(texpr, 0)?;
                if name == "ConstantBuffer"
                    && matches!(
                        self.inner(inner),
                        TypeInner::Scalar(_)
                            | TypeInner::Vector { .. }
                            | TypeInner::Matrix { .. }
                            | TypeInner::Array {
                                size: ir::ArraySize::Constant(_),
                                ..
                            }
                    )
                {
                    inner = self.value_buffer_struct(inner, texpr.span);
                }
                if !matches!(self.inner(inner), TypeInner::Struct { .. }) {
                    self.error(
                        codes::BAD_GENERIC_ARGUMENTS,
                        format!(
                            "`{name}` needs a struct type, found `{}`",
                            self.type_name(inner)
                        ),
                        texpr.span,
                    );
                    return None;
                }
                if name == "TextureBuffer" {
                    self.intern(TypeInner::TextureBuffer { inner })
                } else {
                    self.intern(TypeInner::ConstantBuffer { inner })
                }
            }
            "vector" => {
                if texpr.args.is_empty() {
                    return Some(Some(self.numeric_ty(Scalar::F32, Shape::Vector(4))));
                }
                self.expect_args(texpr, 2, 2)?;
                let scalar = self.scalar_arg(texpr, 0)?;
                let n = self.count_arg(texpr, 1, 1, 4)?;
                let shape = Shape::vector(n as u8);
                self.numeric_ty(scalar, shape)
            }
            "matrix" => {
                if texpr.args.is_empty() {
                    return Some(Some(self.numeric_ty(
                        Scalar::F32,
                        Shape::Matrix {
                            rows: 4,
                            columns: 4,
                        },
                    )));
                }
                self.expect_args(texpr, 3, 3)?;
                let scalar = self.scalar_arg(texpr, 0)?;
                let rows = self.count_arg(texpr, 1, 1, 4)? as u8;
                let columns = self.count_arg(texpr, 2, 1, 4)? as u8;
                self.numeric_ty(scalar, Shape::Matrix { rows, columns })
            }
            "InputPatch" | "OutputPatch" => {
                self.expect_args(texpr, 2, 2)?;
                let element = self.type_arg(texpr, 0)?;
                let count = self.count_arg(texpr, 1, 1, 32)?;
                let kind = if name == "InputPatch" {
                    PatchKind::Input
                } else {
                    PatchKind::Output
                };
                self.intern(TypeInner::Patch {
                    kind,
                    element,
                    count,
                })
            }
            "PointStream" | "LineStream" | "TriangleStream" => {
                self.expect_args(texpr, 1, 1)?;
                let element = self.type_arg(texpr, 0)?;
                let kind = match name {
                    "PointStream" => StreamKind::Point,
                    "LineStream" => StreamKind::Line,
                    _ => StreamKind::Triangle,
                };
                self.intern(TypeInner::Stream { kind, element })
            }
            "OutputVertices" | "OutputIndices" | "OutputPrimitives" => {
                self.expect_args(texpr, 2, 2)?;
                let element = self.type_arg(texpr, 0)?;
                let count = self.count_arg(texpr, 1, 1, 1024)?;
                let kind = match name {
                    "OutputVertices" => MeshOutputKind::Vertices,
                    "OutputIndices" => MeshOutputKind::Indices,
                    _ => MeshOutputKind::Primitives,
                };
                self.intern(TypeInner::MeshOutput {
                    kind,
                    element,
                    count,
                })
            }
            _ => return Some(None),
        };
        Some(Some(ty))
    }

    /// The struct a `ConstantBuffer<T>` of a non-struct `T` holds: one
    /// member `_data` of `T`, as the reference wraps it. The buffer's name
    /// then reads the member (see `declare_global`).
    fn value_buffer_struct(&mut self, inner: Handle<Type>, span: Span) -> Handle<Type> {
        let spelled: String = self
            .type_name(inner)
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        let name = format!("ConstantBuffer_{spelled}");
        let member = ir::StructMember {
            name: "_data".to_string(),
            ty: inner,
            io: Default::default(),
            matrix_layout: None,
            span,
        };
        let ty = self.module.types.insert(
            Type {
                name: Some(name),
                inner: TypeInner::Struct {
                    members: vec![member],
                },
            },
            span,
        );
        self.value_buffers.insert(ty, ());
        ty
    }

    fn no_such_type(&mut self, texpr: &ast::TypeExpr) -> Option<Option<Handle<Type>>> {
        self.error(
            codes::UNDEFINED_TYPE,
            format!("undefined type `{}`", texpr.name),
            texpr.span,
        );
        None
    }

    fn expect_args(&mut self, texpr: &ast::TypeExpr, min: usize, max: usize) -> Option<()> {
        let n = texpr.args.len();
        if n < min || n > max {
            let wanted = if min == max {
                format!("{min}")
            } else {
                format!("{min} to {max}")
            };
            self.error(
                codes::BAD_GENERIC_ARGUMENTS,
                format!(
                    "`{}` takes {wanted} generic argument(s), found {n}",
                    texpr.name
                ),
                texpr.span,
            );
            return None;
        }
        Some(())
    }

    fn type_arg(&mut self, texpr: &ast::TypeExpr, index: usize) -> Option<Handle<Type>> {
        match &texpr.args[index] {
            ast::GenericArg::Type(t) => {
                let ty = self.resolve_type(t);
                (ty != self.error_ty).then_some(ty)
            }
            ast::GenericArg::Value(e) => {
                // A bare name parsed as a value may still be a type.
                if let ast::ExprKind::Name(path) = &e.kind
                    && path.len() == 1
                {
                    let t = ast::TypeExpr {
                        name: path[0].name.clone(),
                        args: Vec::new(),
                        modifiers: Vec::new(),
                        span: e.span,
                    };
                    let ty = self.resolve_type(&t);
                    return (ty != self.error_ty).then_some(ty);
                }
                self.error(
                    codes::BAD_GENERIC_ARGUMENTS,
                    format!(
                        "generic argument {} of `{}` must be a type",
                        index + 1,
                        texpr.name
                    ),
                    e.span,
                );
                None
            }
        }
    }

    fn scalar_arg(&mut self, texpr: &ast::TypeExpr, index: usize) -> Option<Scalar> {
        let ty = self.type_arg(texpr, index)?;
        match *self.inner(ty) {
            TypeInner::Scalar(s) => Some(s),
            _ => {
                let found = self.type_name(ty);
                self.error(
                    codes::BAD_GENERIC_ARGUMENTS,
                    format!(
                        "`{}` needs a scalar element type, found `{found}`",
                        texpr.name
                    ),
                    texpr.span,
                );
                None
            }
        }
    }

    fn count_arg(
        &mut self,
        texpr: &ast::TypeExpr,
        index: usize,
        min: i64,
        max: i64,
    ) -> Option<u32> {
        let expr = match &texpr.args[index] {
            ast::GenericArg::Value(e) => e.clone(),
            ast::GenericArg::Type(t) if t.args.is_empty() => ast::Expr::new(
                ast::ExprKind::Name(vec![ast::Ident {
                    name: t.name.clone(),
                    span: t.span,
                }]),
                t.span,
            ),
            ast::GenericArg::Type(t) => {
                self.error(
                    codes::BAD_GENERIC_ARGUMENTS,
                    format!(
                        "generic argument {} of `{}` must be a constant",
                        index + 1,
                        texpr.name
                    ),
                    t.span,
                );
                return None;
            }
        };
        let value = self.const_eval(&expr)?;
        match value.as_i64() {
            Some(n) if (min..=max).contains(&n) => Some(n as u32),
            _ => {
                self.error(
                    codes::BAD_GENERIC_ARGUMENTS,
                    format!(
                        "generic argument {} of `{}` must be an integer from {min} to {max}, found {value}",
                        index + 1,
                        texpr.name
                    ),
                    expr.span,
                );
                None
            }
        }
    }

    /// The texel type of a texture or typed buffer (default `float4`), with
    /// its `unorm`/`snorm` modifier.
    fn texel_arg(
        &mut self,
        texpr: &ast::TypeExpr,
        max_args: usize,
    ) -> Option<(Handle<Type>, Option<ir::Normalization>)> {
        self.expect_args(texpr, 0, max_args)?;
        if texpr.args.is_empty() {
            return Some((self.numeric_ty(Scalar::F32, Shape::Vector(4)), None));
        }
        if let Some(ast::GenericArg::Value(e)) = texpr.args.get(1) {
            // Sample count of `Texture2DMS<T, N>`: must be constant, has no
            // effect on Vulkan-family targets.
            self.const_eval(e)?;
        }
        let texel = self.type_arg(texpr, 0)?;
        let normalization = match &texpr.args[0] {
            ast::GenericArg::Type(t) => t.modifiers.iter().find_map(|m| match m.kind {
                ast::ModifierKind::Unorm => Some(ir::Normalization::Unorm),
                ast::ModifierKind::Snorm => Some(ir::Normalization::Snorm),
                _ => None,
            }),
            ast::GenericArg::Value(_) => None,
        };
        match self.numeric(texel) {
            Some((s, Shape::Scalar | Shape::Vector(_))) => {
                if normalization.is_some() && s.kind != ScalarKind::Float {
                    self.error(
                        codes::BAD_MODIFIER,
                        "`unorm`/`snorm` apply only to float element types",
                        texpr.span,
                    );
                    return None;
                }
                Some((texel, normalization))
            }
            _ => {
                let found = self.type_name(texel);
                self.error(
                    codes::BAD_GENERIC_ARGUMENTS,
                    format!(
                        "`{}` needs a scalar or vector element type, found `{found}`",
                        texpr.name
                    ),
                    texpr.span,
                );
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numeric_names() {
        assert_eq!(
            numeric_from_name("float4"),
            Some((Scalar::F32, Shape::Vector(4)))
        );
        assert_eq!(
            numeric_from_name("float1"),
            Some((Scalar::F32, Shape::Scalar))
        );
        assert_eq!(
            numeric_from_name("half3x2"),
            Some((
                Scalar::F16,
                Shape::Matrix {
                    rows: 3,
                    columns: 2
                }
            ))
        );
        assert_eq!(
            numeric_from_name("uint64_t2"),
            Some((Scalar::U64, Shape::Vector(2)))
        );
        assert_eq!(
            numeric_from_name("min16float4"),
            Some((Scalar::F16, Shape::Vector(4)))
        );
        assert_eq!(numeric_from_name("float5"), None);
        assert_eq!(numeric_from_name("float4x5"), None);
        assert_eq!(numeric_from_name("Float4"), None);
    }
}
