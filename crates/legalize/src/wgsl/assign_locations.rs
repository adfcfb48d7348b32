//! `@location` numbering and `@interpolate` of WGSL user varyings (B22):
//! per direction, `[[vk::location(n)]]` and semantic-indexed (`SV_Target2`)
//! locations are reserved first; every other leaf takes the lowest free
//! location in declaration order. Two leaves on one location is `E55203`.
//! In a linked pipeline, the inputs the previous stage writes are reserved
//! first, at the locations it writes them (`Reason::Linked`).
//! Interpolation applies between stages only (vertex outputs, fragment
//! inputs), and integers are always `flat`, as WGSL requires. Under
//! `-fvk-widen-16bit-varyings` (`widen`) a `half` location is marked
//! widened: it travels as `f32`.

use legalis_ir as ir;
use legalis_ir::diag::Diagnostic;
use legalis_ir::{InterpolationMode, ShaderStage};
use legalis_sysval::Direction;

use super::map_system_values::RawLeaf;
use super::plan::{Linked, Reason, Target};
use crate::codes;
use crate::common::leaves;
use crate::common::locations::Locations;

pub fn assign_locations(
    module: &ir::Module,
    stage: ShaderStage,
    leaves: &mut [RawLeaf],
    linked: &Linked,
    widen: bool,
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
        let mut taken = Locations::reserve(module, leaves, direction, reserved, code, &mut errors);
        for (i, (leaf, linked)) in leaves.iter_mut().zip(&from_producer).enumerate() {
            if leaf.direction != direction || leaf.target.is_some() {
                continue;
            }
            let explicit = leaf.io.explicit_location;
            let (location, reason) = match (linked.or(explicit), leaf.fixed_location) {
                (Some(l), _) if *linked == Some(l) => (l, Reason::Linked),
                (Some(l), _) => (l, Reason::ExplicitLocation),
                (None, Some(l)) => (l, Reason::SemanticIndex),
                (None, None) => (taken.next_free(leaf.row, i), Reason::NextFreeLocation),
            };
            let interpolation = interpolation_for(module, stage, leaf);
            let widened = widen && leaves::is_half(module, leaf.ty);
            leaf.target = Some((
                Target::Location {
                    location,
                    interpolation,
                    blend: None,
                    widened,
                },
                reason,
            ));
        }
    }
    errors.extend(dual_source_blending(module, stage, leaves));
    errors
}

/// `@blend_src`: the leaves of a dual-source blending fragment take their
/// source, and anything WGSL cannot write is an error. WGSL blends two
/// sources only as exactly two outputs of one type at `@location(0)`,
/// `@blend_src(0)` and `@blend_src(1)`: no other output at a location, and
/// no `@blend_src` at all without the second source (a lone
/// `[[vk::index(0)]]` is the default source, written as plain
/// `@location(0)`).
fn dual_source_blending(
    module: &ir::Module,
    stage: ShaderStage,
    leaves: &mut [RawLeaf],
) -> Vec<Diagnostic> {
    let located = |leaf: &RawLeaf| match &leaf.target {
        Some((Target::Location { location, .. }, _)) => Some(*location),
        _ => None,
    };
    let mut errors = leaves::blend_index_errors(
        stage,
        codes::WGSL_BLEND_INDEX,
        leaves.iter().filter_map(|leaf| {
            Some(leaves::Located {
                direction: leaf.direction,
                io: &leaf.io,
                location: located(leaf)?,
                path: &leaf.path,
                span: leaf.span,
            })
        }),
    );
    let outputs: Vec<usize> = (0..leaves.len())
        .filter(|&i| leaves[i].direction == Direction::Output && located(&leaves[i]).is_some())
        .collect();
    let second = outputs
        .iter()
        .copied()
        .find(|&i| leaves::blend_source(&leaves[i].io) == 1);
    // Misplaced indices are reported already.
    let Some(second) = second.filter(|_| errors.is_empty()) else {
        return errors;
    };
    let first = outputs
        .iter()
        .copied()
        .find(|&i| located(&leaves[i]) == Some(0) && leaves::blend_source(&leaves[i].io) == 0);
    let Some(first) = first else {
        errors.push(Diagnostic::error(
            codes::WGSL_BLEND_INDEX,
            format!(
                "`{}` is the second source of dual-source blending, but no output is the first (location 0, `[[vk::index(0)]]`): WGSL's `@blend_src` takes both",
                leaves[second].path
            ),
            leaves[second].span,
        ));
        return errors;
    };
    for &i in &outputs {
        if i != first && i != second {
            errors.push(
                Diagnostic::error(
                    codes::WGSL_BLEND_INDEX,
                    format!(
                        "`{}` is an output at a location beside dual-source blending: WGSL's `@blend_src` outputs must be the only ones at a location",
                        leaves[i].path
                    ),
                    leaves[i].span,
                )
                .with_label(leaves[second].span, "the second blend source"),
            );
        }
    }
    if module.types[leaves[first].ty].inner != module.types[leaves[second].ty].inner {
        errors.push(
            Diagnostic::error(
                codes::WGSL_BLEND_INDEX,
                format!(
                    "`{}` and `{}` are the two sources of dual-source blending with different types: WGSL's `@blend_src(0)` and `@blend_src(1)` have one type",
                    leaves[first].path, leaves[second].path
                ),
                leaves[second].span,
            )
            .with_label(leaves[first].span, "the first blend source"),
        );
    }
    for (i, source) in [(first, 0), (second, 1)] {
        if let Some((Target::Location { blend, .. }, _)) = &mut leaves[i].target {
            *blend = Some(source);
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
