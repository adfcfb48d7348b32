//! What the WGSL and Metal legalizers share when they wrap the source
//! entry function (B19, B20, B22): a new function, named after the entry
//! point, takes one attributed parameter per input leaf and returns one
//! attributed struct with a member per output leaf. Its body rebuilds the
//! source's parameters as locals (uniforms as globals), stores every input
//! into its place (converted from the builtin's type), lets the target add
//! what it computes (Metal's `SV_GroupIndex`), calls the source function
//! (renamed `<entry>_body`), and copies every output leaf into the result
//! struct (converted to the builtin's type). The user's code is not
//! rewritten. Clip distances are the one exception to a member per leaf:
//! every `SV_ClipDistanceN` output fills its elements of one builtin
//! array member, packed as D3D packs its registers
//! ([`super::leaves::pack_distances`]).
//!
//! The [`ir::Policy`] conventions on builtin values apply here:
//! `-fvk-invert-y` negates the written position's `y`,
//! `-fvk-use-dx-position-w` makes a fragment position's `w` its
//! reciprocal.

use legalis_ir as ir;
use legalis_ir::{Expression, Handle, Span, Statement, SystemValue, Type, TypeInner};
use legalis_sysval::{BuiltinType, Direction};

use super::builder::{self, FunctionBuilder, Xyz};

/// Where a leaf lives in the entry point's signature.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum WrapRoot {
    Param(u32),
    Result,
    /// A parameter the source does not have.
    Added,
}

/// A plan leaf as the wrapper sees it.
pub(crate) trait WrapLeaf {
    fn root(&self) -> WrapRoot;
    fn direction(&self) -> Direction;
    /// Member indices from the root to the leaf.
    fn members(&self) -> &[u32];
    /// For a row of a matrix varying: the HLSL row of the member.
    fn row(&self) -> Option<u32>;
    /// The type the source declares.
    fn declared(&self) -> Handle<Type>;
    /// The interface parameter's or result member's name.
    fn name(&self) -> &str;
    fn span(&self) -> Span;
    /// An entry-point `uniform` parameter: a global, not a varying.
    fn is_uniform(&self) -> bool;
    /// Whether an input leaf becomes a parameter of the wrapper (not a
    /// uniform, not computed).
    fn is_parameter(&self) -> bool;
    /// The system value of a builtin leaf.
    fn builtin(&self) -> Option<SystemValue>;
    /// The builtin's own type, when the interface takes it.
    fn builtin_type(&self) -> Option<BuiltinType>;
    /// For a leaf gathered into a builtin array (clip distances): the
    /// first element it fills.
    fn element(&self) -> Option<u32>;
    /// The binding the interface value carries.
    fn io(&self) -> ir::IoAttrs;
    /// A 16-bit varying that travels as its 32-bit counterpart.
    fn widened(&self) -> bool;
}

/// How the wrapper passes a source parameter.
#[derive(Clone, Copy)]
pub(crate) enum Argument {
    Local(Handle<ir::LocalVariable>, Handle<Type>),
    Global(Handle<ir::GlobalVariable>, Handle<Type>),
}

/// An input parameter the wrapper made: its index, its type and its leaf.
pub(crate) struct MadeParam<'l, L> {
    pub index: u32,
    pub ty: Handle<Type>,
    pub leaf: &'l L,
}

/// Appends the wrapper of entry point `entry_point` and points the entry
/// point at it. `compute` runs after the inputs are stored and before the
/// call: it stores what the target computes from the made parameters.
pub(crate) fn wrap<L: WrapLeaf>(
    module: &mut ir::Module,
    entry_point: usize,
    leaves: &[L],
    policy: &ir::Policy,
    compute: impl FnOnce(&mut FunctionBuilder, &mut ir::Module, &[Argument], &[MadeParam<L>]),
) {
    let entry = module.entry_points[entry_point].clone();
    let inner = entry.function;
    let source = module.functions[inner].clone();
    module.functions.get_mut(inner).name = format!("{}_body", entry.name);

    let mut b = FunctionBuilder::new(&entry.name, source.span);

    // The source's parameters as locals (uniforms as globals).
    let mut arguments = Vec::new();
    for (k, param) in source.params.iter().enumerate() {
        let is_uniform = leaves
            .iter()
            .any(|l| l.root() == WrapRoot::Param(k as u32) && l.is_uniform());
        if is_uniform {
            let global = builder::uniform_global(module, param);
            arguments.push(Argument::Global(global, param.ty));
        } else {
            b.span = param.span;
            let local = b.declare(&param.name, param.ty, None);
            arguments.push(Argument::Local(local, param.ty));
        }
    }

    // Inputs: one parameter each, stored into its place in the locals.
    let mut made = Vec::new();
    for leaf in leaves
        .iter()
        .filter(|l| l.direction() == Direction::Input && l.is_parameter())
    {
        let interface_ty = interface_type(module, leaf);
        let index = b.func.params.len() as u32;
        b.func.params.push(ir::FunctionParam {
            name: leaf.name().to_string(),
            ty: interface_ty,
            direction: ir::ParamDirection::In,
            role: ir::ParamRole::Plain,
            io: leaf.io(),
            span: leaf.span(),
        });
        made.push(MadeParam {
            index,
            ty: interface_ty,
            leaf,
        });
        let WrapRoot::Param(k) = leaf.root() else {
            continue;
        };
        let Argument::Local(local, root_ty) = arguments[k as usize] else {
            continue;
        };
        b.span = leaf.span();
        let value = if leaf.builtin() == Some(SystemValue::Position) && policy.dx_position_w {
            let float = builder::ty(module, TypeInner::Scalar(ir::Scalar::F32));
            let float3 = builder::ty(
                module,
                TypeInner::Vector {
                    size: 3,
                    scalar: ir::Scalar::F32,
                },
            );
            let read =
                |b: &mut FunctionBuilder| b.expr(Expression::Param(index), Some(interface_ty));
            b.reciprocal_w(read, interface_ty, float, Xyz::Swizzle(float3))
        } else {
            b.expr(Expression::Param(index), Some(interface_ty))
        };
        let value = b.convert(value, interface_ty, leaf.declared());
        let target = leaf_place(&mut b, module, Expression::Local(local), root_ty, leaf);
        b.push(Statement::Store { target, value });
    }

    compute(&mut b, module, &arguments, &made);

    // The call.
    b.span = source.span;
    let args: Vec<Handle<Expression>> = arguments
        .iter()
        .map(|a| match *a {
            Argument::Local(l, ty) => b.expr(Expression::Local(l), Some(ty)),
            Argument::Global(g, ty) => b.expr(Expression::Global(g), Some(ty)),
        })
        .collect();
    let call = b.expr(
        Expression::Call {
            function: inner,
            args,
        },
        source.result.as_ref().map(|r| r.ty),
    );
    let result_local = match &source.result {
        Some(result) => {
            b.span = result.span;
            let local = b.declare("result", result.ty, Some(call));
            Some((local, result.ty))
        }
        None => {
            b.push(Statement::Expr(call));
            None
        }
    };

    // Outputs: one member each of the result struct, but one array member
    // for all the leaves gathered into one builtin.
    let outputs: Vec<&L> = leaves
        .iter()
        .filter(|l| l.direction() == Direction::Output)
        .collect();
    b.span = source.span;
    if outputs.is_empty() {
        b.push(Statement::Return(None));
    } else {
        let (members, member_of) = output_members(module, &outputs);
        let out_ty = module.types.insert(
            Type {
                name: Some(format!("{}Output", entry.name)),
                inner: TypeInner::Struct { members },
            },
            source.span,
        );
        let out = b.declare("output", out_ty, None);
        for (leaf, m) in outputs.iter().zip(member_of) {
            let (base, root_ty) = match leaf.root() {
                WrapRoot::Result => match result_local {
                    Some((l, ty)) => (l, ty),
                    None => continue,
                },
                WrapRoot::Param(k) => match arguments[k as usize] {
                    Argument::Local(l, ty) => (l, ty),
                    Argument::Global(..) => continue,
                },
                WrapRoot::Added => continue,
            };
            b.span = leaf.span();
            if let Some(first) = leaf.element() {
                let source = (Expression::Local(base), root_ty);
                for store in store_elements(&mut b, module, *leaf, source, (out, out_ty, m), first)
                {
                    b.push(store);
                }
                continue;
            }
            let interface_ty = interface_type(module, *leaf);
            let value = leaf_place(&mut b, module, Expression::Local(base), root_ty, *leaf);
            let value = b.convert(value, leaf.declared(), interface_ty);
            let target = b.place(module, Expression::Local(out), out_ty, &[m]);
            b.push(Statement::Store { target, value });
            if leaf.builtin() == Some(SystemValue::Position) && policy.invert_y {
                let float = builder::ty(module, TypeInner::Scalar(ir::Scalar::F32));
                let position = b.place(module, Expression::Local(out), out_ty, &[m]);
                let negate = b.invert_y(position, float);
                b.push(negate);
            }
        }
        b.span = source.span;
        let value = b.expr(Expression::Local(out), Some(out_ty));
        b.push(Statement::Return(Some(value)));
        b.func.result = Some(ir::FunctionResult {
            ty: out_ty,
            io: ir::IoAttrs::default(),
            span: source.span,
        });
    }

    let span = module.functions.span(inner);
    let wrapper = module.functions.append(b.func, span);
    module.entry_points[entry_point].function = wrapper;
}

/// The members of the result struct of the `outputs`, and the member
/// each output goes to: one per leaf, but one `float[N]` array for all
/// the leaves gathered into one builtin (named after the first; `N` the
/// elements they fill).
pub(crate) fn output_members<L: WrapLeaf>(
    module: &mut ir::Module,
    outputs: &[&L],
) -> (Vec<ir::StructMember>, Vec<u32>) {
    let mut members: Vec<ir::StructMember> = Vec::new();
    let mut member_of = Vec::with_capacity(outputs.len());
    // A gathered builtin → its member and the elements it holds so far.
    let mut arrays: Vec<(SystemValue, u32, u32)> = Vec::new();
    for leaf in outputs {
        let gathered = leaf.builtin().zip(leaf.element());
        let Some((value, first)) = gathered else {
            member_of.push(members.len() as u32);
            members.push(ir::StructMember {
                name: leaf.name().to_string(),
                ty: interface_type(module, *leaf),
                io: leaf.io(),
                matrix_layout: None,
                span: leaf.span(),
            });
            continue;
        };
        let end = first + super::leaves::distance_count(module, leaf.declared());
        match arrays.iter_mut().find(|a| a.0 == value) {
            Some((_, m, len)) => {
                *len = (*len).max(end);
                member_of.push(*m);
            }
            None => {
                let m = members.len() as u32;
                arrays.push((value, m, end));
                member_of.push(m);
                members.push(ir::StructMember {
                    name: leaf.name().to_string(),
                    ty: leaf.declared(),
                    io: leaf.io(),
                    matrix_layout: None,
                    span: leaf.span(),
                });
            }
        }
    }
    let float = builder::ty(module, TypeInner::Scalar(ir::Scalar::F32));
    for (_, m, len) in arrays {
        members[m as usize].ty = builder::array_of(module, float, len);
    }
    (members, member_of)
}

/// `output.m[first + j] = value[j]` for each distance `j` of a leaf
/// gathered into the builtin array member `m` of `output` (its type
/// `out_ty`): the leaf's array elements or vector components in order, or
/// the scalar, for the caller to place. `source` is the root the leaf is
/// a member of, with its type.
pub(crate) fn store_elements<L: WrapLeaf>(
    b: &mut FunctionBuilder,
    module: &mut ir::Module,
    leaf: &L,
    source: (Expression, Handle<Type>),
    (out, out_ty, m): (Handle<ir::LocalVariable>, Handle<Type>, u32),
    first: u32,
) -> Vec<Statement> {
    let float = builder::ty(module, TypeInner::Scalar(ir::Scalar::F32));
    let uint = builder::ty(module, TypeInner::Scalar(ir::Scalar::U32));
    let declared = leaf.declared();
    let count = super::leaves::distance_count(module, declared);
    let mut stores = Vec::with_capacity(count as usize);
    for j in 0..count {
        let value = b.place(module, source.0.clone(), source.1, leaf.members());
        let value = match module.types[declared].inner {
            TypeInner::Array { .. } => b.element(value, j, uint, float),
            TypeInner::Vector { .. } => b.swizzle(value, vec![j as u8], float),
            _ => value,
        };
        let array = b.place(module, Expression::Local(out), out_ty, &[m]);
        let target = b.element(array, first + j, uint, float);
        stores.push(Statement::Store { target, value });
    }
    stores
}

/// `root.m0.m1...`, the place of `leaf` in a `root` of type `root_ty`,
/// and `[row]` of it for a matrix's row.
fn leaf_place<L: WrapLeaf>(
    b: &mut FunctionBuilder,
    module: &mut ir::Module,
    root: Expression,
    root_ty: Handle<Type>,
    leaf: &L,
) -> Handle<Expression> {
    let place = b.place(module, root, root_ty, leaf.members());
    match leaf.row() {
        Some(row) => {
            let uint = builder::ty(module, TypeInner::Scalar(ir::Scalar::U32));
            b.element(place, row, uint, leaf.declared())
        }
        None => place,
    }
}

/// `local.m0.m1... = value`: an input `value` of the interface's type
/// (`types.0`) stored, as the declared type (`types.1`), into its place
/// in the local `root` of the source parameter (its type `root.1`).
pub(crate) fn store_input(
    b: &mut FunctionBuilder,
    module: &ir::Module,
    value: Handle<Expression>,
    (interface_ty, declared): (Handle<Type>, Handle<Type>),
    (local, root_ty): (Handle<ir::LocalVariable>, Handle<Type>),
    members: &[u32],
) -> Statement {
    let value = b.convert(value, interface_ty, declared);
    let target = b.place(module, Expression::Local(local), root_ty, members);
    Statement::Store { target, value }
}

/// Whether a plan's leaves write `SV_Position` (a vertex function must,
/// on WGSL and Metal).
pub(crate) fn writes_position<L: WrapLeaf>(leaves: &[L]) -> bool {
    leaves
        .iter()
        .any(|l| l.direction() == Direction::Output && l.builtin() == Some(SystemValue::Position))
}

/// The type at the interface: the builtin's own, the declared one, or its
/// 32-bit counterpart for a widened 16-bit varying.
pub(crate) fn interface_type<L: WrapLeaf>(module: &mut ir::Module, leaf: &L) -> Handle<Type> {
    match leaf.builtin_type() {
        None if leaf.widened() => builder::widened(module, leaf.declared()),
        Some(BuiltinType::Scalar(s)) => builder::ty(module, TypeInner::Scalar(s)),
        Some(BuiltinType::Vector(scalar, size)) => {
            builder::ty(module, TypeInner::Vector { size, scalar })
        }
        // No row of these targets is an array; keep the declared type.
        Some(BuiltinType::Array(..)) | None => leaf.declared(),
    }
}
