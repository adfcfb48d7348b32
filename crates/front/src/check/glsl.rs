//! `-allow-glsl`: the GLSL spellings Slang accepts in its GLSL
//! compatibility mode, read as the Slang/HLSL constructs they name. Type
//! names (`vec4`, `ivec2`, `mat3`, `sampler2D` ...) resolve to the
//! HLSL-named types, and a few GLSL functions are rewritten into the
//! HLSL call or texture method that means the same (`texelFetch(s, p, lod)`
//! is `s.Load(int3(p, lod))`). Without the option these names are
//! undefined, as in the reference.

use legalis_ir::{self as ir, Span, Type, TypeInner};

use super::convert::Value;
use super::decl::sort_modifiers;
use super::{Checker, ValueSymbol};
use crate::{ast, codes};

/// The HLSL spelling of GLSL type `name` (`vec4` → `float4`,
/// `usampler2D` → `Sampler2D<uint4>`), as a type expression at `span`.
pub fn type_name(name: &str, span: Span) -> Option<ast::TypeExpr> {
    let plain = |name: String| ast::TypeExpr {
        name,
        args: Vec::new(),
        modifiers: Vec::new(),
        span,
    };
    let vector = |prefix: &str, scalar: &str| {
        let n = name.strip_prefix(prefix)?;
        matches!(n, "2" | "3" | "4").then(|| plain(format!("{scalar}{n}")))
    };
    if let Some(t) = vector("vec", "float")
        .or_else(|| vector("ivec", "int"))
        .or_else(|| vector("uvec", "uint"))
        .or_else(|| vector("bvec", "bool"))
        .or_else(|| vector("dvec", "double"))
    {
        return Some(t);
    }
    if let Some(rest) = name.strip_prefix("mat") {
        let (c, r) = rest.split_once('x').unwrap_or((rest, rest));
        let ok = |d: &str| matches!(d, "2" | "3" | "4");
        return (ok(c) && ok(r)).then(|| plain(format!("float{c}x{r}")));
    }
    // `sampler2D`, `isampler2DArray`, `usampler2DMS`, `sampler2DShadow` ...
    let (texel, rest) = match name.as_bytes().first() {
        Some(b'i') => (Some("int4"), &name[1..]),
        Some(b'u') => (Some("uint4"), &name[1..]),
        _ => (None, name),
    };
    let shape = rest.strip_prefix("sampler")?;
    let known = [
        "1D",
        "2D",
        "3D",
        "Cube",
        "1DArray",
        "2DArray",
        "CubeArray",
        "2DMS",
        "2DMSArray",
        "1DShadow",
        "2DShadow",
        "CubeShadow",
        "1DArrayShadow",
        "2DArrayShadow",
        "CubeArrayShadow",
    ];
    if !known.contains(&shape) || (texel.is_some() && shape.ends_with("Shadow")) {
        return None;
    }
    let mut t = plain(format!("Sampler{shape}"));
    if let Some(texel) = texel {
        t.args = vec![ast::GenericArg::Type(plain(texel.to_string()))];
    }
    Some(t)
}

/// The HLSL intrinsic a GLSL function is another name of.
fn renamed(name: &str) -> Option<&'static str> {
    Some(match name {
        "mix" => "lerp",
        "fract" => "frac",
        "inversesqrt" => "rsqrt",
        "dFdx" => "ddx",
        "dFdy" => "ddy",
        "dFdxFine" => "ddx_fine",
        "dFdyFine" => "ddy_fine",
        "dFdxCoarse" => "ddx_coarse",
        "dFdyCoarse" => "ddy_coarse",
        _ => return None,
    })
}

impl Checker<'_> {
    /// A call of GLSL function `name`, rewritten into its HLSL form; `None`
    /// when `name` is no GLSL function this mode knows.
    pub fn lower_glsl_call(&mut self, name: &str, args: &[ast::Expr], span: Span) -> Option<Value> {
        if let Some(hlsl) = renamed(name)
            && let Some(fun) = legalis_ir::Intrinsic::function_from_name(hlsl)
        {
            return Some(self.lower_intrinsic_call(fun, args, span));
        }
        let method = |text: &str| ast::Ident {
            name: text.to_string(),
            span,
        };
        match (name, args) {
            ("texture", [sampler, rest @ ..]) => {
                Some(self.lower_method_call(sampler, &method("Sample"), rest, span))
            }
            ("textureLod", [sampler, rest @ ..]) => {
                Some(self.lower_method_call(sampler, &method("SampleLevel"), rest, span))
            }
            ("texelFetch" | "texelFetchOffset", [sampler, coord, lod, offset @ ..])
                if offset.len() <= 1 =>
            {
                // The sampler's shape decides the `Load` form: a
                // multisampled one takes the sample index as an argument
                // of its own, the others the level as the coordinate's
                // last component.
                let probe = self.lower_value(sampler);
                let shape = probe.ty.map(|ty| self.inner(ty).clone());
                let Some(TypeInner::Texture(legalis_ir::Texture {
                    dim,
                    arrayed,
                    multisampled,
                    ..
                })) = shape
                else {
                    return None;
                };
                if multisampled {
                    let args = [coord.clone(), lod.clone()];
                    return Some(self.lower_method_call(sampler, &method("Load"), &args, span));
                }
                let size = match dim {
                    legalis_ir::TextureDim::D1 => 1,
                    legalis_ir::TextureDim::D2 | legalis_ir::TextureDim::Cube => 2,
                    legalis_ir::TextureDim::D3 => 3,
                } + usize::from(arrayed)
                    + 1;
                let int_n = ast::TypeExpr {
                    name: format!("int{size}"),
                    args: Vec::new(),
                    modifiers: Vec::new(),
                    span,
                };
                let location = ast::Expr::new(
                    ast::ExprKind::Call {
                        callee: Box::new(ast::Expr::new(
                            ast::ExprKind::TypeRef(Box::new(int_n)),
                            span,
                        )),
                        args: vec![coord.clone(), lod.clone()],
                    },
                    coord.span,
                );
                let mut args = vec![location];
                args.extend(offset.iter().cloned());
                Some(self.lower_method_call(sampler, &method("Load"), &args, span))
            }
            _ => None,
        }
    }
}

impl Checker<'_> {
    /// Reports a GLSL declaration met without `-allow-glsl`; `true` when
    /// the option is on.
    fn glsl_allowed(&mut self, what: &str, span: Span) -> bool {
        if !self.options.allow_glsl {
            self.error(
                codes::NEEDS_ALLOW_GLSL,
                format!("{what} is GLSL syntax; `-allow-glsl` enables it"),
                span,
            );
        }
        self.options.allow_glsl
    }

    /// `layout(derivative_group_quadsNV) in;` (and `..._linearNV`, and the
    /// KHR spellings): the derivative group of every compute entry point
    /// that does not name its own.
    pub fn declare_glsl_layout_in(&mut self, decl: &ast::GlslLayoutIn) {
        if !self.glsl_allowed("`layout(...) in;`", decl.span) {
            return;
        }
        for q in &decl.layout {
            let group = match q.name.name.as_str() {
                "derivative_group_quadsNV" | "derivative_group_quadsKHR" => {
                    Some(ir::DerivativeGroup::Quads)
                }
                "derivative_group_linearNV" | "derivative_group_linearKHR" => {
                    Some(ir::DerivativeGroup::Linear)
                }
                _ => None,
            };
            match group {
                Some(group) if q.value.is_none() => self.glsl_derivative_group = Some(group),
                _ => self.error(
                    codes::UNSUPPORTED_GLSL,
                    format!(
                        "`layout({}) in;` is not supported; only the derivative group \
                         (`derivative_group_quadsNV`, `derivative_group_linearNV`) is",
                        q.name.name
                    ),
                    q.span,
                ),
            }
        }
    }

    /// `layout(std430, binding = N, set = M) buffer Name { fields } instance;`:
    /// a read-write structured buffer of one element, the struct of the
    /// fields; `instance` (or, without one, each field's bare name) reads
    /// element 0. Its fields lie from offset 0 in std430 order, as the
    /// block's would.
    pub fn declare_glsl_buffer(&mut self, block: &ast::GlslBufferBlock) {
        if !self.glsl_allowed("a `buffer` block", block.name.span) {
            return;
        }
        let mut binding = None;
        let mut set = 0;
        for q in &block.layout {
            let value = match &q.value {
                Some(v) => match self.const_eval(v).and_then(|c| c.as_i64()) {
                    Some(n) if (0..=i64::from(u32::MAX)).contains(&n) => Some(n as u32),
                    _ => {
                        self.error(
                            codes::UNSUPPORTED_GLSL,
                            format!("`{}` must be a non-negative integer constant", q.name.name),
                            v.span,
                        );
                        continue;
                    }
                },
                None => None,
            };
            match (q.name.name.as_str(), value) {
                ("std430", None) => {}
                ("binding", Some(n)) => binding = Some(n),
                ("set", Some(n)) => set = n,
                _ => self.error(
                    codes::UNSUPPORTED_GLSL,
                    format!(
                        "layout qualifier `{}` is not supported on a `buffer` block; \
                         `std430`, `binding = N` and `set = N` are",
                        q.name.name
                    ),
                    q.span,
                ),
            }
        }
        let mut members = Vec::new();
        for field in &block.fields {
            let (mods, _) = sort_modifiers(&field.modifiers, &field.ty.modifiers);
            self.reject_storage_modifiers(&mods, field.span, "a buffer block member");
            let base = self.resolve_type(&field.ty);
            for d in &field.declarators {
                if d.array_dims.iter().any(Option::is_none) {
                    self.error(
                        codes::UNSUPPORTED_GLSL,
                        format!(
                            "the unsized array `{}` in a `buffer` block is not supported; \
                             declare a `RWStructuredBuffer` of its elements instead",
                            d.name.name
                        ),
                        d.span,
                    );
                    continue;
                }
                let ty = self.apply_array_dims(base, &d.array_dims, None);
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
        let element = self.module.types.insert(
            Type {
                name: Some(self.qualified(&block.name.name)),
                inner: TypeInner::Struct { members },
            },
            block.span,
        );
        let ty = self.intern(TypeInner::Buffer {
            kind: ir::BufferKind::Structured,
            access: ir::ResourceAccess::ReadWrite,
            element: Some(element),
            normalization: None,
        });
        let name = block.instance.as_ref().unwrap_or(&block.name);
        let global = self.module.globals.append(
            ir::GlobalVariable {
                name: self.qualified(&name.name),
                ty,
                space: ir::AddressSpace::Uniform,
                binding: ir::ResourceBinding {
                    register: None,
                    vk_binding: binding.map(|b| (b, set)),
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
        match &block.instance {
            Some(instance) => self.declare_value(
                instance,
                ValueSymbol::GlslBlock {
                    global,
                    field: None,
                },
            ),
            None => {
                for (index, (name, span)) in names.into_iter().enumerate() {
                    let ident = ast::Ident { name, span };
                    let field = Some(index as u32);
                    self.declare_value(&ident, ValueSymbol::GlslBlock { global, field });
                }
            }
        }
    }

    /// A name of a GLSL `buffer` block: element 0 of its buffer, or field
    /// `field` of it.
    pub fn glsl_block_value(
        &mut self,
        global: ir::Handle<ir::GlobalVariable>,
        field: Option<u32>,
        span: Span,
    ) -> Value {
        let buffer_ty = self.module.globals[global].ty;
        let TypeInner::Buffer {
            element: Some(element),
            ..
        } = *self.inner(buffer_ty)
        else {
            return self.error_value(span);
        };
        let base = self.append(ir::Expression::Global(global), Some(buffer_ty), span);
        let uint = self.scalar_ty(ir::Scalar::U32);
        let zero = self.append(
            ir::Expression::Literal(ir::Literal::Uint(0)),
            Some(uint),
            span,
        );
        let value = self.append(
            ir::Expression::Index {
                base: base.expr,
                index: zero.expr,
            },
            Some(element),
            span,
        );
        let Some(index) = field else {
            return value;
        };
        let ty = self.member_type(element, index).unwrap_or(self.error_ty);
        self.append(
            ir::Expression::Member {
                base: value.expr,
                index,
            },
            Some(ty),
            span,
        )
    }
}
