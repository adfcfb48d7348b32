//! `@location` numbering and `@interpolate` of WGSL user varyings (B22):
//! per direction, `[[vk::location(n)]]` and semantic-indexed (`SV_Target2`)
//! locations are reserved first; every other leaf takes the lowest free
//! location in declaration order. Two leaves on one location is `E55203`.
//! In a linked pipeline, the inputs the previous stage writes are reserved
//! first, at the locations it writes them (`Reason::Linked`).
//! Interpolation applies between stages only (vertex outputs, fragment
//! inputs), and integers are always `flat`, as WGSL requires.

use std::collections::BTreeMap;

use legalis_ir as ir;
use legalis_ir::diag::Diagnostic;
use legalis_ir::{InterpolationMode, ScalarKind, ShaderStage};
use legalis_sysval::Direction;

use super::map_system_values::RawLeaf;
use super::plan::{Linked, Reason, Target};
use crate::codes;

pub fn assign_locations(
    module: &ir::Module,
    stage: ShaderStage,
    leaves: &mut [RawLeaf],
    linked: &Linked,
) -> Vec<Diagnostic> {
    // Inputs the previous stage of a linked pipeline writes take its
    // locations (they are reserved like explicit ones).
    let from_producer: Vec<Option<u32>> = leaves
        .iter()
        .map(|leaf| {
            let semantic = match &leaf.io.binding {
                Some(ir::Binding::Semantic(s)) => Some(s),
                _ => None,
            };
            let input = leaf.direction == Direction::Input && leaf.target.is_none();
            input
                .then(|| linked.find(semantic))
                .flatten()
                .map(|i| i.location)
        })
        .collect();
    let mut errors = Vec::new();
    for direction in [Direction::Input, Direction::Output] {
        // Location -> leaf; the lowest free location is found from a cursor
        // that only moves up, so numbering stays linear in the leaves.
        let mut taken: BTreeMap<u32, usize> = BTreeMap::new();
        let mut cursor = 0u32;
        for (i, leaf) in leaves.iter().enumerate() {
            if leaf.direction != direction || leaf.target.is_some() {
                continue;
            }
            let reserved = from_producer[i]
                .or(leaf.io.explicit_location)
                .or(leaf.fixed_location);
            if let Some(location) = reserved {
                if let Some(&other) = taken.get(&location) {
                    errors.push(
                        Diagnostic::error(
                            codes::WGSL_LOCATION_CONFLICT,
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
        for (leaf, linked) in leaves.iter_mut().zip(&from_producer) {
            if leaf.direction != direction || leaf.target.is_some() {
                continue;
            }
            let explicit = leaf.io.explicit_location;
            let (location, reason) = match (linked.or(explicit), leaf.fixed_location) {
                (Some(l), _) if *linked == Some(l) => (l, Reason::Linked),
                (Some(l), _) => (l, Reason::ExplicitLocation),
                (None, Some(l)) => (l, Reason::SemanticIndex),
                (None, None) => {
                    while taken.contains_key(&cursor) {
                        cursor += 1;
                    }
                    // The cursor never comes back here: the location need
                    // not be recorded (the map keeps the reserved ones).
                    let location = cursor;
                    cursor += 1;
                    (location, Reason::NextFreeLocation)
                }
            };
            let interpolation = interpolation_for(module, stage, leaf);
            leaf.target = Some((
                Target::Location {
                    location,
                    interpolation,
                },
                reason,
            ));
        }
    }
    errors
}

/// The interpolation a location carries: only between the vertex and
/// fragment stages; integers `flat` whatever was declared.
fn interpolation_for(module: &ir::Module, stage: ShaderStage, leaf: &RawLeaf) -> ir::Interpolation {
    let between_stages = matches!(
        (stage, leaf.direction),
        (ShaderStage::Vertex, Direction::Output) | (ShaderStage::Fragment, Direction::Input)
    );
    if !between_stages {
        return ir::Interpolation::default();
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
    let declared = leaf.io.interpolation;
    match declared.mode {
        // `flat` has no sampling in WGSL's sense.
        Some(InterpolationMode::Flat) => ir::Interpolation {
            mode: Some(InterpolationMode::Flat),
            sampling: None,
        },
        _ => declared,
    }
}
