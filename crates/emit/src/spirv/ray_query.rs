//! Inline ray tracing in SPIR-V (`SPV_KHR_ray_query`, capability
//! `RayQueryKHR`): a `RayQuery` is an `OpTypeRayQueryKHR` in a function
//! variable, and every instruction takes the variable. `TraceRayInline`
//! is `OpRayQueryInitializeKHR` (the checker already added the template's
//! flags to the call's), `Proceed` `OpRayQueryProceedKHR`, `Abort`
//! `OpRayQueryTerminateKHR`, the commits `OpRayQueryConfirmIntersectionKHR`
//! and `OpRayQueryGenerateIntersectionKHR`, and a getter its
//! `OpRayQueryGet*KHR` with the intersection operand (0 the candidate, 1
//! the committed one) where it has one.

use legalis_ir as ir;
use legalis_ir::{Expression, Handle, Intrinsic as I, RayQueryRead as R};
use spirv::{Capability, Op, Word};

use super::expr::Place;
use super::writer::{Layout, Result, Writer};

/// The instruction of a getter, whether it takes the intersection operand,
/// and whether its matrix is read transposed (HLSL's `float3x4` from the
/// 4×3 the instruction yields).
fn getter(read: R) -> (Op, bool, bool) {
    match read {
        R::RayFlags => (Op::RayQueryGetRayFlagsKHR, false, false),
        R::WorldRayOrigin => (Op::RayQueryGetWorldRayOriginKHR, false, false),
        R::WorldRayDirection => (Op::RayQueryGetWorldRayDirectionKHR, false, false),
        R::RayTMin => (Op::RayQueryGetRayTMinKHR, false, false),
        R::Type => (Op::RayQueryGetIntersectionTypeKHR, true, false),
        R::ProceduralNonOpaque => (
            Op::RayQueryGetIntersectionCandidateAABBOpaqueKHR,
            false,
            false,
        ),
        R::T => (Op::RayQueryGetIntersectionTKHR, true, false),
        R::InstanceIndex => (Op::RayQueryGetIntersectionInstanceIdKHR, true, false),
        R::InstanceId => (
            Op::RayQueryGetIntersectionInstanceCustomIndexKHR,
            true,
            false,
        ),
        R::InstanceContributionToHitGroupIndex => (
            Op::RayQueryGetIntersectionInstanceShaderBindingTableRecordOffsetKHR,
            true,
            false,
        ),
        R::GeometryIndex => (Op::RayQueryGetIntersectionGeometryIndexKHR, true, false),
        R::PrimitiveIndex => (Op::RayQueryGetIntersectionPrimitiveIndexKHR, true, false),
        R::ObjectRayOrigin => (Op::RayQueryGetIntersectionObjectRayOriginKHR, true, false),
        R::ObjectRayDirection => (
            Op::RayQueryGetIntersectionObjectRayDirectionKHR,
            true,
            false,
        ),
        R::ObjectToWorld3x4 => (Op::RayQueryGetIntersectionObjectToWorldKHR, true, true),
        R::ObjectToWorld4x3 => (Op::RayQueryGetIntersectionObjectToWorldKHR, true, false),
        R::WorldToObject3x4 => (Op::RayQueryGetIntersectionWorldToObjectKHR, true, true),
        R::WorldToObject4x3 => (Op::RayQueryGetIntersectionWorldToObjectKHR, true, false),
        R::TriangleBarycentrics => (Op::RayQueryGetIntersectionBarycentricsKHR, true, false),
        R::TriangleFrontFace => (Op::RayQueryGetIntersectionFrontFaceKHR, true, false),
    }
}

impl Writer<'_> {
    /// The extension and its capability.
    pub(super) fn require_ray_query(&mut self) {
        self.capability(Capability::RayQueryKHR);
        self.extensions.insert("SPV_KHR_ray_query");
    }

    /// A `RayQuery` method.
    pub(super) fn ray_query_intrinsic(
        &mut self,
        e: Handle<Expression>,
        fun: I,
        args: &[Handle<Expression>],
    ) -> Result<Word> {
        self.require_ray_query();
        let query = self.query_pointer(args[0])?;
        if let Some((read, committed)) = fun.ray_query_read() {
            let (op, intersection, transposed) = getter(read);
            let ty = self.expr_ty(e)?;
            let ty = self.ty(ty, Layout::Plain)?;
            let mut ids = vec![query];
            if intersection {
                ids.push(self.uint(u32::from(committed)));
            }
            if read == R::ProceduralNonOpaque {
                // The instruction says whether the candidate is opaque.
                let opaque = self.op(op, ty, &ids)?;
                return self.op(Op::LogicalNot, ty, &[opaque]);
            }
            if transposed {
                let declared = self.numeric(ir::Scalar::F32, 3, 4, Layout::Plain);
                let m = self.op(op, declared, &ids)?;
                return self.op(Op::Transpose, ty, &[m]);
            }
            return self.op(op, ty, &ids);
        }
        match fun {
            I::RayQueryTraceRayInline => {
                let mut ids = vec![query];
                for &a in &args[1..4] {
                    ids.push(self.value(a)?);
                }
                ids.extend(self.ray_fields(args[4])?);
                self.op_ids(Op::RayQueryInitializeKHR, &ids)?;
                Ok(0)
            }
            I::RayQueryProceed => {
                let ty = self.bool_type(0);
                self.op(Op::RayQueryProceedKHR, ty, &[query])
            }
            I::RayQueryAbort => {
                self.op_ids(Op::RayQueryTerminateKHR, &[query])?;
                Ok(0)
            }
            I::RayQueryCommitNonOpaqueTriangleHit => {
                self.op_ids(Op::RayQueryConfirmIntersectionKHR, &[query])?;
                Ok(0)
            }
            _ => {
                let t = self.value(args[1])?;
                self.op_ids(Op::RayQueryGenerateIntersectionKHR, &[query, t])?;
                Ok(0)
            }
        }
    }

    /// The variable holding a ray query: the variable an expression names,
    /// or a fresh one holding its value.
    pub(super) fn query_pointer(&mut self, e: Handle<Expression>) -> Result<Word> {
        if let Place::Mem(p) = self.place(e)? {
            return self.materialize(&p);
        }
        let value = self.value(e)?;
        let ty = self.expr_ty(e)?;
        let ty = self.ty(ty, Layout::Plain)?;
        let var = self.function_var(ty, None)?;
        self.op_ids(Op::Store, &[var, value])?;
        Ok(var)
    }
}
