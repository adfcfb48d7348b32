//! The trace of the CUDA legalizer: kernel system values, and the OptiX
//! programs' payload registers and attribute slots.

use super::*;
use legalis_legalize::cuda::Plan;
use serde_json::json;

/// The trace of a CUDA/OptiX legalization. A kernel's leaves are its
/// compute ids, each the CUDA expression of its row of the system-value
/// table; an OptiX program's are the scalars of its payload (their
/// register, byte and width, a register pair for 64-bit ones, or the
/// pointer in registers 0-1 past 32 registers: B17) and of its hit
/// attributes (their slot: B18), then the scalars of the payloads its
/// `TraceRay` calls pack and of the attributes its `ReportHit` calls
/// pass. Every register and slot is the layout function's
/// (`legalis_layout::optix`), which the writer packs
/// with; `resources` is where the writer put each resource (`resources`
/// of `legalis_emit::cuda`, the list the kernel's signature and the
/// launch parameters are written from).
pub(crate) fn render(
    module: &ir::Module,
    plan: &Plan,
    resources: &[legalis_emit::cuda::Resource],
    format: TraceFormat,
) -> String {
    finish(&cuda_json(module, 0, plan, resources), format)
}

/// The traces of several OptiX programs written into one output: a JSON
/// array, or the text traces one after the other. The programs are the
/// entry points of `module` in order, each with its plan and resources.
pub(crate) fn render_entries(
    module: &ir::Module,
    plans: &[Plan],
    resources: &[Vec<legalis_emit::cuda::Resource>],
    format: TraceFormat,
) -> String {
    let values: Vec<Value> = plans
        .iter()
        .zip(resources)
        .enumerate()
        .map(|(k, (plan, resources))| cuda_json(module, k, plan, resources))
        .collect();
    finish_all(values, format)
}

/// [`render`]'s JSON value for entry point `k` of `module`.
fn cuda_json(
    module: &ir::Module,
    k: usize,
    plan: &Plan,
    resources: &[legalis_emit::cuda::Resource],
) -> Value {
    use legalis_layout::optix as layout;
    let entry = &module.entry_points[k];
    let function = legalis_emit::cuda::entry_point_name(&entry.name, entry.stage);
    let mut leaves = Vec::new();
    let mut optix = Value::Null;
    match plan {
        Plan::Kernel { leaves: ids, .. } => {
            for leaf in ids {
                let declared = ir::print::type_name(module, leaf.ty);
                let row = match legalis_sysval::cuda(leaf.value, entry.stage, Direction::Input) {
                    legalis_sysval::CudaMapping::BuiltIn(row) => Some(row),
                    legalis_sysval::CudaMapping::Unsupported { .. } => None,
                };
                let ty = row.map(|r| builtin_type_name(r.ty, false));
                let adapter = ty
                    .as_ref()
                    .filter(|ty| **ty != declared)
                    .map(|ty| format!("{ty} as {declared}"));
                let global = leaf.path.replace('.', "_");
                let root = format!("param {}", leaf.param);
                leaves.push(
                    CudaLeaf {
                        path: leaf.path.clone(),
                        direction: "in",
                        declared,
                        semantic: Some(leaf.value.name()),
                        place: json!({
                            "kind": "builtin",
                            "value": leaf.value.name(),
                            "glsl": null,
                            "spirv": null,
                            "cuda": leaf.expression,
                            "element": null,
                            "block": null,
                            "type": ty,
                        }),
                        global: &global,
                        reason: "table-row",
                        adapter,
                        root: &root,
                    }
                    .json(),
                );
            }
        }
        Plan::Program {
            stage,
            payload,
            attributes,
            traces,
            reports,
            ..
        } => {
            let func = &module.functions[entry.function];
            let param = |index: u32| func.params.get(index as usize);
            if let Some((index, l)) = payload
                && let Some(p) = param(*index)
            {
                if *stage == ir::ShaderStage::Callable {
                    leaves.push(callable_leaf(module, p, *index));
                } else {
                    leaves.extend(layout_leaves(
                        module,
                        p.ty,
                        l,
                        Held::Payload,
                        &p.name,
                        &p.name,
                        "inout",
                        &format!("param {index}"),
                    ));
                }
            }
            if let Some((index, l)) = attributes
                && let Some(p) = param(*index)
            {
                leaves.extend(layout_leaves(
                    module,
                    p.ty,
                    l,
                    Held::Attributes,
                    &p.name,
                    &p.name,
                    "in",
                    &format!("param {index}"),
                ));
            }
            for (ty, l) in traces {
                let name = ir::print::type_name(module, *ty);
                leaves.extend(layout_leaves(
                    module,
                    *ty,
                    l,
                    Held::Payload,
                    &format!("TraceRay({name})"),
                    &name,
                    "inout",
                    "trace-ray",
                ));
            }
            for (ty, l) in reports {
                let name = ir::print::type_name(module, *ty);
                leaves.extend(layout_leaves(
                    module,
                    *ty,
                    l,
                    Held::Attributes,
                    &format!("ReportHit({name})"),
                    &name,
                    "out",
                    "report-hit",
                ));
            }
            let passing = |l: &layout::Layout| match l.passing() {
                layout::Passing::Pointer => "pointer",
                layout::Passing::Registers(_) => "registers",
            };
            let payload_json = payload.as_ref().map(|(index, l)| match stage {
                ir::ShaderStage::Callable => json!({ "param": index, "passing": "callable-data" }),
                _ => json!({
                    "param": index,
                    "registers": l.registers,
                    "passing": passing(l),
                    "optix_registers": l.register_count(),
                }),
            });
            optix = json!({
                "program": function,
                "payload": payload_json,
                "attributes": attributes.as_ref().map(|(index, l)| json!({ "param": index, "slots": l.registers })),
                "trace_ray": traces.iter().map(|(ty, l)| json!({
                    "type": ir::print::type_name(module, *ty),
                    "registers": l.registers,
                    "passing": passing(l),
                    "optix_registers": l.register_count(),
                })).collect::<Vec<_>>(),
                "report_hit": reports.iter().map(|(ty, l)| json!({
                    "type": ir::print::type_name(module, *ty),
                    "slots": l.registers,
                })).collect::<Vec<_>>(),
            });
        }
    }
    let program = matches!(plan, Plan::Program { .. });
    let resources: Vec<Value> = resources
        .iter()
        .map(|r| {
            let holder = r.block.as_deref().unwrap_or(&r.name);
            let (place, access, why) = match &r.place {
                legalis_emit::cuda::ResourcePlace::KernelParameter(index)
                    if r.parameter.is_some() =>
                {
                    (
                        json!({ "kind": "kernel-parameter", "index": index, "cuda": r.declaration, "block": r.block }),
                        holder.to_string(),
                        "a kernel takes its uniform parameters as launch arguments, after its resources",
                    )
                }
                legalis_emit::cuda::ResourcePlace::KernelParameter(index) => (
                    json!({ "kind": "kernel-parameter", "index": index, "cuda": r.declaration, "block": r.block }),
                    holder.to_string(),
                    "a kernel takes its resources as parameters",
                ),
                legalis_emit::cuda::ResourcePlace::ShaderRecord { record, member } => (
                    json!({ "kind": "shader-record", "record": record, "member": member, "cuda": r.declaration }),
                    format!("(({record}*)optixGetSbtDataPointer())->{}", r.name),
                    "an OptiX program reads its uniform parameters from its shader-binding-table record",
                ),
                legalis_emit::cuda::ResourcePlace::LaunchParams => (
                    json!({ "kind": "launch-params", "cuda": r.declaration, "block": r.block }),
                    format!("params.{holder}"),
                    "an OptiX program reads its resources from the launch parameters",
                ),
            };
            let access = match &r.block {
                Some(_) => format!("{access}.{}", r.name),
                None => access,
            };
            json!({ "name": r.global, "place": place, "access": access, "why": why })
        })
        .collect();
    let value = json!({
        "schema": SCHEMA,
        "target": "cuda",
        "entry": entry.name,
        "stage": entry.stage.name(),
        "leaves": leaves,
        "synthesized": [],
        "patch_constant": null,
        "function": function,
        "resources": resources,
        "optix": if program { optix } else { Value::Null },
    });
    value
}

/// The leaf of a callable program's data: its address is the program's
/// parameter.
fn callable_leaf(module: &ir::Module, p: &ir::FunctionParam, index: u32) -> Value {
    let declared = ir::print::type_name(module, p.ty);
    let place = json!({ "kind": "callable-data", "cuda": format!("{declared}*") });
    CudaLeaf {
        path: p.name.clone(),
        direction: "inout",
        declared,
        semantic: None,
        place,
        global: &p.name,
        reason: "callable-data",
        adapter: None,
        root: &format!("param {index}"),
    }
    .json()
}

/// Where a layout's scalars travel: payload registers (B17) or attribute
/// slots (B18).
#[derive(Clone, Copy)]
enum Held {
    Payload,
    Attributes,
}

/// One leaf per scalar of a payload or of hit attributes, at the register
/// or slot the layout gives it.
#[allow(clippy::too_many_arguments)]
fn layout_leaves(
    module: &ir::Module,
    ty: ir::Handle<ir::Type>,
    l: &legalis_layout::optix::Layout,
    held: Held,
    base: &str,
    global: &str,
    direction: &str,
    root: &str,
) -> Vec<Value> {
    use legalis_layout::optix as layout;
    l.fields
        .iter()
        .map(|f| {
            let (place, reason, adapter) = match held {
                Held::Payload => payload_place(l, f),
                Held::Attributes => attribute_place(f),
            };
            CudaLeaf {
                path: format!("{base}{}", layout::path_text(module, ty, &f.path)),
                direction,
                declared: scalar_name(f.scalar),
                semantic: None,
                place,
                global,
                reason,
                adapter,
                root,
            }
            .json()
        })
        .collect()
}

/// A payload scalar's registers, layout rule and bit adapter (B17).
fn payload_place(
    l: &legalis_layout::optix::Layout,
    f: &legalis_layout::optix::Field,
) -> (Value, &'static str, Option<String>) {
    use legalis_layout::optix::Passing;
    let k = f.register;
    if l.passing() == Passing::Pointer {
        return (
            json!({ "kind": "payload-pointer", "registers": [0, 1], "cuda": "optixGetPayload_0..1" }),
            "payload-pointer",
            None,
        );
    }
    let (count, cuda, reason, adapter) = match f.bits {
        64 => (
            2,
            format!("optixGetPayload_{k}..{}", k + 1),
            "register-pair",
            Some("high word, low word".to_string()),
        ),
        32 => (
            1,
            format!("optixGetPayload_{k}"),
            "own-register",
            bit_cast(f.scalar),
        ),
        bits => (
            1,
            format!("optixGetPayload_{k}"),
            "sub-word",
            Some(format!(
                "bits {}..{}{}",
                f.shift,
                f.shift + bits - 1,
                bit_cast(f.scalar)
                    .map(|c| format!(", {c}"))
                    .unwrap_or_default()
            )),
        ),
    };
    let place = json!({
        "kind": "payload-register",
        "register": k,
        "count": count,
        "byte": f.byte(),
        "bits": f.bits,
        "cuda": cuda,
    });
    (place, reason, adapter)
}

/// An attribute scalar's slots, layout rule and adapter (B18).
fn attribute_place(f: &legalis_layout::optix::Field) -> (Value, &'static str, Option<String>) {
    let k = f.register;
    let (count, cuda, reason, adapter) = match f.bits {
        64 => (
            2,
            format!("optixGetAttribute_{k}..{}", k + 1),
            "attribute-slot-pair",
            Some("high word, low word".to_string()),
        ),
        _ => (
            1,
            format!("optixGetAttribute_{k}"),
            "attribute-slot",
            match (f.scalar.kind, f.scalar.width) {
                (ir::ScalarKind::Float, 4) => Some("__int_as_float".to_string()),
                _ => bit_cast(f.scalar),
            },
        ),
    };
    let place = json!({ "kind": "attribute-slot", "slot": k, "count": count, "cuda": cuda });
    (place, reason, adapter)
}

/// `bit cast` for the scalars a register holds as their bits (floats,
/// `bool` as 0 or 1); integers travel as they are.
fn bit_cast(s: ir::Scalar) -> Option<String> {
    match s.kind {
        ir::ScalarKind::Float => Some("bit cast".into()),
        ir::ScalarKind::Bool => Some("bool as 0 or 1".into()),
        _ => None,
    }
}

/// A CUDA leaf: no semantic-only keys (`vertices` ... `mesh` are null).
struct CudaLeaf<'a> {
    path: String,
    direction: &'a str,
    declared: String,
    semantic: Option<&'a str>,
    place: Value,
    global: &'a str,
    reason: &'a str,
    adapter: Option<String>,
    root: &'a str,
}

impl CudaLeaf<'_> {
    fn json(self) -> Value {
        json!({
            "path": self.path,
            "direction": self.direction,
            "declared": self.declared,
            "semantic": self.semantic,
            "place": self.place,
            "global": self.global,
            "reason": self.reason,
            "adapter": self.adapter,
            "root": self.root,
            "vertices": null,
            "stream": null,
            "part": null,
            "mesh": null,
        })
    }
}
