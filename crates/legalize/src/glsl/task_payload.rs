//! Amplification shaders: the `groupshared` payload handed to
//! `DispatchMesh(x, y, z, payload)` is the task payload the mesh shaders
//! read (GLSL `taskPayloadSharedEXT`, SPIR-V `TaskPayloadWorkgroupEXT`), and
//! the call is `EmitMeshTasksEXT` (`OpEmitMeshTasksEXT` with the payload).
//! The mesh side reads it through its `in payload` parameter
//! (`mesh_outputs.rs`).

use legalis_ir as ir;
use legalis_ir::diag::Diagnostic;

use crate::codes;

/// Moves the global every `DispatchMesh` passes into task-payload memory.
/// A payload that is not a `groupshared` variable, or two different ones,
/// is `E49994` at the call.
pub fn apply(module: &mut ir::Module) -> Result<(), Vec<Diagnostic>> {
    let mut payload: Option<ir::Handle<ir::GlobalVariable>> = None;
    let mut errors = Vec::new();
    for (_, func) in module.functions.iter() {
        for (h, e) in func.expressions.iter() {
            let ir::Expression::Intrinsic {
                fun: ir::Intrinsic::DispatchMesh,
                args,
            } = e
            else {
                continue;
            };
            let span = func.expressions.span(h);
            let global = match args.get(3).map(|&a| &func.expressions[a]) {
                Some(&ir::Expression::Global(g))
                    if module.globals[g].space == ir::AddressSpace::Workgroup =>
                {
                    g
                }
                _ => {
                    errors.push(Diagnostic::error(
                        codes::UNSUPPORTED_SHAPE,
                        "the payload of `DispatchMesh` must be a `groupshared` variable",
                        span,
                    ));
                    continue;
                }
            };
            match payload {
                Some(first) if first != global => errors.push(Diagnostic::error(
                    codes::UNSUPPORTED_SHAPE,
                    format!(
                        "`DispatchMesh` passes `{}` here and `{}` elsewhere: an amplification \
                         shader has one payload",
                        module.globals[global].name, module.globals[first].name
                    ),
                    span,
                )),
                _ => payload = Some(global),
            }
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    if let Some(g) = payload {
        module.globals.get_mut(g).space = ir::AddressSpace::TaskPayload;
    }
    Ok(())
}
