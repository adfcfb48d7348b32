//! Shader execution reordering: the `HitObject` type's static functions
//! (`HitObject::TraceRay`, `MakeHit`, `MakeMiss`, `MakeNop`, `Invoke`,
//! also written `HitObject.MakeNop()`), its methods (`IsHit`,
//! `GetRayDesc`, `GetAttributes<T>`, the sphere and linear-swept-sphere
//! queries `GetSpherePositionAndRadius`, `IsLssHit` ...) and
//! `ReorderThread`. The object of a method is
//! the first argument of the IR intrinsic, as for textures.

use legalis_ir::{Handle, Intrinsic as I, Scalar, Span, Type, TypeInner};

use super::Checker;
use super::convert::Value;
use super::intrinsics::{Arg, Signature};
use super::types::Shape;
use crate::{ast, codes};

impl Checker<'_> {
    /// `HitObject::f(args)` / `HitObject.f(args)`.
    pub fn lower_hit_object_static(
        &mut self,
        method: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Value {
        let fun = I::from_name(&format!("HitObject::{}", method.name));
        let Some(fun) = fun else {
            for a in args {
                self.lower_expr(a);
            }
            self.error(
                codes::NO_SUCH_MEMBER,
                format!("`HitObject` has no static function `{}`", method.name),
                method.span,
            );
            return self.error_value(method.span);
        };
        self.lower_intrinsic_call(fun, args, span)
    }

    /// `hit.f(args)` / `hit.GetAttributes<T>()` on a `HitObject` value.
    pub fn lower_hit_object_method(
        &mut self,
        obj: Value,
        obj_span: Span,
        method: &ast::Ident,
        type_args: &[ast::GenericArg],
        args: &[ast::Expr],
        span: Span,
    ) -> Value {
        let values: Vec<Value> = args.iter().map(|a| self.lower_value(a)).collect();
        let fun = I::method_from_name(&method.name).filter(|f| f.is_hit_object_method());
        let Some(fun) = fun else {
            self.error(
                codes::NO_SUCH_MEMBER,
                format!("`HitObject` has no method `{}`", method.name),
                method.span,
            );
            return self.error_value(method.span);
        };
        // `GetAttributes<T>()` names its result type; no other method takes
        // generic arguments.
        let attributes = match (fun, type_args) {
            (I::HitObjectGetAttributes, [ast::GenericArg::Type(t)]) => Some(self.resolve_type(t)),
            (_, []) => None,
            _ => {
                self.error(
                    codes::NO_MATCHING_OVERLOAD,
                    if fun == I::HitObjectGetAttributes {
                        "`GetAttributes` takes one type argument, the attributes' struct: `GetAttributes<T>()`".to_string()
                    } else {
                        format!("`HitObject.{}` takes no generic arguments", method.name)
                    },
                    method.span,
                );
                return self.error_value(span);
            }
        };
        if values.iter().any(|v| v.ty == Some(self.error_ty)) || attributes == Some(self.error_ty) {
            return self.error_value(span);
        }
        let types: Vec<Handle<Type>> = values
            .iter()
            .map(|v| v.ty.unwrap_or(self.error_ty))
            .collect();
        let result = if fun == I::HitObjectGetAttributes {
            match attributes {
                Some(t)
                    if matches!(self.inner(t), TypeInner::Struct { .. }) && types.is_empty() =>
                {
                    Ok(Signature {
                        args: Vec::new(),
                        result: Some(t),
                    })
                }
                Some(t) if types.is_empty() => Err(format!(
                    "the attributes must be a struct, found `{}`",
                    self.type_name(t)
                )),
                Some(_) => Err("expected 0 argument(s)".to_string()),
                None => Err("the attributes' type must be given: `GetAttributes<T>()`".to_string()),
            }
        } else {
            self.hit_object_signature(fun, &types)
                .map(|sig| sig.expect("a HitObject method"))
        };
        let mut sig = match result {
            Ok(sig) => sig,
            Err(message) => {
                let names: Vec<String> = types.iter().map(|&t| self.type_name(t)).collect();
                self.error(
                    codes::NO_MATCHING_OVERLOAD,
                    format!(
                        "no overload of `HitObject.{}` takes ({}): {message}",
                        method.name,
                        names.join(", ")
                    ),
                    span,
                );
                return self.error_value(span);
            }
        };
        let mut all_values = vec![obj];
        all_values.extend(values);
        let mut spans = vec![obj_span];
        spans.extend(args.iter().map(|a| a.span));
        sig.args.insert(0, Arg::Any);
        self.apply_signature(fun, sig, all_values, &spans, span)
    }

    /// The signature of a `HitObject` function, `ReorderThread`, or a
    /// method's arguments after its object; `None` for other intrinsics.
    pub fn hit_object_signature(
        &mut self,
        fun: I,
        types: &[Handle<Type>],
    ) -> Result<Option<Signature>, String> {
        if !fun.is_hit_object() {
            return Ok(None);
        }
        let uint = self.scalar_ty(Scalar::U32);
        let float = self.scalar_ty(Scalar::F32);
        let boolean = self.scalar_ty(Scalar::BOOL);
        let float3 = self.numeric_ty(Scalar::F32, Shape::Vector(3));
        let hit = self.intern(TypeInner::HitObject);
        let arity = |n: usize| {
            if types.len() == n {
                Ok(())
            } else {
                Err(format!("expected {n} argument(s), found {}", types.len()))
            }
        };
        let plain = |result| Signature {
            args: Vec::new(),
            result: Some(result),
        };
        let sig = match fun {
            I::HitObjectTraceRay => {
                arity(8)?;
                self.require_scene(types[0], 1)?;
                self.require_ray(types[6], 7)?;
                self.require_payload(types[7], "the payload")?;
                let mut args = vec![Arg::Any];
                args.extend([Arg::In(uint); 5]);
                args.extend([Arg::Any, Arg::OutAny]);
                Signature {
                    args,
                    result: Some(hit),
                }
            }
            I::HitObjectMakeMiss => {
                arity(2)?;
                self.require_ray(types[1], 2)?;
                Signature {
                    args: vec![Arg::In(uint), Arg::Any],
                    result: Some(hit),
                }
            }
            I::HitObjectMakeNop => {
                arity(0)?;
                plain(hit)
            }
            // `MakeHit(scene, instance, geometry, primitive, kind,
            // contribution, multiplier, ray, attributes)` or, with the hit
            // group's record index first, `MakeHit(record, scene,
            // instance, geometry, primitive, kind, ray, attributes)`.
            I::HitObjectMakeHit => {
                let (scene, uints) = match types.len() {
                    9 => (0, 6),
                    8 => (1, 4),
                    n => {
                        return Err(format!(
                            "expected 9 arguments (scene, instance, geometry, primitive, hit kind, contribution, multiplier, ray, attributes) or 8 (record index, scene, instance, geometry, primitive, hit kind, ray, attributes), found {n}"
                        ));
                    }
                };
                self.require_scene(types[scene], scene + 1)?;
                let n = types.len();
                self.require_ray(types[n - 2], n - 1)?;
                self.require_payload(types[n - 1], "the attributes")?;
                let mut args = Vec::new();
                if scene == 1 {
                    args.push(Arg::In(uint));
                }
                args.push(Arg::Any);
                args.extend(std::iter::repeat_n(Arg::In(uint), uints));
                args.extend([Arg::Any, Arg::Any]);
                Signature {
                    args,
                    result: Some(hit),
                }
            }
            // `Invoke(scene, hit, payload)` or `Invoke(hit, payload)`.
            I::HitObjectInvoke => {
                let mut args = Vec::new();
                if types.len() == 3 {
                    self.require_scene(types[0], 1)?;
                    args.push(Arg::Any);
                } else {
                    arity(2)?;
                }
                let n = types.len();
                if types[n - 2] != hit {
                    return Err(format!("argument {} must be a `HitObject`", n - 1));
                }
                self.require_payload(types[n - 1], "the payload")?;
                args.extend([Arg::Any, Arg::OutAny]);
                Signature { args, result: None }
            }
            I::ReorderThread => match types {
                [h] if *h == hit => Signature {
                    args: vec![Arg::Any],
                    result: None,
                },
                [h, _, _] if *h == hit => Signature {
                    args: vec![Arg::Any, Arg::In(uint), Arg::In(uint)],
                    result: None,
                },
                [_, _] => Signature {
                    args: vec![Arg::In(uint); 2],
                    result: None,
                },
                _ => {
                    return Err(
                        "expected (HitObject), (HitObject, uint, uint) or (uint, uint)".to_string(),
                    );
                }
            },
            I::HitObjectIsHit
            | I::HitObjectIsMiss
            | I::HitObjectIsNop
            | I::HitObjectIsSphereHit
            | I::HitObjectIsLssHit => {
                arity(0)?;
                plain(boolean)
            }
            I::HitObjectGetRayDesc => {
                arity(0)?;
                let ray = self
                    .builtin_struct("RayDesc")
                    .expect("RayDesc is a built-in struct");
                plain(ray)
            }
            I::HitObjectGetRayTMin | I::HitObjectGetRayTCurrent | I::HitObjectGetCurrentTime => {
                arity(0)?;
                plain(float)
            }
            I::HitObjectGetWorldRayOrigin
            | I::HitObjectGetWorldRayDirection
            | I::HitObjectGetObjectRayOrigin
            | I::HitObjectGetObjectRayDirection => {
                arity(0)?;
                plain(float3)
            }
            I::HitObjectGetSpherePositionAndRadius => {
                arity(0)?;
                plain(self.numeric_ty(Scalar::F32, Shape::Vector(4)))
            }
            I::HitObjectGetLssPositionsAndRadii => {
                arity(0)?;
                let float2x4 = self.numeric_ty(
                    Scalar::F32,
                    Shape::Matrix {
                        rows: 2,
                        columns: 4,
                    },
                );
                plain(float2x4)
            }
            I::HitObjectGetObjectToWorld | I::HitObjectGetWorldToObject => {
                arity(0)?;
                let float4x3 = self.numeric_ty(
                    Scalar::F32,
                    Shape::Matrix {
                        rows: 4,
                        columns: 3,
                    },
                );
                plain(float4x3)
            }
            I::HitObjectGetInstanceIndex
            | I::HitObjectGetInstanceId
            | I::HitObjectGetGeometryIndex
            | I::HitObjectGetPrimitiveIndex
            | I::HitObjectGetHitKind
            | I::HitObjectGetShaderTableIndex => {
                arity(0)?;
                plain(uint)
            }
            // Typed by its generic argument: see `lower_hit_object_method`.
            _ => return Err("`GetAttributes` needs its type argument".to_string()),
        };
        Ok(Some(sig))
    }

    fn require_scene(&self, ty: Handle<Type>, n: usize) -> Result<(), String> {
        match self.inner(ty) {
            TypeInner::AccelerationStructure => Ok(()),
            _ => Err(format!(
                "argument {n} must be a `RaytracingAccelerationStructure`"
            )),
        }
    }

    fn require_ray(&self, ty: Handle<Type>, n: usize) -> Result<(), String> {
        let name = self
            .module
            .types
            .try_get(ty)
            .and_then(|t| t.name.as_deref());
        if name == Some("RayDesc") {
            Ok(())
        } else {
            Err(format!("argument {n} must be a `RayDesc`"))
        }
    }

    fn require_payload(&self, ty: Handle<Type>, what: &str) -> Result<(), String> {
        match self.inner(ty) {
            TypeInner::Struct { .. } => Ok(()),
            _ => Err(format!(
                "{what} must be a struct, found `{}`",
                self.type_name(ty)
            )),
        }
    }
}
