//! Shader execution reordering on OptiX (OptiX 8's outgoing hit object).
//! OptiX keeps one outgoing hit object per thread, implicitly: a
//! `HitObject` variable is written as nothing, `HitObject::TraceRay` is
//! `optixTraverse` (the payload in registers as `optixTrace`'s),
//! `MakeMiss` `optixMakeMissHitObject`, `MakeNop` `optixMakeNopHitObject`,
//! `Invoke` `optixInvoke`, `ReorderThread` `optixReorder`, and a method
//! reads the current hit object (`optixHitObjectIsHit()` ...; the sphere
//! and swept-sphere queries through `optixHitObjectGetSphereData`,
//! `optixHitObjectGetLinearCurveVertexData` and the primitive type of
//! `optixHitObjectGetHitKind()`). `MakeHit` is refused (`E56401`): OptiX
//! makes a hit object only from the traverse data of one it traversed. That is
//! the source's meaning only while one hit object is made: a program that
//! reaches two makers is refused (`E56401`), as are the methods OptiX
//! has no query for (`GetRayDesc`). `GetAttributes<T>` reads the hit
//! object's attribute slots as a hit program reads its attributes. The
//! object-space ray
//! is the world-space one through the hit object's world-to-object
//! transform; the transforms are OptiX's 3x4 matrices transposed.

use legalis_ir as ir;
use legalis_ir::{Expression, Handle, Intrinsic as I, Span, TypeInner};

use super::expr::FnCtx;
use super::types::{Result, unsupported};
use super::writer::Writer;
use crate::cfamily::Call;
use crate::cfamily::prelude::*;

/// The OptiX query of a `HitObject` method.
fn query(fun: I) -> Option<&'static str> {
    Some(match fun {
        I::HitObjectIsHit => "optixHitObjectIsHit()",
        I::HitObjectIsMiss => "optixHitObjectIsMiss()",
        I::HitObjectIsNop => "optixHitObjectIsNop()",
        I::HitObjectGetRayTMin => "optixHitObjectGetRayTmin()",
        I::HitObjectGetRayTCurrent => "optixHitObjectGetRayTmax()",
        I::HitObjectGetCurrentTime => "optixHitObjectGetRayTime()",
        I::HitObjectGetWorldRayOrigin => "lg::to_float3_(optixHitObjectGetWorldRayOrigin())",
        I::HitObjectGetWorldRayDirection => "lg::to_float3_(optixHitObjectGetWorldRayDirection())",
        I::HitObjectGetInstanceIndex => "optixHitObjectGetInstanceIndex()",
        I::HitObjectGetInstanceId => "optixHitObjectGetInstanceId()",
        I::HitObjectGetGeometryIndex => "optixHitObjectGetSbtGASIndex()",
        I::HitObjectGetPrimitiveIndex => "optixHitObjectGetPrimitiveIndex()",
        I::HitObjectGetHitKind => "optixHitObjectGetHitKind()",
        I::HitObjectGetShaderTableIndex => "optixHitObjectGetSbtRecordIndex()",
        // A hit's primitive type is its hit kind's; a miss or nop hit
        // object is neither kind.
        I::HitObjectIsSphereHit => {
            "(optixHitObjectIsHit() && optixGetPrimitiveType(optixHitObjectGetHitKind()) == OPTIX_PRIMITIVE_TYPE_SPHERE)"
        }
        I::HitObjectIsLssHit => {
            "(optixHitObjectIsHit() && optixGetPrimitiveType(optixHitObjectGetHitKind()) == OPTIX_PRIMITIVE_TYPE_ROUND_LINEAR)"
        }
        I::HitObjectGetSpherePositionAndRadius => "lg::hit_object_sphere_position_and_radius()",
        I::HitObjectGetLssPositionsAndRadii => "lg::hit_object_lss_positions_and_radii()",
        // OptiX keeps the world-space ray only: the object-space one is
        // it through the hit object's world-to-object transform (a 3x4
        // row-major matrix), the origin with the translation.
        I::HitObjectGetObjectRayOrigin => {
            "[]() { float m_[12]; optixHitObjectGetWorldToObjectTransformMatrix(m_); \
             const ::float3 o_ = optixHitObjectGetWorldRayOrigin(); \
             return lg::float3(m_[0] * o_.x + m_[1] * o_.y + m_[2] * o_.z + m_[3], \
             m_[4] * o_.x + m_[5] * o_.y + m_[6] * o_.z + m_[7], \
             m_[8] * o_.x + m_[9] * o_.y + m_[10] * o_.z + m_[11]); }()"
        }
        I::HitObjectGetObjectRayDirection => {
            "[]() { float m_[12]; optixHitObjectGetWorldToObjectTransformMatrix(m_); \
             const ::float3 d_ = optixHitObjectGetWorldRayDirection(); \
             return lg::float3(m_[0] * d_.x + m_[1] * d_.y + m_[2] * d_.z, \
             m_[4] * d_.x + m_[5] * d_.y + m_[6] * d_.z, \
             m_[8] * d_.x + m_[9] * d_.y + m_[10] * d_.z); }()"
        }
        // The hit object's transforms (3x4 row-major), transposed to
        // HLSL's `float4x3`.
        I::HitObjectGetWorldToObject => {
            "lg::transpose([]() { float m_[12]; optixHitObjectGetWorldToObjectTransformMatrix(m_); \
             return lg::float3x4(m_[0], m_[1], m_[2], m_[3], m_[4], m_[5], m_[6], m_[7], \
             m_[8], m_[9], m_[10], m_[11]); }())"
        }
        I::HitObjectGetObjectToWorld => {
            "lg::transpose([]() { float m_[12]; optixHitObjectGetObjectToWorldTransformMatrix(m_); \
             return lg::float3x4(m_[0], m_[1], m_[2], m_[3], m_[4], m_[5], m_[6], m_[7], \
             m_[8], m_[9], m_[10], m_[11]); }())"
        }
        _ => return None,
    })
}

/// Whether `fun` makes a hit object.
fn makes(fun: I) -> bool {
    matches!(
        fun,
        I::HitObjectTraceRay | I::HitObjectMakeMiss | I::HitObjectMakeNop
    )
}

impl Writer<'_> {
    /// Refuses what OptiX's one implicit hit object cannot hold: a
    /// program that makes more than one, or a hit object outside the
    /// ray-generation, closest-hit and miss programs.
    fn hit_object_allowed(&self, fun: I, span: Span) -> Result<()> {
        // OptiX 9's `optixMakeHitObject` rebuilds a hit object from the
        // traverse data of one it traversed
        // (`optixHitObjectGetTraverseData`); nothing makes one from an
        // instance, geometry and primitive index and attributes.
        if fun == I::HitObjectMakeHit {
            return unsupported(
                "`HitObject::MakeHit` (OptiX makes a hit object only from the traverse data of one it traversed, not from instance, geometry and primitive indices and attributes)",
                span,
            );
        }
        if !matches!(
            self.entry.stage,
            ir::ShaderStage::RayGeneration | ir::ShaderStage::ClosestHit | ir::ShaderStage::Miss
        ) {
            return unsupported(
                format!(
                    "`{}` outside ray-generation, closest-hit and miss programs",
                    fun.name()
                ),
                span,
            );
        }
        // The makers of this program: in the functions its entry point
        // reaches (the other programs of one translation unit have their
        // own hit object).
        let mut seen = std::collections::BTreeSet::new();
        let mut work = vec![self.entry.function];
        let mut made = 0;
        while let Some(f) = work.pop() {
            let Some(func) = self.module.functions.try_get(f) else {
                continue;
            };
            if !seen.insert(f) {
                continue;
            }
            for (_, e) in func.expressions.iter() {
                match e {
                    Expression::Call { function, .. } => work.push(*function),
                    Expression::Intrinsic { fun, .. } if makes(*fun) => made += 1,
                    _ => {}
                }
            }
        }
        if made > 1 {
            return unsupported(
                "more than one hit object (OptiX keeps one outgoing hit object per thread)",
                span,
            );
        }
        Ok(())
    }

    /// A `HitObject` call used as a statement, or as the value a
    /// `HitObject` variable is declared with or assigned: its OptiX lines.
    pub(super) fn hit_object_statement(
        &self,
        ctx: &mut FnCtx,
        call: Call<'_>,
    ) -> Result<Option<Vec<String>>> {
        let Call {
            fun, args, span, ..
        } = call;
        if !fun.is_hit_object() {
            return Ok(None);
        }
        self.hit_object_allowed(fun, span)?;
        Ok(Some(match fun {
            I::HitObjectTraceRay => self.trace_with("optixTraverse", ctx, args, span)?,
            I::HitObjectMakeNop => vec!["optixMakeNopHitObject();".into()],
            I::HitObjectMakeMiss => {
                let miss = self.expr(ctx, args[0])?;
                let (ray_ty, ray, member) = self.ray_members(ctx, args[1], span)?;
                let ray_name = ctx.temp("ray");
                let (origin, direction) = (member("Origin")?, member("Direction")?);
                let (tmin, tmax) = (member("TMin")?, member("TMax")?);
                vec![
                    "{".into(),
                    format!(
                        "    const {} {ray_name} = {ray};",
                        self.spell(ray_ty, span)?
                    ),
                    format!(
                        "    optixMakeMissHitObject({miss}, lg::cuda_float3({ray_name}.{origin}), lg::cuda_float3({ray_name}.{direction}), {ray_name}.{tmin}, {ray_name}.{tmax}, 0.0f, 0u);"
                    ),
                    "}".into(),
                ]
            }
            I::HitObjectInvoke => {
                let payload = args[args.len() - 1];
                self.payload_call(ctx, payload, Vec::new(), span, |list| {
                    format!("optixInvoke({});", list.trim_start_matches(", "))
                })?
            }
            I::ReorderThread => {
                let hit_first = args
                    .first()
                    .and_then(|&a| ctx.ty(a))
                    .is_some_and(|t| matches!(self.module.types[t].inner, TypeInner::HitObject));
                let hints = if hit_first { &args[1..] } else { args };
                let a = self.args(ctx, hints)?;
                vec![format!("optixReorder({});", a.join(", "))]
            }
            _ => return Ok(None),
        }))
    }

    /// A `HitObject` method as a value: the query of the current hit
    /// object.
    pub(super) fn hit_object_value(
        &self,
        ctx: &mut FnCtx,
        e: Handle<Expression>,
        fun: I,
        span: Span,
    ) -> Result<String> {
        self.hit_object_allowed(fun, span)?;
        if fun == I::HitObjectGetAttributes {
            return self.hit_object_attributes(ctx, e, span);
        }
        match query(fun) {
            Some(q) => Ok(q.to_string()),
            None if makes(fun) || fun == I::HitObjectInvoke || fun == I::ReorderThread => {
                unsupported(
                    format!(
                        "`{}` inside an expression (call it as a statement)",
                        fun.name()
                    ),
                    span,
                )
            }
            None => unsupported(format!("`HitObject.{}` on OptiX", fun.name()), span),
        }
    }
}

impl Writer<'_> {
    /// A `HitObject` variable declared or assigned: the call that makes
    /// the value, or nothing for a declaration without one.
    pub(super) fn hit_object_store(
        &self,
        ctx: &mut FnCtx,
        value: Option<Handle<Expression>>,
        span: Span,
    ) -> Result<Vec<String>> {
        let Some(value) = value else {
            return Ok(Vec::new());
        };
        let Expression::Intrinsic { fun, args } = &ctx.exprs[value] else {
            return unsupported(
                "a hit object copied from another (OptiX keeps one outgoing hit object per thread)",
                span,
            );
        };
        let (fun, args) = (*fun, args.clone());
        let call = Call {
            fun,
            args: &args,
            expr: value,
            span: ctx.span(value),
        };
        let Some(lines) = self.hit_object_statement(ctx, call)? else {
            return unsupported(
                "a hit object made by something else than a HitObject function",
                span,
            );
        };
        Ok(lines)
    }
}

impl Writer<'_> {
    /// `hit.GetAttributes<T>()`: a `T` read from the hit object's
    /// attribute slots (`optixHitObjectGetAttribute_k()`), laid out as a
    /// hit program reads its attributes, in a lambda.
    fn hit_object_attributes(
        &self,
        ctx: &mut FnCtx,
        e: Handle<Expression>,
        span: Span,
    ) -> Result<String> {
        let Some(ty) = ctx.ty(e) else {
            return unsupported("`GetAttributes` without a type", span);
        };
        let l = self.attribute_layout(ty, span)?;
        let t = self.spell(ty, span)?;
        let mut lines = vec![format!("{t} a_;")];
        for field in &l.fields {
            let place = self.field_place("a_", ty, field, span)?;
            let s = super::types::scalar(field.scalar, span)?;
            let k = field.register;
            lines.push(match (field.bits, field.scalar.kind) {
                (64, _) => format!(
                    "{place} = lg::from_bits64<{s}>(lg::join_words(optixHitObjectGetAttribute_{k}(), optixHitObjectGetAttribute_{}()));",
                    k + 1
                ),
                (_, ir::ScalarKind::Float | ir::ScalarKind::Bool) => {
                    format!("{place} = lg::from_bits32<{s}>(optixHitObjectGetAttribute_{k}());")
                }
                _ => format!("{place} = {s}(optixHitObjectGetAttribute_{k}());"),
            });
        }
        lines.push("return a_;".into());
        Ok(format!("[]() {{ {} }}()", lines.join(" ")))
    }
}
