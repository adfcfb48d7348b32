//! B10: a mesh shader's outputs and payload. A mesh entry point writes its
//! `out vertices` / `out primitives` / `out indices` arrays anywhere in its
//! body, element by element (`verts[i].position = p;`), so there is nothing
//! to copy at the end as for other stages: the parameters disappear and
//! every place in them becomes a place in the interface globals.
//!
//! - A field of a vertex or primitive, `verts[i].normal`, is element `i` of
//!   the field's own output array, `outVertices_normal[i]`; a builtin field is
//!   a member of the builtin block, `gl_MeshVerticesEXT[i].gl_Position`
//!   (`gl_MeshPrimitivesEXT[i]` for primitives). Where the declared type
//!   differs from the builtin's (`uint` primitive id, `int` builtin) the
//!   store converts.
//! - A store of a whole element or of a struct field,
//!   `verts[i] = v;`, is one store per field, through temporaries for `i`
//!   and `v` (each is evaluated once, as in the source).
//! - `out indices uint3 tris[N]` is `gl_PrimitiveTriangleIndicesEXT`
//!   (`gl_PrimitiveLineIndicesEXT` for lines), and `in payload T p` the
//!   task payload `p` (GLSL `taskPayloadSharedEXT`, SPIR-V
//!   `TaskPayloadWorkgroupEXT`) the amplification shader wrote.
//!
//! A mesh output used in any other way (read whole, passed to a function) is
//! a coded refusal (`E49991`), not a silent drop.

use legalis_ir as ir;
use legalis_ir::diag::Diagnostic;
use legalis_ir::{Handle, Type, TypeInner};

use crate::common::builder::{self, FunctionBuilder};
use crate::glsl::adapt_builtins;
use crate::glsl::plan::{Leaf, Part, Plan, Root, Target};

/// What a removed parameter of the mesh entry point was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MeshParam {
    /// `out vertices T v[count]` and the like.
    Outputs {
        kind: ir::MeshOutputKind,
        element: Handle<Type>,
        count: u32,
    },
    Payload,
}

/// The mesh output and payload parameters of `function`, by index.
pub fn mesh_params(module: &ir::Module, function: Handle<ir::Function>) -> Vec<(u32, MeshParam)> {
    module.functions[function]
        .params
        .iter()
        .enumerate()
        .filter_map(|(index, p)| {
            let kind = match module.types.try_get(p.ty).map(|t| &t.inner) {
                Some(&TypeInner::MeshOutput {
                    kind,
                    element,
                    count,
                }) => MeshParam::Outputs {
                    kind,
                    element,
                    count,
                },
                _ if p.role == ir::ParamRole::Payload => MeshParam::Payload,
                _ => return None,
            };
            Some((index as u32, kind))
        })
        .collect()
}

/// Rewrites the mesh outputs and payload of `function` (the original entry
/// function) to places in `globals` (the interface global of each plan
/// leaf) and in new globals for the indices and the payload, records the
/// output sizes on `entry`, and removes the parameters.
pub fn apply(
    module: &mut ir::Module,
    function: Handle<ir::Function>,
    entry: &mut ir::EntryPoint,
    plan: &Plan,
    globals: &[Handle<ir::GlobalVariable>],
    invert_y: Option<Handle<Type>>,
    uint: Handle<Type>,
) -> Result<(), Vec<Diagnostic>> {
    let params = mesh_params(module, function);
    if params.is_empty() {
        return Ok(());
    }
    // Whole-parameter replacements: indices and payload.
    let mut whole = Vec::new();
    for &(index, kind) in &params {
        let param = module.functions[function].params[index as usize].clone();
        match kind {
            MeshParam::Outputs {
                kind,
                element,
                count,
            } => {
                match kind {
                    ir::MeshOutputKind::Vertices => entry.attributes.mesh_vertices = Some(count),
                    _ => entry.attributes.mesh_primitives = Some(count),
                }
                if kind == ir::MeshOutputKind::Indices {
                    let ty = builder::array_of(module, element, count);
                    let name = legalis_sysval::primitive_indices(entry.attributes.output_topology)
                        .glsl_name;
                    let io = ir::IoAttrs {
                        binding: Some(ir::Binding::PrimitiveIndices),
                        ..Default::default()
                    };
                    let g = builder::global(module, name, ty, ir::AddressSpace::Output, Some(io));
                    whole.push((index, g, ty));
                }
            }
            MeshParam::Payload => {
                let g = builder::global(
                    module,
                    &param.name,
                    param.ty,
                    ir::AddressSpace::TaskPayload,
                    None,
                );
                whole.push((index, g, param.ty));
            }
        }
    }
    let outputs: Vec<u32> = params
        .iter()
        .filter(|(_, k)| matches!(k, MeshParam::Outputs { .. }))
        .map(|&(i, _)| i)
        .collect();
    let mut b = FunctionBuilder::of(module.functions[function].clone());
    let rewrite = Rewrite {
        module,
        plan,
        globals,
        outputs: &outputs,
        invert_y,
        uint,
    };
    let mut body = std::mem::take(&mut b.func.body);
    rewrite.block(&mut b, &mut body);
    b.func.body = body;
    // The trees the stores replaced are unreachable now: drop them, so only
    // places still in use are looked at.
    b.func.compact(None);
    rewrite.places(&mut b)?;
    for &(index, g, ty) in &whole {
        let uses: Vec<Handle<ir::Expression>> = b
            .func
            .expressions
            .iter()
            .filter(|(_, e)| **e == ir::Expression::Param(index))
            .map(|(h, _)| h)
            .collect();
        for h in uses {
            b.func
                .expressions
                .set(h, ir::Expression::Global(g), Some(ty));
        }
    }
    let mut func = b.func;
    for &(index, _) in params.iter().rev() {
        let param = &func.params[index as usize];
        let (name, span) = (param.name.clone(), param.span);
        if !func.compact(Some(index)) {
            let message = format!(
                "mesh output `{name}` is used other than by writing its elements or their \
                 fields in the entry point (read whole, or passed to a function?), which the \
                 GLSL legalizer does not support yet"
            );
            return Err(vec![Diagnostic::error(
                legalis_sysval::codes::NOT_SUPPORTED_YET,
                message,
                span,
            )]);
        }
    }
    *module.functions.get_mut(function) = func;
    Ok(())
}

/// A place in a vertex or primitive output: `param[index].m0.m1...`, and
/// one element (`[1]`) or component (`.y`) of a clip or cull distance
/// field split into one leaf per scalar.
struct Place {
    param: u32,
    index: Handle<ir::Expression>,
    members: Vec<u32>,
    part: Option<Part>,
}

struct Rewrite<'a> {
    module: &'a ir::Module,
    plan: &'a Plan,
    globals: &'a [Handle<ir::GlobalVariable>],
    /// The vertex, primitive and index output parameters.
    outputs: &'a [u32],
    /// `-fvk-invert-y`: the `float` type.
    invert_y: Option<Handle<Type>>,
    uint: Handle<Type>,
}

impl Rewrite<'_> {
    /// The place `e` names in a vertex or primitive output, if any.
    fn place(&self, func: &ir::Function, e: Handle<ir::Expression>) -> Option<Place> {
        if let Some(place) = self.whole_place(func, e) {
            return Some(place);
        }
        let (base, part) = match &func.expressions[e] {
            &ir::Expression::Index { base, index } => match func.expressions[index] {
                ir::Expression::Literal(ir::Literal::Int(k)) => (base, Part::Element(k as u32)),
                ir::Expression::Literal(ir::Literal::Uint(k)) => (base, Part::Element(k as u32)),
                _ => return None,
            },
            ir::Expression::Swizzle { base, components } if components.len() == 1 => {
                (*base, Part::Component(components[0]))
            }
            _ => return None,
        };
        let place = self.whole_place(func, base)?;
        Some(Place {
            part: Some(part),
            ..place
        })
    }

    /// `param[index].m0.m1...`.
    fn whole_place(&self, func: &ir::Function, e: Handle<ir::Expression>) -> Option<Place> {
        let mut members = Vec::new();
        let mut at = e;
        loop {
            match func.expressions[at] {
                ir::Expression::Member { base, index } => {
                    members.push(index);
                    at = base;
                }
                ir::Expression::Index { base, index } => {
                    let ir::Expression::Param(param) = func.expressions[base] else {
                        return None;
                    };
                    if !self.outputs.contains(&param) {
                        return None;
                    }
                    members.reverse();
                    return Some(Place {
                        param,
                        index,
                        members,
                        part: None,
                    });
                }
                _ => return None,
            }
        }
    }

    /// The plan leaves under `place`, with their indices.
    fn leaves(&self, place: &Place) -> Vec<(usize, &Leaf)> {
        self.plan
            .leaves
            .iter()
            .enumerate()
            .filter(|(_, l)| {
                l.root == Root::Param(place.param)
                    && l.mesh.is_some()
                    && l.members.starts_with(&place.members)
                    && (place.part.is_none() || l.part == place.part)
            })
            .collect()
    }

    /// The one leaf `place` (of type `ty`) is, stored without conversion
    /// or split.
    fn direct_leaf(&self, place: &Place, ty: Option<Handle<Type>>) -> Option<usize> {
        let leaves = self.leaves(place);
        let [(index, leaf)] = leaves.as_slice() else {
            return None;
        };
        let global_ty = self.module.globals[self.globals[*index]].ty;
        let element = element_of(self.module, global_ty);
        let simple = leaf.members == place.members
            && leaf.part == place.part
            && element.is_some()
            && element == ty
            && !(self.invert_y.is_some() && is_position(leaf));
        simple.then_some(*index)
    }

    fn block(&self, b: &mut FunctionBuilder, block: &mut ir::Block) {
        for stmt in &mut block.stmts {
            if let ir::Statement::Store { target, value } = stmt
                && let Some(place) = self.place(&b.func, *target)
                && self
                    .direct_leaf(&place, b.func.expressions.ty(*target))
                    .is_none()
                && let Some(replacement) = self.store(b, place, *target, *value)
            {
                *stmt = replacement;
                continue;
            }
            for inner in stmt.blocks_mut() {
                self.block(b, inner);
            }
        }
    }

    /// `param[i].path = value` as one store per leaf under the place, with
    /// `i` and `value` evaluated once into temporaries.
    fn store(
        &self,
        b: &mut FunctionBuilder,
        place: Place,
        target: Handle<ir::Expression>,
        value: Handle<ir::Expression>,
    ) -> Option<ir::Statement> {
        let leaves = self.leaves(&place);
        if leaves.is_empty() {
            return None;
        }
        let value_ty = b.func.expressions.ty(target)?;
        let index_ty = b.func.expressions.ty(place.index)?;
        // One field stored whole: one store, converted to the builtin's type.
        if let [(k, leaf)] = leaves.as_slice()
            && leaf.members == place.members
            && leaf.part == place.part
            && !(self.invert_y.is_some() && is_position(leaf))
        {
            let global = self.globals[*k];
            let global_ty = self.module.globals[global].ty;
            let element_ty = element_of(self.module, global_ty)?;
            let all = b.expr(ir::Expression::Global(global), Some(global_ty));
            let target = b.expr(
                ir::Expression::Index {
                    base: all,
                    index: place.index,
                },
                Some(element_ty),
            );
            let value = adapt_builtins::write_value(b, value, value_ty, element_ty);
            return Some(ir::Statement::Store { target, value });
        }
        let mut block = ir::Block::default();
        let index = b.local("index", index_ty);
        block.push(
            ir::Statement::Declare {
                local: index,
                init: Some(place.index),
            },
            ir::Span::UNDEFINED,
        );
        let element = b.local("element", value_ty);
        block.push(
            ir::Statement::Declare {
                local: element,
                init: Some(value),
            },
            ir::Span::UNDEFINED,
        );
        for (k, leaf) in leaves {
            let global = self.globals[k];
            let global_ty = self.module.globals[global].ty;
            let element_ty = element_of(self.module, global_ty)?;
            let at = |b: &mut FunctionBuilder| {
                let all = b.expr(ir::Expression::Global(global), Some(global_ty));
                let i = b.expr(ir::Expression::Local(index), Some(index_ty));
                b.expr(
                    ir::Expression::Index {
                        base: all,
                        index: i,
                    },
                    Some(element_ty),
                )
            };
            let root = b.expr(ir::Expression::Local(element), Some(value_ty));
            let rest = &leaf.members[place.members.len()..];
            let field = b.members(self.module, root, value_ty, rest);
            let (field, field_ty) =
                crate::glsl::flatten_varyings::part(b, field, leaf.part, element_ty, self.uint);
            let converted = adapt_builtins::write_value(b, field, field_ty, element_ty);
            let target = at(b);
            block.push(
                ir::Statement::Store {
                    target,
                    value: converted,
                },
                ir::Span::UNDEFINED,
            );
            if let (Some(float), true) = (self.invert_y, is_position(leaf)) {
                let position = at(b);
                block.push(b.invert_y(position, float), ir::Span::UNDEFINED);
            }
        }
        Some(ir::Statement::Block(block))
    }

    /// Every remaining place that is exactly one leaf of the same type
    /// becomes that element of the leaf's global (reads, partial writes
    /// like `verts[i].position.x = 1`).
    fn places(&self, b: &mut FunctionBuilder) -> Result<(), Vec<Diagnostic>> {
        let handles: Vec<Handle<ir::Expression>> =
            b.func.expressions.iter().map(|(h, _)| h).collect();
        for h in handles {
            let Some(place) = self.place(&b.func, h) else {
                continue;
            };
            let Some(k) = self.direct_leaf(&place, b.func.expressions.ty(h)) else {
                // `-fvk-invert-y` negates `y` after each store of a whole
                // position; a store of some components cannot say.
                if self.invert_y.is_some()
                    && let [(_, leaf)] = self.leaves(&place).as_slice()
                    && is_position(leaf)
                {
                    let message = "with `-fvk-invert-y`, a mesh vertex's `SV_Position` must be \
                                   written whole, not by component";
                    return Err(vec![Diagnostic::error(
                        legalis_sysval::codes::NOT_SUPPORTED_YET,
                        message,
                        b.func.expressions.span(h),
                    )]);
                }
                continue;
            };
            let global = self.globals[k];
            let global_ty = self.module.globals[global].ty;
            let element_ty = element_of(self.module, global_ty);
            let all = b.expr(ir::Expression::Global(global), Some(global_ty));
            b.func.expressions.set(
                h,
                ir::Expression::Index {
                    base: all,
                    index: place.index,
                },
                element_ty,
            );
        }
        Ok(())
    }
}

fn is_position(leaf: &Leaf) -> bool {
    matches!(
        leaf.target,
        Target::BuiltIn {
            value: ir::SystemValue::Position,
            ..
        }
    )
}

fn element_of(module: &ir::Module, ty: Handle<Type>) -> Option<Handle<Type>> {
    match module.types.try_get(ty).map(|t| &t.inner) {
        Some(&TypeInner::Array { base, .. }) => Some(base),
        _ => None,
    }
}
