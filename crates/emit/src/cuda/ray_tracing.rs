//! The OptiX side of the CUDA writer: the program function around the
//! entry point's own (renamed `<entry>_body`), and the calls that move a
//! payload or attributes. Every packing and unpacking goes through the one
//! layout function of `legalis_layout::optix` (B17,
//! B18): the hit and miss programs read their payload registers at entry
//! and write them at exit and before `IgnoreHit`/`AcceptHitAndEndSearch`
//! (in a function the any-hit program calls, from the payload passed on
//! to it as `lg_payload`, `Writer::payload_threaded`);
//! a `TraceRay` caller packs into locals, passes them to `optixTrace` and
//! unpacks after; a payload over 32 registers travels as its address in
//! two registers instead; hit programs read one attribute slot per
//! scalar, and `ReportHit` passes the same slots to
//! `optixReportIntersection`.

use legalis_ir as ir;
use legalis_ir::{Expression, Handle, ShaderStage as S, Span, TypeInner};
use legalis_layout::optix::{self as layout, Access, Field, Layout, Passing};

use super::expr::FnCtx;
use super::types::{self, Result, unsupported};
use super::writer::Writer;
use crate::cfamily::Call;
use crate::cfamily::expr::is_pure;
use crate::cfamily::prelude::*;

/// How the packing code names register `k`: reads and writes.
enum Registers {
    /// `optixGetPayload_k()` / `optixSetPayload_k(v)`.
    Payload,
    /// The locals of a `TraceRay` call, one per register.
    Locals(Vec<String>),
}

impl Registers {
    fn read(&self, k: u32) -> String {
        match self {
            Registers::Payload => format!("optixGetPayload_{k}()"),
            Registers::Locals(names) => names[k as usize].clone(),
        }
    }

    fn write(&self, k: u32, value: &str) -> String {
        match self {
            Registers::Payload => format!("optixSetPayload_{k}({value});"),
            Registers::Locals(names) => format!("{} = {value};", names[k as usize]),
        }
    }
}

impl Writer<'_> {
    /// The layout of a payload of type `ty`.
    fn payload_layout(&self, ty: ir::Handle<ir::Type>, span: Span) -> Result<Layout> {
        layout::payload(self.module, ty)
            .or_else(|e| unsupported(format!("a payload holding {}", e.what), span))
    }

    pub(super) fn attribute_layout(&self, ty: ir::Handle<ir::Type>, span: Span) -> Result<Layout> {
        let l = layout::attributes(self.module, ty)
            .or_else(|e| unsupported(format!("hit attributes holding {}", e.what), span))?;
        if l.registers > layout::MAX_ATTRIBUTE_SLOTS {
            return Err(super::Error::NotLegalized {
                what: format!("hit attributes of {} slots", l.registers),
                span,
            });
        }
        Ok(l)
    }

    /// `base.member[2].x` of a field.
    pub(super) fn field_place(
        &self,
        base: &str,
        mut ty: ir::Handle<ir::Type>,
        field: &Field,
        span: Span,
    ) -> Result<String> {
        let mut text = base.to_string();
        for access in &field.path {
            match (*access, &self.module.types[ty].inner) {
                (Access::Member(i), TypeInner::Struct { members }) => {
                    let names =
                        self.names
                            .members
                            .get(&ty)
                            .ok_or_else(|| super::Error::NotLegalized {
                                what: "a payload struct the writer did not name".into(),
                                span,
                            })?;
                    text = format!("{text}.{}", names[i as usize]);
                    ty = members[i as usize].ty;
                }
                (Access::Component(c), _) => {
                    text = format!("{text}.{}", ['x', 'y', 'z', 'w'][c as usize & 3])
                }
                (Access::Row(r), _) => text = format!("{text}[{r}]"),
                (Access::Element(i), TypeInner::Array { base, .. }) => {
                    text = format!("{text}[{i}]");
                    ty = *base;
                }
                _ => {
                    return Err(super::Error::NotLegalized {
                        what: "a layout path that does not fit its type".into(),
                        span,
                    });
                }
            }
        }
        Ok(text)
    }

    /// Reads every field of `value` from the registers (B17).
    fn unpack(
        &self,
        l: &Layout,
        value: &str,
        ty: ir::Handle<ir::Type>,
        regs: &Registers,
        span: Span,
    ) -> Result<Vec<String>> {
        let mut lines = Vec::new();
        for field in &l.fields {
            let place = self.field_place(value, ty, field, span)?;
            let s = types::scalar(field.scalar, span)?;
            let read = regs.read(field.register);
            let bits = match field.bits {
                64 => {
                    let low = regs.read(field.register + 1);
                    lines.push(format!(
                        "{place} = lg::from_bits64<{s}>(lg::join_words({read}, {low}));"
                    ));
                    continue;
                }
                32 => read,
                _ => format!(
                    "lg::extract_bits({read}, {}u, 0x{:X}u)",
                    field.shift,
                    field.mask()
                ),
            };
            lines.push(format!("{place} = lg::from_bits32<{s}>({bits});"));
        }
        Ok(lines)
    }

    /// Writes every field of `value` into the registers; a sub-word field
    /// is a read-modify-write that keeps its neighbours (B17).
    fn pack(
        &self,
        l: &Layout,
        value: &str,
        ty: ir::Handle<ir::Type>,
        regs: &Registers,
        span: Span,
    ) -> Result<Vec<String>> {
        let mut lines = Vec::new();
        for field in &l.fields {
            let place = self.field_place(value, ty, field, span)?;
            let k = field.register;
            match field.bits {
                64 => {
                    lines.push(regs.write(k, &format!("lg::high_word(lg::bits64({place}))")));
                    lines.push(regs.write(k + 1, &format!("lg::low_word(lg::bits64({place}))")));
                }
                32 => lines.push(regs.write(k, &format!("lg::bits32({place})"))),
                _ => {
                    let merged = format!(
                        "lg::insert_bits({}, lg::bits32({place}), {}u, 0x{:X}u)",
                        regs.read(k),
                        field.shift,
                        field.mask()
                    );
                    lines.push(regs.write(k, &merged));
                }
            }
        }
        Ok(lines)
    }

    /// The entry point's payload parameter: its index, type and layout.
    fn entry_payload(&self) -> Result<Option<(usize, ir::Handle<ir::Type>, Layout)>> {
        if !matches!(self.entry.stage, S::AnyHit | S::ClosestHit | S::Miss) {
            return Ok(None);
        }
        let func = self.entry_function();
        for (i, p) in func.params.iter().enumerate() {
            if p.direction != ir::ParamDirection::In {
                return Ok(Some((i, p.ty, self.payload_layout(p.ty, p.span)?)));
            }
        }
        Ok(None)
    }

    /// The lines before `IgnoreHit`/`AcceptHitAndEndSearch`: the payload
    /// written back to its registers (B17), then the call.
    pub(super) fn hit_control(
        &self,
        ctx: &mut FnCtx,
        call: &str,
        span: Span,
    ) -> Result<Vec<String>> {
        if self.entry.stage != S::AnyHit {
            return unsupported(
                "`IgnoreHit`/`AcceptHitAndEndSearch` outside an any-hit program",
                span,
            );
        }
        let mut lines = Vec::new();
        if let Some((_, ty, l)) = self.entry_payload()?
            && matches!(l.passing(), Passing::Registers(_))
        {
            let name = self.payload_argument(ctx, span)?;
            lines.extend(self.pack(&l, &name, ty, &Registers::Payload, span)?);
        }
        lines.push(call.to_string());
        Ok(lines)
    }

    /// The any-hit payload in the function being written: the entry
    /// function's payload parameter, or the `lg_payload` parameter of a
    /// function in [`Writer::payload_threaded`].
    pub(super) fn payload_argument(&self, ctx: &FnCtx, span: Span) -> Result<String> {
        if self.entry.stage != S::AnyHit {
            return unsupported(
                "`IgnoreHit`/`AcceptHitAndEndSearch` outside an any-hit program",
                span,
            );
        }
        if !ctx.is_entry {
            return Ok(super::writer::PAYLOAD_PARAM.to_string());
        }
        match self.entry_payload()? {
            Some((index, _, _)) => Ok(ctx.param_names[index].clone()),
            None => Err(super::Error::NotLegalized {
                what: "an any-hit program without a payload".into(),
                span,
            }),
        }
    }

    /// `TraceRay(scene, flags, mask, offset, stride, miss, ray, payload)`
    /// as `optixTrace` with the payload packed into locals before and
    /// unpacked after; `HitObject::TraceRay` the same as `optixTraverse`.
    pub(super) fn trace_ray(&self, ctx: &mut FnCtx, call: Call<'_>) -> Result<Vec<String>> {
        let Call { args, span, .. } = call;
        self.trace_with("optixTrace", ctx, args, span)
    }

    pub(super) fn trace_with(
        &self,
        callee: &str,
        ctx: &mut FnCtx,
        args: &[Handle<Expression>],
        span: Span,
    ) -> Result<Vec<String>> {
        if args.len() != 8 {
            return unsupported("`TraceRay` without its eight arguments", span);
        }
        let a = self.args(ctx, &args[..6])?;
        let (ray_ty, ray, member) = self.ray_members(ctx, args[6], span)?;
        let ray_name = ctx.temp("ray");
        let declare = format!("const {} {ray_name} = {ray};", self.spell(ray_ty, span)?);
        let (origin, direction) = (member("Origin")?, member("Direction")?);
        let (tmin, tmax) = (member("TMin")?, member("TMax")?);
        self.payload_call(ctx, args[7], vec![declare], span, |list| {
            format!(
                "{callee}({}, lg::cuda_float3({ray_name}.{origin}), lg::cuda_float3({ray_name}.{direction}), {ray_name}.{tmin}, {ray_name}.{tmax}, 0.0f, OptixVisibilityMask({}), {}, {}, {}, {}{list});",
                a[0], a[2], a[1], a[3], a[4], a[5],
            )
        })
    }

    /// A `RayDesc` argument: its type, its text, and the member names.
    #[allow(clippy::type_complexity)]
    pub(super) fn ray_members(
        &self,
        ctx: &mut FnCtx,
        arg: Handle<Expression>,
        span: Span,
    ) -> Result<(
        ir::Handle<ir::Type>,
        String,
        impl Fn(&str) -> Result<String> + '_,
    )> {
        let ray_ty = ctx.ty(arg).ok_or_else(|| super::Error::NotLegalized {
            what: "an untyped ray".into(),
            span,
        })?;
        let ray = self.expr(ctx, arg)?;
        let member = move |name: &str| -> Result<String> {
            let TypeInner::Struct { members } = &self.module.types[ray_ty].inner else {
                return unsupported("a ray that is not a `RayDesc`", span);
            };
            let i = members.iter().position(|m| m.name == name).ok_or_else(|| {
                super::Error::Unsupported {
                    what: format!("a `RayDesc` without `{name}`"),
                    span,
                }
            })?;
            Ok(self.names.members[&ray_ty][i].clone())
        };
        Ok((ray_ty, ray, member))
    }

    /// A call that passes the payload `payload` in registers: the payload
    /// packed into locals before `call(", p0, p1 ...")` and unpacked after
    /// (or its address in two registers), in a block after `before`.
    pub(super) fn payload_call(
        &self,
        ctx: &mut FnCtx,
        payload: Handle<Expression>,
        before: Vec<String>,
        span: Span,
        call: impl FnOnce(&str) -> String,
    ) -> Result<Vec<String>> {
        let payload_ty = ctx.ty(payload).ok_or_else(|| super::Error::NotLegalized {
            what: "an untyped payload".into(),
            span,
        })?;
        let payload = self.place(ctx, payload)?;
        let mut lines = vec!["{".to_string()];
        lines.extend(before.into_iter().map(|b| format!("    {b}")));
        let l = self.payload_layout(payload_ty, span)?;
        let count = l.register_count();
        let names: Vec<String> = (0..count)
            .map(|k| ctx.temp(&format!("payload{k}")))
            .collect();
        let mut body = Vec::new();
        match l.passing() {
            Passing::Pointer => {
                body.push(format!(
                    "uint32_t {} = lg::pointer_high(&{payload});",
                    names[0]
                ));
                body.push(format!(
                    "uint32_t {} = lg::pointer_low(&{payload});",
                    names[1]
                ));
            }
            Passing::Registers(_) => {
                for name in &names {
                    body.push(format!("uint32_t {name} = 0u;"));
                }
            }
        }
        let list: String = names.iter().map(|n| format!(", {n}")).collect();
        let regs = Registers::Locals(names);
        if matches!(l.passing(), Passing::Registers(_)) {
            body.extend(self.pack(&l, &payload, payload_ty, &regs, span)?);
        }
        body.push(call(&list));
        if matches!(l.passing(), Passing::Registers(_)) {
            body.extend(self.unpack(&l, &payload, payload_ty, &regs, span)?);
        }
        lines.extend(body.into_iter().map(|b| format!("    {b}")));
        lines.push("}".into());
        Ok(lines)
    }

    /// `CallShader(index, data)` as a direct callable taking the data's
    /// address.
    pub(super) fn call_shader(&self, ctx: &mut FnCtx, call: Call<'_>) -> Result<Vec<String>> {
        let Call { args, span, .. } = call;
        let [index, data] = args else {
            return unsupported("`CallShader` without its two arguments", span);
        };
        let ty = ctx.ty(*data).ok_or_else(|| super::Error::NotLegalized {
            what: "untyped callable data".into(),
            span,
        })?;
        let index = self.expr(ctx, *index)?;
        let place = self.place(ctx, *data)?;
        Ok(vec![format!(
            "optixDirectCall<void, {}*>({index}, &{place});",
            self.spell(ty, span)?
        )])
    }

    /// `ReportHit(t, kind, attributes)` as `optixReportIntersection` with
    /// one slot per scalar (B18).
    pub(super) fn report_hit(&self, ctx: &mut FnCtx, call: Call<'_>) -> Result<String> {
        let Call { args, span, .. } = call;
        let [t, kind, attributes] = args else {
            return unsupported("`ReportHit` without its three arguments", span);
        };
        if !is_pure(ctx.exprs, *attributes) {
            return unsupported("`ReportHit` of attributes computed in the call", span);
        }
        let ty = ctx
            .ty(*attributes)
            .ok_or_else(|| super::Error::NotLegalized {
                what: "untyped attributes".into(),
                span,
            })?;
        let l = self.attribute_layout(ty, span)?;
        let t = self.expr(ctx, *t)?;
        let kind = self.expr(ctx, *kind)?;
        let value = self.expr(ctx, *attributes)?;
        let mut slots = Vec::new();
        for field in &l.fields {
            let place = self.field_place(&value, ty, field, span)?;
            if field.bits == 64 {
                slots.push(format!("lg::high_word(lg::bits64({place}))"));
                slots.push(format!("lg::low_word(lg::bits64({place}))"));
            } else {
                slots.push(format!("lg::bits32({place})"));
            }
        }
        let slots: String = slots.iter().map(|s| format!(", {s}")).collect();
        Ok(format!("optixReportIntersection({t}, {kind}{slots})"))
    }

    /// The OptiX program: locals for the entry function's parameters, read
    /// from the payload registers and attribute slots, the call, and the
    /// payload written back.
    pub(super) fn program_function(&self) -> Result<String> {
        let func = self.entry_function();
        let stage = self.entry.stage;
        let program = self.program.clone().unwrap_or_default();
        let span = self.entry.span;
        let mut taken = self.module_names();
        let mut lines = Vec::new();
        let mut args = Vec::new();
        let mut epilogue = Vec::new();
        let mut signature = String::new();
        let payload = self.entry_payload()?;
        let record = match &self.record_struct {
            Some(record) => {
                let name = taken.call("record");
                lines.push(format!(
                    "const {record}& {name} = *reinterpret_cast<const {record}*>(optixGetSbtDataPointer());"
                ));
                Some((name, self.record_fields()?))
            }
            None => None,
        };
        for (i, p) in func.params.iter().enumerate() {
            if let Some(member) = self.uniform_params.iter().position(|&u| u == i)
                && let Some((record, fields)) = &record
            {
                // A `uniform` parameter: a member of the SBT record.
                args.push(format!("{record}.{}", fields[member].1));
                continue;
            }
            let name = taken.call(&p.name);
            let ty = self.spell(p.ty, p.span)?;
            match (stage, p.direction) {
                (S::Callable, _) => {
                    signature = format!("{ty}* {name}");
                    args.push(format!("*{name}"));
                }
                (S::AnyHit | S::ClosestHit, ir::ParamDirection::In) => {
                    let l = self.attribute_layout(p.ty, p.span)?;
                    lines.push(format!("{ty} {name};"));
                    for field in &l.fields {
                        let place = self.field_place(&name, p.ty, field, p.span)?;
                        let s = types::scalar(field.scalar, p.span)?;
                        let k = field.register;
                        lines.push(match (field.bits, field.scalar.kind) {
                            (64, _) => format!(
                                "{place} = lg::from_bits64<{s}>(lg::join_words(optixGetAttribute_{k}(), optixGetAttribute_{}()));",
                                k + 1
                            ),
                            (_, ir::ScalarKind::Float) if field.scalar.width == 4 => {
                                format!("{place} = __int_as_float(optixGetAttribute_{k}());")
                            }
                            (_, ir::ScalarKind::Float | ir::ScalarKind::Bool) => {
                                format!("{place} = lg::from_bits32<{s}>(optixGetAttribute_{k}());")
                            }
                            _ => format!("{place} = {s}(optixGetAttribute_{k}());"),
                        });
                    }
                    args.push(name);
                }
                _ => {
                    let Some((index, _, l)) = payload.as_ref().filter(|(index, _, _)| *index == i)
                    else {
                        return unsupported(
                            format!("the parameter `{}` of a {} program", p.name, stage.name()),
                            p.span,
                        );
                    };
                    let _ = index;
                    match l.passing() {
                        Passing::Pointer => lines.push(format!(
                            "{ty}& {name} = *lg::pointer_from<{ty}>(optixGetPayload_0(), optixGetPayload_1());"
                        )),
                        Passing::Registers(_) => {
                            lines.push(format!("{ty} {name};"));
                            lines.extend(self.unpack(l, &name, p.ty, &Registers::Payload, p.span)?);
                            epilogue.extend(self.pack(l, &name, p.ty, &Registers::Payload, p.span)?);
                        }
                    }
                    args.push(name);
                }
            }
        }
        args.extend(self.threaded_arguments(self.entry.function, "params."));
        let mut out = String::new();
        let qualifier = if stage == S::Callable {
            "__device__"
        } else {
            "__global__"
        };
        out.push_str(&format!(
            "extern \"C\" {qualifier} void {program}({signature})\n{{\n"
        ));
        let mut locals = String::new();
        self.entry_locals(&mut locals)?;
        out.push_str(&locals);
        for line in lines {
            out.push_str(&format!("    {line}\n"));
        }
        let body = &self.names.functions[&self.entry.function];
        out.push_str(&format!("    {body}({});\n", args.join(", ")));
        for line in epilogue {
            out.push_str(&format!("    {line}\n"));
        }
        out.push_str("}\n");
        let _ = span;
        Ok(out)
    }
}
