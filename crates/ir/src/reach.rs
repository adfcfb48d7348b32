//! What entry points reach: the functions their calls lead to and the
//! globals those functions name, with the initializers of those globals
//! (which may call a function or name another global) followed to a
//! fixpoint. Computed once per question; the writers, the binding plan and
//! the legalizers read it instead of walking the module each.
//!
//! ```
//! use legalis_ir as ir;
//!
//! let module = ir::Module::default();
//! let reach = ir::Reach::new(&module, [], []);
//! assert_eq!(reach.functions().count(), 0);
//! assert_eq!(reach.globals().count(), 0);
//! ```

use crate::{Expression, ExpressionArena, Function, GlobalVariable, Handle, Module};

/// The functions and globals some roots reach (see the module doc).
///
/// Both lists come in handle order: functions callee before caller (the
/// module's own order, an invariant of the IR), globals as declared.
#[derive(Clone, Debug, Default)]
pub struct Reach {
    /// One flag per function of the module.
    functions: Vec<bool>,
    /// One flag per global of the module.
    globals: Vec<bool>,
    /// Globals named but outside the module's arena (a malformed module),
    /// in handle order; kept so that a caller that checks them sees them.
    outside_globals: Vec<Handle<GlobalVariable>>,
    /// A called function the module does not define, if any.
    undefined_call: Option<Handle<Function>>,
}

impl Reach {
    /// What the functions `functions` and the globals `globals` reach:
    /// every function called, transitively, every global named, and what
    /// the initializers of those globals call and name.
    pub fn new(
        module: &Module,
        functions: impl IntoIterator<Item = Handle<Function>>,
        globals: impl IntoIterator<Item = Handle<GlobalVariable>>,
    ) -> Reach {
        let mut walk = Walk::new(module);
        walk.function_work.extend(functions);
        walk.global_work.extend(globals);
        walk.run(true);
        walk.finish()
    }

    /// What entry point `entry` reaches (see [`Reach::new`]).
    pub fn of_entry_point(module: &Module, entry: &crate::EntryPoint) -> Reach {
        Reach::new(module, [entry.function], [])
    }

    /// The functions `functions` call, transitively, and themselves; no
    /// globals and no initializers (what a question about code alone
    /// asks, such as the intrinsics an entry point's own code uses).
    pub fn calls(module: &Module, functions: impl IntoIterator<Item = Handle<Function>>) -> Reach {
        let mut walk = Walk::new(module);
        walk.function_work.extend(functions);
        walk.run(false);
        walk.finish()
    }

    /// The functions reached, callee before caller.
    pub fn functions(&self) -> impl Iterator<Item = Handle<Function>> + '_ {
        flagged(&self.functions)
    }

    /// The globals reached, in declaration order.
    pub fn globals(&self) -> impl Iterator<Item = Handle<GlobalVariable>> + '_ {
        flagged(&self.globals).chain(self.outside_globals.iter().copied())
    }

    /// Whether function `f` is reached.
    pub fn has_function(&self, f: Handle<Function>) -> bool {
        self.functions.get(f.index()).copied().unwrap_or(false)
    }

    /// Whether global `g` is reached.
    pub fn has_global(&self, g: Handle<GlobalVariable>) -> bool {
        match self.globals.get(g.index()) {
            Some(&flag) => flag,
            None => self.outside_globals.contains(&g),
        }
    }

    /// A call of a function the module does not define, if the walk met
    /// one (only a malformed module has one; the verifier reports it).
    pub fn undefined_call(&self) -> Option<Handle<Function>> {
        self.undefined_call
    }
}

/// The handles whose flag is set, in order.
fn flagged<T>(flags: &[bool]) -> impl Iterator<Item = Handle<T>> + '_ {
    flags
        .iter()
        .enumerate()
        .filter(|&(_, &flag)| flag)
        .map(|(i, _)| Handle::from_index(i))
}

/// The work lists of one reachability question.
struct Walk<'a> {
    module: &'a Module,
    reach: Reach,
    function_work: Vec<Handle<Function>>,
    global_work: Vec<Handle<GlobalVariable>>,
}

impl<'a> Walk<'a> {
    fn new(module: &'a Module) -> Self {
        Walk {
            module,
            reach: Reach {
                functions: vec![false; module.functions.len()],
                globals: vec![false; module.globals.len()],
                outside_globals: Vec::new(),
                undefined_call: None,
            },
            function_work: Vec::new(),
            global_work: Vec::new(),
        }
    }

    /// Drains both work lists; with `globals` false, globals are not
    /// followed (nor recorded).
    fn run(&mut self, globals: bool) {
        let module = self.module;
        loop {
            if let Some(f) = self.function_work.pop() {
                let Some(flag) = self.reach.functions.get_mut(f.index()) else {
                    self.reach.undefined_call.get_or_insert(f);
                    continue;
                };
                if std::mem::replace(flag, true) {
                    continue;
                }
                for (_, e) in module.functions[f].expressions.iter() {
                    self.note(e, globals);
                }
            } else if let Some(g) = self.global_work.pop() {
                if !self.first_time(g) {
                    continue;
                }
                if let Some(init) = module.globals.try_get(g).and_then(|v| v.init) {
                    self.note_tree(&module.global_expressions, init);
                }
            } else {
                return;
            }
        }
    }

    /// Marks global `g` reached; whether it was not before.
    fn first_time(&mut self, g: Handle<GlobalVariable>) -> bool {
        match self.reach.globals.get_mut(g.index()) {
            Some(flag) => !std::mem::replace(flag, true),
            None if self.reach.outside_globals.contains(&g) => false,
            None => {
                let at = self.reach.outside_globals.partition_point(|&o| o < g);
                self.reach.outside_globals.insert(at, g);
                true
            }
        }
    }

    /// The calls and globals of the expression tree at `root`.
    fn note_tree(&mut self, exprs: &ExpressionArena, root: Handle<Expression>) {
        let mut stack = vec![root];
        while let Some(e) = stack.pop() {
            if !exprs.contains(e) {
                continue;
            }
            let expr = &exprs[e];
            self.note(expr, true);
            stack.extend(expr.children());
        }
    }

    fn note(&mut self, e: &Expression, globals: bool) {
        match e {
            Expression::Call { function, .. } => self.function_work.push(*function),
            Expression::Global(g) if globals => self.global_work.push(*g),
            _ => {}
        }
    }

    fn finish(self) -> Reach {
        self.reach
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{AddressSpace, Block, Span, Type, TypeInner};

    fn function(module: &mut Module, name: &str, calls: &[Handle<Function>]) -> Handle<Function> {
        let mut func = Function {
            name: name.into(),
            params: Vec::new(),
            result: None,
            locals: Default::default(),
            expressions: Default::default(),
            body: Block::default(),
            span: Span::UNDEFINED,
        };
        for &f in calls {
            let call = Expression::Call {
                function: f,
                args: Vec::new(),
            };
            func.expressions.append(call, None, Span::UNDEFINED);
        }
        module.functions.append(func, Span::UNDEFINED)
    }

    fn global(module: &mut Module, name: &str) -> Handle<GlobalVariable> {
        let ty = module.types.insert(
            Type {
                name: None,
                inner: TypeInner::Scalar(crate::Scalar::F32),
            },
            Span::UNDEFINED,
        );
        let var = GlobalVariable {
            name: name.into(),
            ty,
            space: AddressSpace::Private,
            binding: Default::default(),
            matrix_layout: None,
            init: None,
            globally_coherent: false,
            io: None,
        };
        module.globals.append(var, Span::UNDEFINED)
    }

    #[test]
    fn follows_calls_globals_and_initializers() {
        let mut module = Module::default();
        let unused = function(&mut module, "unused", &[]);
        let leaf = function(&mut module, "leaf", &[]);
        let from_init = function(&mut module, "from_init", &[]);
        let a = global(&mut module, "a");
        let b = global(&mut module, "b");
        let c = global(&mut module, "c");
        // `b`'s initializer calls `from_init` and names `c`.
        let exprs = &mut module.global_expressions;
        let call = Expression::Call {
            function: from_init,
            args: Vec::new(),
        };
        let call = exprs.append(call, None, Span::UNDEFINED);
        let name_c = exprs.append(Expression::Global(c), None, Span::UNDEFINED);
        let sum = Expression::Binary {
            op: crate::BinaryOp::Add,
            left: call,
            right: name_c,
        };
        let sum = exprs.append(sum, None, Span::UNDEFINED);
        module.globals.get_mut(b).init = Some(sum);
        let main = function(&mut module, "main", &[leaf]);
        let main_exprs = &mut module.functions.get_mut(main).expressions;
        main_exprs.append(Expression::Global(b), None, Span::UNDEFINED);

        let reach = Reach::new(&module, [main], []);
        assert_eq!(
            reach.functions().collect::<Vec<_>>(),
            [leaf, from_init, main]
        );
        assert_eq!(reach.globals().collect::<Vec<_>>(), [b, c]);
        assert!(!reach.has_function(unused) && !reach.has_global(a));
        assert_eq!(reach.undefined_call(), None);

        let calls = Reach::calls(&module, [main]);
        assert_eq!(calls.functions().collect::<Vec<_>>(), [leaf, main]);
        assert_eq!(calls.globals().count(), 0);

        let roots = Reach::new(&module, [], [a]);
        assert_eq!(roots.globals().collect::<Vec<_>>(), [a]);
    }

    #[test]
    fn notes_what_a_malformed_module_names() {
        let mut module = Module::default();
        let missing = Handle::<Function>::from_index(7);
        let outside = Handle::<GlobalVariable>::from_index(3);
        let main = function(&mut module, "main", &[missing]);
        let main_exprs = &mut module.functions.get_mut(main).expressions;
        main_exprs.append(Expression::Global(outside), None, Span::UNDEFINED);
        let reach = Reach::new(&module, [main], []);
        assert_eq!(reach.undefined_call(), Some(missing));
        assert_eq!(reach.globals().collect::<Vec<_>>(), [outside]);
        assert!(reach.has_global(outside));
    }
}
