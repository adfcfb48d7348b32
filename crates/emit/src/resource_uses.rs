//! How a function uses resource globals: which it reads, which it writes
//! (a store whose target is an element, `tex[p] = v`), which it samples with
//! comparison. The WGSL writer chooses `read`/`write`/`read_write` storage
//! textures and depth textures from it, the Metal writer `access::write`
//! and texture fences.

use legalis_ir as ir;
use legalis_ir::{Expression, FastHashMap, FastHashSet, Handle, Statement};

/// The uses of one resource global.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Use {
    pub read: bool,
    pub write: bool,
    /// Used with a comparison sampler (`SampleCmp`, `GatherCmp`): a depth
    /// texture in WGSL.
    pub compare: bool,
}

/// Adds the uses of resource globals in `func` to `uses`: an element of a
/// global indexed as a whole store's target is written (a partial store,
/// `tex[p].x = v`, reads it too), any other element read; `Load` reads,
/// `Store` writes, a comparison sampling compares.
pub(crate) fn collect(
    func: &ir::Function,
    uses: &mut FastHashMap<Handle<ir::GlobalVariable>, Use>,
) {
    let mut targets = FastHashSet::default();
    store_targets(&func.body, &func.expressions, &mut targets);
    for (h, e) in func.expressions.iter() {
        match e {
            Expression::Index { base, .. } => {
                if let Expression::Global(g) = func.expressions[*base] {
                    let u = uses.entry(g).or_default();
                    if targets.contains(&h) {
                        u.write = true;
                    } else {
                        u.read = true;
                    }
                }
            }
            Expression::Intrinsic { fun, args } => {
                let Some(Expression::Global(g)) = args.first().map(|a| &func.expressions[*a])
                else {
                    continue;
                };
                let u = uses.entry(*g).or_default();
                use ir::Intrinsic as I;
                match fun {
                    _ if fun.compares() => u.compare = true,
                    I::Load | I::Load2 | I::Load3 | I::Load4 => u.read = true,
                    I::Store | I::Store2 | I::Store3 | I::Store4 => u.write = true,
                    _ => {}
                }
            }
            _ => {}
        }
    }
}

/// The targets of the stores (and assignments used as values) in `block`.
pub(crate) fn store_targets(
    block: &ir::Block,
    exprs: &ir::ExpressionArena,
    out: &mut FastHashSet<Handle<Expression>>,
) {
    for stmt in &block.stmts {
        if let Statement::Store { target, .. } = stmt {
            out.insert(*target);
        }
        for b in stmt.blocks() {
            store_targets(b, exprs, out);
        }
    }
    for (_, e) in exprs.iter() {
        if let Expression::Assign { target, .. } = e {
            out.insert(*target);
        }
    }
}
