//! Shader execution reordering in SPIR-V (`SPV_NV_shader_invocation_reorder`,
//! capability `ShaderInvocationReorderNV`, SPIR-V 1.5 as the reference
//! writes it): a `HitObject` is an `OpTypeHitObjectNV` in a function
//! variable; every instruction takes the variable. `HitObject::TraceRay`,
//! `MakeHit`, `MakeMiss` and `MakeNop` record into a fresh variable
//! (`OpHitObjectTraceRayNV`, `OpHitObjectRecordHitNV` or, with a record
//! index, `OpHitObjectRecordHitWithIndexNV` after the attributes are
//! stored into their `HitObjectAttributeNV` variable,
//! `OpHitObjectRecordMissNV`, `OpHitObjectRecordEmptyNV`) whose value is
//! then loaded; a method reads
//! the variable of its object (`OpHitObjectIsHitNV` ...); `GetAttributes<T>`
//! copies the attributes into a `HitObjectAttributeNV` variable of type `T`
//! (one per type, at locations 0, 1 ...) and loads it; `Invoke` is
//! `OpHitObjectExecuteShaderNV` with the call's payload variable, and
//! `ReorderThread` `OpReorderThreadWithHintNV` or
//! `OpReorderThreadWithHitObjectNV`.

use legalis_ir as ir;
use legalis_ir::{Expression, Handle, Intrinsic as I, TypeInner};
use rspirv::dr::Operand;
use spirv::{Capability, Op, StorageClass, Word};

use super::expr::Place;
use super::writer::{Layout, Result, Writer, unsupported};

/// Interface names of the hit-object attribute variables, one per
/// attribute type (the extra-builtin table keys them by name).
const ATTRIBUTE_NAMES: [&str; 4] = [
    "hitObjectAttributeNV_0",
    "hitObjectAttributeNV_1",
    "hitObjectAttributeNV_2",
    "hitObjectAttributeNV_3",
];

/// The getter instruction of a `HitObject` method that returns a value.
fn getter(fun: I) -> Option<Op> {
    Some(match fun {
        I::HitObjectIsHit => Op::HitObjectIsHitNV,
        I::HitObjectIsMiss => Op::HitObjectIsMissNV,
        I::HitObjectIsNop => Op::HitObjectIsEmptyNV,
        I::HitObjectGetRayTMin => Op::HitObjectGetRayTMinNV,
        I::HitObjectGetRayTCurrent => Op::HitObjectGetRayTMaxNV,
        I::HitObjectGetWorldRayOrigin => Op::HitObjectGetWorldRayOriginNV,
        I::HitObjectGetWorldRayDirection => Op::HitObjectGetWorldRayDirectionNV,
        I::HitObjectGetObjectRayOrigin => Op::HitObjectGetObjectRayOriginNV,
        I::HitObjectGetObjectRayDirection => Op::HitObjectGetObjectRayDirectionNV,
        I::HitObjectGetObjectToWorld => Op::HitObjectGetObjectToWorldNV,
        I::HitObjectGetWorldToObject => Op::HitObjectGetWorldToObjectNV,
        I::HitObjectGetInstanceIndex => Op::HitObjectGetInstanceIdNV,
        I::HitObjectGetInstanceId => Op::HitObjectGetInstanceCustomIndexNV,
        I::HitObjectGetGeometryIndex => Op::HitObjectGetGeometryIndexNV,
        I::HitObjectGetPrimitiveIndex => Op::HitObjectGetPrimitiveIndexNV,
        I::HitObjectGetHitKind => Op::HitObjectGetHitKindNV,
        I::HitObjectGetShaderTableIndex => Op::HitObjectGetShaderBindingTableRecordIndexNV,
        I::HitObjectGetCurrentTime => Op::HitObjectGetCurrentTimeNV,
        _ => return None,
    })
}

impl Writer<'_> {
    /// The extension and its capability. The extension's instructions
    /// name physical-storage-buffer pointers: SPIR-V 1.5, where they are
    /// core, unless a profile asked for 1.4, which then declares
    /// `SPV_KHR_physical_storage_buffer` (as the reference does).
    pub(super) fn require_hit_object(&mut self) {
        self.require_ray_tracing();
        self.capability(Capability::ShaderInvocationReorderNV);
        self.extensions.insert("SPV_NV_shader_invocation_reorder");
        if self.options.min_version < (1, 4) {
            self.require_version(1, 5);
        }
        self.extensions.insert("SPV_KHR_physical_storage_buffer");
    }

    /// A `HitObject` function, method or `ReorderThread`.
    pub(super) fn hit_object_intrinsic(
        &mut self,
        e: Handle<Expression>,
        fun: I,
        args: &[Handle<Expression>],
    ) -> Result<Word> {
        self.require_hit_object();
        let span = self.span(e);
        if self.entry.stage != ir::ShaderStage::RayGeneration
            && !matches!(
                self.entry.stage,
                ir::ShaderStage::ClosestHit | ir::ShaderStage::Miss
            )
        {
            return unsupported(
                format!(
                    "`{}` outside ray-generation, closest-hit and miss shaders",
                    fun.name()
                ),
                span,
            );
        }
        if let Some(op) = getter(fun) {
            let hit = self.hit_pointer(args[0])?;
            let ty = self.expr_ty(e)?;
            let ty = self.ty(ty, Layout::Plain)?;
            return self.op(op, ty, &[hit]);
        }
        match fun {
            I::HitObjectGetSpherePositionAndRadius
            | I::HitObjectGetLssPositionsAndRadii
            | I::HitObjectIsSphereHit
            | I::HitObjectIsLssHit => {
                unsupported(format!("the intrinsic `HitObject.{}`", fun.name()), span)
            }
            I::HitObjectTraceRay
            | I::HitObjectMakeMiss
            | I::HitObjectMakeNop
            | I::HitObjectMakeHit => {
                let ty = self.expr_ty(e)?;
                let ty = self.ty(ty, Layout::Plain)?;
                let var = self.function_var(ty, None)?;
                self.record(fun, var, args)?;
                self.op(Op::Load, ty, &[var])
            }
            I::HitObjectInvoke => {
                let n = args.len();
                let hit = self.hit_pointer(args[n - 2])?;
                let payload = self.payload_variable(args[n - 1])?;
                self.op_ids(Op::HitObjectExecuteShaderNV, &[hit, payload])?;
                Ok(0)
            }
            I::ReorderThread => {
                let first_is_hit = args
                    .first()
                    .and_then(|&a| self.fs.exprs.ty(a))
                    .is_some_and(|t| matches!(self.inner(t), TypeInner::HitObject));
                let mut ids = Vec::new();
                if first_is_hit {
                    ids.push(self.hit_pointer(args[0])?);
                    for &a in &args[1..] {
                        ids.push(self.value(a)?);
                    }
                    self.op_ids(Op::ReorderThreadWithHitObjectNV, &ids)?;
                } else {
                    for &a in args {
                        ids.push(self.value(a)?);
                    }
                    self.op_ids(Op::ReorderThreadWithHintNV, &ids)?;
                }
                Ok(0)
            }
            I::HitObjectGetRayDesc => {
                // The four fields, each by its own instruction.
                let hit = self.hit_pointer(args[0])?;
                let float = self.numeric(ir::Scalar::F32, 0, 0, Layout::Plain);
                let float3 = self.numeric(ir::Scalar::F32, 3, 0, Layout::Plain);
                let origin = self.op(Op::HitObjectGetWorldRayOriginNV, float3, &[hit])?;
                let tmin = self.op(Op::HitObjectGetRayTMinNV, float, &[hit])?;
                let direction = self.op(Op::HitObjectGetWorldRayDirectionNV, float3, &[hit])?;
                let tmax = self.op(Op::HitObjectGetRayTMaxNV, float, &[hit])?;
                let ty = self.expr_ty(e)?;
                let ty = self.ty(ty, Layout::Plain)?;
                self.op(Op::CompositeConstruct, ty, &[origin, tmin, direction, tmax])
            }
            I::HitObjectGetAttributes => {
                let hit = self.hit_pointer(args[0])?;
                let ty = self.expr_ty(e)?;
                let var = self.attribute_variable(ty, span)?;
                self.op_ids(Op::HitObjectGetAttributesNV, &[hit, var])?;
                let ty_id = self.ty(ty, Layout::Plain)?;
                self.op(Op::Load, ty_id, &[var])
            }
            _ => unsupported(format!("`{}` in SPIR-V", fun.name()), span),
        }
    }

    /// Records `fun`'s hit object into the variable `var`.
    fn record(&mut self, fun: I, var: Word, args: &[Handle<Expression>]) -> Result<()> {
        match fun {
            I::HitObjectTraceRay => {
                let mut ids = vec![var];
                for &a in &args[..6] {
                    ids.push(self.value(a)?);
                }
                ids.extend(self.ray_fields(args[6])?);
                ids.push(self.payload_variable(args[7])?);
                self.op_ids(Op::HitObjectTraceRayNV, &ids)
            }
            I::HitObjectMakeMiss => {
                let mut ids = vec![var, self.value(args[0])?];
                ids.extend(self.ray_fields(args[1])?);
                self.op_ids(Op::HitObjectRecordMissNV, &ids)
            }
            // The attributes are stored into the type's
            // `HitObjectAttributeNV` variable, which the instruction
            // names; instance, primitive and geometry in that order.
            I::HitObjectMakeHit => {
                let n = args.len();
                let attributes = args[n - 1];
                let ty = self.expr_ty(attributes)?;
                let span = self.span(attributes);
                let attr_var = self.attribute_variable(ty, span)?;
                let value = self.value(attributes)?;
                self.op_ids(Op::Store, &[attr_var, value])?;
                let first = usize::from(n == 8);
                let mut v = Vec::new();
                for &x in &args[..n - 2] {
                    v.push(self.value(x)?);
                }
                let mut ids = vec![
                    var,
                    v[first],
                    v[first + 1],
                    v[first + 3],
                    v[first + 2],
                    v[first + 4],
                ];
                let op = if n == 8 {
                    ids.push(v[0]);
                    Op::HitObjectRecordHitWithIndexNV
                } else {
                    ids.extend([v[5], v[6]]);
                    Op::HitObjectRecordHitNV
                };
                ids.extend(self.ray_fields(args[n - 2])?);
                ids.push(attr_var);
                self.op_ids(op, &ids)
            }
            _ => self.op_ids(Op::HitObjectRecordEmptyNV, &[var]),
        }
    }

    /// Origin, TMin, Direction, TMax of a `RayDesc` value.
    pub(super) fn ray_fields(&mut self, ray: Handle<Expression>) -> Result<[Word; 4]> {
        let value = self.value(ray)?;
        let float = self.numeric(ir::Scalar::F32, 0, 0, Layout::Plain);
        let float3 = self.numeric(ir::Scalar::F32, 3, 0, Layout::Plain);
        Ok([
            self.extract(float3, value, &[0])?,
            self.extract(float, value, &[1])?,
            self.extract(float3, value, &[2])?,
            self.extract(float, value, &[3])?,
        ])
    }

    /// The variable holding a hit object: the variable an expression
    /// names, or a fresh one holding its value.
    fn hit_pointer(&mut self, e: Handle<Expression>) -> Result<Word> {
        if matches!(
            self.fs.exprs[e],
            Expression::Local(_) | Expression::Param(_) | Expression::Member { .. }
        ) && let Place::Mem(p) = self.place(e)?
        {
            return self.materialize(&p);
        }
        let value = self.value(e)?;
        let ty = self.expr_ty(e)?;
        let ty = self.ty(ty, Layout::Plain)?;
        let var = self.function_var(ty, None)?;
        self.op_ids(Op::Store, &[var, value])?;
        Ok(var)
    }

    /// The payload variable the legalizer put in the call.
    fn payload_variable(&mut self, arg: Handle<Expression>) -> Result<Word> {
        match self.place(arg)? {
            Place::Mem(p) if p.class == StorageClass::RayPayloadKHR => self.materialize(&p),
            _ => unsupported(
                "a hit-object call whose payload is not a ray-payload variable",
                self.span(arg),
            ),
        }
    }

    /// The `HitObjectAttributeNV` variable of attribute type `ty`,
    /// declared on first use.
    fn attribute_variable(&mut self, ty: Handle<ir::Type>, span: ir::Span) -> Result<Word> {
        let index = match self.hit_attributes.iter().position(|&(t, _)| t == ty) {
            Some(i) => {
                // Marks the variable as used by this function.
                self.extra_builtins.get(ATTRIBUTE_NAMES[i]);
                return Ok(self.hit_attributes[i].1);
            }
            None => self.hit_attributes.len(),
        };
        let Some(&name) = ATTRIBUTE_NAMES.get(index) else {
            return unsupported(
                format!(
                    "`GetAttributes` of more than {} attribute types in one module",
                    ATTRIBUTE_NAMES.len()
                ),
                span,
            );
        };
        let ty_id = self.ty(ty, Layout::Plain)?;
        let ptr = self.pointer(ty_id, StorageClass::HitObjectAttributeNV);
        let id = self
            .b
            .variable(ptr, None, StorageClass::HitObjectAttributeNV, None);
        self.decorate(
            id,
            spirv::Decoration::Location,
            [Operand::LiteralBit32(index as u32)],
        );
        if self.options.debug_names {
            self.b.name(id, name);
        }
        self.used_vars
            .push((id, StorageClass::HitObjectAttributeNV));
        self.extra_builtins.insert(name, id);
        self.hit_attributes.push((ty, id));
        Ok(id)
    }

    /// An instruction without a result, of id operands.
    pub(super) fn op_ids(&mut self, op: Op, ids: &[Word]) -> Result<()> {
        self.op_with(op, None, ids.iter().map(|&i| Operand::IdRef(i)).collect())?;
        Ok(())
    }
}
