//! `--trace-legalization[=text|json]`: the legalization plan as an
//! artifact. For every leaf of every entry-point parameter and result
//! (`input.pos`, `return.color`, `p.inner.d`) the trace says where it went
//! (a builtin, a location and component, `Patch`, per-primitive, per-vertex,
//! a uniform), the type adapter between the declared type and the
//! interface's, and why (the table's row, an explicit `[[vk::location]]`, a
//! semantic index, the next free location). Interface variables the
//! legalizer made without a leaf (`gl_BaseVertex` for a rebased
//! `SV_VertexID`, a hull's `gl_InvocationID`, mesh indices, transform
//! feedback copies, the task payload) are listed with their reason.
//!
//! The JSON form's schema is `legalis-trace/1`, documented in
//! `docs/design/trace.md`; the harness reads it back to compare every
//! output's interface with the plan.

use legalis_ir as ir;
use legalis_legalize::glsl::{Leaf, Legalized, Part, PatchArg, Reason, Root, Target as Place};
use legalis_sysval::{Direction, GlslMapping};
use serde_json::{Value, json};

/// The forms `--trace-legalization` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TraceFormat {
    /// Readable text, one line per varying.
    Text,
    /// JSON after the schema `legalis-trace/1` (`docs/design/trace.md`).
    Json,
}

impl TraceFormat {
    /// The format a `--trace-legalization=FORM` value names (`text`,
    /// `json`).
    pub fn from_name(name: &str) -> Option<TraceFormat> {
        match name {
            "text" => Some(TraceFormat::Text),
            "json" => Some(TraceFormat::Json),
            _ => None,
        }
    }
}

/// The schema name of the JSON form.
pub const SCHEMA: &str = "legalis-trace/1";

/// The trace of a GLSL/SPIR-V legalization for `target`.
pub fn render(legalized: &Legalized, target: &str, format: TraceFormat) -> String {
    let value = to_json(&legalized.module, &legalized.plan, target, None);
    finish(&value, format)
}

/// The trace of a module of several entry points legalized for SPIR-V
/// (`plans`, in entry-point order): in text, one trace after another; in
/// JSON, an array of the entry points' traces. An entry point's
/// synthesized variables are the ones it reaches.
pub fn render_entries(
    module: &ir::Module,
    plans: &[legalis_legalize::glsl::Plan],
    target: &str,
    format: TraceFormat,
) -> String {
    let values: Vec<Value> = plans
        .iter()
        .enumerate()
        .map(|(k, plan)| {
            let reached = legalis_bind::reached_globals(module, k);
            to_json(module, plan, target, Some(&reached))
        })
        .collect();
    finish_all(values, format)
}

/// The traces of several entry points written into one output: in JSON,
/// an array of them; in text, one after the other.
fn finish_all(values: Vec<Value>, format: TraceFormat) -> String {
    match format {
        TraceFormat::Json => finish(&Value::Array(values), format),
        TraceFormat::Text => {
            let texts: Vec<String> = values.iter().map(|v| finish(v, format)).collect();
            texts.join("\n")
        }
    }
}

/// The trace of a WGSL legalization: builtins by their `@builtin` name,
/// locations; WGSL makes no interface variable of its own.
pub fn render_wgsl(legalized: &legalis_legalize::wgsl::Legalized, format: TraceFormat) -> String {
    finish(&wgsl_json(&legalized.module, &legalized.plan), format)
}

/// The traces of a WGSL module of several entry points, one per plan in
/// entry-point order: a JSON array, or the texts one after the other.
pub fn render_wgsl_entries(
    module: &ir::Module,
    plans: &[legalis_legalize::wgsl::Plan],
    format: TraceFormat,
) -> String {
    let values: Vec<Value> = plans.iter().map(|plan| wgsl_json(module, plan)).collect();
    finish_all(values, format)
}

/// [`render_wgsl`]'s JSON value for one entry point's plan.
fn wgsl_json(module: &ir::Module, plan: &legalis_legalize::wgsl::Plan) -> Value {
    use legalis_legalize::wgsl::plan as w;
    let leaves: Vec<Value> = plan
        .leaves
        .iter()
        .map(|leaf| {
            let declared = ir::print::type_name(module, leaf.ty);
            let (place, adapter) = match &leaf.target {
                w::Target::BuiltIn { value, row } => {
                    let ty = builtin_type_name(row.ty, false);
                    let adapter = (ty != declared).then(|| format!("{ty} as {declared}"));
                    (
                        json!({
                            "kind": "builtin",
                            "value": value.name(),
                            "wgsl": row.name,
                            "spirv": null,
                            "element": null,
                            "block": null,
                            "type": ty,
                        }),
                        adapter,
                    )
                }
                w::Target::Location {
                    location,
                    interpolation,
                } => (
                    json!({
                        "kind": "location",
                        "location": location,
                        "component": 0,
                        "count": 1,
                        "index": null,
                        "interpolation": interpolation_name(*interpolation),
                        "sampling": sampling_name(*interpolation),
                        "patch": false,
                        "per_primitive": false,
                        "per_vertex": false,
                    }),
                    None,
                ),
                w::Target::Uniform => (json!({ "kind": "uniform" }), None),
            };
            let reason = match leaf.reason {
                w::Reason::TableRow => "table-row",
                w::Reason::ExplicitLocation => "explicit-location",
                w::Reason::SemanticIndex => "semantic-index",
                w::Reason::NextFreeLocation => "next-free-location",
                w::Reason::Linked => "linked",
                w::Reason::Uniform => "uniform",
            };
            let root = match leaf.root {
                w::Root::Param(i) => format!("param {i}"),
                w::Root::Result => "result".into(),
            };
            json!({
                "path": leaf.path,
                "direction": direction(leaf.direction),
                "declared": declared,
                "semantic": null,
                "place": place,
                "global": leaf.name,
                "reason": reason,
                "adapter": adapter,
                "root": root,
                "vertices": null,
                "stream": null,
                "part": null,
                "mesh": null,
            })
        })
        .collect();
    json!({
        "schema": SCHEMA,
        "target": "wgsl",
        "entry": plan.entry,
        "stage": plan.stage.name(),
        "leaves": leaves,
        "synthesized": [],
        "patch_constant": null,
    })
}

/// The trace of a Metal legalization: attributes by their text inside
/// `[[...]]` (`position`, `user(TEXCOORD)`, `attribute(1)`, `color(0)`),
/// `SV_GroupIndex` computed (B20), and for object and mesh functions (B21)
/// the payload, the indices and the parameters the writer adds.
pub fn render_metal(legalized: &legalis_legalize::metal::Legalized, format: TraceFormat) -> String {
    finish(&metal_json(&legalized.module, &legalized.plan), format)
}

/// The traces of an MSL translation unit of several entry points, one
/// per plan in entry-point order: a JSON array, or the texts one after
/// the other.
pub fn render_metal_entries(
    module: &ir::Module,
    plans: &[legalis_legalize::metal::Plan],
    format: TraceFormat,
) -> String {
    let values: Vec<Value> = plans.iter().map(|plan| metal_json(module, plan)).collect();
    finish_all(values, format)
}

/// [`render_metal`]'s JSON value for one entry point's plan.
fn metal_json(module: &ir::Module, plan: &legalis_legalize::metal::Plan) -> Value {
    use legalis_legalize::metal as m;
    let location =
        |location: u32, interpolation: ir::Interpolation, metal: String, per_primitive: bool| {
            json!({
                "kind": "location",
                "location": location,
                "component": 0,
                "count": 1,
                "index": null,
                "interpolation": interpolation_name(interpolation),
                "sampling": sampling_name(interpolation),
                "patch": false,
                "per_primitive": per_primitive,
                "per_vertex": false,
                "metal": metal,
            })
        };
    let leaves: Vec<Value> = plan
        .leaves
        .iter()
        .map(|leaf| {
            let declared = ir::print::type_name(module, leaf.ty);
            let per_primitive = leaf.mesh == Some(ir::MeshOutputKind::Primitives);
            let (place, adapter) = match &leaf.target {
                // `SV_TargetN`: `[[color(N)]]` in the declared type.
                m::Target::BuiltIn { row, index, .. } if row.by_index => (
                    location(
                        *index,
                        ir::Interpolation::default(),
                        row.attribute(*index),
                        false,
                    ),
                    None,
                ),
                m::Target::BuiltIn {
                    value,
                    row,
                    index,
                    interpolation,
                } => {
                    let ty = builtin_type_name(row.ty, false);
                    let adapter = (ty != declared).then(|| format!("{ty} as {declared}"));
                    (
                        json!({
                            "kind": "builtin",
                            "value": value.name(),
                            "glsl": null,
                            "spirv": null,
                            "metal": row.attribute_with(*index, *interpolation),
                            "element": null,
                            "block": null,
                            "type": ty,
                        }),
                        adapter,
                    )
                }
                m::Target::Location {
                    location: l,
                    interpolation,
                    link,
                } => {
                    let direction = if leaf.mesh.is_some() {
                        Direction::Output
                    } else {
                        leaf.direction
                    };
                    let interpolation_for_text = if leaf.mesh.is_some() {
                        ir::Interpolation::default()
                    } else {
                        *interpolation
                    };
                    let metal = legalis_sysval::metal::location_attribute(
                        plan.stage,
                        direction,
                        *l,
                        interpolation_for_text,
                        link.as_deref(),
                    );
                    (location(*l, *interpolation, metal, per_primitive), None)
                }
                m::Target::GroupIndex { x, y } => (
                    json!({
                        "kind": "computed",
                        "from": "thread_position_in_threadgroup",
                        "numthreads": [x, y],
                    }),
                    Some(format!("(z * {y} + y) * {x} + x")),
                ),
                m::Target::Uniform => (json!({ "kind": "uniform" }), None),
                m::Target::Payload => (
                    json!({ "kind": "payload", "metal": "payload", "space": "const object_data" }),
                    None,
                ),
                m::Target::Indices { per_primitive } => (
                    json!({ "kind": "indices", "per_primitive": per_primitive }),
                    None,
                ),
            };
            let reason = match leaf.reason {
                m::Reason::TableRow => "table-row",
                m::Reason::ExplicitLocation => "explicit-location",
                m::Reason::SemanticIndex => "semantic-index",
                m::Reason::NextFreeLocation => "next-free-location",
                m::Reason::Synthesized => "synthesized",
                m::Reason::Uniform => "uniform",
                m::Reason::Payload => "payload",
                m::Reason::Topology => "topology",
            };
            let root = match leaf.root {
                m::Root::Param(i) => format!("param {i}"),
                m::Root::Result => "result".into(),
                m::Root::Added => "added".into(),
            };
            json!({
                "path": leaf.path,
                "direction": direction(leaf.direction),
                "declared": declared,
                "semantic": null,
                "place": place,
                "global": leaf.name,
                "reason": reason,
                "adapter": adapter,
                "root": root,
                "vertices": null,
                "stream": null,
                "part": null,
                "mesh": leaf.mesh.map(|k| match k {
                    ir::MeshOutputKind::Vertices => "vertices",
                    ir::MeshOutputKind::Primitives => "primitives",
                    ir::MeshOutputKind::Indices => "indices",
                }),
            })
        })
        .collect();
    let mut synthesized = Vec::new();
    if let Some(shape) = &plan.mesh {
        synthesized.push(json!({
            "name": "mesh_out",
            "direction": "out",
            "place": {
                "kind": "mesh",
                "vertices": shape.vertices,
                "primitives": shape.primitives,
                "topology": shape.topology,
            },
            "why": "the metal::mesh parameter the vertex, index and primitive outputs are written to (B21)",
        }));
    }
    if let Some(payload) = &plan.object_payload {
        synthesized.push(json!({
            "name": "payload_out",
            "direction": "out",
            "place": { "kind": "object-payload", "type": payload },
            "why": "the object_data payload DispatchMesh stores to (B21)",
        }));
        synthesized.push(json!({
            "name": "grid",
            "direction": "out",
            "place": { "kind": "mesh-grid-properties" },
            "why": "the mesh_grid_properties DispatchMesh sets the threadgroups per grid on (B21)",
        }));
    }
    json!({
        "schema": SCHEMA,
        "target": "metal",
        "entry": plan.entry,
        "stage": plan.stage.name(),
        "leaves": leaves,
        "synthesized": synthesized,
        "patch_constant": null,
    })
}

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
pub fn render_cuda(
    legalized: &legalis_legalize::cuda::Legalized,
    resources: &[legalis_emit::cuda::Resource],
    format: TraceFormat,
) -> String {
    finish(&cuda_json(legalized, resources), format)
}

/// The traces of several OptiX programs written into one output: a JSON
/// array, or the text traces one after the other.
pub fn render_cuda_entries(
    programs: &[(
        &legalis_legalize::cuda::Legalized,
        Vec<legalis_emit::cuda::Resource>,
    )],
    format: TraceFormat,
) -> String {
    let values: Vec<Value> = programs
        .iter()
        .map(|(legalized, resources)| cuda_json(legalized, resources))
        .collect();
    finish_all(values, format)
}

/// [`render_cuda`]'s JSON value.
fn cuda_json(
    legalized: &legalis_legalize::cuda::Legalized,
    resources: &[legalis_emit::cuda::Resource],
) -> Value {
    use legalis_layout::optix as layout;
    use legalis_legalize::cuda::Plan;
    let module = &legalized.module;
    let entry = &module.entry_points[0];
    let function = legalis_emit::cuda::entry_point_name(&entry.name, entry.stage);
    let mut leaves = Vec::new();
    let mut optix = Value::Null;
    match &legalized.plan {
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
    let program = matches!(legalized.plan, Plan::Program { .. });
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

/// The trace in `format`.
fn finish(value: &Value, format: TraceFormat) -> String {
    match format {
        TraceFormat::Json => {
            let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
            text.push('\n');
            text
        }
        TraceFormat::Text => text(value),
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

fn to_json(
    module: &ir::Module,
    plan: &legalis_legalize::glsl::Plan,
    target: &str,
    reached: Option<&std::collections::BTreeSet<ir::Handle<ir::GlobalVariable>>>,
) -> Value {
    let leaves: Vec<Value> = plan
        .leaves
        .iter()
        .map(|leaf| leaf_json(module, plan.stage, leaf))
        .collect();
    let names: Vec<&str> = plan.leaves.iter().map(|l| l.global_name.as_str()).collect();
    let synthesized: Vec<Value> = module
        .globals
        .iter()
        .filter(|(h, g)| {
            matches!(
                g.space,
                ir::AddressSpace::Input | ir::AddressSpace::Output | ir::AddressSpace::TaskPayload
            ) && !names.contains(&g.name.as_str())
                && reached.is_none_or(|r| r.contains(h))
        })
        .map(|(_, g)| synthesized_json(module, plan.stage, g))
        .collect();
    let patch_constant = plan.patch_constant.as_ref().map(|call| {
        let args: Vec<Value> = call
            .args
            .iter()
            .map(|arg| match arg {
                PatchArg::InputPatch(n) => json!({ "kind": "input-patch", "param": n }),
                PatchArg::OutputPatch => json!({ "kind": "output-patch" }),
                PatchArg::Leaves => json!({ "kind": "leaves" }),
            })
            .collect();
        json!({
            "function": call.name,
            "control_points": call.control_points,
            "args": args,
        })
    });
    json!({
        "schema": SCHEMA,
        "target": target,
        "entry": plan.entry,
        "stage": plan.stage.name(),
        "leaves": leaves,
        "synthesized": synthesized,
        "patch_constant": patch_constant,
    })
}

fn direction(d: Direction) -> &'static str {
    match d {
        Direction::Input => "in",
        Direction::Output => "out",
    }
}

fn leaf_json(module: &ir::Module, stage: ir::ShaderStage, leaf: &Leaf) -> Value {
    let declared = ir::print::type_name(module, leaf.ty);
    let (place, adapter) = match &leaf.target {
        Place::BuiltIn {
            value,
            row,
            element,
        } => {
            let builtin_ty = builtin_type_name(row.ty, element.is_some());
            let mut adapters = Vec::new();
            let declared_scalar = match leaf.part {
                Some(_) => scalar_of(module, leaf.ty),
                None => declared.clone(),
            };
            if declared_scalar != builtin_ty {
                adapters.push(format!("{builtin_ty} as {declared_scalar}"));
            }
            if let Some(rebase) = row.rebase {
                adapters.push(format!("minus {}", rebase.base_name));
            }
            let place = json!({
                "kind": "builtin",
                "value": value.name(),
                "glsl": row.glsl_name,
                "spirv": row.spirv_builtin,
                "element": element,
                "block": row.access.block_array(),
                "type": builtin_ty,
            });
            let _ = stage;
            (place, (!adapters.is_empty()).then(|| adapters.join(", ")))
        }
        Place::Location {
            location,
            count,
            index,
            interpolation,
            patch,
            per_primitive,
        } => (
            json!({
                "kind": "location",
                "location": location,
                "component": 0,
                "count": count,
                "index": index,
                "interpolation": interpolation_name(*interpolation),
                "sampling": sampling_name(*interpolation),
                "patch": patch,
                "per_primitive": per_primitive,
                "per_vertex": leaf.per_vertex,
            }),
            None,
        ),
        Place::Uniform => (json!({ "kind": "uniform" }), None),
    };
    let reason = match leaf.reason {
        Reason::TableRow => "table-row",
        Reason::ExplicitLocation => "explicit-location",
        Reason::SemanticIndex => "semantic-index",
        Reason::NextFreeLocation => "next-free-location",
        Reason::Linked => "linked",
    };
    let root = match leaf.root {
        Root::Param(i) => format!("param {i}"),
        Root::Result => "result".into(),
        Root::PatchParam(i) => format!("patch-constant param {i}"),
        Root::PatchResult => "patch-constant result".into(),
    };
    json!({
        "path": leaf.path,
        "direction": direction(leaf.direction),
        "declared": declared,
        "semantic": leaf.semantic.as_ref().map(ToString::to_string),
        "place": place,
        "global": leaf.global_name,
        "reason": reason,
        "adapter": adapter,
        "root": root,
        "vertices": leaf.vertices,
        "stream": leaf.stream,
        "part": leaf.part.map(|p| match p {
            Part::Component(c) => format!(".{}", ["x", "y", "z", "w"][usize::from(c & 3)]),
            Part::Element(k) => format!("[{k}]"),
        }),
        "mesh": leaf.mesh.map(|m| match m {
            ir::MeshOutputKind::Vertices => "vertices",
            ir::MeshOutputKind::Primitives => "primitives",
            ir::MeshOutputKind::Indices => "indices",
        }),
    })
}

fn synthesized_json(module: &ir::Module, stage: ir::ShaderStage, g: &ir::GlobalVariable) -> Value {
    let dir = match g.space {
        ir::AddressSpace::Input => Direction::Input,
        _ => Direction::Output,
    };
    let binding = g.io.as_ref().and_then(|io| io.binding.as_ref());
    let (place, why) = match (g.space, binding) {
        (ir::AddressSpace::TaskPayload, _) => (
            json!({ "kind": "task-payload" }),
            "the payload amplification shaders write and mesh shaders read (B10)",
        ),
        (_, Some(ir::Binding::BuiltIn(b))) => {
            let row = match legalis_sysval::glsl(b.value, stage, dir) {
                GlslMapping::BuiltIn(row) => Some(row),
                _ => None,
            };
            let why = match b.value {
                ir::SystemValue::StartVertexLocation | ir::SystemValue::StartInstanceLocation => {
                    "the base a rebased SV_VertexID or SV_InstanceID subtracts (B6)"
                }
                ir::SystemValue::OutputControlPointId => {
                    "the control point a hull invocation writes, and the patch-constant guard (B7)"
                }
                _ => "a builtin the legalizer reads or writes",
            };
            (
                json!({
                    "kind": "builtin",
                    "value": b.value.name(),
                    "glsl": row.map(|r| r.glsl_name).unwrap_or(g.name.as_str()),
                    "spirv": row.map(|r| r.spirv_builtin),
                    "element": b.array_index,
                    "block": row.and_then(|r| r.access.block_array()),
                    "type": ir::print::type_name(module, g.ty),
                }),
                why,
            )
        }
        (_, Some(ir::Binding::PrimitiveIndices)) => {
            let spirv = match g.name.as_str() {
                "gl_PrimitiveLineIndicesEXT" => "PrimitiveLineIndicesEXT",
                "gl_PrimitivePointIndicesEXT" => "PrimitivePointIndicesEXT",
                _ => "PrimitiveTriangleIndicesEXT",
            };
            (
                json!({
                    "kind": "builtin",
                    "value": null,
                    "glsl": g.name,
                    "spirv": spirv,
                    "element": null,
                    "block": null,
                    "type": ir::print::type_name(module, g.ty),
                }),
                "the mesh shader's `out indices` array (B10)",
            )
        }
        (
            _,
            Some(&ir::Binding::Location {
                location,
                component,
                index,
                interpolation,
                patch,
                per_primitive,
                per_vertex,
            }),
        ) => (
            json!({
                "kind": "location",
                "location": location,
                "component": component,
                "count": 1,
                "index": index,
                "interpolation": interpolation_name(interpolation),
                "sampling": sampling_name(interpolation),
                "patch": patch,
                "per_primitive": per_primitive,
                "per_vertex": per_vertex,
            }),
            "a transform-feedback copy of part of an output or of a builtin",
        ),
        _ => (json!({ "kind": "other" }), "made by the legalizer"),
    };
    json!({
        "name": g.name,
        "direction": direction(dir),
        "place": place,
        "why": why,
    })
}

fn interpolation_name(i: ir::Interpolation) -> &'static str {
    match i.mode {
        None | Some(ir::InterpolationMode::Linear) => "smooth",
        Some(ir::InterpolationMode::Flat) => "flat",
        Some(ir::InterpolationMode::NoPerspective) => "noperspective",
    }
}

fn sampling_name(i: ir::Interpolation) -> Option<&'static str> {
    i.sampling.map(|s| match s {
        ir::Sampling::Centroid => "centroid",
        ir::Sampling::Sample => "sample",
    })
}

/// The HLSL name of a builtin's type (`int`, `float4`, `float[4]`), or of
/// one element of an arrayed builtin.
fn builtin_type_name(ty: legalis_sysval::BuiltinType, element: bool) -> String {
    use legalis_sysval::BuiltinType as B;
    let scalar = scalar_name;
    match ty {
        B::Scalar(s) => scalar(s),
        B::Vector(s, n) => format!("{}{n}", scalar(s)),
        B::Array(s, _) if element => scalar(s),
        B::Array(s, Some(n)) => format!("{}[{n}]", scalar(s)),
        B::Array(s, None) => format!("{}[]", scalar(s)),
    }
}

/// The HLSL name of a scalar type.
fn scalar_name(s: ir::Scalar) -> String {
    let name = match (s.kind, s.width) {
        (ir::ScalarKind::Bool, _) => "bool",
        (ir::ScalarKind::Float, 2) => "half",
        (ir::ScalarKind::Float, 8) => "double",
        (ir::ScalarKind::Float, _) => "float",
        (ir::ScalarKind::Sint, 1) => "int8_t",
        (ir::ScalarKind::Uint, 1) => "uint8_t",
        (ir::ScalarKind::Sint, 2) => "int16_t",
        (ir::ScalarKind::Sint, 8) => "int64_t",
        (ir::ScalarKind::Sint, _) => "int",
        (ir::ScalarKind::Uint, 2) => "uint16_t",
        (ir::ScalarKind::Uint, 8) => "uint64_t",
        (ir::ScalarKind::Uint, _) => "uint",
    };
    name.to_string()
}

/// The scalar type name of a vector or array declaration.
fn scalar_of(module: &ir::Module, ty: ir::Handle<ir::Type>) -> String {
    match module.types.try_get(ty).map(|t| &t.inner) {
        Some(ir::TypeInner::Array { base, .. }) => scalar_of(module, *base),
        Some(inner) => inner
            .scalar()
            .map(scalar_name)
            .unwrap_or_else(|| ir::print::type_name(module, ty)),
        None => String::new(),
    }
}

/// The text form: one line per leaf, then the synthesized variables.
fn text(value: &Value) -> String {
    let s = |v: &Value| v.as_str().unwrap_or_default().to_string();
    let mut out = format!(
        "legalization of `{}` ({}) for {}\n",
        s(&value["entry"]),
        s(&value["stage"]),
        s(&value["target"])
    );
    let place = |p: &Value| -> String {
        match p["kind"].as_str() {
            Some("builtin") => {
                let name = match p["metal"].as_str() {
                    Some(attribute) => format!("[[{attribute}]]"),
                    None => p["glsl"]
                        .as_str()
                        .or(p["wgsl"].as_str())
                        .or(p["cuda"].as_str())
                        .unwrap_or_default()
                        .to_string(),
                };
                let mut t = format!("builtin {name}");
                if let Some(k) = p["element"].as_u64() {
                    t.push_str(&format!("[{k}]"));
                }
                if let Some(block) = p["block"].as_str() {
                    t = format!("builtin {block}[].{}", &t["builtin ".len()..]);
                }
                t
            }
            Some("location") => {
                let mut t = format!("location {}", p["location"]);
                if p["component"].as_u64().unwrap_or(0) != 0 {
                    t.push_str(&format!(" component {}", p["component"]));
                }
                if let Some(i) = p["index"].as_u64() {
                    t.push_str(&format!(" index {i}"));
                }
                for flag in ["patch", "per_primitive", "per_vertex"] {
                    if p[flag].as_bool() == Some(true) {
                        t.push_str(&format!(" {}", flag.replace('_', "-")));
                    }
                }
                if p["interpolation"].as_str() == Some("flat") {
                    t.push_str(" flat");
                }
                if let Some(attribute) = p["metal"].as_str() {
                    t.push_str(&format!(" [[{attribute}]]"));
                }
                t
            }
            Some("computed") => format!(
                "computed from [[{}]]",
                p["from"].as_str().unwrap_or_default()
            ),
            Some("payload") => "[[payload]] const object_data pointer".into(),
            Some("indices") => format!("set_index, {} per primitive", p["per_primitive"]),
            Some("mesh") => format!(
                "metal::mesh<{}, {}, {}>",
                p["vertices"],
                p["primitives"],
                p["topology"].as_str().unwrap_or_default()
            ),
            Some("object-payload") => format!(
                "[[payload]] object_data {}*",
                p["type"].as_str().unwrap_or_default()
            ),
            Some("payload-register") => {
                let mut t = p["cuda"].as_str().unwrap_or_default().to_string();
                match p["bits"].as_u64() {
                    Some(64) => t.push_str(" high:low"),
                    Some(bits) if bits < 32 => {
                        t.push_str(&format!(" byte {}, {bits} bits", p["byte"]))
                    }
                    _ => {}
                }
                t
            }
            Some("payload-pointer") => {
                format!("pointer in {}", p["cuda"].as_str().unwrap_or_default())
            }
            Some("attribute-slot") => {
                let mut t = p["cuda"].as_str().unwrap_or_default().to_string();
                if p["count"].as_u64() == Some(2) {
                    t.push_str(" high:low");
                }
                t
            }
            Some("callable-data") => format!(
                "direct-callable data {}",
                p["cuda"].as_str().unwrap_or_default()
            ),
            Some(kind) => kind.to_string(),
            None => String::new(),
        }
    };
    let leaves = value["leaves"].as_array().cloned().unwrap_or_default();
    let made = value["synthesized"].as_array().cloned().unwrap_or_default();
    let width = |key: &str, items: &[Value], f: &dyn Fn(&Value) -> String| {
        items.iter().map(|v| f(&v[key]).len()).max().unwrap_or(0)
    };
    let path_width = width("path", &leaves, &s).max(width("name", &made, &s));
    let place_width = width("place", &leaves, &place).max(width("place", &made, &place));
    let declared_width = width("declared", &leaves, &s);
    // `inout` (CUDA payloads) widens the column; other traces keep 3.
    let direction_width = width("direction", &leaves, &s).max(3);
    for leaf in &leaves {
        let mut line = format!(
            "  {:<path_width$}  {:<direction_width$}  {:<place_width$}  {:<declared_width$}  {}",
            s(&leaf["path"]),
            s(&leaf["direction"]),
            place(&leaf["place"]),
            s(&leaf["declared"]),
            s(&leaf["reason"]).replace('-', " ")
        );
        if let Some(adapter) = leaf["adapter"].as_str() {
            line.push_str(&format!("; {adapter}"));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    for g in &made {
        let line = format!(
            "  {:<path_width$}  {:<direction_width$}  {:<place_width$}  made: {}",
            s(&g["name"]),
            s(&g["direction"]),
            place(&g["place"]),
            s(&g["why"])
        );
        out.push_str(&line);
        out.push('\n');
    }
    if let Some(function) = value["function"].as_str() {
        let optix = &value["optix"];
        let mut line = match optix.is_object() {
            true => format!("  OptiX program {function}"),
            false => format!("  kernel {function}"),
        };
        match (
            optix["payload"]["passing"].as_str(),
            optix["payload"]["registers"].as_u64(),
        ) {
            (Some("pointer"), Some(n)) => line.push_str(&format!(
                "; payload (param {}) of {n} registers, over 32: its address in registers 0-1",
                optix["payload"]["param"]
            )),
            (Some("registers"), Some(n)) => line.push_str(&format!(
                "; payload (param {}) in {n} register{}",
                optix["payload"]["param"],
                if n == 1 { "" } else { "s" }
            )),
            _ => {}
        }
        if let Some(n) = optix["attributes"]["slots"].as_u64() {
            line.push_str(&format!(
                "; attributes (param {}) in {n} slot{}",
                optix["attributes"]["param"],
                if n == 1 { "" } else { "s" }
            ));
        }
        out.push_str(&line);
        out.push('\n');
    }
    let resources = value["resources"].as_array().cloned().unwrap_or_default();
    let resource_place = |r: &Value| -> String {
        let p = &r["place"];
        let holder = match p["kind"].as_str() {
            Some("kernel-parameter") => format!("kernel parameter {}", p["index"]),
            Some("shader-record") => format!(
                "{} member {}",
                p["record"].as_str().unwrap_or_default(),
                p["member"]
            ),
            _ => "launch parameter".to_string(),
        };
        let cuda = p["cuda"].as_str().unwrap_or_default();
        match p["block"].as_str() {
            Some(block) => format!("{cuda} in {block}, {holder}"),
            None => format!("{cuda}, {holder}"),
        }
    };
    let name_width = width("name", &resources, &s);
    let resource_width = resources
        .iter()
        .map(|r| resource_place(r).len())
        .max()
        .unwrap_or(0);
    for r in &resources {
        let line = format!(
            "  {:<name_width$}  {:<resource_width$}  as {}",
            s(&r["name"]),
            resource_place(r),
            s(&r["access"])
        );
        out.push_str(&line);
        out.push('\n');
    }
    if let Some(call) = value["patch_constant"].as_object() {
        let args: Vec<String> = call["args"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|a| match a["kind"].as_str() {
                Some("input-patch") => {
                    format!("the entry point's input patch (param {})", a["param"])
                }
                Some("output-patch") => "the output patch read back".into(),
                _ => "its leaves".into(),
            })
            .collect();
        out.push_str(&format!(
            "  patch-constant call: {} for {} control points, after a barrier, by invocation 0; arguments: {}\n",
            call["function"].as_str().unwrap_or_default(),
            call["control_points"],
            args.join(", ")
        ));
    }
    out
}
