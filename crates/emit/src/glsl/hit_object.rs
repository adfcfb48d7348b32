//! Shader execution reordering in GLSL (`GL_NV_shader_invocation_reorder`):
//! a `HitObject` is a `hitObjectNV` variable, which GLSL cannot assign, so
//! a declaration or assignment from `HitObject::TraceRay`, `MakeHit`,
//! `MakeMiss` or `MakeNop` records into the variable
//! (`hitObjectTraceRayNV(h, ...)`, `hitObjectRecordHitNV` or, with a
//! record index, `hitObjectRecordHitWithIndexNV` after the attributes are
//! stored into their `hitObjectAttributeNV` variable,
//! `hitObjectRecordMissNV`, `hitObjectRecordEmptyNV`); methods are the
//! `hitObject*NV` queries of the variable; `GetAttributes<T>` is
//! `hitObjectGetAttributesNV` into a `hitObjectAttributeNV` variable of
//! type `T` (one per type, locations 0, 1 ...) read in a comma expression;
//! `Invoke` is `hitObjectExecuteShaderNV` and `ReorderThread`
//! `reorderThreadNV`. A hit object made inside an expression or copied
//! from another has no GLSL spelling (`E56001`).

use legalis_ir::{Expression, Handle, Intrinsic as I, Span, TypeInner};

use super::writer::{Ctx, Result, Writer, unsupported};

/// The `hitObject*NV` query of a method.
fn query(fun: I) -> Option<&'static str> {
    Some(match fun {
        I::HitObjectIsHit => "hitObjectIsHitNV",
        I::HitObjectIsMiss => "hitObjectIsMissNV",
        I::HitObjectIsNop => "hitObjectIsEmptyNV",
        I::HitObjectGetRayTMin => "hitObjectGetRayTMinNV",
        I::HitObjectGetRayTCurrent => "hitObjectGetRayTMaxNV",
        I::HitObjectGetWorldRayOrigin => "hitObjectGetWorldRayOriginNV",
        I::HitObjectGetWorldRayDirection => "hitObjectGetWorldRayDirectionNV",
        I::HitObjectGetObjectRayOrigin => "hitObjectGetObjectRayOriginNV",
        I::HitObjectGetObjectRayDirection => "hitObjectGetObjectRayDirectionNV",
        I::HitObjectGetObjectToWorld => "hitObjectGetObjectToWorldNV",
        I::HitObjectGetWorldToObject => "hitObjectGetWorldToObjectNV",
        I::HitObjectGetInstanceIndex => "hitObjectGetInstanceIdNV",
        I::HitObjectGetInstanceId => "hitObjectGetInstanceCustomIndexNV",
        I::HitObjectGetGeometryIndex => "hitObjectGetGeometryIndexNV",
        I::HitObjectGetPrimitiveIndex => "hitObjectGetPrimitiveIndexNV",
        I::HitObjectGetHitKind => "hitObjectGetHitKindNV",
        I::HitObjectGetShaderTableIndex => "hitObjectGetShaderBindingTableRecordIndexNV",
        I::HitObjectGetCurrentTime => "hitObjectGetCurrentTimeNV",
        _ => return None,
    })
}

impl Writer<'_> {
    fn require_hit_object(&mut self, fun: I, span: Span) -> Result<()> {
        use legalis_ir::ShaderStage as S;
        if !matches!(self.entry.stage, S::RayGeneration | S::ClosestHit | S::Miss) {
            return unsupported(
                format!(
                    "`{}` outside ray-generation, closest-hit and miss shaders",
                    fun.name()
                ),
                span,
            );
        }
        self.require("GL_EXT_ray_tracing");
        self.require("GL_NV_shader_invocation_reorder");
        Ok(())
    }

    /// Whether `e` is a `HitObject` value.
    pub(super) fn is_hit_object(&self, ctx: &Ctx, e: Handle<Expression>) -> bool {
        ctx.exprs
            .ty(e)
            .is_some_and(|t| matches!(self.module.types[t].inner, TypeInner::HitObject))
    }

    /// A `HitObject` intrinsic as an expression; `None` for others.
    pub(super) fn hit_object_expr(
        &mut self,
        ctx: &Ctx,
        e: Handle<Expression>,
        fun: I,
        args: &[Handle<Expression>],
    ) -> Result<Option<String>> {
        if !fun.is_hit_object() {
            return Ok(None);
        }
        let span = ctx.exprs.span(e);
        self.require_hit_object(fun, span)?;
        if let Some(name) = query(fun) {
            let hit = self.hit_variable(ctx, args[0])?;
            return Ok(Some(format!("{name}({hit})")));
        }
        let text = match fun {
            I::HitObjectInvoke => {
                let n = args.len();
                let hit = self.hit_variable(ctx, args[n - 2])?;
                let location = self.ray_location(ctx, args[n - 1])?;
                format!("hitObjectExecuteShaderNV({hit}, {location})")
            }
            I::ReorderThread => {
                let mut a = Vec::new();
                for (k, &x) in args.iter().enumerate() {
                    a.push(if k == 0 && self.is_hit_object(ctx, x) {
                        self.hit_variable(ctx, x)?
                    } else {
                        self.expr(ctx, x)?
                    });
                }
                format!("reorderThreadNV({})", a.join(", "))
            }
            I::HitObjectGetAttributes => {
                let hit = self.hit_variable(ctx, args[0])?;
                let ty = self.expr_ty(ctx, e)?;
                let type_name = self.type_name(ty, span)?;
                let (location, name) = self.attribute_variable(&type_name);
                format!("(hitObjectGetAttributesNV({hit}, {location}), {name})")
            }
            I::HitObjectGetSpherePositionAndRadius
            | I::HitObjectGetLssPositionsAndRadii
            | I::HitObjectIsSphereHit
            | I::HitObjectIsLssHit => {
                return unsupported(format!("the intrinsic `HitObject.{}`", fun.name()), span);
            }
            I::HitObjectGetRayDesc => {
                let hit = self.hit_variable(ctx, args[0])?;
                let ty = self.expr_ty(ctx, e)?;
                let type_name = self.type_name(ty, span)?;
                format!(
                    "{type_name}(hitObjectGetWorldRayOriginNV({hit}), hitObjectGetRayTMinNV({hit}), hitObjectGetWorldRayDirectionNV({hit}), hitObjectGetRayTMaxNV({hit}))"
                )
            }
            _ => {
                return unsupported(
                    format!(
                        "`{}` inside an expression (declare or assign a `HitObject` variable with it)",
                        fun.name()
                    ),
                    span,
                );
            }
        };
        Ok(Some(text))
    }

    /// `target = value` for a `HitObject` target: the call that records
    /// `value` into the variable.
    pub(super) fn hit_object_record(
        &mut self,
        ctx: &Ctx,
        target: &str,
        value: Handle<Expression>,
    ) -> Result<String> {
        let span = ctx.exprs.span(value);
        let Expression::Intrinsic { fun, args } = &ctx.exprs[value] else {
            return unsupported(
                "a hit object copied from another (GLSL cannot assign `hitObjectNV`)",
                span,
            );
        };
        let fun = *fun;
        self.require_hit_object(fun, span)?;
        let mut a = vec![target.to_string()];
        match fun {
            I::HitObjectTraceRay => {
                for &x in &args[..6] {
                    a.push(self.expr(ctx, x)?);
                }
                a.extend(self.ray_fields(ctx, args[6])?);
                a.push(self.ray_location(ctx, args[7])?.to_string());
                Ok(format!("hitObjectTraceRayNV({})", a.join(", ")))
            }
            I::HitObjectMakeMiss => {
                a.push(self.expr(ctx, args[0])?);
                a.extend(self.ray_fields(ctx, args[1])?);
                Ok(format!("hitObjectRecordMissNV({})", a.join(", ")))
            }
            I::HitObjectMakeNop => Ok(format!("hitObjectRecordEmptyNV({target})")),
            // The attributes go into the type's `hitObjectAttributeNV`
            // variable first; the call names its location. GLSL's
            // instance, primitive and geometry are `int`s, in that order.
            I::HitObjectMakeHit => {
                let n = args.len();
                let attributes = args[n - 1];
                let ty = self.expr_ty(ctx, attributes)?;
                let type_name = self.type_name(ty, span)?;
                let (location, name) = self.attribute_variable(&type_name);
                let value = self.expr(ctx, attributes)?;
                let first = usize::from(n == 8);
                let mut v = Vec::new();
                for &x in &args[..n - 2] {
                    v.push(self.expr(ctx, x)?);
                }
                let (scene, instance, geometry, primitive, kind) = (
                    &v[first],
                    &v[first + 1],
                    &v[first + 2],
                    &v[first + 3],
                    &v[first + 4],
                );
                a.extend([
                    scene.clone(),
                    format!("int({instance})"),
                    format!("int({primitive})"),
                    format!("int({geometry})"),
                    kind.clone(),
                ]);
                let call = if n == 8 {
                    a.push(v[0].clone());
                    "hitObjectRecordHitWithIndexNV"
                } else {
                    a.extend([v[5].clone(), v[6].clone()]);
                    "hitObjectRecordHitNV"
                };
                a.extend(self.ray_fields(ctx, args[n - 2])?);
                a.push(location.to_string());
                Ok(format!("({name} = {value}, {call}({}))", a.join(", ")))
            }
            _ => unsupported(
                "a hit object made by something else than a HitObject function",
                span,
            ),
        }
    }

    /// The four fields of a `RayDesc` held by a variable.
    fn ray_fields(&mut self, ctx: &Ctx, ray: Handle<Expression>) -> Result<Vec<String>> {
        if !matches!(ctx.exprs[ray], Expression::Local(_) | Expression::Param(_)) {
            return unsupported(
                "a ray that is not a variable in a `HitObject` call",
                ctx.exprs.span(ray),
            );
        }
        let text = self.expr(ctx, ray)?;
        let ty = self.expr_ty(ctx, ray)?;
        Ok((0..4)
            .map(|i| format!("{text}.{}", self.member_name(ty, i)))
            .collect())
    }

    /// The `hitObjectNV` variable an expression names.
    fn hit_variable(&mut self, ctx: &Ctx, e: Handle<Expression>) -> Result<String> {
        if !matches!(ctx.exprs[e], Expression::Local(_) | Expression::Param(_)) {
            return unsupported("a hit object that is not a variable", ctx.exprs.span(e));
        }
        self.expr(ctx, e)
    }

    /// The `hitObjectAttributeNV` variable of a type: its location and
    /// name, declared on first use.
    fn attribute_variable(&mut self, type_name: &str) -> (usize, String) {
        let declared: Vec<(usize, &(String, String))> = self
            .temps
            .iter()
            .filter(|(t, _)| t.contains(" hitObjectAttributeNV "))
            .enumerate()
            .collect();
        if let Some((k, (_, name))) = declared
            .iter()
            .find(|(_, (t, _))| t.ends_with(&format!(" hitObjectAttributeNV {type_name}")))
        {
            return (*k, name.clone());
        }
        let k = declared.len();
        let name = format!("hitObjectAttributes_{k}");
        self.temps.push((
            format!("layout(location = {k}) hitObjectAttributeNV {type_name}"),
            name.clone(),
        ));
        (k, name)
    }
}

impl Writer<'_> {
    /// The name of a `HitObject` local; `None` for other locals.
    pub(super) fn hit_object_local(
        &self,
        ctx: &Ctx,
        local: Handle<legalis_ir::LocalVariable>,
    ) -> Option<String> {
        let var = ctx.func.and_then(|f| f.locals.try_get(local))?;
        matches!(self.module.types[var.ty].inner, TypeInner::HitObject)
            .then(|| ctx.locals[&local].clone())
    }
}
