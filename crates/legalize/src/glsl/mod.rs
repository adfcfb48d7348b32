//! The GLSL/SPIR-V entry-point legalizer.
//!
//! For one entry point it first computes a [`Plan`] — where every leaf of
//! every parameter and of the result goes, and why — then rewrites a copy of
//! the module, one pass per file:
//!
//! - `map_system_values.rs`: leaves, system-value table rows, and the
//!   `E49999` rejection of unknown `SV_*` semantics (B5);
//! - `assign_locations.rs`: location numbering (B1);
//! - `flatten_varyings.rs`: one interface global per leaf and a
//!   parameterless entry function (B1);
//! - `adapt_builtins.rs`: builtin reads and writes with type conversion and
//!   vertex/instance rebasing (B3, B4, B6), and the [`ir::Policy`]
//!   conventions on builtin values (`-fvk-invert-y`,
//!   `-fvk-use-dx-position-w`, `-fvk-raw-vertex-id`);
//! - `geometry_streams.rs`: a geometry shader's `stream.Append(v)` writes
//!   the stream's output globals and emits a vertex (B9);
//! - `per_vertex.rs`: `GetAttributeAtVertex` as an index into a
//!   `pervertexEXT` array (B13);
//! - `prune_unreachable.rs`: only what the entry point uses remains;
//! - `forward_resource_locals.rs`: locals of resource type (which GLSL
//!   cannot have) are replaced by their initializers.
//!
//! A [`Legalized`] module: its one entry point is parameterless, stage
//! inputs and outputs are `Input`/`Output` globals with builtins or
//! locations; the GLSL version and extensions its rows need are the plan's
//! ([`Plan::version`], [`Plan::extensions`]). [`LegalizedAll`]: every entry
//! point of a module legalized for SPIR-V into one module
//! ([`Family::legalize_all_unverified`]): each parameterless, with its own
//! plan (in entry-point order). Each legalized entry point is a new
//! function around its source function, so a function that is both an entry
//! point and called keeps its parameters for its callers
//! (`legalis_emit::spirv::write_entries` writes the module).
//!
//! The legalizer never prints; the result is IR plus the plan, which also
//! gives the GLSL version and the extensions the rows used.
//!
//! # Input contract
//!
//! - The module passes the IR verifier (`legalis_ir::verify::verify`), as
//!   the front end's output does; the legalizer does not check it again.
//! - `entry_point` indexes `module.entry_points` (otherwise `E49996`), of
//!   a graphics, compute, mesh, amplification or ray-tracing stage
//!   (otherwise `E49992`).
//! - The entry point's parameters, its result and the struct members they
//!   reach carry `Binding::Semantic` (`SV_Position`, `TEXCOORD0`) or no
//!   binding, as the front end leaves them: system values are decided by
//!   the table (`legalis_sysval::glsl`), every other leaf gets a location.
//!   What Vulkan cannot express is a coded error at the declaration
//!   (`codes`), never a panic.
//!
//! # What the result guarantees
//!
//! [`Glsl`]'s `legalize` and `legalize_linked` ([`Family`]) return a
//! module that passes its `verify` (the IR verifier; failing it is the
//! internal error `E49000`) with one entry point (the chosen one;
//! `legalize_all_unverified` keeps them all) whose function is
//! parameterless and returns nothing: every stage input and output is an
//! `Input`/`Output` global bound to a builtin or a location, no
//! `Binding::Semantic` is left, and only what the entry point reaches
//! remains. `legalis_emit::glsl` and
//! `legalis_emit::spirv` write it.
//!
//! ```
//! use legalis_legalize::{Family, glsl::Glsl};
//!
//! let source = r#"
//! [shader("vertex")]
//! float4 main(float3 pos : POSITION, inout float2 uv : TEXCOORD0) : SV_Position {
//!     return float4(pos, 1);
//! }
//! "#;
//! let module = legalis_front::compile(source, &Default::default()).module.unwrap();
//! let policy = legalis_ir::Policy::default();
//! let legalized = Glsl::legalize(&module, 0, &policy).unwrap();
//! let entry = &legalized.module.entry_points[0];
//! assert!(legalized.module.functions[entry.function].params.is_empty());
//! let globals: Vec<&str> = legalized.plan.leaves.iter().map(|l| l.global_name.as_str()).collect();
//! assert!(globals.contains(&"gl_Position"));
//! assert!(globals.contains(&"pos"));
//! assert_eq!(legalized.plan.version(), 450);
//! ```

#![warn(missing_docs)]

mod adapt_builtins;
mod assign_locations;
mod flatten_varyings;
mod forward_resource_locals;
mod geometry_streams;
mod hull;
pub mod link;
mod map_system_values;
mod mesh_outputs;
mod per_vertex;
mod plan;
mod prune_unreachable;
mod ray_tracing;
mod stream_output;
mod task_payload;

use legalis_ir as ir;
use legalis_ir::diag::Diagnostic;

use crate::codes;

pub use plan::{
    Leaf, Linked, Part, PatchArg, PatchConstantCall, Plan, RaySource, RayVariable, Reason, Root,
    Stages, Target,
};

use crate::common::legalized::family;
use crate::{Family, Job};

family!(Glsl, "GLSL and SPIR-V");

use ir::OtherEntryPoints as Others;

impl Family for Glsl {
    type Plan = Plan;

    fn legalize_one(job: Job<'_>) -> Result<Legalized, Vec<Diagnostic>> {
        let (module, entry) = (job.module, job.entry);
        let func = &module.functions[entry.function];
        let mut leaves = map_system_values::collect_leaves(module, func, false)?;
        let patch_constant = match entry.stage {
            ir::ShaderStage::Hull => Some(hull::plan_call(module, entry, &mut leaves)?),
            _ => None,
        };
        let mut errors = map_system_values::map_leaves(module, entry.stage, &mut leaves);
        errors.extend(per_vertex::mark(module, entry.stage, func, &mut leaves));
        if !errors.is_empty() {
            return Err(errors);
        }
        if entry.stage.is_ray_tracing() {
            return legalize_ray_tracing(module, job.entry_point, entry, job.others, job.policy);
        }
        if job.policy.vertex_ids == ir::VertexIdBase::Raw {
            adapt_builtins::raw_vertex_ids(entry.stage, &mut leaves);
        }
        let errors =
            assign_locations::assign_locations(module, entry.stage, &mut leaves, job.linked);
        if !errors.is_empty() {
            return Err(errors);
        }
        let plan = make_plan(module, entry, leaves, patch_constant);
        let mut out = module.clone();
        if entry.stage == ir::ShaderStage::Domain {
            let (partitioning, topology) = hull::domain_tessellator(entry, job.linked)?;
            let attributes = &mut out.entry_points[job.entry_point].attributes;
            attributes.partitioning = partitioning;
            attributes.output_topology = topology;
        }
        patches_as_arrays(&mut out);
        let globals = flatten_varyings::apply(&mut out, job.entry_point, &plan, job.policy)?;
        per_vertex::apply(&mut out, entry.function, &plan, &globals);
        finish(
            out,
            plan,
            entry,
            job.entry_point,
            job.others,
            job.policy.preserve_params,
        )
    }

    // The plain verifier: a hull's patch-constant function keeps its
    // semantic parameters, which the wrapper reads (`hull.rs`), so
    // `verify_legalized`, which checks its signature too, would refuse it.
    fn verify(module: &ir::Module, span: ir::Span) -> Result<(), Vec<Diagnostic>> {
        let result = ir::verify::verify(module);
        crate::common::report(result, span, crate::codes::INTERNAL_VERIFY)
    }
}

/// Ray-tracing stages (B11, B12, D7): no stage inputs or outputs, only
/// ray-tracing storage; the system-value leaves were all refused above.
fn legalize_ray_tracing(
    module: &ir::Module,
    entry_point: usize,
    entry: &ir::EntryPoint,
    others: Others,
    policy: &ir::Policy,
) -> Result<Legalized, Vec<Diagnostic>> {
    let mut plan = make_plan(module, entry, Vec::new(), None);
    plan.extra.ray = ray_tracing::plan(module, entry)?;
    let mut out = module.clone();
    ray_tracing::apply(&mut out, entry_point, &plan);
    finish(
        out,
        plan,
        entry,
        entry_point,
        others,
        policy.preserve_params,
    )
}

/// The passes every stage ends with (the verifier is
/// [`Family::verify`], after).
fn finish(
    mut out: ir::Module,
    plan: Plan,
    entry: &ir::EntryPoint,
    entry_point: usize,
    others: Others,
    preserve_params: bool,
) -> Result<Legalized, Vec<Diagnostic>> {
    if others == Others::Drop {
        out.entry_points = vec![out.entry_points.swap_remove(entry_point)];
    }
    prune_unreachable::apply(&mut out, preserve_params);
    struct_nesting_limit(&out)?;
    struct_member_limit(&out)?;
    parameter_limit(&out)?;
    if entry.stage == ir::ShaderStage::Amplification {
        task_payload::apply(&mut out)?;
    }
    forward_resource_locals::apply(&mut out)?;
    Ok(Legalized { module: out, plan })
}

/// The deepest struct nesting SPIR-V takes (its universal limit), and so
/// GLSL, which glslang makes SPIR-V of.
const STRUCT_NESTING: u32 = 255;

/// A global, parameter, result or local whose type nests structs deeper
/// than [`STRUCT_NESTING`], counting the block a buffer or a plain
/// uniform (`_Globals`) is wrapped in: `E49107` at it, naming the type.
/// Only what the written module keeps counts: a deep struct nothing uses
/// is not written.
fn struct_nesting_limit(module: &ir::Module) -> Result<(), Vec<Diagnostic>> {
    let depths = module.struct_depths();
    let depth = |ty: ir::Handle<ir::Type>| depths.get(ty.index()).copied().unwrap_or(0);
    let globals = module.globals.iter().map(|(h, g)| {
        let in_globals_block =
            g.space == ir::AddressSpace::Uniform && !module.is_resource_type(g.ty);
        let blocked = in_globals_block || module.is_resource_type(g.ty);
        let d = depth(g.ty) + u32::from(in_globals_block);
        (g.ty, d, blocked, module.globals.span(h))
    });
    let functions = crate::common::function_types(module.functions.iter().map(|(_, f)| f))
        .map(|(ty, span)| (ty, depth(ty), false, span));
    match globals
        .chain(functions)
        .find(|(_, d, ..)| *d > STRUCT_NESTING)
    {
        Some((ty, d, blocked, span)) => Err(vec![Diagnostic::error(
            codes::STRUCT_NESTING_LIMIT,
            format!(
                "`{}` nests structs {d} deep{}: GLSL and SPIR-V take {STRUCT_NESTING}",
                ir::print::type_name(module, ty),
                if blocked { ", its block counted" } else { "" },
            ),
            span,
        )]),
        None => Ok(()),
    }
}

/// The most members a struct has in SPIR-V (its universal limit), and
/// so in GLSL, which glslang makes SPIR-V of.
const STRUCT_MEMBERS: usize = 16383;

/// A global, parameter, result or local whose type holds a struct of
/// more than [`STRUCT_MEMBERS`] members, or more plain uniforms than the
/// `_Globals` block can hold: `E49109` at it. Only what the written
/// module keeps counts.
fn struct_member_limit(module: &ir::Module) -> Result<(), Vec<Diagnostic>> {
    // The widest struct each type holds, its own members or deeper.
    let mut widest: Vec<(usize, Option<ir::Handle<ir::Type>>)> =
        vec![(0, None); module.types.len()];
    for (h, ty) in module.types.iter() {
        let at = |t: ir::Handle<ir::Type>| widest.get(t.index()).copied().unwrap_or((0, None));
        widest[h.index()] = match &ty.inner {
            ir::TypeInner::Struct { members } => members
                .iter()
                .map(|m| at(m.ty))
                .chain([(members.len(), Some(h))])
                .max_by_key(|&(n, _)| n)
                .unwrap_or((0, None)),
            ir::TypeInner::Array { base, .. } => at(*base),
            ir::TypeInner::Buffer {
                element: Some(element),
                ..
            } => at(*element),
            ir::TypeInner::ConstantBuffer { inner } | ir::TypeInner::TextureBuffer { inner } => {
                at(*inner)
            }
            _ => (0, None),
        };
    }
    let at = |ty: ir::Handle<ir::Type>| widest.get(ty.index()).copied().unwrap_or((0, None));
    let globals = module
        .globals
        .iter()
        .map(|(h, g)| (at(g.ty), module.globals.span(h)));
    let functions = crate::common::function_types(module.functions.iter().map(|(_, f)| f))
        .map(|(ty, span)| (at(ty), span));
    if let Some(((n, Some(ty)), span)) = globals
        .chain(functions)
        .find(|((n, _), _)| *n > STRUCT_MEMBERS)
    {
        return Err(vec![Diagnostic::error(
            codes::STRUCT_MEMBER_LIMIT,
            format!(
                "`{}` has {n} members: GLSL and SPIR-V take {STRUCT_MEMBERS} in a struct",
                ir::print::type_name(module, ty),
            ),
            span,
        )]);
    }
    // Plain uniforms are the members of one block, `_Globals`.
    let plain: Vec<_> = module
        .globals
        .iter()
        .filter(|(_, g)| g.space == ir::AddressSpace::Uniform && !module.is_resource_type(g.ty))
        .map(|(h, _)| h)
        .collect();
    if let Some(&h) = plain.get(STRUCT_MEMBERS) {
        return Err(vec![Diagnostic::error(
            codes::STRUCT_MEMBER_LIMIT,
            format!(
                "{} plain uniforms are the members of the `_Globals` block: GLSL and SPIR-V take {STRUCT_MEMBERS} in a block; put them in arrays or constant buffers",
                plain.len()
            ),
            module.globals.span(h),
        )]);
    }
    Ok(())
}

/// The most parameters a function has in SPIR-V (its universal limit),
/// and so in GLSL.
const PARAMETERS: usize = 255;

/// A function of more than [`PARAMETERS`] parameters, after legalization
/// (resources passed on are parameters no more): `E49110` at the first
/// parameter past the limit.
fn parameter_limit(module: &ir::Module) -> Result<(), Vec<Diagnostic>> {
    match module
        .functions
        .iter()
        .find(|(_, f)| f.params.len() > PARAMETERS)
    {
        Some((_, f)) => Err(vec![Diagnostic::error(
            codes::PARAMETER_LIMIT,
            format!(
                "`{}` has {} parameters: GLSL and SPIR-V take {PARAMETERS}; pass some of them in a struct",
                f.name,
                f.params.len()
            ),
            f.params[PARAMETERS].span,
        )]),
        None => Ok(()),
    }
}

/// `InputPatch<T, N>` / `OutputPatch<T, N>` have no GLSL or SPIR-V type:
/// every value of one is the array `T[N]` it is read as (B8).
fn patches_as_arrays(module: &mut ir::Module) {
    let patches: Vec<(ir::Handle<ir::Type>, ir::Type)> = module
        .types
        .iter()
        .filter_map(|(h, t)| match t.inner {
            ir::TypeInner::Patch { element, count, .. } => Some((
                h,
                ir::Type {
                    name: None,
                    inner: ir::TypeInner::Array {
                        base: element,
                        size: ir::ArraySize::Constant(count),
                    },
                },
            )),
            _ => None,
        })
        .collect();
    for (patch, array) in patches {
        let array = module.types.insert(array, ir::Span::UNDEFINED);
        let retype = |ty: &mut ir::Handle<ir::Type>| {
            if *ty == patch {
                *ty = array;
            }
        };
        for (_, func) in module.functions.iter_mut() {
            func.params.iter_mut().for_each(|p| retype(&mut p.ty));
            if let Some(result) = &mut func.result {
                retype(&mut result.ty);
            }
            func.locals.iter_mut().for_each(|(_, l)| retype(&mut l.ty));
            func.expressions.replace_type(patch, array);
        }
    }
}

fn make_plan(
    module: &ir::Module,
    entry: &ir::EntryPoint,
    leaves: Vec<map_system_values::RawLeaf>,
    patch_constant: Option<PatchConstantCall>,
) -> Plan {
    let leaves = leaves
        .into_iter()
        .filter_map(|raw| {
            let (target, reason) = raw.target?;
            let global_name = match (&target, &patch_constant) {
                (Target::BuiltIn { row, .. }, _) => row.glsl_name.to_string(),
                // A patch constant is named after its function, as the
                // reference names it (`entryPointParam_patchConstants_center`).
                (_, Some(call)) if raw.root.is_patch_constant() => {
                    let function = &module.functions[call.function].name;
                    let path = raw
                        .path
                        .strip_prefix(&format!("{function}."))
                        .unwrap_or(&raw.path);
                    interface_name(function, path, raw.direction)
                }
                // Mesh outputs are named after their parameter, as the
                // reference names them (`outVertices_normal`).
                _ if raw.mesh.is_some() => raw.path.replace('.', "_"),
                _ => interface_name(&entry.name, &raw.path, raw.direction),
            };
            Some(Leaf {
                path: raw.path,
                root: raw.root,
                members: raw.members,
                direction: raw.direction,
                ty: raw.ty,
                global_name,
                target,
                reason,
                per_vertex: raw.per_vertex,
                span: raw.span,
                vertices: raw.vertices,
                stream: raw.stream,
                part: raw.part,
                mesh: raw.mesh,
                semantic: crate::common::leaves::semantic(&raw.io).cloned(),
            })
        })
        .collect();
    let stages = Stages {
        patch_constant,
        ray: Vec::new(),
    };
    Plan::new(entry, leaves, stages)
}

/// Inputs are named after their path (`input.pos` → `input_pos`), outputs
/// after the entry point too (`return.color` → `entryPointParam_main_color`),
/// as the reference names them.
fn interface_name(entry: &str, path: &str, direction: legalis_sysval::Direction) -> String {
    let flat = path.replace('.', "_");
    match direction {
        legalis_sysval::Direction::Input => flat,
        legalis_sysval::Direction::Output => {
            let rest = flat
                .strip_prefix("return")
                .unwrap_or(&flat)
                .trim_start_matches('_');
            let mut name = String::with_capacity(17 + entry.len() + rest.len());
            name.push_str("entryPointParam_");
            name.push_str(entry);
            if !rest.is_empty() {
                name.push('_');
                name.push_str(rest);
            }
            name
        }
    }
}

impl Plan {
    /// The lowest GLSL version the plan's rows need (at least 450).
    pub fn version(&self) -> u32 {
        requirements(self).0
    }

    /// The `#extension`s the plan's rows need, sorted.
    pub fn extensions(&self) -> Vec<String> {
        requirements(self).1
    }
}

/// What the plan's rows need: the lowest GLSL version and the extensions.
fn requirements(plan: &Plan) -> (u32, Vec<String>) {
    let mut version = 450;
    let mut extensions: Vec<String> = Vec::new();
    for leaf in &plan.leaves {
        if let Target::BuiltIn { row, .. } = &leaf.target {
            version = version.max(row.min_version);
            if let Some(ext) = row.extension {
                extensions.push(ext.to_string());
            }
        }
    }
    if plan.stage.is_ray_tracing() {
        version = version.max(460);
        extensions.push("GL_EXT_ray_tracing".to_string());
    }
    extensions.sort();
    extensions.dedup();
    (version, extensions)
}
