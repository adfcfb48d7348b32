//! Functions: signatures (`in` parameters by value, `out`/`inout` as
//! pointers to function variables, textures and samplers as pointers to
//! their `UniformConstant` variables), parameter and local variables, the
//! entry point's initialization of `static` globals, and the body.

use legalis_ir as ir;
use legalis_ir::FastHashMap;
use legalis_ir::{AddressSpace, Handle, TypeInner};
use spirv::{FunctionControl, StorageClass, Word};

use super::expr::Place;
use super::io::plain_ptr;
use super::writer::{FnState, Layout, Result, Writer, unsupported};

impl<'a> Writer<'a> {
    fn function_type(&mut self, ret: Word, params: &[Word]) -> Word {
        let mut key = vec![ret];
        key.extend(params);
        if let Some(&id) = self.fn_type_ids.get(&key) {
            return id;
        }
        let id = self.b.type_function(ret, params.to_vec());
        self.fn_type_ids.insert(key, id);
        id
    }

    /// The parameter's SPIR-V type and the storage class of its place
    /// (`None` for `in` values, which are copied into a variable).
    fn param_type(&mut self, p: &ir::FunctionParam) -> Result<(Word, Option<StorageClass>)> {
        let ty = self.ty(p.ty, Layout::Plain)?;
        match self.inner(p.ty) {
            TypeInner::Texture(_) | TypeInner::Sampler { .. } => Ok((
                self.pointer(ty, StorageClass::UniformConstant),
                Some(StorageClass::UniformConstant),
            )),
            inner if inner.is_resource() => unsupported(
                "buffer parameters (pass the buffer's elements instead)",
                p.span,
            ),
            // A ray query is passed as its variable whatever the direction:
            // HLSL's names one query, which the callee advances.
            TypeInner::RayQuery { .. } => Ok((
                self.pointer(ty, StorageClass::Function),
                Some(StorageClass::Function),
            )),
            _ => match p.direction {
                ir::ParamDirection::In => Ok((ty, None)),
                _ => Ok((
                    self.pointer(ty, StorageClass::Function),
                    Some(StorageClass::Function),
                )),
            },
        }
    }

    pub fn write_function(&mut self, f: Handle<ir::Function>) -> Result<()> {
        let module: &'a ir::Module = self.module;
        let func = &module.functions[f];
        let ret = match &func.result {
            Some(r) => self.ty(r.ty, Layout::Plain)?,
            None => self.void(),
        };
        let mut kinds = Vec::new();
        for p in &func.params {
            kinds.push(self.param_type(p)?);
        }
        let param_tys: Vec<Word> = kinds.iter().map(|k| k.0).collect();
        let fn_ty = self.function_type(ret, &param_tys);
        let id = self.function_ids[&f];
        self.b
            .begin_function(ret, Some(id), FunctionControl::NONE, fn_ty)?;
        if self.options.debug_names && !self.is_entry_function(f) {
            self.b.name(id, func.name.clone());
        }
        let mut param_ids = Vec::new();
        for (&(ty, _), p) in kinds.iter().zip(&func.params) {
            let pid = self.b.function_parameter(ty)?;
            if self.device_pointers.contains(&ty) {
                self.decorate(pid, spirv::Decoration::Aliased, []);
            }
            if self.options.debug_names {
                self.b.name(pid, p.name.clone());
            }
            param_ids.push(pid);
        }
        let label = self.b.id();
        self.begin(label)?;
        self.fs = FnState {
            exprs: &func.expressions,
            func: Some(func),
            locals: FastHashMap::default(),
            params: Vec::new(),
            breaks: Vec::new(),
        };
        self.bind_params(func, &kinds, &param_ids)?;
        for (h, local) in func.locals.iter() {
            if local.is_static {
                return unsupported("`static` local variables", func.span);
            }
            let ty = self.ty(local.ty, Layout::Plain)?;
            let var = self.function_var(ty, Some(&local.name))?;
            self.fs.locals.insert(h, var);
        }
        if let Some(k) = self.entries.iter().position(|e| e.function == f) {
            self.write_private_inits(k)?;
        }
        self.entry_interlock(true)?;
        self.emit_block(&func.body)?;
        if !self.terminated() {
            if func.result.is_some() {
                self.b.unreachable()?;
            } else {
                self.entry_interlock(false)?;
                self.b.ret()?;
            }
        }
        self.b.end_function()?;
        Ok(())
    }

    /// `in` parameters get a variable of their own, as HLSL lets a function
    /// assign its parameters; the others are places already.
    fn bind_params(
        &mut self,
        func: &ir::Function,
        kinds: &[(Word, Option<StorageClass>)],
        ids: &[Word],
    ) -> Result<()> {
        for ((p, &(ty, class)), &pid) in func.params.iter().zip(kinds).zip(ids) {
            let ptr = match class {
                Some(class) => plain_ptr(pid, p.ty, class),
                None => {
                    let var = self.function_var(ty, Some(&p.name))?;
                    let ptr = plain_ptr(var, p.ty, StorageClass::Function);
                    self.store(&Place::Mem(ptr.clone()), pid)?;
                    ptr
                }
            };
            self.fs.params.push(ptr);
        }
        Ok(())
    }

    /// `static` initializers need not be constant in HLSL: they run at the
    /// top of the entry point, in declaration order.
    fn write_private_inits(&mut self, k: usize) -> Result<()> {
        let module: &'a ir::Module = self.module;
        let saved = (self.fs.exprs, self.fs.func);
        self.fs.exprs = &module.global_expressions;
        self.fs.func = None;
        for g in self.entry_globals(k) {
            let var = &module.globals[g];
            let (AddressSpace::Private | AddressSpace::Constant, Some(init)) =
                (var.space, var.init)
            else {
                continue;
            };
            let v = self.value(init)?;
            let place = Place::Mem(self.globals[&g].clone());
            self.store(&place, v)?;
        }
        (self.fs.exprs, self.fs.func) = saved;
        Ok(())
    }
}
