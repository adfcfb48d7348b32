//! Collects the leaves of an entry point's signature (nested structs
//! flattened, because a WGSL entry point takes one level of attributed
//! values) and decides from the system-value table's WGSL column which are
//! `@builtin`s (B22) and which are `@location` varyings. A system value
//! WGSL cannot express is `E55202` at its declaration (B23): never
//! dropped, never made a location.

use legalis_ir as ir;
use legalis_ir::diag::Diagnostic;
use legalis_ir::{Handle, Semantic, Span, Type, TypeInner};
use legalis_sysval::{Direction, WgslMapping};

use super::plan::{Reason, Root, Target};
use crate::codes;

/// A leaf before locations are assigned.
#[derive(Clone, Debug)]
pub struct RawLeaf {
    pub path: String,
    pub root: Root,
    pub members: Vec<u32>,
    pub direction: Direction,
    pub ty: Handle<Type>,
    pub io: ir::IoAttrs,
    pub span: Span,
    /// Builtins and uniforms are decided here, locations later.
    pub target: Option<(Target, Reason)>,
    /// For `SV_Target2`: the location the semantic index fixes.
    pub fixed_location: Option<u32>,
}

/// Every leaf of the entry point, in declaration order: parameters first,
/// then the result.
pub fn collect_leaves(
    module: &ir::Module,
    func: &ir::Function,
) -> Result<Vec<RawLeaf>, Vec<Diagnostic>> {
    let mut leaves = Vec::new();
    let mut errors = Vec::new();
    for (index, param) in func.params.iter().enumerate() {
        let root = Root::Param(index as u32);
        let opaque = module
            .types
            .try_get(param.ty)
            .is_some_and(|t| t.inner.is_resource());
        if param.role == ir::ParamRole::Uniform || opaque {
            leaves.push(RawLeaf {
                path: param.name.clone(),
                root,
                members: Vec::new(),
                direction: Direction::Input,
                ty: param.ty,
                io: param.io.clone(),
                span: param.span,
                target: Some((Target::Uniform, Reason::Uniform)),
                fixed_location: None,
            });
            continue;
        }
        let directions: &[Direction] = match param.direction {
            ir::ParamDirection::In => &[Direction::Input],
            ir::ParamDirection::Out => &[Direction::Output],
            ir::ParamDirection::InOut => &[Direction::Input, Direction::Output],
        };
        for &direction in directions {
            let at = Walk {
                root: root.clone(),
                direction,
                path: param.name.clone(),
                members: Vec::new(),
            };
            walk(
                module,
                at,
                param.ty,
                &param.io,
                param.span,
                &mut leaves,
                &mut errors,
            );
        }
    }
    if let Some(result) = &func.result {
        let at = Walk {
            root: Root::Result,
            direction: Direction::Output,
            path: "return".into(),
            members: Vec::new(),
        };
        walk(
            module,
            at,
            result.ty,
            &result.io,
            result.span,
            &mut leaves,
            &mut errors,
        );
    }
    if errors.is_empty() {
        Ok(leaves)
    } else {
        Err(errors)
    }
}

struct Walk {
    root: Root,
    direction: Direction,
    path: String,
    members: Vec<u32>,
}

/// Flattens structs into their fields, at any depth; a scalar, vector,
/// matrix or array is one leaf; anything else (an opaque type) is refused
/// at its declaration.
fn walk(
    module: &ir::Module,
    at: Walk,
    ty: Handle<Type>,
    io: &ir::IoAttrs,
    span: Span,
    leaves: &mut Vec<RawLeaf>,
    errors: &mut Vec<Diagnostic>,
) {
    match module.types.try_get(ty).map(|t| &t.inner) {
        Some(TypeInner::Struct { members }) => {
            for (index, member) in members.iter().enumerate() {
                let mut member_io = member.io.clone();
                if member_io.interpolation.is_default() {
                    member_io.interpolation = io.interpolation;
                }
                let mut path = at.members.clone();
                path.push(index as u32);
                let next = Walk {
                    root: at.root.clone(),
                    direction: at.direction,
                    path: format!("{}.{}", at.path, member.name),
                    members: path,
                };
                walk(
                    module,
                    next,
                    member.ty,
                    &member_io,
                    member.span,
                    leaves,
                    errors,
                );
            }
        }
        // Matrices and arrays are leaves too, so that a system value
        // declared with one is still `E55202`; as user varyings they are
        // `E55204` in `map_leaves`.
        Some(
            TypeInner::Scalar(_)
            | TypeInner::Vector { .. }
            | TypeInner::Matrix { .. }
            | TypeInner::Array { .. },
        ) => leaves.push(RawLeaf {
            path: at.path,
            root: at.root,
            members: at.members,
            direction: at.direction,
            ty,
            io: io.clone(),
            span,
            target: None,
            fixed_location: None,
        }),
        _ => {
            let name = ir::print::type_name(module, ty);
            errors.push(Diagnostic::error(
                codes::WGSL_UNSUPPORTED_SHAPE,
                format!(
                    "`{}` of type `{name}` cannot be a WGSL varying: WGSL passes numeric scalars and vectors",
                    at.path
                ),
                span,
            ));
        }
    }
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
        let semantic = match &leaf.io.binding {
            Some(ir::Binding::Semantic(s)) => Some(s.clone()),
            _ => None,
        };
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
                        errors.push(
                            Diagnostic::error(
                                code,
                                "system value semantic not supported",
                                leaf.span,
                            )
                            .with_primary_message(message),
                        );
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
