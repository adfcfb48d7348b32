//! What the entry points of a C-family output reach: the functions, the
//! globals each function reaches (its extra trailing parameters, since
//! neither MSL nor CUDA reaches a global the way HLSL does), the structs
//! the code mentions.
//!
//! The functions come from [`ir::Reach`]; what is the writers' own is
//! which function each global is threaded through, and that the globals
//! global initializers read are the entry functions' (they evaluate the
//! initializers).

use std::collections::BTreeSet;

use legalis_ir as ir;
use legalis_ir::{Expression, FastHashMap, Handle, Span, TypeInner};

use super::Refusal;

/// The functions and globals the entry points reach.
pub(crate) struct Reach {
    /// Functions reachable from any of the entry points, in handle order
    /// (callees first).
    pub reachable: Vec<Handle<ir::Function>>,
    /// Per function, the globals it reaches (itself or through callees),
    /// in handle order.
    pub threaded: FastHashMap<Handle<ir::Function>, Vec<Handle<ir::GlobalVariable>>>,
}

/// Whose the globals read by global initializers are.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Initializers {
    /// Each entry function's, from its own walk (MSL: each evaluates the
    /// initializers of the globals it makes its locals).
    PerEntry,
    /// Every entry function's, from one walk of them all (CUDA).
    Shared,
}

type Sets<T> = FastHashMap<Handle<ir::Function>, BTreeSet<Handle<T>>>;

/// The functions `entries` reach and the globals each reaches.
pub(crate) fn collect<E: Refusal>(
    module: &ir::Module,
    entries: &[&ir::EntryPoint],
    initializers: Initializers,
) -> Result<Reach, E> {
    let mut functions = BTreeSet::new();
    let mut direct = Sets::default();
    let mut calls = Sets::default();
    match initializers {
        Initializers::PerEntry => {
            for entry in entries {
                walk(module, &[entry], &mut functions, &mut direct, &mut calls)?;
            }
        }
        Initializers::Shared => walk(module, entries, &mut functions, &mut direct, &mut calls)?,
    }
    let reachable: Vec<_> = functions.into_iter().collect();
    // Callees come before callers, so one pass in module order closes
    // the sets.
    let mut reached = Sets::default();
    for &f in &reachable {
        let mut set = direct.get(&f).cloned().unwrap_or_default();
        for callee in calls.get(&f).into_iter().flatten() {
            set.extend(reached.get(callee).into_iter().flatten().copied());
        }
        reached.insert(f, set);
    }
    let threaded = reached
        .into_iter()
        .map(|(f, set)| (f, set.into_iter().collect()))
        .collect();
    Ok(Reach {
        reachable,
        threaded,
    })
}

/// One walk from the functions of `entries` ([`ir::Reach::calls`]): the
/// functions reached join `all`, with the globals each uses directly and
/// the functions each calls; the globals the initializers of those
/// globals read (and the functions they call) belong to the entry
/// functions, which evaluate the initializers.
fn walk<E: Refusal>(
    module: &ir::Module,
    entries: &[&ir::EntryPoint],
    all: &mut BTreeSet<Handle<ir::Function>>,
    direct: &mut Sets<ir::GlobalVariable>,
    calls: &mut Sets<ir::Function>,
) -> Result<(), E> {
    let span = entries.first().map(|e| e.span).unwrap_or_default();
    let reach = ir::Reach::new(module, entries.iter().map(|e| e.function), []);
    if reach.undefined_call().is_some() {
        return Err(E::not_legalized(
            "a call of a function the module does not define".into(),
            span,
        ));
    }
    let mut pending = Vec::new();
    for f in reach.functions() {
        let uses = direct.entry(f).or_default();
        for (_, e) in module.functions[f].expressions.iter() {
            match e {
                Expression::Call { function, .. } => {
                    calls.entry(f).or_default().insert(*function);
                }
                Expression::Global(g) => {
                    uses.insert(*g);
                }
                _ => {}
            }
        }
        pending.extend(uses.iter().copied());
    }
    let mut init_globals: Vec<Handle<ir::GlobalVariable>> = Vec::new();
    while let Some(g) = pending.pop() {
        let Some(init) = module.globals.try_get(g).and_then(|global| global.init) else {
            continue;
        };
        let mut stack = vec![init];
        while let Some(e) = stack.pop() {
            if let Expression::Global(other) = &module.global_expressions[e]
                && !init_globals.contains(other)
            {
                init_globals.push(*other);
                pending.push(*other);
            }
            stack.extend(module.global_expressions[e].children());
        }
    }
    for entry in entries {
        for &g in &init_globals {
            direct.entry(entry.function).or_default().insert(g);
        }
    }
    for g in direct.values().flatten() {
        if module.globals.try_get(*g).is_none() {
            return Err(E::not_legalized(
                "a use of a global the module does not define".into(),
                span,
            ));
        }
    }
    all.extend(reach.functions());
    Ok(())
}

/// The structs any of the functions `reachable` or the `globals` (their
/// types and initializers) mention.
pub(crate) fn used_structs(
    module: &ir::Module,
    reachable: &[Handle<ir::Function>],
    globals: impl Iterator<Item = Handle<ir::GlobalVariable>>,
) -> BTreeSet<Handle<ir::Type>> {
    let mut roots = Vec::new();
    for &f in reachable {
        let func = &module.functions[f];
        roots.extend(func.params.iter().map(|p| p.ty));
        roots.extend(func.result.iter().map(|r| r.ty));
        roots.extend(func.locals.iter().map(|(_, l)| l.ty));
        for (e, _) in func.expressions.iter() {
            roots.extend(func.expressions.ty(e));
        }
    }
    for g in globals {
        roots.push(module.globals[g].ty);
        if let Some(init) = module.globals[g].init {
            let mut stack = vec![init];
            while let Some(e) = stack.pop() {
                roots.extend(module.global_expressions.ty(e));
                stack.extend(module.global_expressions[e].children());
            }
        }
    }
    let mut used = BTreeSet::new();
    for ty in roots {
        crate::structs::mark_structs(module, ty, &mut used);
    }
    used
}

/// Whether `ty` is an array (of arrays) of resources.
pub(crate) fn resource_array(module: &ir::Module, mut ty: Handle<ir::Type>) -> bool {
    let mut array = false;
    while let TypeInner::Array { base, .. } = module.types[ty].inner {
        ty = base;
        array = true;
    }
    array && module.types[ty].inner.is_resource()
}

/// How a global reaches the code that uses it; `R` is where a resource
/// is bound (MSL's argument-table slot; nothing in CUDA, where a resource
/// is a kernel parameter or a launch-parameters member).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GlobalKind<R> {
    /// `static const`: a program-scope constant value.
    Constant,
    /// `static`: a local of the entry function, passed by reference.
    Private,
    /// `groupshared`: a threadgroup (`__shared__`) local of the kernel,
    /// passed by reference.
    Workgroup,
    /// A resource: an entry-point argument, passed on as is.
    Resource(R),
    /// A plain uniform: a member of the globals block.
    Plain,
}

/// The kind of every global `threaded` reaches. `decide` answers for
/// the globals whose kind is the target's to decide (`groupshared`, the
/// resources, payloads, ray-tracing storage) and `None` for the others:
/// `static const`, `static`, plain uniforms (not arrays of resources) and
/// the interface globals legalization removes.
pub(crate) fn classify<R, E: Refusal>(
    module: &ir::Module,
    threaded: &FastHashMap<Handle<ir::Function>, Vec<Handle<ir::GlobalVariable>>>,
    mut decide: impl FnMut(Handle<ir::GlobalVariable>, Span) -> Result<Option<GlobalKind<R>>, E>,
) -> Result<FastHashMap<Handle<ir::GlobalVariable>, GlobalKind<R>>, E> {
    let used: BTreeSet<Handle<ir::GlobalVariable>> = threaded.values().flatten().copied().collect();
    let mut kinds = FastHashMap::default();
    for g in used {
        let global = &module.globals[g];
        let span = module.globals.span(g);
        let kind = match decide(g, span)? {
            Some(kind) => kind,
            None => match global.space {
                ir::AddressSpace::Constant => GlobalKind::Constant,
                ir::AddressSpace::Private => GlobalKind::Private,
                ir::AddressSpace::Uniform if resource_array(module, global.ty) => {
                    return Err(E::unsupported("arrays of resources".into(), span));
                }
                ir::AddressSpace::Uniform => GlobalKind::Plain,
                _ => {
                    return Err(E::not_legalized(
                        format!("the interface global `{}`", global.name),
                        span,
                    ));
                }
            },
        };
        kinds.insert(g, kind);
    }
    Ok(kinds)
}

/// The globals of `kinds` whose kind `pick` picks, in handle
/// (declaration) order.
pub(crate) fn globals_of<R>(
    kinds: &FastHashMap<Handle<ir::GlobalVariable>, GlobalKind<R>>,
    pick: impl Fn(&GlobalKind<R>) -> bool,
) -> Vec<Handle<ir::GlobalVariable>> {
    let mut globals: Vec<_> = kinds
        .iter()
        .filter(|(_, k)| pick(k))
        .map(|(g, _)| *g)
        .collect();
    globals.sort();
    globals
}

/// The arguments a call of `function` passes for the globals it reaches
/// (`threaded`, of `kinds`, named in `names`): each global's name but a
/// constant's or a plain uniform's, `prefix` before a resource's, then
/// the globals block (named `block`, `prefix` before it) when it reaches
/// a plain uniform.
pub(crate) fn threaded_arguments<R>(
    threaded: &FastHashMap<Handle<ir::Function>, Vec<Handle<ir::GlobalVariable>>>,
    kinds: &FastHashMap<Handle<ir::GlobalVariable>, GlobalKind<R>>,
    names: &super::names::Names,
    function: Handle<ir::Function>,
    block: Option<&str>,
    prefix: &str,
) -> Vec<String> {
    let mut parts = Vec::new();
    let mut reaches_block = false;
    for g in threaded.get(&function).into_iter().flatten() {
        match kinds[g] {
            GlobalKind::Constant => {}
            GlobalKind::Plain => reaches_block = true,
            GlobalKind::Resource(_) => parts.push(cat!(prefix, names.globals[g])),
            GlobalKind::Private | GlobalKind::Workgroup => parts.push(names.globals[g].clone()),
        }
    }
    if let (true, Some(name)) = (reaches_block, block) {
        parts.push(cat!(prefix, name));
    }
    parts
}

/// How code names global `g` (of `kinds`, named in `names`): a plain
/// uniform as a member of the globals block `block`.
pub(crate) fn global_ref<R>(
    kinds: &FastHashMap<Handle<ir::GlobalVariable>, GlobalKind<R>>,
    names: &super::names::Names,
    g: Handle<ir::GlobalVariable>,
    block: Option<&str>,
) -> String {
    let name = names.globals.get(&g).cloned().unwrap_or_default();
    match (kinds.get(&g), block) {
        (Some(GlobalKind::Plain), Some(block)) => cat!(block, ".", name),
        _ => name,
    }
}
