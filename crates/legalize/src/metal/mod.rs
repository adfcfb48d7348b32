//! The Metal varying legalizer (B19, B20).
//!
//! For one vertex, fragment or compute (kernel) entry point it first
//! computes a [`Plan`] — for every leaf of every parameter and of the
//! result, the Metal attribute or user-varying location it becomes and
//! why — then rewrites a copy of the module, one pass per file:
//!
//! - `map_system_values.rs`: leaves (nested structs flattened: B19's one
//!   attributed parameter per field), the Metal column of the
//!   system-value table, `E55302` for every system value Metal cannot
//!   express;
//! - `assign_locations.rs`: sequential locations honouring
//!   `[[vk::location]]` and `SV_TargetN` (`[[color(N)]]`), interpolation
//!   (integers flat);
//! - `wrap_entry_point.rs`: the attributed entry function and result
//!   struct around the source function, `SV_GroupIndex` computed from the
//!   threadgroup-local id and `[numthreads]` (B20).
//!
//! In a linked pipeline (several `-entry`), `link.rs` checks each stage
//! against the previous one by `legalis_ir::link`; Metal links user
//! varyings by their `[[user(SEMANTIC)]]` names, which the semantic gives
//! both sides alike, so a stage is legalized as it is alone.
//!
//! The writer (`legalis_emit::metal`) gathers the user-varying inputs into
//! the `[[stage_in]]` struct and passes resources as `[[buffer(n)]]`,
//! `[[texture(n)]]`, `[[sampler(n)]]` arguments.
//!
//! Amplification and mesh entry points (B21: `[[object]]`/`[[mesh]]`
//! with `object_data`, `mesh_grid_properties` and `metal::mesh<...>`) are
//! rewritten in place instead of wrapped (`mesh.rs`): Metal's mesh object
//! and payload exist only as the entry function's parameters.
//!
//! A [`Legalized`] module: its one entry point's function takes attributed
//! parameters and returns an attributed struct (or nothing): the attributed
//! wrapper or, for mesh and object functions, the source function rewritten
//! in place. [`LegalizedAll`]: every entry point of a module legalized for
//! Metal into one MSL translation unit
//! ([`Family::legalize_all_unverified`]): a wrapper is a new function and
//! an object or mesh function is rewritten in place, so either leaves the
//! others' functions alone; one plan each (in entry-point order).
//! `legalis_emit::metal::write_entries` writes it. `legalize_linked` is
//! `legalize`, as Metal links by names.
//!
//! The legalizer never prints; the result is IR plus the plan.

mod assign_locations;
mod link;
mod map_system_values;
mod mesh;
mod plan;
mod wrap_entry_point;

use legalis_ir::FastHashSet;

use legalis_ir as ir;
use legalis_ir::diag::Diagnostic;
use legalis_sysval::Direction;

pub use link::link_inputs;
pub use plan::{Leaf, Mesh, MeshShape, Plan, Reason, Root, Target};

use crate::codes;
use crate::common::legalized::{family, keep_or_drop};
use crate::common::plan::{interface_name, unique_name};
use crate::{Family, Job};

family!(Metal, "Metal");

impl Family for Metal {
    type Plan = Plan;

    // Metal passes no resource to a helper: each is copied per global.
    fn passes_resource(_inner: &ir::TypeInner) -> bool {
        false
    }

    // Metal links by `[[user(...)]]` names, which each stage takes from its
    // semantics alone: nothing to place from the previous stage.
    fn legalize_one(job: Job<'_>) -> Result<Legalized, Vec<Diagnostic>> {
        let entry = job.entry;
        let module = &*crate::common::leaves::with_row_types(
            job.module,
            &job.module.functions[entry.function],
        );
        let in_place = matches!(
            entry.stage,
            ir::ShaderStage::Mesh | ir::ShaderStage::Amplification
        );
        if in_place {
            let errors = mesh::check(module, entry);
            if !errors.is_empty() {
                return Err(errors);
            }
        }
        let func = &module.functions[entry.function];
        let mut leaves = map_system_values::collect_leaves(module, func)?;
        if entry.stage == ir::ShaderStage::Vertex {
            bare_result_is_position(module, &mut leaves);
        }
        let errors = map_system_values::map_leaves(module, entry, &mut leaves);
        if !errors.is_empty() {
            return Err(errors);
        }
        let errors = assign_locations::assign_locations(module, entry.stage, &mut leaves);
        if !errors.is_empty() {
            return Err(errors);
        }
        let mut plan = make_plan(entry, leaves);
        if entry.stage == ir::ShaderStage::Vertex
            && !crate::common::wrap::writes_position(&plan.leaves)
        {
            let outputs = plan.leaves.iter().any(|l| l.direction == Direction::Output);
            if outputs {
                return Err(vec![Diagnostic::error(
                    codes::METAL_VERTEX_WITHOUT_POSITION,
                    "a Metal vertex function that returns values must return `SV_Position` \
                     (`[[position]]`)",
                    entry.span,
                )]);
            }
        }
        plan.extra.shape = mesh::shape(module, entry);
        plan.extra.object_payload = mesh::object_payload(module, entry);
        let mut out = module.clone();
        add_group_thread_id(&mut out, &mut plan);
        let index = keep_or_drop(&mut out, job.entry_point, job.others);
        if in_place {
            mesh::apply(&mut out, index, &plan);
        } else {
            wrap_entry_point::apply(&mut out, index, &plan, job.policy);
        }
        Ok(Legalized { module: out, plan })
    }
}

/// A vertex function's result with no semantic, a `float4`, is its
/// position (`[[position]]`), as the reference reads it: Metal has no other
/// place for a vertex function's only output.
fn bare_result_is_position(module: &ir::Module, leaves: &mut [map_system_values::RawLeaf]) {
    for leaf in leaves.iter_mut() {
        let float4 = matches!(
            module.types[leaf.ty].inner,
            ir::TypeInner::Vector {
                size: 4,
                scalar: ir::Scalar {
                    kind: ir::ScalarKind::Float,
                    width: 4
                }
            }
        );
        if leaf.root == Root::Result
            && leaf.members.is_empty()
            && leaf.io.binding.is_none()
            && float4
        {
            leaf.io.binding = Some(ir::Binding::Semantic(ir::Semantic::System {
                value: ir::SystemValue::Position,
                index: 0,
            }));
        }
    }
}

/// B20: `SV_GroupIndex` is computed from `[[thread_position_in_threadgroup]]`;
/// when the source does not read that id itself, the plan gains a
/// parameter for it.
///
/// An object function that dispatches meshes needs the id too: one thread
/// of the group copies the payload out (`mesh::apply`).
fn add_group_thread_id(module: &mut ir::Module, plan: &mut Plan) {
    let group_index = plan
        .leaves
        .iter()
        .find(|l| matches!(l.target, Target::GroupIndex { .. }))
        .map(|l| l.span);
    let dispatches =
        plan.stage == ir::ShaderStage::Amplification && plan.extra.object_payload.is_some();
    let Some(span) = group_index.or_else(|| {
        dispatches.then(|| plan.leaves.first().map_or(ir::Span::UNDEFINED, |l| l.span))
    }) else {
        return;
    };
    let reads_id = plan.leaves.iter().any(|l| {
        matches!(
            l.target,
            Target::BuiltIn {
                value: ir::SystemValue::GroupThreadId,
                ..
            }
        )
    });
    if reads_id {
        return;
    }
    let legalis_sysval::MetalMapping::BuiltIn(row) =
        legalis_sysval::metal(ir::SystemValue::GroupThreadId, plan.stage, Direction::Input)
    else {
        return;
    };
    let uint3 = module.types.insert(
        ir::Type {
            name: None,
            inner: ir::TypeInner::Vector {
                size: 3,
                scalar: ir::Scalar::U32,
            },
        },
        ir::Span::UNDEFINED,
    );
    let mut names: FastHashSet<(Direction, String)> = plan
        .leaves
        .iter()
        .map(|l| (l.direction, l.name.clone()))
        .collect();
    let name = unique_name(&mut names, Direction::Input, "group_thread_id".into());
    plan.leaves.push(Leaf {
        path: "SV_GroupThreadID".into(),
        root: Root::Added,
        members: Vec::new(),
        direction: Direction::Input,
        mesh: None,
        // The wrapper gives the parameter the attribute's own type.
        ty: uint3,
        row: None,
        name,
        target: Target::BuiltIn {
            value: ir::SystemValue::GroupThreadId,
            row,
            index: 0,
            interpolation: ir::Interpolation::default(),
            blend: None,
            element: None,
        },
        reason: Reason::Synthesized,
        span,
        semantic: None,
    });
}

fn make_plan(entry: &ir::EntryPoint, leaves: Vec<map_system_values::RawLeaf>) -> Plan {
    let mut names: FastHashSet<(Direction, String)> = FastHashSet::default();
    // Members of a mesh function's vertex and primitive structs: named
    // after the field, one namespace per struct (B21).
    let mut member_names: FastHashSet<(Direction, String)> = FastHashSet::default();
    let leaves = crate::common::plan::decide(leaves, |raw| match raw.mesh {
        Some(kind) => {
            let field = raw
                .path
                .split_once('.')
                .map_or(raw.path.as_str(), |(_, f)| f);
            let space = if kind == ir::MeshOutputKind::Primitives {
                Direction::Input
            } else {
                Direction::Output
            };
            unique_name(&mut member_names, space, interface_name(field))
        }
        None => unique_name(&mut names, raw.direction, interface_name(&raw.path)),
    });
    Plan::new(entry, leaves, Default::default())
}
