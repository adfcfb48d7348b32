//! Resources inside `ConstantBuffer<S>` and `ParameterBlock<S>`.
//!
//! Slang lets the struct of a constant buffer or parameter block hold
//! resources (`struct Material { Texture2D albedo; SamplerState s; float4
//! tint; }`). No target can put a texture inside a uniform buffer, so the
//! reference moves each resource out into a binding of its own, as if it
//! were declared at global scope, and keeps the ordinary data in the
//! buffer. [`split_resource_blocks`] does the same on a legalized module:
//! every legalizer of `legalis_legalize` but CUDA's runs it last, once an
//! entry point's uniform parameters are globals and their uses read them;
//! not CUDA's, whose blocks are structs in memory that hold
//! resource handles (an `OptixTraversableHandle`, a texture object) as
//! values:
//!
//! - each resource member (at any depth of nested structs, arrays of
//!   resources included) becomes a uniform global named after its path
//!   (`gMat.albedo` is `gMat_albedo`), placed right after the block in
//!   declaration order, so the automatic bindings follow the block's as
//!   the reference numbers them;
//! - the block keeps its ordinary members, in a copy of the struct without
//!   the resources; a block left with no data goes;
//! - every member path `gMat.albedo` becomes the new global, and data
//!   members get their new index.
//!
//! A block whose resource-holding value is used whole (passed to a
//! function, read as a `Material`) cannot be split; it is left as it is
//! and the writers refuse its resource members with their own codes.
//! The parts of a `ParameterBlock` share its
//! [`ir::ResourceBinding::parameter_block`] ordinal, which gives them a
//! descriptor set of their own.

use std::collections::HashMap;

use crate as ir;
use crate::{Expression, Handle, Span, Type, TypeInner};

/// Splits every uniform global of `ConstantBuffer<S>` type whose `S`
/// holds resources, until none is left (a block inside a block is a
/// resource member that becomes a block global of its own).
pub fn split_resource_blocks(module: &mut ir::Module) {
    // Each round splits at least one block or stops; the bound keeps a
    // malformed module from looping.
    for _ in 0..64 {
        if !split_once(module) {
            return;
        }
    }
}

/// What an expression denotes while a block is being split.
#[derive(Clone, Copy)]
enum Node {
    /// Block `block` (an index into the round's blocks) at a value of the
    /// original struct type `ty` that holds resources.
    Part { block: usize, ty: Handle<Type> },
}

/// One block being split in a round.
struct Split {
    global: Handle<ir::GlobalVariable>,
    /// The block's struct type.
    ty: Handle<Type>,
    /// The new globals of its resource members, by member path.
    leaves: Vec<(Vec<u32>, ir::GlobalVariable)>,
}

fn split_once(module: &mut ir::Module) -> bool {
    let mut stripped = Stripper::default();
    let mut splits: Vec<Split> = Vec::new();
    for (g, global) in module.globals.iter() {
        if global.space != ir::AddressSpace::Uniform {
            continue;
        }
        let TypeInner::ConstantBuffer { inner } = module.types[global.ty].inner else {
            continue;
        };
        if !holds_resource(module, inner) {
            continue;
        }
        let mut leaves = Vec::new();
        if !collect_leaves(
            module,
            inner,
            &mut Vec::new(),
            &global.name,
            global,
            &mut leaves,
        ) {
            continue;
        }
        splits.push(Split {
            global: g,
            ty: inner,
            leaves,
        });
    }
    // A block used other than through member paths stays whole.
    splits.retain(|s| only_member_paths(module, s));
    if splits.is_empty() {
        return false;
    }
    for s in &splits {
        stripped.strip(module, s.ty);
    }
    let index: HashMap<Handle<ir::GlobalVariable>, usize> = splits
        .iter()
        .enumerate()
        .map(|(i, s)| (s.global, i))
        .collect();

    // The new order of globals: each split block (when it keeps data),
    // then its resource members, in the block's place.
    let old: Vec<(Handle<ir::GlobalVariable>, ir::GlobalVariable, Span)> = module
        .globals
        .iter()
        .map(|(h, g)| (h, g.clone(), module.globals.span(h)))
        .collect();
    let mut globals = ir::Arena::new();
    let mut remap: HashMap<Handle<ir::GlobalVariable>, Handle<ir::GlobalVariable>> = HashMap::new();
    let mut leaf_globals: Vec<HashMap<Vec<u32>, Handle<ir::GlobalVariable>>> =
        vec![HashMap::new(); splits.len()];
    for (h, mut g, span) in old {
        match index.get(&h) {
            None => {
                remap.insert(h, globals.append(g, span));
            }
            Some(&i) => {
                if let Some(data) = stripped.get(splits[i].ty) {
                    g.ty = module.types.insert(
                        Type {
                            name: None,
                            inner: TypeInner::ConstantBuffer { inner: data },
                        },
                        Span::UNDEFINED,
                    );
                    remap.insert(h, globals.append(g, span));
                }
                for (path, leaf) in &splits[i].leaves {
                    let new = globals.append(leaf.clone(), span);
                    leaf_globals[i].insert(path.clone(), new);
                }
            }
        }
    }
    module.globals = globals;

    let ctx = Rewrite {
        index: &index,
        splits: &splits,
        leaf_globals: &leaf_globals,
        remap: &remap,
        stripped: &stripped,
    };
    let ir::Module {
        types,
        functions,
        global_expressions,
        ..
    } = module;
    for (_, func) in functions.iter_mut() {
        if ctx.rewrite(types, &mut func.expressions) {
            func.compact(None);
        }
    }
    ctx.rewrite(types, global_expressions);
    true
}

/// Whether `ty` holds a resource at any depth of structs and arrays.
fn holds_resource(module: &ir::Module, ty: Handle<Type>) -> bool {
    match &module.types[ty].inner {
        inner if inner.is_resource() => true,
        TypeInner::Array { base, .. } => holds_resource(module, *base),
        TypeInner::Struct { members } => members.iter().any(|m| holds_resource(module, m.ty)),
        _ => false,
    }
}

impl ir::Module {
    /// The struct nesting depth of every type of the module, by handle
    /// index: a struct is one deeper than its deepest member, an array as
    /// deep as its element, a buffer of elements one deeper than its
    /// element (its block wraps it: GLSL's `buffer { T data[]; }`, SPIR-V's
    /// block struct), a constant or texture buffer as deep as its block
    /// struct, any other type 0. A type's parts are in the arena before it
    /// (it holds their handles), so one pass in arena order computes every
    /// depth.
    pub fn struct_depths(&self) -> Vec<u32> {
        let mut depths = vec![0u32; self.types.len()];
        for (h, ty) in self.types.iter() {
            let at = |t: Handle<Type>| depths.get(t.index()).copied().unwrap_or(0);
            depths[h.index()] = match &ty.inner {
                TypeInner::Struct { members } => {
                    1 + members.iter().map(|m| at(m.ty)).max().unwrap_or(0)
                }
                TypeInner::Array { base, .. } => at(*base),
                TypeInner::Buffer {
                    element: Some(element),
                    ..
                } => 1 + at(*element),
                TypeInner::ConstantBuffer { inner } | TypeInner::TextureBuffer { inner } => {
                    at(*inner)
                }
                _ => 0,
            };
        }
        depths
    }

    /// Whether `ty` is a resource or an array of them (of arrays of them):
    /// a binding of its own, never a varying or a value in memory.
    pub fn is_resource_type(&self, ty: Handle<Type>) -> bool {
        let mut ty = ty;
        loop {
            match self.types.try_get(ty).map(|t| &t.inner) {
                Some(TypeInner::Array { base, .. }) => ty = *base,
                Some(inner) => return inner.is_resource(),
                None => return false,
            }
        }
    }
}

/// The resource members of struct `ty` at `path`, as globals named
/// `{prefix}_{member}`. `false` when one cannot be split out: an array of
/// structs that hold resources.
fn collect_leaves(
    module: &ir::Module,
    ty: Handle<Type>,
    path: &mut Vec<u32>,
    prefix: &str,
    block: &ir::GlobalVariable,
    leaves: &mut Vec<(Vec<u32>, ir::GlobalVariable)>,
) -> bool {
    let TypeInner::Struct { members } = &module.types[ty].inner else {
        return false;
    };
    for (k, m) in members.iter().enumerate() {
        if !holds_resource(module, m.ty) {
            continue;
        }
        path.push(k as u32);
        let name = format!("{prefix}_{}", m.name);
        if module.is_resource_type(m.ty) {
            leaves.push((
                path.clone(),
                ir::GlobalVariable {
                    name,
                    ty: m.ty,
                    space: ir::AddressSpace::Uniform,
                    binding: ir::ResourceBinding {
                        parameter_block: block.binding.parameter_block,
                        ..Default::default()
                    },
                    matrix_layout: None,
                    init: None,
                    globally_coherent: false,
                    io: None,
                },
            ));
        } else if !collect_leaves(module, m.ty, path, &name, block, leaves) {
            return false;
        }
        path.pop();
    }
    true
}

/// Whether every use of block `s` is a chain of member accesses that
/// ends at a resource member, or at a value holding no resource.
fn only_member_paths(module: &ir::Module, s: &Split) -> bool {
    let check = |exprs: &ir::ExpressionArena| -> bool {
        // The expressions that denote a resource-holding part of the block.
        let mut parts: HashMap<Handle<Expression>, Handle<Type>> = HashMap::new();
        for (h, e) in exprs.iter() {
            match e {
                Expression::Global(g) if *g == s.global => {
                    parts.insert(h, s.ty);
                }
                Expression::Member { base, index } => {
                    if let Some(&ty) = parts.get(base) {
                        let TypeInner::Struct { members } = &module.types[ty].inner else {
                            return false;
                        };
                        let Some(m) = members.get(*index as usize) else {
                            return false;
                        };
                        if holds_resource(module, m.ty) && !module.is_resource_type(m.ty) {
                            parts.insert(h, m.ty);
                        }
                    }
                }
                other => {
                    if other.children().iter().any(|c| parts.contains_key(c)) {
                        return false;
                    }
                }
            }
        }
        true
    };
    module.functions.iter().all(|(_, f)| check(&f.expressions)) && check(&module.global_expressions)
}

/// A struct's data-only copy (`None`: nothing left) and the new index of
/// each original member (`None`: a resource, gone).
type Stripped = (Option<Handle<Type>>, Vec<Option<u32>>);

/// Struct types with their resource members removed.
#[derive(Default)]
struct Stripper {
    /// Original struct → its data-only copy.
    map: HashMap<Handle<Type>, Stripped>,
}

impl Stripper {
    /// The data-only copy of `ty`, made on first use.
    fn strip(&mut self, module: &mut ir::Module, ty: Handle<Type>) -> Option<Handle<Type>> {
        if let Some((data, _)) = self.map.get(&ty) {
            return *data;
        }
        let original = module.types[ty].clone();
        let TypeInner::Struct { members } = &original.inner else {
            return Some(ty);
        };
        let mut kept = Vec::new();
        let mut indices = Vec::new();
        for m in members {
            let new_ty = if module.is_resource_type(m.ty) {
                None
            } else if holds_resource(module, m.ty) {
                self.strip(module, m.ty)
            } else {
                Some(m.ty)
            };
            match new_ty {
                Some(t) => {
                    indices.push(Some(kept.len() as u32));
                    kept.push(ir::StructMember { ty: t, ..m.clone() });
                }
                None => indices.push(None),
            }
        }
        let data = (!kept.is_empty()).then(|| {
            let span = module.types.span(ty);
            module.types.insert(
                Type {
                    name: original.name.clone(),
                    inner: TypeInner::Struct { members: kept },
                },
                span,
            )
        });
        self.map.insert(ty, (data, indices));
        data
    }

    fn get(&self, ty: Handle<Type>) -> Option<Handle<Type>> {
        self.map.get(&ty).and_then(|(data, _)| *data)
    }

    fn index(&self, ty: Handle<Type>, index: u32) -> Option<u32> {
        self.map
            .get(&ty)
            .and_then(|(_, indices)| indices.get(index as usize).copied().flatten())
    }
}

/// The expression rewrite of one round.
struct Rewrite<'a> {
    index: &'a HashMap<Handle<ir::GlobalVariable>, usize>,
    splits: &'a [Split],
    leaf_globals: &'a [HashMap<Vec<u32>, Handle<ir::GlobalVariable>>],
    remap: &'a HashMap<Handle<ir::GlobalVariable>, Handle<ir::GlobalVariable>>,
    stripped: &'a Stripper,
}

impl Rewrite<'_> {
    /// Rewrites the block paths of one arena; `true` if any changed (the
    /// arena then holds dead expressions, which `compact` drops).
    fn rewrite(&self, types: &mut ir::UniqueArena<Type>, exprs: &mut ir::ExpressionArena) -> bool {
        let mut changed = false;
        // Expressions denoting a resource-holding part: block, path, type.
        let mut parts: HashMap<Handle<Expression>, (usize, Vec<u32>, Node)> = HashMap::new();
        let handles: Vec<Handle<Expression>> = exprs.iter().map(|(h, _)| h).collect();
        for h in handles {
            match exprs[h].clone() {
                Expression::Global(g) => match self.index.get(&g) {
                    Some(&i) => {
                        let split = &self.splits[i];
                        parts.insert(
                            h,
                            (
                                i,
                                Vec::new(),
                                Node::Part {
                                    block: i,
                                    ty: split.ty,
                                },
                            ),
                        );
                        changed = true;
                        match self.remap.get(&g) {
                            Some(&new) => {
                                let ty = self.stripped.get(split.ty).map(|data| {
                                    types.insert(
                                        Type {
                                            name: None,
                                            inner: TypeInner::ConstantBuffer { inner: data },
                                        },
                                        Span::UNDEFINED,
                                    )
                                });
                                exprs.set(h, Expression::Global(new), ty.or(exprs.ty(h)));
                            }
                            // No data left: only resource paths use it, and
                            // `compact` drops it.
                            None => exprs.set(h, Expression::Literal(ir::Literal::Uint(0)), None),
                        }
                    }
                    None => {
                        if let Some(&new) = self.remap.get(&g) {
                            exprs.set(h, Expression::Global(new), exprs.ty(h));
                        }
                    }
                },
                Expression::Member { base, index } => {
                    let Some((i, path, Node::Part { block, ty })) = parts.get(&base).cloned()
                    else {
                        continue;
                    };
                    let mut path = path;
                    path.push(index);
                    if let Some(&leaf) = self.leaf_globals[i].get(&path) {
                        exprs.set(h, Expression::Global(leaf), exprs.ty(h));
                        continue;
                    }
                    let member_ty = match &types[ty].inner {
                        TypeInner::Struct { members } => members[index as usize].ty,
                        _ => continue,
                    };
                    let new_index = self.stripped.index(ty, index);
                    if self.stripped.map.contains_key(&member_ty) {
                        // A nested struct that holds resources: still a part.
                        parts.insert(
                            h,
                            (
                                i,
                                path,
                                Node::Part {
                                    block,
                                    ty: member_ty,
                                },
                            ),
                        );
                        match (new_index, self.stripped.get(member_ty)) {
                            (Some(n), Some(data)) => {
                                exprs.set(h, Expression::Member { base, index: n }, Some(data))
                            }
                            _ => exprs.set(h, Expression::Literal(ir::Literal::Uint(0)), None),
                        }
                    } else if let Some(n) = new_index {
                        exprs.set(h, Expression::Member { base, index: n }, exprs.ty(h));
                    }
                }
                _ => {}
            }
        }
        changed
    }
}
