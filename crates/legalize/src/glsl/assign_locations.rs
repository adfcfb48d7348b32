//! Location numbering of plain varyings (B1): per direction, explicit
//! `[[vk::location]]` and semantic-indexed (`SV_Target2`) locations are
//! reserved first; every other leaf takes the lowest free run of locations
//! in declaration order. Two leaves claiming one location is an error.

use std::collections::BTreeMap;

use legalis_ir as ir;
use legalis_ir::ScalarKind;
use legalis_ir::diag::Diagnostic;
use legalis_sysval::Direction;

use crate::codes;
use crate::common::leaves as common;
use crate::glsl::map_system_values::RawLeaf;
use crate::glsl::plan::{Linked, Reason, Target, location_count};

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

fn overlaps(a: u32, a_count: u32, b: u32, b_count: u32) -> bool {
    a < b.saturating_add(b_count) && b < a.saturating_add(a_count)
}

/// The locations taken in one direction, as runs `start..start + count`
/// of a leaf. Lookups cost the log of the number of runs, so numbering
/// thousands of varyings stays linear in practice (no scan of every run
/// for every leaf).
#[derive(Debug, Default)]
struct Taken {
    /// Runs by `(start, leaf)`: their counts; explicit locations may
    /// overlap. (One entry a run: no list per start to allocate.)
    runs: BTreeMap<(u32, usize), u32>,
    /// The longest run: only runs starting this far back can reach a
    /// location.
    longest: u32,
    /// Every location below this one is taken.
    prefix: u32,
}

impl Taken {
    /// The end and the leaf of a run that overlaps `start..start + count`.
    fn overlapping(&self, start: u32, count: u32) -> Option<(u32, usize)> {
        let end = start.saturating_add(count);
        let from = start.saturating_sub(self.longest.saturating_sub(1));
        self.runs
            .range((from, 0)..(end, 0))
            .find(|&(&(s, _), &c)| overlaps(s, c, start, count))
            .map(|(&(s, leaf), &c)| (s.saturating_add(c), leaf))
    }

    fn insert(&mut self, start: u32, count: u32, leaf: usize) {
        self.runs.insert((start, leaf), count);
        self.longest = self.longest.max(count);
        let end = start.saturating_add(count);
        if start <= self.prefix && self.prefix < end {
            self.prefix = end;
        }
        self.advance_prefix();
    }

    /// Moves the prefix over the runs that start where it ends.
    fn advance_prefix(&mut self) {
        loop {
            let end = self
                .runs
                .range((self.prefix, 0)..=(self.prefix, usize::MAX))
                .map(|(_, &c)| self.prefix.saturating_add(c))
                .max()
                .unwrap_or(self.prefix);
            if end == self.prefix {
                break;
            }
            self.prefix = end;
        }
    }

    /// [`Taken::lowest_free`], taken by `leaf`. A run at the prefix only
    /// moves the prefix: every later search starts there, so the run is
    /// not kept (numbering thousands of varyings touches no tree).
    fn take_lowest_free(&mut self, count: u32, leaf: usize) -> u32 {
        let start = self.lowest_free(count);
        if start == self.prefix && count > 0 {
            self.prefix = start.saturating_add(count);
            self.advance_prefix();
        } else {
            self.insert(start, count, leaf);
        }
        start
    }

    /// The lowest start of `count` free locations.
    fn lowest_free(&self, count: u32) -> u32 {
        let mut candidate = self.prefix;
        while let Some((end, _)) = self.overlapping(candidate, count) {
            candidate = end;
        }
        candidate
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

#[cfg(test)]
mod tests {
    use super::Taken;

    #[test]
    fn the_lowest_free_run_skips_taken_runs_and_fills_gaps() {
        let mut taken = Taken::default();
        // Reserved: 2..4 (a matrix) and 7.
        taken.insert(2, 2, 0);
        taken.insert(7, 1, 1);
        assert_eq!(taken.lowest_free(1), 0);
        taken.insert(0, 1, 2);
        // One location fits at 1; three do not until 4.
        assert_eq!(taken.lowest_free(3), 4);
        assert_eq!(taken.lowest_free(1), 1);
        taken.insert(1, 1, 3);
        // 0..4 is taken now; 4..7 is free, 7 is not.
        assert_eq!(taken.prefix, 4);
        assert_eq!(taken.lowest_free(4), 8);
        assert_eq!(taken.lowest_free(3), 4);
        assert_eq!(taken.overlapping(3, 1), Some((4, 0)));
        assert_eq!(taken.overlapping(6, 2), Some((8, 1)));
        assert_eq!(taken.overlapping(4, 3), None);
        // A long run reached from far ahead of its start.
        taken.insert(20, 10, 4);
        assert_eq!(taken.overlapping(29, 1), Some((30, 4)));
        assert_eq!(taken.lowest_free(12), 8);
        assert_eq!(taken.lowest_free(13), 30);
        // A zero-length array takes nothing, even at the prefix.
        taken.insert(4, 0, 5);
        assert_eq!(taken.prefix, 4);
        assert_eq!(taken.lowest_free(1), 4);
    }

    #[test]
    fn taking_the_lowest_free_run_moves_the_prefix_over_taken_runs() {
        let mut taken = Taken::default();
        // Reserved: 3 and 5..7.
        taken.insert(3, 1, 0);
        taken.insert(5, 2, 1);
        assert_eq!(taken.take_lowest_free(2, 2), 0);
        assert_eq!(taken.prefix, 2);
        // 2 is free, then 3 is taken: the prefix runs on to 4.
        assert_eq!(taken.take_lowest_free(1, 3), 2);
        assert_eq!(taken.prefix, 4);
        // Two locations do not fit at 4 (5 is taken): the first fit is 7.
        assert_eq!(taken.take_lowest_free(2, 4), 7);
        assert_eq!(taken.prefix, 4);
        assert_eq!(taken.overlapping(8, 1), Some((9, 4)));
        // 4 fills the gap, and the prefix runs over 5..7 and 7..9.
        assert_eq!(taken.take_lowest_free(1, 5), 4);
        assert_eq!(taken.prefix, 9);
        assert_eq!(taken.take_lowest_free(0, 6), 9);
        assert_eq!(taken.take_lowest_free(1, 7), 9);
        assert_eq!(taken.prefix, 10);
    }
}
