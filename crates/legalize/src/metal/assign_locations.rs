//! Location numbering and interpolation of Metal user varyings: per
//! direction, `[[vk::location(n)]]` and semantic-indexed (`SV_Target2` →
//! `[[color(2)]]`) locations are reserved first; every other leaf takes
//! the lowest free location in declaration order, so a vertex output and
//! the fragment input of the same declaration order meet at one
//! `[[user(SEMANTIC)]]` (by semantic). Two leaves on one location is `E55303`.
//! Interpolation applies between stages only (vertex and mesh outputs,
//! fragment inputs); integers and per-primitive mesh outputs are always
//! `[[flat]]`.

use legalis_ir as ir;
use legalis_ir::ShaderStage;
use legalis_ir::diag::Diagnostic;
use legalis_sysval::{Direction, MetalMapping};

use super::map_system_values::RawLeaf;
use super::plan::{Reason, Target};
use crate::codes;
use crate::common::leaves;
use crate::common::locations::Locations;

pub fn assign_locations(
    module: &ir::Module,
    stage: ShaderStage,
    leaves: &mut [RawLeaf],
) -> Vec<Diagnostic> {
    let mut errors = Vec::new();
    for direction in [Direction::Input, Direction::Output] {
        let reserved = |_, leaf: &RawLeaf| leaf.io.explicit_location.or(leaf.fixed_location);
        let code = codes::METAL_LOCATION_CONFLICT;
        let mut taken = Locations::reserve(module, leaves, direction, reserved, code, &mut errors);
        for (i, leaf) in leaves.iter_mut().enumerate() {
            if leaf.direction != direction || leaf.target.is_some() {
                continue;
            }
            let (location, reason) = match (leaf.io.explicit_location, leaf.fixed_location) {
                (Some(l), _) => (l, Reason::ExplicitLocation),
                (None, Some(l)) => (l, Reason::SemanticIndex),
                (None, None) => (taken.next_free(leaf.row, i), Reason::NextFreeLocation),
            };
            let interpolation = interpolation_for(module, stage, leaf);
            // Dual-source blending: `[[color(0), index(1)]]`.
            let blend = match (stage, direction) {
                (ShaderStage::Fragment, Direction::Output) => leaf.io.explicit_index,
                _ => None,
            };
            let target = match color_row(stage, leaf) {
                Some((value, row)) => Target::BuiltIn {
                    value,
                    row,
                    index: location,
                    interpolation: ir::Interpolation::default(),
                    blend,
                    element: None,
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
                    blend,
                },
            };
            leaf.target = Some((target, reason));
        }
    }
    let located = leaves.iter().filter_map(|leaf| {
        let location = match &leaf.target {
            Some((Target::BuiltIn { row, index, .. }, _)) if row.by_index => *index,
            Some((Target::Location { location, .. }, _)) => *location,
            _ => return None,
        };
        Some(leaves::Located {
            direction: leaf.direction,
            io: &leaf.io,
            location,
            path: &leaf.path,
            span: leaf.span,
        })
    });
    errors.extend(leaves::blend_index_errors(
        stage,
        codes::METAL_BLEND_INDEX,
        located,
    ));
    errors.extend(link_name_conflicts(stage, leaves));
    errors
}

/// Two varyings between stages that link by one `[[user(NAME)]]`: the
/// next stage could not tell them apart. The semantics are the same
/// (`TEXCOORD1` twice), or a matrix's rows reach another declaration's
/// semantic (a `float4x4` at `TEXCOORD0` takes `TEXCOORD0` to
/// `TEXCOORD3`, as D3D counts them).
fn link_name_conflicts(stage: ShaderStage, leaves: &[RawLeaf]) -> Vec<Diagnostic> {
    let mut errors = Vec::new();
    let mut seen: std::collections::BTreeMap<(bool, String), usize> = Default::default();
    for (i, leaf) in leaves.iter().enumerate() {
        let Some((
            Target::Location {
                location,
                interpolation,
                link: Some(link),
                ..
            },
            _,
        )) = &leaf.target
        else {
            continue;
        };
        let attribute = legalis_sysval::metal::location_attribute(
            stage,
            leaf.direction,
            *location,
            *interpolation,
            Some(link),
        );
        if !attribute.starts_with("user(") {
            continue;
        }
        let key = (leaf.direction == Direction::Input, link.clone());
        if let Some(&other) = seen.get(&key) {
            let other = &leaves[other];
            let why = if other.row.is_some() || leaf.row.is_some() {
                "a matrix takes one semantic index per row, as D3D counts them"
            } else {
                "each varying needs a semantic of its own"
            };
            errors.push(
                Diagnostic::error(
                    codes::METAL_LOCATION_CONFLICT,
                    format!(
                        "`{}` and `{}` both link to the next stage as `[[user({link})]]`: {why}",
                        other.path, leaf.path
                    ),
                    leaf.span,
                )
                .with_label(other.span, "the other one"),
            );
            continue;
        }
        seen.insert(key, i);
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
    let primitive = leaf.mesh == Some(ir::MeshOutputKind::Primitives);
    if primitive || leaves::is_integer(module, leaf.ty) {
        return leaves::FLAT;
    }
    leaf.io.interpolation
}
