//! HLSL intrinsics as GLSL: renamed built-ins, index math, texture and
//! image functions, atomics, barriers and subgroup operations.
//!
//! Methods of textures and buffers are in `methods.rs`. Intrinsics the
//! legalizer rewrites (geometry streams, per-vertex attributes), those of
//! stages whose legalizer comes later (ray tracing), and the mesh ones
//! outside a legalized mesh or amplification shader return
//! `Error::Unsupported`, as does `noise`.
//!
//! Where GLSL would need an argument twice, the intrinsic becomes a helper
//! function (`_hlsl_sincos_float`), so every argument is evaluated once and
//! in order, as GLSL evaluates call arguments.

use legalis_ir as ir;
use legalis_ir::{Expression, Handle, Intrinsic as I, ScalarKind, TypeInner};

use super::types::matrix_as_rows;
use super::writer::{Ctx, Result, Writer, unsupported};

/// Intrinsics that are one GLSL function of the same arguments, with the
/// subgroup extension they need. A data table, hence its length.
fn direct(fun: I) -> Option<(&'static str, Option<&'static str>)> {
    let basic = Some("GL_KHR_shader_subgroup_basic");
    let vote = Some("GL_KHR_shader_subgroup_vote");
    let arith = Some("GL_KHR_shader_subgroup_arithmetic");
    let quad = Some("GL_KHR_shader_subgroup_quad");
    Some(match fun {
        _ if fun.is_common_math() => (fun.name(), None),
        I::Atan2 => ("atan", None),
        I::Ddx => ("dFdx", None),
        I::DdxCoarse => ("dFdxCoarse", None),
        I::DdxFine => ("dFdxFine", None),
        I::Ddy => ("dFdy", None),
        I::DdyCoarse => ("dFdyCoarse", None),
        I::DdyFine => ("dFdyFine", None),
        I::Degrees => ("degrees", None),
        I::FaceForward => ("faceforward", None),
        I::Fma => ("fma", None),
        I::Frac => ("fract", None),
        I::Fwidth => ("fwidth", None),
        I::IsInf => ("isinf", None),
        I::IsNan => ("isnan", None),
        I::Lerp => ("mix", None),
        I::Modf => ("modf", None),
        I::Radians => ("radians", None),
        I::Refract => ("refract", None),
        I::ReverseBits => ("bitfieldReverse", None),
        I::Round => ("roundEven", None),
        I::Rsqrt => ("inversesqrt", None),
        I::WaveActiveAnyTrue => ("subgroupAny", vote),
        I::WaveActiveAllTrue => ("subgroupAll", vote),
        I::WaveActiveAllEqual => ("subgroupAllEqual", vote),
        I::WaveActiveBallot => ("subgroupBallot", Some("GL_KHR_shader_subgroup_ballot")),
        I::WaveReadLaneFirst => (
            "subgroupBroadcastFirst",
            Some("GL_KHR_shader_subgroup_ballot"),
        ),
        I::WaveReadLaneAt => ("subgroupShuffle", Some("GL_KHR_shader_subgroup_shuffle")),
        I::WaveActiveSum => ("subgroupAdd", arith),
        I::WaveActiveProduct => ("subgroupMul", arith),
        I::WaveActiveMin => ("subgroupMin", arith),
        I::WaveActiveMax => ("subgroupMax", arith),
        I::WaveActiveBitAnd => ("subgroupAnd", arith),
        I::WaveActiveBitOr => ("subgroupOr", arith),
        I::WaveActiveBitXor => ("subgroupXor", arith),
        I::WavePrefixSum => ("subgroupExclusiveAdd", arith),
        I::WavePrefixProduct => ("subgroupExclusiveMul", arith),
        I::QuadReadAcrossX => ("subgroupQuadSwapHorizontal", quad),
        I::QuadReadAcrossY => ("subgroupQuadSwapVertical", quad),
        I::QuadReadAcrossDiagonal => ("subgroupQuadSwapDiagonal", quad),
        I::QuadReadLaneAt => ("subgroupQuadBroadcast", quad),
        I::WaveIsFirstLane => ("subgroupElect", basic),

        _ => return None,
    })
}

/// Intrinsics that are one GLSL expression using each argument once:
/// `{0}`.. are the arguments, `{t}` the result type. A data table.
fn template(fun: I) -> Option<&'static str> {
    Some(match fun {
        I::Saturate => "clamp({0}, {t}(0), {t}(1))",
        I::Rcp => "({t}(1) / {0})",
        I::Mad => "(({0} * {1}) + {2})",
        I::Log10 => "(log2({0}) * {t}(0.30102999566398120))",
        I::Sign => "{t}(sign({0}))",
        I::CountBits => "{t}(bitCount({0}))",
        I::FirstBitHigh => "{t}(findMSB({0}))",
        I::FirstBitLow => "{t}(findLSB({0}))",
        I::Ldexp => "({0} * exp2({1}))",
        I::WaveActiveCountBits => "subgroupBallotBitCount(subgroupBallot({0}))",
        I::WavePrefixCountBits => "subgroupBallotExclusiveBitCount(subgroupBallot({0}))",
        I::WaveGetLaneCount | I::WaveGetLaneIndex => {
            return legalis_sysval::subgroup_builtin(fun).map(|b| b.glsl_name);
        }
        I::Lit => "_hlsl_lit(float({0}), float({1}), float({2}))",
        I::Msad4 => "_hlsl_msad4({0}, {1}, {2})",
        I::NonUniformResourceIndex => "nonuniformEXT({0})",
        // `GL_EXT_ray_tracing` and `GL_EXT_ray_query` construct one from
        // its 64-bit device address.
        I::AccelerationStructureFromAddress => "{t}({0})",
        _ => return None,
    })
}

/// Extensions the templates above need.
fn template_extension(fun: I) -> Option<&'static str> {
    match fun {
        I::WaveActiveCountBits | I::WavePrefixCountBits => Some("GL_KHR_shader_subgroup_ballot"),
        I::WaveGetLaneCount | I::WaveGetLaneIndex => Some("GL_KHR_shader_subgroup_basic"),
        I::NonUniformResourceIndex => Some("GL_EXT_nonuniform_qualifier"),
        _ => None,
    }
}

/// Fixed helper functions the templates call.
fn template_helper(fun: I) -> Option<(&'static str, &'static str)> {
    match fun {
        // HLSL: ambient 1; diffuse 0 when n.l < 0, else n.l; specular 0 when
        // n.l < 0 or n.h < 0, else (n.h)^m.
        I::Lit => Some((
            "_hlsl_lit",
            "vec4 _hlsl_lit(float n_dot_l, float n_dot_h, float m)\n{\n    \
             float specular = (n_dot_l < 0.0 || n_dot_h < 0.0) ? 0.0 : pow(n_dot_h, m);\n    \
             return vec4(1.0, max(n_dot_l, 0.0), specular, 1.0);\n}\n",
        )),
        // Sum i: over the 4 bytes j of `reference` that are not 0, of
        // |reference byte j - source byte (i + j)|, source bytes 0..3 being
        // `source.x` and 4..7 `source.y`, plus `accum[i]`.
        I::Msad4 => Some((
            "_hlsl_msad4",
            "uvec4 _hlsl_msad4(uint reference, uvec2 source, uvec4 accum)\n{\n    \
             uvec4 result = accum;\n    \
             for (int i = 0; i < 4; i++)\n    {\n        \
             uint window = (i == 0) ? source.x : ((source.x >> (8 * i)) | (source.y << (32 - 8 * i)));\n        \
             for (int j = 0; j < 4; j++)\n        {\n            \
             uint r = (reference >> (8 * j)) & 0xFFu;\n            \
             uint s = (window >> (8 * j)) & 0xFFu;\n            \
             if (r != 0u)\n            {\n                \
             result[i] += uint(abs(int(r) - int(s)));\n            }\n        }\n    }\n    \
             return result;\n}\n",
        )),
        _ => None,
    }
}

fn fill_template(template: &str, t: &str, args: &[String]) -> String {
    let mut out = template.replace("{t}", t);
    for (i, a) in args.iter().enumerate() {
        out = out.replace(&format!("{{{i}}}"), a);
    }
    out
}

impl Writer<'_> {
    pub fn intrinsic(
        &mut self,
        ctx: &Ctx,
        e: Handle<Expression>,
        fun: I,
        args: &[Handle<Expression>],
    ) -> Result<String> {
        let span = ctx.exprs.span(e);
        if let Some(arg) = args.iter().find(|&&x| self.is_row_matrix(ctx, x)) {
            return unsupported(
                format!("`{}` on integer or bool matrices", fun.name()),
                ctx.exprs.span(*arg),
            );
        }
        if let Some(text) = self.hit_object_expr(ctx, e, fun, args)? {
            return Ok(text);
        }
        if let Some(text) = self.ray_query_expr(ctx, fun, args)? {
            return Ok(text);
        }
        if fun.is_method() {
            return self.method(ctx, e, fun, args);
        }
        if let Some(text) = self.ray_intrinsic(ctx, e, fun, args)? {
            return Ok(text);
        }
        let mut a = Vec::new();
        for &x in args {
            a.push(self.expr(ctx, x)?);
        }
        if let Some((name, ext)) = direct(fun) {
            if let Some(ext) = ext {
                self.require(ext);
            }
            return Ok(format!("{name}({})", a.join(", ")));
        }
        let tname = match ctx.exprs.ty(e) {
            Some(t) => self.type_name(t, span)?,
            None => "void".into(),
        };
        if let Some(text) = template(fun) {
            if let Some(ext) = template_extension(fun) {
                self.require(ext);
            }
            if let Some((name, body)) = template_helper(fun) {
                self.helpers.insert(name.into(), body.into());
            }
            return Ok(fill_template(text, &tname, &a));
        }
        self.intrinsic_helper(ctx, e, fun, args, &a, &tname)
    }

    /// Registers helper `name` (once) and calls it with `args`.
    fn call_helper(&mut self, name: String, body: String, args: &[String]) -> String {
        let call = format!("{name}({})", args.join(", "));
        self.helpers.entry(name).or_insert(body);
        call
    }

    /// Whether `e` is an integer or bool matrix (an array of rows in GLSL).
    fn is_row_matrix(&self, ctx: &Ctx, e: Handle<Expression>) -> bool {
        ctx.exprs.ty(e).is_some_and(|t| {
            matches!(*self.inner(t), TypeInner::Matrix { scalar, .. } if matrix_as_rows(scalar))
        })
    }

    /// Intrinsics whose spelling depends on argument types or that need a
    /// generated helper.
    fn intrinsic_helper(
        &mut self,
        ctx: &Ctx,
        e: Handle<Expression>,
        fun: I,
        args: &[Handle<Expression>],
        a: &[String],
        tname: &str,
    ) -> Result<String> {
        let span = ctx.exprs.span(e);
        let arg_scalar = |w: &Self, i: usize| {
            args.get(i)
                .and_then(|&x| ctx.exprs.ty(x))
                .and_then(|t| w.inner(t).scalar())
        };
        let kind = arg_scalar(self, 0).map(|s| s.kind);
        match fun {
            I::Mul => self.mul(ctx, args, a, span),
            I::Fmod => Ok(format!(
                "{}({}, {})",
                self.truncating_mod_helper(tname, ScalarKind::Float),
                a[0],
                a[1]
            )),
            I::Dot if kind == Some(ScalarKind::Float) => Ok(format!("dot({}, {})", a[0], a[1])),
            I::Dot => self.int_dot(ctx, args[0], a, tname),
            I::Any | I::All => self.any_all(fun, ctx, args[0], &a[0]),
            I::IsFinite => self.is_finite(ctx, args[0], &a[0]),
            I::AsUint if args.len() == 3 => self.split_double(a),
            I::AsUint | I::AsInt | I::AsFloat | I::AsFloat16 | I::AsInt16 | I::AsUint16 => {
                Ok(self.bitcast(fun, arg_scalar(self, 0), tname, &a[0]))
            }
            I::AsDouble => self.as_double(ctx, args[0], a, tname),
            I::Dst => self.dst(a, tname),
            I::Frexp => self.frexp(ctx, args[0], a, tname),
            I::F32ToF16 => self.half_helper(ctx, e, args[0], true),
            I::F16ToF32 => self.half_helper(ctx, e, args[0], false),
            I::EvaluateAttributeAtCentroid | I::EvaluateAttributeAtSample => {
                let f = if fun == I::EvaluateAttributeAtCentroid {
                    "interpolateAtCentroid"
                } else {
                    "interpolateAtSample"
                };
                let mut all = vec![a[0].clone()];
                all.extend(a[1..].iter().map(|x| format!("int({x})")));
                Ok(format!("{f}({})", all.join(", ")))
            }
            I::QuadAny | I::QuadAll => {
                // The entry point's `layout(quad_derivatives) in;` and
                // `[[maximally_reconverges]]` come from its attributes.
                self.require("GL_EXT_shader_quad_control");
                self.require("GL_KHR_shader_subgroup_vote");
                let f = if fun == I::QuadAny {
                    "subgroupQuadAny"
                } else {
                    "subgroupQuadAll"
                };
                Ok(format!("{f}({})", a[0]))
            }
            I::WaveGetWaveIndex | I::WaveGetNumWaves => {
                if !self.entry.stage.has_workgroups() {
                    return unsupported(
                        format!(
                            "`{}` outside compute, mesh and amplification shaders \
                             (`{}` and `{}` exist only there)",
                            fun.name(),
                            subgroup(I::WaveGetWaveIndex),
                            subgroup(I::WaveGetNumWaves),
                        ),
                        span,
                    );
                }
                self.require("GL_KHR_shader_subgroup_basic");
                Ok(subgroup(fun).into())
            }
            I::WorkgroupUniformLoad => {
                // A barrier, the value into a temporary, a barrier: the
                // load sees every write before the call and no write after
                // it, so the whole workgroup reads one value (what WGSL's
                // `workgroupUniformLoad` means; naga writes SPIR-V so too).
                let t = self.temp(tname.to_string());
                Ok(format!(
                    "(memoryBarrierShared(), barrier(), {t} = {}, memoryBarrierShared(), barrier(), {t})",
                    a[0]
                ))
            }
            I::GetAttributeAtVertex => unsupported(crate::GET_ATTRIBUTE_AT_VERTEX, span),
            I::Noise => unsupported(
                "`noise`: HLSL defines it only for the legacy texture-fill \
                 profile (tx_1_0); Direct3D 10 and later shaders have no \
                 definition of its result to reproduce",
                span,
            ),
            _ => unsupported(format!("the intrinsic `{}`", fun.name()), span),
        }
    }

    /// Reinterpreting bits: GLSL has one function per (from, to) pair;
    /// between signed and unsigned integers of one width a conversion is
    /// the bit cast.
    fn bitcast(&mut self, fun: I, from: Option<ir::Scalar>, to: &str, x: &str) -> String {
        let from = from.map(|s| (s.kind, s.width));
        let f = match (fun, from) {
            (I::AsUint, Some((ScalarKind::Float, 4))) => "floatBitsToUint",
            (I::AsInt, Some((ScalarKind::Float, 4))) => "floatBitsToInt",
            (I::AsFloat, Some((ScalarKind::Uint, 4))) => "uintBitsToFloat",
            (I::AsFloat, Some((ScalarKind::Sint, 4))) => "intBitsToFloat",
            (I::AsFloat16, Some((ScalarKind::Uint, 2))) => "uint16BitsToFloat16",
            (I::AsFloat16, Some((ScalarKind::Sint, 2))) => "int16BitsToFloat16",
            (I::AsInt16, Some((ScalarKind::Float, 2))) => "float16BitsToInt16",
            (I::AsUint16, Some((ScalarKind::Float, 2))) => "float16BitsToUint16",
            _ => return format!("{to}({x})"),
        };
        if matches!(fun, I::AsFloat16 | I::AsInt16 | I::AsUint16) {
            self.require("GL_EXT_shader_explicit_arithmetic_types_float16");
            self.require("GL_EXT_shader_explicit_arithmetic_types_int16");
        }
        format!("{f}({x})")
    }

    /// `asuint(double d, out uint lo, out uint hi)`.
    fn split_double(&mut self, a: &[String]) -> Result<String> {
        self.helpers
            .entry("_hlsl_asuint_double".into())
            .or_insert_with(|| {
                "void _hlsl_asuint_double(double d, out uint lo, out uint hi)\n{\n    \
             uvec2 words = unpackDouble2x32(d);\n    lo = words.x;\n    hi = words.y;\n}\n"
                    .into()
            });
        Ok(format!("_hlsl_asuint_double({}, {}, {})", a[0], a[1], a[2]))
    }

    /// `asdouble(lo, hi)`: the low word first, per component.
    fn as_double(
        &mut self,
        ctx: &Ctx,
        lo: Handle<Expression>,
        a: &[String],
        tname: &str,
    ) -> Result<String> {
        let n = self.components(ctx, lo)?;
        if n == 1 {
            return Ok(format!("packDouble2x32(uvec2({}, {}))", a[0], a[1]));
        }
        let name = format!("_hlsl_asdouble_{tname}");
        let parts: Vec<String> = (0..n)
            .map(|i| format!("packDouble2x32(uvec2(lo[{i}], hi[{i}]))"))
            .collect();
        let body = format!(
            "{tname} {name}(uvec{n} lo, uvec{n} hi)\n{{\n    return {tname}({});\n}}\n",
            parts.join(", ")
        );
        Ok(self.call_helper(name, body, &a[..2]))
    }

    fn components(&self, ctx: &Ctx, e: Handle<Expression>) -> Result<u32> {
        let ty = self.expr_ty(ctx, e)?;
        Ok(super::expr::scalar_count(self.inner(ty)))
    }

    /// `dst(a, b) = (1, a.y * b.y, a.z, b.w)`.
    fn dst(&mut self, a: &[String], tname: &str) -> Result<String> {
        let name = format!("_hlsl_dst_{tname}");
        let body = format!(
            "{tname} {name}({tname} a, {tname} b)\n{{\n    return {tname}(1, a.y * b.y, a.z, b.w);\n}}\n"
        );
        Ok(self.call_helper(name, body, &a[..2]))
    }

    /// HLSL `frexp` returns the exponent as a float of the argument's type;
    /// both take the mantissa in [0.5, 1) with `x = mantissa * 2^exponent`.
    fn frexp(
        &mut self,
        ctx: &Ctx,
        x: Handle<Expression>,
        a: &[String],
        tname: &str,
    ) -> Result<String> {
        let n = self.components(ctx, x)?;
        let int_t = if n == 1 {
            "int".to_string()
        } else {
            format!("ivec{n}")
        };
        let name = format!("_hlsl_frexp_{tname}");
        let body = format!(
            "{tname} {name}({tname} x, out {tname} e)\n{{\n    {int_t} i;\n    \
             {tname} m = frexp(x, i);\n    e = {tname}(i);\n    return m;\n}}\n"
        );
        Ok(self.call_helper(name, body, &a[..2]))
    }

    /// GLSL `dot` takes floats only: integer vectors sum their products.
    fn int_dot(
        &mut self,
        ctx: &Ctx,
        x: Handle<Expression>,
        a: &[String],
        tname: &str,
    ) -> Result<String> {
        let span = ctx.exprs.span(x);
        let ty = self.expr_ty(ctx, x)?;
        let vt = self.type_name(ty, span)?;
        let n = self.components(ctx, x)?;
        let name = format!("_hlsl_dot_{vt}");
        let terms: Vec<String> = (0..n).map(|i| format!("a[{i}] * b[{i}]")).collect();
        let body = format!(
            "{tname} {name}({vt} a, {vt} b)\n{{\n    return {};\n}}\n",
            terms.join(" + ")
        );
        Ok(self.call_helper(name, body, &a[..2]))
    }

    /// HLSL `mul(a, b)` under the transposed matrix convention (see
    /// `writer.rs`): `(b * a)`, `dot` for two vectors, `*` with scalars.
    fn mul(
        &mut self,
        ctx: &Ctx,
        args: &[Handle<Expression>],
        a: &[String],
        span: ir::Span,
    ) -> Result<String> {
        let shape = |w: &Self, i: usize| ctx.exprs.ty(args[i]).map(|t| w.inner(t).clone());
        match (shape(self, 0), shape(self, 1)) {
            (Some(TypeInner::Vector { scalar, .. }), Some(TypeInner::Vector { .. }))
                if scalar.kind != ScalarKind::Float =>
            {
                let result = self.expr_ty(ctx, args[0])?;
                let tname = match self.inner(result) {
                    TypeInner::Vector { scalar, .. } => self.scalar_name(*scalar, span)?,
                    _ => return unsupported("this `mul`", span),
                };
                self.int_dot(ctx, args[0], a, &tname)
            }
            (Some(TypeInner::Vector { .. }), Some(TypeInner::Vector { .. })) => {
                Ok(format!("dot({}, {})", a[0], a[1]))
            }
            (Some(TypeInner::Scalar(_)), _) | (_, Some(TypeInner::Scalar(_))) => {
                Ok(format!("({} * {})", a[0], a[1]))
            }
            (Some(_), Some(_)) => Ok(format!("({} * {})", a[1], a[0])),
            _ => unsupported("this `mul`", span),
        }
    }

    fn any_all(&mut self, fun: I, ctx: &Ctx, arg: Handle<Expression>, x: &str) -> Result<String> {
        let ty = self.expr_ty(ctx, arg)?;
        let f = if fun == I::Any { "any" } else { "all" };
        match self.inner(ty).clone() {
            TypeInner::Vector { scalar, .. } if scalar.kind == ScalarKind::Bool => {
                Ok(format!("{f}({x})"))
            }
            TypeInner::Vector { size, .. } => Ok(format!("{f}(bvec{size}({x}))")),
            TypeInner::Scalar(_) => Ok(format!("bool({x})")),
            _ => unsupported(format!("`{f}` on matrices"), ctx.exprs.span(arg)),
        }
    }

    fn is_finite(&mut self, ctx: &Ctx, arg: Handle<Expression>, x: &str) -> Result<String> {
        let ty = self.expr_ty(ctx, arg)?;
        let span = ctx.exprs.span(arg);
        let t = self.type_name(ty, span)?;
        let (ret, not) = match self.inner(ty) {
            TypeInner::Vector { size, .. } => (format!("bvec{size}"), "not"),
            _ => ("bool".to_string(), "!"),
        };
        let name = format!("_hlsl_isfinite_{t}");
        let or = if not == "!" {
            "(isinf(x) || isnan(x))".to_string()
        } else {
            format!(
                "{ret}(uvec{}(isinf(x)) | uvec{}(isnan(x)))",
                &ret[4..],
                &ret[4..]
            )
        };
        self.helpers
            .entry(name.clone())
            .or_insert_with(|| format!("{ret} {name}({t} x)\n{{\n    return {not}({or});\n}}\n"));
        Ok(format!("{name}({x})"))
    }

    /// `f32tof16`/`f16tof32` per component through `packHalf2x16`.
    fn half_helper(
        &mut self,
        ctx: &Ctx,
        e: Handle<Expression>,
        arg: Handle<Expression>,
        to_half: bool,
    ) -> Result<String> {
        let span = ctx.exprs.span(e);
        let from = self.expr_ty(ctx, arg)?;
        let to = self.expr_ty(ctx, e)?;
        let (ft, tt) = (self.type_name(from, span)?, self.type_name(to, span)?);
        let n = super::expr::scalar_count(self.inner(from));
        let one = |c: &str| {
            if to_half {
                format!("(packHalf2x16(vec2(x{c}, 0.0)) & 0xFFFFu)")
            } else {
                format!("unpackHalf2x16(x{c}).x")
            }
        };
        let parts: Vec<String> = if n == 1 {
            vec![one("")]
        } else {
            (0..n).map(|i| one(&format!("[{i}]"))).collect()
        };
        let name = format!(
            "_hlsl_{}_{ft}",
            if to_half { "f32tof16" } else { "f16tof32" }
        );
        self.helpers.entry(name.clone()).or_insert_with(|| {
            format!(
                "{tt} {name}({ft} x)\n{{\n    return {tt}({});\n}}\n",
                parts.join(", ")
            )
        });
        Ok(format!("{name}({})", self.expr(ctx, arg)?))
    }

    /// Whether `e` is the task payload the amplification legalizer made.
    fn is_task_payload(&self, ctx: &Ctx, e: Handle<Expression>) -> bool {
        matches!(ctx.exprs[e], Expression::Global(g)
            if self.module.globals[g].space == ir::AddressSpace::TaskPayload)
    }

    /// Intrinsics printed as statements: barriers, atomics, `clip`,
    /// `sincos`, `GetDimensions`, stores to byte-address buffers.
    pub fn intrinsic_stmt(
        &mut self,
        ctx: &Ctx,
        e: Handle<Expression>,
        fun: I,
        args: &[Handle<Expression>],
    ) -> Result<String> {
        let span = ctx.exprs.span(e);
        if let Some(b) = barrier(fun) {
            return Ok(b.to_string());
        }
        if let Some((op, on_buffer)) = fun.atomic() {
            let target = if on_buffer {
                format!(
                    "atomic{{}}({}.data[uint({}) >> 2u], {{}})",
                    self.expr(ctx, args[0])?,
                    self.expr(ctx, args[1])?
                )
            } else {
                self.atomic_target(ctx, args[0])?
            };
            let skip = if on_buffer { 2 } else { 1 };
            return self.atomic(ctx, op, target, &args[skip..]);
        }
        match fun {
            // `main` holds the interlock around the whole shader
            // (`write_interlock`).
            I::BeginInvocationInterlock | I::EndInvocationInterlock => {
                if self.entry.stage != ir::ShaderStage::Fragment {
                    return unsupported(format!("`{}` outside fragment shaders", fun.name()), span);
                }
                Ok(format!("/* {}(): in main */", fun.name()))
            }
            I::Clip => {
                let ty = self.expr_ty(ctx, args[0])?;
                let x = self.expr(ctx, args[0])?;
                let t = self.type_name(ty, span)?;
                Ok(match self.inner(ty) {
                    TypeInner::Vector { .. } => format!("if (any(lessThan({x}, {t}(0)))) discard"),
                    _ => format!("if ({x} < {t}(0)) discard"),
                })
            }
            I::SinCos => self.sincos(ctx, args),
            I::GetDimensions => self.get_dimensions(ctx, e, args),
            // B10: the counts, then the task payload the legalizer made of
            // `DispatchMesh`'s last argument (implicit in GLSL).
            I::SetMeshOutputCounts | I::DispatchMesh => {
                let (stage, payload_ok) = match fun {
                    I::SetMeshOutputCounts => (ir::ShaderStage::Mesh, true),
                    _ => (
                        ir::ShaderStage::Amplification,
                        self.is_task_payload(ctx, args[3]),
                    ),
                };
                if self.entry.stage != stage || !payload_ok {
                    return unsupported(
                        format!(
                            "`{}` outside a legalized {} shader",
                            fun.name(),
                            stage.name()
                        ),
                        span,
                    );
                }
                self.require("GL_EXT_mesh_shader");
                let name = match fun {
                    I::SetMeshOutputCounts => "SetMeshOutputsEXT",
                    _ => "EmitMeshTasksEXT",
                };
                let counts = &args[..args.len().min(3)];
                let list: Vec<String> = counts
                    .iter()
                    .map(|&a| self.expr(ctx, a))
                    .collect::<Result<_>>()?;
                Ok(format!("{name}({})", list.join(", ")))
            }
            I::Store | I::Store2 | I::Store3 | I::Store4 => self.byte_store(ctx, e, fun, args),
            _ => self.expr(ctx, e),
        }
    }

    /// `sincos(x, out s, out c)` through a helper, so `x` runs once.
    fn sincos(&mut self, ctx: &Ctx, args: &[Handle<Expression>]) -> Result<String> {
        let span = ctx.exprs.span(args[0]);
        let ty = self.expr_ty(ctx, args[0])?;
        let t = self.type_name(ty, span)?;
        let name = format!("_hlsl_sincos_{t}");
        let body = format!(
            "void {name}({t} x, out {t} s, out {t} c)\n{{\n    s = sin(x);\n    c = cos(x);\n}}\n"
        );
        let mut a = Vec::new();
        for &x in args {
            a.push(self.expr(ctx, x)?);
        }
        Ok(self.call_helper(name, body, &a))
    }

    /// `imageAtomicX(img, coord, {})` or `atomicX(place, {})`, with `{}`
    /// holes for the operation name and the operands.
    fn atomic_target(&mut self, ctx: &Ctx, place: Handle<Expression>) -> Result<String> {
        Ok(match self.image_element(ctx, place) {
            Some((img, coord)) => {
                let c = self.expr(ctx, coord)?;
                let ty = self.expr_ty(ctx, coord)?;
                let c = match self.inner(ty) {
                    TypeInner::Vector { size, .. } => format!("ivec{size}({c})"),
                    _ => format!("int({c})"),
                };
                format!("imageAtomic{{}}({}, {c}, {{}})", self.expr(ctx, img)?)
            }
            None => format!("atomic{{}}({}, {{}})", self.expr(ctx, place)?),
        })
    }

    /// `args` are the operands after the place: value(s), then the `out`
    /// original value if any.
    fn atomic(
        &mut self,
        ctx: &Ctx,
        op: ir::AtomicOp,
        target: String,
        args: &[Handle<Expression>],
    ) -> Result<String> {
        let name = if op.compares() { "CompSwap" } else { op.name() };
        let (call_args, original) = match op {
            ir::AtomicOp::CompareExchange => (&args[0..2], args.get(2)),
            ir::AtomicOp::CompareStore => (&args[0..2], None),
            _ => (&args[0..1], args.get(1)),
        };
        let mut vals = Vec::new();
        for &v in call_args {
            vals.push(self.expr(ctx, v)?);
        }
        let call = target
            .replacen("{}", name, 1)
            .replacen("{}", &vals.join(", "), 1);
        match original {
            Some(&o) => Ok(format!("{} = {call}", self.expr(ctx, o)?)),
            None => Ok(call),
        }
    }
}

impl Writer<'_> {
    /// The entry point's layouts that quad control asks for
    /// (`GL_EXT_shader_quad_control`).
    pub(super) fn write_control_layout(&mut self, out: &mut String) -> Result<()> {
        let attrs = &self.entry.attributes;
        if self.entry.stage == ir::ShaderStage::Compute
            && let Some(group) = attrs.derivative_group
        {
            // glslang reads the NV spelling of compute derivatives (the
            // KHR extension renamed it).
            self.require("GL_NV_compute_shader_derivatives");
            out.push_str(match group {
                ir::DerivativeGroup::Quads => "layout(derivative_group_quadsNV) in;\n",
                ir::DerivativeGroup::Linear => "layout(derivative_group_linearNV) in;\n",
            });
        }
        let (quad, full) = (attrs.quad_derivatives, attrs.require_full_quads);
        if quad || full {
            self.require("GL_EXT_shader_quad_control");
        }
        if quad {
            out.push_str("layout(quad_derivatives) in;\n");
        }
        if full {
            out.push_str("layout(full_quads) in;\n");
        }
        Ok(())
    }
}

/// Barrier intrinsics as GLSL statements. A data table.
fn barrier(fun: I) -> Option<&'static str> {
    Some(match fun {
        I::GroupMemoryBarrier => "memoryBarrierShared()",
        I::GroupMemoryBarrierWithGroupSync => "memoryBarrierShared(); barrier()",
        I::DeviceMemoryBarrier => "memoryBarrierBuffer(); memoryBarrierImage()",
        I::DeviceMemoryBarrierWithGroupSync => {
            "memoryBarrierBuffer(); memoryBarrierImage(); barrier()"
        }
        I::AllMemoryBarrier => "memoryBarrier()",
        I::AllMemoryBarrierWithGroupSync => "memoryBarrier(); barrier()",
        _ => return None,
    })
}

/// The GLSL subgroup builtin wave intrinsic `fun` reads (the system-value
/// table's row); empty for an intrinsic without one.
fn subgroup(fun: I) -> &'static str {
    legalis_sysval::subgroup_builtin(fun).map_or("", |b| b.glsl_name)
}
