//! Inline ray tracing: the methods of `RayQuery<flags>` (`TraceRayInline`,
//! `Proceed`, `Abort`, the commits and the `Candidate*`/`Committed*`
//! getters). The object of a method is the first argument of the IR
//! intrinsic, a place: the methods that advance the query write it.
//! `TraceRayInline`'s flags are the template's added to the call's, so the
//! targets see one flags operand.

use legalis_ir::{BinaryOp, Expression, Intrinsic as I, Literal, RayQueryRead as R, Span};
use legalis_ir::{Scalar, TypeInner};

use super::Checker;
use super::convert::Value;
use super::intrinsics::{Arg, Signature};
use super::types::Shape;
use crate::{ast, codes};

impl Checker<'_> {
    /// `q.f(args)` on a `RayQuery<flags>` value.
    pub fn lower_ray_query_method(
        &mut self,
        obj: Value,
        obj_span: Span,
        method: &ast::Ident,
        type_args: &[ast::GenericArg],
        args: &[ast::Expr],
        span: Span,
    ) -> Value {
        let values: Vec<Value> = args
            .iter()
            .map(|a| {
                let v = self.lower_value(a);
                self.deref_if_handle(v, a.span)
            })
            .collect();
        let Some(fun) = I::ray_query_method_from_name(&method.name) else {
            self.error(
                codes::NO_SUCH_MEMBER,
                format!("`RayQuery` has no method `{}`", method.name),
                method.span,
            );
            return self.error_value(method.span);
        };
        if !type_args.is_empty() {
            self.error(
                codes::NO_MATCHING_OVERLOAD,
                format!("`RayQuery.{}` takes no generic arguments", method.name),
                method.span,
            );
            return self.error_value(span);
        }
        if values.iter().any(|v| v.ty == Some(self.error_ty)) {
            return self.error_value(span);
        }
        let flags = match obj.ty.map(|t| self.inner(t).clone()) {
            Some(TypeInner::RayQuery { flags }) => flags,
            _ => 0,
        };
        let sig = match self.ray_query_signature(fun, &values) {
            Ok(sig) => sig,
            Err(message) => {
                let names: Vec<String> = values
                    .iter()
                    .map(|v| self.type_name(v.ty.unwrap_or(self.error_ty)))
                    .collect();
                self.error(
                    codes::NO_MATCHING_OVERLOAD,
                    format!(
                        "no overload of `RayQuery.{}` takes ({}): {message}",
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
        if fun == I::RayQueryTraceRayInline && flags != 0 {
            all_values[2] = self.add_template_flags(all_values[2], flags, spans[2]);
        }
        self.apply_signature(fun, sig, all_values, &spans, span)
    }

    /// The template's ray flags added to a `TraceRayInline` call's flags
    /// (folded where the call's are a literal).
    fn add_template_flags(&mut self, given: Value, flags: u32, at: Span) -> Value {
        let uint = self.scalar_ty(Scalar::U32);
        let given = self.coerce(given, uint, at);
        let literal = |e: &Expression| match *e {
            Expression::Literal(Literal::Uint(n)) => Some(n),
            Expression::Literal(Literal::Int(n)) => u64::try_from(n).ok(),
            _ => None,
        };
        let exprs = self.exprs();
        let folded = match exprs[given] {
            Expression::Convert { expr } => literal(&exprs[expr]),
            ref e => literal(e),
        }
        .map(|n| (n & u64::from(u32::MAX)) | u64::from(flags));
        if let Some(n) = folded {
            return self.append(Expression::Literal(Literal::Uint(n)), Some(uint), at);
        }
        let template = Expression::Literal(Literal::Uint(u64::from(flags)));
        let template = self.append(template, Some(uint), at);
        let or = Expression::Binary {
            op: BinaryOp::BitwiseOr,
            left: template.expr,
            right: given,
        };
        self.append(or, Some(uint), at)
    }

    /// The signature of a `RayQuery` method after its object (which comes
    /// first, a writable place for the methods that advance the query).
    fn ray_query_signature(&mut self, fun: I, values: &[Value]) -> Result<Signature, String> {
        let uint = self.scalar_ty(Scalar::U32);
        let float = self.scalar_ty(Scalar::F32);
        let boolean = self.scalar_ty(Scalar::BOOL);
        let arity = |n: usize| {
            if values.len() == n {
                Ok(())
            } else {
                Err(format!("expected {n} argument(s), found {}", values.len()))
            }
        };
        let writes = |mut rest: Vec<Arg>, result| {
            rest.insert(0, Arg::OutAny);
            Signature { args: rest, result }
        };
        if let Some((read, _)) = fun.ray_query_read() {
            arity(0)?;
            let result = match read {
                R::RayFlags
                | R::Type
                | R::InstanceIndex
                | R::InstanceId
                | R::InstanceContributionToHitGroupIndex
                | R::GeometryIndex
                | R::PrimitiveIndex => uint,
                R::RayTMin | R::T => float,
                R::ProceduralNonOpaque | R::TriangleFrontFace => boolean,
                R::WorldRayOrigin
                | R::WorldRayDirection
                | R::ObjectRayOrigin
                | R::ObjectRayDirection => self.numeric_ty(Scalar::F32, Shape::Vector(3)),
                R::TriangleBarycentrics => self.numeric_ty(Scalar::F32, Shape::Vector(2)),
                R::ObjectToWorld3x4 | R::WorldToObject3x4 => self.numeric_ty(
                    Scalar::F32,
                    Shape::Matrix {
                        rows: 3,
                        columns: 4,
                    },
                ),
                R::ObjectToWorld4x3 | R::WorldToObject4x3 => self.numeric_ty(
                    Scalar::F32,
                    Shape::Matrix {
                        rows: 4,
                        columns: 3,
                    },
                ),
            };
            return Ok(Signature {
                args: vec![Arg::Any],
                result: Some(result),
            });
        }
        Ok(match fun {
            I::RayQueryTraceRayInline => {
                arity(4)?;
                let ty = |i: usize| values[i].ty.unwrap_or(self.error_ty);
                if !matches!(self.inner(ty(0)), TypeInner::AccelerationStructure) {
                    return Err("argument 1 must be a `RaytracingAccelerationStructure`".into());
                }
                let is_ray = self
                    .module
                    .types
                    .try_get(ty(3))
                    .and_then(|t| t.name.as_deref())
                    == Some("RayDesc");
                if !is_ray {
                    return Err("argument 4 must be a `RayDesc`".into());
                }
                writes(vec![Arg::Any, Arg::In(uint), Arg::In(uint), Arg::Any], None)
            }
            I::RayQueryProceed => {
                arity(0)?;
                writes(Vec::new(), Some(boolean))
            }
            I::RayQueryCommitProceduralPrimitiveHit => {
                arity(1)?;
                writes(vec![Arg::In(float)], None)
            }
            _ => {
                arity(0)?;
                writes(Vec::new(), None)
            }
        })
    }
}
