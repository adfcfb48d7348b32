//! Module-scope declarations: the attributes of stage inputs and outputs
//! (`@builtin`, `@location`, `@interpolate`), resources with `@group` and
//! `@binding`, `var<private>`/`var<workgroup>` and the `_Globals` uniform
//! struct.

use super::types::{Result, is_bool, unsupported};
use super::writer::{Writer, static_init};
use std::fmt::Write as _;

use legalis_ir as ir;
use legalis_ir::{AddressSpace, Handle, ShaderStage, Span, TypeInner};

use super::Error;

impl Writer<'_> {
    /// `@builtin(name)` or `@location(n) @interpolate(...)`, on the
    /// interface of a `stage` entry point.
    pub fn io_attributes(
        &self,
        binding: &ir::Binding,
        stage: ShaderStage,
        span: Span,
    ) -> Result<String> {
        match binding {
            ir::Binding::BuiltIn(b) => {
                let name = [
                    legalis_sysval::Direction::Input,
                    legalis_sysval::Direction::Output,
                ]
                .into_iter()
                .find_map(|d| match legalis_sysval::wgsl(b.value, stage, d) {
                    legalis_sysval::WgslMapping::BuiltIn(row) => Some(row.name),
                    _ => None,
                });
                match name {
                    Some(name) => Ok(format!("@builtin({name}) ")),
                    None => Err(Error::NotLegalized {
                        what: format!("`{}` has no WGSL builtin", b.value.name()),
                        span,
                    }),
                }
            }
            ir::Binding::Location {
                location,
                interpolation,
                index,
                ..
            } => {
                let mut s = String::with_capacity(16);
                s.push_str("@location(");
                crate::push_number(&mut s, *location);
                s.push_str(") ");
                if let Some(index) = index {
                    write!(s, "@blend_src({index}) ").ok();
                }
                if !interpolation.is_default() {
                    let mode = match interpolation.mode {
                        Some(ir::InterpolationMode::Flat) => "flat",
                        Some(ir::InterpolationMode::NoPerspective) => "linear",
                        Some(ir::InterpolationMode::Linear) | None => "perspective",
                    };
                    let sampling = match (interpolation.mode, interpolation.sampling) {
                        (Some(ir::InterpolationMode::Flat), _) | (_, None) => "",
                        (_, Some(ir::Sampling::Centroid)) => ", centroid",
                        (_, Some(ir::Sampling::Sample)) => ", sample",
                    };
                    write!(s, "@interpolate({mode}{sampling}) ").ok();
                }
                Ok(s)
            }
            ir::Binding::Semantic(semantic) => Err(Error::NotLegalized {
                what: format!("the semantic `{semantic}` was not legalized"),
                span,
            }),
            ir::Binding::PrimitiveIndices => {
                unsupported("mesh primitive indices (WGSL has no mesh stage)", span)
            }
        }
    }

    pub(super) fn globals(&mut self) -> Result<String> {
        let module = self.module;
        let mut out = String::new();
        // `_Globals` first, as the binding rule numbers it.
        if let Some((var, members)) = self.plain_uniforms.clone() {
            let struct_name = self.names.call("GlobalsBlock");
            writeln!(out, "struct {struct_name} {{").ok();
            let mut after_struct = false;
            for g in self.used_globals.clone() {
                let Some(name) = members.get(&g) else {
                    continue;
                };
                let v = &module.globals[g];
                let span = module.globals.span(g);
                if self.paddable(v.ty) {
                    self.padded_globals.insert(g);
                } else if is_bool(module, v.ty) {
                    self.bool_globals.insert(g);
                } else if self
                    .padded_matrix(v.ty, self.transposed_globals.contains(&g))
                    .is_some()
                {
                    self.padded_matrix_globals.insert(g);
                } else {
                    self.check_uniform(v.ty, span)?;
                }
                let inner = &module.types[v.ty].inner;
                let is_struct = matches!(inner, TypeInner::Struct { .. });
                let align = if is_struct || after_struct || matches!(inner, TypeInner::Array { .. })
                {
                    "@align(16) "
                } else {
                    ""
                };
                after_struct = is_struct;
                let transposed = self.transposed_globals.contains(&g);
                let ty = if self.padded_globals.contains(&g) {
                    self.padded_spelling(v.ty, span)?
                } else if self.padded_matrix_globals.contains(&g) {
                    self.padded_matrix_spelling(v.ty, transposed, span)?
                } else if self.bool_globals.contains(&g) {
                    self.bool_spelling(v.ty)
                } else {
                    self.spell_stored(v.ty, transposed, span)?
                };
                writeln!(out, "    {align}{name}: {ty},").ok();
            }
            out.push_str("}\n\n");
            let (set, binding) = self.bindings.globals_block.unwrap_or((0, 0));
            writeln!(
                out,
                "@group({set}) @binding({binding}) var<uniform> {var}: {struct_name};\n"
            )
            .ok();
        }
        for &g in &self.used_globals.clone() {
            let v = &module.globals[g];
            let span = module.globals.span(g);
            let Some(name) = self.global_names.get(&g).cloned() else {
                continue;
            };
            match v.space {
                AddressSpace::Uniform => {
                    let decl = self.resource_declaration(g, v, &name, span)?;
                    let (set, binding) = self.bindings.resources.get(&g).copied().unwrap_or((0, 0));
                    writeln!(out, "@group({set}) @binding({binding}) {decl}\n").ok();
                }
                AddressSpace::Private | AddressSpace::Constant => {
                    let ty = self.spell(v.ty, span)?;
                    match v.init {
                        Some(init)
                            if super::expr::is_const(&module.global_expressions, init)
                                && super::expr::finite_literals(
                                    module,
                                    &module.global_expressions,
                                    init,
                                ) =>
                        {
                            let mut ctx = super::expr::FnCtx::for_globals(self);
                            let value = self.expr(&mut ctx, init)?;
                            writeln!(out, "var<private> {name}: {ty} = {value};\n").ok();
                        }
                        Some(_) => {
                            self.entry_inits.push(g);
                            writeln!(out, "var<private> {name}: {ty};\n").ok();
                        }
                        None => {
                            writeln!(out, "var<private> {name}: {ty};\n").ok();
                        }
                    }
                }
                AddressSpace::Workgroup => {
                    let ty = if self.atomic_globals.contains(&g) {
                        self.spell_atomic(v.ty, span)?
                    } else {
                        self.spell(v.ty, span)?
                    };
                    writeln!(out, "var<workgroup> {name}: {ty};\n").ok();
                }
                AddressSpace::Input | AddressSpace::Output => {
                    return Err(Error::NotLegalized {
                        what: format!(
                            "the interface global `{}` (WGSL passes varyings as parameters)",
                            v.name
                        ),
                        span,
                    });
                }
                AddressSpace::TaskPayload => {
                    return unsupported(
                        "a task payload (WGSL has no mesh or amplification stages)",
                        span,
                    );
                }
                AddressSpace::RayTracing(_) => {
                    return unsupported(
                        "ray-tracing storage (WGSL has no ray-tracing stages)",
                        span,
                    );
                }
            }
        }
        // Hoisted `static` locals.
        let mut statics: Vec<_> = self
            .static_locals
            .iter()
            .map(|(k, v)| (*k, v.clone()))
            .collect();
        statics.sort();
        for ((f, l), name) in statics {
            let func = &module.functions[f];
            let local = &func.locals[l];
            let span = func.locals.span(l);
            let ty = self.spell(local.ty, span)?;
            match static_init(&func.body, l) {
                Some(init) if super::expr::is_const(&func.expressions, init) => {
                    let mut ctx = super::expr::FnCtx::new(self, f)?;
                    let value = self.expr(&mut ctx, init)?;
                    writeln!(out, "var<private> {name}: {ty} = {value};\n").ok();
                }
                Some(init) => {
                    return unsupported(
                        "a `static` local whose initializer is not a constant expression",
                        func.expressions.span(init),
                    );
                }
                None => {
                    writeln!(out, "var<private> {name}: {ty};\n").ok();
                }
            }
        }
        Ok(out)
    }

    /// The declaration after `@group @binding` of a resource global.
    fn resource_declaration(
        &mut self,
        g: Handle<ir::GlobalVariable>,
        v: &ir::GlobalVariable,
        name: &str,
        span: Span,
    ) -> Result<String> {
        let module = self.module;
        let u = self.uses.get(&g).copied().unwrap_or_default();
        let decl = match &module.types[v.ty].inner {
            TypeInner::ConstantBuffer { inner } => {
                self.check_uniform(*inner, span)?;
                format!("var<uniform> {name}: {};", self.spell(*inner, span)?)
            }
            TypeInner::Buffer {
                kind: ir::BufferKind::Structured,
                access,
                element: Some(element),
                ..
            } => {
                self.check_storage(*element, span)?;
                let access = match access {
                    ir::ResourceAccess::Read => "read",
                    _ => "read_write",
                };
                let element = if self.atomic_globals.contains(&g) {
                    self.spell_atomic(*element, span)?
                } else {
                    self.spell_stored(*element, self.transposed_globals.contains(&g), span)?
                };
                format!("var<storage, {access}> {name}: array<{element}>;")
            }
            TypeInner::Buffer {
                kind: ir::BufferKind::ByteAddress,
                access,
                ..
            } => {
                let access = match access {
                    ir::ResourceAccess::Read => "read",
                    _ => "read_write",
                };
                let word = if self.atomic_globals.contains(&g) {
                    "atomic<u32>"
                } else {
                    "u32"
                };
                format!("var<storage, {access}> {name}: array<{word}>;")
            }
            TypeInner::Texture(_) | TypeInner::Sampler { .. } => {
                format!("var {name}: {};", self.handle_type(v.ty, u, span)?)
            }
            _ => {
                return unsupported(
                    format!(
                        "a resource of type `{}` (no WGSL counterpart yet)",
                        ir::print::type_name(module, v.ty)
                    ),
                    span,
                );
            }
        };
        Ok(decl)
    }
}
