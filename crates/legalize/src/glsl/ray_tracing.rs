//! Ray-tracing entry points (B11, B12, D7): raygeneration, intersection,
//! anyhit, closesthit, miss and callable.
//!
//! Their varyings are not stage inputs and outputs but ray-tracing storage:
//! a hit or miss shader's `inout` parameters are its incoming ray payload,
//! a callable shader's its incoming callable data (D7), a hit shader's `in`
//! parameter its hit attributes. Two or more payload (or callable-data)
//! parameters are consolidated into one struct variable at `Location 0`
//! (B11). Every `TraceRay` and `CallShader` call site gets a temporary
//! payload (or callable data) variable of its own, which the call passes
//! by location: the argument is copied into it before the call and back
//! after. `ReportHit(t, kind, attributes)` stores `attributes` into the
//! shader's one hit-attribute variable before the statement that calls it.
//!
//! Locations are numbered per kind, as glslang counts them: ray payloads
//! (incoming and outgoing) share one counter, callable data another. Each
//! kind first reserves the numbers written with `[[vk::location(n)]]`,
//! then gives the incoming variable and then every call-site temporary, in
//! function and expression order, the lowest number still free (B12).
//! Hit attributes have no location.

use legalis_ir as ir;
use legalis_ir::diag::Diagnostic;
use legalis_ir::{Handle, Intrinsic as I, RayStorage, Span, Type};

use crate::codes;
use crate::common::builder::{self, FunctionBuilder};
use crate::glsl::plan::{Plan, RaySource, RayVariable, Reason};

/// The ray-tracing variables of entry point `entry`: its incoming
/// payload, callable data or hit attributes, and one temporary per
/// `TraceRay`/`CallShader` call site of the functions it reaches.
pub fn plan(
    module: &ir::Module,
    entry: &ir::EntryPoint,
) -> Result<Vec<RayVariable>, Vec<Diagnostic>> {
    let func = &module.functions[entry.function];
    let mut errors = Vec::new();
    let mut incoming: Vec<u32> = Vec::new();
    let mut attributes: Option<u32> = None;
    let stage = entry.stage;
    for (index, param) in func.params.iter().enumerate() {
        let index = index as u32;
        let refusal = if module.is_resource_type(param.ty) {
            // A global of its own, which the wrapper passes (`wrapper`).
            None
        } else if param.role == ir::ParamRole::Uniform {
            Some(format!(
                "uniform parameter `{}`: a plain value of a {} entry point lives in its \
                 shader-binding-table record, which Legalis does not write yet; declare it \
                 in a global constant buffer instead",
                param.name,
                stage.name()
            ))
        } else {
            match (stage, param.direction) {
                (ir::ShaderStage::RayGeneration | ir::ShaderStage::Intersection, _) => {
                    Some(format!(
                        "{} entry points have no payload or attributes: parameter `{}` has nothing to receive",
                        stage.name(),
                        param.name
                    ))
                }
                (ir::ShaderStage::AnyHit | ir::ShaderStage::ClosestHit, ir::ParamDirection::In) => {
                    attributes.replace(index).map(|first| {
                        format!(
                            "a hit shader has one hit-attribute parameter; `{}` is a second one after `{}`",
                            param.name, func.params[first as usize].name
                        )
                    })
                }
                _ => {
                    incoming.push(index);
                    None
                }
            }
        };
        if let Some(message) = refusal {
            errors.push(Diagnostic::error(
                codes::RAY_TRACING_PARAMETER,
                message,
                param.span,
            ));
        }
    }
    if let Some(result) = &func.result {
        errors.push(Diagnostic::error(
            codes::RAY_TRACING_PARAMETER,
            format!(
                "{} entry points return nothing: write the payload instead",
                stage.name()
            ),
            result.span,
        ));
    }
    if incoming.len() > 1 {
        // B11: one struct at location 0; a location on a member has nowhere to go.
        for &p in &incoming {
            let param = &func.params[p as usize];
            if param.io.explicit_location.is_some() {
                errors.push(Diagnostic::error(
                    codes::RAY_TRACING_PARAMETER,
                    format!(
                        "`{}` is one of {} payload parameters merged into one variable at location 0; \
                         it cannot have a location of its own",
                        param.name,
                        incoming.len()
                    ),
                    param.span,
                ));
            }
        }
    }
    let mut vars = Vec::new();
    // D7: a callable shader receives callable data, not a ray payload.
    let payload_kind = match stage {
        ir::ShaderStage::Callable => RayStorage::IncomingCallableData,
        _ => RayStorage::IncomingRayPayload,
    };
    if let Some(&first) = incoming.first() {
        let param = &func.params[first as usize];
        let (name, ty) = match incoming.len() {
            1 => (param.name.clone(), Some(param.ty)),
            _ if payload_kind == RayStorage::IncomingCallableData => {
                (format!("{}_callableData", entry.name), None)
            }
            _ => (format!("{}_payloads", entry.name), None),
        };
        vars.push(RayVariable {
            kind: payload_kind,
            name,
            ty,
            location: incoming
                .iter()
                .find_map(|&p| func.params[p as usize].io.explicit_location),
            reason: Reason::NextFreeLocation,
            source: RaySource::Params(incoming.clone()),
            span: param.span,
        });
    }
    if let Some(p) = attributes {
        let param = &func.params[p as usize];
        vars.push(RayVariable {
            kind: RayStorage::HitAttribute,
            name: param.name.clone(),
            ty: Some(param.ty),
            location: None,
            reason: Reason::TableRow,
            source: RaySource::Params(vec![p]),
            span: param.span,
        });
    }
    call_sites(module, entry, &mut vars, &mut errors);
    let reach = ir::Reach::calls(module, [entry.function]);
    for function in reach.functions() {
        let func = &module.functions[function];
        loop_conditions(func, &func.body, &mut errors);
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    number_locations(&mut vars);
    Ok(vars)
}

/// The ray intrinsics each stage may call (Vulkan's execution-model rules).
fn available(fun: I, stage: ir::ShaderStage) -> bool {
    use ir::ShaderStage as S;
    let hit = matches!(stage, S::AnyHit | S::ClosestHit);
    let traced = hit || matches!(stage, S::Intersection);
    match fun {
        I::TraceRay | I::TraceMotionRay => {
            matches!(stage, S::RayGeneration | S::ClosestHit | S::Miss)
        }
        // Shader execution reordering: hit objects in the stages that may
        // trace rays, reordering in ray generation only.
        I::ReorderThread => stage == S::RayGeneration,
        f if f.is_hit_object() => matches!(stage, S::RayGeneration | S::ClosestHit | S::Miss),
        I::CallShader => matches!(
            stage,
            S::RayGeneration | S::ClosestHit | S::Miss | S::Callable
        ),
        I::ReportHit => stage == S::Intersection,
        I::IgnoreHit | I::AcceptHitAndEndSearch => stage == S::AnyHit,
        I::DispatchRaysIndex | I::DispatchRaysDimensions => true,
        I::WorldRayOrigin
        | I::WorldRayDirection
        | I::RayTMin
        | I::RayTCurrent
        | I::RayFlags
        | I::RayCurrentTime => traced || stage == S::Miss,
        I::HitKind => hit,
        I::ObjectRayOrigin
        | I::ObjectRayDirection
        | I::InstanceIndex
        | I::InstanceId
        | I::PrimitiveIndex
        | I::GeometryIndex
        | I::ObjectToWorld3x4
        | I::ObjectToWorld4x3
        | I::WorldToObject3x4
        | I::WorldToObject4x3
        | I::ObjectToWorld
        | I::WorldToObject => traced,
        _ => true,
    }
}

/// One temporary per `TraceRay`/`CallShader` call site; the hit-attribute
/// variable `ReportHit` writes; ray intrinsics the stage cannot call.
fn call_sites(
    module: &ir::Module,
    entry: &ir::EntryPoint,
    vars: &mut Vec<RayVariable>,
    errors: &mut Vec<Diagnostic>,
) {
    let mut reported: Option<(Handle<Type>, Span)> = None;
    let reach = ir::Reach::calls(module, [entry.function]);
    for function in reach.functions() {
        let func = &module.functions[function];
        for (expr, e) in func.expressions.iter() {
            let ir::Expression::Intrinsic { fun, args } = e else {
                continue;
            };
            let span = func.expressions.span(expr);
            if !available(*fun, entry.stage) {
                errors.push(Diagnostic::error(
                    codes::NOT_IN_STAGE,
                    format!(
                        "`{}` is not available in {} {} shader",
                        fun.name(),
                        entry.stage.article(),
                        entry.stage.name()
                    ),
                    span,
                ));
                continue;
            }
            let (kind, name) = match fun {
                I::TraceRay | I::TraceMotionRay | I::HitObjectTraceRay | I::HitObjectInvoke => {
                    (RayStorage::RayPayload, "rayPayload")
                }
                I::CallShader => (RayStorage::CallableData, "callableData"),
                I::ReportHit => {
                    let Some(ty) = args.get(2).and_then(|&a| func.expressions.ty(a)) else {
                        continue;
                    };
                    match reported {
                        None => {
                            reported = Some((ty, span));
                            vars.push(RayVariable {
                                kind: RayStorage::HitAttribute,
                                name: "hitAttributes".into(),
                                ty: Some(ty),
                                location: None,
                                reason: Reason::TableRow,
                                source: RaySource::ReportHit,
                                span,
                            });
                        }
                        Some((first, first_span)) if first != ty => errors.push(
                            Diagnostic::error(
                                codes::HIT_ATTRIBUTE_TYPES,
                                format!(
                                    "`ReportHit` with attributes of type `{}` after `{}`: \
                                     an intersection shader has one hit-attribute variable",
                                    ir::print::type_name(module, ty),
                                    ir::print::type_name(module, first)
                                ),
                                span,
                            )
                            .with_label(first_span, "the first `ReportHit`"),
                        ),
                        Some(_) => {}
                    }
                    continue;
                }
                _ => continue,
            };
            let Some(ty) = args.last().and_then(|&a| func.expressions.ty(a)) else {
                continue;
            };
            let index = vars.iter().filter(|v| v.kind == kind).count();
            vars.push(RayVariable {
                kind,
                name: format!("{name}_{index}"),
                ty: Some(ty),
                location: None,
                reason: Reason::NextFreeLocation,
                source: RaySource::CallSite { function, expr },
                span,
            });
        }
    }
}

/// `ReportHit` stores its attributes before the statement that calls it,
/// which a loop condition, evaluated again on every iteration, does not
/// allow: `E49105` at the call.
fn loop_conditions(func: &ir::Function, block: &ir::Block, errors: &mut Vec<Diagnostic>) {
    for stmt in &block.stmts {
        let condition = match stmt {
            ir::Statement::While { condition, .. } | ir::Statement::DoWhile { condition, .. } => {
                Some(*condition)
            }
            ir::Statement::For { condition, .. } => *condition,
            _ => None,
        };
        let mut stack: Vec<Handle<ir::Expression>> = condition.into_iter().collect();
        while let Some(e) = stack.pop() {
            let node = &func.expressions[e];
            if let ir::Expression::Intrinsic {
                fun: I::ReportHit, ..
            } = node
            {
                errors.push(Diagnostic::error(
                    codes::REPORT_HIT_PLACEMENT,
                    "`ReportHit` in a loop condition: call it in the loop body and keep its result",
                    func.expressions.span(e),
                ));
            }
            stack.extend(node.children());
        }
        for inner in stmt.blocks() {
            loop_conditions(func, inner, errors);
        }
    }
}

/// B12: per counter (payloads, callable data), explicit numbers first, then
/// the lowest free number for every other variable in order.
fn number_locations(vars: &mut [RayVariable]) {
    let counter = |kind: RayStorage| match kind {
        RayStorage::RayPayload | RayStorage::IncomingRayPayload => Some(0),
        RayStorage::CallableData | RayStorage::IncomingCallableData => Some(1),
        RayStorage::HitAttribute => None,
    };
    for which in [0, 1] {
        let mut taken: Vec<u32> = vars
            .iter()
            .filter(|v| counter(v.kind) == Some(which))
            .filter_map(|v| v.location)
            .collect();
        for var in vars.iter_mut().filter(|v| counter(v.kind) == Some(which)) {
            if var.location.is_some() {
                var.reason = Reason::ExplicitLocation;
                continue;
            }
            let mut location = 0;
            while taken.contains(&location) {
                location += 1;
            }
            taken.push(location);
            var.location = Some(location);
        }
    }
}

/// Applies the ray part of `plan` to `module`: its variables as globals,
/// the call sites rewritten, and a parameterless entry function that loads
/// the incoming variables into the original's parameters and stores the
/// `inout` ones back.
pub fn apply(module: &mut ir::Module, entry_index: usize, plan: &Plan) {
    let entry = module.entry_points[entry_index].clone();
    let original = module.functions[entry.function].clone();
    let globals: Vec<(Handle<ir::GlobalVariable>, Handle<Type>)> = plan
        .extra
        .ray
        .iter()
        .map(|var| {
            let ty = var
                .ty
                .unwrap_or_else(|| consolidated_type(module, &entry.name, &original, var));
            let io = var.location.map(|location| ir::IoAttrs {
                binding: Some(ir::Binding::Location {
                    location,
                    component: 0,
                    index: None,
                    interpolation: ir::Interpolation::default(),
                    patch: false,
                    per_primitive: false,
                    per_vertex: false,
                }),
                ..Default::default()
            });
            let global = ir::GlobalVariable {
                name: var.name.clone(),
                ty,
                space: ir::AddressSpace::RayTracing(var.kind),
                binding: ir::ResourceBinding::default(),
                matrix_layout: None,
                init: None,
                globally_coherent: false,
                io,
            };
            (module.globals.append(global, Span::UNDEFINED), ty)
        })
        .collect();
    let handles: Vec<Handle<ir::Function>> = module.functions.iter().map(|(h, _)| h).collect();
    for function in handles {
        let rewrite = Rewrite {
            plan,
            globals: &globals,
            function,
        };
        if !plan.extra.ray.iter().any(|v| rewrite.concerns(v)) {
            continue;
        }
        let mut b = FunctionBuilder::of(module.functions[function].clone());
        let mut body = std::mem::take(&mut b.func.body);
        rewrite.block(&mut b, &mut body);
        b.func.body = body;
        *module.functions.get_mut(function) = b.func;
    }
    let wrapper = wrapper(module, &entry, &original, plan, &globals);
    module.entry_points[entry_index] = ir::EntryPoint {
        function: wrapper,
        ..entry
    };
}

/// B11: a struct with one member per consolidated parameter, named after it.
fn consolidated_type(
    module: &mut ir::Module,
    entry: &str,
    func: &ir::Function,
    var: &RayVariable,
) -> Handle<Type> {
    let RaySource::Params(params) = &var.source else {
        return Handle::from_index(0);
    };
    let members = params
        .iter()
        .map(|&p| {
            let param = &func.params[p as usize];
            ir::StructMember {
                name: param.name.clone(),
                ty: param.ty,
                io: ir::IoAttrs::default(),
                matrix_layout: None,
                span: param.span,
            }
        })
        .collect();
    let kind = match var.kind {
        RayStorage::IncomingCallableData => "CallableData",
        _ => "Payloads",
    };
    let ty = ir::Type {
        name: Some(format!("{entry}_{kind}")),
        inner: ir::TypeInner::Struct { members },
    };
    module.types.insert(ty, Span::UNDEFINED)
}

fn wrapper(
    module: &mut ir::Module,
    entry: &ir::EntryPoint,
    original: &ir::Function,
    plan: &Plan,
    globals: &[(Handle<ir::GlobalVariable>, Handle<Type>)],
) -> Handle<ir::Function> {
    let mut b = FunctionBuilder::new(&format!("{}_entry", entry.name), original.span);
    // Where each parameter lives: a global, and a member of it when
    // consolidated.
    let mut places: Vec<Option<(usize, Option<u32>)>> = vec![None; original.params.len()];
    for (v, var) in plan.extra.ray.iter().enumerate() {
        if let RaySource::Params(params) = &var.source {
            let consolidated = params.len() > 1;
            for (k, &p) in params.iter().enumerate() {
                places[p as usize] = Some((v, consolidated.then_some(k as u32)));
            }
        }
    }
    let place = |b: &mut FunctionBuilder, v: usize, member: Option<u32>, ty: Handle<Type>| {
        let (global, global_ty) = globals[v];
        let root = b.expr(ir::Expression::Global(global), Some(global_ty));
        match member {
            Some(index) => b.expr(ir::Expression::Member { base: root, index }, Some(ty)),
            None => root,
        }
    };
    let mut locals = Vec::new();
    let mut args = Vec::new();
    for (p, param) in original.params.iter().enumerate() {
        if module.is_resource_type(param.ty) {
            // A uniform resource parameter is a uniform global of its own,
            // bound as a global resource is, passed as it is.
            let global = builder::uniform_global(module, param);
            args.push(b.expr(ir::Expression::Global(global), Some(param.ty)));
            locals.push(None);
            continue;
        }
        let local = b.local(&format!("{}_value", param.name), param.ty);
        let init = places[p].map(|(v, member)| place(&mut b, v, member, param.ty));
        b.push(ir::Statement::Declare { local, init });
        args.push(b.expr(ir::Expression::Local(local), Some(param.ty)));
        locals.push(Some(local));
    }
    let call = b.expr(
        ir::Expression::Call {
            function: entry.function,
            args,
        },
        None,
    );
    b.push(ir::Statement::Expr(call));
    for (p, param) in original.params.iter().enumerate() {
        let Some((v, member)) = places[p] else {
            continue;
        };
        let (Some(local), false) = (locals[p], param.direction == ir::ParamDirection::In) else {
            continue;
        };
        let target = place(&mut b, v, member, param.ty);
        let value = b.expr(ir::Expression::Local(local), Some(param.ty));
        b.push(ir::Statement::Store { target, value });
    }
    b.push(ir::Statement::Return(None));
    let span = b.func.span;
    module.functions.append(b.func, span)
}

struct Rewrite<'a> {
    plan: &'a Plan,
    globals: &'a [(Handle<ir::GlobalVariable>, Handle<Type>)],
    function: Handle<ir::Function>,
}

impl Rewrite<'_> {
    fn concerns(&self, var: &RayVariable) -> bool {
        match var.source {
            RaySource::CallSite { function, .. } => function == self.function,
            RaySource::ReportHit => true,
            RaySource::Params(_) => false,
        }
    }

    /// The variable of the call site `expr` of this function.
    fn call_site(&self, expr: Handle<ir::Expression>) -> Option<usize> {
        self.plan.extra.ray.iter().position(|v| {
            v.source
                == RaySource::CallSite {
                    function: self.function,
                    expr,
                }
        })
    }

    fn block(&self, b: &mut FunctionBuilder, block: &mut ir::Block) {
        let stmts = std::mem::take(&mut block.stmts);
        let spans = std::mem::take(&mut block.spans);
        for (mut stmt, span) in stmts.into_iter().zip(spans) {
            for inner in stmt.blocks_mut() {
                self.block(b, inner);
            }
            let mut after = Vec::new();
            for root in stmt.exprs_mut() {
                self.expression(b, *root, block, &mut after);
            }
            block.push(stmt, span);
            for s in after {
                block.push(s, span);
            }
        }
    }

    /// Copies for every ray call in the tree under `root`: into the
    /// call's variable before the statement (pushed to `before`), and
    /// back after it for `TraceRay`/`CallShader`.
    fn expression(
        &self,
        b: &mut FunctionBuilder,
        root: Handle<ir::Expression>,
        before: &mut ir::Block,
        after: &mut Vec<ir::Statement>,
    ) {
        let mut stack = vec![root];
        while let Some(e) = stack.pop() {
            let node = b.func.expressions[e].clone();
            stack.extend(node.children());
            let ir::Expression::Intrinsic { fun, args } = node else {
                continue;
            };
            let v = match fun {
                I::TraceRay
                | I::TraceMotionRay
                | I::HitObjectTraceRay
                | I::HitObjectInvoke
                | I::CallShader => self.call_site(e),
                I::ReportHit => self
                    .plan
                    .extra
                    .ray
                    .iter()
                    .position(|v| v.source == RaySource::ReportHit),
                _ => None,
            };
            let (Some(v), Some(&arg)) = (v, args.last()) else {
                continue;
            };
            let (global, ty) = self.globals[v];
            let slot = b.expr(ir::Expression::Global(global), Some(ty));
            let value = b.copy_tree(arg);
            before.push(
                ir::Statement::Store {
                    target: slot,
                    value,
                },
                Span::UNDEFINED,
            );
            // The call passes the variable; the argument gets its value back.
            let mut args = args.clone();
            if let Some(last) = args.last_mut() {
                *last = b.expr(ir::Expression::Global(global), Some(ty));
            }
            if fun == I::ReportHit {
                *b.func.expressions.get_mut(e) = ir::Expression::Intrinsic { fun, args };
                continue;
            }
            let slot = b.expr(ir::Expression::Global(global), Some(ty));
            let back = b.copy_tree(arg);
            if matches!(
                (fun, args.len()),
                (I::TraceRay | I::HitObjectTraceRay, 8) | (I::TraceMotionRay, 9)
            ) {
                // `traceRayEXT` reads the ray's fields one by one: a local
                // holds it, so the argument is evaluated once.
                let ray_ty = b.func.expressions.ty(args[6]);
                if let Some(ray_ty) = ray_ty
                    && !matches!(b.func.expressions[args[6]], ir::Expression::Local(_))
                {
                    let local = b.local("ray", ray_ty);
                    before.push(
                        ir::Statement::Declare {
                            local,
                            init: Some(args[6]),
                        },
                        Span::UNDEFINED,
                    );
                    args[6] = b.expr(ir::Expression::Local(local), Some(ray_ty));
                }
            }
            *b.func.expressions.get_mut(e) = ir::Expression::Intrinsic { fun, args };
            after.push(ir::Statement::Store {
                target: back,
                value: slot,
            });
        }
    }
}
