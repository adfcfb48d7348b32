//! Locals of resource type (`SamplerState s = samplers[i];`), which HLSL
//! allows and GLSL does not (opaque types live only in uniforms and
//! parameters): each read of such a local is replaced by its initializer,
//! and the declaration is dropped. This is exact when the local is written
//! once, at its declaration, from a side-effect-free expression; anything
//! else is a coded diagnostic rather than invalid output.

use legalis_ir as ir;
use legalis_ir::diag::Diagnostic;
use legalis_ir::{Expression, Handle, Statement};

use crate::codes;

pub fn apply(module: &mut ir::Module) -> Result<(), Vec<Diagnostic>> {
    let mut errors = Vec::new();
    let opaque: Vec<bool> = module
        .types
        .iter()
        .map(|(h, _)| module.is_resource_type(h))
        .collect();
    let resource: Vec<bool> = module
        .types
        .iter()
        .map(|(_, t)| t.inner.is_resource())
        .collect();
    for (_, func) in module.functions.iter_mut() {
        let locals: Vec<Handle<ir::LocalVariable>> = func
            .locals
            .iter()
            .filter(|(_, l)| opaque[l.ty.index()])
            .map(|(h, _)| h)
            .collect();
        for local in locals {
            if let Err(error) = forward(func, local, &resource) {
                errors.push(error);
            }
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

fn forward(
    func: &mut ir::Function,
    local: Handle<ir::LocalVariable>,
    resource: &[bool],
) -> Result<(), Diagnostic> {
    let span = func.locals.span(local);
    let name = func.locals[local].name.clone();
    let refuse = |why: &str| {
        Diagnostic::error(
            codes::UNSUPPORTED_SHAPE,
            format!(
                "the resource-typed local `{name}` {why}; GLSL has no resource variables, so it must be initialized once from an expression without side effects"
            ),
            span,
        )
    };
    let mut inits = Vec::new();
    collect_inits(&func.body, local, &mut inits);
    let [Some(init)] = inits.as_slice() else {
        return Err(refuse("is not initialized exactly once at its declaration"));
    };
    let init = *init;
    if writes_local(func, local, resource) {
        return Err(refuse("is assigned after its declaration"));
    }
    let keeps_place = |f| {
        matches!(
            f,
            ir::Intrinsic::NonUniformResourceIndex
                | ir::Intrinsic::AccelerationStructureFromAddress
        )
    };
    if !ir::is_pure_with(&func.expressions, init, keeps_place) {
        return Err(refuse(
            "is initialized from an expression with side effects",
        ));
    }
    let uses: Vec<Handle<Expression>> = func
        .expressions
        .iter()
        .filter(|(h, e)| *h != init && matches!(e, Expression::Local(l) if *l == local))
        .map(|(h, _)| h)
        .collect();
    for use_site in uses {
        let copy = copy_node(&mut func.expressions, init);
        *func.expressions.get_mut(use_site) = copy;
    }
    drop_declaration(&mut func.body, local);
    Ok(())
}

/// The initializers of every `Declare` of `local` (`None` for a bare one).
fn collect_inits(
    block: &ir::Block,
    local: Handle<ir::LocalVariable>,
    out: &mut Vec<Option<Handle<Expression>>>,
) {
    for stmt in &block.stmts {
        match stmt {
            Statement::Declare { local: l, init } if *l == local => out.push(*init),
            other => other
                .blocks()
                .into_iter()
                .for_each(|b| collect_inits(b, local, out)),
        }
    }
}

fn drop_declaration(block: &mut ir::Block, local: Handle<ir::LocalVariable>) {
    let mut keep_spans = Vec::with_capacity(block.spans.len());
    let mut keep = Vec::with_capacity(block.stmts.len());
    for (mut stmt, span) in std::mem::take(&mut block.stmts)
        .into_iter()
        .zip(std::mem::take(&mut block.spans))
    {
        if matches!(stmt, Statement::Declare { local: l, .. } if l == local) {
            continue;
        }
        stmt.blocks_mut()
            .into_iter()
            .for_each(|b| drop_declaration(b, local));
        keep.push(stmt);
        keep_spans.push(span);
    }
    block.stmts = keep;
    block.spans = keep_spans;
}

/// Whether anything but the declaration writes the local: a store, an
/// assignment or increment, or an `out`/`inout` argument (any call
/// argument rooted at it counts, conservatively). A store into an element
/// of the resource the local holds (`t[i] = v`) writes the resource, not
/// the local.
fn writes_local(func: &ir::Function, local: Handle<ir::LocalVariable>, resource: &[bool]) -> bool {
    let exprs = &func.expressions;
    let is_resource = |e: Handle<Expression>| {
        exprs
            .ty(e)
            .is_some_and(|t| resource.get(t.index()).copied().unwrap_or(false))
    };
    let rooted = |mut e: Handle<Expression>| loop {
        match &exprs[e] {
            Expression::Local(l) => return *l == local,
            Expression::Member { base, .. } | Expression::Index { base, .. }
                if is_resource(*base) =>
            {
                return false;
            }
            Expression::Member { base, .. }
            | Expression::Index { base, .. }
            | Expression::Swizzle { base, .. } => e = *base,
            _ => return false,
        }
    };
    let mut stored = false;
    visit_stores(&func.body, &mut |target| stored |= rooted(target));
    stored
        || exprs.iter().any(|(_, e)| match e {
            Expression::Assign { target, .. } | Expression::IncDec { target, .. } => {
                rooted(*target)
            }
            Expression::Call { args, .. } => args.iter().any(|a| rooted(*a)),
            _ => false,
        })
}

fn visit_stores(block: &ir::Block, f: &mut impl FnMut(Handle<Expression>)) {
    for stmt in &block.stmts {
        if let Statement::Store { target, .. } = stmt {
            f(*target);
        }
        stmt.blocks().into_iter().for_each(|b| visit_stores(b, f));
    }
}

/// A copy of the node at `root` whose children are fresh copies, so the
/// copy can take another node's place with every expression keeping one parent.
fn copy_node(exprs: &mut ir::ExpressionArena, root: Handle<Expression>) -> Expression {
    exprs[root].clone().map_children(|child| {
        let copy = copy_node(exprs, child);
        let (ty, span) = (exprs.ty(child), exprs.span(child));
        exprs.append(copy, ty, span)
    })
}
