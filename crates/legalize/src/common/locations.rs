//! Location numbering, every target's: how many locations a varying of a
//! type takes, and the locations taken in one direction as runs, so that
//! a matrix (one location per HLSL row) or an array takes consecutive
//! free locations wherever it fits, filling the gaps reserved locations
//! leave, as glslang numbers them. GLSL's numbering and the WGSL and
//! Metal one ([`Locations`]) are the same.

use std::collections::BTreeMap;

use legalis_ir as ir;
use legalis_ir::diag::Diagnostic;
use legalis_ir::{Handle, Type, TypeInner};
use legalis_sysval::Direction;

use super::leaves::{RawLeaf, blend_source, location_conflict};

/// Locations a value of `ty` occupies as a varying: one per vector or
/// scalar, two for 64-bit vectors of more than two components, one per
/// HLSL row for matrices (the GLSL writer prints HLSL `floatRxC` as GLSL
/// `matRxC`, whose R columns are the HLSL rows), two per row when the rows
/// are 64-bit vectors of more than two components (`double3x3` takes six),
/// times the element count for arrays.
pub(crate) fn location_count(module: &ir::Module, ty: Handle<Type>) -> u32 {
    match module.types.try_get(ty).map(|t| &t.inner) {
        Some(TypeInner::Scalar(_)) => 1,
        Some(TypeInner::Vector { size, scalar }) if scalar.width == 8 && *size > 2 => 2,
        Some(TypeInner::Vector { .. }) => 1,
        Some(TypeInner::Matrix {
            rows,
            columns,
            scalar,
        }) => {
            let per_row = if scalar.width == 8 && *columns > 2 {
                2
            } else {
                1
            };
            u32::from(*rows) * per_row
        }
        Some(TypeInner::Array {
            base,
            size: ir::ArraySize::Constant(n),
        }) => n.saturating_mul(location_count(module, *base)),
        _ => 1,
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
pub(crate) struct Taken {
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
    pub(crate) fn overlapping(&self, start: u32, count: u32) -> Option<(u32, usize)> {
        let end = start.saturating_add(count);
        let from = start.saturating_sub(self.longest.saturating_sub(1));
        self.runs
            .range((from, 0)..(end, 0))
            .find(|&(&(s, _), &c)| overlaps(s, c, start, count))
            .map(|(&(s, leaf), &c)| (s.saturating_add(c), leaf))
    }

    pub(crate) fn insert(&mut self, start: u32, count: u32, leaf: usize) {
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
    pub(crate) fn take_lowest_free(&mut self, count: u32, leaf: usize) -> u32 {
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

/// The user-varying locations of one direction (WGSL and Metal): the
/// reserved ones first, then the lowest free run for each other leaf in
/// declaration order, one numbering per blend source (the second source
/// of dual-source blending shares location 0 with the first), as GLSL's.
pub(crate) struct Locations {
    taken: [Taken; 2],
    /// The first location of the matrix whose rows are being numbered.
    matrix: u32,
}

impl Locations {
    /// Reserves `reserved(i, leaf)` for every undecided leaf of
    /// `direction`, as many locations as its type takes; a location
    /// reserved twice is an error `code`.
    pub(crate) fn reserve<T>(
        module: &ir::Module,
        leaves: &[RawLeaf<T>],
        direction: Direction,
        reserved: impl Fn(usize, &RawLeaf<T>) -> Option<u32>,
        code: u32,
        errors: &mut Vec<Diagnostic>,
    ) -> Locations {
        let mut taken = [Taken::default(), Taken::default()];
        for (i, leaf) in leaves.iter().enumerate() {
            if leaf.direction != direction || leaf.target.is_some() {
                continue;
            }
            if let Some(location) = reserved(i, leaf) {
                let count = location_count(module, leaf.ty);
                let taken = &mut taken[blend_source(&leaf.io) as usize];
                if let Some((_, other)) = taken.overlapping(location, count) {
                    let other: &RawLeaf<T> = &leaves[other];
                    errors.push(location_conflict(
                        code,
                        location,
                        (&other.path, other.span),
                        (&leaf.path, leaf.span),
                    ));
                }
                taken.insert(location, count, i);
            }
        }
        Locations { taken, matrix: 0 }
    }

    /// The location of leaf `i`, which has none reserved: the lowest one
    /// neither reserved nor handed out yet. A matrix's rows (`row`: the
    /// row and the matrix's rows, leaves that follow each other) take the
    /// lowest free run of consecutive locations, as GLSL numbers the
    /// matrix.
    pub(crate) fn next_free(&mut self, row: Option<(u32, u32)>, i: usize) -> u32 {
        match row {
            Some((k, _)) if k > 0 => self.matrix.saturating_add(k),
            Some((_, rows)) => {
                self.matrix = self.taken[0].take_lowest_free(rows, i);
                self.matrix
            }
            None => self.taken[0].take_lowest_free(1, i),
        }
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
