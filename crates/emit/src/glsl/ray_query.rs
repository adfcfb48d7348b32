//! Inline ray tracing in GLSL (`GL_EXT_ray_query`): a `RayQuery` is a
//! `rayQueryEXT` variable, passed to functions without a direction (GLSL
//! passes the query itself); `TraceRayInline` is `rayQueryInitializeEXT`
//! with the ray's four fields (the checker already added the template's
//! flags), `Proceed` `rayQueryProceedEXT`, `Abort` `rayQueryTerminateEXT`,
//! the commits `rayQueryConfirmIntersectionEXT` and
//! `rayQueryGenerateIntersectionEXT`, and a getter its
//! `rayQueryGet*EXT(q, committed)`.

use legalis_ir::{Expression, Handle, Intrinsic as I, RayQueryRead as R};

use super::writer::{Ctx, Result, Writer, unsupported};

/// The function of a getter, whether it takes the `committed` operand,
/// and whether its 4×3 matrix is read transposed (HLSL's `float3x4`).
fn getter(read: R) -> (&'static str, bool, bool) {
    match read {
        R::RayFlags => ("rayQueryGetRayFlagsEXT", false, false),
        R::WorldRayOrigin => ("rayQueryGetWorldRayOriginEXT", false, false),
        R::WorldRayDirection => ("rayQueryGetWorldRayDirectionEXT", false, false),
        R::RayTMin => ("rayQueryGetRayTMinEXT", false, false),
        R::Type => ("rayQueryGetIntersectionTypeEXT", true, false),
        R::ProceduralNonOpaque => (
            "!rayQueryGetIntersectionCandidateAABBOpaqueEXT",
            false,
            false,
        ),
        R::T => ("rayQueryGetIntersectionTEXT", true, false),
        R::InstanceIndex => ("rayQueryGetIntersectionInstanceIdEXT", true, false),
        R::InstanceId => ("rayQueryGetIntersectionInstanceCustomIndexEXT", true, false),
        R::InstanceContributionToHitGroupIndex => (
            "rayQueryGetIntersectionInstanceShaderBindingTableRecordOffsetEXT",
            true,
            false,
        ),
        R::GeometryIndex => ("rayQueryGetIntersectionGeometryIndexEXT", true, false),
        R::PrimitiveIndex => ("rayQueryGetIntersectionPrimitiveIndexEXT", true, false),
        R::ObjectRayOrigin => ("rayQueryGetIntersectionObjectRayOriginEXT", true, false),
        R::ObjectRayDirection => ("rayQueryGetIntersectionObjectRayDirectionEXT", true, false),
        R::ObjectToWorld3x4 => ("rayQueryGetIntersectionObjectToWorldEXT", true, true),
        R::ObjectToWorld4x3 => ("rayQueryGetIntersectionObjectToWorldEXT", true, false),
        R::WorldToObject3x4 => ("rayQueryGetIntersectionWorldToObjectEXT", true, true),
        R::WorldToObject4x3 => ("rayQueryGetIntersectionWorldToObjectEXT", true, false),
        R::TriangleBarycentrics => ("rayQueryGetIntersectionBarycentricsEXT", true, false),
        R::TriangleFrontFace => ("rayQueryGetIntersectionFrontFaceEXT", true, false),
    }
}

impl Writer<'_> {
    /// A `RayQuery` method as an expression; `None` for other intrinsics.
    pub(super) fn ray_query_expr(
        &mut self,
        ctx: &Ctx,
        fun: I,
        args: &[Handle<Expression>],
    ) -> Result<Option<String>> {
        if !fun.is_ray_query_method() {
            return Ok(None);
        }
        self.require("GL_EXT_ray_query");
        self.version = self.version.max(460);
        let q = self.query_variable(ctx, args[0])?;
        if let Some((read, committed)) = fun.ray_query_read() {
            let (name, intersection, transposed) = getter(read);
            let call = match intersection {
                true => format!("{name}({q}, {committed})"),
                false => format!("{name}({q})"),
            };
            return Ok(Some(match transposed {
                true => format!("transpose({call})"),
                false => call,
            }));
        }
        let text = match fun {
            I::RayQueryTraceRayInline => {
                let scene = self.expr(ctx, args[1])?;
                let flags = self.expr(ctx, args[2])?;
                let mask = self.expr(ctx, args[3])?;
                let [origin, tmin, direction, tmax] = self.query_ray_fields(ctx, args[4])?;
                format!(
                    "rayQueryInitializeEXT({q}, {scene}, {flags}, {mask}, {origin}, {tmin}, {direction}, {tmax})"
                )
            }
            I::RayQueryProceed => format!("rayQueryProceedEXT({q})"),
            I::RayQueryAbort => format!("rayQueryTerminateEXT({q})"),
            I::RayQueryCommitNonOpaqueTriangleHit => format!("rayQueryConfirmIntersectionEXT({q})"),
            _ => {
                let t = self.expr(ctx, args[1])?;
                format!("rayQueryGenerateIntersectionEXT({q}, {t})")
            }
        };
        Ok(Some(text))
    }

    /// The `rayQueryEXT` variable an expression names.
    fn query_variable(&mut self, ctx: &Ctx, e: Handle<Expression>) -> Result<String> {
        if !matches!(
            ctx.exprs[e],
            Expression::Local(_) | Expression::Param(_) | Expression::Member { .. }
        ) {
            return unsupported("a ray query that is not a variable", ctx.exprs.span(e));
        }
        self.expr(ctx, e)
    }

    /// Origin, TMin, Direction and TMax of a `RayDesc` the call may read
    /// four times.
    fn query_ray_fields(&mut self, ctx: &Ctx, ray: Handle<Expression>) -> Result<[String; 4]> {
        if !self.is_pure(ctx, ray) {
            return unsupported(
                "a ray with side effects in `TraceRayInline` (give it a variable)",
                ctx.exprs.span(ray),
            );
        }
        let text = self.expr(ctx, ray)?;
        let ty = self.expr_ty(ctx, ray)?;
        Ok([0, 1, 2, 3].map(|i| format!("({text}).{}", self.member_name(ty, i))))
    }
}
