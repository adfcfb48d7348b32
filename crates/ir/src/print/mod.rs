//! The readable text form of a module: what `legalis FILE -dump-ir` prints
//! and what IR snapshot tests pin.
//!
//! The text reads like HLSL but is not meant to be compiled back. It is
//! *stable* (only handle order decides the layout, never hash order or
//! addresses), *complete* (every field that carries meaning shows up:
//! semantics, interpolation, explicit locations, matrix layouts, register and
//! `vk::binding`s, address spaces, entry-point attributes, parameter
//! directions and roles, initializers) and *total*: a malformed module prints
//! too, with `<bad ...>` markers where handles do not resolve, so the dump can
//! show what the verifier rejected.
//!
//! Layout: struct declarations in type-handle order, then globals, then
//! functions in arena order, then entry points. Arrays are spelled C-style
//! after the name in declarations (`float k[2]`) and as `float[2]` where a
//! type stands alone (template arguments, conversions, diagnostics).

mod decl;
mod expr;
mod names;
mod stmt;
mod types;

pub(crate) use types::struct_members;
pub use types::type_name;

use crate::{ExpressionArena, Function, Handle, Module, TypeInner};
use names::{FunctionNames, ModuleNames};

/// Renders the whole module.
pub fn print_module(module: &Module) -> String {
    let names = ModuleNames::new(module);
    let mut w = Writer::new(module, &names);
    for (handle, ty) in module.types.iter() {
        if let TypeInner::Struct { members } = &ty.inner {
            w.separate();
            w.struct_decl(handle, ty.name.as_deref(), members);
        }
    }
    if !module.globals.is_empty() {
        w.separate();
        for (handle, global) in module.globals.iter() {
            w.global(handle, global);
        }
    }
    for (handle, func) in module.functions.iter() {
        w.separate();
        w.function(handle, func);
    }
    if !module.entry_points.is_empty() {
        w.separate();
        for entry in &module.entry_points {
            w.entry_point(entry);
        }
    }
    w.out
}

/// Renders one function of `module`, named as [`print_module`] names it.
pub fn print_function(module: &Module, handle: Handle<crate::Function>) -> String {
    let names = ModuleNames::new(module);
    let mut w = Writer::new(module, &names);
    match module.functions.try_get(handle) {
        Some(func) => w.function(handle, func),
        None => w.out.push_str(&format!("<bad function {handle:?}>\n")),
    }
    w.out
}

/// The text buffer and the context expressions are printed in.
struct Writer<'a> {
    out: String,
    indent: usize,
    module: &'a Module,
    names: &'a ModuleNames,
    /// The arena expressions are looked up in: a function's, or the module's
    /// initializer arena outside functions.
    exprs: &'a ExpressionArena,
    function: Option<(&'a Function, FunctionNames)>,
    /// Expressions being printed, so that a malformed cyclic tree prints a
    /// marker instead of recursing forever.
    active: Vec<bool>,
}

impl<'a> Writer<'a> {
    fn new(module: &'a Module, names: &'a ModuleNames) -> Self {
        Writer {
            out: String::new(),
            indent: 0,
            module,
            names,
            exprs: &module.global_expressions,
            function: None,
            active: vec![false; module.global_expressions.len()],
        }
    }

    fn enter_function(&mut self, func: &'a Function) {
        self.exprs = &func.expressions;
        self.active = vec![false; func.expressions.len()];
        self.function = Some((func, FunctionNames::new(self.module, func)));
    }

    fn leave_function(&mut self) {
        self.exprs = &self.module.global_expressions;
        self.active = vec![false; self.exprs.len()];
        self.function = None;
    }

    /// Starts a new top-level item, a blank line away from the previous one.
    fn separate(&mut self) {
        if !self.out.is_empty() {
            self.out.push('\n');
        }
    }

    fn start_line(&mut self) {
        for _ in 0..self.indent {
            self.out.push_str("    ");
        }
    }

    fn type_name(&self, ty: Handle<crate::Type>) -> String {
        type_name(self.module, ty)
    }

    fn declarator(&self, ty: Handle<crate::Type>, name: &str) -> String {
        types::declarator(self.module, ty, name)
    }
}
