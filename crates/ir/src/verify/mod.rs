//! The IR verifier: checks the invariants documented on the IR's fields.
//!
//! It runs after the front end and after every legalization pass in debug
//! builds and tests, so it must report rather than panic on whatever a buggy
//! pass produces: every handle is looked up with `try_get`/`contains`, and
//! expression trees are walked iteratively with a use count, so a forged
//! cycle is reported as a reused expression instead of recursing forever.
//!
//! [`verify`] accepts front-end output (`Binding::Semantic` on varyings);
//! [`verify_legalized`] additionally requires that no semantic survives on
//! anything an entry point exposes.

mod error;
mod expr;
mod function;
mod legalized;
mod types;

pub use error::{ErrorKind, NotPlaceReason, PlaceContext, Scope, Site, VerifyError};

use crate::FastHashSet;
use crate::{AddressSpace, Module, Span};
use expr::{ExprContext, Uses};

/// Checks every invariant of `module`; `Err` lists all violations found.
pub fn verify(module: &Module) -> Result<(), Vec<VerifyError>> {
    let mut errors = Vec::new();
    check_module(module, &mut errors);
    finish(errors)
}

/// [`verify`], plus: no entry-point parameter, result or struct member
/// reachable from them (including the patch-constant function's) still has a
/// `Binding::Semantic`. Legalizers call this on their output.
pub fn verify_legalized(module: &Module) -> Result<(), Vec<VerifyError>> {
    let mut errors = Vec::new();
    check_module(module, &mut errors);
    legalized::check_no_semantics(module, &mut errors);
    finish(errors)
}

fn finish(errors: Vec<VerifyError>) -> Result<(), Vec<VerifyError>> {
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

fn check_module(module: &Module, errors: &mut Vec<VerifyError>) {
    types::check_types(module, errors);
    check_globals(module, errors);
    for (handle, func) in module.functions.iter() {
        function::check_function(module, handle, func, errors);
    }
    check_entry_points(module, errors);
}

/// Collects errors for one scope.
struct Report<'e> {
    errors: &'e mut Vec<VerifyError>,
    scope: Scope,
}

impl<'e> Report<'e> {
    fn new(errors: &'e mut Vec<VerifyError>, scope: Scope) -> Self {
        Report { errors, scope }
    }

    fn push(&mut self, site: Site, kind: ErrorKind, span: Span) {
        self.errors.push(VerifyError {
            scope: self.scope.clone(),
            site,
            kind,
            span,
        });
    }
}

fn check_globals(module: &Module, errors: &mut Vec<VerifyError>) {
    let ctx = ExprContext {
        module,
        exprs: &module.global_expressions,
        function: None,
    };
    ctx.check_all(&mut Report::new(errors, Scope::GlobalExpressions));
    let mut uses = Uses::new(module.global_expressions.len());
    for (handle, global) in module.globals.iter() {
        // The name goes into the scope only if an error is reported.
        let first_error = errors.len();
        let scope = Scope::Global {
            handle,
            name: String::new(),
        };
        let mut report = Report::new(errors, scope);
        let span = module.globals.span(handle);
        if !module.types.contains(global.ty) {
            report.push(Site::Whole, ErrorKind::BadType(global.ty), span);
        }
        let interface = matches!(global.space, AddressSpace::Input | AddressSpace::Output);
        let ray = matches!(global.space, AddressSpace::RayTracing(_));
        if !ray && interface != global.io.is_some() {
            report.push(Site::Whole, ErrorKind::InterfaceIo { interface }, span);
        }
        if let Some(init) = global.init {
            let site = || Site::Whole;
            uses.root(
                &ctx,
                init,
                expr::RootKind::Value,
                (&site, span),
                &mut report,
            );
        }
        for error in &mut errors[first_error..] {
            if let Scope::Global { name, .. } = &mut error.scope {
                name.clone_from(&global.name);
            }
        }
    }
}

fn check_entry_points(module: &Module, errors: &mut Vec<VerifyError>) {
    let mut seen = FastHashSet::default();
    for (index, entry) in module.entry_points.iter().enumerate() {
        let mut report = Report::new(errors, Scope::entry_point(index, entry));
        if !module.functions.contains(entry.function) {
            let kind = ErrorKind::BadFunction(entry.function);
            report.push(Site::Whole, kind, entry.span);
        }
        if let Some(pcf) = entry.attributes.patch_constant_func
            && !module.functions.contains(pcf)
        {
            report.push(
                Site::PatchConstantFunc,
                ErrorKind::BadFunction(pcf),
                entry.span,
            );
        }
        if !seen.insert((entry.stage, entry.name.as_str())) {
            report.push(Site::Whole, ErrorKind::DuplicateEntryPoint, entry.span);
        }
    }
}
