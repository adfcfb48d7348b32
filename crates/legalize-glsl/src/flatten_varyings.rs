//! B1: struct-typed entry-point inputs and outputs become one interface
//! global per field, and the entry point becomes a parameterless `main`.
//!
//! The original entry function is kept as an ordinary function; a new
//! function becomes the entry point. It assembles each parameter from the
//! input globals (builtins through `adapt_builtins`), calls the original,
//! and scatters the result and `out` parameters to the output globals. The
//! original's body is untouched, so every return path writes the outputs.

use std::collections::HashMap;

use legalis_ir as ir;
use legalis_ir::{Handle, Type};
use legalis_sysval::Direction;

use crate::adapt_builtins;
use crate::builder::FunctionBuilder;
use crate::plan::{Leaf, Plan, Root, Target};

/// The interface global made for each leaf, by leaf index, plus the base
/// global of rebased builtins.
struct Interface {
    globals: Vec<Handle<ir::GlobalVariable>>,
    bases: Vec<Option<Handle<ir::GlobalVariable>>>,
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
/// function over interface globals, and makes it the module's only entry
/// point. `policy` decides the `SV_Position` rewrites.
pub fn apply(module: &mut ir::Module, entry_index: usize, plan: &Plan, policy: &ir::Policy) {
    let entry = module.entry_points[entry_index].clone();
    let mut interface = make_globals(module, plan);
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
    let original = &module.functions[entry.function];
    let params: Vec<(String, Handle<Type>)> = original
        .params
        .iter()
        .map(|p| (p.name.clone(), p.ty))
        .collect();
    let result_ty = original.result.as_ref().map(|r| r.ty);

    let mut b = FunctionBuilder::new(&format!("{}_entry", entry.name), original.span);
    let locals: Vec<Option<Handle<ir::LocalVariable>>> = params
        .iter()
        .enumerate()
        .map(|(i, (name, ty))| {
            let uniform = plan
                .leaves
                .iter()
                .any(|l| l.root == Root::Param(i as u32) && l.target == Target::Uniform);
            (!uniform).then(|| {
                let local = b.local(&format!("{name}_value"), *ty);
                b.push(ir::Statement::Declare { local, init: None });
                local
            })
        })
        .collect();
    for (index, leaf) in plan.leaves.iter().enumerate() {
        if leaf.direction == Direction::Input && leaf.target != Target::Uniform {
            gather_input(&mut b, module, leaf, &interface, index, &locals, &params);
        }
    }
    let args: Vec<Handle<ir::Expression>> = (0..params.len())
        .map(|i| match locals[i] {
            Some(local) => b.expr(ir::Expression::Local(local), Some(params[i].1)),
            None => {
                let leaf = plan
                    .leaves
                    .iter()
                    .position(|l| l.root == Root::Param(i as u32));
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
        if leaf.direction == Direction::Output {
            scatter_output(
                &mut b,
                module,
                leaf,
                &interface,
                index,
                &locals,
                &params,
                result_local,
            );
        }
    }
    b.push(ir::Statement::Return(None));
    let span = b.func.span;
    let wrapper = module.functions.append(b.func, span);
    module.entry_points = vec![ir::EntryPoint {
        function: wrapper,
        ..entry
    }];
}

/// The value of a parameter local, or the result local, as the root of a leaf.
fn root_place(
    b: &mut FunctionBuilder,
    leaf: &Leaf,
    locals: &[Option<Handle<ir::LocalVariable>>],
    params: &[(String, Handle<Type>)],
    result: Option<(Handle<ir::LocalVariable>, Handle<Type>)>,
) -> Option<(Handle<ir::Expression>, Handle<Type>)> {
    let (local, ty) = match leaf.root {
        Root::Param(i) => (
            locals.get(i as usize).copied().flatten()?,
            params[i as usize].1,
        ),
        Root::Result => result?,
    };
    Some((b.expr(ir::Expression::Local(local), Some(ty)), ty))
}

fn gather_input(
    b: &mut FunctionBuilder,
    module: &ir::Module,
    leaf: &Leaf,
    interface: &Interface,
    index: usize,
    locals: &[Option<Handle<ir::LocalVariable>>],
    params: &[(String, Handle<Type>)],
) {
    let Some((root, root_ty)) = root_place(b, leaf, locals, params, None) else {
        return;
    };
    let (place, place_ty) = b.members(module, root, root_ty, &leaf.members);
    let global = interface.globals[index];
    let global_ty = module.globals[global].ty;
    let value = match interface.position_rewrite(leaf) {
        Some(float) => adapt_builtins::read_dx_position(b, (global, global_ty), float, place_ty),
        None => adapt_builtins::read(b, (global, global_ty), interface.bases[index], place_ty),
    };
    b.push(ir::Statement::Store {
        target: place,
        value,
    });
}

#[allow(clippy::too_many_arguments)]
fn scatter_output(
    b: &mut FunctionBuilder,
    module: &ir::Module,
    leaf: &Leaf,
    interface: &Interface,
    index: usize,
    locals: &[Option<Handle<ir::LocalVariable>>],
    params: &[(String, Handle<Type>)],
    result: Option<(Handle<ir::LocalVariable>, Handle<Type>)>,
) {
    let Some((root, root_ty)) = root_place(b, leaf, locals, params, result) else {
        return;
    };
    let (value, value_ty) = b.members(module, root, root_ty, &leaf.members);
    let global = interface.globals[index];
    let global_ty = module.globals[global].ty;
    let value = adapt_builtins::write_value(b, value, value_ty, global_ty);
    let target = b.expr(ir::Expression::Global(global), Some(global_ty));
    b.push(ir::Statement::Store { target, value });
    if let Some(float) = interface.position_rewrite(leaf) {
        adapt_builtins::invert_y(b, (global, global_ty), float);
    }
}

/// One global per leaf; leaves naming the same builtin share it.
fn make_globals(module: &mut ir::Module, plan: &Plan) -> Interface {
    // Keyed by element too: `gl_ClipDistance[0]` and `[1]` are two globals
    // naming elements of one builtin.
    let mut by_name: HashMap<(String, Direction, Option<u32>), Handle<ir::GlobalVariable>> =
        HashMap::new();
    let mut globals = Vec::with_capacity(plan.leaves.len());
    let mut bases = Vec::with_capacity(plan.leaves.len());
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
                (ty, space_of(leaf.direction), Some(io))
            }
            Target::Location {
                location,
                index,
                interpolation,
                ..
            } => {
                let binding = ir::Binding::Location {
                    location: *location,
                    component: 0,
                    index: *index,
                    interpolation: *interpolation,
                    patch: false,
                    per_primitive: false,
                };
                let io = ir::IoAttrs {
                    binding: Some(binding),
                    interpolation: *interpolation,
                    ..Default::default()
                };
                (leaf.ty, space_of(leaf.direction), Some(io))
            }
            Target::Uniform => (leaf.ty, ir::AddressSpace::Uniform, None),
        };
        let element = match &leaf.target {
            Target::BuiltIn { element, .. } => *element,
            _ => None,
        };
        let key = (leaf.global_name.clone(), leaf.direction, element);
        let global = *by_name
            .entry(key)
            .or_insert_with(|| add_global(module, &leaf.global_name, ty, space, io));
        globals.push(global);
        let base = match &leaf.target {
            Target::BuiltIn { value, row, .. } => row.rebase.map(|rebase| {
                let base_value = match value {
                    ir::SystemValue::InstanceId => ir::SystemValue::StartInstanceLocation,
                    _ => ir::SystemValue::StartVertexLocation,
                };
                let key = (rebase.base_name.to_string(), Direction::Input, None);
                *by_name.entry(key).or_insert_with(|| {
                    add_global(
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
    Interface {
        globals,
        bases,
        position_policy: None,
    }
}

fn space_of(direction: Direction) -> ir::AddressSpace {
    match direction {
        Direction::Input => ir::AddressSpace::Input,
        Direction::Output => ir::AddressSpace::Output,
    }
}

fn builtin_io(value: ir::SystemValue) -> ir::IoAttrs {
    ir::IoAttrs {
        binding: Some(ir::Binding::BuiltIn(ir::BuiltIn {
            value,
            array_index: None,
        })),
        ..Default::default()
    }
}

fn add_global(
    module: &mut ir::Module,
    name: &str,
    ty: Handle<Type>,
    space: ir::AddressSpace,
    io: Option<ir::IoAttrs>,
) -> Handle<ir::GlobalVariable> {
    let global = ir::GlobalVariable {
        name: name.to_string(),
        ty,
        space,
        binding: ir::ResourceBinding::default(),
        matrix_layout: None,
        init: None,
        globally_coherent: false,
        io,
    };
    module.globals.append(global, ir::Span::UNDEFINED)
}
