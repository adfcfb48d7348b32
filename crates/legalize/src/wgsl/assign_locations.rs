//! `@location` numbering and `@interpolate` of WGSL user varyings (B22):
//! per direction, `[[vk::location(n)]]` and semantic-indexed (`SV_Target2`)
//! locations are reserved first; every other leaf takes the lowest free
//! location in declaration order. Two leaves on one location is `E55203`.
//! In a linked pipeline, the inputs the previous stage writes are reserved
//! first, at the locations it writes them (`Reason::Linked`).
//! Interpolation applies between stages only (vertex outputs, fragment
//! inputs), and integers are always `flat`, as WGSL requires.

use legalis_ir as ir;
use legalis_ir::diag::Diagnostic;
use legalis_ir::{InterpolationMode, ShaderStage};
use legalis_sysval::Direction;

use super::map_system_values::RawLeaf;
use super::plan::{Linked, Reason, Target};
use crate::codes;
use crate::common::leaves::{self, Locations};

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
            let input = leaf.direction == Direction::Input && leaf.target.is_none();
            input
                .then(|| linked.find(leaves::semantic(&leaf.io)))
                .flatten()
                .map(|i| i.location)
        })
        .collect();
    let mut errors = Vec::new();
    for direction in [Direction::Input, Direction::Output] {
        let reserved = |i: usize, leaf: &RawLeaf| {
            from_producer[i]
                .or(leaf.io.explicit_location)
                .or(leaf.fixed_location)
        };
        let code = codes::WGSL_LOCATION_CONFLICT;
        let mut taken = Locations::reserve(leaves, direction, reserved, code, &mut errors);
        for (leaf, linked) in leaves.iter_mut().zip(&from_producer) {
            if leaf.direction != direction || leaf.target.is_some() {
                continue;
            }
            let explicit = leaf.io.explicit_location;
            let (location, reason) = match (linked.or(explicit), leaf.fixed_location) {
                (Some(l), _) if *linked == Some(l) => (l, Reason::Linked),
                (Some(l), _) => (l, Reason::ExplicitLocation),
                (None, Some(l)) => (l, Reason::SemanticIndex),
                (None, None) => (taken.next_free(), Reason::NextFreeLocation),
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
    let declared = leaf.io.interpolation;
    // `flat` has no sampling in WGSL's sense.
    if leaves::is_integer(module, leaf.ty) || declared.mode == Some(InterpolationMode::Flat) {
        return leaves::FLAT;
    }
    declared
}
