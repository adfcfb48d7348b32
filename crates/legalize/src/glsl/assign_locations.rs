//! Location numbering of plain varyings (B1): per direction, explicit
//! `[[vk::location]]` and semantic-indexed (`SV_Target2`) locations are
//! reserved first; every other leaf takes the lowest free run of locations
//! in declaration order. Two leaves claiming one location is an error.

use legalis_ir as ir;
use legalis_ir::ScalarKind;
use legalis_ir::diag::Diagnostic;
use legalis_sysval::Direction;

use crate::codes;
use crate::common::leaves as common;
use crate::common::locations::{Taken, location_count};
use crate::glsl::map_system_values::RawLeaf;
use crate::glsl::plan::{Linked, Reason, Target};

pub fn assign_locations(
    module: &ir::Module,
    stage: ir::ShaderStage,
    leaves: &mut [RawLeaf],
    linked: &Linked,
) -> Vec<Diagnostic> {
    // Inputs the previous stage of a linked pipeline writes take its
    // locations (they are reserved like explicit ones).
    for leaf in leaves.iter_mut() {
        if leaf.direction != Direction::Input || leaf.target.is_some() {
            continue;
        }
        if let Some(input) = linked.find(common::semantic(&leaf.io)) {
            leaf.linked = Some((input.location, input.per_primitive));
        }
    }
    let mut errors = Vec::new();
    for direction in [Direction::Input, Direction::Output] {
        // One numbering per blend source: the second source of dual-source
        // blending (`[[vk::index(1)]]`) shares location 0 with the first.
        let mut taken = [Taken::default(), Taken::default()];
        // Reserved first.
        for (i, leaf) in leaves.iter().enumerate() {
            if leaf.direction != direction || leaf.target.is_some() {
                continue;
            }
            if let Some(location) = leaf
                .linked
                .map(|(l, _)| l)
                .or(leaf.io.explicit_location)
                .or(leaf.fixed_location)
            {
                let count = location_count(module, leaf.ty);
                let taken = &mut taken[common::blend_source(&leaf.io) as usize];
                if let Some((_, other)) = taken.overlapping(location, count) {
                    errors.push(common::location_conflict(
                        codes::LOCATION_CONFLICT,
                        location,
                        (&leaves[other].path, leaves[other].span),
                        (&leaf.path, leaf.span),
                    ));
                }
                taken.insert(location, count, i);
            }
        }
        // Per-control-point (and plain) varyings first, then the patch
        // constants after them (D5), so hull outputs and domain inputs
        // agree and never collide.
        let order: Vec<usize> = (0..leaves.len())
            .filter(|&i| !is_patch(stage, &leaves[i]))
            .chain((0..leaves.len()).filter(|&i| is_patch(stage, &leaves[i])))
            .collect();
        for i in order {
            let leaf = &mut leaves[i];
            if leaf.direction != direction || leaf.target.is_some() {
                continue;
            }
            let count = location_count(module, leaf.ty);
            let linked = leaf.linked.map(|(l, _)| l);
            let (location, reason) =
                match (leaf.io.explicit_location.or(linked), leaf.fixed_location) {
                    (Some(l), _) if linked == Some(l) => (l, Reason::Linked),
                    (Some(l), _) => (l, Reason::ExplicitLocation),
                    (None, Some(l)) => (l, Reason::SemanticIndex),
                    (None, None) => {
                        let taken = &mut taken[common::blend_source(&leaf.io) as usize];
                        (taken.take_lowest_free(count, i), Reason::NextFreeLocation)
                    }
                };
            // SPIR-V numbers locations with 32 bits: a run that passes the
            // last one (`[[vk::location(4294967295)]]` on an array) has no
            // numbers for its rest.
            if location.checked_add(count.max(1) - 1).is_none() {
                errors.push(Diagnostic::error(
                    codes::LOCATION_LIMIT,
                    format!(
                        "`{}` at location {location} takes {count} locations, past the last one GLSL and SPIR-V number ({})",
                        leaf.path,
                        u32::MAX
                    ),
                    leaf.span,
                ));
                continue;
            }
            let patch = is_patch(stage, leaf);
            let interpolation = if patch {
                ir::Interpolation::default()
            } else {
                interpolation_for(module, stage, leaf)
            };
            let target = Target::Location {
                location,
                count,
                index: leaf.io.explicit_index,
                interpolation,
                patch,
                per_primitive: leaf.mesh == Some(ir::MeshOutputKind::Primitives)
                    || leaf.linked.is_some_and(|(_, p)| p),
            };
            leaf.target = Some((target, reason));
        }
    }
    let located = leaves.iter().filter_map(|leaf| match &leaf.target {
        Some((Target::Location { location, .. }, _)) => Some(common::Located {
            direction: leaf.direction,
            io: &leaf.io,
            location: *location,
            path: &leaf.path,
            span: leaf.span,
        }),
        _ => None,
    });
    errors.extend(common::blend_index_errors(
        stage,
        codes::BLEND_INDEX,
        located,
    ));
    errors
}

/// A per-patch varying: a hull output of the patch-constant function, or a
/// domain input outside the control-point patch (a field of the
/// patch-constant struct).
fn is_patch(stage: ir::ShaderStage, leaf: &RawLeaf) -> bool {
    match (stage, leaf.direction) {
        (ir::ShaderStage::Hull, Direction::Output) => leaf.root.is_patch_constant(),
        (ir::ShaderStage::Domain, Direction::Input) => leaf.vertices.is_none(),
        _ => false,
    }
}

/// Integer, `bool` (which travels as `uint`) and 64-bit float varyings
/// between the vertex and fragment stages must be `flat` in Vulkan; the
/// user's interpolation is kept otherwise.
fn interpolation_for(
    module: &ir::Module,
    stage: ir::ShaderStage,
    leaf: &RawLeaf,
) -> ir::Interpolation {
    let mut interpolation = leaf.io.interpolation;
    let crosses_rasterizer = matches!(
        (stage, leaf.direction),
        (ir::ShaderStage::Fragment, Direction::Input)
            | (
                ir::ShaderStage::Vertex | ir::ShaderStage::Geometry | ir::ShaderStage::Mesh,
                Direction::Output
            )
    );
    if crosses_rasterizer && must_be_flat(module, leaf.ty) {
        interpolation.mode = Some(ir::InterpolationMode::Flat);
    }
    interpolation
}

fn must_be_flat(module: &ir::Module, ty: ir::Handle<ir::Type>) -> bool {
    match module.types.try_get(ty).map(|t| &t.inner) {
        Some(ir::TypeInner::Array { base, .. }) => must_be_flat(module, *base),
        Some(inner) => inner.scalar().is_some_and(|s| match s.kind {
            ScalarKind::Sint | ScalarKind::Uint | ScalarKind::Bool => true,
            ScalarKind::Float => s.width == 8,
        }),
        None => false,
    }
}
