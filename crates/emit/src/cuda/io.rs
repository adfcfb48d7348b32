//! What the host binds: the launch parameters (OptiX's `params` struct),
//! a kernel's trailing parameters, the resources the host sees and the
//! module-scope constants.

use super::types::Result;
use super::writer::{GlobalKind, Writer};
use crate::cfamily::prelude::*;
use crate::cfamily::reach;
use legalis_ir as ir;
use legalis_ir::{Handle, TypeInner};
use std::fmt::Write as _;

impl Writer<'_> {
    pub(super) fn globals_of(&self, kind: GlobalKind) -> Vec<Handle<ir::GlobalVariable>> {
        reach::globals_of(&self.kinds, |k| *k == kind)
    }

    /// An OptiX program's resources: the launch parameters, one member per
    /// resource in declaration order, then the `Globals` block.
    pub(super) fn launch_params(&self) -> Result<String> {
        if self.program.is_none() {
            return Ok(String::new());
        }
        let members = self.launch_members()?;
        if members.is_empty() {
            return Ok(String::new());
        }
        let mut out = String::from("struct LaunchParams\n{\n");
        for (_, declaration) in members {
            writeln!(out, "    {declaration};").ok();
        }
        out.push_str("};\n\nextern \"C\"\n{\n    __constant__ LaunchParams params;\n}\n\n");
        Ok(out)
    }

    /// The members of an OptiX program's launch parameters, each with its
    /// global (`None`: the `Globals` block) and declaration.
    fn launch_members(&self) -> Result<Vec<(Option<Handle<ir::GlobalVariable>>, String)>> {
        let mut members = Vec::new();
        for g in self.globals_of(GlobalKind::Resource(())) {
            let span = self.module.globals.span(g);
            let declaration = format!(
                "{} {}",
                self.resource_type(g, span)?,
                self.names.globals[&g]
            );
            members.push((Some(g), declaration));
        }
        if let Some((ty, name)) = &self.globals_block {
            members.push((None, format!("{ty} {name}")));
        }
        Ok(members)
    }

    /// The parameters function `f` takes for the globals it reaches
    /// (`kernel`: the kernel's own, which are all its parameters), each
    /// with its global (`None`: the `Globals` block).
    pub(super) fn trailing_params(
        &self,
        f: Handle<ir::Function>,
        kernel: bool,
    ) -> Result<Vec<(Option<Handle<ir::GlobalVariable>>, String)>> {
        let mut params = Vec::new();
        for &g in &self.threaded[&f] {
            if let Some(p) = self.global_param(g, kernel)? {
                params.push((Some(g), p));
            }
        }
        let needs_globals_block = self.threaded[&f]
            .iter()
            .any(|g| self.kinds[g] == GlobalKind::Plain);
        if let (true, Some((ty, name))) = (needs_globals_block, &self.globals_block) {
            params.push((
                None,
                if kernel {
                    format!("{ty} {name}")
                } else {
                    format!("const {ty}& {name}")
                },
            ));
        }
        Ok(params)
    }

    /// Where each resource and plain uniform the entry point reaches is
    /// in the output: the kernel parameters or the launch parameters
    /// (the same lists the kernel's signature and `LaunchParams` are
    /// written from).
    pub fn resources(&self) -> Result<Vec<super::Resource>> {
        let module = self.module;
        let list = match self.program {
            Some(_) => self.launch_members()?,
            None => self.trailing_params(self.entry.function, true)?,
        };
        let count = list.len() as u32;
        let mut out = Vec::new();
        for (index, (global, declaration)) in list.into_iter().enumerate() {
            let place = match self.program {
                Some(_) => super::ResourcePlace::LaunchParams,
                None => super::ResourcePlace::KernelParameter(index as u32),
            };
            match global {
                Some(g) => out.push(super::Resource {
                    global: module.globals[g].name.clone(),
                    name: self.names.globals[&g].clone(),
                    declaration,
                    place,
                    block: None,
                    parameter: None,
                }),
                None => {
                    let Some((_, block)) = &self.globals_block else {
                        continue;
                    };
                    for g in self.globals_of(GlobalKind::Plain) {
                        let span = module.globals.span(g);
                        let name = self.names.globals[&g].clone();
                        let columns = self.column_globals.contains(&g);
                        out.push(super::Resource {
                            global: module.globals[g].name.clone(),
                            declaration: format!(
                                "{} {name}",
                                self.spell_stored(module.globals[g].ty, columns, span)?
                            ),
                            name,
                            place: place.clone(),
                            block: Some(block.clone()),
                            parameter: None,
                        });
                    }
                }
            }
        }
        out.extend(self.uniform_resources(count)?);
        Ok(out)
    }

    /// The entry point's `uniform` parameters as [`super::Resource`]s: an
    /// OptiX program's shader-record members, or a kernel's launch
    /// arguments from parameter `first` on.
    fn uniform_resources(&self, first: u32) -> Result<Vec<super::Resource>> {
        let params = &self.entry_function().params;
        let mut out = Vec::new();
        if let Some(record) = &self.record_struct {
            for (member, (&i, (spelled, name, ..))) in self
                .uniform_params
                .iter()
                .zip(self.record_fields()?)
                .enumerate()
            {
                out.push(super::Resource {
                    global: params[i].name.clone(),
                    declaration: format!("{spelled} {name}"),
                    name,
                    place: super::ResourcePlace::ShaderRecord {
                        record: record.clone(),
                        member: member as u32,
                    },
                    block: None,
                    parameter: Some(i as u32),
                });
            }
            return Ok(out);
        }
        let ctx = self.fn_ctx(self.entry.function)?;
        for (n, &i) in self.uniform_params.iter().enumerate() {
            let p = &params[i];
            let name = ctx.param_names[i].clone();
            out.push(super::Resource {
                global: p.name.clone(),
                declaration: format!("{} {name}", self.param_type(p.ty, p.span)?),
                name,
                place: super::ResourcePlace::KernelParameter(first + n as u32),
                block: None,
                parameter: Some(i as u32),
            });
        }
        Ok(out)
    }

    /// `static const` values: `__device__ const` variables, but for those
    /// whose initializer nvcc cannot initialize statically (vector and
    /// matrix arithmetic, reads of other constants: `a + c`), which are
    /// written as their initializer where they are used.
    pub(super) fn constants(&self) -> Result<String> {
        let mut constants = self.globals_of(GlobalKind::Constant);
        constants.retain(|g| self.inlined_constant(*g).is_none());
        self.write_constants(&constants, "__device__ const", |_, _| Ok(()))
    }

    /// A threaded global as a parameter of a function (`kernel`: of the
    /// kernel itself).
    pub(super) fn global_param(
        &self,
        g: Handle<ir::GlobalVariable>,
        kernel: bool,
    ) -> Result<Option<String>> {
        let module = self.module;
        let global = &module.globals[g];
        let span = module.globals.span(g);
        let name = &self.names.globals[&g];
        let text = match self.kinds[&g] {
            GlobalKind::Constant | GlobalKind::Plain => return Ok(None),
            GlobalKind::Private | GlobalKind::Workgroup if kernel => return Ok(None),
            GlobalKind::Private | GlobalKind::Workgroup => {
                format!("{}& {name}", self.spell(global.ty, span)?)
            }
            GlobalKind::Resource(()) => {
                let ty = self.resource_type(g, span)?;
                match &module.types[global.ty].inner {
                    // A constant buffer is a value of the kernel, a const
                    // reference below it.
                    TypeInner::ConstantBuffer { .. } if !kernel => format!("const {ty}& {name}"),
                    _ => format!("{ty} {name}"),
                }
            }
        };
        Ok(Some(text))
    }
}
