//! `-allow-glsl`: the GLSL spellings Slang accepts in its GLSL
//! compatibility mode, read as the Slang/HLSL constructs they name. Type
//! names (`vec4`, `ivec2`, `mat3`, `sampler2D` ...) resolve to the
//! HLSL-named types, and a few GLSL functions are rewritten into the
//! HLSL call or texture method that means the same (`texelFetch(s, p, lod)`
//! is `s.Load(int3(p, lod))`). Without the option these names are
//! undefined, as in the reference.

use legalis_ir::{Span, TypeInner};

use super::Checker;
use super::convert::Value;
use crate::ast;

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
                let Some(TypeInner::Texture {
                    dim,
                    arrayed,
                    multisampled,
                    ..
                }) = shape
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
