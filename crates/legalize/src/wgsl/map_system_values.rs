//! Collects the leaves of an entry point's signature (nested structs
//! flattened, because a WGSL entry point takes one level of attributed
//! values) and decides from the system-value table's WGSL column which are
//! `@builtin`s (B22) and which are `@location` varyings. A system value
//! WGSL cannot express is `E55202` at its declaration (B23): never
//! dropped, never made a location.

use legalis_ir as ir;
use legalis_ir::diag::Diagnostic;
use legalis_ir::{Handle, SystemValue, Type};
use legalis_sysval::{BuiltinType, WgslMapping};

use super::plan::{Reason, Target};
use crate::codes;
use crate::common::leaves;

/// A leaf before locations are assigned.
pub type RawLeaf = leaves::RawLeaf<(Target, Reason)>;

/// Every leaf of the entry point, in declaration order: parameters first,
/// then the result. Matrices and arrays are leaves too, so that a system
/// value declared with one is still `E55202`; as user varyings they are
/// `E55204` in `map_leaves`.
pub fn collect_leaves(
    module: &ir::Module,
    func: &ir::Function,
) -> Result<Vec<RawLeaf>, Vec<Diagnostic>> {
    let rules = leaves::Rules {
        uniform: (Target::Uniform, Reason::Uniform),
        matrix_rows: true,
        shape_code: codes::WGSL_UNSUPPORTED_SHAPE,
        not_a: "a WGSL varying: WGSL passes numeric scalars and vectors",
    };
    leaves::collect(module, func, &rules, |_, _, _, _| false)
}

/// Decides every leaf that is a system value from the table; the others
/// stay for location assignment. Returns the errors.
pub fn map_leaves(
    module: &ir::Module,
    stage: ir::ShaderStage,
    leaves: &mut [RawLeaf],
) -> Vec<Diagnostic> {
    let mut errors = leaves::map_system_values(leaves, &Wgsl { module, stage });
    if errors.is_empty() {
        errors = leaves::pack_distances(module, leaves, codes::WGSL_CLIP_DISTANCES);
    }
    errors
}

/// The WGSL column of the table, for one stage.
struct Wgsl<'m> {
    module: &'m ir::Module,
    stage: ir::ShaderStage,
}

impl leaves::Column<(Target, Reason)> for Wgsl<'_> {
    const UNKNOWN_SYSTEM_VALUE: u32 = codes::WGSL_UNKNOWN_SYSTEM_VALUE;

    const UNSUPPORTED: (u32, fn(SystemValue) -> String) = (
        codes::WGSL_UNSUPPORTED_SYSTEM_VALUE,
        legalis_sysval::wgsl::unsupported_message,
    );

    fn stage(&self) -> ir::ShaderStage {
        self.stage
    }

    fn system_value(&self, leaf: &mut RawLeaf, sv: SystemValue, index: u32) -> Option<Diagnostic> {
        match legalis_sysval::wgsl(sv, self.stage, leaf.direction) {
            WgslMapping::BuiltIn(row) => {
                // An array row gathers: the semantic index is the first
                // register until the distances are packed.
                let element = matches!(row.ty, BuiltinType::Array(..)).then_some(index);
                let target = Target::BuiltIn {
                    value: sv,
                    row,
                    element,
                };
                leaf.target = Some((target, Reason::TableRow));
            }
            WgslMapping::Location { by_index } => {
                if by_index {
                    leaf.fixed_location = Some(index);
                }
            }
            WgslMapping::Unsupported { code } => return Some(self.refused(code, sv, leaf)),
        }
        None
    }

    fn user_varying(&self, leaf: &RawLeaf) -> Option<Diagnostic> {
        (self.stage == ir::ShaderStage::Compute).then(|| {
            Diagnostic::error(
                codes::WGSL_USER_VARYING_IN_COMPUTE,
                format!(
                    "`{}`: a compute entry point's parameters must be system values",
                    leaf.path
                ),
                leaf.span,
            )
        })
    }

    /// One diagnostic per declaration: a refused semantic is not also a
    /// refused shape.
    fn shape(&self, leaf: &RawLeaf, refused: bool) -> Option<Diagnostic> {
        if refused || is_location_type(self.module, leaf.ty) {
            return None;
        }
        let (path, name) = leaves::refused_as(self.module, leaf)?;
        if is_16bit_integer(self.module, leaf.ty) {
            return Some(Diagnostic::error(
                codes::WGSL_UNSUPPORTED_SHAPE,
                format!(
                    "`{path}` of type `{name}` cannot be a WGSL varying: WGSL has no 16-bit integers; declare it with 32-bit `int` or `uint` components",
                ),
                leaf.span,
            ));
        }
        Some(Diagnostic::error(
            codes::WGSL_UNSUPPORTED_SHAPE,
            format!(
                "`{path}` of type `{name}` cannot be a WGSL varying: `@location` values are 32-bit numeric and `f16` scalars and vectors",
            ),
            leaf.span,
        ))
    }
}

/// Whether WGSL can pass a value of `ty` at a location: `i32`, `u32`,
/// `f32` and `f16` scalars and vectors (`half` as `f16` under `enable
/// f16;`, or widened to `f32`); 16-bit integers, 64-bit types and `bool`
/// cannot.
fn is_location_type(module: &ir::Module, ty: Handle<Type>) -> bool {
    leaves::scalar_or_vector(module, ty).is_some_and(|s| match s.kind {
        ir::ScalarKind::Bool => false,
        ir::ScalarKind::Float => matches!(s.width, 2 | 4),
        _ => s.width == 4,
    })
}

/// `int16_t`, `uint16_t` and their vectors: WGSL has no such type.
fn is_16bit_integer(module: &ir::Module, ty: Handle<Type>) -> bool {
    leaves::scalar_or_vector(module, ty).is_some_and(|s| {
        s.width == 2 && matches!(s.kind, ir::ScalarKind::Sint | ir::ScalarKind::Uint)
    })
}
