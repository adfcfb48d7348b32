//! Object (amplification) and mesh functions (B21), legalized in place:
//! Metal's `metal::mesh` object and the object function's payload
//! pointer and `mesh_grid_properties` exist only as parameters of the
//! entry function, so the calls that use them (`set_vertex`, `set_index`,
//! `set_primitive`, `set_primitive_count`, `set_threadgroups_per_grid`)
//! must be made there, and the source entry function itself becomes the
//! Metal one instead of being wrapped:
//!
//! - each system-value parameter becomes a local of its declared type
//!   filled from one attributed parameter per leaf (converted from the
//!   attribute's type), and every read of it reads the local;
//!   `SV_GroupIndex` is computed as for kernels (B20);
//! - a mesh function's `in payload` parameter stays a parameter (the
//!   writer spells it `const object_data T* [[payload]]`);
//! - `out vertices` and `out primitives` take new element structs with one
//!   attributed member per leaf of the source element (nested structs
//!   flattened), and every whole-element store `verts[i] = v;` becomes a
//!   copy of `v` into one such struct, then the store of it, which the
//!   writer prints as `set_vertex`/`set_primitive`; `out indices` stores
//!   are `set_index` calls, `SetMeshOutputCounts` is
//!   `set_primitive_count` (Metal has no vertex count) and `DispatchMesh`
//!   the payload store and `set_threadgroups_per_grid` (writer).
//!
//! Metal cannot write part of a mesh output element nor read one back
//! (the reference refuses both): an output array used so (`verts[i].pos
//! = p;`, a read of `verts[i].uv`) lives in a thread-local copy with a
//! written flag per element, and each exit writes the flagged elements
//! whole through the store above (`elements.rs`). What the copy cannot
//! take (the array passed on, an element written as an `out` argument)
//! is `E55309`; `SetMeshOutputCounts` or `DispatchMesh` outside the entry
//! function is `E55310` (the reference does not check it).

use legalis_ir::{FastHashMap, FastHashSet};

use legalis_ir as ir;
use legalis_ir::diag::Diagnostic;
use legalis_ir::{Expression, Handle, MeshOutputKind, Statement, Type, TypeInner};
use legalis_sysval::Direction;

use super::plan::{Leaf, MeshShape, Plan, Root, Target};
use super::wrap_entry_point::{group_index, io_for, store_group_index};
use crate::codes;
use crate::common::builder::{self, FunctionBuilder};
use crate::common::wrap::{WrapLeaf, interface_type, output_members, store_elements, store_input};

mod elements;

/// The mesh-output parameters of `func`, by index.
fn mesh_params(module: &ir::Module, func: &ir::Function) -> FastHashMap<u32, MeshOutputKind> {
    func.params
        .iter()
        .enumerate()
        .filter_map(
            |(i, p)| match module.types.try_get(p.ty).map(|t| &t.inner) {
                Some(TypeInner::MeshOutput { kind, .. }) => Some((i as u32, *kind)),
                _ => None,
            },
        )
        .collect()
}

fn stores(block: &ir::Block, f: &mut dyn FnMut(Handle<Expression>)) {
    for stmt in &block.stmts {
        if let Statement::Store { target, .. } = stmt {
            f(*target);
        }
        for b in stmt.blocks() {
            stores(b, f);
        }
    }
}

/// The functions the entry function calls, directly or not.
fn callees(module: &ir::Module, entry: Handle<ir::Function>) -> Vec<Handle<ir::Function>> {
    let mut seen = FastHashSet::from_iter([entry]);
    let mut work = vec![entry];
    let mut out = Vec::new();
    while let Some(f) = work.pop() {
        let Some(func) = module.functions.try_get(f) else {
            continue;
        };
        for (_, e) in func.expressions.iter() {
            if let Expression::Call { function, .. } = e
                && seen.insert(*function)
            {
                work.push(*function);
                out.push(*function);
            }
        }
    }
    out
}

/// The source checks B21 needs before planning: mesh outputs used only
/// as their thread-local copies can take (`elements`); the mesh and
/// dispatch calls in the entry function.
pub fn check(module: &ir::Module, entry: &ir::EntryPoint) -> Vec<Diagnostic> {
    let mut errors = Vec::new();
    let func = &module.functions[entry.function];
    let params = mesh_params(module, func);
    errors.extend(elements::check(module, func, &params));
    // Metal's `mesh<V, P, NV, NP, t>` holds at most 256 vertices and 512
    // primitives.
    for p in &func.params {
        let Some(TypeInner::MeshOutput { kind, count, .. }) =
            module.types.try_get(p.ty).map(|t| &t.inner)
        else {
            continue;
        };
        let (limit, what) = match kind {
            MeshOutputKind::Vertices => (256, "vertices"),
            _ => (512, "primitives"),
        };
        if *count > limit {
            errors.push(Diagnostic::error(
                codes::METAL_MESH_TOO_LARGE,
                format!(
                    "`{}` declares {count} {what}; a Metal mesh holds at most {limit}",
                    p.name
                ),
                p.span,
            ));
        }
    }
    for f in callees(module, entry.function) {
        let callee = &module.functions[f];
        for (h, e) in callee.expressions.iter() {
            if let Expression::Intrinsic { fun, .. } = e
                && matches!(
                    fun,
                    ir::Intrinsic::SetMeshOutputCounts | ir::Intrinsic::DispatchMesh
                )
            {
                errors.push(Diagnostic::error(
                    codes::METAL_MESH_CALL_IN_HELPER,
                    format!(
                        "`{}` in `{}`: on Metal it must be called in the entry function itself, \
                         which alone holds the mesh object or the payload and grid parameters",
                        fun.name(),
                        callee.name
                    ),
                    callee.expressions.span(h),
                ));
            }
        }
    }
    errors
}

/// The `metal::mesh` parameter's shape, from the output parameters and
/// `[outputtopology]`.
pub fn shape(module: &ir::Module, entry: &ir::EntryPoint) -> Option<MeshShape> {
    if entry.stage != ir::ShaderStage::Mesh {
        return None;
    }
    let func = &module.functions[entry.function];
    let mut vertices = 0;
    let mut primitives = 0;
    for p in &func.params {
        if let Some(TypeInner::MeshOutput { kind, count, .. }) =
            module.types.try_get(p.ty).map(|t| &t.inner)
        {
            match kind {
                MeshOutputKind::Vertices => vertices = *count,
                _ => primitives = primitives.max(*count),
            }
        }
    }
    let topology = match entry.attributes.output_topology {
        Some(ir::OutputTopology::Point) => "point",
        Some(ir::OutputTopology::Line) => "line",
        _ => "triangle",
    };
    Some(MeshShape {
        vertices,
        primitives,
        topology,
    })
}

/// The type name of the payload an object function's `DispatchMesh`
/// hands on.
pub fn object_payload(module: &ir::Module, entry: &ir::EntryPoint) -> Option<String> {
    dispatched_payload(module, entry).map(|(name, _)| name)
}

/// [`object_payload`], with the span of the payload argument of the
/// `DispatchMesh` call (where linking reports a disagreement).
pub fn dispatched_payload(
    module: &ir::Module,
    entry: &ir::EntryPoint,
) -> Option<(String, ir::Span)> {
    if entry.stage != ir::ShaderStage::Amplification {
        return None;
    }
    let func = &module.functions[entry.function];
    func.expressions.iter().find_map(|(_, e)| match e {
        Expression::Intrinsic {
            fun: ir::Intrinsic::DispatchMesh,
            args,
        } => args.get(3).and_then(|&a| {
            let ty = func.expressions.ty(a)?;
            Some((ir::print::type_name(module, ty), func.expressions.span(a)))
        }),
        _ => None,
    })
}

#[derive(Clone, Copy)]
enum Old {
    Param(u32),
    Local(Handle<ir::LocalVariable>, Handle<Type>),
    Global(Handle<ir::GlobalVariable>),
}

/// Rewrites the entry function in place (see the module doc).
pub fn apply(module: &mut ir::Module, entry_point: usize, plan: &Plan) {
    let entry = module.entry_points[entry_point].clone();
    let f = entry.function;
    let source = module.functions[f].clone();
    let original = source.expressions.len();
    let mut w = FunctionBuilder::of(source.clone());
    w.func.params = Vec::new();
    let mut prologue = ir::Block::default();

    // The mesh output element structs.
    let mut element_structs: FastHashMap<MeshOutputKind, Handle<Type>> = FastHashMap::default();
    for (kind, suffix) in [
        (MeshOutputKind::Vertices, "Vertex"),
        (MeshOutputKind::Primitives, "Primitive"),
    ] {
        let leaves: Vec<&Leaf> = plan
            .leaves
            .iter()
            .filter(|l| l.mesh == Some(kind))
            .collect();
        if leaves.is_empty() {
            continue;
        }
        // One member per leaf, the clip distances one array, as the
        // wrapper's result struct.
        let (mut members, _) = output_members(module, &leaves);
        for member in &mut members {
            if let Some(ir::Binding::Location { per_primitive, .. }) = &mut member.io.binding {
                *per_primitive = kind == MeshOutputKind::Primitives;
            }
        }
        let ty = module.types.insert(
            Type {
                name: Some(format!("{}{suffix}", entry.name)),
                inner: TypeInner::Struct { members },
            },
            source.span,
        );
        element_structs.insert(kind, ty);
    }

    // The source's parameters: locals for system values, globals for
    // uniforms; the payload and the mesh outputs stay parameters, after
    // the attributed inputs.
    let mut old = Vec::new();
    let mut kept = Vec::new();
    for (k, param) in source.params.iter().enumerate() {
        let target = plan
            .leaves
            .iter()
            .find(|l| l.root == Root::Param(k as u32))
            .map(|l| &l.target);
        let mesh_kind = match module.types.try_get(param.ty).map(|t| &t.inner) {
            Some(TypeInner::MeshOutput { kind, .. }) => Some(*kind),
            _ => None,
        };
        if target == Some(&Target::Uniform) {
            let global = builder::uniform_global(module, param);
            old.push(Old::Global(global));
        } else if param.role == ir::ParamRole::Payload || mesh_kind.is_some() {
            let mut kept_param = param.clone();
            kept_param.io = ir::IoAttrs::default();
            if let Some(kind) = mesh_kind
                && let Some(&element) = element_structs.get(&kind)
                && let TypeInner::MeshOutput { count, .. } = module.types[param.ty].inner
            {
                kept_param.ty = builder::ty(
                    module,
                    TypeInner::MeshOutput {
                        kind,
                        element,
                        count,
                    },
                );
            }
            old.push(Old::Param(0));
            kept.push((k, kept_param));
        } else {
            w.span = param.span;
            let local = w.local(&param.name, param.ty);
            prologue.push(Statement::Declare { local, init: None }, param.span);
            old.push(Old::Local(local, param.ty));
        }
    }

    // Outputs written field by field: a thread-local copy each.
    let mut copies = elements::declare(
        &mut w,
        module,
        &source,
        &mesh_params(module, &source),
        &mut prologue,
    );

    // Inputs: one attributed parameter each, stored into its place.
    let mut group_thread_id = None;
    for leaf in plan.leaves.iter().filter(|l| {
        l.direction == Direction::Input
            && matches!(l.target, Target::BuiltIn { .. } | Target::Location { .. })
    }) {
        let interface_ty = interface_type(module, leaf);
        let index = w.func.params.len() as u32;
        w.func.params.push(ir::FunctionParam {
            name: leaf.name.clone(),
            ty: interface_ty,
            direction: ir::ParamDirection::In,
            role: ir::ParamRole::Plain,
            io: io_for(&leaf.target),
            span: leaf.span,
        });
        if matches!(
            leaf.target,
            Target::BuiltIn {
                value: ir::SystemValue::GroupThreadId,
                ..
            }
        ) && group_thread_id.is_none()
        {
            group_thread_id = Some((index, interface_ty));
        }
        let Root::Param(k) = leaf.root else {
            continue;
        };
        let Old::Local(local, root_ty) = old[k as usize] else {
            continue;
        };
        w.span = leaf.span;
        let value = w.expr(Expression::Param(index), Some(interface_ty));
        let store = store_input(
            &mut w,
            module,
            value,
            (interface_ty, leaf.ty),
            (local, root_ty),
            &leaf.members,
        );
        prologue.push(store, leaf.span);
    }
    for (k, param) in kept {
        old[k] = Old::Param(w.func.params.len() as u32);
        if let Some(copy) = copies.get_mut(&(k as u32)) {
            copy.param = w.func.params.len() as u32;
        }
        w.func.params.push(param);
    }

    // B20: `SV_GroupIndex` from the threadgroup-local id.
    for leaf in &plan.leaves {
        let (Target::GroupIndex { x, y }, Root::Param(k), Some(id)) =
            (&leaf.target, &leaf.root, group_thread_id)
        else {
            continue;
        };
        let Old::Local(local, root_ty) = old[*k as usize] else {
            continue;
        };
        let store = store_group_index(&mut w, module, leaf, [*x, *y], (local, root_ty), id);
        prologue.push(store, leaf.span);
    }

    // Every use of a source parameter now reads its replacement.
    for index in 0..original {
        let h = Handle::from_index(index);
        if let Expression::Param(k) = w.func.expressions[h] {
            if let Some(copy) = copies.get(&k) {
                let (local, ty) = copy.replacement();
                w.func.expressions.set(h, local, Some(ty));
                continue;
            }
            let mut ty = w.func.expressions.ty(h);
            let replacement = match old.get(k as usize) {
                Some(Old::Param(n)) => {
                    ty = w.func.params.get(*n as usize).map(|p| p.ty).or(ty);
                    Expression::Param(*n)
                }
                Some(Old::Local(l, _)) => Expression::Local(*l),
                Some(Old::Global(g)) => Expression::Global(*g),
                None => continue,
            };
            w.func.expressions.set(h, replacement, ty);
        }
    }

    // Stores into the copies mark their elements written, and each exit
    // writes the written ones out; then whole-element stores of vertices
    // and primitives go through the element struct.
    let mut body = std::mem::take(&mut w.func.body);
    elements::rewrite(&mut w, module, &mut body, &copies);
    rewrite_stores(&mut w, module, &mut body, plan);
    // An object function's `DispatchMesh`: every thread reaches it, but
    // one copies the payload out, after the group's writes to it.
    if let (Some(_), Some((param, param_ty))) = (&plan.extra.object_payload, group_thread_id) {
        let [x, y, _] = entry.attributes.workgroup_size.unwrap_or([1, 1, 1]);
        dispatch_once(&mut w, module, &mut body, param, param_ty, [x, y]);
    }
    let mut stmts = prologue.stmts;
    let mut spans = prologue.spans;
    stmts.append(&mut body.stmts);
    spans.append(&mut body.spans);
    w.func.body = ir::Block { stmts, spans };

    let func = w.func;
    *module.functions.get_mut(f) = func;
    if let Some(shape) = &plan.extra.shape {
        let attributes = &mut module.entry_points[entry_point].attributes;
        attributes.mesh_vertices = Some(shape.vertices);
        attributes.mesh_primitives = Some(shape.primitives);
    }
}

/// Each `DispatchMesh(x, y, z, payload)` statement of `block` as
/// `GroupMemoryBarrierWithGroupSync(); if (group index == 0) DispatchMesh(...);
/// return;`: Metal's `*payload_out = payload` is a copy each thread would
/// make at once, racing, and before the others' writes were visible.
fn dispatch_once(
    w: &mut FunctionBuilder,
    module: &mut ir::Module,
    block: &mut ir::Block,
    param: u32,
    param_ty: Handle<Type>,
    extent: [u32; 2],
) {
    for i in 0..block.stmts.len() {
        let span = block.spans[i];
        if let Statement::Expr(e) = &block.stmts[i]
            && let Expression::Intrinsic {
                fun: ir::Intrinsic::DispatchMesh,
                ..
            } = w.func.expressions[*e]
        {
            let dispatch = block.stmts[i].clone();
            w.span = span;
            let barrier = w.expr(
                Expression::Intrinsic {
                    fun: ir::Intrinsic::GroupMemoryBarrierWithGroupSync,
                    args: Vec::new(),
                },
                None,
            );
            let index = group_index(w, module, param, param_ty, extent);
            let u32_ty = builder::ty(module, TypeInner::Scalar(ir::Scalar::U32));
            let bool_ty = builder::ty(module, TypeInner::Scalar(ir::Scalar::BOOL));
            let zero = w.expr(Expression::Literal(ir::Literal::Uint(0)), Some(u32_ty));
            let first = w.expr(
                Expression::Binary {
                    op: ir::BinaryOp::Equal,
                    left: index,
                    right: zero,
                },
                Some(bool_ty),
            );
            let mut accept = ir::Block::default();
            accept.push(dispatch, span);
            let mut once = ir::Block::default();
            once.push(Statement::Expr(barrier), span);
            once.push(
                Statement::If {
                    condition: first,
                    accept: Box::new(accept),
                    reject: Box::default(),
                },
                span,
            );
            once.push(Statement::Return(None), span);
            block.stmts[i] = Statement::Block(once);
            continue;
        }
        for inner in block.stmts[i].blocks_mut() {
            dispatch_once(w, module, inner, param, param_ty, extent);
        }
    }
}

fn rewrite_stores(
    w: &mut FunctionBuilder,
    module: &mut ir::Module,
    block: &mut ir::Block,
    plan: &Plan,
) {
    for (stmt, &span) in block.stmts.iter_mut().zip(block.spans.iter()) {
        if let Statement::Store { target, value } = *stmt
            && let Expression::Index { base, index } = w.func.expressions[target]
            && let Expression::Param(k) = w.func.expressions[base]
            && let Some(TypeInner::MeshOutput { kind, element, .. }) = w
                .func
                .params
                .get(k as usize)
                .and_then(|p| module.types.try_get(p.ty))
                .map(|t| t.inner.clone())
            && kind != MeshOutputKind::Indices
        {
            *stmt = Statement::Block(element_store(
                w, module, plan, kind, element, base, index, value, span,
            ));
            continue;
        }
        for b in stmt.blocks_mut() {
            rewrite_stores(w, module, b, plan);
        }
    }
}

/// `{ index = i; element = v; out.m = element.a.b ...; verts[index] = out; }`
#[allow(clippy::too_many_arguments)]
fn element_store(
    w: &mut FunctionBuilder,
    module: &mut ir::Module,
    plan: &Plan,
    kind: MeshOutputKind,
    interface: Handle<Type>,
    base: Handle<Expression>,
    index: Handle<Expression>,
    value: Handle<Expression>,
    span: ir::Span,
) -> ir::Block {
    let mut block = ir::Block::default();
    let u32_ty = builder::ty(module, TypeInner::Scalar(ir::Scalar::U32));
    let index_ty = w.func.expressions.ty(index).unwrap_or(u32_ty);
    let source_ty = w
        .func
        .expressions
        .ty(value)
        .or_else(|| {
            plan.leaves
                .iter()
                .find(|l| l.mesh == Some(kind))
                .map(|l| l.ty)
        })
        .unwrap_or(interface);
    w.span = span;
    let mut declare = |w: &mut FunctionBuilder, name: &str, ty, init| {
        let local = w.local(name, ty);
        block.push(Statement::Declare { local, init }, span);
        local
    };
    let index_local = declare(w, "index", index_ty, Some(index));
    let element = declare(w, "element", source_ty, Some(value));
    let out_name = match kind {
        MeshOutputKind::Primitives => "primitive",
        _ => "vertex",
    };
    let out = declare(w, out_name, interface, None);
    let leaves: Vec<&Leaf> = plan
        .leaves
        .iter()
        .filter(|l| l.mesh == Some(kind))
        .collect();
    let (_, member_of) = output_members(module, &leaves);
    for (leaf, m) in leaves.iter().zip(member_of) {
        w.span = leaf.span;
        if let Some(first) = leaf.element() {
            let source = (Expression::Local(element), source_ty);
            for store in store_elements(w, module, *leaf, source, (out, interface, m), first) {
                block.push(store, leaf.span);
            }
            continue;
        }
        let interface_ty = interface_type(module, *leaf);
        let read = w.place(module, Expression::Local(element), source_ty, &leaf.members);
        let read = w.convert(read, leaf.ty, interface_ty);
        let target = w.place(module, Expression::Local(out), interface, &[m]);
        block.push(
            Statement::Store {
                target,
                value: read,
            },
            leaf.span,
        );
    }
    let param_ty = w.func.expressions.ty(base);
    let param = w.func.expressions[base].clone();
    let param_span = w.func.expressions.span(base);
    w.span = param_span;
    let base = w.expr(param, param_ty);
    w.span = span;
    let i = w.expr(Expression::Local(index_local), Some(index_ty));
    let target = w.expr(Expression::Index { base, index: i }, Some(interface));
    let value = w.expr(Expression::Local(out), Some(interface));
    block.push(Statement::Store { target, value }, span);
    block
}
