//! Ray tracing in SPIR-V (`SPV_KHR_ray_tracing`, SPIR-V 1.4 and later):
//! the ray intrinsics as builtin inputs declared on first use (the
//! system-value table's `ray_builtin` rows: `DispatchRaysIndex()` loads
//! `LaunchIdKHR`) and as instructions
//! (`OpTraceRayKHR`, `OpExecuteCallableKHR`, `OpReportIntersectionKHR`,
//! `OpConvertUToAccelerationStructureKHR`, and the terminators
//! `OpIgnoreIntersectionKHR` and `OpTerminateRayKHR`),
//! and the storage classes of payloads, callable data and hit attributes.

use legalis_ir as ir;
use legalis_ir::{Expression, Handle, Intrinsic as I};
use rspirv::dr::Operand;
use spirv::{BuiltIn, Op, StorageClass, Word};
use std::str::FromStr as _;

use super::expr::Place;
use super::writer::{Layout, Result, Writer, unsupported};

/// The SPIR-V builtin a ray intrinsic reads, from the system-value table
/// (`legalis_sysval::ray_builtin`), with its debug name and whether it is
/// declared 4×3 and read transposed (HLSL's `float3x4`); `None` for
/// every intrinsic that reads none.
fn builtin(fun: I) -> Option<(BuiltIn, &'static str, bool)> {
    let row = legalis_sysval::ray_builtin(fun)?;
    let value = BuiltIn::from_str(row.spirv_builtin).ok()?;
    Some((value, row.glsl_name, row.transposed))
}

/// The storage class of ray-tracing storage.
pub(super) fn storage_class(storage: ir::RayStorage) -> StorageClass {
    match storage {
        ir::RayStorage::RayPayload => StorageClass::RayPayloadKHR,
        ir::RayStorage::IncomingRayPayload => StorageClass::IncomingRayPayloadKHR,
        ir::RayStorage::CallableData => StorageClass::CallableDataKHR,
        ir::RayStorage::IncomingCallableData => StorageClass::IncomingCallableDataKHR,
        ir::RayStorage::HitAttribute => StorageClass::HitAttributeKHR,
    }
}

impl Writer<'_> {
    /// Ray tracing needs its capability, its extension and SPIR-V 1.4.
    pub(super) fn require_ray_tracing(&mut self) {
        self.capability(spirv::Capability::RayTracingKHR);
        self.extensions.insert("SPV_KHR_ray_tracing");
        self.require_version(1, 4);
    }

    /// The ray-tracing execution model `model`, with what it requires.
    pub(super) fn ray_tracing(&mut self, model: spirv::ExecutionModel) -> spirv::ExecutionModel {
        self.require_ray_tracing();
        model
    }

    /// A ray intrinsic; `None` for every other intrinsic.
    pub(super) fn ray_intrinsic(
        &mut self,
        e: Handle<Expression>,
        fun: I,
        args: &[Handle<Expression>],
    ) -> Result<Option<Word>> {
        if fun == I::AccelerationStructureFromAddress {
            // `OpConvertUToAccelerationStructureKHR` of the 64-bit address.
            if let Some(cap @ ir::HandleCapability::DescriptorHeapExt) =
                self.options.handle_capability
            {
                return unsupported(super::io::handle_capability_refusal(cap), self.span(e));
            }
            let ty = self.expr_ty(e)?;
            let ty = self.ty(ty, Layout::Plain)?;
            let address = self.value(args[0])?;
            return self
                .op(Op::ConvertUToAccelerationStructureKHR, ty, &[address])
                .map(Some);
        }
        let ray_call = fun.is_ray_call();
        let read = builtin(fun);
        if read.is_none() && !ray_call {
            return Ok(None);
        }
        let span = self.span(e);
        if !self.entry.stage.is_ray_tracing() {
            return unsupported(
                format!("`{}` outside ray-tracing shaders", fun.name()),
                span,
            );
        }
        self.require_ray_tracing();
        if matches!(fun, I::TraceMotionRay | I::RayCurrentTime) {
            self.capability(spirv::Capability::RayTracingMotionBlurNV);
            self.extensions.insert("SPV_NV_ray_tracing_motion_blur");
        }
        if let Some((value, name, transposed)) = read {
            let ty = self.expr_ty(e)?;
            let ty = self.ty(ty, Layout::Plain)?;
            let declared = match transposed {
                true => self.numeric(ir::Scalar::F32, 3, 4, Layout::Plain),
                false => ty,
            };
            let var = self.ray_builtin(value, name, declared);
            let v = self.op(Op::Load, declared, &[var])?;
            return Ok(Some(match transposed {
                true => self.op(Op::Transpose, ty, &[v])?,
                false => v,
            }));
        }
        match fun {
            I::IgnoreHit => self.b.ignore_intersection_khr()?,
            I::AcceptHitAndEndSearch => self.b.terminate_ray_khr()?,
            I::ReportHit => {
                let t = self.value(args[0])?;
                let kind = self.value(args[1])?;
                let ty = self.expr_ty(e)?;
                let ty = self.ty(ty, Layout::Plain)?;
                return Ok(Some(self.b.report_intersection_khr(ty, t, kind)?));
            }
            I::CallShader => {
                let index = self.value(args[0])?;
                let data = self.ray_variable(args[1])?;
                self.b.execute_callable_khr(index, data)?;
            }
            _ => {
                let mut v = Vec::new();
                for &a in &args[..6] {
                    v.push(self.value(a)?);
                }
                let ray = self.value(args[6])?;
                let float = self.numeric(ir::Scalar::F32, 0, 0, Layout::Plain);
                let float3 = self.numeric(ir::Scalar::F32, 3, 0, Layout::Plain);
                let origin = self.extract(float3, ray, &[0])?;
                let tmin = self.extract(float, ray, &[1])?;
                let direction = self.extract(float3, ray, &[2])?;
                let tmax = self.extract(float, ray, &[3])?;
                if fun == I::TraceMotionRay {
                    // `OpTraceRayMotionNV`: the time between the ray and
                    // the payload.
                    let time = self.value(args[7])?;
                    let payload = self.ray_variable(args[8])?;
                    let ops = [
                        v[0], v[1], v[2], v[3], v[4], v[5], origin, tmin, direction, tmax, time,
                        payload,
                    ];
                    self.op_with(
                        Op::TraceRayMotionNV,
                        None,
                        ops.into_iter().map(Operand::IdRef).collect(),
                    )?;
                } else {
                    let payload = self.ray_variable(args[7])?;
                    self.b.trace_ray_khr([
                        v[0], v[1], v[2], v[3], v[4], v[5], origin, tmin, direction, tmax, payload,
                    ])?;
                }
            }
        }
        Ok(Some(0))
    }

    /// The variable a `TraceRay`/`CallShader` call passes.
    fn ray_variable(&mut self, arg: Handle<Expression>) -> Result<Word> {
        match self.place(arg)? {
            Place::Mem(p) => self.materialize(&p),
            _ => unsupported(
                "a ray-tracing call whose payload is not a variable",
                self.span(arg),
            ),
        }
    }

    /// The builtin input `value`, declared on first use.
    fn ray_builtin(&mut self, value: BuiltIn, name: &'static str, ty: Word) -> Word {
        if let Some(&var) = self.extra_builtins.get(name) {
            return var;
        }
        let ptr = self.pointer(ty, StorageClass::Input);
        let id = self.b.variable(ptr, None, StorageClass::Input, None);
        self.decorate(id, spirv::Decoration::BuiltIn, [Operand::BuiltIn(value)]);
        if self.options.debug_names {
            self.b.name(id, name);
        }
        self.used_vars.push((id, StorageClass::Input));
        self.extra_builtins.insert(name, id);
        id
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ray_row_names_a_spirv_builtin() {
        for &fun in I::ALL {
            if let Some(row) = legalis_sysval::ray_builtin(fun) {
                assert!(builtin(fun).is_some(), "{fun:?}: {}", row.spirv_builtin);
            }
        }
        assert_eq!(
            builtin(I::DispatchRaysIndex),
            Some((BuiltIn::LaunchIdKHR, "gl_LaunchIDEXT", false))
        );
    }
}
