//! Collects the leaves of an entry point's signature (nested structs
//! flattened: B19's one attributed parameter per field of a fragment
//! input struct, and one member per field of the result struct) and
//! decides from the system-value table's Metal column which are
//! attributes (B19, B20), which are user varyings, and which are
//! synthesised (`SV_GroupIndex`). A system value Metal cannot express is
//! `E55302` at its declaration: never dropped, never made a varying.

use legalis_ir as ir;
use legalis_ir::diag::Diagnostic;
use legalis_ir::{Handle, SystemValue, Type, TypeInner};
use legalis_sysval::{BuiltinType, Direction, MetalMapping};

use super::plan::{Reason, Root, Target};
use crate::codes;
use crate::common::leaves;

/// A leaf before locations are assigned.
pub type RawLeaf = leaves::RawLeaf<(Target, Reason)>;

fn rules() -> leaves::Rules<(Target, Reason)> {
    leaves::Rules {
        uniform: (Target::Uniform, Reason::Uniform),
        matrix_rows: true,
        shape_code: codes::METAL_UNSUPPORTED_SHAPE,
        not_a: "a Metal varying: Metal stage inputs and outputs are scalars and vectors",
    }
}

/// Every leaf of the entry point, in declaration order: parameters first,
/// then the result; a mesh function's payload and outputs (B21) too.
pub fn collect_leaves(
    module: &ir::Module,
    func: &ir::Function,
) -> Result<Vec<RawLeaf>, Vec<Diagnostic>> {
    let rules = rules();
    leaves::collect(module, func, &rules, |index, param, leaves, errors| {
        mesh_leaves(module, &rules, index, param, leaves, errors)
    })
}

/// B21: the payload and the mesh outputs of a mesh function; whether
/// `param` is one.
fn mesh_leaves(
    module: &ir::Module,
    rules: &leaves::Rules<(Target, Reason)>,
    index: u32,
    param: &ir::FunctionParam,
    leaves: &mut Vec<RawLeaf>,
    errors: &mut Vec<Diagnostic>,
) -> bool {
    let root = Root::Param(index);
    let fixed = |target, reason, direction| RawLeaf {
        path: param.name.clone(),
        root: root.clone(),
        members: Vec::new(),
        direction,
        mesh: None,
        ty: param.ty,
        io: param.io.clone(),
        span: param.span,
        target: Some((target, reason)),
        fixed_location: None,
        row: None,
    };
    if param.role == ir::ParamRole::Payload {
        leaves.push(fixed(Target::Payload, Reason::Payload, Direction::Input));
        return true;
    }
    let Some(TypeInner::MeshOutput { kind, element, .. }) =
        module.types.try_get(param.ty).map(|t| &t.inner)
    else {
        return false;
    };
    if *kind == ir::MeshOutputKind::Indices {
        let per_primitive = match module.types.try_get(*element).map(|t| &t.inner) {
            Some(TypeInner::Vector { size, .. }) => u32::from(*size),
            _ => 1,
        };
        leaves.push(fixed(
            Target::Indices { per_primitive },
            Reason::Topology,
            Direction::Output,
        ));
        return true;
    }
    let at = leaves::Walk {
        root: root.clone(),
        direction: Direction::Output,
        path: param.name.clone(),
        members: Vec::new(),
    };
    let first = leaves.len();
    // A mesh output element is written whole: its matrices stay matrices
    // (refused by `shape`).
    let rules = leaves::Rules {
        matrix_rows: false,
        ..rules.clone()
    };
    leaves::walk(
        module, &rules, at, *element, &param.io, param.span, leaves, errors,
    );
    for leaf in &mut leaves[first..] {
        leaf.mesh = Some(*kind);
    }
    true
}

/// Decides every leaf that is a system value from the table; the others
/// stay for location assignment. Returns the errors.
pub fn map_leaves(
    module: &ir::Module,
    entry: &ir::EntryPoint,
    leaves: &mut [RawLeaf],
) -> Vec<Diagnostic> {
    let mut errors = leaves::map_system_values(leaves, &Metal { module, entry });
    if errors.is_empty() {
        errors = leaves::pack_distances(module, leaves, codes::METAL_CLIP_DISTANCES);
    }
    errors
}

/// The Metal column of the table, for one entry point.
struct Metal<'m> {
    module: &'m ir::Module,
    entry: &'m ir::EntryPoint,
}

impl leaves::Column<(Target, Reason)> for Metal<'_> {
    const UNKNOWN_SYSTEM_VALUE: u32 = codes::METAL_UNKNOWN_SYSTEM_VALUE;

    const UNSUPPORTED: (u32, fn(SystemValue) -> String) = (
        codes::METAL_UNSUPPORTED_SYSTEM_VALUE,
        legalis_sysval::metal::unsupported_message,
    );

    fn stage(&self) -> ir::ShaderStage {
        self.entry.stage
    }

    fn system_value(&self, leaf: &mut RawLeaf, sv: SystemValue, index: u32) -> Option<Diagnostic> {
        match legalis_sysval::metal(sv, self.entry.stage, leaf.direction) {
            MetalMapping::BuiltIn(_)
                if leaf.mesh.is_some_and(|kind| {
                    (kind == ir::MeshOutputKind::Primitives)
                        != legalis_sysval::metal::per_primitive(sv)
                }) =>
            {
                let (each, array) = if legalis_sysval::metal::per_primitive(sv) {
                    ("primitive", "out primitives")
                } else {
                    ("vertex", "out vertices")
                };
                return Some(Diagnostic::error(
                    legalis_sysval::codes::NOT_IN_STAGE,
                    format!(
                        "system value `{}` has one value per {each}: declare it in the \
                         element of the `{array}` array",
                        sv.name()
                    ),
                    leaf.span,
                ));
            }
            MetalMapping::BuiltIn(row) if row.by_index => {
                leaf.fixed_location = Some(index);
            }
            MetalMapping::BuiltIn(row) => {
                let target = Target::BuiltIn {
                    value: sv,
                    row,
                    index,
                    interpolation: leaf.io.interpolation,
                    blend: None,
                    // An array row gathers: the semantic index is the
                    // first register until the distances are packed.
                    element: matches!(row.ty, BuiltinType::Array(..)).then_some(index),
                };
                leaf.target = Some((target, Reason::TableRow));
            }
            MetalMapping::User => {}
            MetalMapping::Synthesized => {
                let [x, y, _] = self.entry.attributes.workgroup_size.unwrap_or([1, 1, 1]);
                leaf.target = Some((Target::GroupIndex { x, y }, Reason::Synthesized));
            }
            MetalMapping::Unsupported { code } => return Some(self.refused(code, sv, leaf)),
        }
        None
    }

    fn user_varying(&self, leaf: &RawLeaf) -> Option<Diagnostic> {
        let stage = self.entry.stage;
        let varyings = matches!(stage, ir::ShaderStage::Vertex | ir::ShaderStage::Fragment);
        (leaf.mesh.is_none() && !varyings).then(|| {
            Diagnostic::error(
                codes::METAL_USER_VARYING_IN_COMPUTE,
                format!(
                    "`{}`: a {} entry point's parameters must be system values",
                    leaf.path,
                    stage.name()
                ),
                leaf.span,
            )
        })
    }

    /// Checked even where the semantic was refused (WGSL reports one of
    /// the two), but for a matrix or an array.
    fn shape(&self, leaf: &RawLeaf, refused: bool) -> Option<Diagnostic> {
        if is_user_varying_type(self.module, leaf.ty) {
            return None;
        }
        let (path, name) = leaves::refused_as(self.module, leaf)?;
        let message = match self.module.types.try_get(leaf.ty).map(|t| &t.inner) {
            Some(TypeInner::Matrix { .. } | TypeInner::Array { .. }) if refused => return None,
            Some(TypeInner::Matrix { .. } | TypeInner::Array { .. }) => format!(
                "`{path}` of type `{name}` cannot be a Metal varying: Metal stage inputs and outputs are scalars and vectors",
            ),
            _ => format!(
                "`{path}` cannot be a Metal user varying: `bool` and 64-bit values cannot cross stages",
            ),
        };
        Some(Diagnostic::error(
            codes::METAL_UNSUPPORTED_SHAPE,
            message,
            leaf.span,
        ))
    }
}

/// Whether Metal can pass a value of `ty` as a user varying: numeric
/// scalars and vectors up to 32 bits (no `bool`, no 64-bit types, no
/// matrices or arrays).
fn is_user_varying_type(module: &ir::Module, ty: Handle<Type>) -> bool {
    let scalar = match module.types.try_get(ty).map(|t| &t.inner) {
        Some(TypeInner::Scalar(s)) => Some(*s),
        Some(TypeInner::Vector { scalar, .. }) => Some(*scalar),
        _ => None,
    };
    scalar.is_some_and(|s| s.kind != ir::ScalarKind::Bool && s.width <= 4)
}
