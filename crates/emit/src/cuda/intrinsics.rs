//! HLSL built-in functions in CUDA: the prelude's math library under
//! HLSL's names (`lg::dot`, `lg::saturate`, `lg::mul`), bit casts as
//! `lg::bit_cast<T>`, barriers as `__syncthreads()`/`__threadfence()`,
//! atomics as `atomicAdd` and friends, structured and byte-address buffer
//! methods as pointer reads and writes, and the OptiX intrinsics
//! (`optixGetLaunchIndex()` ...), and texture methods through the
//! prelude's texture-object helpers (`lg::sample_2d<T>`, `lg::load_2d<T>`).
//! Ray-tracing calls that move a payload or attributes are in
//! `ray_tracing.rs`. What CUDA output does not express (yet) is refused
//! with its span: `GetDimensions` of arrays or with a mip level, biased,
//! comparison and gather sampling, derivatives, wave and quad operations.

use legalis_ir as ir;
use legalis_ir::{Expression, Handle, Intrinsic as I, ShaderStage as S, Span, TypeInner};

use super::expr::FnCtx;
use super::types::{self, Result, unsupported};
use super::writer::Writer;
use crate::cfamily;
use crate::cfamily::expr::is_pure;
use crate::cfamily::intrinsics::ByteAddress;
use crate::cfamily::prelude::*;
use crate::cfamily::{Call, Intrinsics, Lines};

/// Intrinsics the prelude has under the same arguments.
fn renamed(fun: I) -> Option<&'static str> {
    if let Some(name) = cfamily::intrinsics::hlsl_named(fun) {
        return Some(name);
    }
    Some(match fun {
        I::CountBits => "countbits",
        I::FirstBitHigh => "firstbithigh",
        I::FirstBitLow => "firstbitlow",
        I::Frac => "frac",
        I::Lerp => "lerp",
        I::Mad => "mad",
        I::Mul => "mul",
        I::Rcp => "rcp",
        I::ReverseBits => "reversebits",
        I::Round => "round",
        _ => return None,
    })
}

/// OptiX intrinsics without arguments, as HLSL types.
fn optix_value(fun: I) -> Option<&'static str> {
    Some(match fun {
        I::DispatchRaysIndex => "lg::to_uint3_(optixGetLaunchIndex())",
        I::DispatchRaysDimensions => "lg::to_uint3_(optixGetLaunchDimensions())",
        I::WorldRayOrigin => "lg::to_float3_(optixGetWorldRayOrigin())",
        I::WorldRayDirection => "lg::to_float3_(optixGetWorldRayDirection())",
        I::ObjectRayOrigin => "lg::to_float3_(optixGetObjectRayOrigin())",
        I::ObjectRayDirection => "lg::to_float3_(optixGetObjectRayDirection())",
        I::RayTMin => "optixGetRayTmin()",
        I::RayTCurrent => "optixGetRayTmax()",
        I::RayFlags => "optixGetRayFlags()",
        I::HitKind => "optixGetHitKind()",
        I::InstanceIndex => "optixGetInstanceIndex()",
        I::InstanceId => "optixGetInstanceId()",
        I::PrimitiveIndex => "optixGetPrimitiveIndex()",
        I::GeometryIndex => "optixGetSbtGASIndex()",
        I::ObjectToWorld3x4 | I::ObjectToWorld => "lg::object_to_world3x4()",
        I::WorldToObject3x4 | I::WorldToObject => "lg::world_to_object3x4()",
        I::ObjectToWorld4x3 => "lg::transpose(lg::object_to_world3x4())",
        I::WorldToObject4x3 => "lg::transpose(lg::world_to_object3x4())",
        _ => return None,
    })
}

/// The OptiX intrinsics of the cluster, sphere and LSS of the current hit
/// and of multilevel traversal: the CUDA expression of each (`{}` is the
/// arguments), the OptiX device function named in the output where one
/// call does it, and the OptiX programs that may call it (the OptiX device
/// API's "Available in" lists).
fn optix_call(fun: I) -> Option<(&'static str, &'static [S])> {
    const HIT: &[S] = &[S::AnyHit, S::ClosestHit];
    const TRAVERSED: &[S] = &[S::Intersection, S::AnyHit, S::ClosestHit];
    const ALL: &[S] = &[
        S::RayGeneration,
        S::Intersection,
        S::AnyHit,
        S::ClosestHit,
        S::Miss,
        S::Callable,
    ];
    Some(match fun {
        // OPTIX_CLUSTER_ID_INVALID (0xFFFFFFFF) is -1.
        I::GetClusterId => ("int(optixGetClusterId())", HIT),
        I::GetSpherePositionAndRadius => ("lg::sphere_position_and_radius()", HIT),
        I::GetLssPositionsAndRadii => ("lg::lss_positions_and_radii()", HIT),
        I::IsSphereHit => (
            "(optixGetPrimitiveType() == OPTIX_PRIMITIVE_TYPE_SPHERE)",
            HIT,
        ),
        I::IsLssHit => (
            "(optixGetPrimitiveType() == OPTIX_PRIMITIVE_TYPE_ROUND_LINEAR)",
            HIT,
        ),
        I::GetTransformListSize => ("optixGetTransformListSize()", TRAVERSED),
        I::GetTransformListHandle => ("optixGetTransformListHandle({})", TRAVERSED),
        I::GetTraversableTransformType => ("uint32_t(optixGetTransformTypeFromHandle({}))", ALL),
        I::GetInstanceTraversable => ("optixGetInstanceTraversableFromIAS({})", ALL),
        I::GetTraversableInstanceId => ("optixGetInstanceIdFromHandle({})", ALL),
        I::GetTraversableChild => ("optixGetInstanceChildFromHandle({})", ALL),
        I::GetTraversableObjectToWorld => {
            ("lg::rows3x4(optixGetInstanceTransformFromHandle({}))", ALL)
        }
        I::GetTraversableWorldToObject => (
            "lg::rows3x4(optixGetInstanceInverseTransformFromHandle({}))",
            ALL,
        ),
        _ => return None,
    })
}

/// The CUDA atomic of a free `Interlocked*` intrinsic that does not
/// compare: `atomicAdd` ..., `atomicExch`.
fn atomic(fun: I) -> Option<String> {
    match fun.atomic()? {
        (ir::AtomicOp::Exchange, false) => Some("atomicExch".into()),
        (op, false) if !op.compares() => Some(format!("atomic{}", op.name())),
        _ => None,
    }
}

impl Writer<'_> {
    pub(super) fn args(&self, ctx: &mut FnCtx, args: &[Handle<Expression>]) -> Result<Vec<String>> {
        args.iter().map(|a| self.expr(ctx, *a)).collect()
    }

    /// `buffer.Load(i)` of a structured buffer, or a byte-address load.
    fn load(&self, ctx: &mut FnCtx, call: Call<'_>) -> Result<String> {
        let Call { args, span, .. } = call;
        let Some(object) = args.first().and_then(|a| ctx.ty(*a)) else {
            return unsupported("`Load` without an object", span);
        };
        match self.module.types[object].inner {
            TypeInner::Buffer {
                kind: ir::BufferKind::Structured,
                ..
            } if args.len() == 2 => {
                let b = self.expr(ctx, args[0])?;
                let i = self.expr(ctx, args[1])?;
                let columns = matches!(ctx.exprs[args[0]], Expression::Global(g) if self.column_globals.contains(&g));
                if columns {
                    return Ok(format!("lg::rows({b}[{i}])"));
                }
                Ok(format!("{b}[{i}]"))
            }
            TypeInner::Buffer {
                kind: ir::BufferKind::ByteAddress,
                ..
            } => self.byte_address_load(
                ctx,
                Call {
                    fun: I::Load,
                    ..call
                },
            ),
            TypeInner::Texture(_) => self.texture_load(ctx, call),
            _ => unsupported("this `Load`", span),
        }
    }

    /// The texture type behind `object`, with its prelude helper suffix
    /// (`2d`, `cube_array`) and texel spelling.
    fn texture_of(
        &self,
        ctx: &FnCtx,
        object: Handle<Expression>,
        span: Span,
    ) -> Result<(TextureInfo, String)> {
        let Some(ty) = ctx.ty(object) else {
            return unsupported("a texture method without a texture", span);
        };
        let TypeInner::Texture(t) = self.module.types[ty].inner else {
            return unsupported("a texture method on a value that is not a texture", span);
        };
        types::texture(self.module, ty, span)?;
        let base = match t.dim {
            ir::TextureDim::D1 => "1d",
            ir::TextureDim::D2 => "2d",
            ir::TextureDim::D3 => "3d",
            ir::TextureDim::Cube => "cube",
        };
        let suffix = if t.arrayed {
            format!("{base}_array")
        } else {
            base.to_string()
        };
        let info = TextureInfo {
            dim: t.dim,
            arrayed: t.arrayed,
            read_only: t.access == ir::ResourceAccess::Read,
            suffix,
        };
        Ok((info, self.spell(t.texel, span)?))
    }

    /// `Sample`, `SampleLevel` and `SampleGrad` of a texture object. The
    /// sampler argument is not read: CUDA samples with the state the host
    /// gave the texture object.
    fn sample(&self, ctx: &mut FnCtx, call: Call<'_>) -> Result<String> {
        let Call {
            fun, args, span, ..
        } = call;
        let arity = match fun {
            I::Sample => 3,
            I::SampleLevel => 4,
            _ => 5,
        };
        if args.len() != arity {
            return unsupported(
                format!("`{}` with an offset, clamp or status argument", fun.name()),
                span,
            );
        }
        let (info, texel) = self.texture_of(ctx, args[0], span)?;
        if !info.read_only {
            return unsupported(format!("`{}` of a read-write texture", fun.name()), span);
        }
        let helper = match fun {
            I::Sample => "sample",
            I::SampleLevel => "sample_level",
            _ if info.dim == ir::TextureDim::Cube && info.arrayed => {
                return unsupported("`SampleGrad` of a cube array (no CUDA function)", span);
            }
            _ => "sample_grad",
        };
        let t = self.expr(ctx, args[0])?;
        let mut parts = vec![t];
        for a in &args[2..] {
            parts.push(self.expr(ctx, *a)?);
        }
        Ok(format!(
            "lg::{helper}_{}<{texel}>({})",
            info.suffix,
            parts.join(", ")
        ))
    }

    /// `GetDimensions(w[, h[, d]])` of a 1D, 2D, cube or 3D texture or
    /// read-write texture: `txq`/`suq` through the prelude. The forms with
    /// a mip level and level count, and those of arrays, are refused.
    fn dimensions(&self, ctx: &mut FnCtx, call: Call<'_>) -> Result<String> {
        let Call { args, span, .. } = call;
        let Some(&object) = args.first() else {
            return unsupported("`GetDimensions` without an object", span);
        };
        let (info, _) = self.texture_of(ctx, object, span)?;
        let (helper, count) = match info.dim {
            ir::TextureDim::D1 => ("1d", 1),
            ir::TextureDim::D2 | ir::TextureDim::Cube => ("2d", 2),
            ir::TextureDim::D3 => ("3d", 3),
        };
        if info.arrayed || args.len() != count + 1 {
            return unsupported(
                "this `GetDimensions` (CUDA output queries the width, height and depth of \
                 textures that are not arrays, without a mip level or level count)",
                span,
            );
        }
        let kind = if info.read_only { "texture" } else { "surface" };
        let mut parts = vec![self.expr(ctx, object)?];
        for a in &args[1..] {
            if matches!(ctx.exprs[*a], Expression::Swizzle { .. }) {
                return unsupported(
                    "a swizzle as a `GetDimensions` output (C++ cannot bind a reference to it)",
                    ctx.span(*a),
                );
            }
            parts.push(self.place(ctx, *a)?);
        }
        Ok(format!(
            "lg::{kind}_dimensions_{helper}({})",
            parts.join(", ")
        ))
    }

    /// `Load(int3(x, y, mip))` of a texture object: PTX's
    /// integer-coordinate fetch (`lg::load_2d<T>`, see the prelude); of a
    /// read-write texture, a surface read as `tex[p]`.
    fn texture_load(&self, ctx: &mut FnCtx, call: Call<'_>) -> Result<String> {
        let Call { args, span, .. } = call;
        let (info, texel) = self.texture_of(ctx, args[0], span)?;
        if args.len() != 2 {
            return unsupported("`Load` with an offset or status argument", span);
        }
        if !info.read_only {
            // `RWTexture2D.Load(p)` is `tex[p]`: a surface read.
            let t = self.expr(ctx, args[0])?;
            let p = self.expr(ctx, args[1])?;
            return Ok(format!(
                "lg::surface_read_{}<{texel}>({t}, {p})",
                info.suffix
            ));
        }
        if info.arrayed || info.dim == ir::TextureDim::Cube {
            return unsupported(
                "`Load` of an array or cube texture (CUDA output loads 1D, 2D and 3D textures)",
                span,
            );
        }
        let t = self.expr(ctx, args[0])?;
        let c = self.expr(ctx, args[1])?;
        Ok(format!("lg::load_{}<{texel}>({t}, {c})", info.suffix))
    }

    /// The texel access `tex[p]` of an indexed texture: a surface read of
    /// a read-write texture, a level-0 `Load` of a read-only one; `None`
    /// when `base` is no texture.
    pub(super) fn texel_read(
        &self,
        ctx: &mut FnCtx,
        base: Handle<Expression>,
        index: Handle<Expression>,
        span: Span,
    ) -> Result<Option<String>> {
        if !self.is_texture(ctx, base) {
            return Ok(None);
        }
        let (info, texel) = self.texture_of(ctx, base, span)?;
        if info.arrayed || info.dim == ir::TextureDim::Cube {
            return unsupported("indexing an array or cube texture in CUDA output", span);
        }
        let t = self.expr(ctx, base)?;
        let p = self.expr(ctx, index)?;
        if info.read_only {
            let n = match info.dim {
                ir::TextureDim::D1 => 2,
                ir::TextureDim::D2 => 3,
                _ => 4,
            };
            return Ok(Some(format!(
                "lg::load_{}<{texel}>({t}, lg::make<int, {n}>({p}, 0))",
                info.suffix
            )));
        }
        Ok(Some(format!(
            "lg::surface_read_{}<{texel}>({t}, {p})",
            info.suffix
        )))
    }

    /// `tex[p] = v` of a read-write texture: a surface write; `None` when
    /// `target` is no texel.
    pub(super) fn texel_write(
        &self,
        ctx: &mut FnCtx,
        target: Handle<Expression>,
        value: Handle<Expression>,
    ) -> Result<Option<String>> {
        let Expression::Index { base, index } = ctx.exprs[target] else {
            return Ok(None);
        };
        if !self.is_texture(ctx, base) {
            return Ok(None);
        }
        let span = ctx.span(target);
        let (info, texel) = self.texture_of(ctx, base, span)?;
        if info.read_only {
            return unsupported("a write to a read-only texture", span);
        }
        let t = self.expr(ctx, base)?;
        let p = self.expr(ctx, index)?;
        let v = self.expr(ctx, value)?;
        Ok(Some(format!(
            "lg::surface_write_{}<{texel}>({t}, {p}, {v})",
            info.suffix
        )))
    }

    pub(super) fn is_texture(&self, ctx: &FnCtx, e: Handle<Expression>) -> bool {
        ctx.ty(e)
            .is_some_and(|t| matches!(self.module.types[t].inner, TypeInner::Texture(_)))
    }

    /// `lg::uint2(buf[(a) / 4u + 0u], buf[(a) / 4u + 1u])` ...
    fn byte_address_load(&self, ctx: &mut FnCtx, call: Call<'_>) -> Result<String> {
        let what = call.fun.name();
        if call.args.len() != 2 {
            return unsupported(format!("`{what}` with a status argument"), call.span);
        }
        let count = cfamily::intrinsics::words(call.fun);
        self.load_words(ctx, call.args, count, "lg::uint", Some)
    }

    /// `buf[(a) / 4u] = v;`, one line a word.
    fn byte_address_store(&self, ctx: &mut FnCtx, call: Call<'_>) -> Result<Vec<String>> {
        let Call {
            fun, args, span, ..
        } = call;
        let count = cfamily::intrinsics::words(fun);
        if args.len() != 3 || (count > 1 && !is_pure(ctx.exprs, args[2])) {
            return unsupported(format!("this `{}`", fun.name()), span);
        }
        self.store_words(ctx, args, count, |v, k| format!("({v})[{k}]"))
    }
}

/// What the texture methods need of a texture type.
struct TextureInfo {
    dim: ir::TextureDim,
    arrayed: bool,
    read_only: bool,
    /// The prelude helpers' suffix: `1d`, `2d`, `3d`, `cube`, `2d_array`.
    suffix: String,
}

impl Intrinsics for Writer<'_> {
    fn intrinsic(&self, ctx: &mut FnCtx, call: Call<'_>) -> Result<String> {
        let Call {
            fun, args, expr: e, ..
        } = call;
        let span = ctx.span(e);
        if fun.is_hit_object() {
            return self.hit_object_value(ctx, e, fun, span);
        }
        if let Some(name) = renamed(fun) {
            if matches!(fun, I::ObjectToWorld | I::WorldToObject) {
                return unsupported(format!("`{}`", fun.name()), span);
            }
            let a = self.args(ctx, args)?;
            return Ok(format!("lg::{name}({})", a.join(", ")));
        }
        if let Some(value) = optix_value(fun) {
            if !self.entry.stage.is_ray_tracing() {
                return unsupported(
                    format!("`{}` outside a ray-tracing stage", fun.name()),
                    span,
                );
            }
            if matches!(fun, I::ObjectToWorld | I::WorldToObject) {
                let ty = ctx.ty(e).map(|t| &self.module.types[t].inner);
                if !matches!(
                    ty,
                    Some(TypeInner::Matrix {
                        rows: 3,
                        columns: 4,
                        ..
                    })
                ) {
                    return unsupported(format!("`{}` as a 4x3 matrix", fun.name()), span);
                }
            }
            return Ok(value.to_string());
        }
        if let Some((template, stages)) = optix_call(fun) {
            if !stages.contains(&self.entry.stage) {
                let programs: Vec<&str> = stages.iter().map(|s| s.name()).collect();
                return unsupported(
                    format!(
                        "`{}` in a {} entry point (OptiX offers it in {} programs only)",
                        fun.name(),
                        self.entry.stage.name(),
                        programs.join(", ")
                    ),
                    span,
                );
            }
            let a = self.args(ctx, args)?.join(", ");
            return Ok(template.replace("{}", &a));
        }
        Ok(match fun {
            I::AsFloat | I::AsInt | I::AsUint | I::AsFloat16 | I::AsInt16 | I::AsUint16 => {
                let [x] =
                    self.args(ctx, args)?
                        .try_into()
                        .map_err(|_| super::Error::Unsupported {
                            what: format!("`{}` with {} arguments", fun.name(), args.len()),
                            span,
                        })?;
                let scalar = ctx
                    .ty(e)
                    .and_then(|t| self.module.types[t].inner.scalar())
                    .unwrap_or(ir::Scalar::U32);
                format!("lg::bit_cast<{}>({x})", types::scalar(scalar, span)?)
            }
            I::Load => self.load(ctx, call)?,
            I::Sample | I::SampleLevel | I::SampleGrad => self.sample(ctx, call)?,
            I::GetDimensions => self.dimensions(ctx, call)?,
            I::Load2 | I::Load3 | I::Load4 => self.byte_address_load(ctx, call)?,
            I::ReportHit => self.report_hit(ctx, call)?,
            I::NonUniformResourceIndex => self.expr(ctx, args[0])?,
            // An OptiX traversable handle is the 64-bit address itself.
            I::AccelerationStructureFromAddress => {
                format!("(OptixTraversableHandle)({})", self.expr(ctx, args[0])?)
            }
            _ => return unsupported(format!("`{}` in CUDA output", fun.name()), span),
        })
    }

    /// Intrinsics that are statements, as lines; `None` for the others.
    fn intrinsic_statement(&self, ctx: &mut FnCtx, call: Call<'_>) -> Result<Option<Lines>> {
        let Call {
            fun, args, span, ..
        } = call;
        if let Some(lines) = self.hit_object_statement(ctx, call)? {
            return Ok(Some(lines));
        }
        if let Some(name) = atomic(fun) {
            let a = self.args(ctx, &args[1..])?;
            let dest = self.place(ctx, args[0])?;
            let call = format!("{name}(&{dest}, {})", a[0]);
            return Ok(Some(match a.get(1) {
                Some(_) => {
                    let original = self.place(ctx, args[2])?;
                    vec![format!("{original} = {call};")]
                }
                None => vec![format!("{call};")],
            }));
        }
        Ok(Some(match fun {
            I::InterlockedCompareExchange | I::InterlockedCompareStore => {
                let dest = self.place(ctx, args[0])?;
                let compare = self.expr(ctx, args[1])?;
                let value = self.expr(ctx, args[2])?;
                let call = format!("atomicCAS(&{dest}, {compare}, {value})");
                match args.get(3) {
                    Some(original) => vec![format!("{} = {call};", self.place(ctx, *original)?)],
                    None => vec![format!("{call};")],
                }
            }
            I::GroupMemoryBarrierWithGroupSync => vec!["__syncthreads();".into()],
            I::DeviceMemoryBarrierWithGroupSync | I::AllMemoryBarrierWithGroupSync => {
                vec!["__threadfence();".into(), "__syncthreads();".into()]
            }
            I::GroupMemoryBarrier => vec!["__threadfence_block();".into()],
            I::DeviceMemoryBarrier | I::AllMemoryBarrier => vec!["__threadfence();".into()],
            I::Store | I::Store2 | I::Store3 | I::Store4 => self.byte_address_store(ctx, call)?,
            I::TraceRay => self.trace_ray(ctx, call)?,
            I::CallShader => self.call_shader(ctx, call)?,
            I::IgnoreHit => self.hit_control(ctx, "optixIgnoreIntersection();", span)?,
            I::AcceptHitAndEndSearch => self.hit_control(ctx, "optixTerminateRay();", span)?,
            _ => return Ok(None),
        }))
    }
}
