//! What the three linkers share: a plan's entry point as one side of a
//! link, its leaves at locations as the varyings the every-target check of
//! `legalis_ir::link` compares, and the payload check's errors joined to
//! the varyings'.

use legalis_ir as ir;
use legalis_ir::diag::Diagnostic;
use legalis_ir::link::{Linked, Side, Varying};
use legalis_sysval::Direction;

/// A plan leaf as the linkers see it.
pub(crate) trait LinkLeaf {
    fn direction(&self) -> Direction;
    /// The leaf as the shared check sees it, when it is at a location.
    fn varying(&self) -> Option<Varying<'_>>;
}

/// The entry point `entry` of stage `stage` as one side of a link.
pub(crate) fn side(entry: &str, stage: ir::ShaderStage) -> Side<'_> {
    Side { entry, stage }
}

/// The location leaves of `leaves` in `direction`, in plan order.
pub(crate) fn varyings<L: LinkLeaf>(leaves: &[L], direction: Direction) -> Vec<Varying<'_>> {
    leaves
        .iter()
        .filter(|leaf| leaf.direction() == direction)
        .filter_map(LinkLeaf::varying)
        .collect()
}

/// The varyings' check `matched` after the payload's `errors`: every
/// error of both, or where the inputs go.
pub(crate) fn join(
    mut errors: Vec<Diagnostic>,
    matched: Result<Linked, Vec<Diagnostic>>,
) -> Result<Linked, Vec<Diagnostic>> {
    match matched {
        Ok(linked) if errors.is_empty() => Ok(linked),
        Ok(_) => Err(errors),
        Err(e) => {
            errors.extend(e);
            Err(errors)
        }
    }
}
