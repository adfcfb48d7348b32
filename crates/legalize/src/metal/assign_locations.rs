//! Location numbering and interpolation of Metal user varyings: per
//! direction, `[[vk::location(n)]]` and semantic-indexed (`SV_Target2` →
//! `[[color(2)]]`) locations are reserved first; every other leaf takes
//! the lowest free location in declaration order, so a vertex output and
//! the fragment input of the same declaration order meet at one
//! `[[user(SEMANTIC)]]` (by semantic). Two leaves on one location is `E55303`.
//! Interpolation applies between stages only (vertex and mesh outputs,
//! fragment inputs); integers and per-primitive mesh outputs are always
//! `[[flat]]`.

use legalis_ir::FastHashMap;

use legalis_ir as ir;
use legalis_ir::diag::Diagnostic;
use legalis_ir::{InterpolationMode, ScalarKind, ShaderStage};
use legalis_sysval::{Direction, MetalMapping};

use super::map_system_values::RawLeaf;
use super::plan::{Reason, Target};
use crate::codes;

pub fn assign_locations(
    module: &ir::Module,
    stage: ShaderStage,
    leaves: &mut [RawLeaf],
) -> Vec<Diagnostic> {
    let mut errors = Vec::new();
    for direction in [Direction::Input, Direction::Output] {
        // Location → the first leaf on it. Free locations are only ever
        // consumed, so the lowest free one never moves back: `next` only
        // advances, and the numbering is linear in the leaves.
        let mut taken: FastHashMap<u32, usize> = FastHashMap::default();
        let mut next = 0u32;
        for (i, leaf) in leaves.iter().enumerate() {
            if leaf.direction != direction || leaf.target.is_some() {
                continue;
            }
            if let Some(location) = leaf.io.explicit_location.or(leaf.fixed_location) {
                if let Some(&other) = taken.get(&location) {
                    errors.push(
                        Diagnostic::error(
                            codes::METAL_LOCATION_CONFLICT,
                            format!(
                                "`{}` and `{}` both use location {location}",
                                leaves[other].path, leaf.path
                            ),
                            leaf.span,
                        )
                        .with_label(leaves[other].span, "the other one"),
                    );
                }
                taken.entry(location).or_insert(i);
            }
        }
        for leaf in leaves.iter_mut() {
            if leaf.direction != direction || leaf.target.is_some() {
                continue;
            }
            let (location, reason) = match (leaf.io.explicit_location, leaf.fixed_location) {
                (Some(l), _) => (l, Reason::ExplicitLocation),
                (None, Some(l)) => (l, Reason::SemanticIndex),
                (None, None) => {
                    while taken.contains_key(&next) {
                        next += 1;
                    }
                    // `next` never comes back here: the location need not
                    // be recorded (the map keeps the reserved ones).
                    let location = next;
                    next += 1;
                    (location, Reason::NextFreeLocation)
                }
            };
            let interpolation = interpolation_for(module, stage, leaf);
            let target = match color_row(stage, leaf) {
                Some((value, row)) => Target::BuiltIn {
                    value,
                    row,
                    index: location,
                    interpolation: ir::Interpolation::default(),
                },
                None => Target::Location {
                    location,
                    interpolation,
                    link: match &leaf.io.binding {
                        Some(ir::Binding::Semantic(ir::Semantic::User { name, index })) => {
                            Some(legalis_sysval::metal::link_name(name, *index))
                        }
                        _ => None,
                    },
                },
            };
            leaf.target = Some((target, reason));
        }
    }
    errors
}

/// `SV_TargetN` keeps its table row (`color(N)`), with the location as
/// its index.
fn color_row(
    stage: ShaderStage,
    leaf: &RawLeaf,
) -> Option<(ir::SystemValue, legalis_sysval::MetalBuiltin)> {
    let Some(ir::Binding::Semantic(ir::Semantic::System { value, .. })) = &leaf.io.binding else {
        return None;
    };
    match legalis_sysval::metal(*value, stage, leaf.direction) {
        MetalMapping::BuiltIn(row) if row.by_index => Some((*value, row)),
        _ => None,
    }
}

/// The interpolation a location carries: only between the vertex and
/// fragment stages; integers `flat` whatever was declared.
fn interpolation_for(module: &ir::Module, stage: ShaderStage, leaf: &RawLeaf) -> ir::Interpolation {
    let between_stages = matches!(
        (stage, leaf.direction),
        (ShaderStage::Vertex | ShaderStage::Mesh, Direction::Output)
            | (ShaderStage::Fragment, Direction::Input)
    );
    if !between_stages {
        return ir::Interpolation::default();
    }
    // B21: one value per primitive is not interpolated.
    if leaf.mesh == Some(ir::MeshOutputKind::Primitives) {
        return ir::Interpolation {
            mode: Some(InterpolationMode::Flat),
            sampling: None,
        };
    }
    let integer = module
        .types
        .try_get(leaf.ty)
        .and_then(|t| t.inner.scalar())
        .is_some_and(|s| matches!(s.kind, ScalarKind::Sint | ScalarKind::Uint));
    if integer {
        return ir::Interpolation {
            mode: Some(InterpolationMode::Flat),
            sampling: None,
        };
    }
    leaf.io.interpolation
}
