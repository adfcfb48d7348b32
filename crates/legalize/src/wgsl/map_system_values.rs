//! Collects the leaves of an entry point's signature (nested structs
//! flattened, because a WGSL entry point takes one level of attributed
//! values) and decides from the system-value table's WGSL column which are
//! `@builtin`s (B22) and which are `@location` varyings. A system value
//! WGSL cannot express is `E55202` at its declaration (B23): never
//! dropped, never made a location.

use legalis_ir as ir;
use legalis_ir::diag::Diagnostic;
use legalis_ir::{Handle, Semantic, Type, TypeInner};
use legalis_sysval::WgslMapping;

use super::plan::{Reason, Root, Target};
use crate::codes;
use crate::common::leaves;

/// A leaf before locations are assigned.
pub type RawLeaf = leaves::RawLeaf<Root, (Target, Reason)>;

/// Every leaf of the entry point, in declaration order: parameters first,
/// then the result. Matrices and arrays are leaves too, so that a system
/// value declared with one is still `E55202`; as user varyings they are
/// `E55204` in `map_leaves`.
pub fn collect_leaves(
    module: &ir::Module,
    func: &ir::Function,
) -> Result<Vec<RawLeaf>, Vec<Diagnostic>> {
    let rules = leaves::Rules {
        param_root: Root::Param,
        result_root: Root::Result,
        uniform: (Target::Uniform, Reason::Uniform),
        composite_leaves: true,
        shape_code: codes::WGSL_UNSUPPORTED_SHAPE,
        shape_message: |path, name| {
            format!(
                "`{path}` of type `{name}` cannot be a WGSL varying: WGSL passes numeric scalars and vectors"
            )
        },
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
    let mut errors = Vec::new();
    for leaf in leaves.iter_mut() {
        if leaf.target.is_some() {
            continue;
        }
        let semantic = leaves::semantic(&leaf.io).cloned();
        let reported = errors.len();
        match semantic {
            Some(Semantic::System { value, index }) => {
                match legalis_sysval::wgsl(value, stage, leaf.direction) {
                    WgslMapping::BuiltIn(row) => {
                        leaf.target = Some((Target::BuiltIn { value, row }, Reason::TableRow));
                    }
                    WgslMapping::Location { by_index } => {
                        if by_index {
                            leaf.fixed_location = Some(index);
                        }
                    }
                    WgslMapping::Unsupported { code } => {
                        let message = if code == codes::WGSL_UNSUPPORTED_SYSTEM_VALUE {
                            legalis_sysval::wgsl::unsupported_message(value)
                        } else {
                            format!(
                                "`{}` cannot be an {} of a {} entry point",
                                value.name(),
                                leaf.direction.name(),
                                stage.name()
                            )
                        };
                        errors.push(leaves::unsupported_system_value(code, message, leaf.span));
                    }
                }
            }
            Some(Semantic::UnknownSystem { name, .. }) => errors.push(Diagnostic::error(
                codes::WGSL_UNKNOWN_SYSTEM_VALUE,
                format!("unknown system-value semantic '{name}'"),
                leaf.span,
            )),
            _ if stage == ir::ShaderStage::Compute => errors.push(Diagnostic::error(
                codes::WGSL_USER_VARYING_IN_COMPUTE,
                format!(
                    "`{}`: a compute entry point's parameters must be system values",
                    leaf.path
                ),
                leaf.span,
            )),
            _ => {}
        }
        // One diagnostic per declaration: a refused semantic is not also
        // a refused shape.
        let refused = errors.len() > reported;
        if !refused && leaf.target.is_none() && !is_location_type(module, leaf.ty) {
            let name = ir::print::type_name(module, leaf.ty);
            errors.push(Diagnostic::error(
                codes::WGSL_UNSUPPORTED_SHAPE,
                format!(
                    "`{}` of type `{name}` cannot be a WGSL varying: `@location` values are 32-bit numeric scalars and vectors",
                    leaf.path
                ),
                leaf.span,
            ));
        }
    }
    errors
}

/// Whether WGSL can pass a value of `ty` at a location: `i32`, `u32`,
/// `f32` scalars and vectors (16- and 64-bit types and `bool` cannot).
fn is_location_type(module: &ir::Module, ty: Handle<Type>) -> bool {
    let scalar = match module.types.try_get(ty).map(|t| &t.inner) {
        Some(TypeInner::Scalar(s)) => Some(*s),
        Some(TypeInner::Vector { scalar, .. }) => Some(*scalar),
        _ => None,
    };
    scalar.is_some_and(|s| s.width == 4 && s.kind != ir::ScalarKind::Bool)
}
