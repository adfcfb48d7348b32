//! The legalization passes as a library: legalize and write an IR module
//! that did not come from Legalis's front end.
//!
//! [`compile`](crate::compile) runs the front end and then this module's
//! work; [`legalize_and_write`] starts from an [`ir::Module`] the caller
//! made (by hand with the `legalis_ir` API, or from another front end) and
//! runs the same legalizer and writer [`compile`](crate::compile) runs for
//! the target:
//!
//! | target | legalizer | writer |
//! |---|---|---|
//! | `glsl`, `spirv`, `spirv-asm` | `legalis_legalize::glsl` | `legalis_emit::glsl`, `legalis_emit::spirv` |
//! | `wgsl`, `wgsl-spirv-asm` | `legalis_legalize::wgsl` | `legalis_emit::wgsl` (then naga) |
//! | `metal` | `legalis_legalize::metal` | `legalis_emit::metal` |
//! | `cuda` | `legalis_legalize::cuda` | `legalis_emit::cuda` |
//!
//! What the module must look like is each legalizer's input contract (see
//! their crate docs): in short, a module the IR verifier
//! ([`ir::verify::verify`]) accepts, whose entry point's varyings carry
//! [`ir::Binding::Semantic`]s (`SV_Position`, `TEXCOORD0`, ...) as the
//! front end leaves them. The helper checks the first part itself.
//!
//! ```
//! use legalis::ir::{self, Binding, IoAttrs, Semantic};
//! use legalis::passes;
//!
//! // float4 main() : SV_Position { return float4(0, 0, 0, 1); }
//! let mut module = ir::Module::default();
//! let float = module.types.insert(
//!     ir::Type { name: None, inner: ir::TypeInner::Scalar(ir::Scalar::F32) },
//!     ir::Span::UNDEFINED,
//! );
//! let float4 = module.types.insert(
//!     ir::Type { name: None, inner: ir::TypeInner::Vector { size: 4, scalar: ir::Scalar::F32 } },
//!     ir::Span::UNDEFINED,
//! );
//! let mut function = ir::Function {
//!     name: "main".into(),
//!     params: Vec::new(),
//!     result: Some(ir::FunctionResult {
//!         ty: float4,
//!         io: IoAttrs {
//!             binding: Some(Binding::Semantic(Semantic::parse("SV_Position").unwrap())),
//!             ..IoAttrs::default()
//!         },
//!         span: ir::Span::UNDEFINED,
//!     }),
//!     locals: ir::Arena::new(),
//!     expressions: ir::ExpressionArena::default(),
//!     body: ir::Block::default(),
//!     span: ir::Span::UNDEFINED,
//! };
//! let mut literal = |v: f64| {
//!     let e = ir::Expression::Literal(ir::Literal::Float(v));
//!     function.expressions.append(e, Some(float), ir::Span::UNDEFINED)
//! };
//! let components = vec![literal(0.0), literal(0.0), literal(0.0), literal(1.0)];
//! let position = function.expressions.append(
//!     ir::Expression::Construct { components },
//!     Some(float4),
//!     ir::Span::UNDEFINED,
//! );
//! function.body.push(ir::Statement::Return(Some(position)), ir::Span::UNDEFINED);
//! let function = module.functions.append(function, ir::Span::UNDEFINED);
//! module.entry_points.push(ir::EntryPoint {
//!     name: "main".into(),
//!     stage: ir::ShaderStage::Vertex,
//!     function,
//!     attributes: ir::EntryPointAttributes::default(),
//!     span: ir::Span::UNDEFINED,
//! });
//!
//! let options = passes::Options::default();
//! let written = passes::legalize_and_write(&module, "main", legalis::Target::Glsl, &options)
//!     .expect("a valid vertex shader");
//! let glsl = std::str::from_utf8(&written.generated.bytes).unwrap();
//! assert!(glsl.contains("gl_Position"));
//! ```

use crate::{Generated, Policy, Request, Target, codes, ir, trace};
use legalis_ir::diag::Diagnostic;

/// How [`legalize_and_write`] legalizes and writes: the options of a
/// [`Request`] that mean something once there is a module.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Options {
    /// API-convention choices (`-fvk-invert-y` and friends).
    pub policy: Policy,
    /// The resource-binding options (`-fvk-<class>-shift`, `-fvk-bind-globals`).
    pub bindings: crate::bind::Options,
    /// Also render the legalization plan ([`Generated::trace`]).
    pub trace: Option<trace::TraceFormat>,
    /// Also render the binding plan ([`Generated::bindings`]).
    pub dump_bindings: Option<trace::TraceFormat>,
}

/// What [`legalize_and_write`] produced.
#[derive(Debug)]
#[non_exhaustive]
pub struct Written {
    /// The code, the legalized module and the stage.
    pub generated: Generated,
    /// Warnings reported on the way (no errors: those make the result `Err`).
    pub warnings: Vec<Diagnostic>,
}

/// Legalizes the entry point named `entry` of `module` for `target` and
/// writes its code, as [`compile`](crate::compile) does after the front
/// end: the same legalizer, resource-binding plan, IR verifier on the
/// legalized module, and writer.
///
/// The other entry points of `module` are left out; their functions stay
/// only where the chosen one calls them. `Err` holds every diagnostic
/// (at least one error): `E00007` when `module` has no entry point
/// `entry`, `E00011` when the IR verifier refuses `module` (each of its
/// errors in the message), otherwise the legalizer's or the writer's
/// errors, as for source input.
pub fn legalize_and_write(
    module: &ir::Module,
    entry: &str,
    target: Target,
    options: &Options,
) -> Result<Written, Vec<Diagnostic>> {
    let Some(index) = module.entry_points.iter().position(|e| e.name == entry) else {
        let known: Vec<&str> = module
            .entry_points
            .iter()
            .map(|e| e.name.as_str())
            .collect();
        return Err(vec![Diagnostic::error(
            codes::UNKNOWN_ENTRY_POINT,
            format!(
                "no entry point `{entry}` in the module (it has: {})",
                known.join(", ")
            ),
            ir::Span::UNDEFINED,
        )]);
    };
    if let Err(errors) = ir::verify::verify(module) {
        let text: Vec<String> = errors.iter().map(ToString::to_string).collect();
        return Err(vec![Diagnostic::error(
            codes::INVALID_MODULE,
            format!("the IR verifier refuses the module: {}", text.join("; ")),
            ir::Span::UNDEFINED,
        )]);
    }
    let request = Request {
        target: Some(target),
        policy: options.policy,
        bindings: options.bindings.clone(),
        trace: options.trace,
        dump_bindings: options.dump_bindings,
        ..Request::default()
    };
    let mut diagnostics: Vec<Diagnostic> = crate::layout_without_effect(target, &request.policy)
        .into_iter()
        .collect();
    let generated = if module.entry_points.len() == 1 {
        crate::pipeline::generate(module, target, &request, &mut diagnostics)
    } else {
        let mut one = module.clone();
        one.entry_points = vec![module.entry_points[index].clone()];
        crate::pipeline::generate(&one, target, &request, &mut diagnostics)
    };
    match generated {
        Some(generated) if !diagnostics.iter().any(Diagnostic::is_error) => Ok(Written {
            generated,
            warnings: diagnostics,
        }),
        _ => Err(diagnostics),
    }
}
