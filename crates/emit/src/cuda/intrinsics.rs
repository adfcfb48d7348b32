//! HLSL built-in functions in CUDA: the prelude's math library under
//! HLSL's names (`lg::dot`, `lg::saturate`, `lg::mul`), bit casts as
//! `lg::bit_cast<T>`, barriers as `__syncthreads()`/`__threadfence()`,
//! atomics as `atomicAdd` and friends, structured and byte-address buffer
//! methods as pointer reads and writes, and the OptiX intrinsics
//! (`optixGetLaunchIndex()` ...). Ray-tracing calls that move a payload
//! or attributes are in `ray_tracing.rs`. What CUDA output does not
//! express (yet) is refused with its span: textures, derivatives, wave
//! and quad operations.

use legalis_ir as ir;
use legalis_ir::{Expression, Handle, Intrinsic as I, Span, TypeInner};

use super::expr::FnCtx;
use super::types::{self, Result, unsupported};
use super::writer::Writer;

/// Intrinsics the prelude has under the same arguments.
fn renamed(fun: I) -> Option<&'static str> {
    Some(match fun {
        I::Abs => "abs",
        I::Acos => "acos",
        I::All => "all",
        I::Any => "any",
        I::Asin => "asin",
        I::Atan => "atan",
        I::Atan2 => "atan2",
        I::Ceil => "ceil",
        I::Clamp => "clamp",
        I::Cos => "cos",
        I::Cosh => "cosh",
        I::CountBits => "countbits",
        I::Cross => "cross",
        I::Determinant => "determinant",
        I::Distance => "distance",
        I::Dot => "dot",
        I::Exp => "exp",
        I::Exp2 => "exp2",
        I::FaceForward => "faceforward",
        I::FirstBitHigh => "firstbithigh",
        I::FirstBitLow => "firstbitlow",
        I::Floor => "floor",
        I::Fmod => "fmod",
        I::Frac => "frac",
        I::Length => "length",
        I::Lerp => "lerp",
        I::Log => "log",
        I::Log10 => "log10",
        I::Log2 => "log2",
        I::Mad => "mad",
        I::Max => "max",
        I::Min => "min",
        I::Mul => "mul",
        I::Normalize => "normalize",
        I::Pow => "pow",
        I::Rcp => "rcp",
        I::Reflect => "reflect",
        I::ReverseBits => "reversebits",
        I::Round => "round",
        I::Rsqrt => "rsqrt",
        I::Saturate => "saturate",
        I::Sign => "sign",
        I::Sin => "sin",
        I::Sinh => "sinh",
        I::SmoothStep => "smoothstep",
        I::Sqrt => "sqrt",
        I::Step => "step",
        I::Tan => "tan",
        I::Tanh => "tanh",
        I::Transpose => "transpose",
        I::Trunc => "trunc",
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

/// The CUDA atomic of an `Interlocked*` intrinsic.
fn atomic(fun: I) -> Option<&'static str> {
    Some(match fun {
        I::InterlockedAdd => "atomicAdd",
        I::InterlockedAnd => "atomicAnd",
        I::InterlockedOr => "atomicOr",
        I::InterlockedXor => "atomicXor",
        I::InterlockedMin => "atomicMin",
        I::InterlockedMax => "atomicMax",
        I::InterlockedExchange => "atomicExch",
        _ => return None,
    })
}

impl Writer<'_> {
    pub(super) fn args(&self, ctx: &mut FnCtx, args: &[Handle<Expression>]) -> Result<Vec<String>> {
        args.iter().map(|a| self.expr(ctx, *a)).collect()
    }

    pub(super) fn intrinsic(
        &self,
        ctx: &mut FnCtx,
        fun: I,
        args: &[Handle<Expression>],
        e: Handle<Expression>,
    ) -> Result<String> {
        let span = ctx.span(e);
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
            I::Load => self.load(ctx, args, span)?,
            I::Load2 | I::Load3 | I::Load4 => self.byte_address_load(ctx, fun, args, span)?,
            I::ReportHit => self.report_hit(ctx, args, span)?,
            I::NonUniformResourceIndex => self.expr(ctx, args[0])?,
            _ => return unsupported(format!("`{}` in CUDA output", fun.name()), span),
        })
    }

    /// Intrinsics that are statements, as lines; `None` for the others.
    pub(super) fn intrinsic_statement(
        &self,
        ctx: &mut FnCtx,
        fun: I,
        args: &[Handle<Expression>],
        span: Span,
    ) -> Result<Option<Vec<String>>> {
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
            I::Store | I::Store2 | I::Store3 | I::Store4 => {
                self.byte_address_store(ctx, fun, args, span)?
            }
            I::TraceRay => self.trace_ray(ctx, args, span)?,
            I::CallShader => self.call_shader(ctx, args, span)?,
            I::IgnoreHit => self.hit_control(ctx, "optixIgnoreIntersection();", span)?,
            I::AcceptHitAndEndSearch => self.hit_control(ctx, "optixTerminateRay();", span)?,
            _ => return Ok(None),
        }))
    }

    /// `buffer.Load(i)` of a structured buffer, or a byte-address load.
    fn load(&self, ctx: &mut FnCtx, args: &[Handle<Expression>], span: Span) -> Result<String> {
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
            } => self.byte_address_load(ctx, I::Load, args, span),
            _ => unsupported("this `Load` (CUDA texture objects come later)", span),
        }
    }

    fn byte_address_load(
        &self,
        ctx: &mut FnCtx,
        fun: I,
        args: &[Handle<Expression>],
        span: Span,
    ) -> Result<String> {
        let count = match fun {
            I::Load2 => 2,
            I::Load3 => 3,
            I::Load4 => 4,
            _ => 1,
        };
        if args.len() != 2 {
            return unsupported(format!("`{}` with a status argument", fun.name()), span);
        }
        let b = self.expr(ctx, args[0])?;
        let a = self.expr(ctx, args[1])?;
        let words: Vec<String> = (0..count)
            .map(|k| format!("{b}[({a}) / 4u + {k}u]"))
            .collect();
        Ok(if count == 1 {
            words[0].clone()
        } else {
            format!("lg::uint{count}({})", words.join(", "))
        })
    }

    fn byte_address_store(
        &self,
        ctx: &mut FnCtx,
        fun: I,
        args: &[Handle<Expression>],
        span: Span,
    ) -> Result<Vec<String>> {
        let count = match fun {
            I::Store2 => 2,
            I::Store3 => 3,
            I::Store4 => 4,
            _ => 1,
        };
        if args.len() != 3 || (count > 1 && !super::expr::is_pure(ctx.exprs, args[2])) {
            return unsupported(format!("this `{}`", fun.name()), span);
        }
        let b = self.expr(ctx, args[0])?;
        let a = self.expr(ctx, args[1])?;
        let v = self.expr(ctx, args[2])?;
        if count == 1 {
            return Ok(vec![format!("{b}[({a}) / 4u] = {v};")]);
        }
        Ok((0..count)
            .map(|k| format!("{b}[({a}) / 4u + {k}u] = ({v})[{k}];"))
            .collect())
    }
}
