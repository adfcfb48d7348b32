//! B1: struct-typed entry-point inputs and outputs become one interface
//! global per field, and the entry point becomes a parameterless `main`.
//!
//! The original entry function is kept as an ordinary function; a new
//! function becomes the entry point. It assembles each parameter from the
//! input globals (builtins through `adapt_builtins`), calls the original,
//! and scatters the result and `out` parameters to the output globals. The
//! original's body is untouched, so every return path writes the outputs.

use legalis_ir as ir;
use legalis_ir::FastHashMap;
use legalis_ir::diag::Diagnostic;
use legalis_ir::{Handle, Type};
use legalis_sysval::Direction;

use crate::common::builder::{self, FunctionBuilder};
use crate::glsl::adapt_builtins;
use crate::glsl::geometry_streams::{self, CaptureCopy};
use crate::glsl::mesh_outputs;
use crate::glsl::per_vertex;
use crate::glsl::plan::{Leaf, Part, Plan, Root, Target};
use crate::glsl::stream_output::{self, Capture};

/// `gl_MaxPatchVertices`, the size of tessellation input arrays.
const MAX_PATCH_VERTICES: u32 = 32;

/// The interface global made for each leaf, by leaf index, plus the base
/// global of rebased builtins.
pub(crate) struct Interface {
    pub globals: Vec<Handle<ir::GlobalVariable>>,
    bases: Vec<Option<Handle<ir::GlobalVariable>>>,
    /// `uint`, the type of vertex indices.
    pub uint: Handle<Type>,
    /// Hull shaders: `gl_InvocationID` (`int`), the control point this
    /// invocation writes.
    pub invocation: Option<(Handle<ir::GlobalVariable>, Handle<Type>)>,
    /// The scalar `float` type when the policy rewrites `SV_Position`
    /// (`-fvk-invert-y`, `-fvk-use-dx-position-w`), with the policy and
    /// the stage.
    position_policy: Option<(ir::Policy, Handle<Type>, ir::ShaderStage)>,
}

impl Interface {
    /// The `float` type when leaf `leaf` is an `SV_Position` the policy
    /// rewrites: an output of any stage under `invert_y`, a fragment input
    /// under `dx_position_w`.
    fn position_rewrite(&self, leaf: &Leaf) -> Option<Handle<Type>> {
        let (policy, float, stage) = self.position_policy?;
        let Target::BuiltIn {
            value: ir::SystemValue::Position,
            ..
        } = leaf.target
        else {
            return None;
        };
        let applies = match leaf.direction {
            Direction::Output => policy.invert_y,
            Direction::Input => policy.dx_position_w && stage == ir::ShaderStage::Fragment,
        };
        applies.then_some(float)
    }
}

/// Rewrites `module` so that entry point `entry_index` is a parameterless
/// function over interface globals (the other entry points are left as
/// they are).
/// Returns the interface global of each leaf. `policy` decides the
/// `SV_Position` rewrites.
pub fn apply(
    module: &mut ir::Module,
    entry_index: usize,
    plan: &Plan,
    policy: &ir::Policy,
) -> Result<Vec<Handle<ir::GlobalVariable>>, Vec<Diagnostic>> {
    let mut entry = module.entry_points[entry_index].clone();
    for param in &module.functions[entry.function].params {
        if let ir::ParamRole::GeometryInput(primitive) = param.role {
            entry.attributes.input_primitive = Some(primitive);
        }
        if let Some(&ir::TypeInner::Stream { kind, .. }) =
            module.types.try_get(param.ty).map(|t| &t.inner)
        {
            // One output primitive serves every stream (D3D requires
            // `PointStream` for several).
            let first = *entry.attributes.output_stream.get_or_insert(kind);
            if first != kind {
                let message = format!(
                    "output stream `{}` is a {}; every output stream of one geometry shader \
                     must have the same primitive kind",
                    param.name,
                    ir::print::type_name(module, param.ty)
                );
                return Err(vec![Diagnostic::error(
                    crate::codes::UNSUPPORTED_SHAPE,
                    message,
                    param.span,
                )]);
            }
        }
    }
    if policy.widen_16bit_varyings {
        let errors = unwidenable(module, plan);
        if !errors.is_empty() {
            return Err(errors);
        }
    }
    let mut interface = make_globals(module, plan, policy.widen_16bit_varyings);
    if policy.invert_y || policy.dx_position_w {
        let float = module.types.insert(
            ir::Type {
                name: None,
                inner: ir::TypeInner::Scalar(ir::Scalar::F32),
            },
            ir::Span::UNDEFINED,
        );
        interface.position_policy = Some((*policy, float, plan.stage));
    }
    // Output streams become stores and emits inside the original; the
    // parameters are gone from it, so the wrapper passes no streams.
    let streams = geometry_streams::stream_params(module, entry.function);
    // Mesh outputs and the payload become globals the body writes and
    // reads in place; the parameters are gone too.
    let mut removed: Vec<u32> = streams.iter().map(|&(s, _)| s).collect();
    removed.extend(
        mesh_outputs::mesh_params(module, entry.function)
            .iter()
            .map(|&(p, _)| p),
    );
    removed.sort_unstable();
    let captures = stream_output::plan_captures(module, plan, &entry.attributes)?;
    let copies = capture_globals(module, plan, &interface.globals, &captures)?;
    let invert_y = interface
        .position_policy
        .filter(|(p, ..)| p.invert_y)
        .map(|(_, float, _)| float);
    geometry_streams::apply(
        module,
        entry.function,
        plan,
        &interface.globals,
        &copies,
        invert_y,
        interface.uint,
    )?;
    mesh_outputs::apply(
        module,
        entry.function,
        &mut entry,
        plan,
        &interface.globals,
        invert_y,
        interface.uint,
    )?;
    let original = &module.functions[entry.function];
    let params: Vec<(String, Handle<Type>)> = original
        .params
        .iter()
        .map(|p| (p.name.clone(), p.ty))
        .collect();
    // Plan roots count the parameters as declared, streams included.
    let declared: Vec<u32> = (0..(params.len() + removed.len()) as u32)
        .filter(|i| !removed.contains(i))
        .collect();
    let result_ty = original.result.as_ref().map(|r| r.ty);

    let mut b = FunctionBuilder::new(&format!("{}_entry", entry.name), original.span);
    // A store per leaf, each from a few expressions (a global, a member
    // path, a load).
    b.reserve(
        plan.leaves.len() + params.len() + 4,
        4 * plan.leaves.len() + 8,
    );
    let locals: Vec<Option<Handle<ir::LocalVariable>>> = params
        .iter()
        .enumerate()
        .map(|(i, (name, ty))| {
            let uniform = plan
                .leaves
                .iter()
                .any(|l| l.root == Root::Param(declared[i]) && l.target == Target::Uniform);
            (!uniform).then(|| {
                let local = b.local(&format!("{name}_value"), *ty);
                b.push(ir::Statement::Declare { local, init: None });
                local
            })
        })
        .collect();
    for (index, leaf) in plan.leaves.iter().enumerate() {
        // A per-vertex input is read only through its array (B13); the
        // patch-constant function's inputs are read in the splice.
        if leaf.direction == Direction::Input
            && leaf.target != Target::Uniform
            && !leaf.per_vertex
            && !leaf.root.is_patch_constant()
        {
            gather_input(&mut b, module, leaf, &interface, index, &locals, &declared);
        }
    }
    let args: Vec<Handle<ir::Expression>> = (0..params.len())
        .map(|i| match locals[i] {
            Some(local) => b.expr(ir::Expression::Local(local), Some(params[i].1)),
            None => {
                let leaf = plan
                    .leaves
                    .iter()
                    .position(|l| l.root == Root::Param(declared[i]));
                let global = leaf
                    .map(|l| interface.globals[l])
                    .unwrap_or(Handle::from_index(0));
                b.expr(ir::Expression::Global(global), Some(params[i].1))
            }
        })
        .collect();
    let call = b.expr(
        ir::Expression::Call {
            function: entry.function,
            args,
        },
        result_ty,
    );
    let result_local = match result_ty {
        Some(ty) => {
            let local = b.local("result", ty);
            b.push(ir::Statement::Declare {
                local,
                init: Some(call),
            });
            Some((local, ty))
        }
        None => {
            b.push(ir::Statement::Expr(call));
            None
        }
    };
    for (index, leaf) in plan.leaves.iter().enumerate() {
        if leaf.direction == Direction::Output
            && leaf.stream.is_none()
            && leaf.mesh.is_none()
            && !leaf.root.is_patch_constant()
        {
            scatter_output(
                &mut b,
                module,
                leaf,
                &interface,
                index,
                &locals,
                &declared,
                result_local,
            );
        }
    }
    if let Some(call) = &plan.extra.patch_constant {
        crate::glsl::hull::splice(&mut b, module, plan, call, &interface, &locals)?;
    }
    b.push(ir::Statement::Return(None));
    let span = b.func.span;
    let wrapper = module.functions.append(b.func, span);
    module.entry_points[entry_index] = ir::EntryPoint {
        function: wrapper,
        ..entry
    };
    Ok(interface.globals)
}

/// The value of a parameter local, or the result local, as the root of a leaf.
/// `declared[k]` is the index in the source signature of the entry
/// function's parameter `k` (streams removed).
pub(crate) fn root_place(
    b: &mut FunctionBuilder,
    leaf: &Leaf,
    locals: &[Option<Handle<ir::LocalVariable>>],
    declared: &[u32],
    result: Option<(Handle<ir::LocalVariable>, Handle<Type>)>,
) -> Option<(Handle<ir::Expression>, Handle<Type>)> {
    let local = match leaf.root {
        Root::Param(i) | Root::PatchParam(i) => {
            let k = declared.iter().position(|&d| d == i)?;
            locals.get(k).copied().flatten()?
        }
        Root::Result | Root::PatchResult => result?.0,
    };
    let ty = b.func.locals[local].ty;
    Some((b.expr(ir::Expression::Local(local), Some(ty)), ty))
}

/// `value.y` (`Part::Component(1)`) or `value[1]` (`Part::Element(1)`)
/// of a vector or array place or value, typed `scalar_ty`; `value`
/// itself without a part. `uint` types the element index.
pub(crate) fn part(
    b: &mut FunctionBuilder,
    value: (Handle<ir::Expression>, Handle<Type>),
    part: Option<Part>,
    scalar_ty: Handle<Type>,
    uint: Handle<Type>,
) -> (Handle<ir::Expression>, Handle<Type>) {
    match part {
        None => value,
        Some(Part::Component(j)) => (b.swizzle(value.0, vec![j], scalar_ty), scalar_ty),
        Some(Part::Element(k)) => (b.element(value.0, k, uint, scalar_ty), scalar_ty),
    }
}

pub(crate) fn gather_input(
    b: &mut FunctionBuilder,
    module: &ir::Module,
    leaf: &Leaf,
    interface: &Interface,
    index: usize,
    locals: &[Option<Handle<ir::LocalVariable>>],
    declared: &[u32],
) {
    let global = interface.globals[index];
    let global_ty = module.globals[global].ty;
    let Some(vertices) = leaf.vertices else {
        let Some((root, root_ty)) = root_place(b, leaf, locals, declared, None) else {
            return;
        };
        let field = b.members(module, root, root_ty, &leaf.members);
        let (place, place_ty) = part(b, field, leaf.part, global_ty, interface.uint);
        if place_ty != global_ty
            && let Some((element_ty, n)) = array_of_len(module, global_ty)
        {
            // A whole arrayed builtin read into a shorter array or a scalar
            // (`float edges[3] : SV_TessFactor` from `gl_TessLevelOuter[4]`,
            // `float inside : SV_InsideTessFactor` from `gl_TessLevelInner[0]`).
            copy_elements(
                b,
                module,
                (global, global_ty, element_ty, n),
                place,
                place_ty,
                interface.uint,
            );
            return;
        }
        let value = match interface.position_rewrite(leaf) {
            Some(float) => {
                adapt_builtins::read_dx_position(b, (global, global_ty), float, place_ty)
            }
            None => adapt_builtins::read(b, (global, global_ty), interface.bases[index], place_ty),
        };
        b.push(ir::Statement::Store {
            target: place,
            value,
        });
        return;
    };
    // A per-vertex input: `input[i].field = interface[i]` for every vertex.
    let element_ty = match module.types.try_get(global_ty).map(|t| &t.inner) {
        Some(&ir::TypeInner::Array { base, .. }) => base,
        _ => global_ty,
    };
    let uint = interface.uint;
    for vertex in 0..vertices {
        let Some((root, root_ty)) = root_place(b, leaf, locals, declared, None) else {
            return;
        };
        let vertex_ty = match module.types.try_get(root_ty).map(|t| &t.inner) {
            Some(&ir::TypeInner::Array { base, .. }) => base,
            _ => return,
        };
        let root = b.element(root, vertex, uint, vertex_ty);
        let field = b.members(module, root, vertex_ty, &leaf.members);
        let (place, place_ty) = part(b, field, leaf.part, element_ty, uint);
        let all = b.expr(ir::Expression::Global(global), Some(global_ty));
        let element = b.element(all, vertex, uint, element_ty);
        let value = adapt_builtins::write_value(b, element, element_ty, place_ty);
        b.push(ir::Statement::Store {
            target: place,
            value,
        });
    }
}

#[allow(clippy::too_many_arguments)]
pub(crate) fn scatter_output(
    b: &mut FunctionBuilder,
    module: &ir::Module,
    leaf: &Leaf,
    interface: &Interface,
    index: usize,
    locals: &[Option<Handle<ir::LocalVariable>>],
    declared: &[u32],
    result: Option<(Handle<ir::LocalVariable>, Handle<Type>)>,
) {
    let Some((root, root_ty)) = root_place(b, leaf, locals, declared, result) else {
        return;
    };
    let global = interface.globals[index];
    let mut global_ty = module.globals[global].ty;
    let field = b.members(module, root, root_ty, &leaf.members);
    let mut target = b.expr(ir::Expression::Global(global), Some(global_ty));
    // A hull control point: this invocation's element of the output array.
    if let (Some(_), Some((invocation, int))) = (leaf.vertices, interface.invocation)
        && let Some((element_ty, _)) = array_of_len(module, global_ty)
    {
        let index = b.expr(ir::Expression::Global(invocation), Some(int));
        target = b.expr(
            ir::Expression::Index {
                base: target,
                index,
            },
            Some(element_ty),
        );
        global_ty = element_ty;
    }
    let (value, value_ty) = part(b, field, leaf.part, global_ty, interface.uint);
    if value_ty != global_ty
        && let Some((element_ty, n)) = array_of_len(module, global_ty)
    {
        // A shorter array or a scalar written to a whole arrayed builtin
        // (`float edges[3] : SV_TessFactor` to `gl_TessLevelOuter[4]`).
        store_elements(
            b,
            module,
            (target, element_ty, n),
            value,
            value_ty,
            interface.uint,
        );
        return;
    }
    let value = adapt_builtins::write_value(b, value, value_ty, global_ty);
    let position = interface
        .position_rewrite(leaf)
        .map(|float| (b.copy_tree(target), float));
    b.push(ir::Statement::Store { target, value });
    if let Some((position, float)) = position {
        let negate = b.invert_y(position, float);
        b.push(negate);
    }
}

/// One global per leaf; leaves naming the same builtin share it.
fn make_globals(module: &mut ir::Module, plan: &Plan, widen: bool) -> Interface {
    // Keyed by element too: `gl_ClipDistance[0]` and `[1]` are two globals
    // naming elements of one builtin.
    let mut by_name: FastHashMap<(String, Direction, Option<u32>), Handle<ir::GlobalVariable>> =
        FastHashMap::default();
    module.globals.reserve(plan.leaves.len());
    let mut globals = Vec::with_capacity(plan.leaves.len());
    let mut bases = Vec::with_capacity(plan.leaves.len());
    let several_streams = plan.leaves.iter().any(|l| l.stream.unwrap_or(0) > 0);
    for leaf in &plan.leaves {
        let (ty, space, io) = match &leaf.target {
            Target::BuiltIn {
                value,
                row,
                element,
            } => {
                let ty = adapt_builtins::builtin_type(module, row.ty, element.is_some());
                let mut io = builtin_io(*value);
                if let Some(ir::Binding::BuiltIn(b)) = &mut io.binding {
                    b.array_index = *element;
                }
                // The row was switched to its `noperspective` alternate
                // (`gl_BaryCoordNoPerspEXT`, B16); the writers see it so.
                if row
                    .noperspective
                    .is_some_and(|alternate| alternate.glsl_name == row.glsl_name)
                {
                    io.interpolation.mode = Some(ir::InterpolationMode::NoPerspective);
                }
                (ty, space_of(leaf.direction), Some(io))
            }
            Target::Location {
                location,
                index,
                interpolation,
                patch,
                per_primitive,
                ..
            } => {
                // A per-vertex input (B13) is the three vertices' values,
                // never interpolated.
                let interpolation = if leaf.per_vertex {
                    ir::Interpolation::default()
                } else {
                    *interpolation
                };
                let binding = ir::Binding::Location {
                    location: *location,
                    component: 0,
                    index: *index,
                    interpolation,
                    patch: *patch,
                    per_primitive: *per_primitive,
                    per_vertex: leaf.per_vertex,
                };
                let io = ir::IoAttrs {
                    binding: Some(binding),
                    interpolation,
                    ..Default::default()
                };
                // GLSL and SPIR-V forbid `bool` interface variables: a
                // `bool`/`boolN` varying travels as `uint`/`uvecN` (flat,
                // as every integer) and converts at the copy; so does a
                // 16-bit one as its 32-bit counterpart when widened.
                let value_ty = bool_as_uint(module, leaf.ty);
                let value_ty = if widen {
                    builder::widened(module, value_ty)
                } else {
                    value_ty
                };
                let ty = if leaf.per_vertex {
                    per_vertex::array_type(module, value_ty)
                } else {
                    value_ty
                };
                (ty, space_of(leaf.direction), Some(io))
            }
            Target::Uniform => (leaf.ty, ir::AddressSpace::Uniform, None),
        };
        // Tessellation inputs are sized by `gl_MaxPatchVertices` (glslang
        // rejects any other size); the entry point reads the first `n`.
        let ty = match (leaf.vertices, plan.stage) {
            (Some(n), ir::ShaderStage::Hull) if leaf.direction == Direction::Output => {
                builder::array_of(module, ty, n)
            }
            (Some(_), ir::ShaderStage::Hull | ir::ShaderStage::Domain) => {
                builder::array_of(module, ty, MAX_PATCH_VERTICES)
            }
            (Some(n), _) => builder::array_of(module, ty, n),
            (None, _) => ty,
        };
        let io = io.map(|io| ir::IoAttrs {
            stream: leaf.stream.filter(|_| several_streams),
            ..io
        });
        let element = match &leaf.target {
            Target::BuiltIn { element, .. } => *element,
            _ => None,
        };
        let key = (leaf.global_name.clone(), leaf.direction, element);
        let global = *by_name
            .entry(key)
            .or_insert_with(|| builder::global(module, &leaf.global_name, ty, space, io));
        globals.push(global);
        let base = match &leaf.target {
            Target::BuiltIn { value, row, .. } => row.rebase.map(|rebase| {
                let base_value = match value {
                    ir::SystemValue::InstanceId => ir::SystemValue::StartInstanceLocation,
                    _ => ir::SystemValue::StartVertexLocation,
                };
                let key = (rebase.base_name.to_string(), Direction::Input, None);
                *by_name.entry(key).or_insert_with(|| {
                    builder::global(
                        module,
                        rebase.base_name,
                        ty,
                        ir::AddressSpace::Input,
                        Some(builtin_io(base_value)),
                    )
                })
            }),
            _ => None,
        };
        bases.push(base);
    }
    let uint = module.types.insert(
        ir::Type {
            name: None,
            inner: ir::TypeInner::Scalar(ir::Scalar::U32),
        },
        ir::Span::UNDEFINED,
    );
    // A hull shader indexes its outputs by `gl_InvocationID` and guards the
    // patch-constant call with it (B7), whether or not it reads
    // `SV_OutputControlPointID` itself.
    let value = ir::SystemValue::OutputControlPointId;
    let invocation = match legalis_sysval::glsl(value, plan.stage, Direction::Input) {
        legalis_sysval::GlslMapping::BuiltIn(row) if plan.stage == ir::ShaderStage::Hull => {
            Some(row)
        }
        _ => None,
    };
    let invocation = invocation.map(|row| {
        let ty = adapt_builtins::builtin_type(module, row.ty, false);
        let key = (row.glsl_name.to_string(), Direction::Input, None);
        let global = *by_name.entry(key).or_insert_with(|| {
            builder::global(
                module,
                row.glsl_name,
                ty,
                ir::AddressSpace::Input,
                Some(builtin_io(value)),
            )
        });
        (global, module.globals[global].ty)
    });
    Interface {
        globals,
        bases,
        uint,
        invocation,
        position_policy: None,
    }
}

/// Transform feedback: a whole user varying is captured in place; part of
/// one, or a builtin, through a copy output at the next free location.
fn capture_globals(
    module: &mut ir::Module,
    plan: &Plan,
    globals: &[Handle<ir::GlobalVariable>],
    captures: &[Capture],
) -> Result<Vec<CaptureCopy>, Vec<Diagnostic>> {
    // 64 bits: an output may end at SPIR-V's last location, 4294967295.
    let mut next_location: u64 = plan
        .leaves
        .iter()
        .filter(|l| l.direction == Direction::Output)
        .filter_map(|l| match l.target {
            Target::Location {
                location, count, ..
            } => Some(u64::from(location) + u64::from(count)),
            _ => None,
        })
        .max()
        .unwrap_or(0);
    let several_streams = plan.leaves.iter().any(|l| l.stream.unwrap_or(0) > 0);
    let mut copies = Vec::new();
    for capture in captures {
        let leaf = &plan.leaves[capture.leaf];
        // A variable has one place in one buffer: an output captured twice
        // is captured in place once and through a copy after that.
        let global = module.globals.get_mut(globals[capture.leaf]);
        if let (false, Some(io @ ir::IoAttrs { xfb: None, .. })) = (capture.copy, &mut global.io) {
            io.xfb = Some(capture.xfb);
            continue;
        }
        let scalar = match module.types.try_get(leaf.ty).map(|t| &t.inner) {
            Some(ir::TypeInner::Vector { scalar, .. }) => *scalar,
            Some(ir::TypeInner::Scalar(scalar)) => *scalar,
            _ => continue,
        };
        let inner = match capture.count {
            1 => ir::TypeInner::Scalar(scalar),
            n => ir::TypeInner::Vector {
                size: n as u8,
                scalar,
            },
        };
        let ty = builder::ty(module, inner);
        let Ok(location) = u32::try_from(next_location) else {
            return Err(vec![Diagnostic::error(
                crate::codes::LOCATION_LIMIT,
                format!(
                    "`{}` is captured through a copy output at the location after the last output, past the last one GLSL and SPIR-V number ({})",
                    leaf.path,
                    u32::MAX
                ),
                leaf.span,
            )]);
        };
        let io = ir::IoAttrs {
            binding: Some(builder::location_binding(
                location,
                ir::Interpolation::default(),
                None,
            )),
            stream: leaf.stream.filter(|_| several_streams),
            xfb: Some(capture.xfb),
            ..Default::default()
        };
        next_location += 1;
        let name = format!("xfb_{}", leaf.global_name.trim_start_matches("gl_"));
        let global = builder::global(module, &name, ty, ir::AddressSpace::Output, Some(io));
        copies.push(CaptureCopy {
            leaf: capture.leaf,
            global,
            first: capture.first,
            count: capture.count,
        });
    }
    Ok(copies)
}

/// The element type and length of a constant-size array type.
fn array_of_len(module: &ir::Module, ty: Handle<Type>) -> Option<(Handle<Type>, u32)> {
    match module.types.try_get(ty).map(|t| &t.inner) {
        Some(&ir::TypeInner::Array {
            base,
            size: ir::ArraySize::Constant(n),
        }) => Some((base, n)),
        _ => None,
    }
}

/// `place[k] = global[k]` for the elements both have, or
/// `place = global[0]` for a scalar place.
fn copy_elements(
    b: &mut FunctionBuilder,
    module: &ir::Module,
    global: (Handle<ir::GlobalVariable>, Handle<Type>, Handle<Type>, u32),
    place: Handle<ir::Expression>,
    place_ty: Handle<Type>,
    uint: Handle<Type>,
) {
    let (global, global_ty, element_ty, n) = global;
    let (count, place_element) = shared_elements(module, place_ty, n);
    for k in 0..count {
        let all = b.expr(ir::Expression::Global(global), Some(global_ty));
        let value = b.element(all, k, uint, element_ty);
        let (target, target_ty) = nth(b, (place, place_ty), place_element, k, uint);
        let value = adapt_builtins::write_value(b, value, element_ty, target_ty);
        b.push(ir::Statement::Store { target, value });
    }
}

/// `target[k] = value[k]` for the elements both have, or
/// `target[0] = value` for a scalar value: the output side of
/// [`copy_elements`].
fn store_elements(
    b: &mut FunctionBuilder,
    module: &ir::Module,
    target: (Handle<ir::Expression>, Handle<Type>, u32),
    value: Handle<ir::Expression>,
    value_ty: Handle<Type>,
    uint: Handle<Type>,
) {
    let (target, element_ty, n) = target;
    let (count, value_element) = shared_elements(module, value_ty, n);
    for k in 0..count {
        let (place, _) = nth(b, (target, element_ty), Some(element_ty), k, uint);
        let (element, from) = nth(b, (value, value_ty), value_element, k, uint);
        let element = adapt_builtins::write_value(b, element, from, element_ty);
        b.push(ir::Statement::Store {
            target: place,
            value: element,
        });
    }
}

/// How many elements a copy between an array of `n` and a value of type
/// `ty` makes (the fewer of the two lengths; 1 when `ty` is not an array),
/// and `ty`'s element type when it is an array.
fn shared_elements(module: &ir::Module, ty: Handle<Type>, n: u32) -> (u32, Option<Handle<Type>>) {
    match array_of_len(module, ty) {
        Some((base, m)) => (m.min(n), Some(base)),
        None => (1, None),
    }
}

/// Element `k` of `expr` when it is an array of `element`s, or `expr`
/// itself (of type `ty`) when `element` is `None`. An expression is used
/// once per statement: after the first element, its tree is copied.
fn nth(
    b: &mut FunctionBuilder,
    (expr, ty): (Handle<ir::Expression>, Handle<Type>),
    element: Option<Handle<Type>>,
    k: u32,
    uint: Handle<Type>,
) -> (Handle<ir::Expression>, Handle<Type>) {
    match element {
        Some(base) => {
            let expr = if k == 0 { expr } else { b.copy_tree(expr) };
            (b.element(expr, k, uint, base), base)
        }
        None => (expr, ty),
    }
}

/// `uint` for `bool`, `uintN` for `boolN`; any other type as it is.
pub(crate) fn bool_as_uint(module: &mut ir::Module, ty: Handle<Type>) -> Handle<Type> {
    let uint = ir::Scalar {
        kind: ir::ScalarKind::Uint,
        width: 4,
    };
    let inner = match module.types.try_get(ty).map(|t| &t.inner) {
        Some(ir::TypeInner::Scalar(s)) if s.kind == ir::ScalarKind::Bool => {
            ir::TypeInner::Scalar(uint)
        }
        Some(&ir::TypeInner::Vector { size, scalar }) if scalar.kind == ir::ScalarKind::Bool => {
            ir::TypeInner::Vector { size, scalar: uint }
        }
        _ => return ty,
    };
    builder::ty(module, inner)
}

/// The location varyings `-fvk-widen-16bit-varyings` cannot widen: 16-bit
/// matrices and arrays (a conversion of those is not one instruction).
fn unwidenable(module: &ir::Module, plan: &Plan) -> Vec<Diagnostic> {
    let mut errors = Vec::new();
    for leaf in &plan.leaves {
        if !matches!(leaf.target, Target::Location { .. }) {
            continue;
        }
        let (what, scalar) = match module.types.try_get(leaf.ty).map(|t| &t.inner) {
            Some(ir::TypeInner::Matrix { scalar, .. }) => ("matrix", Some(*scalar)),
            Some(ir::TypeInner::Array { base, .. }) => (
                "array",
                module.types.try_get(*base).and_then(|t| t.inner.scalar()),
            ),
            _ => continue,
        };
        if scalar.is_some_and(|s| s.width == 2) {
            errors.push(Diagnostic::error(
                crate::codes::UNSUPPORTED_SHAPE,
                format!(
                    "`{}`: -fvk-widen-16bit-varyings widens 16-bit scalars and vectors; a 16-bit {what} varying is not widened yet (declare it with 32-bit elements)",
                    leaf.path
                ),
                leaf.span,
            ));
        }
    }
    errors
}

fn space_of(direction: Direction) -> ir::AddressSpace {
    match direction {
        Direction::Input => ir::AddressSpace::Input,
        Direction::Output => ir::AddressSpace::Output,
    }
}

fn builtin_io(value: ir::SystemValue) -> ir::IoAttrs {
    ir::IoAttrs {
        binding: Some(builder::builtin_binding(value)),
        ..Default::default()
    }
}
