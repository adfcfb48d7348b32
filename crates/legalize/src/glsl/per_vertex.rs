//! B13: per-vertex reads of fragment inputs. `GetAttributeAtVertex(x, k)`
//! reads input `x` as vertex `k` of the primitive wrote it, uninterpolated.
//! Such an input's global is an array of three at the input's location,
//! declared `pervertexEXT` (SPIR-V `PerVertexKHR`) and never `flat`
//! (`flatten_varyings` makes it); every call on the input becomes an index
//! into that one array.
//!
//! Only calls in the entry point's own function are rewritten, on an
//! input named from a parameter (`input.color`, `color`); anything else,
//! and an input also read directly, is `E49997` at the call.

use legalis_ir as ir;
use legalis_ir::FastHashMap;
use legalis_ir::diag::Diagnostic;
use legalis_ir::{Expression, Handle, Intrinsic, TypeInner};
use legalis_sysval::Direction;

use crate::codes;
use crate::glsl::map_system_values::RawLeaf;
use crate::glsl::plan::{Plan, Root};

/// Marks the leaves `GetAttributeAtVertex` reads; call after builtins are
/// decided, so a builtin or uniform argument is rejected. A leaf read per
/// vertex is read only so: Vulkan gives a location one input variable, and
/// an ordinary read too would need a second one there.
pub fn mark(
    module: &ir::Module,
    stage: ir::ShaderStage,
    func: &ir::Function,
    leaves: &mut [RawLeaf],
) -> Vec<Diagnostic> {
    let mut errors = Vec::new();
    let mut used = Vec::new();
    for (handle, args) in calls(func) {
        let leaf = (stage == ir::ShaderStage::Fragment)
            .then(|| path_of(func, args[0]))
            .flatten()
            .and_then(|(root, members)| {
                leaves.iter().position(|l| {
                    l.root == root
                        && l.members == members
                        && l.direction == Direction::Input
                        && l.target.is_none()
                })
            })
            .filter(|&i| is_scalar_or_vector(module, leaves[i].ty));
        match leaf {
            Some(i) => {
                leaves[i].per_vertex = true;
                used.push((i, handle));
            }
            None => errors.push(Diagnostic::error(
                codes::NOT_PER_VERTEX_INPUT,
                "`GetAttributeAtVertex` needs a scalar or vector input varying of the \
                 fragment entry point, named from its parameter (`input.color`)",
                func.expressions.span(handle),
            )),
        }
    }
    if used.is_empty() {
        // No per-vertex read: nothing to compare direct reads with.
        return errors;
    }
    let direct = direct_reads(func);
    let mut reported = Vec::new();
    for (i, handle) in used {
        if reported.contains(&i) {
            continue;
        }
        let leaf = &leaves[i];
        let read = direct
            .iter()
            .any(|(root, members)| *root == leaf.root && leaf.members.starts_with(members));
        if read {
            errors.push(
                Diagnostic::error(
                    codes::NOT_PER_VERTEX_INPUT,
                    format!(
                        "`{}` is read both per vertex and directly; Vulkan allows one input \
                         variable per location, so read it only with `GetAttributeAtVertex`",
                        leaf.path
                    ),
                    func.expressions.span(handle),
                )
                .with_label(leaf.span, "the input"),
            );
            reported.push(i);
        }
    }
    errors
}

/// A per-vertex leaf's root and member path, its array global and the
/// global's type.
type PerVertexArray = (Root, Vec<u32>, Handle<ir::GlobalVariable>, Handle<ir::Type>);

/// Rewrites the calls in `function` (the original entry function) into
/// indices into the per-vertex array globals `flatten_varyings` made
/// (`globals`, by leaf).
pub fn apply(
    module: &mut ir::Module,
    function: Handle<ir::Function>,
    plan: &Plan,
    globals: &[Handle<ir::GlobalVariable>],
) {
    let arrays: Vec<PerVertexArray> = plan
        .leaves
        .iter()
        .zip(globals)
        .filter(|(leaf, _)| leaf.per_vertex)
        .map(|(leaf, &g)| {
            (
                leaf.root.clone(),
                leaf.members.clone(),
                g,
                module.globals[g].ty,
            )
        })
        .collect();
    let func = module.functions.get_mut(function);
    // `mark` accepted every call, so each names a per-vertex leaf.
    let found: Vec<(Handle<Expression>, Handle<Expression>, PerVertexArray)> = calls(func)
        .filter_map(|(handle, args)| {
            let path = path_of(func, args[0])?;
            let array = arrays
                .iter()
                .find(|(r, m, ..)| (r, m) == (&path.0, &path.1))?;
            Some((handle, args[1], array.clone()))
        })
        .collect();
    for (handle, index, (_, _, global, ty)) in found {
        let span = func.expressions.span(handle);
        let base = func
            .expressions
            .append(Expression::Global(global), Some(ty), span);
        *func.expressions.get_mut(handle) = Expression::Index { base, index };
    }
}

/// The type of a per-vertex leaf's global: the three vertices' values.
pub fn array_type(module: &mut ir::Module, ty: Handle<ir::Type>) -> Handle<ir::Type> {
    module.types.insert(
        ir::Type {
            name: None,
            inner: TypeInner::Array {
                base: ty,
                size: ir::ArraySize::Constant(3),
            },
        },
        ir::Span::UNDEFINED,
    )
}

/// Parameter paths `func` reads other than as the argument of
/// `GetAttributeAtVertex`: `input` read whole reads every leaf under it.
fn direct_reads(func: &ir::Function) -> Vec<(Root, Vec<u32>)> {
    let mut parent = FastHashMap::default();
    for (h, e) in func.expressions.iter() {
        for child in e.children() {
            parent.insert(child, h);
        }
    }
    let mut reads = Vec::new();
    for (h, e) in func.expressions.iter() {
        let Expression::Param(p) = *e else { continue };
        let mut members = Vec::new();
        let mut at = h;
        while let Some(&up) = parent.get(&at) {
            let Expression::Member { index, .. } = func.expressions[up] else {
                break;
            };
            members.push(index);
            at = up;
        }
        let per_vertex = parent.get(&at).is_some_and(|&up| {
            matches!(
                &func.expressions[up],
                Expression::Intrinsic { fun: Intrinsic::GetAttributeAtVertex, args } if args.first() == Some(&at)
            )
        });
        if !per_vertex {
            reads.push((Root::Param(p), members));
        }
    }
    reads
}

/// The `GetAttributeAtVertex` calls of `func`, with their arguments.
fn calls(func: &ir::Function) -> impl Iterator<Item = (Handle<Expression>, &[Handle<Expression>])> {
    func.expressions.iter().filter_map(|(h, e)| match e {
        Expression::Intrinsic {
            fun: Intrinsic::GetAttributeAtVertex,
            args,
        } if args.len() == 2 => Some((h, args.as_slice())),
        _ => None,
    })
}

/// `p.m0.m1` as the parameter's root and member path, if the expression is
/// one.
fn path_of(func: &ir::Function, expr: Handle<Expression>) -> Option<(Root, Vec<u32>)> {
    let mut members = Vec::new();
    let mut at = expr;
    loop {
        match func.expressions[at] {
            Expression::Member { base, index } => {
                members.push(index);
                at = base;
            }
            Expression::Param(p) => {
                members.reverse();
                return Some((Root::Param(p), members));
            }
            _ => return None,
        }
    }
}

fn is_scalar_or_vector(module: &ir::Module, ty: Handle<ir::Type>) -> bool {
    matches!(
        module.types.try_get(ty).map(|t| &t.inner),
        Some(TypeInner::Scalar(_) | TypeInner::Vector { .. })
    )
}
