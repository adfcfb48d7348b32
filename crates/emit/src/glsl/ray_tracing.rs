//! Ray tracing in GLSL (`GL_EXT_ray_tracing`): the ray intrinsics as
//! builtins (the system-value table's `ray_builtin` rows:
//! `DispatchRaysIndex()` is `gl_LaunchIDEXT`) and calls
//! (`traceRayEXT`, `executeCallableEXT`, `reportIntersectionEXT`,
//! `ignoreIntersectionEXT`, `terminateRayEXT`), and the declarations of
//! ray-tracing storage. The legalizer has already made the payload and
//! callable-data arguments variables with locations, which the calls name.

use std::fmt::Write as _;

use legalis_ir as ir;
use legalis_ir::{Expression, Handle, Intrinsic as I};

use super::writer::{Ctx, Result, Writer, unsupported};

/// Whether `fun` is a ray-tracing intrinsic.
pub(super) fn is_ray_intrinsic(fun: I) -> bool {
    legalis_sysval::ray_builtin(fun).is_some() || fun.is_ray_call()
}

impl Writer<'_> {
    /// A ray intrinsic as GLSL; `None` for every other intrinsic.
    pub(super) fn ray_intrinsic(
        &mut self,
        ctx: &Ctx,
        e: Handle<Expression>,
        fun: I,
        args: &[Handle<Expression>],
    ) -> Result<Option<String>> {
        if !is_ray_intrinsic(fun) {
            return Ok(None);
        }
        let span = ctx.exprs.span(e);
        if !self.entry.stage.is_ray_tracing() {
            return unsupported(
                format!("`{}` outside ray-tracing shaders", fun.name()),
                span,
            );
        }
        if matches!(fun, I::TraceMotionRay | I::RayCurrentTime) {
            self.require("GL_NV_ray_tracing_motion_blur");
        }
        if let Some(row) = legalis_sysval::ray_builtin(fun) {
            // HLSL `float3x4` is GLSL `mat3x4` (see `writer.rs`): its
            // columns are the rows of the transform, which the transposed
            // 4x3 builtin holds.
            let name = row.glsl_name;
            return Ok(Some(match (row.glsl_int, row.transposed) {
                (true, _) => format!("uint({name})"),
                (false, true) => format!("transpose({name})"),
                (false, false) => name.to_string(),
            }));
        }
        let mut a = Vec::new();
        let text = match fun {
            I::IgnoreHit => "ignoreIntersectionEXT".to_string(),
            I::AcceptHitAndEndSearch => "terminateRayEXT".to_string(),
            I::ReportHit => {
                for &x in &args[..2] {
                    a.push(self.expr(ctx, x)?);
                }
                format!("reportIntersectionEXT({}, {})", a[0], a[1])
            }
            I::CallShader => {
                let location = self.ray_location(ctx, args[1])?;
                format!(
                    "executeCallableEXT({}, {location})",
                    self.expr(ctx, args[0])?
                )
            }
            _ => {
                for &x in &args[..6] {
                    a.push(self.expr(ctx, x)?);
                }
                let ray = self.expr(ctx, args[6])?;
                let ray_ty = self.expr_ty(ctx, args[6])?;
                for i in 0..4 {
                    a.push(format!("{ray}.{}", self.member_name(ray_ty, i)));
                }
                if fun == I::TraceMotionRay {
                    // The time between the ray and the payload.
                    a.push(self.expr(ctx, args[7])?);
                    a.push(self.ray_location(ctx, args[8])?.to_string());
                    format!("traceRayMotionNV({})", a.join(", "))
                } else {
                    a.push(self.ray_location(ctx, args[7])?.to_string());
                    format!("traceRayEXT({})", a.join(", "))
                }
            }
        };
        Ok(Some(text))
    }

    /// The location of the payload or callable-data variable a call passes.
    pub(super) fn ray_location(&self, ctx: &Ctx, arg: Handle<Expression>) -> Result<u32> {
        let location = match ctx.exprs[arg] {
            Expression::Global(g) => match &self.module.globals[g].io {
                Some(ir::IoAttrs {
                    binding: Some(ir::Binding::Location { location, .. }),
                    ..
                }) => Some(*location),
                _ => None,
            },
            _ => None,
        };
        match location {
            Some(l) => Ok(l),
            None => Err(super::Error::NotLegalized {
                what: "a ray-tracing call whose payload is not a variable with a location".into(),
                span: ctx.exprs.span(arg),
            }),
        }
    }

    /// `layout(location = N) rayPayloadEXT T name;` and the other kinds.
    pub(super) fn declare_ray_storage(
        &mut self,
        g: Handle<ir::GlobalVariable>,
        storage: ir::RayStorage,
        out: &mut String,
    ) -> Result<()> {
        let var = &self.module.globals[g];
        let span = self.module.globals.span(g);
        let (t, s) = self.type_parts(var.ty, span)?;
        if let Some(ir::IoAttrs {
            binding: Some(ir::Binding::Location { location, .. }),
            ..
        }) = &var.io
        {
            write!(out, "layout(location = {location}) ").ok();
        }
        writeln!(
            out,
            "{} {t} {}{s};",
            storage.glsl_name(),
            self.global_names[&g]
        )
        .ok();
        Ok(())
    }
}
